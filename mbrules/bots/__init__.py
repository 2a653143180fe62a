"""Bots: ``Bot.choose(observation, legal_actions) -> action``, registered by name for ``--bot NAME``."""

from .base import (
    Bot,
    BotFacts,
    UnknownBot,
    bot_descriptions,
    bot_facts,
    bot_names,
    bot_rng,
    check_bot,
    check_bots,
    hint_bot,
    is_slow,
    ladder_rungs,
    lineup,
    make_bot,
    make_bots,
    parse_bot,
    register,
)
from . import random_bot as _random_bot  # noqa: F401  registers "random"
from . import heuristic as _heuristic  # noqa: F401  registers "heuristic"
from . import expert as _expert  # noqa: F401  registers "expert"
from . import heuristic_2026 as _heuristic_2026  # noqa: F401  registers "heuristic-2026" (the frozen baseline)
from . import learned as _learned  # noqa: F401  registers "learned" (a value learned by self-play, searched over)
from . import restricted as _restricted  # noqa: F401  registers "restricted" (restricted play, for compare)
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

__all__ = [
    "Bot",
    "BotFacts",
    "ExpertBot",
    "HeuristicBot",
    "RandomBot",
    "UnknownBot",
    "bot_descriptions",
    "bot_facts",
    "bot_names",
    "bot_rng",
    "check_bot",
    "check_bots",
    "hint_bot",
    "is_slow",
    "ladder_rungs",
    "lineup",
    "make_bot",
    "make_bots",
    "parse_bot",
    "register",
]
