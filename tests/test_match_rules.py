"""Match rules a one-hand scenario cannot show: the deal passing to the left, hands adding up."""

from __future__ import annotations

import random

from mbrules.engine import Game, State
from mbrules.ruleset import load_ruleset


def _new_match(game, seed):
    """A match that rests at each hand's end until next_hand() (hands are looked at one by one)."""
    return State.new_match(game, seed, deal_next=False)


def _finish_hand(state, rng):
    while not state.hand_over:
        acts = state.legal_actions()
        state.apply(acts[int(rng.random() * len(acts))])


def test_the_deal_passes_to_the_left_after_each_hand():
    # rulings.md The match: "The deal passes to the left after each hand": p1 leads the first
    # hand (left of the dealer), p2 the second, and so on around the table.
    game = Game(load_ruleset("winning-moves"), 4)
    state = _new_match(game, 11)
    rng = random.Random(3)
    leaders = []
    for _ in range(6):
        leaders.append(state.decision.player)
        _finish_hand(state, rng)
        if state.match_over:
            break
        state.next_hand()
    assert leaders == [i % 4 for i in range(len(leaders))]
    assert len(leaders) >= 2


def test_without_deal_passing_the_same_player_leads_every_hand():
    rules = load_ruleset("winning-moves")
    match = rules.match.model_copy(
        update={"deal_passes_left": rules.match.deal_passes_left.model_copy(update={"value": False})}
    )
    game = Game(rules.model_copy(update={"match": match}), 4)
    state = _new_match(game, 11)
    rng = random.Random(3)
    hands = 0
    for _ in range(3):
        assert state.decision.player == 0
        hands += 1
        _finish_hand(state, rng)
        if state.match_over:
            break
        state.next_hand()
    assert hands >= 2


def test_match_totals_are_the_sum_of_the_hands_score_sheets():
    game = Game(load_ruleset("parker-1971"), 3)
    state = _new_match(game, 5)
    rng = random.Random(9)
    while not state.match_over:
        _finish_hand(state, rng)
        if not state.match_over:
            state.next_hand()
    out = state.outcome
    snap = state.snapshot()
    assert len(out.hand_sheets) == len(snap.hand_sheets) == state.hands_played > 1
    for side in range(game.sides):
        assert snap.match_totals[side] == sum(sheet[side]["total"] for sheet in snap.hand_sheets)
    for name in game.side_names:
        assert out.totals[name] == sum(sheet[name]["total"] for sheet in out.hand_sheets)
    assert max(snap.match_totals) >= 5000
