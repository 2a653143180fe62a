"""Words a newcomer reads (issue 29 item 4): one of a thing is singular, and the score sheet's points
for distance cannot be taken for the distance travelled."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

import mbrules
from mbrules.cli.app import app
from mbrules.text import plural

ROOT = Path(__file__).resolve().parents[1]


def test_plural_is_singular_for_one_only():
    assert [plural(n, "card") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert plural(1, "match", "matches") == "1 match" and plural(3, "match", "matches") == "3 matches"


def test_one_hand_played_is_said_in_the_singular():
    res = CliRunner().invoke(app, ["play", "--seed", "7", "--hands", "1"])
    assert res.exit_code == 0, res.output
    assert "Stopped after 1 hand with the match undecided" in res.output
    assert "1 hands" not in res.output and "(s)" not in res.output


def test_an_outcome_after_one_hand_says_hand():
    game = mbrules.load_game("kids-115", players=2)  # one hand, most points wins
    state = game.new_match(seed=3)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert len(state.outcome.hand_sheets) == 1
    assert repr(state.outcome).endswith("after 1 hand>")


def test_the_score_sheet_names_points_for_distance_apart_from_the_distance_travelled():
    res = CliRunner().invoke(app, ["play", "--seed", "7", "--hands", "1"])
    labels = [line.split("│")[1].strip() for line in res.output.splitlines() if line.startswith("│")]
    assert "Points for distance" in labels and "Miles travelled" in labels
    assert "Milestones" not in labels and "Miles" not in labels


def test_the_score_lines_json_names_stay_the_contracts():
    res = CliRunner().invoke(app, ["play", "--seed", "7", "--hands", "1", "--json"])
    doc = json.loads(res.output)
    assert "milestones" in json.dumps(doc) and "Points for distance" not in json.dumps(doc)


def test_no_user_facing_message_writes_a_plural_with_parentheses():
    """'player(s)', 'hand(s)': every count goes through plural() instead."""
    found = []
    for path in (
        sorted((ROOT / "cli").glob("*.py"))
        + sorted((ROOT / "mbrules" / "tui").glob("*.py"))
        + [ROOT / "mbrules" / "narrate.py"]
    ):
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"""f["'].*\w\(s\)""", line):
                found.append(f"{path.relative_to(ROOT)}:{no}")
    assert found == []
