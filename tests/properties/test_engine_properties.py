"""Properties of the engine over every bundled ruleset, option and player count.

Random legal play is driven by a hypothesis-drawn seed for the choice RNG, so a
failure shrinks to a configuration and two seeds that replay it exactly.
"""

from __future__ import annotations

import random

import pytest

from hypothesis import given, note, settings
from hypothesis import strategies as st

from mbrules.engine import IllegalAction, State
from mbrules.engine.state import _STATE_SLOTS  # State's slots, pure (__slots__) or compiled (__mypyc_attrs__)
from mbrules.testing import View, check, check_transition, differences, observe, replay_history
from mbrules.vocab import COUP_FOURRE, DISCARD, FAST_PLAY, MULLIGAN, OWN, PLAY, REASON_CODES
from prop_helpers import canonical, configurations, game_of, new_match, random_prefix, seeds, with_examples

# each property's explicit examples (prop_helpers.with_examples): the cases found once, every option
AT_START = with_examples(lambda config, deal, play, steps: {"config": config, "deal_seed": deal, "play_seed": play})
AFTER = with_examples(
    lambda config, deal, play, steps: {"config": config, "deal_seed": deal, "play_seed": play, "steps": steps}
)


def _candidates(game):
    """Every action a caller could try: the game's one table of actions (``game.actions``: every kind of
    action the engine has, on every card of the deck, so a kind added to the engine is tried at once), a
    play naming each side and one side too far (the further sides are refused the same way)."""
    return [a for a in game.actions.values() if a.side_index <= game.sides]


def test_the_candidates_try_every_kind_of_action_on_every_card():
    """The properties below try every operation (a fast play and a mulligan included, refused where the
    ruleset has none), each card, each side: a kind they never try is a kind they never check (issue 42
    item 14: the candidates had no fast play, and a fast-play window failed the legality property)."""
    from mbrules.vocab import Op

    game = game_of(("asmodee-2014", (), 4))
    acts = _candidates(game)
    assert {Op.of(a.op) for a in acts} == {str(o) for o in Op}
    for op in (PLAY, DISCARD, COUP_FOURRE, FAST_PLAY, MULLIGAN):
        assert {a.card_index for a in acts if a.op == op} == set(range(game.n_cards))
    assert {a.side_index for a in acts if a.op == PLAY} == {OWN, *range(game.sides + 1)}
    assert game.draw_discard_action in acts


class _Trials:
    """Clones of ``state`` to try actions on, for the properties that apply every candidate action.

    A refused action must leave the state exactly as it was, so a run of refusals shares one clone, and
    that clone is compared with the state once, when the run ends (an action is accepted, or
    :meth:`settle`), not after each refusal: cloning and comparing the state were 95% of these properties'
    CPU (issue 46 point 7). A refusal that changed something is still caught and named: the run is tried
    again one refusal at a time, each on a fresh clone (:meth:`_blame`). An accepted action gets the clone
    its run of refusals had left as the state was (checked first)."""

    def __init__(self, state: State, before: dict) -> None:
        self.state, self.before = state, before
        self.trial: State | None = None
        self.refused: list[tuple[object, int | None]] = []  # the run of refusals tried on ``trial``

    def apply(self, action, player: int | None = None) -> State:
        """``action`` applied for ``player`` on a clone of the state: that clone, if accepted; else raises the
        refusal (IllegalAction)."""
        if self.trial is None:
            self.trial = self.state.clone()
        try:
            self.trial.apply(action, player)
        except IllegalAction:
            self.refused.append((action, player))
            raise
        trial, self.trial = self.trial, None
        if self.refused:  # the clone had refused actions before this one: they must have changed nothing
            again = self.state.clone()
            for a, q in self.refused:
                try:
                    again.apply(a, q)
                except IllegalAction:
                    pass
            self._compare(again)
        return trial

    def settle(self) -> None:
        """Every refusal tried since the last accepted action left the state as it was."""
        if self.trial is not None:
            self._compare(self.trial)
            self.trial = None

    def _compare(self, trial: State) -> None:
        if differences(observe(trial), self.before):
            self._blame()
        self.refused = []

    def _blame(self) -> None:
        game = self.state.game
        for a, q in self.refused:
            one = self.state.clone()
            try:
                one.apply(a, q)
            except IllegalAction as e:
                diff = differences(observe(one), self.before)
                assert diff == [], f"refused {game.describe(a)} ({e.code}) by {q} changed the state: {diff}"
        raise AssertionError(f"refusing {len(self.refused)} actions one after another changed the state")


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


