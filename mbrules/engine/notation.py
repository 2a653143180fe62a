"""The action notation: one module owns how an action is encoded and how it is written.

An action is an :class:`Action`, a subclass of ``int``: the engine's hot loop compares
and stores it as a plain int, and a person reads it as words. The words are the
scenario step's (contract: Python API):

=====================  ==========================================================
``draw``               take the top card of the draw pile (the start of a turn); in a
                       mulligan: end it, drawing back to the hand size
``draw discard``       take the top card of the discard pile instead (turn.draw_from_discard)
``mulligan CARD``      throw CARD to start a mulligan or go on with one (turn.mulligan;
                       a mulligan of several cards is one ``mulligan CARD`` each, then
                       ``draw``: an action is one int, so it names one card)
``play CARD``          a distance, remedy or safety on one's own side; a hazard
                       where only one opposing side exists
``play CARD on SIDE``  a hazard on side SIDE (or any card on a named side)
``discard CARD``       discard CARD
``coup-fourre CARD``   call a coup fourré with safety CARD inside its window
``decline``            let one's coup fourré (or fast-play) window pass (our addition:
                       the contract lists no word for it; a scenario leaves it implicit)
``fast-play CARD``     answer the hazard just played with remedy CARD, out of turn,
                       inside its fast-play window (option fast-play-remedy)
``extend``             answer the extension question: yes
``stop``               answer the extension question: no, the hand ends here
=====================  ==========================================================

The int packs ``op | card << 4 | side << 12`` (a 4-bit op field: ``fast-play`` took code 7,
the last a 3-bit field held, and ``mulligan`` is 8) where ``side`` is the target side plus one,
or 0 for "one's own side, or the only opposing side for a hazard": that unnamed form is
what ``play CARD`` means, and the engine resolves it for the player who acts. A draw's
``card`` field is its source: 0 the draw pile, 1 the discard pile (``draw discard``). Every
action of a compiled game exists once, in ``Game.actions``; nothing outside this module
takes an action int apart.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Union

if TYPE_CHECKING:
    from .game import Game

from ..vocab import ACTION_CARD_MASK, ACTION_OP_BITS, ACTION_OP_MASK, ACTION_SIDE_SHIFT
from ..vocab import (  # noqa: F401  the operations' codes: Action.op is one of them
    COUP_FOURRE,
    DECLINE,
    DISCARD,
    DRAW,
    EXTEND,
    FAST_PLAY,
    MULLIGAN,
    OP_WORDS,
    OWN,
    PLAY,
    SIDE_NAMES,
    STOP,
)

FROM_DISCARD = 1  # a draw's source in its card field: the discard pile
DISCARD_WORD = "discard"  # 'draw discard'
_CARD_OPS = (PLAY, DISCARD, COUP_FOURRE, FAST_PLAY, MULLIGAN)

_OP_OF_WORD = {w: i for i, w in enumerate(OP_WORDS)}
_OP_OF_WORD["coup_fourre"] = COUP_FOURRE  # the scenario key's spelling
_OP_OF_WORD["fast_play"] = FAST_PLAY
MAX_CARDS = ACTION_CARD_MASK  # card kinds an action can name (8 bits)
MAX_SIDES = len(SIDE_NAMES)  # sides an action can name (A..Z)
_OP_BITS = ACTION_OP_BITS  # the op field: up to 16 operations (OP_WORDS has 9)
_OP_MASK = ACTION_OP_MASK
_SIDE_SHIFT = ACTION_SIDE_SHIFT  # above the card field's 8 bits
assert _OP_MASK == (1 << _OP_BITS) - 1 and MAX_CARDS == 255 and _SIDE_SHIFT == _OP_BITS + 8, "the action int's fields"
assert len(OP_WORDS) <= 1 << _OP_BITS, "an operation's code must fit the op field"


def encode(op: int, card: int = 0, side: int = OWN) -> int:
    """The int of an action: ``side`` is a side index, or :data:`OWN` for the unnamed form."""
    return op | card << _OP_BITS | (side + 1) << _SIDE_SHIFT


def decode(code: int) -> tuple[int, int, int]:
    """``(op, card, side)`` of an action int; ``side`` is :data:`OWN` for the unnamed form."""
    return code & _OP_MASK, code >> _OP_BITS & MAX_CARDS, (code >> _SIDE_SHIFT) - 1


class NotationError(ValueError):
    """Text that is not an action of this game, with a sentence saying what is expected."""


class Action(int):
    """One action of one compiled game: an int for the engine, words for people.

    ``op`` (``DRAW`` ... ``STOP``), ``card_index`` and ``side_index`` (``OWN`` when not
    named) take it apart; ``kind``, ``card`` and ``side`` name its parts (the card id and
    side name, or None). Two actions of one game are equal when they are the same action.
    Get them from ``state.legal_actions()``, ``Action.parse(text, game)`` or
    ``game.actions``; never build the int by hand.
    """

    op: int  # DRAW ... STOP
    card_index: int  # the card named, or -1
    side_index: int  # the side named, or OWN
    kind: str  # the op's word: draw, play, discard, ...
    card: str | None  # the card id named, or None
    side: str | None  # the side name named, or None
    from_discard: bool  # 'draw discard': the top of the discard pile, not the draw pile (turn.draw_from_discard)
    _text: str

    def __new__(cls, code: int, game: Game) -> "Action":
        self = super().__new__(cls, code)
        op, c, s = decode(code)
        self.op = op
        self.card_index = c if op in _CARD_OPS else -1
        self.side_index = s if op == PLAY else OWN
        self.kind = OP_WORDS[op]
        self.from_discard = op == DRAW and c == FROM_DISCARD  # 'draw discard'
        self.card = game.card_ids[c] if self.card_index >= 0 else None
        self.side = SIDE_NAMES[s] if self.side_index >= 0 else None
        text = self.kind if self.card is None else f"{self.kind} {self.card}"
        if self.from_discard:
            text = f"{self.kind} {DISCARD_WORD}"
        self._text = text if self.side is None else f"{text} on {self.side}"
        return self

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({self._text!r})"

    def __reduce__(
        self,
    ) -> tuple[type[int], tuple[int]]:  # crosses a process boundary as its int; Game.actions gives it back
        return (int, (int(self),))

    def __copy__(self) -> "Action":
        return self

    def __deepcopy__(self, memo: object) -> "Action":  # in this process a copy is the Action itself (never changed)
        return self  # (copy.deepcopy would otherwise follow __reduce__ and give the bare int: a cloned
        # OpenSpiel state waiting for its cards crashed on it)

    @classmethod
    def parse(cls, text: str, game: Game) -> "Action":
        """The action ``text`` names in ``game`` (``"play d200"``, ``"play stop on B"``, ``"extend"``).

        Raises :class:`NotationError` with a sentence for text that is not an action of the game.
        """
        return parse(text, game)


# what State.apply, verify and Game.action take: an Action, its int, or its words ("play d200")
ActionLike = Union[Action, int, str]

_WORD = re.compile(r"\S+")


def _show(text: str) -> str:
    """At most 60 characters of what the user wrote, printable."""
    t = text if len(text) <= 60 else text[:57] + "..."
    return repr(t)


def parse(text: str, game: Game) -> Action:
    """See :meth:`Action.parse`."""
    if not isinstance(text, str):
        raise NotationError(f"an action is text such as 'play d100', not {type(text).__name__}")
    words = _WORD.findall(text)
    usage = (
        "write draw, draw discard, play CARD, play CARD on SIDE, discard CARD, coup-fourre CARD, "
        "fast-play CARD, decline, extend, stop or mulligan CARD"
    )
    if not words:
        raise NotationError(f"empty action: {usage}")
    op = _OP_OF_WORD.get(words[0].lower())
    if op is None:
        raise NotationError(f"{_show(words[0])} is not an action word: {usage}")
    if op == DRAW and len(words) == 2 and words[1].lower() == DISCARD_WORD:
        return game.actions[ACTION_DRAW_DISCARD]
    if op in (DRAW, DECLINE, EXTEND, STOP):
        if op == DRAW and len(words) != 1:
            raise NotationError(
                f"{_show(text)}: 'draw' takes nothing after it but 'discard' (draw discard: the discard pile's top)"
            )
        if len(words) != 1:
            raise NotationError(f"{_show(text)}: '{OP_WORDS[op]}' takes nothing after it")
        return game.actions[encode(op)]
    if len(words) < 2:
        raise NotationError(f"{_show(text)}: '{OP_WORDS[op]}' needs a card (cards: {', '.join(game.card_ids)})")
    card = game.index.get(words[1])
    if card is None:
        raise NotationError(f"{_show(words[1])} is not a card of this game (cards: {', '.join(game.card_ids)})")
    if op == MULLIGAN:
        if len(words) != 2:
            raise NotationError(f"{_show(text)}: write 'mulligan CARD', one card an action")
        return game.actions[encode(MULLIGAN, card)]
    side = OWN
    rest = words[2:]
    if rest:
        if op != PLAY or len(rest) != 2 or rest[0].lower() != "on":
            raise NotationError(f"{_show(text)}: only 'play CARD on SIDE' names a side after the card")
        if rest[1] not in SIDE_NAMES:  # a letter past the game's sides is an action the engine refuses (bad-target)
            raise NotationError(f"{_show(rest[1])} is not a side name (sides: {', '.join(game.side_names)})")
        side = SIDE_NAMES.index(rest[1])
    return game.actions[encode(op, card, side)]


ACTION_DRAW = encode(DRAW)
ACTION_DRAW_DISCARD = encode(DRAW, FROM_DISCARD)
ACTION_DECLINE = encode(DECLINE)
ACTION_EXTEND = encode(EXTEND)
ACTION_STOP = encode(STOP)


# The actions of a deck: an action is its int and its words, which name only a card id and a side, so the
# games of one deck (any count, any options that keep the cards) share one table; building it was 65% of
# compiling a Game (1.6 ms of 2.4). A few decks are ever met; a process that meets more starts again.
_TABLES: dict[tuple[str, ...], dict[int, Action]] = {}
_TABLES_MAX = 64


def all_actions(game: Game) -> dict[int, Action]:
    """Every action of ``game`` by its int: the one table the engine, bots and tools share (the game's own
    dict; its Actions are those of every game with the same cards)."""
    table = _TABLES.get(game.card_ids)
    if table is None:
        table = _build_actions(game)
        if len(_TABLES) >= _TABLES_MAX:
            _TABLES.clear()
        _TABLES[game.card_ids] = table
    return dict(table)


def _build_actions(game: Game) -> dict[int, Action]:
    codes = [encode(DRAW), encode(DECLINE), encode(EXTEND), encode(STOP)]
    codes.append(ACTION_DRAW_DISCARD)  # every game has it: a ruleset without the rule refuses it (no-discard-draw)
    for c in range(game.n_cards):
        codes.append(encode(PLAY, c))
        codes += [encode(PLAY, c, s) for s in range(MAX_SIDES)]  # every side name: a missing side is bad-target
        codes.append(encode(DISCARD, c))
        codes.append(encode(COUP_FOURRE, c))
        codes.append(encode(FAST_PLAY, c))
        codes.append(encode(MULLIGAN, c))  # likewise (no-mulligan)
    return {code: Action(code, game) for code in codes}


def describe(action: Action) -> str:
    """The action in a sentence's words (the narrator's and ``Game.describe``'s)."""
    op = action.op
    if op == DECLINE:
        return "decline the coup fourré"
    if op == EXTEND:
        return "call the extension"
    if op == STOP:
        return "stop at this target"
    if op == COUP_FOURRE:
        return f"coup fourré with {action.card}"
    if op == FAST_PLAY:
        return f"fast play of {action.card}, out of turn"
    if op == MULLIGAN:
        return f"throw {action.card} (mulligan)"
    if action.from_discard:
        return "draw from the discard pile"
    return str(action)
