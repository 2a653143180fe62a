"""The invariant checker and the properties can fail: each injected fault is reported.

A checker that never complains would make every property and the soak pass
vacuously; these tests break a sound state (or the engine) on purpose.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import Phase, settings

from mbrules.engine import State
from mbrules.testing import check, differences, load_game, observe, replay_history
from mbrules.vocab import NO_LIMIT
from prop_helpers import random_prefix


def _midgame(players=4, seed=3, steps=60, ruleset="winning-moves", options=()):
    game = load_game(ruleset, players, options)
    state = State.new_match(game, seed, deal_next=False)
    random_prefix(state, random.Random(seed), steps)
    assert not state.hand_over and check(state) == []
    return game, state


def _has(bad, words):
    return any(words in line for line in bad), bad


def test_sound_states_pass_along_whole_hands():
    for players in (2, 3, 4, 6):
        game = load_game("winning-moves", players)
        state = State.new_match(game, players, deal_next=False)
        rng = random.Random(players)
        while not state.hand_over:
            state.apply(rng.choice(state.legal_actions()))
            assert check(state) == []


def test_a_lost_card_breaks_conservation():
    _, st = _midgame()
    st._stock.pop()
    assert _has(check(st), "card conservation")


def test_a_duplicated_card_breaks_conservation():
    _, st = _midgame()
    st._discard.append(st._hands[0][0])
    assert _has(check(st), "card conservation")


def test_a_card_moved_between_places_keeps_conservation_but_not_hand_size():
    _, st = _midgame()
    p = (st.decision.player + 1) % 4
    st._hands[p].append(st._stock.pop())
    assert not any("conservation" in x for x in check(st))
    assert _has(check(st), "holds 7 cards")


def test_a_safety_on_the_battle_pile_is_misplaced():
    game, st = _midgame()
    c = game.card("driving_ace")
    where = next(lst for lst in [st._stock, *st._hands, st._discard] if c in lst)
    where.remove(c)
    st._battle[0].append(c)
    assert _has(check(st), "on the battle pile")


def test_distance_past_the_target_is_caught():
    game, st = _midgame()
    st._miles[0] = st._target + 25
    st._played[0][game.card("d25")] += (st._target + 25) // 25
    bad = check(st)
    assert _has(bad, "past the target")


def test_miles_that_do_not_match_the_cards_are_caught():
    _, st = _midgame()
    st._miles[1] += 25
    assert _has(check(st), "distance played adds up")


def test_a_third_200_is_caught():
    game, st = _midgame()
    d200 = game.card("d200")
    st._played[0][d200] = 3
    st._miles[0] = sum(st._played[0][c] * game.miles[c] for c in range(game.n_cards))
    assert _has(check(st), "the most is 2")


def test_a_hazard_directly_on_a_hazard_is_caught():
    game, st = _midgame()
    st._battle[1] += [game.card("stop"), game.card("accident")]
    assert _has(check(st), "directly on")


def test_a_hazard_on_a_hazard_is_fine_where_the_ruleset_allows_it():
    game, st = _midgame(options=("hazard-on-hazard",))
    assert game.hazard_on_hazard
    st._battle[1] += [game.card("stop"), game.card("accident")]
    assert not any("directly on" in x for x in check(st))


def test_a_wrong_rolling_cache_is_caught():
    _, st = _midgame()
    st._rolling[0] = not st._rolling[0]
    assert _has(check(st), "rolling cache")


def test_a_wrong_limit_cache_is_caught():
    _, st = _midgame()
    st._limit[0] = 50 if st._limit[0] == NO_LIMIT else NO_LIMIT
    assert _has(check(st), "speed limit cache")


def test_a_wrong_protection_cache_is_caught():
    _, st = _midgame()
    st._prot[1] ^= 1 << 5
    assert _has(check(st), "protection cache")


def test_score_lines_that_do_not_add_up_are_caught(monkeypatch):
    _, st = _midgame()
    real = State.score_sheet

    def off_by_one(self):
        sheet = real(self)
        sheet[0]["total"] += 1
        return sheet

    monkeypatch.setattr(State, "score_sheet", off_by_one)
    assert _has(check(st), "add up to")


def test_a_match_total_that_is_not_the_sum_of_the_sheets_is_caught():
    _, st = _midgame()
    st._match_totals[0] += 100
    assert _has(check(st), "match total")


def test_a_stuck_decision_is_caught(monkeypatch):
    _, st = _midgame()
    monkeypatch.setattr(State, "legal_actions", lambda self: [])
    assert _has(check(st), "stuck")


def test_observe_sees_every_difference_that_matters():
    _, st = _midgame()
    a = observe(st)
    c = st.clone()
    assert differences(observe(c), a) == []
    c._discard.append(c._stock.pop())
    assert differences(observe(c), a) != []
    d = st.clone()
    d._rng.random()
    assert differences(observe(d), a) == ["rng: the shuffling RNG states differ"]


def test_replay_history_reproduces_a_match():
    game, st = _midgame(steps=500)
    again = replay_history(game, 3, st.history)
    assert differences(observe(again), observe(st)) == []
    wrong_seed = replay_history  # a different deal seed cannot replay the same history
    with pytest.raises(Exception):
        other = wrong_seed(game, 4, st.history)
        assert differences(observe(other), observe(st)) == []


def _quick(prop):
    """The property as written, without the example database or shrinking (a meta-test expects it to fail)."""
    return settings(database=None, phases=(Phase.generate,), max_examples=50)(prop)


def test_the_clone_property_fails_on_a_shallow_clone(monkeypatch):
    from test_engine_properties import test_clone_is_independent_of_its_original as prop

    real = State.clone

    def shallow(self):
        c = real(self)
        c._hands = self._hands  # shared with the original: the bug the property is there for
        return c

    monkeypatch.setattr(State, "clone", shallow)
    with pytest.raises((AssertionError, TypeError)):  # the property fails (the original corrupted, or a crash)
        _quick(prop)()


def test_the_legality_property_fails_when_legal_actions_omits_one(monkeypatch):
    from test_engine_properties import test_apply_accepts_exactly_the_legal_actions as prop

    real = State.legal_actions

    def one_short(self):
        acts = real(self)
        return acts[:-1] if len(acts) > 1 else acts

    monkeypatch.setattr(State, "legal_actions", one_short)
    with pytest.raises(AssertionError):
        _quick(prop)()


def _finished(players=2, seed=1):
    game = load_game("winning-moves", players)
    state = State.new_match(game, seed, deal_next=False)
    rng = random.Random(seed)
    while not state.hand_over:
        state.apply(rng.choice(state.legal_actions()))
    assert check(state) == []
    return game, state


def test_a_score_line_the_rulings_do_not_give_is_caught(monkeypatch):
    _, st = _finished()
    real = State.score_sheet

    def generous(self):
        sheet = real(self)
        sheet[0]["shutout"] += 500
        sheet[0]["total"] += 500
        return sheet

    monkeypatch.setattr(State, "score_sheet", generous)
    assert _has(check(st), "shutout scored")


def test_a_wrong_match_winner_is_caught():
    _, st = _finished()
    st._match_totals = [5000, 100]
    st._hand_sheets[-1][0]["total"] = 5000
    assert _has(check(st), "the match rules give")


# -- transitions -------------------------------------------------------------------


def _first_violation_of_transitions(game, seeds=range(30), predicate=lambda st, a: True):
    from mbrules.testing import check_transition

    from mbrules.engine import State

    for seed in seeds:
        st = State.new_match(game, seed, deal_next=False)  # rests at the hand's end
        rng = random.Random(seed)
        while not st.hand_over:
            before = st.clone()
            a = rng.choice(st.legal_actions())
            st.apply(a)
            bad = check_transition(before, a, st)
            if bad:
                return bad
    return []


def test_sound_play_passes_the_transition_checks():
    for players in (2, 3, 4, 6):
        assert (
            _first_violation_of_transitions(load_game("wikipedia", players, ("coup-fourre-any-player",)), range(5))
            == []
        )


def test_a_turn_that_skips_a_player_is_caught(monkeypatch):
    real = State._end_turn

    def skip(self, p):
        real(self, (p + 1) % self.game.players if self.game.players > 2 else p)

    monkeypatch.setattr(State, "_end_turn", skip)
    assert _has(_first_violation_of_transitions(load_game("winning-moves", 3)), "expected p")


def test_a_safety_without_its_extra_turn_is_caught(monkeypatch):
    real = State._start_turn

    def no_extra(self, p):
        last = self.history[-1] if self.history else None
        if last and last[0] == p and last[1].op == 1 and self.game.kind[last[1].card_index] == 3:  # a safety
            p = (p + 1) % self.game.players
        real(self, p)

    monkeypatch.setattr(State, "_start_turn", no_extra)
    assert _has(_first_violation_of_transitions(load_game("winning-moves", 4), range(80)), "another turn")


def test_a_coup_fourre_that_leaves_the_hazard_is_caught(monkeypatch):
    real = State._coup_fourre

    def keep_hazard(self, action, q):
        side, hz = self._cf_side, self._cf_hazard  # engine internals: this is the injected bug
        real(self, action, q)
        from mbrules.vocab import BATTLE

        (self._battle if self.game.pile[hz] == BATTLE else self._speed)[side].append(hz)
        self._discard.remove(hz)

    monkeypatch.setattr(State, "_coup_fourre", keep_hazard)
    game = load_game("winning-moves", 2)
    from mbrules.testing import check_transition

    found = []
    for seed in range(300):
        st = State.new_match(game, seed, deal_next=False)
        rng = random.Random(seed)
        while not st.hand_over and not found:
            before = st.clone()
            acts = st.legal_actions()
            a = next((x for x in acts if x.op == 3), rng.choice(acts))  # always call a coup fourré
            st.apply(a)
            found = check_transition(before, a, st)
        if found:
            break
    assert _has(found, "not taken to the discard pile")


def test_a_missing_coup_fourre_window_is_caught(monkeypatch):
    monkeypatch.setattr(State, "_open_coup_fourre", lambda self, attacker, hazard, ts: self._end_turn(attacker))
    assert _has(_first_violation_of_transitions(load_game("winning-moves", 2), range(200)), "no coup fourré window")


@pytest.mark.parametrize(
    ("ruleset", "options", "players", "seed"),
    [
        # p2's Stop lands on A, already out of gas: p1's Roll may not be laid while Out of Gas is in force
        ("asmodee-2014", ("stacked-hazards",), 2, 180000551),
        # p2 calls a coup fourré without its draw (a card short), then mulligans: drawn back to the hand size
        ("asmodee-2014", ("trip-1000", "cf-single-draw"), 3, 93000286),
    ],
)
def test_the_checker_accepts_a_sound_hand_of_stacked_hazards_or_a_mulligan_after_a_short_coup_fourre(
    ruleset, options, players, seed
):
    """Two hands the soak once flagged although the engine kept its rules: with stacked hazards a Roll comes
    last, so a Stop on a car already stopped opens no fast-play window for a Roll; a mulligan draws back to
    the hand size, so a coup fourré without its replacement draw leaves no card short after it."""
    from mbrules.matches.loop import play_match
    from mbrules.testing import Checker

    checker = Checker(dealt=True)
    play_match(load_game(ruleset, players, options), seed, ["random"], max_hands=1, observers=[checker])
    assert checker.problems == []


def test_the_checker_copies_the_state_once_an_action_and_finds_what_fresh_copies_find(monkeypatch):
    """Checker keeps the copy taken after an action as the next action's before (one snapshot an action; it took
    two): over a hand it reports what a checker taking a fresh copy before each action reports, on the sound
    engine (nothing) and with a milestones line off by 50 (an engine mutant: the same problems at the same
    actions)."""
    from mbrules.engine import scoring
    from mbrules.testing import Checker

    snaps = 0
    real_snapshot = State.snapshot

    def counted(self):
        nonlocal snaps
        snaps += 1
        return real_snapshot(self)

    class FreshCopies(Checker):
        def before_action(self, state, player, action):
            self._kept.forget()  # never kept: a new copy before each action
            super().before_action(state, player, action)

    def play(checker_cls) -> tuple[list[str], int, int]:
        nonlocal snaps
        st = load_game("kids-115", 2).new_match(0)
        ck = checker_cls(dealt=True, totals=True)
        st.add_observer(ck)
        rng = random.Random(0)
        snaps = actions = 0
        while not st.hand_over:
            st.apply(rng.choice(st.legal_actions()))
            actions += 1
        return ck.problems, snaps, actions

    monkeypatch.setattr(State, "snapshot", counted)
    kept, kept_snaps, n = play(Checker)
    fresh, fresh_snaps, n2 = play(FreshCopies)
    assert kept == fresh == [] and n == n2 > 100
    assert kept_snaps == n + 1 and fresh_snaps == 2 * n
    real_pay = scoring.pay_lines
    milestones = load_game("kids-115", 2).score_line_names.index("milestones")

    def off_by_50(st, done):
        rows = real_pay(st, done)
        for row in rows:
            if row[milestones]:
                row[milestones] += 50
                row[-1] += 50
        return rows

    monkeypatch.setattr(scoring, "pay_lines", off_by_50)
    kept, _, _ = play(Checker)
    fresh, _, _ = play(FreshCopies)
    assert kept == fresh and any("milestones" in p for p in kept)


def test_the_checkers_tables_of_each_game_are_a_bounded_memo():
    """check() keeps a few tables a game it checks (the score lines, the distance cards); each entry holds its
    game alive, so a soak checking thousands of games must not keep them all: the memo stays bounded and a
    game checked again after the others still gets its own tables."""
    from mbrules.testing import checker

    games = [load_game("kids-115", 2) for _ in range(checker._TABLES_MAX + 10)]
    for g in games:
        assert check(g.new_match(1)) == []
    assert 0 < len(checker._TABLES) <= checker._TABLES_MAX
    assert checker._tables(games[0]).game is games[0]
