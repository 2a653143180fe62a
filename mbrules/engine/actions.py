"""Decision kinds, the contract's reason codes, and the refusal they travel in.

How an action is encoded and written belongs to :mod:`mbrules.engine.notation`.
"""

from __future__ import annotations

from typing import NamedTuple

from .notation import (  # noqa: F401  the operations, for ``from ...actions import PLAY``
    COUP_FOURRE, DECLINE, DISCARD, DRAW, EXTEND, OP_WORDS, PLAY, STOP,
)

# Decision kinds (what the state is waiting for)
TURN = "turn"
COUP_FOURRE_WINDOW = "coup_fourre"
EXTENSION_QUESTION = "extension"
HAND_OVER = "hand_over"
MATCH_OVER = "match_over"


# Reason codes (contract: every refused action carries one, plus a sentence)
NOT_YOUR_TURN = "not-your-turn"
NOT_IN_HAND = "not-in-hand"
HAND_OVER_CODE = "hand-over"
CANNOT_MOVE = "cannot-move"
SPEED_LIMIT = "speed-limit"
OVER_TARGET = "over-target"
TOO_MANY_200 = "too-many-200"
PROTECTED = "protected"
NOT_ROLLING = "not-rolling"
ALREADY_LIMITED = "already-limited"
BAD_TARGET = "bad-target"
NOTHING_TO_FIX = "nothing-to-fix"
NO_COUP_FOURRE = "no-coup-fourre"
NO_EXTENSION = "no-extension"
EXTENSION_PENDING = "extension-pending"
# Not in the contract's table: a discard refused under option no-voluntary-discard.
MUST_PLAY = "must-play"

REASON_CODES = (
    NOT_YOUR_TURN, NOT_IN_HAND, HAND_OVER_CODE, CANNOT_MOVE, SPEED_LIMIT, OVER_TARGET,
    TOO_MANY_200, PROTECTED, NOT_ROLLING, ALREADY_LIMITED, BAD_TARGET, NOTHING_TO_FIX,
    NO_COUP_FOURRE, NO_EXTENSION, EXTENSION_PENDING, MUST_PLAY,
)


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
