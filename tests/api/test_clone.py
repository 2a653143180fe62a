"""clone() gives an equal, independent copy of a match."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from api_helpers import CONFIGS, game_of, random_position


def _play(state, rng, steps):
    for _ in range(steps):
        acts = state.legal_actions()
        if not acts:
            return
        state.apply(rng.choice(acts))


@settings(max_examples=40, deadline=None)
@given(config=hs.sampled_from(CONFIGS), seed=hs.integers(0, 2**32), steps=hs.integers(0, 250))
def test_a_clone_is_equal_at_first_and_independent_both_ways(config, seed, steps):
    game = game_of(*config)
    state = random_position(game, seed, steps)
    before = state.snapshot()
    twin = state.clone()
    assert twin.snapshot() == before
    assert twin.history == state.history and twin.legal_actions() == state.legal_actions()
    for p in range(game.players):
        assert twin.observation(p) == state.observation(p)

    _play(twin, random.Random(seed + 1), 30)  # play on the clone: the original does not move
    assert state.snapshot() == before
    assert len(state.history) == before.history_length

    again = state.clone()
    frozen = again.snapshot()
    _play(state, random.Random(seed + 2), 30)  # and play on the original: the clone does not move
    assert again.snapshot() == frozen


@pytest.mark.parametrize("config", CONFIGS[:1])
def test_a_clone_deals_the_same_next_hands(config):
    """The clone carries the match's random stream: both deal the same next hand."""
    game = game_of(*config)
    state = random_position(game, 5, 10)
    twin = state.clone()
    rng1, rng2 = random.Random(9), random.Random(9)
    while not state.is_terminal() and state.hands_played < 2:
        a = rng1.choice(state.legal_actions())
        b = rng2.choice(twin.legal_actions())
        assert a == b
        state.apply(a)
        twin.apply(b)
        assert state.snapshot() == twin.snapshot()


def test_a_clone_does_not_carry_the_observers():
    import mbrules

    class Count(mbrules.Observer):
        n = 0

        def after_action(self, state, player, action):
            Count.n += 1

    game = game_of("winning-moves", 4)
    state = game.new_match(1)
    state.add_observer(Count())
    twin = state.clone()
    twin.apply(twin.legal_actions()[0])
    assert Count.n == 0
    state.apply(state.legal_actions()[0])
    assert Count.n == 1
