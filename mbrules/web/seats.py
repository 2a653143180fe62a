"""Who plays a seat of a browser table: a person in a browser, or a bot.

Both are seats of the one seat loop (:mod:`mbrules.seats`): given the seat's observation and
the legal actions, a seat produces an action now, or None to say it comes later (a person's
click arrives over the network and is handed in with :meth:`BrowserSeat.offer`). Neither kind
ever sees more than the seat's :class:`~mbrules.engine.Observation`.
"""
from __future__ import annotations

from mbrules import seats
from mbrules.bots import make_bot
from mbrules.engine import Game
from mbrules.seats import Seat

PERSON = "person"  # a seat's kind in a table's setup when a person plays it


class BotSeat(seats.BotSeat):
    """A bundled bot (``mbrules.bots``), deciding at once from the seat's observation (even a forced
    move but the draw, as the terminal game asks its bots)."""

    def __init__(self, name: str, game: Game, player: int, seed):
        super().__init__(make_bot(name, game, player, seed), asks_lone=True)
        self.kind = name


class BrowserSeat(seats.LaterSeat):
    """A person at a browser: the action is the one the page sent, once the engine has checked it
    (the table checks it with ``State.verify`` before offering it)."""

    kind = PERSON


WebSeat = BotSeat | BrowserSeat  # a seat of a browser table: each says its ``kind`` (a bot's name, or PERSON)


def make_seat(kind: str, game: Game, player: int, seed) -> WebSeat:
    return BrowserSeat() if kind == PERSON else BotSeat(kind, game, player, seed)


__all__ = ["PERSON", "BotSeat", "BrowserSeat", "Seat", "WebSeat", "make_seat"]
