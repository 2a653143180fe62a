"""Properties of the engine over every bundled ruleset, option and player count.

Random legal play is driven by a hypothesis-drawn seed for the choice RNG, so a
failure shrinks to a configuration and two seeds that replay it exactly.
"""

from __future__ import annotations

import random

import pytest

from hypothesis import given, note
from hypothesis import strategies as st

from mbrules.engine import Action, IllegalAction, State
from mbrules.testing import check, check_transition, differences, observe, replay_history
from mbrules.vocab import REASON_CODES, SIDE_NAMES
from prop_helpers import canonical, configurations, game_of, new_match, random_prefix, seeds


def _candidates(game):
    """Every action a caller could try: each card played unnamed, on each side (and one side too far),
    discarded, or called as a coup fourré; draw, decline and both extension answers; where the ruleset has
    them, a draw from the discard pile and a mulligan of each card."""
    acts = [game.draw_action, game.decline_action, game.extend_action, game.stop_action]
    acts.append(game.draw_discard_action)
    acts += game.mulligan_action
    for c in range(game.n_cards):
        acts.append(game.play_own[c])
        acts += [game.play_action[c][s] for s in range(game.sides)]
        acts.append(Action.parse(f"play {game.card_ids[c]} on {SIDE_NAMES[game.sides]}", game))
        acts.append(game.discard_action[c])
        acts.append(game.coup_action[c])
    return acts


def _mutate(value) -> None:
    """Scribble on every mutable container reachable from ``value`` (lists grow, dicts get -1s)."""
    if isinstance(value, list):
        for v in list(value):
            _mutate(v)
        value.append(0)
    elif isinstance(value, dict):
        for k in list(value):
            if isinstance(value[k], (list, dict)):
                _mutate(value[k])
            else:
                value[k] = -1


@pytest.mark.slow  # 5 to 10 s of CPU: make test-fast leaves it out
@given(config=configurations(), deal_seed=seeds, play_seed=seeds)
def test_invariants_hold_after_every_action(config, deal_seed, play_seed):
    game = game_of(config)
    state = new_match(game, deal_seed)
    rng = random.Random(play_seed)
    assert check(state) == [], "invariants fail right after the deal"
    hands = 0
    for step in range(3000):
        if state.match_over or hands >= 2:
            break
        if state.hand_over:
            state.next_hand()
            hands += 1
        else:
            action = rng.choice(state.legal_actions())
            before = state.clone()
            state.apply(action)
            note(f"step {step}: {game.describe(action)}")
            bad = check_transition(before, action, state)
            assert bad == [], f"step {step}: {bad}"
        bad = check(state)
        assert bad == [], f"after step {step}: {bad}"
    else:
        raise AssertionError("two hands did not end within 3000 steps")


@given(config=configurations(), deal_seed=seeds, play_seed=seeds, steps=st.integers(0, 300))
def test_clone_is_independent_of_its_original(config, deal_seed, play_seed, steps):
    game = game_of(config)
    state = new_match(game, deal_seed)
    rng = random.Random(play_seed)
    random_prefix(state, rng, steps)
    before = observe(state)
    clone = state.clone()
    assert differences(observe(clone), before) == [], "a fresh clone differs from its original"

    # Mutate the clone through play, through what its public methods hand out, and (deliberately,
    # engine internals: clone() must share nothing mutable) through every private slot it has.
    random_prefix(clone, random.Random(play_seed + 1), 40)
    for line in clone.score_sheet():
        _mutate(line)
    for name in State.__slots__:
        if name not in ("game", "_rng", "_observers"):
            _mutate(getattr(clone, name))
    clone._rng.random()
    assert differences(observe(state), before) == [], "mutating a clone changed its original"

    # And the other way round: the original moves on, a second clone stays put.
    clone2 = state.clone()
    snap2 = observe(clone2)
    random_prefix(state, random.Random(play_seed + 2), 40)
    state._rng.random()
    assert differences(observe(clone2), snap2) == [], "playing on the original changed its clone"


@given(config=configurations(), deal_seed=seeds, play_seed=seeds, steps=st.integers(0, 600))
def test_replaying_history_from_the_same_seed_gives_an_identical_state(config, deal_seed, play_seed, steps):
    game = game_of(config)
    state = new_match(game, deal_seed)
    random_prefix(state, random.Random(play_seed), steps)
    again = replay_history(game, deal_seed, state.history)
    assert differences(observe(again), observe(state)) == []


