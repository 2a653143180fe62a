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
    """Random positions rarely stop inside a window: walk matches and check the first three windows met
    (about 3,000 random actions a configuration; five were 5,000), then stop (the walk went on to the end of
    the match that met the third: 171 windows checked for 126, wikipedia at 6 players 17). The walk steps with ``step_next`` (no
    record, the forced draws taken in the same call: the same game as ``apply``, which this test does not
    check); a window is a decision of its own, never stepped over (issue 46 point 7)."""
    import random

    game = game_of(*config)
    met = 0
    for seed in range(30):
        if met >= 3:
            break
        rng = random.Random(seed)
        state = game.new_match(seed)
        legal = state.legal_actions()
        for _ in range(1500):
            if not legal or met >= 3:  # the match is over, or the three windows are checked
                break
            if state.decision.kind == "coup_fourre":
                met += 1
                check_other_players(game, state)
                accepted = {
                    canonical(game, state.current_player, a) for a in game.actions.values() if state.can_apply(a)
                }
                assert accepted == set(legal)
            legal = state.step_next(rng.choice(legal))
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
        for q in range(game.players):  # a seat the window does not ask is refused by the window, whatever it holds
            if q not in queue:  # (the reason codes' order: no-coup-fourre before not-in-hand; s07)
                for c in game.protectors[hazard]:
                    assert _refused(state.verify, game.coup_action[c], q).code == "no-coup-fourre", (q, c)
        hands = state.snapshot().hands
        for q in queue:
            for c in range(game.n_cards):
                expected = c in hands[q] and c in game.protectors[hazard]
                assert state.can_apply(game.coup_action[c], q) == expected, (q, game.card_ids[c])


def _refused(call, *args) -> mbrules.IllegalAction:
    """The IllegalAction ``call(*args)`` raises; a call that returns fails the test. ``pytest.raises`` does the
    same with a context manager and an ExceptionInfo: ~80,000 refusals a run, half this test's CPU."""
    try:
        call(*args)
    except mbrules.IllegalAction as exc:
        return exc
    raise AssertionError(f"{getattr(call, '__name__', call)}{args!r} did not raise IllegalAction")


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
            code = _refused(state.verify, a, q).code
            e2 = _refused(state.apply, a, q)
            assert e2.code == code and e2.message
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


def _verify_code(state, action, player):
    """verify's answer as a code: None when it accepts, else its IllegalAction's code."""
    try:
        state.verify(action, player)
    except mbrules.IllegalAction as exc:
        return exc.code
    return None


@settings(max_examples=25, deadline=None)
@given(**POSITIONS)
def test_refusal_gives_the_code_verify_raises_for_every_action_and_player(config, seed, steps):
    """``State.refusal`` is verify's check without its sentence (the conformance harness asks it ~600 times a
    decision): the same code, or None exactly where verify accepts, for every action, whoever sends it, and for
    the action's int and words too."""
    game = game_of(*config)
    state = random_position(game, seed, steps)
    for q in (None, *range(game.players)):
        for a in game.actions.values():
            code = state.refusal(a, q)
            assert code == _verify_code(state, a, q), (q, str(a))
            assert state.refusal(int(a), q) == code and state.refusal(str(a), q) == code


def test_refusal_of_what_is_no_action_or_no_player_is_verify_s_not_your_turn():
    """An int that is no action of the game, or a player the game has not: verify's code (not-your-turn), no
    exception; text that is not an action raises NotationError as verify does."""
    state = mbrules.load_game("winning-moves", players=2).new_match(1)
    a = state.legal_actions()[0]
    for action, player in ((10**9, None), (-1, None), (a, 2), (a, -1)):
        assert state.refusal(action, player) == "not-your-turn" == _verify_code(state, action, player)
    with pytest.raises(mbrules.NotationError):
        state.refusal("fly to the moon")


def test_a_subclass_overriding_refusal_changes_verify_and_can_apply_alike():
    """verify and can_apply are built on refusal: a custom game that overrides it is judged by it everywhere."""
    from mbrules import _compiled

    if _compiled.active():  # the compiled State is a native class: custom States run on the pure engine
        pytest.skip("the compiled engine's State takes no Python subclass (docs/performance.md); pure only")

    class Strict(mbrules.State):
        def refusal(self, action, player=None):
            return "hand-over"  # refuses everything

    state = mbrules.load_game("winning-moves", players=2).new_match(1)
    strict = Strict.__new__(Strict)
    for name in mbrules.State.__slots__:
        setattr(strict, name, getattr(state, name))
    a = state.legal_actions()[0]
    assert state.can_apply(a) and not strict.can_apply(a)
    assert _verify_code(strict, a, None) == "hand-over"
