"""The ruleset's turn rules (issue 35: reshuffle-discard, draw-from-discard, mulligan, refill-empty-hand,
no-duplicate-draws, play-then-draw) through the public API: every rule of api_test holds on each option at
every table size, the same seed plays the same match, and the heuristic bot uses the new choices as a
player would (the discard pile's top when it needs it, a mulligan of a hopeless hand)."""

from __future__ import annotations

import random

import pytest

import mbrules
from mbrules.bots.base import make_bot
from mbrules.engine import State
from mbrules.testing.api import api_test
from api_sweeps import sweep_api_test

TURN_OPTIONS = [
    "reshuffle-discard",
    "draw-from-discard",
    "discard-draw-must-play",
    "mulligan",
    "refill-empty-hand",
    "no-duplicate-draws",
    "play-then-draw",
]


# the fast set's table of each option (the counts spread over the options; mulligan at 4: at 2 its whole match
# cost 14 CPU-seconds in one measure, at 4 about 4.5); the slow set plays the other counts, 6 players among them.
# mulligan and draw-from-discard: none here, the fast set's api_test of them was
# test_fast_play_and_the_turn_rules_play_together's (the two with fast-play-remedy, at 2 players; since round 15
# test_new_editions' asmodee-2014 at 2 players, which plays all three: see that test); issue 46
# point 7: their tables here were 5.8 of this test's 15 fast CPU-s. no-duplicate-draws at 2: 0.6 CPU-s, at 3 2.0.
# Round 13: the others at the cheapest counts that still meet 2, 3 and 4 players (api_test at the fast set's period,
# seed 0, CPU-s: reshuffle-discard 1.04 at 2, 1.27 at 3; discard-draw-must-play 2.06 at 3, 1.02 at 2;
# refill-empty-hand 1.18 at 4, 0.47 at 2; no-duplicate-draws 0.75 at 2, 0.88 at 4): 5.8 -> 4.4 CPU-s
# Round 15 (one owner a table's mechanism): reshuffle-discard and discard-draw-must-play have no table here in the
# fast set either. reshuffle-discard's fast api_test is test_new_rules' playaural profile at 2 players (PlayAural
# reshuffles) and tests/rl/test_turn_rules_observation's control (winning-moves with the option at 2 players); three
# reshuffle mutants (face-up counts kept, the reshuffle not counted, the top card left behind) were caught by the
# table at 3 players and by both of those. discard-draw-must-play's is test_new_editions' asmodee-2014 at 2 players
# (asmodee-2014 draws from the discard pile under that rule: the option changes nothing there): its two mutants
# (the top taken by a turn that cannot play, the turn's discard after taking it) were caught there and missed by
# the winning-moves table at 2 players (docs/performance.md, "The fast set, round 15").
FAST_COUNT = {
    "reshuffle-discard": None,
    "draw-from-discard": None,
    "discard-draw-must-play": None,
    "mulligan": None,
    "refill-empty-hand": 2,
    "no-duplicate-draws": 4,
    "play-then-draw": 2,
}


def _turn_tables():
    """Every turn option at every count: one table an option in the fast set (FAST_COUNT), the rest slow."""
    return [
        pytest.param(o, n, marks=() if n == FAST_COUNT[o] else pytest.mark.slow, id=f"{n}-{o}")
        for o in TURN_OPTIONS
        for n in (2, 3, 4, 6)
    ]


@pytest.mark.parametrize(("option", "players"), _turn_tables())
def test_api_test_holds_on_every_turn_option(option, players, request):
    """Legality, transitions, invariants, the score oracle, clones and fair observations (a reshuffled
    pile's order hidden) on random matches of each option (the legality period: tests/api_sweeps.py)."""
    sweep_api_test(mbrules.load_game("winning-moves", players=players, options=[option]), request, seed=0)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_api_test_holds_on_all_turn_options_together(players):
    """The turn options' interactions keep every API rule at each seat count. One match a count, each count
    its own seed (2, 3, 4, 6: four distinct matches); each option alone is run at every count above. Issue 46
    point 7: was 3 matches a count (seeds 0-2 at every count), 43.8 -> 15.4 CPU-s."""
    api_test(mbrules.load_game("winning-moves", players=players, options=TURN_OPTIONS), matches=1, seed=players)