# the generated examples of the every-action property: a third of the profile's (make test: 50 of 150; thorough
# 333). Its explicit examples (AT_START: the cases found and OPTION_COVER, every option) all run; the soak slices
# (tests/properties/test_soak_slice.py) play every configuration with the same two checks after every action
# on a covering set of hands. Issue 46 point 7: 150 generated were ~20 of make test's CPU-s.
EVERY_ACTION_EXAMPLES = max(1, settings.default.max_examples // 3)


@pytest.mark.slow  # 5 to 10 s of CPU: make test-fast leaves it out
@settings(max_examples=EVERY_ACTION_EXAMPLES)
@given(config=configurations(), deal_seed=seeds, play_seed=seeds)
@AT_START
@pytest.mark.long
def test_invariants_hold_after_every_action(config, deal_seed, play_seed):
    """check_transition after every action and check after every action and deal, for two hands. One copy of
    the state (a View) an action: the copy after an action is what both checks read and the next action's
    ``before`` (the engine's queries change nothing; api_test's watcher does the same), where a clone and
    three copies were taken (issue 46 point 7: the same checks, about half the CPU)."""
    game = game_of(config)
    state = new_match(game, deal_seed)
    rng = random.Random(play_seed)
    now = View(state)
    assert check(now) == [], "invariants fail right after the deal"
    hands = 0
    # a hang guard, not a length limit: random mulligans with reshuffles (playaural + mulligan, 4 players,
    # OPTION_COVER's 7th example) play two hands in 5,261 steps
    for step in range(8000):
        if state.match_over or hands >= 2:
            break
        if state.hand_over:
            state.next_hand()
            hands += 1
            now = View(state)
        else:
            action = rng.choice(state.legal_actions())
            before = now
            state.apply(action)
            note(f"step {step}: {game.describe(action)}")
            now = View(state)
            bad = check_transition(before, action, now)
            assert bad == [], f"step {step}: {bad}"
        bad = check(now)
        assert bad == [], f"after step {step}: {bad}"
    else:
        raise AssertionError("two hands did not end within 8000 steps")


@given(config=configurations(), deal_seed=seeds, play_seed=seeds, steps=st.integers(0, 300))
@AFTER
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
    for name in _STATE_SLOTS:
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
@AFTER
def test_replaying_history_from_the_same_seed_gives_an_identical_state(config, deal_seed, play_seed, steps):
    game = game_of(config)
    state = new_match(game, deal_seed)
    random_prefix(state, random.Random(play_seed), steps)
    again = replay_history(game, deal_seed, state.history)
    assert differences(observe(again), observe(state)) == []


@given(config=configurations(), deal_seed=seeds, play_seed=seeds, steps=st.integers(0, 250))
@AFTER
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
    trials = _Trials(state, before)  # a refusal leaves the state as it was: checked over each run of refusals
    for action in _candidates(game):
        try:
            trial = trials.apply(action)
        except IllegalAction as e:
            assert e.code in REASON_CODES, f"{game.describe(action)}: unknown reason code {e.code!r}"
            assert e.message, f"{game.describe(action)}: refused without a sentence"
        else:
            accepted.append(action)
            bad = check(trial) + check_transition(state, action, trial)
            assert bad == [], f"after {game.describe(action)}: {bad}"
    trials.settle()
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
@AFTER
def test_other_players_are_refused_except_a_coup_fourre_in_its_window(config, deal_seed, play_seed, steps):
    """apply(action, player=q) for a player other than the one deciding: refused with not-your-turn
    (or hand-over), except a coup fourré (or a fast play) by a player the open window lists (contract:
    reason codes)."""
    game = game_of(config)
    state = new_match(game, deal_seed)
    random_prefix(state, random.Random(play_seed), steps)
    decider = state.decision.player
    before = observe(state)
    trials = _Trials(state, before)  # a refusal leaves the state as it was: checked over each run of refusals
    for q in range(game.players):
        if q == decider:
            continue
        for action in _candidates(game):
            try:
                trial = trials.apply(action, q)
            except IllegalAction as e:
                if action.kind in ("coup-fourre", "fast-play"):
                    continue  # no-coup-fourre (no-fast-play) / not-in-hand / a card's check: judged by the window
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
                window = {"coup-fourre": "coup_fourre", "fast-play": "fast_play"}.get(action.kind)
                assert state.decision.kind == window, (
                    f"p{q + 1} out of turn: {game.describe(action)} accepted at {state.decision}"
                )
                assert q in state.snapshot().window[3]
                assert check(trial) == []
                assert check_transition(state, action, trial, q) == []
    trials.settle()


@given(config=configurations(), deal_seed=seeds, play_seed=seeds, steps=st.integers(1, 700))
@AFTER
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
@with_examples(  # every action of the game's table, by whoever decides (even seeds) or by p2 (odd)
    lambda config, deal, play, steps: {
        "config": config,
        "deal_seed": deal,
        "play_seed": play,
        "steps": steps,
        "actions": [int(a) for a in _candidates(game_of(config))],
        "player": None if deal % 2 == 0 else 1,
    }
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
    trials = _Trials(state, before)  # a refusal leaves the state as it was: checked over each run of refusals
    for action in actions:
        try:
            trials.apply(action, player)
        except IllegalAction as e:
            assert e.code in REASON_CODES
        else:
            a = game.actions.get(action)
            assert a is not None, f"apply accepted {action}, not an action of the game"
            if player is not None and a.kind in ("coup-fourre", "fast-play"):
                continue  # a coup fourré (fast play) by another player of the window: checked above
            who = state.current_player if player is None else player
            assert canonical(game, who, a) in legal, f"apply accepted {action} ({a}), not a legal action"
    trials.settle()
