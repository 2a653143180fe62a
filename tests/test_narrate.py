"""The transition State.apply returns, and the one narrator (mbrules.narrate) built from it.

Every bundled ruleset, alone and with each bundled option, at every player count it allows, is
played for a hand of random legal actions; each action's transition is checked against the
state before and after it, and its sentence against the transition (the CLI's full narration
and the terminal seat's public one).
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import NamedTuple

import pytest

import mbrules
from mbrules.engine import Game, State, Transition
from mbrules.engine.observation import SideView, _side_views
from mbrules.narrate import Narrator
from mbrules.ruleset import RulesetError, bundled_option_ids, bundled_ruleset_ids, load_ruleset
from mbrules.vocab import (
    COUP_FOURRE,
    DECLINE,
    DISCARD,
    DISTANCE,
    DRAW,
    EXTEND,
    FAST_PLAY,
    HAZARD,
    KARMA,
    MULLIGAN,
    PLAY,
    SAFETY,
    STOP,
    DecisionKind,
)

ROOT = Path(__file__).resolve().parents[1]


# make test-fast narrates every edition alone at one of its player counts and every option over winning-moves at
# one count (the k-th option its k-th count: an option's words are the same over any edition). The three factors
# are covered pairwise in make test (issue 46 point 7: the whole product, 2,041 slow tables, cost 182 CPU-seconds,
# the pairs 45): every edition alone and every option over winning-moves at each count, and every other (edition,
# option) pair at one count, the next edition's the next count (so each option meets each count over the
# editions); a fault of one edition's tables, one option's or one player count's layout is still met
FAST_WITH_OPTIONS = ("winning-moves",)


def configurations():
    # make test-fast (tests/tiers.py's tier): the (edition, option) pairs off winning-moves are all slow, so they
    # are not resolved to be deselected (about 670 loads, 3 CPU-s of the fast set's collection)
    fast_tier = os.environ.get("MBRULES_TEST_TIER") == "fast"
    for e, rid in enumerate(bundled_ruleset_ids()):
        for k, opts in enumerate([()] + [(o,) for o in bundled_option_ids()]):
            if fast_tier and opts and rid not in FAST_WITH_OPTIONS:
                continue
            try:
                rs = load_ruleset(rid, list(opts))
            except RulesetError as exc:  # refused with a sentence: tests/test_option_edition_pairs.py lists them
                assert exc.refusal, exc
                continue
            counts = sorted(int(c) for c in rs.player_counts)
            if opts and rid not in FAST_WITH_OPTIONS:
                counts = [counts[(e + k) % len(counts)]]
            for i, n in enumerate(counts):
                # the fast set: each edition alone at one count (the e-th edition its e-th), each option over
                # winning-moves at one count (the k-th option its k-th); the other counts and the pairs, slow
                fast = i == (e if not opts else k) % len(counts) and (not opts or rid in FAST_WITH_OPTIONS)
                marks = [] if fast else [pytest.mark.slow]
                yield pytest.param(rs, n, id=f"{rid}{''.join('+' + o for o in opts)}-{n}p", marks=marks)


class Position(NamedTuple):
    """The part of ``State.snapshot()`` a transition is checked against, read the way the snapshot reads it.

    Taken after every action of 731 cases: the whole snapshot also builds the score sheet, reads the random
    generator's state and copies every hand's score lines, which no check here reads (they were 45% of the
    file's CPU, issue 46 point 7). Measured again once the snapshot kept its RNG copy and its last sheet's rows
    (round 11, /tmp/s11/narr.py, 2,149 actions of one-hand play, CPU per action, back to back): this position
    9.4 us, the snapshot 45-49 us before and 29-31 us after, still three times this; so the position stays.
    ``test_the_position_is_the_snapshots`` shows the fields are the snapshot's."""

    hand_no: int
    hands: tuple[tuple[int, ...], ...]
    draw_pile: tuple[int, ...]  # top first
    discard: tuple[int, ...]
    sides: tuple[SideView, ...]
    target: int
    reshuffles: int
    window: tuple[int, int] | None  # an open window's (hazard, side hit), as the snapshot's first two
    queued_turns: tuple[tuple[int, ...], int]


_WINDOWS = (DecisionKind.COUP_FOURRE, DecisionKind.FAST_PLAY)


def position(st: State) -> Position:
    return Position(
        st._hand_no,
        tuple(tuple(h) for h in st._hands),
        tuple(reversed(st._stock)),
        tuple(st._discard),
        _side_views(st),
        st._target,
        st._reshuffles,
        (st._cf_hazard, st._cf_side) if st.decision.kind in _WINDOWS else None,
        (tuple(st._queued), st._resume),
    )


def check_transition(game: Game, before: Position, after: Position, t: Transition, st: State) -> None:
    """``t`` says what happened between the positions ``before`` and ``after`` (and ``st`` now)."""
    a = t.action
    assert isinstance(t, Transition) and t.hand_no == before.hand_no
    try:
        t.player = 0  # frozen (pytest.raises here cost 5% of the file)
    except AttributeError:
        pass
    else:
        raise AssertionError("a Transition's field was written")
    ps = game.side_of[t.player]
    assert t.miles == after.sides[ps].miles and t.target == after.target
    assert t.hand_over == st.hand_over and t.match_over == st.match_over
    if t.hand_over:
        assert t.next_player == -1 and t.next_decision in (DecisionKind.HAND_OVER, DecisionKind.MATCH_OVER)
    else:
        assert (t.next_player, t.next_decision) == (st.decision.player, st.decision.kind)
    if t.from_discard:  # turn.draw_from_discard: the discard pile's top went to the hand
        assert t.drawn == before.discard[-1]
        if t.reshuffled:  # refill-empty-hand: the hand refilled from the rest of the discard pile, reshuffled
            assert before.reshuffles + 1 == after.reshuffles and not after.discard and t.drawn_more
        else:
            assert list(after.discard) == list(before.discard[:-1])
        assert t.drawn in after.hands[t.player] and not t.swept
    elif t.reshuffled:  # turn.reshuffles: the discard pile became the draw pile for a draw of this action
        assert before.reshuffles + 1 == after.reshuffles and not after.discard and not t.swept
        assert t.drawn >= 0 or t.drawn_more or a.op == COUP_FOURRE
    else:
        drew = len(after.draw_pile) < len(before.draw_pile)
        # the attacker's draw, taken at once, not recorded
        owed = game.play_then_draw and a.op == COUP_FOURRE and not game.coup_fourre_bonus_turn_queued
        assert (t.drawn >= 0 or bool(t.drawn_more)) == drew or owed
        if t.drawn >= 0 and not t.drawn_more and not game.pass_over_held and not owed:
            assert t.drawn == before.draw_pile[0]  # the top card (no card passed over)
        if t.drawn >= 0:
            assert t.drawn in after.hands[t.player]
        new_discards = list(after.discard[len(before.discard) :])
        if a.op in (DISCARD, MULLIGAN):
            assert new_discards[0] == a.card_index
            new_discards = new_discards[1:]
        assert list(t.swept) == new_discards
    if a.op in (COUP_FOURRE, DECLINE, FAST_PLAY):
        assert t.window_hazard == before.window[0]
    else:
        assert t.window_hazard == -1
    if a.op == PLAY:
        k = game.kind[a.card_index]
        if k == HAZARD:
            assert t.side in game.hazard_sides[ps]  # an opponent; one's own side with option solo
            assert after.sides[t.side] != before.sides[t.side]  # the hazard landed on the side attacked
        else:
            assert t.side == ps
        # exactly on the target; past it with option overshoot; a safety's miles with option safety-distance
        reached = t.miles >= before.target and before.sides[ps].miles < before.target
        assert t.trip_completed == (reached and (k == DISTANCE or (k == SAFETY and game.safety_distance > 0)))
        # a safety's extra turn; with safety-extra-turn-while-deck-lasts only while the draw pile lasts
        # (a reshuffle the ruleset still allows, turn.reshuffles as in asmodee-2014, makes the discard pile the
        # next draw pile: the deck lasts, as the engine judges it, effects.py's _can_draw; the draw pile alone
        # missed that case)
        can_reshuffle = before.reshuffles < game.max_reshuffles and bool(before.discard)
        lasts = bool(before.draw_pile) or can_reshuffle or not game.safety_extra_turn_needs_draw_pile
        assert t.extra_turn == (
            k == SAFETY and game.safety_extra_turn and lasts and not t.hand_over and not t.trip_completed
        )
    elif a.op == COUP_FOURRE:
        reached = t.miles >= before.target and before.sides[ps].miles < before.target
        assert t.side == ps and t.trip_completed == (reached and game.safety_distance > 0)
        # queued-coup-fourre-turn: the caller's turn is queued after the turn in progress, not taken at once,
        # and not at all when the turn in progress is the caller's own (PlayAural _action_dirty_trick)
        done = t.hand_over or t.trip_completed
        assert t.extra_turn == (game.coup_fourre_extra_turn and not game.coup_fourre_bonus_turn_queued and not done)
        waits = t.player in after.queued_turns[0]
        assert t.queued_turn == (game.coup_fourre_extra_turn and game.coup_fourre_bonus_turn_queued and waits)
        if t.queued_turn:
            assert after.queued_turns[1] == t.player  # play goes on from the caller's left
        if before.window[1] == ps and not t.reshuffled:
            assert before.window[0] in t.swept  # the hazard answered goes to the discard pile
        elif before.window[1] == ps:  # ... which became the draw pile for the caller's draw (asmodee-2014)
            assert not after.discard and not t.swept
    elif a.op == FAST_PLAY:  # a remedy out of turn lands on the actor's own side
        assert t.side == ps and not t.extra_turn and not t.trip_completed
        assert after.sides[ps] != before.sides[ps]
    else:
        assert t.side == -1 and not t.extra_turn and not t.trip_completed
    if a.op == EXTEND:
        assert t.target == game.extension_to


def check_sentences(game: Game, full: Narrator, public: Narrator, t: Transition) -> None:
    a = t.action
    line, heard = full.action(t), public.action(t)
    if a.op == DRAW:
        # the card drawn is hidden: never told; a reshuffle and a card taken from the discard pile are public
        assert heard == line
        if t.from_discard:
            assert line.startswith(full.who(t.player) + " takes " + game.names[t.drawn]) or t.reshuffled
        elif t.reshuffled:
            assert "shuffled into a new" in line
        elif not t.drawn_more:
            assert line is None
        if line is not None and t.drawn >= 0 and not t.from_discard:
            assert game.names[t.drawn] not in line
        return
    if a.op == MULLIGAN:
        assert heard == line and line.startswith(full.who(t.player) + " throws " + game.names[a.card_index])
        return
    if a.op == DECLINE:
        assert heard is None  # telling it would tell the table that hand holds the safety
    else:
        assert heard == line
    assert line.startswith(full.who(t.player) + " ")
    unit = full.unit
    if a.op == PLAY:
        k = game.kind[a.card_index]
        assert game.names[a.card_index] in line
        if k == DISTANCE:
            assert f"at {t.miles} {unit}" in line
            assert ("trip completed" in line) == t.trip_completed
        elif k == HAZARD:
            if t.neutralised:  # option karma: the hazard lands nowhere
                assert f"on side {game.side_names[t.side]}, " in line and "neutralised" in line
            else:
                assert f"on side {game.side_names[t.side]}'s " in line
            assert ("shunned" in line) == (len(t.karma_lost) == 1)
        elif k == KARMA:
            assert t.karma_regained and "karma back" in line
        elif k == SAFETY:
            assert ("plays again" in line) == t.extra_turn
            assert ("trip completed" in line) == t.trip_completed
    elif a.op == COUP_FOURRE:
        assert "COUP FOURRÉ" in line and game.names[t.window_hazard] in line
        assert ("plays next" in line) == t.extra_turn
        assert ("plays after the turn in progress" in line) == t.queued_turn
        assert ("queued" in line) == t.queued_turn
        assert ("trip completed" in line) == t.trip_completed
    elif a.op == FAST_PLAY:
        assert "fast play" in line and game.names[t.window_hazard] in line and game.names[a.card_index] in line
    elif a.op == DECLINE:
        assert game.names[t.window_hazard] in line
    elif a.op == EXTEND:
        assert f"{t.target} {unit}" in line
    elif a.op == STOP:
        assert "does not call the extension" in line
    if unit != "miles":
        assert "miles" not in line


def pick(rng: random.Random, legal: list):
    """A random legal action, leaning to plays, coup fourré calls and extensions so hands reach them."""
    plays = [a for a in legal if a.op in (PLAY, COUP_FOURRE, EXTEND)]
    return rng.choice(plays if plays and rng.random() < 0.7 else legal)


def play_checked(game: Game, seeds, label: str) -> set[int]:
    """Play a hand from each seed, checking every transition and its sentences; the ops seen."""
    full, public = Narrator(game), Narrator(game, public=True)
    rng = random.Random(label)
    seen = set()
    for seed in seeds:
        st = State.new_match(game, seed, deal_next=False)
        after = position(st)
        for _ in range(5000):
            if st.hand_over:
                break
            before = after  # nothing moves the state between one action's end and the next one's start
            t = st.apply(pick(rng, st.legal_actions()))
            after = position(st)
            check_transition(game, before, after, t, st)
            check_sentences(game, full, public, t)
            seen.add(t.action.op)
        assert st.hand_over
        assert full.hand_end(st).endswith(".")
    return seen


@pytest.mark.parametrize("ruleset,players", list(configurations()))
def test_every_bundled_ruleset_and_option_narrates_what_its_transitions_say(ruleset, players):
    """Two hands a table; an (edition, option) pair off winning-moves, one (issue 46 point 7: ~670 of the 731
    tables, the option's words met over winning-moves at every count with two hands, the edition's alone)."""
    game = Game(ruleset, players)
    off_wm = ruleset.applied_options and ruleset.id not in FAST_WITH_OPTIONS
    seen = play_checked(game, range(1 if off_wm else 2), f"{ruleset.id}-{players}-{ruleset.applied_options}")
    assert {DRAW, PLAY} <= seen


def test_the_checks_reach_coups_fourres_declines_and_both_extension_answers():
    game = Game(load_ruleset("winning-moves", ["extension-1200"]), 4)
    seen = play_checked(game, range(12), "every-op")
    assert {DRAW, PLAY, DISCARD, COUP_FOURRE, DECLINE, EXTEND, STOP} <= seen


def test_observers_get_the_transition_apply_returns():
    game = mbrules.load_game("winning-moves", players=4)

    class Keep(mbrules.Observer):
        def __init__(self):
            self.got = []

        def transition(self, state, t):
            self.got.append(t)

    st = game.new_match(seed=5)
    keep = Keep()
    st.add_observer(keep)
    returned = [st.apply(st.legal_actions()[0]) for _ in range(60)]
    assert returned == keep.got and all(isinstance(t, Transition) for t in returned)


def _first_coup_fourre(game: Game):
    for seed in range(400):
        st = State.new_match(game, seed, deal_next=False)
        while not st.hand_over:
            legal = st.legal_actions()
            calls = [a for a in legal if a.op == COUP_FOURRE]
            t = st.apply(calls[0] if calls else legal[seed % len(legal)] if legal[0].op != DRAW else legal[0])
            if t.action.op == COUP_FOURRE:
                return st, t
    raise AssertionError("no coup fourré in 400 hands")


def test_a_coup_fourre_says_plays_next_only_where_the_rules_give_the_extra_turn(tmp_path):
    rules = tmp_path / "no-cf-turn.yaml"
    rules.write_text(
        "id: no-cf-turn\nname: No coup fourre turn\ndescription: a coup fourre gives no turn\nsource: test\n"
        "extends: winning-moves\n"
        "coup_fourre:\n  extra_turn: {value: false, decided: a test of the narrative}\n",
        encoding="utf-8",
    )
    plain = mbrules.load_game(str(rules), players=4)
    st, t = _first_coup_fourre(plain)
    line = Narrator(plain).action(t)
    assert not t.extra_turn and "plays next" not in line and line.endswith(".")
    assert t.window_hazard in t.swept or plain.side_of[t.player] != t.side
    usual = mbrules.load_game("winning-moves", players=4)
    st, t = _first_coup_fourre(usual)
    assert t.extra_turn and Narrator(usual).action(t).endswith("and plays next.")
    assert t.next_player == t.player or st.hand_over


def test_a_km_ruleset_is_narrated_in_km_by_the_cli_and_the_terminal_seat():
    game = mbrules.load_game(str(ROOT / "examples" / "stap-op.yaml"), players=2)
    assert game.ruleset.display.distance_unit.value == "km"
    full, public = Narrator(game), Narrator(game, public=True)
    st = State.new_match(game, 1, deal_next=False)
    told = []
    while not st.hand_over:
        legal = st.legal_actions()
        obs = st.observation(st.current_player)
        moves = [public.move(obs, a) for a in legal]
        assert not any("miles" in m for m in moves)
        t = st.apply(legal[-1])
        told += [s for s in (full.action(t), public.action(t)) if s]
    distance = [s for s in told if " km." in s or " km.  trip" in s]
    assert distance and not any("miles" in s for s in told)
    assert "km" in full.hand_end(st) or "no side completed" in full.hand_end(st)


def test_step_plays_the_same_game_as_apply_without_the_record():
    """The hot loops use State.step (no Transition built): the same histories and positions."""
    for rid, players in (("winning-moves", 4), ("parker-1971", 2), ("kids-115", 3)):
        game = mbrules.load_game(rid, players=players)
        a, b = game.new_match(seed=11), game.new_match(seed=11)
        rng_a, rng_b = random.Random(3), random.Random(3)
        for _ in range(3000):
            if a.is_terminal():
                break
            assert b.step(pick(rng_b, b.legal_actions())) is None
            assert isinstance(a.apply(pick(rng_a, a.legal_actions())), Transition)
            assert a.snapshot() == b.snapshot()
        assert a.history == b.history


@pytest.mark.parametrize(
    "rid,options,players",
    [
        # coup fourré and fast-play windows, a queued coup fourré turn, the discard pile reshuffled
        ("winning-moves", ["fast-play-remedy", "queued-coup-fourre-turn", "reshuffle-discard"], 4),
        ("asmodee-2014", [], 2),  # turn.reshuffles: the discard pile becomes the draw pile
    ],
)
def test_the_position_is_the_snapshots(rid, options, players):
    """The checks above read ``position(st)``, not ``st.snapshot()``: the same values, field by field."""
    game = Game(load_ruleset(rid, options), players)
    rng = random.Random(rid)
    kinds, windows, queued, reshuffled = set(), 0, 0, 0
    for seed in range(3):
        st = State.new_match(game, seed, deal_next=False)
        while True:
            pos, snap = position(st), st.snapshot()
            for field in ("hand_no", "hands", "draw_pile", "discard", "sides", "target", "reshuffles"):
                assert getattr(pos, field) == getattr(snap, field), field
            assert pos.window == (snap.window[:2] if snap.window is not None else None)
            assert pos.queued_turns == snap.queued_turns
            windows += pos.window is not None
            queued += bool(pos.queued_turns[0])
            reshuffled += pos.reshuffles > 0
            if st.hand_over:
                break
            kinds.add(st.apply(pick(rng, st.legal_actions())).action.op)
    assert {DRAW, PLAY} <= kinds and windows and reshuffled
    assert queued or "queued-coup-fourre-turn" not in options
