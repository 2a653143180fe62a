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
    d = state.decision
    window = state.snapshot().window
    for q in range(game.players):
        if q == d.player:
            continue
        for a in game.actions.values():
            if state.can_apply(a, q):
                assert d.kind == "coup_fourre" and a.kind == "coup-fourre", (q, str(a), d)
                assert q in window[3]  # a player still to answer the window


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
