"""A PettingZoo AEC environment for any ruleset mbrules can load; the draw is an agent step.

    from mbrules.env import mille_bornes_v0
    env = mille_bornes_v0.env(ruleset="winning-moves", players=4, options=[])
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Kept as it was for code written against it; ``mille_bornes_v1`` takes the draw for the agent
(about half the steps here are draws, the only legal action then).

Conventions of PettingZoo's classic card games: agents ``p1..pN``; a fixed ``Discrete`` action
space covering every action of the compiled game (``mbrules.env.encoding.ActionSpace``); the
observation is a dict with ``observation`` (float32 vector of what the agent's seat may see,
layout in ``mbrules.env.encoding``) and ``action_mask`` (int8, ones for the legal actions of the
agent to act, zeros for everyone else). ``state()`` is the whole position, hidden cards included
(privileged: for a centralised critic). docs/rl.md documents the layouts and the rewards.

Rewards (``reward=``): ``"match"`` (default) pays at the match's end: +1 to each player of the
winning side, ``-1/(S-1)`` to each player of the other sides (zero-sum), 0 to all for a draw or an
unfinished match (the ruleset's hands cap). ``"points"`` pays at every hand's end each player its
side's points for that hand (the hand's score sheet total), so the episode's return is the side's
match total. ``max_cycles`` (default None) truncates the episode once any agent has taken that
many steps; the ruleset's hands cap already bounds every match.

An action index outside ``0..N-1`` is a ``ValueError`` naming the range (never counted from the
end); a legal-looking index the rules refuse is a ``ValueError`` listing the legal actions.

Seeding: ``reset(seed=s)`` plays the match ``mbrules.load_game(...).new_match(s)`` exactly; a later
``reset()`` without a seed plays ``s + 1``, ``s + 2``, ...; never seeded, the first seed comes
from the operating system.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from ._aec import REWARDS, MilleBornesAEC

__all__ = ["REWARDS", "env", "raw_env"]


def env(**kwargs: Any) -> Any:
    """The environment wrapped like PettingZoo's classic games (order enforcing).

    The bounds are checked by the environment itself (a ``ValueError`` naming the range), so
    PettingZoo's ``AssertOutOfBoundsWrapper`` (an ``AssertionError``, gone under ``python -O``) is not used.
    """
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(MilleBornesAEC):
    """Mille Bornes under any ruleset, every draw an agent step: ``ruleset``, ``players``, ``options``."""

    metadata = {"render_modes": ["human", "ansi"], "name": "mille_bornes_v0", "is_parallelizable": False}
