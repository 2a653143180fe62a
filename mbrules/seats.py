"""Seats, and the one loop that plays a match through them (issue 37).

OpenSpiel's ``evaluate_bots`` is the model: a match is played by asking the seat whose decision
it is, whoever sits there. A :class:`Seat` is a bot, a person at the terminal, a person at a
browser or a learning agent; each sees its own :class:`~mbrules.engine.Observation` and the legal
actions, and answers with one of them, or with None: "later". A seat that answers later (a
page whose click has not come, a terminal waiting for a key, an agent between ``env.step``
calls) is handed its action with :meth:`LaterSeat.offer` and the loop is pumped again.

:class:`SeatLoop` is that loop. It is a step function (:meth:`SeatLoop.step`, one action at most;
:meth:`SeatLoop.advance`, until a seat answers later or the hand ends) that a caller with people
pumps, and a blocking :meth:`SeatLoop.play` for matches between seats that always answer (bots).
It routes every decision by ``state.current_player`` and the legal actions alone, never by the
decision's kind, so a kind a ruleset adds (a choice of where to draw from, a remedy played out
of turn) reaches the right seat with no change here.

A decision with a single legal action is taken without asking when that action is a draw, and
for any seat whose ``asks_lone`` is false (a bot of a headless match: it is asked only real
questions); a seat with ``asks_lone`` true (a person, an agent learning) is shown its forced
moves but the draw.

Determinism: the loop adds no randomness; the same state, seats and seeds give the same match.
"""

from __future__ import annotations

from typing import Callable, Sequence

from .engine import Action, State
from .engine.fields import mypyc_attr
from .seat_kinds import BotSeat, Chooser, LaterSeat, Seat
from .vocab import DRAW

Applier = Callable[[int, Action], object]  # apply(player, action): the caller's way to take an action

# What one SeatLoop.step did
LONE = "lone"  # a lone legal action (a draw, mostly) was taken without asking
DECIDED = "decided"  # the seat deciding answered, and its action was taken
LATER = "later"  # the seat deciding answers later (SeatLoop.waiting says which); nothing was taken
HAND_OVER = "hand-over"  # the hand (or the match) is over: nobody decides

MAX_STEPS = 100_000  # actions advance takes at most (a hand is a few hundred: the engine bounds it)


@mypyc_attr(native_class=False)  # compiled (mbrules._compiled): mypyc makes no native class of a builtin exception
class HandTooLong(RuntimeError):
    """A hand went on past :data:`MAX_STEPS` actions (never in a valid match: the engine bounds a hand)."""


@mypyc_attr(native_class=False)
class SeatLater(RuntimeError):
    """:meth:`SeatLoop.play` met a seat that answers later: only seats that always answer can be played blocking."""


