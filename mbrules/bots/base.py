"""The bot protocol and the registry behind ``--bot NAME``.

A bot is built for one player of one match and owns its own ``random.Random``
stream, seeded explicitly from the match seed and the player (``"{seed}:bot:{player}"``):
bots never touch the game's RNG nor the global ``random``, so a match is the same
whatever else runs in the process.
"""

from __future__ import annotations

import random
from typing import Callable, Protocol, runtime_checkable

from ..engine import Action, Game, Observation


@runtime_checkable
class Bot(Protocol):
    """Chooses one of the legal actions at a decision that is this bot's player's.

    A bot sees its seat's :class:`~mbrules.engine.Observation` and the legal actions, nothing
    else: never the state, other hands or the draw order. A bot whose choice does not depend
    on the table (the uniform one) sets ``observes = False`` and is passed None instead, so
    the driver does not build an observation for it.
    """

    name: str
    observes: bool

    def choose(self, observation: Observation | None, legal_actions: list[Action]) -> Action:
        ...


class UnknownBot(ValueError):
    """``--bot NAME`` names no registered bot."""


BotFactory = Callable[[Game, int, random.Random], Bot]
_REGISTRY: dict[str, tuple[BotFactory, str]] = {}


def register(name: str, description: str):
    """Class decorator: make a bot available as ``--bot name``."""

    def deco(cls):
        cls.name = name
        _REGISTRY[name] = (cls, description)
        return cls

    return deco


def bot_names() -> list[str]:
    return sorted(_REGISTRY)


def bot_descriptions() -> dict[str, str]:
    return {n: _REGISTRY[n][1] for n in bot_names()}


def check_bot(name: str) -> None:
    if name not in _REGISTRY:
        raise UnknownBot(f"unknown bot '{name}' (bots: {', '.join(bot_names())})")


def bot_rng(seed, player: int) -> random.Random:
    """The bot's own stream for ``player`` (0-based) in the match dealt from ``seed``."""
    return random.Random(f"{seed}:bot:{player}")


def make_bot(name: str, game: Game, player: int, seed) -> Bot:
    check_bot(name)
    return _REGISTRY[name][0](game, player, bot_rng(seed, player))


def lineup(names: list[str] | tuple[str, ...], players: int) -> list[str]:
    """Each player's bot name: ``names`` holds one name (for everybody) or one per player in seating order."""
    names = list(names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UnknownBot(
            f"give --bot once (for every player) or once per player: {players} players, {len(names)} bots"
        )
    return names


def make_bots(names: list[str] | tuple[str, ...], game: Game, seed) -> list[Bot]:
    """One bot per player: ``names`` holds one name (for everybody) or one per player in seating order."""
    return [make_bot(n, game, p, seed) for p, n in enumerate(lineup(names, game.players))]
