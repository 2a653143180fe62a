"""The terminal game's controller, without any screen (no Textual): :class:`MatchDriver` plays the bots
and the draws until a seat of a person decides, takes that person's move, keeps what undo needs, and
gives the hint bot's move and the reason a card cannot be played. :mod:`mbrules.tui.app` draws it."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from mbrules.bots import make_bot, make_bots
from mbrules.engine import Action, Game, Observer, State
from mbrules.narrate import Narrator
from mbrules.seats import BotSeat, LaterSeat, SeatLoop

from .table import DrawNotes, PublicNarrator, SeatedMatch, hint_bot_name
from .words import why_not

if TYPE_CHECKING:
    from mbrules.scenario.record import Recorder


@dataclass
class _Undo:
    state: State
    lines: list[str]
    notes: dict[int, list[str]]
    recorded: tuple[int, int] | None  # (hands, actions in the last hand) the recorder held


@dataclass
class MatchDriver(SeatedMatch):
    """A match where the seats in ``humans`` decide from the keyboard and bots play the others."""

    game: Game
    seed: int
    bots: Sequence[str]
    humans: Sequence[int]
    max_hands: int | None = None
    observers: Sequence[Observer] = ()
    save_path: object = None  # --record FILE: a quit saves the match there, and the same command continues it

    def __post_init__(self) -> None:
        g = self.game
        self.humans = tuple(sorted(set(self.humans)))
        self.players = make_bots(list(self.bots), g, self.seed)  # the same streams as a headless play
        self.hint_name = hint_bot_name()
        self.hinters = {p: make_bot(self.hint_name, g, p, f"{self.seed}:hint") for p in self.humans}
        self.narrator = PublicNarrator(g)
        self.narrator.lines = deque(maxlen=200)  # a tall window shows more of them
        self.words = Narrator(g)
        self.notes: dict[int, list[str]] = {p: [] for p in self.humans}
        self.draw_notes = DrawNotes(self.notes, lambda c: f"You drew {g.names[c]}.")  # after "Resumed ..."
        # A person's seat answers later (a key); the bots are asked even their forced moves, as they always were.
        self.seats = [
            LaterSeat() if p in self.humans else BotSeat(b, asks_lone=True) for p, b in enumerate(self.players)
        ]
        st = State.new_match(g, self.seed, deal_next=False)
        self.loop = SeatLoop(st, self.seats, max_hands=self.max_hands)
        self._watch(st)
        self.undo_stack: list[_Undo] = []

    @property
    def state(self) -> State:
        return self.loop.state

    def _watch(self, st: State) -> None:
        st.add_observer(self.narrator)
        st.add_observer(self.draw_notes)
        for o in self.observers:
            st.add_observer(o)

    @property
    def recorder(self) -> Recorder | None:
        from mbrules.scenario.record import Recorder

        return next((o for o in self.observers if isinstance(o, Recorder)), None)

    def advance(self) -> str:
        """Bots play and draws are made until a human seat decides ('human'), or the hand ends ('hand')."""
        return "hand" if self.loop.advance() < 0 else "human"

    def hand_finished(self) -> bool:
        """Counts the hand just over; True when the match (or the ``--hands`` cap) is over."""
        self.undo_stack.clear()
        return self.loop.hand_finished()

    def play(self, p: int, a: Action) -> None:
        """A human seat's move (legal: it was picked from ``legal_actions``); kept for undo first."""
        rec = self.recorder
        if len(self.humans) == 1:
            self.undo_stack.append(
                _Undo(
                    self.state.clone(),
                    list(self.narrator.lines),
                    {k: list(v) for k, v in self.notes.items()},
                    (len(rec.hands), len(rec.hands[-1]["actions"]) if rec.hands else 0) if rec else None,
                )
            )
        self.state.verify(a, player=p)  # IllegalAction, the state untouched, as apply would say
        self.notes[p] = []  # before the move: a draw chosen here (p, t, a mulligan's draw back) notes its card
        seat = self.seats[p]
        assert isinstance(seat, LaterSeat)  # a human's seat (play is called for them only)
        seat.offer(a)
        self.loop.step()

    def can_undo(self) -> bool:
        return len(self.humans) == 1 and bool(self.undo_stack)

    def undo(self) -> None:
        u = self.undo_stack.pop()
        self.loop.state = u.state  # a clone has no observers: watch it again (then put back what they kept)
        self._watch(u.state)
        self.narrator.lines = deque(u.lines, maxlen=self.narrator.lines.maxlen)
        self.notes = self.draw_notes.notes = u.notes
        rec = self.recorder
        if rec is not None and u.recorded is not None:
            hands, actions = u.recorded
            del rec.hands[hands:]
            if rec.hands:
                del rec.hands[-1]["actions"][actions:]

    def hint(self, p: int) -> Action:
        st = self.state
        return self.hinters[p].choose(st.observation(p), st.legal_actions())

    def why_not(self, p: int, card: int) -> str | None:
        """In player words, why ``card`` cannot be played now (None when it can be somewhere)."""
        return why_not(self.state, p, card)
