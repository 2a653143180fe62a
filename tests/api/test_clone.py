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


def _mutables(value, found):
    """Every list, dict and RNG reachable from ``value`` (by identity), into ``found``."""
    if isinstance(value, (list, dict, random.Random)):
        found[id(value)] = value
    if isinstance(value, list):
        for v in value:
            _mutables(v, found)
    elif isinstance(value, dict):
        for v in value.values():
            _mutables(v, found)
    return found


def _comparable(value):
    return value.getstate() if isinstance(value, random.Random) else value


@pytest.mark.parametrize("config", [("winning-moves", 3), ("winning-moves", 4), ("parker-1971", 2)])
def test_every_slot_is_copied_and_none_shared(config):
    """State.clone() writes each slot's copy out by hand (its cost, round 14): a slot added to the State and
    not copied there is caught here. Every slot of the clone, at positions through two whole hands (sheets,
    history, reshuffles grown), equals the original's (the RNG by its state), the observers aside; no list,
    dict or RNG reachable from the clone's slots is the original's; the clone's RNG draws what the original's
    does. Pure, a slot left out is unset (AttributeError); compiled, it holds a fresh State's value."""
    from mbrules.engine.state import _STATE_SLOTS  # engine internals, deliberately: the copy of each slot

    game = game_of(*config)
    rng = random.Random(7)
    state = game.new_match(7)
    checked = 0
    for step in range(2000):
        if state.is_terminal() or state.hands_played >= 2:
            break
        if step % 25 == 0:
            twin = state.clone()
            shared = _mutables([getattr(state, n) for n in _STATE_SLOTS if n != "game"], {})
            for name in _STATE_SLOTS:
                if name == "_observers":
                    assert getattr(twin, name) == ()
                    continue
                mine, theirs = getattr(state, name), getattr(twin, name)
                assert _comparable(theirs) == _comparable(mine), name
                assert type(theirs) is type(mine), name
                if name != "game":
                    assert not set(_mutables(theirs, {})) & set(shared), f"{name} shares a mutable part"
            assert twin._rng.random() == state.clone()._rng.random()  # the same stream, drawn apart
            checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert state.hands_played >= 1 and checked >= 10
