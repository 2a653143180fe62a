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


BotFactory = Callable[..., Bot]
_REGISTRY: dict[str, tuple[BotFactory, str]] = {}
_PARAMS: dict[str, dict[str, tuple[type, int, int]]] = {}
_CHECKS: dict[str, Callable[[Game, dict], None]] = {}


def register(name: str, description: str, params: dict[str, tuple[type, int, int]] | None = None,
             check: Callable[[Game, dict], None] | None = None):
    """Class decorator: make a bot available as ``--bot name``.

    ``params`` names the parameters the bot takes as ``--bot name:key=value,key=value``, each
    with its type and inclusive bounds (``{"budget": (int, 1, 100000)}``; for ``str``, bounds of its
    length); the factory is then called with them as keyword arguments. ``check(game, params)``, if
    given, is what :func:`check_bot` runs once the game is known (raising :class:`UnknownBot` with a
    sentence), so that a command refuses a bot it cannot build before any match starts.
    """

    def deco(cls):
        cls.name = name
        _REGISTRY[name] = (cls, description)
        _PARAMS[name] = dict(params or {})
        if check is not None:
            _CHECKS[name] = check
        return cls

    return deco


MAX_SPEC = 200  # characters in one --bot value


def parse_bot(spec: str) -> tuple[str, dict[str, int]]:
    """``"expert:budget=50"`` as ``("expert", {"budget": 50})``; a plain name has no parameters.

    Raises :class:`UnknownBot` with a sentence for an unknown name, parameter or a bad value.
    """
    if not isinstance(spec, str) or len(spec) > MAX_SPEC:
        raise UnknownBot(f"a bot is a name, optionally with parameters (name:key=value), at most {MAX_SPEC} characters")
    name, sep, rest = spec.partition(":")
    if name not in _REGISTRY:
        import difflib

        close = difflib.get_close_matches(name, bot_names(), n=1)
        guess = f": did you mean '{close[0]}'?" if close else ""
        raise UnknownBot(f"unknown bot '{name}'{guess} (bots: {', '.join(bot_names())})")
    allowed = _PARAMS[name]
    params: dict[str, int] = {}
    if sep:
        if not rest:
            raise UnknownBot(f"bot '{spec}': parameters after ':' are key=value, separated by commas")
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or not key:
                raise UnknownBot(f"bot '{spec}': '{item}' is not key=value")
            if key not in allowed:
                known = ", ".join(sorted(allowed)) or "none"
                raise UnknownBot(f"bot '{name}' has no parameter '{key}' (its parameters: {known})")
            if key in params:
                raise UnknownBot(f"bot '{spec}': parameter '{key}' given twice")
            typ, lo, hi = allowed[key]
            try:
                v = typ(value.strip())
            except ValueError:
                raise UnknownBot(f"bot '{spec}': {key} must be an integer, not '{value}'") from None
            if typ is str:
                if not lo <= len(v) <= hi:
                    raise UnknownBot(f"bot '{spec}': {key} must have {lo} to {hi} characters")
            elif not lo <= v <= hi:
                raise UnknownBot(f"bot '{spec}': {key} must be between {lo} and {hi}")
            params[key] = v
    return name, params


def bot_names() -> list[str]:
    return sorted(_REGISTRY)


def bot_descriptions() -> dict[str, str]:
    return {n: _REGISTRY[n][1] for n in bot_names()}


def check_bot(name: str, game: Game | None = None) -> None:
    """Raise :class:`UnknownBot` unless ``name`` (a plain name or ``name:key=value,...``) is a bot;
    with ``game``, also unless the bot can be built for it (a model that fits the ruleset)."""
    base, params = parse_bot(name)
    if game is not None and base in _CHECKS:
        _CHECKS[base](game, params)


def bot_rng(seed, player: int) -> random.Random:
    """The bot's own stream for ``player`` (0-based) in the match dealt from ``seed``."""
    return random.Random(f"{seed}:bot:{player}")


def make_bot(name: str, game: Game, player: int, seed) -> Bot:
    """The bot ``name`` (``"heuristic"``, ``"expert:budget=50"``) for ``player`` of the match dealt from ``seed``."""
    base, params = parse_bot(name)
    return _REGISTRY[base][0](game, player, bot_rng(seed, player), **params)


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
