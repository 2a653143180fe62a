"""The option sweeps' api_test: a random match of each table (option x player count) through every API check.

api_test checks every action of a match (the transition, the invariants after it, the score oracle at each
hand's end, that apply accepts what legal_actions lists) and, every ``legality_every``-th decision, the
whole legality (every candidate action's verdict and wording) and the observations (fairness). The sweeps
(tests/test_turn_rules.py, test_reactions_and_score_lines.py, test_legality_options.py,
test_house_rule_library.py, test_new_rules.py) play an option at every count it changes: the fast set's
table of an option keeps api_test's default (7), the slow set's tables (the option's other counts) take
the legality and observation checks every ``SLOW_LEGALITY_EVERY``-th decision. Those two checks were
about half of a table's CPU at every 7th (cProfile of mulligan at 2 players: 18.7 of 37.9 s profiled; issue 46
point 7, round 12: every 14th, docs/performance.md "The slow set, round 12"). Round 13: every 28th; the
per-action checks (the transition, the invariants, the score oracle) stay on every action, and a slow
table's match still meets dozens to hundreds of legality checks. The legality mutants of the sweeps'
options (a discard of a safety accepted under safeties-not-discardable, a mulligan of a card not held
accepted, a listed fast play or draw from the discard pile refused) were caught on every slow table of
their option at 28 as at 14; the windows' options keep 14 (WINDOW_OPTIONS; docs/performance.md, "The sweeps,
round 13").
"""

from __future__ import annotations

import pytest

from mbrules.engine import Game
from mbrules.testing import api_test

FAST_LEGALITY_EVERY = 7  # api_test's default: the fast set's tables
SLOW_LEGALITY_EVERY = 28  # the slow set's tables
# the options whose rules are windows (a decision a few times a hand, out of turn): their slow tables keep every
# 14th decision. A "does not fix" refusal worded "" (a fast play's card that fixes nothing else) was caught by 2
# of fast-play-remedy's 3 slow tables at 14, by 1 at 28 (round 13's mutants)
WINDOW_OPTIONS = frozenset({"fast-play-remedy", "queued-coup-fourre-turn"})
SLOW_WINDOW_LEGALITY_EVERY = 14


def legality_every(request: pytest.FixtureRequest, game: Game | None = None) -> int:
    """The legality period of the running sweep case: api_test's own in the fast set, SLOW_LEGALITY_EVERY
    for a case only make test runs (marked slow), SLOW_WINDOW_LEGALITY_EVERY for such a case of a window
    option (``game``'s options)."""
    if not request.node.get_closest_marker("slow"):
        return FAST_LEGALITY_EVERY
    if game is not None and WINDOW_OPTIONS.intersection(game.ruleset.applied_options):
        return SLOW_WINDOW_LEGALITY_EVERY
    return SLOW_LEGALITY_EVERY


def sweep_api_test(game: Game, request: pytest.FixtureRequest, *, seed: int) -> None:
    """One match of ``game`` from ``seed`` through api_test, at the case's legality period."""
    api_test(game, matches=1, seed=seed, legality_every=legality_every(request, game))
