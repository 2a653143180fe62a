"""The bot protocol and the registry behind ``--bot NAME``.

A bot is built for one player of one match and owns its own ``random.Random``
stream, seeded explicitly from the match seed and the player (``"{seed}:bot:{player}"``):
bots never touch the game's RNG nor the global ``random``, so a match is the same
whatever else runs in the process.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol, Sequence, TypeVar, runtime_checkable

from ..engine import Action, Game, Observation
from ..text import plural


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

    def choose(self, observation: Observation | None, legal_actions: list[Action]) -> Action: ...


class UnknownBot(ValueError):
    """``--bot NAME`` names no registered bot."""


@dataclass(frozen=True)
class BotFacts:
    """What the tools need to know of a bot, given where it registers (:func:`register`), never listed
    elsewhere: whether its matches cost seconds (``slow``: compare plays it on the small subsets only),
    its rung on compare's skill ladder (``ladder``: the position, weakest first, and ``ladder_spec``, the
    ``--bot`` value it plays there) and whether it gives the terminal game's hints (``hints``: the
    registered bot with the highest gives them)."""

    slow: bool = False
    ladder: int | None = None
    ladder_spec: str = ""
    hints: int | None = None


BotFactory = Callable[..., Bot]
_B = TypeVar("_B", bound="type[Any]")  # a bot class, registered as it is
_REGISTRY: dict[str, tuple[BotFactory, str]] = {}
_PARAMS: dict[str, dict[str, tuple[type, int, int]]] = {}
_CHECKS: dict[str, Callable[[Game, dict[str, Any]], None]] = {}
_FACTS: dict[str, BotFacts] = {}


def register(
    name: str,
    description: str,
    params: dict[str, tuple[type, int, int]] | None = None,
    check: Callable[[Game, dict[str, Any]], None] | None = None,
    *,
    slow: bool = False,
    ladder: int | None = None,
    ladder_spec: str = "",
    hints: int | None = None,
) -> Callable[[_B], _B]:
    """Class decorator: make a bot available as ``--bot name``.

    ``params`` names the parameters the bot takes as ``--bot name:key=value,key=value``, each
    with its type and inclusive bounds (``{"budget": (int, 1, 100000)}``; for ``str``, bounds of its
    length); the factory is then called with them as keyword arguments. ``check(game, params)``, if
    given, is what :func:`check_bot` runs once the game is known (raising :class:`UnknownBot` with a
    sentence), so that a command refuses a bot it cannot build before any match starts.
    ``slow``, ``ladder``, ``ladder_spec`` and ``hints`` are its :class:`BotFacts`.
    """

    def deco(cls: _B) -> _B:
        cls.name = name
        _REGISTRY[name] = (cls, description)
        _PARAMS[name] = dict(params or {})
        _FACTS[name] = BotFacts(slow, ladder, ladder_spec or name, hints)
        if check is not None:
            _CHECKS[name] = check
        return cls

    return deco


def bot_facts(spec: str) -> BotFacts:
    """The facts of the bot ``spec`` names (``expert:budget=4`` is the expert's); an unknown name has none."""
    return _FACTS.get(spec.partition(":")[0], BotFacts())


def is_slow(spec: str) -> bool:
    """Whether the bot's matches cost seconds (compare plays it on the small subsets only)."""
    return bot_facts(spec).slow


def ladder_rungs() -> list[str]:
    """The rungs of compare's default skill ladder, weakest first: the ``--bot`` value of every registered
    bot that has a place on it."""
    on = sorted((f.ladder, name) for name, f in _FACTS.items() if f.ladder is not None)
    return [_FACTS[name].ladder_spec for _, name in on]


def hint_bot() -> str:
    """The bot that gives the terminal game's hints: the registered one with the highest ``hints``."""
    ranked = sorted((f.hints, name) for name, f in _FACTS.items() if f.hints is not None)
    return ranked[-1][1] if ranked else bot_names()[0]


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


def check_bots(names: Iterable[str], games: Iterable[Game]) -> None:
    """:func:`check_bot` for every bot of ``names`` against every game of ``games`` (both arms of a
    comparison, every value of a sweep), before the first match: a model that does not fit one of them
    is refused here, with a sentence, not in a worker. Each distinct name is checked once a game."""
    for game in games:
        for name in dict.fromkeys(names):
            check_bot(name, game)


def bot_rng(seed: int | str, player: int) -> random.Random:
    """The bot's own stream for ``player`` (0-based) in the match dealt from ``seed``."""
    return random.Random(f"{seed}:bot:{player}")


def make_bot(name: str, game: Game, player: int, seed: int | str) -> Bot:
    """The bot ``name`` (``"heuristic"``, ``"expert:budget=50"``) for ``player`` of the match dealt from ``seed``."""
    base, params = parse_bot(name)
    return _REGISTRY[base][0](game, player, bot_rng(seed, player), **params)


def lineup(names: Sequence[str], players: int) -> list[str]:
    """Each player's bot name: ``names`` holds one name (for everybody) or one per player in seating order."""
    if isinstance(names, str):  # a str is a Sequence[str] too: its letters are no bot names
        raise TypeError(f"lineup takes a list of bot names, not the string {names!r}")
    names = list(names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UnknownBot(
            f"give --bot once (for every player) or once per player: {plural(players, 'player')}, {len(names)} bots"
        )
    return names


def make_bots(names: Sequence[str], game: Game, seed: int) -> list[Bot]:
    """One bot per player: ``names`` holds one name (for everybody) or one per player in seating order."""
    return [make_bot(n, game, p, seed) for p, n in enumerate(lineup(names, game.players))]
