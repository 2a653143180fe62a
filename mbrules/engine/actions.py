"""The refusal an action gets (:class:`IllegalAction`, with a reason code) and what a state waits for.

How an action is encoded and written belongs to :mod:`mbrules.engine.notation`.
"""

from __future__ import annotations

from typing import NamedTuple

from ..vocab import DecisionKind, Reason

# The engine's short names for the decision kinds and reason codes (the names are mbrules.vocab's)
TURN = DecisionKind.TURN
COUP_FOURRE_WINDOW = DecisionKind.COUP_FOURRE
EXTENSION_QUESTION = DecisionKind.EXTENSION
HAND_OVER = DecisionKind.HAND_OVER
MATCH_OVER = DecisionKind.MATCH_OVER
FAST_PLAY_WINDOW = DecisionKind.FAST_PLAY

NOT_YOUR_TURN = Reason.NOT_YOUR_TURN
NOT_IN_HAND = Reason.NOT_IN_HAND
HAND_OVER_CODE = Reason.HAND_OVER
CANNOT_MOVE = Reason.CANNOT_MOVE
SPEED_LIMIT = Reason.SPEED_LIMIT
OVER_TARGET = Reason.OVER_TARGET
TOO_MANY_200 = Reason.TOO_MANY_200
PROTECTED = Reason.PROTECTED
NOT_ROLLING = Reason.NOT_ROLLING
ALREADY_LIMITED = Reason.ALREADY_LIMITED
BAD_TARGET = Reason.BAD_TARGET
NOTHING_TO_FIX = Reason.NOTHING_TO_FIX
NO_COUP_FOURRE = Reason.NO_COUP_FOURRE
NO_EXTENSION = Reason.NO_EXTENSION
EXTENSION_PENDING = Reason.EXTENSION_PENDING
MUST_PLAY = Reason.MUST_PLAY
NO_FAST_PLAY = Reason.NO_FAST_PLAY


class IllegalAction(Exception):
    """An action the rules refuse: ``code`` is the contract's reason code, ``message`` a sentence."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Decision(NamedTuple):
    """What the state waits for: ``kind`` (TURN, COUP_FOURRE_WINDOW, ...) and whose it is."""

    kind: str
    player: int  # player index (0-based), -1 when nobody acts (hand or match over)
    drawn: bool = True  # for TURN: whether this turn's draw has happened
