"""Legality lives in one place: can_apply, verify, apply and legal_actions() never disagree."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import mbrules
from api_helpers import CONFIGS, canonical, game_of, random_position

POSITIONS = dict(config=hs.sampled_from(CONFIGS), seed=hs.integers(0, 2**32), steps=hs.integers(0, 400))


@settings(max_examples=40, deadline=None)
@given(**POSITIONS)
def test_the_deciding_players_accepted_actions_are_exactly_the_legal_ones(config, seed, steps):
    game = game_of(*config)
    state = random_position(game, seed, steps)
    legal = state.legal_actions()
    assert len(set(legal)) == len(legal), "legal_actions() lists an action twice"
    p = state.current_player
    if p < 0:
        assert legal == []
        assert not any(state.can_apply(a) for a in game.actions.values())
        return
    accepted = {canonical(game, p, a) for a in game.actions.values() if state.can_apply(a, p)}
    assert accepted == set(legal)
    for a in game.actions.values():
        assert state.can_apply(a) == state.can_apply(a, p)  # None means whoever decides


@settings(max_examples=40, deadline=None)
@given(**POSITIONS)
def test_only_the_decider_or_a_coup_fourre_in_its_window_is_accepted(config, seed, steps):
    game = game_of(*config)
    state = random_position(game, seed, steps)
    check_other_players(game, state)


@pytest.mark.parametrize("config", CONFIGS, ids=[f"{r}-{n}p" for r, n in CONFIGS])
def test_at_every_coup_fourre_window_met_only_its_players_may_call(config):
    """Random positions rarely stop inside a window: walk matches and check every window met."""
    import random

    game = game_of(*config)
    met = 0
    for seed in range(30):
        if met >= 5:
            break
        rng = random.Random(seed)
        state = game.new_match(seed)
        for _ in range(1500):
            if state.is_terminal():
                break
            if state.decision.kind == "coup_fourre":
                met += 1
                check_other_players(game, state)
                accepted = {
                    canonical(game, state.current_player, a) for a in game.actions.values() if state.can_apply(a)
                }
                assert accepted == set(state.legal_actions())
            state.apply(rng.choice(state.legal_actions()))
    if game.ruleset.coup_fourre.enabled.value:
        assert met > 0


def check_other_players(game, state):
    d = state.decision
    window = state.snapshot().window
    for q in range(game.players):
        if q == d.player:
            continue
        for a in game.actions.values():
            if state.can_apply(a, q):
                assert d.kind == "coup_fourre" and a.kind == "coup-fourre", (q, str(a), d)
                assert q in window[3]  # a player still to answer the window
    if window is not None:  # and the other way round: each player still to answer may call with a safety held
        hazard, _, _, queue = window
        hands = state.snapshot().hands
        for q in queue:
            for c in range(game.n_cards):
                expected = c in hands[q] and c in game.protectors[hazard]
                assert state.can_apply(game.coup_action[c], q) == expected, (q, game.card_ids[c])


@settings(max_examples=25, deadline=None)
@given(**POSITIONS)
def test_apply_refuses_exactly_what_can_apply_refuses_and_changes_nothing(config, seed, steps):
    game = game_of(*config)
    state = random_position(game, seed, steps)
    before = state.snapshot()
    history = state.history
    for q in (None, *range(game.players)):
        for a in game.actions.values():
            ok = state.can_apply(a, q)
            if ok:
                state.verify(a, q)  # does not raise
                trial = state.clone()
                trial.apply(a, q)  # accepted
                assert len(trial.history) > len(history) or trial.hands_played > state.hands_played
                continue
            with pytest.raises(mbrules.IllegalAction) as e:
                state.verify(a, q)
            code = e.value.code
            with pytest.raises(mbrules.IllegalAction) as e2:
                state.apply(a, q)
            assert e2.value.code == code and e2.value.message
            assert state.history == history
    assert state.snapshot() == before


@settings(max_examples=25, deadline=None)
@given(**POSITIONS)
def test_every_legal_action_is_accepted_by_apply(config, seed, steps):
    game = game_of(*config)
    state = random_position(game, seed, steps)
    p = state.current_player
    for a in state.legal_actions():
        trial = state.clone()
        trial.apply(a, p)
        trial = state.clone()
        trial.apply(str(a))  # and in words