@given(config=configurations(), deal_seed=seeds, play_seed=seeds, steps=st.integers(0, 250))
def test_apply_accepts_exactly_the_legal_actions(config, deal_seed, play_seed, steps):
    """Every candidate action: accepted by apply() iff listed by legal_actions(); a refusal carries
    a contract reason code and leaves the state exactly as it was."""
    game = game_of(config)
    state = new_match(game, deal_seed)
    random_prefix(state, random.Random(play_seed), steps)
    legal = state.legal_actions()
    assert len(legal) == len(set(legal)), f"legal_actions lists an action twice: {legal}"
    before = observe(state)
    accepted = []
    for action in _candidates(game):
        trial = state.clone()
        try:
            trial.apply(action)
        except IllegalAction as e:
            assert e.code in REASON_CODES, f"{game.describe(action)}: unknown reason code {e.code!r}"
            assert e.message, f"{game.describe(action)}: refused without a sentence"
            diff = differences(observe(trial), before)
            assert diff == [], f"refused {game.describe(action)} ({e.code}) changed the state: {diff}"
        else:
            accepted.append(action)
            bad = check(trial) + check_transition(state, action, trial)
            assert bad == [], f"after {game.describe(action)}: {bad}"
    p = state.current_player
    canon = sorted({canonical(game, p, a) for a in accepted})
    assert canon == sorted(legal), (
        f"apply() accepts {[str(a) for a in canon]}, legal_actions() lists {[str(a) for a in sorted(legal)]}"
    )
    for a in accepted:  # an action in other words ('play d25 on A' for 'play d25') does exactly the same
        c = canonical(game, p, a)
        if c != a:
            one, other = state.clone(), state.clone()
            one.apply(a)
            other.apply(c)
            assert differences(observe(one), observe(other)) == [], f"{a} and {c} differ"
    assert differences(observe(state), before) == [], "trying actions on clones changed the original"


@pytest.mark.slow  # 5 to 10 s of CPU: make test-fast leaves it out
@given(config=configurations(), deal_seed=seeds, play_seed=seeds, steps=st.integers(0, 250))
def test_other_players_are_refused_except_a_coup_fourre_in_its_window(config, deal_seed, play_seed, steps):
    """apply(action, player=q) for a player other than the one deciding: refused with not-your-turn
    (or hand-over), except a coup fourré by a player the open window lists (contract: reason codes)."""
    game = game_of(config)
    state = new_match(game, deal_seed)
    random_prefix(state, random.Random(play_seed), steps)
    decider = state.decision.player
    before = observe(state)
    for q in range(game.players):
        if q == decider:
            continue
        for action in _candidates(game):
            trial = state.clone()
            try:
                trial.apply(action, q)
            except IllegalAction as e:
                assert differences(observe(trial), before) == []
                if action.kind == "coup-fourre":
                    continue  # no-coup-fourre / not-in-hand are both right outside the window
                if state.hand_over:
                    assert e.code == "hand-over"
                elif state.decision.kind == "extension":
                    assert e.code in ("extension-pending", "not-your-turn"), e.code
                elif action.kind in ("extend", "stop"):
                    assert e.code == "no-extension", e.code
                elif action.kind == "decline":
                    assert e.code in ("no-coup-fourre", "not-your-turn"), e.code
                else:
                    assert e.code == "not-your-turn", f"{game.describe(action)} by p{q + 1}: {e.code}"
            else:
                assert action.kind == "coup-fourre" and state.decision.kind == "coup_fourre", (
                    f"p{q + 1} out of turn: {game.describe(action)} accepted at {state.decision}"
                )
                assert q in state.snapshot().window[3]
                assert check(trial) == []
                assert check_transition(state, action, trial, q) == []


@given(config=configurations(), deal_seed=seeds, play_seed=seeds, steps=st.integers(1, 700))
def test_a_recorded_match_replays_as_passing_scenarios(config, deal_seed, play_seed, steps):
    """The recorder (mbrules play --record) and the replayer agree on every configuration: a random
    match, cut anywhere, recorded and replayed, passes every document."""
    import tempfile
    from pathlib import Path

    from mbrules.scenario.record import Recorder, record_match
    from mbrules.scenario.replay import replay_file

    game = game_of(config)
    recorder = Recorder()
    state = new_match(game, deal_seed, observers=[recorder])
    random_prefix(state, random.Random(play_seed), steps)
    rid, opts, players = config
    text = record_match(recorder, state, rid, list(opts), players, deal_seed)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "rec.yaml"
        path.write_text(text, encoding="utf-8")
        results = replay_file(path)
    assert len(results) == len(recorder.hands)
    failed = [line for r in results if not r.passed for line in r.lines()]
    assert not failed, "\n".join(failed[:10])


@given(
    config=configurations(max_options=1),
    deal_seed=seeds,
    play_seed=seeds,
    steps=st.integers(0, 300),
    actions=st.lists(st.integers(-(2**40), 2**40) | st.integers(-64, 2**14), min_size=1, max_size=30),
    player=st.none() | st.integers(-3, 8) | st.integers(-(2**40), 2**40),
)
def test_any_int_as_an_action_is_refused_with_a_reason_or_is_legal(
    config, deal_seed, play_seed, steps, actions, player
):
    """apply() takes any int (and any player index): it is a legal action, or IllegalAction with a
    contract reason code and the state unchanged; never IndexError or another exception. An int that is
    not one of ``game.actions`` is refused, not read as some legal action."""
    game = game_of(config)
    state = new_match(game, deal_seed)
    random_prefix(state, random.Random(play_seed), steps)
    before = observe(state)
    legal = set(state.legal_actions())
    for action in actions:
        trial = state.clone()
        try:
            trial.apply(action, player)
        except IllegalAction as e:
            assert e.code in REASON_CODES
            assert differences(observe(trial), before) == []
        else:
            a = game.actions.get(action)
            assert a is not None, f"apply accepted {action}, not an action of the game"
            if player is not None and a.kind == "coup-fourre":
                continue  # a coup fourré by another player of the window: checked above
            who = state.current_player if player is None else player
            assert canonical(game, who, a) in legal, f"apply accepted {action} ({a}), not a legal action"
