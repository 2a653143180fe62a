"""The checker's copy of a state: every pile as plain lists, read from ``state.snapshot()``.

A checker is entitled to the whole position (hidden cards included); it reads it through the
engine's public :meth:`State.snapshot`, never through private fields, so a bug in a cache shows
up as a disagreement with a recomputation rather than being copied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from mbrules.engine.observation import SideView
from mbrules.vocab import NO_LIMIT, DecisionKind

if TYPE_CHECKING:
    from mbrules.engine import Action, State

__all__ = ["Before", "KeptView", "View", "queries_change_nothing"]


_FIELD = {name: i for i, name in enumerate(SideView._fields)}  # a SideView's fields by name: their columns below
_BATTLE, _SPEED, _SAFETIES, _COUPS, _DISTANCE = (
    _FIELD[f] for f in ("battle", "speed", "safeties", "coup_fourres", "distance")
)
_MILES, _MOVING, _LIMIT, _HAZARD, _SPEED_HAZARD = (
    _FIELD[f] for f in ("miles", "moving", "limit", "hazard", "speed_hazard")
)
_PROTECTED, _KARMA, _KARMA_CARDS = (_FIELD[f] for f in ("protected", "karma", "karma_cards"))


class View:
    """A state as the checker reads it: built from ``state.snapshot()`` (the whole position, which a
    checker is entitled to), with the piles as plain lists (draw pile bottom first), the history and the finished
    hands' sheets as the tuples the state and its snapshot give (copies already, never written). It is a copy:
    taken before an action, it is what :func:`check_transition` compares the state after with."""

    __slots__ = (
        "state",
        "game",
        "decision",
        "hands",
        "draw",
        "discard",
        "battle",
        "speed",
        "safeties",
        "coups",
        "played",
        "miles",
        "rolling",
        "limit",
        "bhaz",
        "lhaz",
        "prot",
        "row",
        "needs_go",
        "target",
        "extension_called_by",
        "cf_queue",
        "cf_hazard",
        "cf_side",
        "cf_attacker",
        "winner",
        "hand_sheets",
        "match_totals",
        "hand_no",
        "history",
        "turn",
        "score",
        "rng_state",
        "reshuffles",
        "after_draw",
        "queued",
        "resume",
        "stall",
        "karma",
        "karma_cards",
    )

    def __init__(self, state: State, history: bool = True) -> None:
        snap = state.snapshot()
        self.state = state
        self.game = snap.game
        self.decision = snap.decision
        self.hands = [list(h) for h in snap.hands]
        self.draw = list(reversed(snap.draw_pile))
        self.discard = list(snap.discard)
        # the sides' fields, a column each across the sides, in one call (zip in C; a SideView is a named tuple):
        # a View is taken after every action checked, and thirteen comprehensions over the sides were a fifth of it
        cols = tuple(zip(*snap.sides))
        self.battle = list(map(list, cols[_BATTLE]))
        self.speed = list(map(list, cols[_SPEED]))
        self.safeties = list(map(list, cols[_SAFETIES]))
        self.coups = list(map(list, cols[_COUPS]))
        self.karma = list(cols[_KARMA])  # ruleset 'karma': None where it has none
        self.karma_cards = list(map(list, cols[_KARMA_CARDS]))
        self.played = list(map(list, cols[_DISTANCE]))
        self.miles = list(cols[_MILES])
        self.rolling = list(cols[_MOVING])
        self.limit = [NO_LIMIT if v is None else v for v in cols[_LIMIT]]
        self.bhaz = list(cols[_HAZARD])
        self.lhaz = list(cols[_SPEED_HAZARD])
        self.prot = list(cols[_PROTECTED])
        self.row = list(snap.rolling_safety)
        self.needs_go = list(snap.needs_go)
        self.target = snap.target
        self.extension_called_by = snap.extension_called_by
        hz, side, attacker, queue = snap.window or (-1, -1, -1, ())
        self.cf_hazard, self.cf_side, self.cf_attacker, self.cf_queue = hz, side, attacker, list(queue)
        self.winner = snap.winner
        # the match's growing parts are kept as the snapshot made them (tuples, each a copy already: the snapshot's
        # sheets are dicts of its own, the history a tuple state.history made): copied again they were a View's
        # largest cost late in a long match (a copy per action of every entry and every hand's sheet so far)
        self.hand_sheets = snap.hand_sheets
        self.match_totals = list(snap.match_totals)
        self.hand_no = snap.hand_no
        self.history: Sequence[tuple[int, int]] = state.history if history else _Len(snap.history_length)
        self.turn = snap.turn_player
        # the snapshot's tuple of its own dicts (score_sheet() makes them anew each time), kept as it comes: a
        # tuple like the finished hands' sheets it is compared with at a hand's end (checker._check_scores)
        self.score: tuple[dict[str, int], ...] = snap.score
        self.rng_state = snap.rng_state
        queued, resume = snap.queued_turns  # queued coup fourré turns and where play resumes after them
        self.queued, self.resume = list(queued), resume
        self.reshuffles = snap.reshuffles
        self.stall = snap.stall
        self.after_draw = snap.after_draw

    def can_draw(self) -> bool:
        """A card can be drawn: the draw pile has one, or the ruleset allows another reshuffle of a
        discard pile that has cards (turn.reshuffles)."""
        return bool(self.draw) or (self.reshuffles < self.game.ruleset.turn.reshuffles.value and bool(self.discard))

    def can_refill(self, p: int) -> bool:
        """turn.refill_empty_hand: ``p`` holds nothing and a refill could draw (its reshuffles included)."""
        t = self.game.ruleset.turn
        limit = max(t.reshuffles.value, t.refill_reshuffles.value)
        return (
            t.refill_empty_hand.value
            and not self.hands[p]
            and (bool(self.draw) or (self.reshuffles < limit and bool(self.discard)))
        )

    @property
    def hand_over(self) -> bool:
        return self.decision.kind in (DecisionKind.HAND_OVER, DecisionKind.MATCH_OVER)

    def legal_actions(self) -> list[Action]:
        return self.state.legal_actions()

    def score_sheet(self) -> list[dict[str, int]]:
        return [dict(line) for line in self.score]

    def turn_player(self) -> int:
        return self.turn


def _view(state: State | View) -> "View":
    return state if isinstance(state, View) else View(state)


def Before(state: State) -> View:  # noqa: N802  (kept as the name callers know)
    """What :func:`check_transition` reads of the state before an action: a copy from its snapshot
    (the history stands for its length only)."""
    return View(state, history=False)


def queries_change_nothing(state: State) -> bool:
    """Whether ``state``'s queries (``legal_actions``, ``verify``, ``observation``, ``snapshot``, ``clone``, ...)
    are known to leave it as it was: the engine's own State's are; a custom State's may do anything."""
    from mbrules.engine import State

    return type(state) is State


