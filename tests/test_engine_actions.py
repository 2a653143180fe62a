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


def test_a_pickled_state_plays_on_like_its_original(game):
    """OpenSpiel's ``serialize_game_and_state`` pickles the engine's State. A compiled State's ``__new__`` runs
    ``__init__``, so pickle's default recipe (``__new__`` without arguments) failed there ("missing required
    argument 'game'"); ``State.__reduce__`` is one recipe for both modes (make test-compiled runs this file)."""
    import pickle
    import random

    from mbrules.engine import State

    st = State.new_match(game, 7)
    rng = random.Random(1)
    for _ in range(60):
        st.apply(rng.choice(st.legal_actions()))
    back = pickle.loads(pickle.dumps(st))
    assert type(back) is State and back.history == st.history and back.decision == st.decision
    assert [type(a) for a in back.legal_actions()] == [Action] * len(st.legal_actions())  # the game's own, not ints
    while not st.is_terminal() and len(st.history) < 400:
        a = rng.choice(st.legal_actions())
        assert back.legal_actions() == st.legal_actions()
        st.apply(a)
        back.apply(a)
    assert back.history == st.history and back.is_terminal() == st.is_terminal()