class SeatLoop:
    """Plays a match through one seat per player (seating order).

    ``apply(player, action)`` takes an action (default: ``state.step``; the browser table writes
    its record first). ``should_stop()`` is polled before every question to a seat; ``stopped``
    (an exception class) is raised once it turns true. ``max_hands`` caps the hands played
    (``hands_done`` already counted: a resumed match). ``state`` may be replaced between steps
    (an undo puts a copy back).
    """

    def __init__(
        self,
        state: State,
        seats: Sequence[Seat],
        *,
        apply: Applier | None = None,
        max_hands: int | None = None,
        hands_done: int = 0,
        should_stop: Callable[[], object] | None = None,
        stopped: type[BaseException] | None = None,
    ):
        if len(seats) != state.game.players:
            raise ValueError(f"{len(seats)} seats for {state.game.players} players")
        self.state = state
        self.seats = list(seats)
        self._apply = apply
        self.max_hands = max_hands
        self.hands_done = hands_done
        self.should_stop = should_stop
        self.stopped = stopped or SeatLater
        self.waiting = -1  # the player whose seat answered later at the last step, else -1
        self.seated()

    def seated(self) -> None:
        """Read the seats' attributes again (after a seat was replaced: a person's seat given to a bot)."""
        self._decide = [s.decide for s in self.seats]
        self._observes = [getattr(s, "observes", True) for s in self.seats]
        self._asks = [getattr(s, "asks_lone", False) for s in self.seats]

    def seat(self, p: int, seat: Seat) -> None:
        """Put ``seat`` at player ``p``."""
        self.seats[p] = seat
        self.seated()

    def answer(self, action: Action) -> None:
        """The answer of the seat that answered later, come now: taken at once, without asking the
        seat again. An action the rules refuse raises :class:`~mbrules.engine.IllegalAction` (from
        the applier) and the seat is still waiting."""
        p = self.waiting
        if p < 0 or p != self.state.current_player:
            raise ValueError("no seat is waiting for its answer")
        self.take(p, action)
        self.waiting = -1

    def take(self, p: int, action: Action) -> None:
        if self._apply is None:
            self.state.step(action)
        else:
            self._apply(p, action)

    # -- the step function -------------------------------------------------------------------
    def step(self) -> str:
        """Take one action at most; say what happened (LONE, DECIDED, LATER, HAND_OVER)."""
        st = self.state
        acts = st.legal_actions()
        if not acts:
            self.waiting = -1
            return HAND_OVER
        p = st.current_player
        if len(acts) == 1 and (acts[0].op == DRAW or not self._asks[p]):
            self.take(p, acts[0])
            self.waiting = -1
            return LONE
        if self.should_stop is not None and self.should_stop():
            raise self.stopped
        a = self._decide[p](st.observation(p) if self._observes[p] else None, acts)
        if a is None:
            self.waiting = p
            return LATER
        self.waiting = -1
        self.take(p, a)
        return DECIDED

    def advance(self) -> int:
        """Step until a seat answers later (its player is returned) or the hand is over (-1)."""
        for _ in range(MAX_STEPS):
            done = self.step()
            if done == LATER:
                return self.waiting
            if done == HAND_OVER:
                return -1
        raise HandTooLong(f"the hand did not end after {MAX_STEPS:,} actions")

    def hand_finished(self) -> bool:
        """Count the hand just over; True when the match is over (or ``max_hands`` hands are played)."""
        self.hands_done += 1
        return self.state.is_terminal() or (self.max_hands is not None and self.hands_done >= self.max_hands)

    def next_hand(self) -> None:
        self.state.next_hand()

    def _applied(self, st: State, a: Action) -> list[Action]:
        """:meth:`play`'s step through the caller's applier: ``a`` for whoever decides; the legal actions then."""
        assert self._apply is not None  # play() calls it only then
        self._apply(st.current_player, a)
        return st.legal_actions()

    # -- blocking ----------------------------------------------------------------------------------
    def play(self) -> State:
        """Play to the end of the match (or ``max_hands``) through seats that always answer; the final state.

        The same questions as :meth:`step` in the same order, written as one loop: a match of
        bots is the hot path of simulate, compare and sweep.
        """
        st = self.state
        direct = self._apply is None  # st.step_next: step, the lone draw after it, and the legal actions then
        decide, observes, asks = self._decide, self._observes, self._asks
        nobody_asks = not any(asks)
        stop = self.should_stop
        while True:
            acts = st.legal_actions()
            while acts:  # none: the hand is over. The engine bounds a hand (its cards run out): no count here
                if len(acts) == 1 and (nobody_asks or acts[0].op == DRAW or not asks[st._player]):
                    a = acts[0]
                else:
                    if stop is not None and stop():
                        raise self.stopped
                    # st.current_player, read from its field: legal actions listed, so a hand is in play and
                    # the property's answer is the player field (a property read was ~3% of a random-bot hand)
                    p = st._player
                    chosen = decide[p](st.observation(p) if observes[p] else None, acts)
                    if chosen is None:
                        self.waiting = p
                        raise SeatLater(f"seat {st.game.player_names[p]} answered later in a blocking play")
                    a = chosen
                acts = st.step_next(a) if direct else self._applied(st, a)
            if self.hand_finished():
                return st
            st.next_hand()


__all__ = [
    "BotSeat",
    "Chooser",
    "DECIDED",
    "HAND_OVER",
    "HandTooLong",
    "LATER",
    "LONE",
    "LaterSeat",
    "Seat",
    "SeatLater",
    "SeatLoop",
]
