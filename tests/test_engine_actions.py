"""Actions are the game's own values: apply() refuses any int that is not one of them instead of
guessing what it meant, and every listed legal action reads back from its words."""

from __future__ import annotations

import pytest

from mbrules.engine import Action, Game, IllegalAction
from mbrules.vocab import REASON_CODES
from mbrules.ruleset import load_ruleset


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset("winning-moves"), 4)


def not_actions(game: Game) -> list[int]:
    """Ints that are no action of the game: between and around its actions (the encoding is private)."""
    codes = set(game.actions)
    top = max(codes)
    gaps = [i for i in range(0, top + 2) if i not in codes]
    picks = gaps[:: max(1, len(gaps) // 8)]
    return sorted(set(picks + [-1, top + 1, 2**40]))


def test_the_games_actions_are_a_table_of_distinct_actions(game):
    assert len(not_actions(game)) >= 8
    for code, a in game.actions.items():
        assert type(a) is Action and int(a) == code


@pytest.mark.parametrize("pick", range(11))
def test_an_int_that_is_not_an_action_is_refused_and_changes_nothing(game, pick):
    bad = not_actions(game)
    action = bad[pick % len(bad)]
    state = game.new_match(3)
    history = state.history
    before = state.snapshot()
    with pytest.raises(IllegalAction) as refused:
        state.apply(action)
    assert refused.value.code in REASON_CODES
    assert "not an action" in refused.value.message
    assert state.history == history and state.snapshot() == before
    assert not state.can_apply(action)
    state.apply(game.draw_action)  # the turn goes on as if nothing had happened
    assert len(state.snapshot().hands[0]) == 7


def test_every_listed_legal_action_round_trips_through_its_words(game):
    state = game.new_match(4)
    state.apply(game.draw_action)
    legal = state.legal_actions()
    assert legal
    for action in legal:
        assert type(action) is Action
        assert Action.parse(str(action), game) == action
        assert game.actions[int(action)] is action
        assert action.kind in ("play", "discard")
