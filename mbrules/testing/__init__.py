"""Testing a ruleset and the engine: the checker, the score oracle, random drivers and ``api_test``.

* :func:`api_test` — what a ruleset author runs on a custom ruleset: random matches with every
  rule of the API checked (:mod:`.api`);
* :func:`check` — the invariants of a position (:mod:`.checker`), on the copy :class:`View`
  (:mod:`.view`);
* :func:`check_transition`, :class:`Checker`, :func:`checked_replay` — what one action must have
  done, after every action of a match or a scenario file (:mod:`.transitions`);
* :func:`score_oracle` and its adapters — a finished hand's sheet from its actions and the
  ruleset model alone (:mod:`.oracle`);
* :func:`observe`, :func:`differences`, :func:`replay_history` — comparing states (:mod:`.compare`);
* :func:`configurations`, :func:`tables`, :func:`load_game`, :func:`play_random` — random play over
  every bundled ruleset, option and player count (:mod:`.drivers`).
"""

from .api import api_test
from .checker import check
from .compare import differences, observe, replay_history
from .drivers import bundled_ids, configurations, game_of, load_game, load_rules, play_random, tables
from .oracle import (
    HandStart,
    dealt_start,
    expected_sheet,
    expected_winner,
    hand_actions,
    position_start,
    score_oracle,
)
from .transitions import Checker, check_transition, checked_replay
from .view import Before, View

__all__ = [
    "Before",
    "Checker",
    "HandStart",
    "View",
    "api_test",
    "bundled_ids",
    "check",
    "check_transition",
    "checked_replay",
    "configurations",
    "dealt_start",
    "differences",
    "expected_sheet",
    "expected_winner",
    "game_of",
    "hand_actions",
    "load_game",
    "load_rules",
    "observe",
    "play_random",
    "position_start",
    "replay_history",
    "score_oracle",
    "tables",
]
