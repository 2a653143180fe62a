"""Strength on small samples, with margins wide enough never to flake: the expert beats the
random bot hand after hand, and in a match the heuristic does too (tests/test_bots.py). The
figures against the starting heuristic are in docs/bots.md (benchmarks/bench_bots.py)."""

from __future__ import annotations

import pytest

import mbrules
from mbrules.matches import play_match


@pytest.mark.slow  # statistical: 12 hands of the expert's search (the fast set plays the expert in tests/bots' others)
def test_expert_outscores_random_in_single_hands():
    game = mbrules.load_game("winning-moves", players=2)
    won = 0
    for seed in range(6):
        for lineup, me in ((["expert:budget=4,width=2", "random"], 0), (["random", "expert:budget=4,width=2"], 1)):
            st = play_match(game, seed, lineup, max_hands=1)
            sheet = st.hand_sheets[0]
            won += sheet[me]["total"] > sheet[1 - me]["total"]
    assert won >= 9  # of 12; it wins about all of them


def test_expert_is_deterministic_for_a_seed():
    game = mbrules.load_game("winning-moves", players=2)
    a = play_match(game, 5, ["expert:budget=4", "heuristic"], max_hands=1)
    b = play_match(game, 5, ["expert:budget=4", "heuristic"], max_hands=1)
    assert a.history == b.history and a.snapshot() == b.snapshot()
