"""The OpenSpiel game passes OpenSpiel's own random simulation test, and its ISMCTS plays it."""
from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the rl extra (pip install 'mbrules[rl]') is not installed")
np = pytest.importorskip("numpy", reason="the rl extra (pip install 'mbrules[rl]') is not installed")

import mbrules.openspiel as mos  # noqa: E402

RULESETS = ("parker-1971", "winning-moves", "kids-115", "wikipedia")


def load(**params):
    return pyspiel.load_game(mos.SHORT_NAME, params)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("players", [2, 4])
def test_openspiel_random_sim_test_passes_with_serialization(ruleset, players):
    # one hand per episode (hands=1) keeps the 8 tables fast; the whole match is checked below
    pyspiel.random_sim_test(load(ruleset=ruleset, players=players, hands=1), num_sims=1, serialize=True,
                            verbose=False)


def test_openspiel_random_sim_test_passes_on_a_whole_match():
    # kids-115 is one hand by its rules; winning-moves at 2 players plays hands to 5000 points
    pyspiel.random_sim_test(load(ruleset="kids-115", players=2), num_sims=2, serialize=True, verbose=False)


def test_game_string_takes_ruleset_players_and_options():
    g = pyspiel.load_game("python_mille_bornes(ruleset=winning-moves,players=2,options=hazard-on-hazard+extension-1200)")
    assert g.num_players() == 2
    assert g.mb.ruleset.play.hazard_on_hazard.value is True
    assert g.num_distinct_actions() == len(g.space)
    assert g.max_chance_outcomes() == g.mb.n_cards


def test_each_hand_opens_with_one_chance_node_per_card_with_the_boxs_odds():
    g = load(ruleset="winning-moves", players=2)
    s = g.new_initial_state()
    deck = len(g.mb.deck)
    outs = s.chance_outcomes()
    assert sum(p for _, p in outs) == pytest.approx(1.0)
    assert dict(outs)[g.mb.card("d200")] == pytest.approx(g.mb.deck_counts[g.mb.card("d200")] / deck)
    rng = random.Random(0)
    for _ in range(deck):
        assert s.is_chance_node()
        outs = s.chance_outcomes()
        s.apply_action(rng.choices([c for c, _ in outs], [p for _, p in outs])[0])
    assert s.current_player() == 0 and not s.is_chance_node()


def _play_to_a_window_or_turns(s, rng, turns):
    while not s.is_terminal() and turns:
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(outs[rng.randrange(len(outs))][0])
            continue
        s.apply_action(rng.choice(s.legal_actions()))
        turns -= 1
    return s


def test_resampled_state_looks_the_same_to_the_seat_and_redraws_the_rest():
    g = load(ruleset="winning-moves", players=4, hands=1)
    s = _play_to_a_window_or_turns(g.new_initial_state(), random.Random(4), 60)
    p = s.current_player()
    differ = 0
    for k in range(10):
        r = s.resample_from_infostate(p, random.Random(k))
        assert r.information_state_string(p) == s.information_state_string(p)
        assert r.observation_tensor(p) == s.observation_tensor(p)
        assert r.legal_actions() == s.legal_actions()
        differ += any(r.mb_state.snapshot().hands[q] != s.mb_state.snapshot().hands[q] for q in range(4) if q != p)
    assert differ >= 8  # the other hands are redrawn, not copied


def test_information_state_never_shows_another_hand():
    g = load(ruleset="kids-115", players=2)
    s = _play_to_a_window_or_turns(g.new_initial_state(), random.Random(2), 10)
    them = s.mb_state.snapshot().hands[1]
    mine = s.information_state_string(0)
    assert "('hand', [" + ", ".join(repr(s.mb_state.game.card_ids[c]) for c in s.mb_state.snapshot().hands[0]) in mine
    # the seat's string is a function of what it saw: a redraw of the hidden cards keeps it
    r = s.resample_from_infostate(0, random.Random(9))
    assert r.mb_state.snapshot().hands[1] != them or r.mb_state.snapshot().draw_pile != s.mb_state.snapshot().draw_pile
    assert r.information_state_string(0) == mine


def test_openspiel_ismcts_plays_a_whole_hand():
    from open_spiel.python.algorithms import ismcts, mcts

    g = load(ruleset="kids-115", players=2)
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rs), 2.0, 4, random_state=rs)
    s = g.new_initial_state()
    moves = 0
    while not s.is_terminal():
        if s.is_chance_node():
            outs = s.chance_outcomes()
            s.apply_action(outs[rs.randint(len(outs))][0])
        elif s.current_player() == 0:
            a = bot.step(s)
            assert a in s.legal_actions()
            s.apply_action(a)
            moves += 1
        else:
            s.apply_action(s.legal_actions()[rs.randint(len(s.legal_actions()))])
    assert moves > 10 and sum(s.returns()) == pytest.approx(0.0)


def test_bad_parameters_are_refused():
    with pytest.raises(Exception, match="hands must be"):
        load(hands=-1)
    with pytest.raises(Exception):
        load(ruleset="no-such-ruleset")
