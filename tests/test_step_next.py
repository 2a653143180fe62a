"""State.step_next is the match loop's one call per decision: step(action), the draws that follow where
drawing is all its player may do, then legal_actions(). It must be exactly those calls one by one, on
every ruleset's turn rules (a draw with choices, a reshuffle, play then draw, a mulligan's last draw), and
refuse what step refuses, leaving the state as it was."""

from __future__ import annotations

import random

import pytest

from mbrules.engine import Game, IllegalAction, State
from mbrules.ruleset import load_ruleset
from mbrules.vocab import DRAW

CONFIGS = [
    ("winning-moves", (), 4),
    ("winning-moves", (), 3),
    ("parker-1971", (), 2),
    ("winning-moves", ("draw-from-discard", "mulligan"), 4),
    ("winning-moves", ("reshuffle-discard",), 4),
    ("winning-moves", ("play-then-draw",), 2),
    ("dujardin-classic", ("fast-play-remedy", "queued-coup-fourre-turn"), 4),
    ("winning-moves", ("no-voluntary-discard", "safeties-not-discardable"), 4),
]


def one_by_one(st: State, action) -> list:
    """What step_next stands for: step, the lone draws, legal_actions (SeatLoop's calls before it)."""
    st.step(action)
    acts = st.legal_actions()
    while len(acts) == 1 and acts[0].op == DRAW:
        st.step(acts[0])
        acts = st.legal_actions()
    return acts


@pytest.mark.parametrize("ruleset,options,players", CONFIGS)
def test_step_next_is_step_then_the_lone_draw_then_legal_actions(ruleset, options, players):
    game = Game(load_ruleset(ruleset, list(options)), players)
    for seed in range(3):
        a, b = State.new_match(game, seed), State.new_match(game, seed)
        pick = random.Random(seed)
        acts_a, acts_b = a.legal_actions(), b.legal_actions()
        for _ in range(600):
            if not acts_a or a.is_terminal():
                break
            assert acts_a == acts_b
            action = acts_a[int(pick.random() * len(acts_a))]
            acts_a = a.step_next(action)
            acts_b = one_by_one(b, action)
        assert a.history == b.history and a.snapshot() == b.snapshot()


def test_step_next_refuses_what_step_refuses_and_changes_nothing():
    game = Game(load_ruleset("winning-moves"), 4)
    st = State.new_match(game, 5)
    st.step_next(st.legal_actions()[0])  # the draw: now a play
    held = set(st.observation(st.current_player).hand)
    absent = next(c for c in range(game.n_cards) if c not in held)
    before = st.snapshot()
    for words in (f"discard {game.card_ids[absent]}", f"play {game.card_ids[absent]}", "draw"):
        with pytest.raises(IllegalAction):
            st.step_next(game.action(words))
        assert st.snapshot() == before
