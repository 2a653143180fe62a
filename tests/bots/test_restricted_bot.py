"""The restricted bot of compare's restricted play: never the forbidden decision, else the heuristic."""

from __future__ import annotations

import pytest

from mbrules.vocab import COUP_FOURRE, DISCARD, EXTEND, HAZARD, MULLIGAN, PLAY, SAFETY
from mbrules import load_game
from mbrules.matches import game_seed, play_match


def _acts(game, spec, seeds=25):
    for i in range(seeds):
        st = play_match(game, game_seed(3, i), [spec])
        yield from (a for p, a in st.history if p >= 0)


@pytest.mark.parametrize(
    "param, forbidden",
    [
        ("no_coup_fourre", lambda g, a: a.op == COUP_FOURRE),
        ("no_extension", lambda g, a: a.op == EXTEND),
        ("no_attack", lambda g, a: a.op == PLAY and g.kind[a.card_index] == HAZARD),
    ],
)
def test_a_restricted_heuristic_never_makes_the_forbidden_decision(param, forbidden):
    game = load_game("winning-moves", 3, [])  # 3 players: the extension question is asked
    assert any(forbidden(game, a) for a in _acts(game, "heuristic"))  # the heuristic does make it
    assert not any(forbidden(game, a) for a in _acts(game, f"restricted:{param}=1"))


@pytest.mark.parametrize(
    "param, option, forbidden",
    [
        ("no_discard_draw", "draw-from-discard", lambda g, a: a == g.draw_discard_action),
        ("no_mulligan", "mulligan", lambda g, a: a.op == MULLIGAN),
    ],
)
def test_a_restricted_heuristic_never_takes_the_turn_rules_draw_choices(param, option, forbidden):
    """The restrictions behind compare's figures for draw-from-discard and mulligan (docs/bots.md):
    the heuristic makes the choice, the restricted one never does."""
    game = load_game("winning-moves", 2, [option])
    assert any(forbidden(game, a) for a in _acts(game, "heuristic", seeds=10))
    assert not any(forbidden(game, a) for a in _acts(game, f"restricted:{param}=1", seeds=10))


def test_with_no_restriction_it_plays_the_heuristics_games():
    game = load_game("winning-moves", 4, [])
    for i in range(5):
        a = play_match(game, game_seed(9, i), ["restricted"])
        b = play_match(game, game_seed(9, i), ["heuristic"])
        assert [str(x) for _, x in a.history] == [str(x) for _, x in b.history]


def test_no_safety_discard_takes_every_safety_discard_out_of_the_choice():
    # (the heuristic itself never discards a safety while it has another discard: its keep value is the
    # highest; the restriction matters for a safety-only hand, where it plays a safety instead)
    import random

    from mbrules.bots.restricted import RestrictedBot

    game = load_game("winning-moves", 2, [])
    bot = RestrictedBot(game, 0, random.Random(0), no_safety_discard=1)
    discards = [a for a in game.actions.values() if a.op == DISCARD]
    kept = [a for a in discards if bot.allowed(a)]
    assert kept and all(game.kind[a.card_index] != SAFETY for a in kept)
    assert len(discards) - len(kept) == sum(1 for k in game.kind if k == SAFETY)
