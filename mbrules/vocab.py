"""The public vocabulary of mbrules: every closed set of names the engine and the tools share.

Each name is defined here once, as a ``StrEnum`` whose values are the words written in files,
JSON and CSV (so a member compares equal to its word and prints as it: ``CardKind.HAZARD ==
"hazard"``). The engine and every tool import these names from here, never from an engine module.

Where the engine keeps a set as small ints in its compiled tables (a card's kind in
``Game.kind``, a card's pile in ``Game.pile``, an action's ``op``), the int is the member's
position in its enum, given by ``.code``; the plain-int constants below (``DISTANCE``, ``PLAY``,
``BATTLE``, ...) are those codes, for code that compares against the tables.

============================  =============================================================
:class:`CardKind`             distance, hazard, remedy, safety, karma
:class:`Pile`                 the two piles a hazard or remedy lands on: battle, speed
:class:`Op`                   the action notation's operations: draw, play, discard, ...
:class:`DecisionKind`         what a state waits for: turn, coup_fourre, extension, ...
:class:`Termination`          how a match ended: win, draw, unfinished
:class:`ScoreLine`            the lines of the score sheet, milestones ... total
:class:`Reason`               the contract's reason codes of a refused action
============================  =============================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final, Self


class _Coded(StrEnum):
    """A StrEnum whose members also have an int ``code``: their position, as the engine's tables hold it."""

    @property
    def code(self) -> int:
        return type(self)._member_names_.index(self._name_)

    @classmethod
    def of(cls, code: int) -> Self:
        """The member whose ``code`` is ``code``."""
        return list(cls)[code]


class CardKind(_Coded):
    DISTANCE = "distance"
    HAZARD = "hazard"
    REMEDY = "remedy"
    SAFETY = "safety"
    KARMA = "karma"  # restores its side's karma (ruleset 'karma'; PlayAural's False Virtue)


class Pile(_Coded):
    """The pile a hazard or remedy lands on (a ruleset's ``pile`` of a card)."""

    BATTLE = "battle"
    SPEED = "speed"


class Op(_Coded):
    """An action's operation; the value is the word the action notation writes."""

    DRAW = "draw"
    PLAY = "play"
    DISCARD = "discard"
    COUP_FOURRE = "coup-fourre"
    DECLINE = "decline"
    EXTEND = "extend"
    STOP = "stop"
    FAST_PLAY = "fast-play"  # a remedy out of turn, inside its window (option fast-play-remedy)
    MULLIGAN = "mulligan"  # turn.mulligan: throw one card of a mulligan (code 8: an action's op field is 4 bits)


class DecisionKind(StrEnum):
    """What a state waits for (``Decision.kind``, ``observation.to_dict()["decision"]["kind"]``)."""

    TURN = "turn"
    COUP_FOURRE = "coup_fourre"  # a coup fourré window
    EXTENSION = "extension"  # the extension question
    MULLIGAN = "mulligan"  # turn.mulligan: a mulligan under way (throw another card, or draw back and end it)
    HAND_OVER = "hand_over"
    MATCH_OVER = "match_over"
    FAST_PLAY = "fast_play"  # a fast-play window: a remedy may answer the hazard out of turn (fast-play-remedy)


class Termination(StrEnum):
    """Why a match ended (``Outcome.termination``)."""

    WIN = "win"
    DRAW = "draw"
    UNFINISHED = "unfinished"  # stopped by the ruleset's hands-per-match cap (match.max_hands)


class ScoreLine(StrEnum):
    """The lines of one hand's score sheet, per side, in the printed sheet's order (contract: Score lines)."""

    MILESTONES = "milestones"
    SAFETIES = "safeties"
    ALL_SAFETIES = "all_safeties"
    COUP_FOURRES = "coup_fourres"
    TRIP_COMPLETED = "trip_completed"
    DELAYED_ACTION = "delayed_action"
    SAFE_TRIP = "safe_trip"
    SHUTOUT = "shutout"
    EXTENSION = "extension"
    TOTAL = "total"


@dataclass(frozen=True)
class LineWords:
    """A score line in words, the one place each form is spelled: ``label`` on the score sheet ("Points for
    distance"), ``noun`` in a metric's name ("points per hand and side: distance"), ``plain`` in a sentence
    of a headline ("... points a hand from the trip bonus")."""

    label: str
    noun: str
    plain: str

    @classmethod
    def of(cls, label: str) -> LineWords:
        """The words of a line known by its sheet label only (a ruleset's own line): its noun and plain
        form are the label, lower-cased at its start ("Empty hand at the end" -> "empty hand at the end")."""
        noun = label[:1].lower() + label[1:]
        return cls(label, noun, noun)

    @classmethod
    def of_id(cls, line: str) -> LineWords:
        """The words of a line known by its id only: 'fin_vitesse' -> 'Fin vitesse'."""
        text = line.replace("_", " ")
        return cls.of(text[:1].upper() + text[1:])


# The contract's score lines in words (a ruleset's own lines carry theirs: scoring.lines.NAME.label).
SCORE_LINE_WORDS: dict[str, LineWords] = {
    "milestones": LineWords("Points for distance", "distance", "distance"),
    "safeties": LineWords("Safeties", "safeties", "safeties"),
    "all_safeties": LineWords("All safeties", "all four safeties", "all four safeties"),
    "coup_fourres": LineWords("Coups fourrés", "coups fourrés", "coups fourrés"),
    "trip_completed": LineWords("Trip completed", "trip completed", "the trip bonus"),
    "delayed_action": LineWords("Delayed action", "delayed action", "delayed action"),
    "safe_trip": LineWords("Safe trip", "safe trip", "safe trips"),
    "shutout": LineWords("Shutout", "shutout", "shutouts"),
    "extension": LineWords("Extension", "extension", "the extension"),
    "total": LineWords("Total (hand)", "total", "total"),
}


