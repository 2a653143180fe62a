"""What every command that plays takes from a user: the bounds of the numbers it gives, the defaults, and
the one way a command compiles its game (:func:`compile_game`). Cheap to import: the engine and the
bots are imported when a game is compiled."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mbrules._paths import DEFAULT_RULESET
from mbrules.matches.base import MAX_GAMES
from mbrules.text import plural

from .common import EXIT_CHECK_FAILED, EXIT_USAGE, fail

if TYPE_CHECKING:
    from mbrules.engine import Game

__all__ = [
    "BOTS_HELP",
    "DEFAULT_BOT",
    "DEFAULT_PLAYERS",
    "DEFAULT_RULESET",
    "MAX_GAMES",
    "MAX_HANDS_FLAG",
    "MAX_PLAYERS",
    "SEED_MAX",
    "SEED_MIN",
    "SEED_WORDS",
    "compile_game",
]

DEFAULT_PLAYERS = 4
DEFAULT_BOT = "heuristic"

# Bounds of the numbers a user gives (beyond them: usage error, exit 2, naming the range).
SEED_MIN, SEED_MAX = -(2**63), 2**64 - 1
SEED_WORDS = "a 64-bit integer, from -2**63 to 2**64-1"
MAX_PLAYERS = 99  # a ruleset's player counts are 1 or 2 digits
MAX_HANDS_FLAG = 10_000  # the largest match.max_hands a ruleset may give (a match keeps its history)

BOTS_HELP = (
    "Bot name ({names}); once for every player, or once per player in seating order (p1, p2, ...). Default: heuristic."
)


def check_bot_count(bots: list[str], players: int) -> None:
    """--bot is given once (every player) or once per player: anything else is a usage error."""
    if len(bots) not in (1, players):
        fail(
            f"mbrules: give --bot once (for every player) or once per player: {plural(players, 'player')}, "
            f"{len(bots)} --bot given",
            EXIT_USAGE,
        )


def compile_game(
    ruleset: str, options: list[str], players: int, bots: list[str], files_read: list[Path] | None = None
) -> Game:
    """Check the bots, compile the ruleset for ``players`` (:func:`mbrules.load_game`); bad input exits
    cleanly with the contract's code. Every command that plays (play, simulate, compare, ladder, train)
    compiles through it.

    ``files_read`` is filled with every file the ruleset was read from (its ``extends`` chain and
    options included): the inputs an output path must never be."""
    from mbrules.bots import UnknownBot, check_bot
    from mbrules.engine import GameError

    try:
        for b in bots:
            check_bot(b)
    except UnknownBot as e:
        fail(f"mbrules: {e}", EXIT_USAGE)
    from mbrules import load_game  # the one way a ruleset is compiled, the library's as the command's
    from mbrules.ruleset import RulesetError

    try:
        game = load_game(ruleset, players, options, files_read=files_read)
    except RulesetError as e:
        fail(e.lines, EXIT_USAGE if e.usage else EXIT_CHECK_FAILED)
    except OSError as e:
        fail(f"mbrules: cannot read {ruleset}: {e.strerror or e}", EXIT_USAGE)
    except GameError as e:
        fail(f"mbrules: {e}", EXIT_USAGE)
    check_bot_count(bots, players)
    try:  # a bot that needs something of the game (the learned bot's model) is checked before any match
        for b in dict.fromkeys(bots):
            check_bot(b, game)
    except UnknownBot as e:
        fail(f"mbrules: {e}", EXIT_USAGE)
    return game
