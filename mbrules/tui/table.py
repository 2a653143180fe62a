"""What both ways of playing a seat share: the public narration of plays and the hint bot's name."""
from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from mbrules.bots import hint_bot
from mbrules.engine import Game, Observer, State, Transition
from mbrules.narrate import Narrator
from mbrules.vocab import DRAW

if TYPE_CHECKING:
    from mbrules.seats import SeatLoop

NARRATION_LINES = 12  # the last plays shown on the screen


def hint_bot_name() -> str:
    """The bot that gives hints ('?'): the strongest registered one that says it gives them
    (:func:`mbrules.bots.hint_bot`: its registration says so, not a list here)."""
    return hint_bot()


class PublicNarrator(Observer):
    """Keeps the last plays in words a whole table may hear (mbrules.narrate in public: no draws,
    no declined windows), told from each action's transition."""

    def __init__(self, game: Game):
        self.game = game
        self.words = Narrator(game, public=True)
        self.lines: deque[str] = deque(maxlen=NARRATION_LINES)

    def hand_start(self, st: State) -> None:
        self.lines.append(f"-- hand {st.hand_no + 1}: {self.game.player_names[st.current_player]} plays first --")

    def transition(self, st: State, t: Transition) -> None:
        line = self.words.action(t, st)
        if line is not None:
            self.lines.append(line)


class DrawNotes(Observer):
    """The card a person's seat just drew, in a private note for that seat (``notes[p]``): the
    loop draws for everyone, and the person reads it on their next screen. ``line(card)`` words it."""

    def __init__(self, notes: dict[int, list[str]], line):
        self.notes = notes
        self.line = line

    def transition(self, st: State, t: Transition) -> None:
        if t.action.op == DRAW and t.player in self.notes and t.drawn >= 0:
            self.notes[t.player].append(self.line(t.drawn))


class SeatedMatch:
    """What both ways of playing share about the match: its seat loop (``self.loop``, a
    :class:`mbrules.seats.SeatLoop`) counts the hands done (a resumed match sets it) and deals the next."""

    loop: "SeatLoop"

    @property
    def hands_done(self) -> int:
        return self.loop.hands_done

    @hands_done.setter
    def hands_done(self, n: int) -> None:
        self.loop.hands_done = n

    def next_hand(self) -> None:
        self.loop.next_hand()
