"""Replay semantics: the draw, refusals, coup fourré windows, setup building, failures with their step."""

from __future__ import annotations

from pathlib import Path

import pytest

from mbrules.engine.actions import IllegalAction
from mbrules.engine.state import State
from mbrules.scenario import replay as rp
from mbrules.scenario.replay import prepare, replay_file
from mbrules.scenario.yamlio import parse_documents

HEAD2 = "scenario: t\nsource: test\nruleset: winning-moves\nplayers: 2\n"
HEAD4 = "scenario: t\nsource: test\nruleset: winning-moves\nplayers: 4\n"

# p1 (side A) is not rolling; p2 (side B) is rolling. The draw pile is d75, d25, roll, d50, top first.
SETUP2 = """setup:
  hands:
    p1: [d25, roll, stop, gasoline, d200, extra_tank]
    p2: [d50, roll, accident, speed_limit, end_of_limit, out_of_gas]
  sides:
    B: {battle: [roll]}
  draw_pile: [d75, d25, roll, d50]
  rest: discard_pile
"""

# p1 (A) attacks B; p4 (B) holds driving_ace, p2 (B) does not.
SETUP4 = """setup:
  hands:
    p1: [accident, d25, d50, d75, d100, gasoline]
    p2: [d25, d25, d50, d50, d75, d75]
    p4: [driving_ace, d25, d25, roll, d50, spare_tire]
  sides:
    B: {battle: [roll]}
  draw_pile: [d100, d50, roll, d75, d200, d200]
  rest: discard_pile
"""


def run(tmp_path: Path, text: str):
    f = tmp_path / "s.yaml"
    f.write_text(text, encoding="utf-8")
    results = replay_file(f)
    assert len(results) == 1
    return results[0]


def steps(*lines: str) -> str:
    return "steps:\n" + "".join(f"  - {line}\n" for line in lines)


PASSING = [
    (
        "draw once a turn: a refused action does not draw again",
        HEAD2
        + SETUP2
        + steps(
            "{player: p1, play: d25, draw: d75, rejected: cannot-move}",
            "{player: p1, discard: stop, draw: d75}",
            "expect: {turn: p2, draw_pile: 3, discard_top: stop}",
        ),
    ),
    (
        "a safety gives another turn that draws again",
        HEAD2
        + SETUP2
        + steps(
            "{player: p1, play: extra_tank, draw: d75}",
            "expect: {turn: p1, draw_pile: 3}",
            "{player: p1, play: roll, draw: d25}",
            "expect: {turn: p2, draw_pile: 2}",
        ),
    ),
    (
        "on may be left out with one opposing side",
        HEAD2
        + SETUP2
        + steps("{player: p1, play: roll}", "{player: p2, play: accident}", "expect: {sides: {A: {battle: accident}}}"),
    ),
    (
        "rejected: true takes any code",
        HEAD2
        + SETUP2
        + steps(
            "{player: p2, play: roll, rejected: true}", "{player: p1, play: zzz_unknown_ok, rejected: true}"
        ).replace(
            "{player: p1, play: zzz_unknown_ok, rejected: true}", "{player: p1, play: stop, on: A, rejected: true}"
        ),
    ),
    (
        "an unused coup fourré window is declined by the next step",
        HEAD4
        + SETUP4
        + steps(
            "{player: p1, play: accident, on: B}",
            "expect: {turn: p2, sides: {B: {battle: accident, moving: false}}}",
            "{player: p2, play: d25, draw: d50}",
            "expect: {sides: {B: {battle: accident, miles: 0}}}",
        ).replace("{player: p2, play: d25, draw: d50}", "{player: p2, discard: d25, draw: d50}"),
    ),
    (
        "an expect step leaves the window open; the coup fourré may follow it",
        HEAD4
        + SETUP4
        + steps(
            "{player: p1, play: accident, on: B}",
            "expect: {turn: p2, draw_pile: 5}",
            "{player: p4, coup_fourre: driving_ace, draw: d50}",
            "expect: {turn: p4, discard_top: accident, sides: {B: {battle: roll, moving: true, "
            "coup_fourres: [driving_ace], safeties: [driving_ace]}}, "
            "score: {B: {safeties: 100, coup_fourres: 300, total: 400}}}",
        ),
    ),
    (
        "once the window is closed the coup fourré is refused",
        HEAD4
        + SETUP4
        + steps(
            "{player: p1, play: accident, on: B}",
            "{player: p2, discard: d25}",
            "{player: p4, coup_fourre: driving_ace, rejected: no-coup-fourre}",
            "expect: {turn: p3}",
        ),
    ),
]


