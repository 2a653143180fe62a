"""A PettingZoo AEC environment for any ruleset mbrules can load; the draw is taken for the agent.

    from mbrules.env import mille_bornes_v1
    env = mille_bornes_v1.env(ruleset="winning-moves", players=4, options=[])
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Like ``mille_bornes_v0`` (same action space, observation vector, rewards, seeding and
``state()``), except that the draw that starts a turn is never an agent step: the environment
takes it as soon as the turn comes, so the drawn card is already in the agent's hand in the
observation it acts on (as in the classic card games, where a forced move is no step). An agent
step is a card played or discarded, a coup-fourré window answered, or the extension question
answered. The ``draw`` action stays in the action space (index 0), never legal.

``env()`` returns the environment itself: it checks the call order on its own (``step``,
``observe``, ``state``, ``agent_iter`` before ``reset`` raise a ``RuntimeError``) and refuses an index outside ``0..N-1`` with a ``ValueError`` naming the range, so
PettingZoo's wrappers, which cost a quarter of a step, would add nothing.
"""

from __future__ import annotations

from typing import Any

from ._aec import REWARDS, MilleBornesAEC

__all__ = ["REWARDS", "env", "raw_env"]


def env(**kwargs: Any) -> raw_env:
    """The environment, its call order and action bounds checked by itself (module docstring)."""
    return raw_env(**kwargs)


class raw_env(MilleBornesAEC):
    """Mille Bornes under any ruleset, the draw automatic: ``ruleset``, ``players``, ``options``."""

    metadata = {"render_modes": ["human", "ansi"], "name": "mille_bornes_v1", "is_parallelizable": False}
    auto_draw = True
    check_order = True
