"""Refusals in the words of the table: why a card cannot be played, said to the person holding it.

The wording lives in :mod:`mbrules.narrate` (:func:`~mbrules.narrate.refusal`,
:func:`~mbrules.narrate.why_not`), below the terminal game and the browser tables, which both say
it; this module keeps the terminal game's name for it.
"""

from __future__ import annotations

from mbrules.narrate import refusal, why_not

__all__ = ["refusal", "why_not"]
