"""What both ways of playing a seat share: the public narration of plays and the hint bot's name."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from mbrules.bots import hint_bot
from mbrules.engine import Action, Game, Observation, Observer, State, Transition
from mbrules.narrate import Narrator
from mbrules.vocab import DRAW, MULLIGAN, DecisionKind

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

    def __init__(self, notes: dict[int, list[str]], line: Callable[[int], str]):
        self.notes = notes
        self.line = line

    def transition(self, st: State, t: Transition) -> None:
        if t.action.op == DRAW and t.player in self.notes and t.drawn >= 0:
            # a mulligan's draw back or a refill draws more than one card: each is noted
            self.notes[t.player] += [self.line(c) for c in (t.drawn, *t.drawn_more)]


@dataclass(frozen=True)
class DrawChoice:
    """A draw the person chooses (options draw-from-discard and mulligan): the table waits for a key.

    ``pile`` draws from the draw pile (in a mulligan under way: draws back to the hand size and ends
    the turn), ``discard_top`` takes the discard pile's top card (None when not offered), ``mulligan``
    maps each card the person may throw away to its action, ``under_way`` is a mulligan begun."""

    pile: Action | None
    discard_top: Action | None
    mulligan: dict[int, Action] = field(default_factory=dict)
    under_way: bool = False


def draw_choice(obs: Observation, legal: list[Action]) -> DrawChoice | None:
    """The draw choice the seat ``obs`` is for has now, or None (a turn's play, a window, a lone draw)."""
    d = obs.decision
    if d.player != obs.player or not legal or any(a.op not in (DRAW, MULLIGAN) for a in legal):
        return None
    under_way = d.kind == DecisionKind.MULLIGAN
    if len(legal) < 2 and not under_way:
        return None
    return DrawChoice(
        next((a for a in legal if a.op == DRAW and not a.from_discard), None),
        next((a for a in legal if a.op == DRAW and a.from_discard), None),
        {a.card_index: a for a in legal if a.op == MULLIGAN},
        under_way,
    )


def draw_prompt(game: Game, obs: Observation, choice: DrawChoice, mulligan_key: str) -> str:
    """The draw choice in words with its keys: p the draw pile, t the discard top, ``mulligan_key`` a
    mulligan ('m throws Roll! (picked)' on the full screen, 'm CARD throws it' at the prompt). Short:
    it fits the full screen's two status lines at 80 columns."""
    d = game.ruleset.display
    back = f"draw back to {game.hand_size}"
    if choice.under_way:
        said = [f"MULLIGAN: {mulligan_key} away too"] if choice.mulligan else ["MULLIGAN"]
        if choice.pile is not None:
            said.append(f"p {back} cards and end your turn")
        return ", or ".join(said) + "."
    said = []
    if choice.pile is not None:
        said.append(f"p the {d.draw_pile} ({obs.draw_pile})")
    if choice.discard_top is not None and obs.discard:
        said.append(f"t {game.names[obs.discard[-1]]} from the {d.discard_pile}")
    if choice.mulligan:
        said.append(f"{mulligan_key} away (mulligan: then {back}, no play)")
    return "Your draw: " + ", ".join(said) + "."


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