class Reason(StrEnum):
    """The contract's reason codes: every refused action carries one (``IllegalAction.code``)."""

    NOT_YOUR_TURN = "not-your-turn"
    NOT_IN_HAND = "not-in-hand"
    HAND_OVER = "hand-over"
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
    MUST_PLAY = "must-play"  # not in the contract's table: a discard refused under no-voluntary-discard
    NO_FAST_PLAY = "no-fast-play"  # not in the contract's table: a fast play not open to that player now
    # Refusals only issue 35's legality options make possible (docs/api.md lists them, with their precedence)
    ROLLING_SAFETY = "rolling-safety"  # a go card while the side's rolling safety is down (no-roll-under-right-of-way)
    SAME_HAZARD = "same-hazard"  # a battle hazard already in force on that side (stacked-hazards)
    OTHER_HAZARD = "other-hazard"  # a go card while a hazard it does not fix is in force (stacked-hazards)
    NOT_DISCARDABLE = "not-discardable"  # a card of a kind that may never be discarded (safeties-not-discardable)
    PLAYABLE_CARD = "playable-card"  # a discard of a card that could be played (playable-not-discardable)
    # turn rules (issue 35), named in the contract's style and listed in docs/api.md:
    NO_DISCARD_DRAW = "no-discard-draw"  # 'draw discard' where the ruleset does not allow it or the pile is empty
    NO_MULLIGAN = "no-mulligan"  # a mulligan where the ruleset has none, or after this turn's draw
    # turn.discard_draw_must_play: 'draw discard' where the taker could not then play a card (play then draw:
    # a turn that played none), or a discard in a turn that drew from the discard pile
    DISCARD_DRAW_MUST_PLAY = "discard-draw-must-play"
    # 'draw discard' in a turn that has no draw at all: the draw pile is out and no reshuffle is left, where the
    # ruleset takes the top only in place of a draw from the draw pile (turn.draw_from_discard's ruling)
    DRAW_PILE_OUT = "draw-pile-out"
    # ruleset 'karma' (option karma, issue 43; PlayAural game.py _can_play_hazard_on_team, _can_play_card):
    SHUNNED = "shunned"  # a hazard by a side that has lost its karma on a side that still has it
    HAS_KARMA = "has-karma"  # a karma card (False Virtue) played by a side that still has its karma


# The int codes of the engine's tables (Game.kind, Game.pile, Action.op), as plain ints: each member's
# ``code`` (its position), written as a literal Final so that a compiled module holds it as a constant (mypyc
# looks a name that is not one up in its module's dict at every use: the hot loop's every comparison);
# tests/test_vocab.py holds them to the enums
DISTANCE: Final = 0
HAZARD: Final = 1
REMEDY: Final = 2
SAFETY: Final = 3
KARMA: Final = 4
BATTLE: Final = 0
SPEED: Final = 1
BOTH_PILES: Final = 2  # Game.pile of a combination remedy: it fixes hazards of the battle and the speed pile
DRAW: Final = 0
PLAY: Final = 1
DISCARD: Final = 2
COUP_FOURRE: Final = 3
DECLINE: Final = 4
EXTEND: Final = 5
STOP: Final = 6
FAST_PLAY: Final = 7
MULLIGAN: Final = 8
# an action's int (mbrules.engine.notation.encode): op | card << ACTION_OP_BITS | (side + 1) << ACTION_SIDE_SHIFT,
# the side OWN for 'play CARD' with no side named; as literal Finals, so the compiled fast path (State._quick)
# reads op, card and side from the int itself (an Action's attributes are lookups in its __dict__)
ACTION_OP_BITS: Final = 4  # the op field: up to 16 operations (OP_WORDS has 9)
ACTION_OP_MASK: Final = 15  # (1 << ACTION_OP_BITS) - 1
ACTION_CARD_MASK: Final = 255  # the card field's 8 bits: card kinds an action can name
ACTION_SIDE_SHIFT: Final = 12  # above the card field: ACTION_OP_BITS + 8


KIND_NAMES: tuple[str, ...] = tuple(k.value for k in CardKind)  # by code
PILE_NAMES: tuple[str, ...] = tuple(p.value for p in Pile)  # by code
OP_WORDS: tuple[str, ...] = tuple(o.value for o in Op)  # by code
SCORE_LINES: tuple[str, ...] = tuple(s.value for s in ScoreLine)
REASON_CODES: tuple[str, ...] = tuple(r.value for r in Reason)
SIDE_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # side i is SIDE_NAMES[i] (contract: Players and sides)
OWN: Final = -1  # Action.side_index of 'play CARD' with no side named: one's own, or the only opposing side
NO_LIMIT: Final = 1073741824  # 1 << 30, written out (a literal Final: a compiled constant); the speed limit of a side with none in force (Observation's SideView.limit)

__all__ = [
    "BATTLE",
    "BOTH_PILES",
    "COUP_FOURRE",
    "CardKind",
    "DECLINE",
    "DISCARD",
    "DISTANCE",
    "DRAW",
    "DecisionKind",
    "EXTEND",
    "FAST_PLAY",
    "HAZARD",
    "KARMA",
    "KIND_NAMES",
    "LineWords",
    "MULLIGAN",
    "NO_LIMIT",
    "OP_WORDS",
    "OWN",
    "Op",
    "PILE_NAMES",
    "PLAY",
    "Pile",
    "REASON_CODES",
    "REMEDY",
    "Reason",
    "SAFETY",
    "SCORE_LINES",
    "SCORE_LINE_WORDS",
    "SIDE_NAMES",
    "SPEED",
    "STOP",
    "ScoreLine",
    "Termination",
]