class KeptView:
    """The copy of a watched state kept from the end of one action to the start of the next, for an observer
    that checks each action (``api_test``'s watcher, :class:`mbrules.testing.Checker`): the :class:`View` taken
    after an action (or a deal) is the next action's "before" and what checks in between read, instead of a new
    snapshot each time. Only where the state's queries change nothing (:func:`queries_change_nothing`, decided
    on the first state seen); a custom State gets a new copy each time. A deal (:meth:`forget`) or an action
    starts a new copy."""

    __slots__ = ("reuse", "view")

    def __init__(self) -> None:
        self.reuse: bool | None = None  # decided on the first state seen
        self.view: View | None = None  # the state as it is now (reuse only), None once it may have changed

    def current(self, state: State) -> View:
        """A copy of ``state`` as it is now: the one kept since its last change, else a new one."""
        if self.reuse is None:
            self.reuse = queries_change_nothing(state)
        v = self.view
        if v is None or v.state is not state:
            v = View(state)
            self.view = v if self.reuse else None
        return v

    def before(self, state: State) -> View:
        """The copy an action starts from (the kept one, else :func:`Before`'s); the action will change it."""
        if self.reuse is None:
            self.reuse = queries_change_nothing(state)
        v = self.current(state) if self.reuse else Before(state)
        self.view = None
        return v

    def after(self, state: State) -> View:
        """A copy of ``state`` after an action, kept (reuse only) until the next one."""
        v = View(state)
        self.view = v if self.reuse else None
        return v

    def forget(self) -> None:
        """The state changed outside an action (a deal): the next copy is a new one."""
        self.view = None


class _Len(list[tuple[int, int]]):
    """Stands for a history of ``n`` entries: only its length is read."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n

    def __len__(self) -> int:
        return self.n
