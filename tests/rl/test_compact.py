"""The observation vector written from the engine's compact state equals the one built from an Observation."""

from __future__ import annotations

import random
from array import array

import pytest

import mbrules
from mbrules.engine.compact import draw_pile_counts, stack_next_draw, state_vector
from mbrules.env.encoding import ObservationEncoder
from mbrules.testing import tables


def _f32(values) -> array:
    """A vector as float32, the type both toolkits hand out."""
    return array("f", values)


def _random_positions(game, seed, steps):
    """States of random play (whole matches, hands dealt as they end), each position once."""
    rng = random.Random(seed)
    st = game.new_match(seed)
    for _ in range(steps):
        if st.is_terminal():
            st = game.new_match(rng.randrange(1 << 30))
        yield st
        st.apply(rng.choice(st.legal_actions()))


# positions of random play a table. Round 14 (issue 46 point 7): 350, not 700, but at LONG_TABLES. A line tracer
# inside encode_state and encode over every table's 700 positions: every line of mbrules they reach is reached in
# the first 350 positions of some table (the latest: 169) but the vector's extension-called slot (compact.py
# ``_write_piles``' ``v[i + 2] = 1.0``, scorelines' EXTENDED): no extension is called before step 509 on any
# table, and within 700 steps only at bsd-mille and dujardin-classic at 6 players
STEPS = 350
LONG_TABLES = {("bsd-mille", 6): 700}  # an extension called at step 509: the slot is compared set


@pytest.mark.slow
@pytest.mark.parametrize("ruleset,players", tables())  # every bundled edition at each player count it names
def test_fast_vector_equals_the_observation_vector_for_every_seat_of_random_positions(ruleset, players):
    options = ["hazard-on-hazard"] if ruleset == "winning-moves" and players == 4 else []
    g = mbrules.load_game(ruleset, players, options=options)
    enc = ObservationEncoder(g)
    extended = 0
    for st in _random_positions(g, players * 31 + len(ruleset), LONG_TABLES.get((ruleset, players), STEPS)):
        points = [line["total"] for line in st.score_sheet()]
        for p in range(players):
            obs = st.observation(p)
            extended += p == 0 and obs.extension_called_by >= 0
            slow = enc.encode(obs, st.hands_played, points)
            assert enc.encode_state(st, p, st.hands_played) == _f32(slow), (st, p)
    if (ruleset, players) in LONG_TABLES:  # LONG_TABLES' reason, held: else find another table that calls one
        assert extended, f"no extension called in {ruleset} at {players} players' positions"


def test_fast_vector_equals_the_observation_vector_inside_a_coup_fourre_window_for_each_seat():
    g = mbrules.load_game("winning-moves", 3)
    enc = ObservationEncoder(g)
    ix = {c: i for i, c in enumerate(g.card_ids)}
    deck = list(g.deck)
    hands = [[ix["stop"]], [ix["right_of_way"]], [ix["d25"]]]
    for h in hands:
        deck.remove(h[0])
    for h in hands:
        while len(h) < 6:
            h.append(deck.pop())
    st = mbrules.State.from_position(g, hands=hands, draw_top_first=deck, turn=0, sides={1: {"battle": [ix["roll"]]}})
    st.apply("draw")
    st.apply("play stop on B")
    assert st.decision.kind == "coup_fourre" and st.current_player == 1
    points = [line["total"] for line in st.score_sheet()]
    vectors = []
    for p in range(3):
        vectors.append(enc.encode_state(st, p, 0))
        assert vectors[-1] == _f32(enc.encode(st.observation(p), 0, points))
    window = enc.names.index("decision.coup_fourre")
    assert [v[window] for v in vectors] == [0.0, 1.0, 0.0]  # only the seat asked sees the window


def test_fast_vector_equals_the_observation_vector_at_hand_and_match_over():
    g = mbrules.load_game("winning-moves", 2)
    enc = ObservationEncoder(g)
    rng = random.Random(3)
    st = mbrules.State.new_match(g, 3, deal_next=False)
    seen = set()
    while True:
        while st.legal_actions():
            st.apply(rng.choice(st.legal_actions()))
        seen.add(st.decision.kind)
        points = [line["total"] for line in st.score_sheet()]
        for p in range(2):
            assert enc.encode_state(st, p, st.hands_played) == _f32(
                enc.encode(st.observation(p), st.hands_played, points)
            )
        if st.is_terminal():
            break
        st.next_hand()
    assert seen == {"hand_over", "match_over"}


def test_a_write_that_fails_midway_leaves_the_next_vectors_right():
    """The writer counts the seat's cards in a scratch list it keeps between calls; an error in the middle of a
    write (here a bad ``hands_played``, which pure Python meets only at the last slots) must not leave those
    counts behind, or every later vector of that writer would show cards the hand does not hold."""
    from mbrules.engine.compact import ObservationWriter

    g = mbrules.load_game("winning-moves", 2)
    enc = ObservationEncoder(g)
    w = ObservationWriter(enc)
    for st in _random_positions(g, 5, 30):
        with pytest.raises(TypeError):
            w.write(st, 0, "not a count")  # type: ignore[arg-type]
        for p in range(2):
            assert w.write(st, p, st.hands_played) == ObservationWriter(enc).write(st, p, st.hands_played)


def test_state_vector_counts_every_hidden_card_once():
    g = mbrules.load_game("winning-moves", 4)
    st = g.new_match(9)
    v = state_vector(st)
    n = g.n_cards
    held = sum(v[: g.players * n])
    assert held == sum(len(st.snapshot().hands[p]) for p in range(4))
    assert v[g.players * n : (g.players + 1) * n] == [float(x) for x in draw_pile_counts(st)]
    top = st.snapshot().draw_pile[0]
    assert v[(g.players + 1) * n + top] == 1.0 and sum(v[(g.players + 1) * n :]) == 1.0


def test_stack_next_draw_makes_the_chosen_card_the_next_drawn_and_refuses_a_card_not_left():
    g = mbrules.load_game("kids-115", 2)
    st = g.new_match(4)
    counts = draw_pile_counts(st)
    want = max(range(g.n_cards), key=lambda c: (counts[c] > 0, -c))
    stack_next_draw(st, want)
    st.apply("draw")
    assert st.snapshot().hands[0][-1] == want
    assert draw_pile_counts(st)[want] == counts[want] - 1
    gone = next((c for c in range(g.n_cards) if draw_pile_counts(st)[c] == 0), None)
    if gone is not None:
        with pytest.raises(ValueError, match="left to draw"):
            stack_next_draw(st, gone)


def test_stacked_hazards_show_every_hazard_in_force_in_both_vectors():
    """Option stacked-hazards: the side's ``hazard`` block has a 1 for each battle hazard in force, from the
    Observation and from the compact state alike (docs/rl.md); some positions hold two."""
    g = mbrules.load_game("winning-moves", 2, options=["stacked-hazards"])
    enc = ObservationEncoder(g)
    n = g.n_cards
    start = 6 + g.players + 2 * n  # decision, to_act, hand, window_hazard: then side blocks, own first
    two = 0
    for st in _random_positions(g, 5, 1500):
        points = [line["total"] for line in st.score_sheet()]
        for p in range(2):
            fast = enc.encode_state(st, p, st.hands_played)
            assert fast == _f32(enc.encode(st.observation(p), st.hands_played, points)), (st, p)
            own = g.side_of[p]
            block = fast[start + n : start + 2 * n]
            assert {c for c in range(n) if block[c]} == set(st.battle_hazards(own))
            two += len(st.battle_hazards(own)) > 1
    assert two > 0
