"""Matches shared by the compare tests (played once per session: they are the slow part)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from mbrules.matches.records import match_record
from mbrules import load_game
from mbrules.matches import game_seed, play_match


def played(ruleset: str, options: list[str], players: int, games: int, seed: int, bots=("heuristic",)):
    """One arm's records: matches 0..games-1 of ``seed``, as compare's main phase plays them."""
    game = load_game(ruleset, players, options)
    recs = []
    for i in range(games):
        s = game_seed(seed, i)
        recs.append(match_record(game, s, play_match(game, s, list(bots)), list(bots)))
    return SimpleNamespace(records=recs, game=game)


@pytest.fixture(scope="session")
def play_arm():
    """``play_arm(ruleset, options, players, games, seed)``: one arm's records, played in-process."""
    return played


@pytest.fixture(scope="session")
def wm4_arms():
    """winning-moves vs winning-moves + hazard-on-hazard, 4 players, 60 paired matches."""
    return (played("winning-moves", [], 4, 60, 5), played("winning-moves", ["hazard-on-hazard"], 4, 60, 5))
