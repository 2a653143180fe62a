"""What both ways of playing a seat share: the public narration of plays and the hint bot's name."""
from __future__ import annotations

from collections import deque

from mbrules.bots import hint_bot
from mbrules.engine import Action, Game, Observer, State, Transition
from mbrules.narrate import Narrator

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
        self.hand_seen = -1

    def before_action(self, st: State, player: int, action: Action) -> None:
        if st.hand_no != self.hand_seen:
            self.hand_seen = st.hand_no
            self.lines.append(f"-- hand {st.hand_no + 1}: {self.game.player_names[player]} plays first --")

    def transition(self, st: State, t: Transition) -> None:
        line = self.words.action(t, st)
        if line is not None:
            self.lines.append(line)
