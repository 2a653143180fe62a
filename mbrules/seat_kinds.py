"""The kinds of seat: the protocols (:class:`Seat`, :class:`Chooser`) and the two seats every caller uses
(:class:`BotSeat`, :class:`LaterSeat`), re-exported by :mod:`mbrules.seats` (read its text first).

A module of their own, never compiled, because :mod:`mbrules.seats` (the match loop) may be
(``mbrules._compiled``): mypyc makes no runtime-checkable ``Protocol`` (``isinstance(seat, Seat)``), and
its methods of a class check ``self`` by the exact class, where the browser table's seats derive from these.
"""

from __future__ import annotations

from typing import Callable, Protocol, runtime_checkable

from .engine import Action, Observation


@runtime_checkable
class Seat(Protocol):
    """Decides for one seat: an action among ``legal``, or None when the decision comes later.

    Optional attributes the loop reads once, when it is built: ``observes`` (default True; False:
    the seat is passed None instead of an observation, which then is not built) and ``asks_lone``
    (default False: see :mod:`mbrules.seats`).
    """

    def decide(self, observation: Observation | None, legal: list[Action]) -> Action | None: ...


class Chooser(Protocol):
    """What :class:`BotSeat` seats: a bot (:class:`mbrules.bots.Bot`, which this layer cannot import)."""

    def choose(self, observation: Observation | None, legal_actions: list[Action]) -> Action: ...


class BotSeat:
    """A bot (anything with ``choose(observation, legal)``, :class:`mbrules.bots.Bot`) as a seat.

    ``decide`` is the bot's own ``choose`` (no call in between: the loop of many matches pays
    nothing for the seat). ``asks_lone`` asks the bot even its forced moves but the draw (the
    terminal game and the browser tables do, keeping their bots' streams as they were).
    """

    def __init__(self, bot: Chooser, *, asks_lone: bool = False):
        self.bot = bot
        self.kind = getattr(bot, "name", type(bot).__name__)
        self.observes = getattr(bot, "observes", True)
        self.asks_lone = asks_lone
        self.decide: Callable[[Observation | None, list[Action]], Action | None] = bot.choose


class LaterSeat:
    """A seat whose action comes from outside: a person (a key, a click) or an agent (``env.step``).

    ``decide`` answers the action :meth:`offer` left, once, else None ("later"). Whoever offers
    checks the action first (``State.verify``); the loop takes it as given.
    """

    observes = False  # the caller shows the seat its observation; the loop need not build one
    asks_lone = True  # a person sees a forced move (the draw aside)

    def __init__(self) -> None:
        self.pending: Action | None = None

    def offer(self, action: Action) -> None:
        self.pending = action

    def decide(self, observation: Observation | None, legal: list[Action]) -> Action | None:
        a, self.pending = self.pending, None
        return a