@pytest.mark.parametrize(("name", "text"), PASSING, ids=[n for n, _ in PASSING])
def test_replay_semantics(tmp_path, name, text):
    res = run(tmp_path, text)
    assert res.passed, "\n".join(res.lines())


FAILING = [
    (
        "an action refused where the step expects it accepted",
        steps("{player: p1, play: d25}"),
        1,
        "play",
        "accepted",
        "refused with cannot-move",
    ),
    (
        "an action accepted where the step expects a refusal",
        steps("{player: p1, discard: d25, rejected: true}"),
        1,
        "rejected",
        True,
        "accepted",
    ),
    (
        "another reason code",
        steps("{player: p1, play: d25, rejected: not-rolling}"),
        1,
        "rejected",
        "not-rolling",
        "cannot-move",
    ),
    ("the drawn card differs", steps("{player: p1, discard: stop, draw: d50}"), 1, "draw", "d50", "d75"),
    (
        "no card drawn by a player out of turn",
        steps("{player: p2, play: roll, draw: d50, rejected: true}"),
        1,
        "draw",
        "d50",
        None,
    ),
    (
        "an expectation after passing steps",
        steps("{player: p1, discard: stop}", "expect: {turn: p1}"),
        2,
        "turn",
        "p1",
        "p2",
    ),
    (
        "hands compare as multisets",
        steps("expect: {hands: {p1: [d25, roll, stop, gasoline, d200, d200]}}"),
        1,
        "hands.p1",
        ["d200", "d200", "d25", "gasoline", "roll", "stop"],
        ["d200", "d25", "extra_tank", "gasoline", "roll", "stop"],
    ),
    (
        "limit null where a limit is in force",
        steps("{player: p1, discard: stop}", "{player: p2, play: speed_limit}", "expect: {sides: {A: {limit: null}}}"),
        3,
        "sides.A.limit",
        None,
        50,
    ),
    ("score lines", steps("expect: {score: {B: {milestones: 25}}}"), 1, "score.B.milestones", 25, 0),
    ("winner", steps("expect: {winner: draw}"), 1, "winner", "draw", None),
]


@pytest.mark.parametrize(("name", "body", "step", "key", "expected", "actual"), FAILING, ids=[f[0] for f in FAILING])
def test_failures_name_the_step_and_expected_beside_actual(tmp_path, name, body, step, key, expected, actual):
    res = run(tmp_path, HEAD2 + SETUP2 + body)
    assert not res.passed and not res.errors
    f = res.failures[0]
    assert (f.step, f.key, f.expected, f.actual) == (step, key, expected, actual), res.lines()
    # The line points into the failing step.
    step_line = next(
        i
        for i, t in enumerate((HEAD2 + SETUP2 + body).splitlines(), 1)
        if t.startswith("  - ")
        and i > 12
        and sum(1 for x in (HEAD2 + SETUP2 + body).splitlines()[12:i] if x.startswith("  - ")) == step
    )
    assert f.line == step_line


def test_the_first_failing_step_ends_the_scenario(tmp_path):
    res = run(tmp_path, HEAD2 + SETUP2 + steps("expect: {turn: p2, draw_pile: 3}", "{player: p1, play: d25}"))
    assert [f.key for f in res.failures] == ["turn", "draw_pile"]  # every key of the failing expect
    assert res.steps_run == 1


