"""Matches played in-process as a sweep's value plays them (to check the command against)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from mbrules.matches.records import match_record
from mbrules import load_game
from mbrules.matches import game_seed, play_match


@pytest.fixture(scope="session")
def play_arm():
    """``play_arm(ruleset, options, players, games, seed)``: matches 0..games-1 of ``seed``, as records."""

    def played(ruleset, options, players, games, seed, bots=("heuristic",)):
        game = load_game(ruleset, players, options)
        recs = []
        for i in range(games):
            s = game_seed(seed, i)
            recs.append(match_record(game, s, play_match(game, s, list(bots)), list(bots)))
        return SimpleNamespace(records=recs, game=game)

    return played
