"""The action notation: every action of every bundled game reads back as itself; bad text is refused in words."""

from __future__ import annotations

import random

import pytest

import mbrules
from mbrules import Action, NotationError
from api_helpers import CONFIGS, game_of


@pytest.mark.parametrize("rid,players", CONFIGS)
def test_every_action_of_the_game_parses_back_from_its_words(rid, players):
    game = game_of(rid, players)
    assert game.actions
    for code, a in game.actions.items():
        assert isinstance(a, Action) and a == code
        back = Action.parse(str(a), game)
        assert back == a and str(back) == str(a)
        assert game.action(str(a)) == a and game.action(int(a)) == a


@pytest.mark.parametrize("rid,players", CONFIGS)
def test_every_legal_action_met_in_random_play_parses_back(rid, players):
    game = game_of(rid, players)
    seen = set()
    parsed = set()  # each action met is parsed once: its words and the game are all parse reads
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_match(seed)
        for _ in range(400):
            if state.is_terminal():
                break
            acts = state.legal_actions()
            for a in acts:
                assert isinstance(a, Action)
                if a not in parsed:
                    assert Action.parse(str(a), game) == a
                    parsed.add(a)
                seen.add(a.kind)
            state.apply(rng.choice(acts))
    assert {"draw", "play", "discard"} <= seen


@pytest.fixture(scope="module")
def game():
    return game_of("winning-moves", 4)


def test_the_words_of_each_operation(game):
    assert str(game.draw_action) == "draw"
    assert str(game.decline_action) == "decline"
    assert str(game.extend_action) == "extend"
    assert str(game.stop_action) == "stop"
    d200 = game.card("d200")
    assert str(game.play_own[d200]) == "play d200"
    assert str(game.play_action[game.card("stop")][1]) == "play stop on B"
    assert str(game.discard_action[game.card("d25")]) == "discard d25"
    assert str(game.coup_action[game.card("driving_ace")]) == "coup-fourre driving_ace"


def test_an_action_names_its_parts(game):
    a = Action.parse("play stop on B", game)
    assert (a.kind, a.card, a.side, a.card_index, a.side_index) == ("play", "stop", "B", game.card("stop"), 1)
    own = Action.parse("play d25", game)
    assert own.side is None and own.side_index == -1 and own.card == "d25"
    assert Action.parse("draw", game).card is None


def test_words_are_case_insensitive_and_spacing_free_for_the_operation(game):
    assert Action.parse("  PLAY   d25 ", game) == Action.parse("play d25", game)
    assert Action.parse("coup_fourre driving_ace", game) == Action.parse("coup-fourre driving_ace", game)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("fly d25", "not an action word"),  # unknown word
        ("", "empty action"),
        ("play", "needs a card"),
        ("play d999", "not a card of this game"),  # unknown card
        ("play d25 on", "only 'play CARD on SIDE'"),  # side missing
        ("play stop on", "only 'play CARD on SIDE'"),
        ("play stop on !", "not a side name"),
        ("play d25 on A now", "only 'play CARD on SIDE'"),  # extra words
        ("draw d25", "takes nothing after it"),
        ("discard d25 on B", "only 'play CARD on SIDE'"),
        ("extend now", "takes nothing after it"),
    ],
)
def test_bad_text_is_refused_with_a_sentence(game, text, expected):
    with pytest.raises(NotationError) as e:
        Action.parse(text, game)
    msg = str(e.value)
    assert expected in msg
    assert "\n" not in msg and len(msg) < 400


def test_an_unknown_card_lists_the_cards(game):
    with pytest.raises(NotationError, match="d200"):
        Action.parse("play d999", game)


def test_a_notation_error_is_a_value_error_not_an_illegal_action(game):
    assert issubclass(NotationError, ValueError)
    assert not issubclass(NotationError, mbrules.IllegalAction)
    with pytest.raises(NotationError):
        Action.parse(42, game)


def _position_with(game, card):
    """A match of ``game`` played on until the deciding player may play ``card`` on its own side."""
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_match(seed)
        for _ in range(300):
            if state.is_terminal():
                break
            acts = state.legal_actions()
            if game.play_own[game.card(card)] in acts:
                return state
            state.apply(rng.choice(acts))
    raise AssertionError(f"no position found where {card} can be played")


def test_apply_takes_the_words(game):
    state = _position_with(game, "d200")
    p = state.current_player
    miles = state.observation(p).my_side.miles
    state.apply("play d200")
    assert state.observation(p).sides[game.side_of[p]].miles == miles + 200
    assert state.history[-1] == (p, Action.parse("play d200", game))


def test_apply_of_bad_text_raises_notation_error_and_changes_nothing(game):
    state = game.new_match(3)
    before = state.snapshot()
    with pytest.raises(NotationError):
        state.apply("play d25 on")
    assert state.snapshot() == before


def test_an_action_repr_is_readable(game):
    a = Action.parse("play stop on B", game)
    assert repr(a) == "Action('play stop on B')"
    assert repr(game.draw_action) == "Action('draw')"
    assert repr([game.draw_action]) == "[Action('draw')]"


def test_can_apply_and_verify_refuse_bad_text_as_notation_errors(game):
    state = game.new_match(3)
    for check in (state.can_apply, state.verify):
        with pytest.raises(NotationError):
            check("fly d25")
    assert state.can_apply("draw") and not state.can_apply("play d25 on B")
