"""A scenario's setup and ``expect`` have one owner (mbrules.scenario.format): what it writes, it reads back.

Random matches of random bundled configurations, stopped after a random number of actions (inside a
hand, at a hand's end, or over): the recorder writes each hand's setup and its closing ``expect``
through :func:`setup_lines` and :func:`expect_lines`; read back through the scenario file reader, the
model and :func:`read_setup` / :func:`read_expect`, each must be the deal the hand started from and the
end the position shows (:func:`hand_end`), the winner on the last hand only. Issue 37 item 4: before,
the setup and expect were written in record.py and read in replay.py and resume.py, each its own way.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from mbrules.scenario import model as m
from mbrules.scenario.format import deal_of, expect_lines, hand_end, read_expect, read_setup, setup_lines
from mbrules.scenario.record import Recorder, record_match
from mbrules.scenario.yamlio import parse_documents

from prop_helpers import configurations, game_of, new_match, random_prefix, seeds, with_examples


def _scenarios(text: str) -> list[m.Scenario]:
    """The documents as ``mbrules replay`` reads them: the scenario YAML reader, then the model."""
    out = []
    for doc in parse_documents(text, "round-trip.yaml"):
        assert not doc.errors, doc.errors
        out.append(m.Scenario.model_validate(doc.data))
    return out


@given(configurations(), seeds, st.integers(min_value=1, max_value=900))
@with_examples(lambda config, deal, play, steps: (config, deal, max(1, steps)))
def test_every_recorded_setup_and_expect_reads_back_as_written(config, seed, actions):
    g = game_of(config)
    rec = Recorder()
    state = new_match(g, seed, observers=[rec])
    random_prefix(state, random.Random(seed), actions)
    if not rec.hands:
        return  # not one action taken: nothing to record
    text = record_match(rec, state, config[0], list(config[1]), g.players, seed)
    docs = _scenarios(text)
    assert len(docs) == len(rec.hands)
    now = state.snapshot()
    for k, (hand, scn) in enumerate(zip(rec.hands, docs)):
        assert read_setup(g, scn.setup) == hand["deal"], f"hand {k + 1}'s setup"
        expect = scn.steps[-1]
        assert isinstance(expect, m.ExpectStep)
        written = hand["end"] or hand_end(now, winner=False)
        if k + 1 == len(rec.hands):
            written = replace(written, winner=hand_end(now).winner)
        assert read_expect(g, expect.expect) == written, f"hand {k + 1}'s expect"


@given(configurations(), seeds, st.integers(min_value=0, max_value=900))
@with_examples(lambda config, deal, play, steps: (config, deal, steps))
def test_a_position_written_as_setup_and_expect_reads_back_the_same(config, seed, actions):
    """Any position: its deal and its end, written alone and read back, are the same values."""
    g = game_of(config)
    state = new_match(g, seed)
    random_prefix(state, random.Random(seed ^ 0x5EED), actions)
    snap = state.snapshot()
    deal, end = deal_of(snap), hand_end(snap)
    text = (
        "\n".join(
            [
                "scenario: t",
                "source: test",
                f"ruleset: {config[0]}",
                f"players: {g.players}",
                *setup_lines(g, deal),
                "steps:",
                *expect_lines(g, end),
            ]
        )
        + "\n"
    )
    (scn,) = _scenarios(text)
    assert read_setup(g, scn.setup) == deal
    assert read_expect(g, scn.steps[0].expect) == end


def test_a_partial_setup_or_expect_is_not_read_as_a_records():
    """A hand-written scenario names only part of a position: the readers say so (None), never a guess."""
    from mbrules import load_game

    g = load_game("winning-moves", 2)
    (scn,) = _scenarios(
        "scenario: t\nsource: test\nruleset: winning-moves\nplayers: 2\n"
        "setup:\n  hands:\n    p1: [d25]\nsteps:\n  - expect: {hand_over: false, match: {A: 0, B: 0}}\n"
    )
    assert read_setup(g, scn.setup) is None
    assert read_expect(g, scn.steps[0].expect) is None