def test_a_refusal_that_changes_the_game_fails(tmp_path, monkeypatch):
    real = State.apply

    def leaky(self, action, player=None):
        if self.game.action(action).kind == "play":
            self._discard.append(0)  # deliberately an engine bug: a refusal that leaves a trace
            raise IllegalAction("cannot-move", "refused, but the pile changed")
        return real(self, action, player)

    monkeypatch.setattr(State, "apply", leaky)
    res = run(tmp_path, HEAD2 + SETUP2 + steps("{player: p1, play: d25, rejected: cannot-move}"))
    assert res.failures and res.failures[0].key == "unchanged"


def test_an_engine_crash_is_the_scenarios_failure(tmp_path, monkeypatch):
    def boom(self, action, player=None):
        raise ZeroDivisionError("engine bug")

    monkeypatch.setattr(State, "apply", boom)
    res = run(tmp_path, HEAD2 + SETUP2 + steps("{player: p1, discard: stop}"))
    assert res.failures[0].key == "engine" and "ZeroDivisionError" in res.failures[0].actual


def _state(text: str) -> State:
    doc = parse_documents(text, "t.yaml")[0]
    return prepare(doc, Path(".")).state


def test_setup_places_listed_cards_and_shuffles_the_rest_by_seed():
    base = (
        HEAD4
        + "setup:\n  seed: SEED\n  hands:\n    p1: [d25]\n  draw_pile: [roll, d200]\n"
        + steps("expect: {turn: p1}")
    )
    a = _state(base.replace('SEED', '1'))
    b = _state(base.replace('SEED', '1'))
    c = _state(base.replace('SEED', '2'))
    g = a.game
    sa, sb, sc = a.snapshot(), b.snapshot(), c.snapshot()
    assert [g.card_ids[x] for x in sa.hands[0]] == ["d25"]
    assert all(len(h) == 6 for h in sa.hands[1:])
    top = sa.draw_pile  # top first
    assert [g.card_ids[x] for x in top[:2]] == ["roll", "d200"]
    assert len(sa.draw_pile) + sum(map(len, sa.hands)) == 106
    assert sa.hands == sb.hands and sa.draw_pile == sb.draw_pile
    assert (sa.hands, sa.draw_pile) != (sc.hands, sc.draw_pile)


def test_rest_to_the_discard_pile_goes_beneath_the_listed_discards():
    st = _state(
        HEAD2 + "setup:\n  rest: discard_pile\n  hands: {p1: [d25], p2: [d50]}\n  draw_pile: [roll]\n"
        "  discard_pile: [stop, d75]\n" + steps("expect: {turn: p1}")
    )
    g = st.game
    snap = st.snapshot()
    assert [g.card_ids[c] for c in snap.draw_pile] == ["roll"]
    assert [g.card_ids[c] for c in snap.discard[-2:]] == ["stop", "d75"]
    assert len(snap.discard) == 101 - 3 - 2 + 2


def test_no_setup_is_a_normal_deal_from_seed_0():
    from mbrules.engine import Game
    from mbrules.ruleset import load_ruleset

    st = _state(HEAD4 + steps("expect: {turn: p1}"))
    ref = Game(load_ruleset("winning-moves"), 4).new_match(0)
    mine, theirs = st.snapshot(), ref.snapshot()
    assert mine.hands == theirs.hands and mine.draw_pile == theirs.draw_pile


def test_too_few_cards_to_deal_the_hands_not_listed(tmp_path):
    cards = ", ".join(["d25"] * 4 + ["d50"] * 4)
    res = run(
        tmp_path,
        HEAD4
        + "setup:\n  rest: draw_pile\n  draw_pile: ["
        + ", ".join(
            ["d100"] * 12
            + ["roll"] * 14
            + ["d75"] * 10
            + ["d50"] * 10
            + ["d25"] * 10
            + ["gasoline"] * 6
            + ["spare_tire"] * 6
            + ["repairs"] * 6
            + ["end_of_limit"] * 6
            + ["stop"] * 5
        )
        + "]\n"
        + steps("expect: {turn: p1}"),
    )
    assert res.errors and "too few to deal" in res.errors[0].message, res.lines()
    del cards


def test_show_writes_values_as_in_a_scenario():
    assert rp.show(None) == "null" and rp.show(True) == "true" and rp.show(["a", "b"]) == "[a, b]"
