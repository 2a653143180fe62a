"""Words for people, as the engine uses them: :mod:`mbrules.text` (a leaf of the package, so that a command
that folds text does not import the engine), re-exported for the engine's modules."""

from __future__ import annotations

from ..text import fold, players_refused, plural

__all__ = ["fold", "players_refused", "plural"]
