"""The match's RNG (engine/rng.py): the state copy it keeps is always ``getstate()``'s, whatever draws from it.

``State.snapshot()`` reads ``MatchRandom.state()``, a copy kept until a draw; api_test judges "a refused action
changes nothing" by it. Every way ``random.Random`` offers to move the generator must drop the copy."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import mbrules
from mbrules.engine.rng import MatchRandom, copied, rng_state

DRAWS = {
    "random": lambda r: r.random(),
    "getrandbits": lambda r: r.getrandbits(40),
    "randbytes": lambda r: r.randbytes(3),
    "randrange": lambda r: r.randrange(1000),
    "choice": lambda r: r.choice(range(50)),
    "shuffle": lambda r: r.shuffle(list(range(30))),
    "sample": lambda r: r.sample(range(100), 5),
    "uniform": lambda r: r.uniform(0, 1),
    "gauss": lambda r: r.gauss(),  # twice: the second takes gauss_next, no draw
    "gauss again": lambda r: r.gauss(),
    "seed": lambda r: r.seed(12),
    "setstate": lambda r: r.setstate(random.Random(99).getstate()),
}


def test_the_kept_copy_is_getstates_after_every_kind_of_draw():
    r = MatchRandom(5)
    plain = random.Random(5)
    assert r.state() == plain.getstate()
    for name, draw in DRAWS.items():
        before = r.state()
        assert r.state() is before  # kept while nothing draws
        assert draw(r) == draw(plain), name  # the same numbers as random.Random
        assert r.state() == r.getstate() == plain.getstate(), f"{name}: the kept copy is stale"
        assert name == "gauss again" or r.state() != before, name


def test_it_pickles_and_copies_as_a_random_random_and_a_state_gets_it_back():
    r = MatchRandom(3)
    r.random()
    assert pickle.dumps(r) == pickle.dumps(_plain(r))  # the bytes a State pickled before this class
    assert type(copy.copy(r)) is random.Random and copy.copy(r).getstate() == r.getstate()
    twin = copied(random.Random(8))
    assert type(twin) is MatchRandom and twin.getstate() == random.Random(8).getstate()
    assert rng_state(random.Random(8)) == rng_state(twin)
    st = mbrules.load_game("winning-moves", players=2).new_match(seed=4)
    for other in (st.clone(), pickle.loads(pickle.dumps(st))):
        assert type(other._rng) is MatchRandom and other._rng is not st._rng
        assert other.snapshot() == st.snapshot()
        other._rng.random()
        assert other.snapshot() != st.snapshot()


def _plain(r: MatchRandom) -> random.Random:
    p = random.Random()
    p.setstate(r.getstate())
    return p


@pytest.mark.parametrize("seed", [0, 7])
def test_a_snapshot_shares_the_copy_until_the_next_deal(seed):
    st = mbrules.load_game("winning-moves", players=2).new_match(seed=seed)
    first = st.snapshot()
    st.apply(st.legal_actions()[0])
    assert st.snapshot().rng_state is first.rng_state  # no deal: no draw, the same copy
    assert first.rng_state == st._rng.getstate()


@pytest.mark.parametrize("options", [[], ["reshuffle-discard"]])
def test_every_snapshot_of_a_match_holds_the_rngs_state_across_its_deals(options):
    """The deal's shuffle draws past MatchRandom's overrides (turn.shuffle binds random.Random's own
    getrandbits: ~150 native calls a deal) and drops the kept copy itself (rng.native_bits): were it not to, every
    snapshot after the second deal would carry the first deal's state, and api_test would judge a refusal
    that moves the RNG harmless. Checked at every action of a three-hand match, reshuffles among them."""
    st = mbrules.load_game("winning-moves", players=2, options=options).new_match(seed=3)
    pick = random.Random(1)
    for _ in range(5000):
        if st.is_terminal() or st.hands_played >= 3:
            break
        assert st.snapshot().rng_state == st._rng.getstate()
        st.apply(pick.choice(st.legal_actions()))
    assert st.hands_played >= 2, "the match must deal again for this test to mean anything"
