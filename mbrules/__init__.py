"""mbrules: the rules of Mille Bornes as data, one generic engine, and the tools around it.

    import mbrules
    game = mbrules.load_game("winning-moves", players=4, options=["hazard-on-hazard"])
    state = game.new_match(seed=7)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    state.outcome

The names every tool shares (card kinds, ops, piles, decision kinds, terminations, score
lines, reason codes) are :mod:`mbrules.vocab`'s. See docs/api.md. Everything named in ``__all__`` is the public API; the rest may change.
"""

from __future__ import annotations

import os as _os
from typing import TYPE_CHECKING, Any, Sequence

from . import _startup

if _os.environ.get("MBRULES_COMPILED"):  # the compiled engine, when built and not stale (docs/performance.md)
    from . import _compiled

    _compiled.activate(_os.environ["MBRULES_COMPILED"])

if _startup.is_command():  # the mbrules command starting: a signal now exits 130/143, quietly
    _startup.install_early()

if TYPE_CHECKING:
    from pathlib import Path

    from .engine import (
        Action,
        Decision,
        Game,
        GameError,
        IllegalAction,
        NotationError,
        Observation,
        Observer,
        Outcome,
        SideView,
        Snapshot,
        State,
        Transition,
    )
from .vocab import CardKind, DecisionKind, Op, Pile, Reason, ScoreLine, Termination

# The engine's public names load on first use: a command that never plays (mbrules rulesets, show,
# validate) does not pay for the engine's import.
_ENGINE_NAMES = (
    "Action",
    "Decision",
    "Game",
    "GameError",
    "IllegalAction",
    "NotationError",
    "Observation",
    "Observer",
    "Outcome",
    "SideView",
    "Snapshot",
    "State",
    "Transition",
)


def __getattr__(name: str) -> Any:
    """The engine's names on first use, and ``mbrules.__version__``, read from the installed metadata
    on first use (:mod:`mbrules._version`)."""
    if name in _ENGINE_NAMES:
        from . import engine

        value = getattr(engine, name)
        globals()[name] = value
        return value
    if name == "__version__":
        from ._version import installed_version

        value = installed_version() or "0+unknown"  # "0+unknown": a source tree that was never installed
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module 'mbrules' has no attribute {name!r}")


def load_game(
    ruleset: str, players: int = 4, options: Sequence[str] = (), *, files_read: list[Path] | None = None
) -> Game:
    """The rules of ``ruleset`` (a bundled id or a path to a YAML file) with ``options``, compiled for ``players``.

    ``options``: a list of option ids or paths, applied in order; one string is one option.
    Raises :class:`mbrules.ruleset.RulesetError` for a file that is not a valid ruleset (its
    ``lines`` say FILE:LINE:COL: what is wrong) and :class:`GameError` for a player count the
    ruleset does not allow. ``files_read``, if given, is extended with every file read (the ruleset,
    its ``extends`` chain, every option): what a command must never write over.
    """
    from .engine import Game
    from .ruleset.loader import load_ruleset, option_refs  # the pydantic models load only when a game is asked for

    return Game(load_ruleset(ruleset, option_refs(options), files_read=files_read), players)


__all__ = [
    "Action",
    "Decision",
    "Game",
    "GameError",
    "IllegalAction",
    "NotationError",
    "Observation",
    "Observer",
    "Outcome",
    "SideView",
    "Snapshot",
    "State",
    "Transition",
    "__version__",
    "load_game",
    # the public vocabulary (mbrules.vocab): closed sets of names, str-valued enums
    "CardKind",
    "DecisionKind",
    "Op",
    "Pile",
    "Reason",
    "ScoreLine",
    "Termination",
]


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