def test_a_reshuffled_match_is_the_same_from_the_same_seed():
    """A reshuffle is shuffled from the hand's seed, itself drawn from the match's: determinism holds."""
    game = mbrules.load_game("winning-moves", players=4, options=["each-for-himself", "reshuffle-discard"])
    a, b = game.new_match(7), game.new_match(7)
    for st in (a, b):
        for _ in range(2000):
            if st.is_terminal():
                break
            st.apply(st.legal_actions()[-1])
    assert a.snapshot() == b.snapshot() and a.history == b.history
    assert a.snapshot().reshuffles > 0 or a.hands_played > 0


def test_the_books_rulesets_draw_as_before():
    """No turn rule on: the compiled game takes the plain draw (the hot loop's) and offers one draw."""
    game = mbrules.load_game("winning-moves", players=4)
    assert game.plain_draws and not game.draw_choices
    st = game.new_match(1)
    assert [str(a) for a in st.legal_actions()] == ["draw"]


def _position(game, hands, discard, sides, draw):
    g = game
    idx = g.card
    return State.from_position(
        g,
        hands=[[idx(c) for c in h] for h in hands],
        draw_top_first=[idx(c) for c in draw],
        discard=[idx(c) for c in discard],
        sides={s: {k: [idx(c) for c in v] for k, v in piles.items()} for s, piles in sides.items()},
    )


def test_the_heuristic_takes_the_discard_top_when_it_fixes_its_hazard():
    game = mbrules.load_game("winning-moves", players=2, options=["draw-from-discard"])
    st = _position(
        game,
        [["d25", "d50", "d75", "d100", "stop", "speed_limit"], ["d25"] * 4 + ["roll", "roll"]],
        ["gasoline"],
        {0: {"battle": ["roll", "out_of_gas"]}},
        ["d200", "d100"],
    )
    bot = make_bot("heuristic", game, 0, 1)
    assert str(bot.choose(st.observation(0), st.legal_actions())) == "draw discard"
    st2 = _position(
        game,
        [["d25", "d50", "d75", "d100", "stop", "speed_limit"], ["d25"] * 4 + ["roll", "roll"]],
        ["d25"],
        {0: {"battle": ["roll", "out_of_gas"]}},
        ["d200", "d100"],
    )
    assert str(bot.choose(st2.observation(0), st2.legal_actions())) == "draw"  # a d25 does not help a stopped car


def test_the_heuristic_mulligans_a_hopeless_hand_and_keeps_its_remedies():
    game = mbrules.load_game("winning-moves", players=2, options=["mulligan"])
    hopeless = ["d25", "d50", "d75", "d100", "stop", "accident"]
    st = _position(
        game,
        [hopeless, ["d25"] * 4 + ["roll", "roll"]],
        [],
        {0: {"battle": ["roll", "out_of_gas"]}},
        ["d200", "d100", "gasoline", "roll", "d50", "d75", "d25"],
    )
    bot = make_bot("heuristic", game, 0, 1)
    thrown = []
    for _ in range(10):
        a = bot.choose(st.observation(0), st.legal_actions())
        st.apply(a)
        if a.kind != "mulligan":
            break
        thrown.append(a.card)
    assert sorted(thrown) == sorted(hopeless)  # distance and hazards all thrown: nothing in it moves the car
    assert len(st.snapshot().hands[0]) == 6 and st.decision.player == 1
    fine = _position(
        game,
        [["d25", "d50", "d75", "d100", "stop", "gasoline"], ["d25"] * 4 + ["roll", "roll"]],
        [],
        {0: {"battle": ["roll", "out_of_gas"]}},
        ["d200", "d100"],
    )
    assert str(bot.choose(fine.observation(0), fine.legal_actions())) == "draw"  # it holds the remedy


