"""The observation vector: its layout names every slot, stays in its bounds, and says what the Observation says."""

from __future__ import annotations

import random

import pytest

import mbrules
from mbrules.env.encoding import ActionSpace, ObservationEncoder

TABLES = [("winning-moves", 4), ("kids-115", 3), ("wikipedia", 6), ("parker-1971", 2)]


@pytest.mark.parametrize("ruleset,players", TABLES)
def test_vector_stays_in_bounds_and_its_unseen_block_is_observation_unseen(ruleset, players):
    g = mbrules.load_game(ruleset, players)
    enc = ObservationEncoder(g)
    assert len(set(enc.names)) == enc.size == len(enc.high)
    at = {name: i for i, name in enumerate(enc.names)}
    st = g.new_match(1)
    rng = random.Random(0)
    for _ in range(400):
        if st.is_terminal():
            break
        for p in range(players):
            o = st.observation(p)
            v = enc.encode(o)
            assert all(0.0 <= x <= h for x, h in zip(v, enc.high))
            assert [v[at[f"unseen[{c}]"]] for c in g.card_ids] == [float(max(x, 0)) for x in o.unseen()]
            assert [v[at[f"hand[{c}]"]] for c in g.card_ids] == [float(o.hand.count(i)) for i in range(g.n_cards)]
            assert v[at["side[+0].miles/target"]] == pytest.approx(o.my_side.miles / o.target)
        st.apply(rng.choice(st.legal_actions()))


def test_vector_is_the_same_for_two_deals_that_differ_only_in_hidden_cards():
    from mbrules import State

    g = mbrules.load_game("winning-moves", 2)
    enc = ObservationEncoder(g)
    snap = g.new_match(5).snapshot()
    hands = [list(h) for h in snap.hands]
    pile = list(snap.draw_pile)
    j = next(k for k, c in enumerate(pile) if c not in hands[1])  # a card p2 lacks: swap it into p2's hand
    hands[1][0], pile[j] = pile[j], hands[1][0]
    a = State.from_position(g, hands=[list(h) for h in snap.hands], draw_top_first=list(snap.draw_pile))
    b = State.from_position(g, hands=hands, draw_top_first=pile)
    assert enc.encode(a.observation(0)) == enc.encode(b.observation(0))
    assert enc.encode(a.observation(1)) != enc.encode(b.observation(1))


def test_every_legal_action_of_random_play_has_an_index():
    for ruleset, players in TABLES:
        g = mbrules.load_game(ruleset, players, options=["hazard-on-hazard"] if ruleset != "kids-115" else [])
        space = ActionSpace(g)
        st = g.new_match(2)
        rng = random.Random(1)
        for _ in range(600):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            assert all(int(a) in space.index for a in legal)
            st.apply(rng.choice(legal))
