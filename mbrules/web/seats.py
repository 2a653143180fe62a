"""Who plays a seat of a browser table: a person in a browser, or a bot.

There is no shared seat interface in mbrules yet; both kinds here stand behind one narrow
protocol, :class:`Seat`, so that a shared seat loop can adopt them later: given the seat's
observation and the legal actions, produce an action now, or None to say it comes later (a
person's click arrives over the network and is handed in with :meth:`BrowserSeat.offer`).
Neither kind ever sees more than the seat's :class:`~mbrules.engine.Observation`.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from mbrules.bots import make_bot
from mbrules.engine import Action, Game, Observation

PERSON = "person"  # a seat's kind in a table's setup when a person plays it


@runtime_checkable
class Seat(Protocol):
    """Decides for one seat: an action among ``legal``, or None when the decision comes later."""

    kind: str  # PERSON or a bot name

    def decide(self, observation: Observation, legal: list[Action]) -> Action | None:
        ...


class BotSeat:
    """A bundled bot (``mbrules.bots``), deciding at once from the seat's observation."""

    def __init__(self, name: str, game: Game, player: int, seed):
        self.kind = name
        self.bot = make_bot(name, game, player, seed)

    def decide(self, observation: Observation, legal: list[Action]) -> Action | None:
        return self.bot.choose(observation if getattr(self.bot, "observes", True) else None, legal)


class BrowserSeat:
    """A person at a browser: the action is the one the page sent, once the engine has checked it."""

    kind = PERSON

    def __init__(self):
        self.pending: Action | None = None

    def offer(self, action: Action) -> None:
        self.pending = action

    def decide(self, observation: Observation, legal: list[Action]) -> Action | None:
        a, self.pending = self.pending, None  # the table checked it with State.verify before offering it
        return a


def make_seat(kind: str, game: Game, player: int, seed) -> Seat:
    return BrowserSeat() if kind == PERSON else BotSeat(kind, game, player, seed)


__all__ = ["PERSON", "BotSeat", "BrowserSeat", "Seat", "make_seat"]
