"""The engine's shuffle is the library's: ``mbrules.engine.turn.shuffle`` writes ``random.Random.shuffle``
out so that the compiled engine runs it natively; a deal must stay the same game in both modes and on
every tree before it (a recorded match replays from its seed)."""

from __future__ import annotations

import random

from mbrules.engine.turn import shuffle


def test_the_engine_shuffle_makes_the_same_order_and_leaves_the_same_rng_as_random_shuffle():
    """Every length from an empty pile to a large deck, many seeds: the same permutation, and the RNG left in the
    same state (the deal draws the hand's reshuffle seed from it next)."""
    for seed in range(40):
        for n in (0, 1, 2, 3, 7, 64, 65, 106, 110, 300):
            mine, theirs = random.Random(seed), random.Random(seed)
            a, b = list(range(n)), list(range(n))
            shuffle(mine, a)
            theirs.shuffle(b)
            assert a == b, (seed, n)
            assert mine.getstate() == theirs.getstate(), (seed, n)


def test_the_engine_shuffle_moves_cards_by_value_not_by_position():
    """Repeated cards (a deck holds several copies of a kind) land where the library's shuffle puts them."""
    deck = [c for c in range(19) for _ in range(c % 5 + 1)]
    for seed in range(20):
        a, b = deck[:], deck[:]
        shuffle(random.Random(seed), a)
        random.Random(seed).shuffle(b)
        assert a == b
