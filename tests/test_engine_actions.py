"""Actions are well-formed ints: apply() refuses any other int instead of guessing what it meant."""
from __future__ import annotations

import pytest

from mbrules.engine import Game, IllegalAction
from mbrules.engine.actions import (
    ACTION_DRAW, COUP_FOURRE, DECLINE, DISCARD, EXTEND, PLAY, REASON_CODES, STOP, encode,
)
from mbrules.ruleset import load_ruleset


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset("winning-moves"), 4)


@pytest.mark.parametrize(
    "action",
    [
        ACTION_DRAW | 8,  # a draw with card bits
        encode(DECLINE) | 16,
        encode(EXTEND, 3),
        encode(STOP, 0, 1),
        encode(DISCARD, 2, 1),  # a discard names no side
        encode(COUP_FOURRE, 17, 1),  # neither does a coup fourré
        7,  # no such operation
        -1,
    ],
)
def test_an_int_that_is_not_a_well_formed_action_is_refused_and_changes_nothing(game, action):
    state = game.new_match(3)
    history = list(state.history)
    hands = [h[:] for h in state.hands]
    with pytest.raises(IllegalAction) as refused:
        state.apply(action)
    assert refused.value.code in REASON_CODES
    assert state.history == history and state.hands == hands
    state.apply(ACTION_DRAW)  # the turn goes on as if nothing had happened
    assert len(state.hands[0]) == 7


def test_every_listed_legal_action_round_trips_through_encode(game):
    state = game.new_match(4)
    state.apply(ACTION_DRAW)
    for action in state.legal_actions():
        op, card, side = action & 7, (action >> 3) & 255, action >> 11
        assert action == encode(op, card, side)
        assert op in (PLAY, DISCARD)
