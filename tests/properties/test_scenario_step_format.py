"""The scenario step format has one owner (mbrules.scenario.format): what it writes, it reads back.

Random matches of random bundled configurations: every action that has a step (all but draws and
declined coup fourré windows) is written, with a ``draw:`` assertion half the time (never on an
extension answer), as a step, read back through the scenario file reader
and model, and must name the same player and the same action, and the same drawn card.
"""

from __future__ import annotations

import functools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mbrules.scenario import model as m
from mbrules.scenario.format import NoStep, step_action, step_fields, step_text
from mbrules.scenario.yamlio import parse_documents
from mbrules.vocab import DECLINE, DRAW, MULLIGAN, EXTEND, STOP

from prop_helpers import configurations, game_of, new_match, seeds, with_examples


@functools.lru_cache(maxsize=None)
def _read_step(text: str) -> m.ActionStep:
    """A step as ``mbrules replay`` reads it: the scenario YAML reader, then the model. A text written again
    (``p1: discard d25`` recurs in every match) is read once a process: the reader answers a text the same
    whatever came before it, and the asserts still run on every step written (7,323 reads a fast run were
    about two thirds of the test's CPU; the model's step is not changed by the asserts)."""
    (doc,) = parse_documents(f"steps:\n  - {{{text}}}\n", "round-trip.yaml")
    assert not doc.errors, doc.errors
    return m.ActionStep.model_validate(doc.data["steps"][0])


@given(configurations(), seeds, st.integers(min_value=0, max_value=2**32 - 1))
@with_examples(lambda config, deal, play, steps: (config, deal, play))
def test_every_recorded_step_reads_back_as_the_same_player_and_action(config, seed, draw_seed):
    g = game_of(config)
    state = new_match(g, seed)
    rng = random.Random(seed)
    cards = random.Random(draw_seed)
    steps = 0
    while not state.hand_over:
        action = rng.choice(state.legal_actions())
        player = state.decision.player
        if (action.op == DRAW and not action.from_discard) or action.op == DECLINE:
            with pytest.raises(NoStep):
                step_fields(g, player, action)
        else:
            turn_draw = action.op in (DRAW, MULLIGAN)  # 'draw_from: discard' and 'mulligan: CARD' are draws
            asks_draw = action.op not in (EXTEND, STOP) and not turn_draw and cards.random() < 0.5
            drawn = cards.randrange(g.n_cards) if asks_draw else None
            step = _read_step(step_text(g, player, action, draw=drawn))
            assert step_action(g, step) == (player, action), step_text(g, player, action)
            assert step.draw == (g.card_ids[drawn] if drawn is not None else None)
            steps += 1
        state.apply(action)
    assert steps > 0


def test_every_kind_of_action_with_a_step_reads_back_as_written():
    """Not only the actions random play reaches: each action of the game's table (every kind, card and
    side; ``game.actions``), written as a step with and without a drawn card, reads back as itself, and
    the draws and declines, which have no step, say so (issue 42 item 14: every action kind)."""
    g = game_of(("asmodee-2014", (), 4))
    kinds = set()
    for action in g.actions.values():
        if action.side_index >= g.sides:
            continue
        if (action.op == DRAW and not action.from_discard) or action.op == DECLINE:
            with pytest.raises(NoStep):
                step_fields(g, 1, action)
            continue
        for drawn in (None, 0) if action.op not in (EXTEND, STOP, DRAW, MULLIGAN) else (None,):
            step = _read_step(step_text(g, 1, action, draw=drawn))
            assert step_action(g, step) == (1, action), step_text(g, 1, action)
            assert step.draw == (g.card_ids[drawn] if drawn is not None else None)
        kinds.add(action.kind)
    assert kinds == {"play", "discard", "coup-fourre", "fast-play", "mulligan", "draw", "extend", "stop"}