FAST_PLAY_AND_TURN_RULES = ["fast-play-remedy", "mulligan", "draw-from-discard"]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4])
def test_api_test_holds_with_fast_play_and_the_turn_rules_together(players):
    """fast-play-remedy (its fast_play window, op 7) in one game with mulligan (op 8: the action's op field is 4
    bits since both took 7) and draw-from-discard: api_test holds on winning-moves with the three. The fast set's
    api_test of the three in one game is test_new_editions' asmodee-2014 at 2 players (the edition plays all three,
    with discard-draw-must-play): the mulligan of a card not held, a mulligan listed and refused, and a fast play
    of a remedy that fixes nothing were caught there as here (round 15: this table was 2.1 of the fast set's
    CPU-s; docs/performance.md, "The fast set, round 15")."""
    api_test(mbrules.load_game("winning-moves", players=players, options=FAST_PLAY_AND_TURN_RULES), matches=1)


@pytest.mark.parametrize("players", [2, pytest.param(4, marks=pytest.mark.slow)])
def test_fast_play_and_the_turn_rules_play_together(players):
    """fast-play-remedy, mulligan and draw-from-discard in one game: every action has its own int, and random
    play takes a fast play, a mulligan and a draw from the discard pile, each as the action it is (none read as
    the other). Their api_test: the test above (make test) and test_new_editions' asmodee-2014 (both tiers)."""
    from mbrules.vocab import DRAW, FAST_PLAY, MULLIGAN, DecisionKind

    game = mbrules.load_game("winning-moves", players=players, options=FAST_PLAY_AND_TURN_RULES)
    assert len({int(a) for a in game.actions.values()}) == len(game.actions)  # every action its own int
    seen = {"fast-play": 0, "mulligan": 0, "draw discard": 0}
    for seed in range(5):
        st, rng = game.new_match(seed), random.Random(seed)
        for _ in range(20_000):
            if st.is_terminal() or all(seen.values()):
                break
            if st.hand_over:
                st.next_hand()
                continue
            kind = st.decision.kind
            a = rng.choice(st.legal_actions())
            st.apply(a)
            if a.op == FAST_PLAY:
                assert kind == DecisionKind.FAST_PLAY and str(a).startswith("fast-play ")
                seen["fast-play"] += 1
            elif a.op == MULLIGAN:
                assert kind in (DecisionKind.TURN, DecisionKind.MULLIGAN) and str(a).startswith("mulligan ")
                seen["mulligan"] += 1
            elif a.op == DRAW and a.from_discard:
                assert str(a) == "draw discard"
                seen["draw discard"] += 1
    assert all(seen.values()), seen


def _refusal(st: State, action: str) -> tuple[str, str]:
    try:
        st.verify(action)
    except mbrules.IllegalAction as e:
        return e.code, e.message
    raise AssertionError(f"{action} was accepted")


def test_a_turn_with_no_draw_says_so_when_a_draw_is_asked_for():
    """Issue 42 item 12: once the draw pile is out (express: no reshuffle) a turn has no draw. Taking the
    discard pile's top was refused as not-your-turn 'p2 has already drawn this turn', though p2 drew
    nothing: it is draw-pile-out now, a code only the discard-draw rule makes possible, and a plain draw
    keeps its code (not-your-turn) with words that say why. A player who did draw the last card has drawn."""
    hand = ["d25", "d50", "d75", "gasoline"]
    game = mbrules.load_game("express", players=2)
    st = _position(game, [hand, hand], ["d100"], {0: {"battle": ["roll"]}, 1: {"battle": ["roll"]}}, ["d25"])
    st.apply("draw")  # p1 takes the last card: p1 has drawn this turn
    assert _refusal(st, "draw discard") == ("not-your-turn", "p1 has already drawn this turn")
    st.apply("discard gasoline")
    assert _refusal(st, "draw discard") == (
        "draw-pile-out",
        "the draw pile is out, so p2's turn has no draw: the discard pile's top is taken only in place of a "
        "draw from the draw pile",
    )
    assert _refusal(st, "draw") == (
        "not-your-turn",
        "the draw pile is out, so p2's turn has no draw: play or discard a card",
    )
    # play then draw, cards left: the draw comes after the play
    game = mbrules.load_game("winning-moves", players=2, options=["play-then-draw"])
    hand6 = ["d25", "d50", "d75", "d100", "gasoline", "spare_tire"]
    st = _position(game, [hand6, hand6], [], {}, ["d25", "d50"])
    assert _refusal(st, "draw") == ("not-your-turn", "p1 plays first this turn and draws after it (play then draw)")
