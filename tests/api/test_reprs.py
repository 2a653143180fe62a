"""Every public value reads as one line of words: no memory addresses, the ruleset and the moves named."""

from __future__ import annotations

import re

import mbrules
from mbrules import Action

ADDRESS = re.compile(r"0x[0-9a-fA-F]{4,}| at 0x|object at")


def one_readable_line(value) -> str:
    text = repr(value)
    assert "\n" not in text, text
    assert not ADDRESS.search(text), text
    assert 0 < len(text) < 300, text
    return text


def _finished_state():
    """A match played to its end: each decision takes the first action listed (a winner after 4 hands, 556
    actions; the last action listed never scores and ran the 1,000 hands' bound: 188,000 actions, 2 CPU-s)."""
    game = mbrules.load_game("winning-moves", players=4)
    state = game.new_match(seed=11)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return game, state


def test_game_repr_names_the_ruleset_and_players():
    game = mbrules.load_game("parker-1971", players=3)
    text = one_readable_line(game)
    assert "parker-1971" in text and "3 players" in text


def test_state_repr_names_the_ruleset_and_the_decision():
    game = mbrules.load_game("winning-moves", players=4)
    state = game.new_match(seed=2)
    text = one_readable_line(state)
    assert "winning-moves" in text and "turn" in text and "p1" in text


def test_action_repr_is_its_words():
    game = mbrules.load_game("winning-moves", players=4)
    for text in (
        "draw",
        "play d200",
        "play stop on B",
        "discard d25",
        "coup-fourre driving_ace",
        "decline",
        "extend",
        "stop",
    ):
        assert one_readable_line(Action.parse(text, game)) == f"Action({text!r})"


def test_outcome_repr_names_the_result_and_totals():
    game, state = _finished_state()
    out = state.outcome
    text = one_readable_line(out)
    assert out.result in game.side_names  # a winner: the match ended on its points
    assert f"{out.result}:" in text and all(s in text for s in game.side_names)  # the winner named, then totals


def test_observation_repr_names_the_player_and_hand():
    game = mbrules.load_game("winning-moves", players=4)
    state = game.new_match(seed=4)
    obs = state.observation(0)
    text = one_readable_line(obs)
    assert "p1" in text
    assert all(game.card_ids[c] in text for c in obs.hand)


def test_snapshot_and_decision_reprs_are_one_line():
    game = mbrules.load_game("kids-115", players=2)
    state = game.new_match(seed=1)
    one_readable_line(state.snapshot())
    one_readable_line(state.decision)
