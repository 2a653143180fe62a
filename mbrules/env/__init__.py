"""Reinforcement-learning environments for any ruleset (the ``rl`` extra: ``pip install 'mbrules[rl]'``).

* ``from mbrules.env import mille_bornes_v1``: the PettingZoo AEC environment, the draw taken for
  the agent (``mille_bornes_v0``: the draw an agent step, kept for code written against it);
* ``mbrules.env.single_agent_env(ruleset=..., players=..., opponents="heuristic", options=...)``:
  a Gymnasium environment of one seat, named bots in the others;
* ``import mbrules.openspiel`` registers the OpenSpiel game ``python_mille_bornes``.

All share the action space and observation vector of :mod:`mbrules.env.encoding` (docs/rl.md).
Each is imported (with its toolkit) only when asked for.
"""

from __future__ import annotations

__all__ = ["mille_bornes_v0", "mille_bornes_v1", "single_agent_env"]


def __getattr__(name: str) -> object:
    if name == "single_agent_env":
        from .single import single_agent_env

        return single_agent_env
    if name in ("mille_bornes_v0", "mille_bornes_v1"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'mbrules.env' has no attribute {name!r}")
