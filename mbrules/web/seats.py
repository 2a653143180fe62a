"""Who plays a seat of a browser table: a person in a browser, or a bot.

Both are seats of the one seat loop (:mod:`mbrules.seats`): given the seat's observation and
the legal actions, a seat produces an action now, or None to say it comes later (a person's
click arrives over the network and is handed in with :meth:`BrowserSeat.offer`). Neither kind
ever sees more than the seat's :class:`~mbrules.engine.Observation`.
"""

from __future__ import annotations

from mbrules import seats
from mbrules.bots import make_bot
from mbrules.engine import Action, Game, Observation
from mbrules.ruleset import Ruleset
from mbrules.seats import Seat

PERSON = "person"  # a seat's kind in a table's setup when a person plays it


class BotSeat(seats.BotSeat):
    """A bundled bot (``mbrules.bots``), deciding from the seat's observation (even a forced move but
    the draw, as the terminal game asks its bots). The server has it decide in a worker process
    (:mod:`mbrules.web.thinking`): the bot goes there pickled (:meth:`pickled`) and comes back as it
    is after choosing (:meth:`moved_on`); ``decide`` decides here, for tools that play a table in process."""

    def __init__(self, name: str, game: Game, player: int, seed: int | str) -> None:
        super().__init__(make_bot(name, game, player, seed), asks_lone=True)
        self.kind = name
        self.game = game
        self.blob: bytes | None = None  # the bot as a worker left it (newer than self.bot), or None
        self.decide = self._decide_here

    def pickled(self) -> bytes:
        """The bot as it is now, for a worker (:func:`mbrules.web.thinking.dumps`)."""
        from .thinking import dumps

        return self.blob if self.blob is not None else dumps(self.bot, self.game)

    def moved_on(self, blob: bytes) -> None:
        """The bot chose in a worker and its choice was taken: it is now as the worker left it."""
        self.blob = blob

    def _decide_here(self, observation: Observation | None, legal: list[Action]) -> Action:
        if self.blob is not None:
            from .thinking import loads

            self.bot, self.blob = loads(self.blob, self.game), None
        return self.bot.choose(observation, legal)


class BrowserSeat(seats.LaterSeat):
    """A person at a browser: the action is the one the page sent, once the engine has checked it
    (the table checks it with ``State.verify`` before offering it)."""

    kind = PERSON


WebSeat = BotSeat | BrowserSeat  # a seat of a browser table: each says its ``kind`` (a bot's name, or PERSON)


def make_seat(kind: str, game: Game, player: int, seed: int | str) -> WebSeat:
    return BrowserSeat() if kind == PERSON else BotSeat(kind, game, player, seed)


def warm_bots(ruleset: Ruleset, players: object, kinds: object) -> int:
    """Build each bot of ``kinds`` once for ``players`` at ``ruleset``, and drop it: how many were built.

    A bot can be slow to build the first time: ``learned`` over rules no shipped model fits trains
    one (300 self-play matches, seconds of CPU), then keeps it in the process's cache. The server
    calls this in a worker thread before it opens a table or gives a seat to a bot, so that a training
    never stalls the event loop every table shares; the table's own bots then come from the cache at
    once. Whatever is wrong with the request (no such bot, a bot that cannot play these rules, a bad
    player count) is left for the table's own check to say, in the words it already has."""
    if not isinstance(players, int) or isinstance(players, bool) or not isinstance(kinds, (list, tuple)):
        return 0
    try:
        game = Game(ruleset, players)
    except Exception:  # said by the table's own check, in the event loop
        return 0
    built = 0
    for kind in dict.fromkeys(k for k in kinds if isinstance(k, str) and k != PERSON and len(k) <= 64):
        try:
            make_bot(kind, game, 0, 0)
        except Exception:  # said by the table's own check (check_bot), in the event loop
            continue
        built += 1
    return built


__all__ = ["PERSON", "BotSeat", "BrowserSeat", "Seat", "WebSeat", "make_seat", "warm_bots"]
