"""Matches shared by the compare tests (played once per session: they are the slow part)."""
from __future__ import annotations

import pytest

from mbrules.compare.run import make_arm, run_arm


def played(ruleset: str, options: list[str], players: int, games: int, seed: int, skill_games: int = 0,
           bots=("heuristic",)):
    arm = make_arm("X", ruleset, options, players)
    assert run_arm(arm, players, list(bots), games, skill_games, "heuristic", "random", seed, 1)
    return arm


@pytest.fixture(scope="session")
def play_arm():
    """``play_arm(ruleset, options, players, games, seed, skill_games=0)``: one arm, played in-process."""
    return played


@pytest.fixture(scope="session")
def wm4_arms():
    """winning-moves vs winning-moves + hazard-on-hazard, 4 players, 60 paired matches and 12 skill matches."""
    return (played("winning-moves", [], 4, 60, 5, skill_games=12),
            played("winning-moves", ["hazard-on-hazard"], 4, 60, 5, skill_games=12))
