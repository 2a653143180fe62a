"""The refusal an action gets (:class:`IllegalAction`, with a reason code) and what a state waits for.

How an action is encoded and written belongs to :mod:`mbrules.engine.notation`.
"""

from __future__ import annotations

from typing import NamedTuple

from ..vocab import DecisionKind


class IllegalAction(Exception):
    """An action the rules refuse: ``code`` is the contract's reason code, ``message`` a sentence."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Decision(NamedTuple):
    """What the state waits for: ``kind`` (a :class:`mbrules.vocab.DecisionKind`: ``TURN``,
    ``COUP_FOURRE``, ...) and whose it is. The engine uses vocab's names, never second ones."""

    kind: DecisionKind
    player: int  # player index (0-based), -1 when nobody acts (hand or match over)
    drawn: bool = True  # for TURN: whether this turn's draw has happened
