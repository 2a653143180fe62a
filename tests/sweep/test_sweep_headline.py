"""sweep opens with at most three sentences a player reads (issue 34): the swept value named as a player names
it ("the 2-player trip", not its path), sides as written ("side A"), each sentence with its certainty word, and
every line within the terminal's width."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mbrules import load_game
from mbrules.cli.app import app
from mbrules.sweep.headline import lower_first, path_words

CERTAINTY = ("clearly", "probably", "not shown")


@pytest.mark.parametrize(
    "parts, words",
    [
        (("player_counts", "2", "target"), "the 2-player trip"),
        (("player_counts", "*", "target"), "the trip"),
        (("player_counts", "3", "extension_to"), "the 3-player extension"),
        (("cards", "stop", "count"), "the number of Stop! cards"),
        (("match", "target_points", "value"), "the match's target score"),
        (("scoring", "safe_trip", "value"), "the safe trip bonus"),
        (("play", "hazard_on_hazard", "value"), "a hazard may cover another hazard"),
    ],
)
def test_a_swept_value_is_named_as_a_player_names_it(parts, words):
    assert path_words(parts, load_game("winning-moves", 2).ruleset) == words


def test_a_metric_inside_a_sentence_keeps_its_side_letter():
    assert (
        lower_first("Who wins: matches won by side A (the first seat's)")
        == "who wins: matches won by side A (the first seat's)"
    )


@pytest.fixture(scope="module")
def trip_sweep(tmp_path_factory):
    """The terminal's text and the sweep's document of one sweep: the text on stdout, the document in its
    report folder's sweep.json (the bytes ``--json`` prints: cli/reports.py end_run and mbrules/sweep/report.py
    write the same ``sw.document()``). Issue 46 point 7: a second sweep for ``--json`` played its 60 matches
    again."""
    out = tmp_path_factory.mktemp("trip") / "report"
    args = [
        "sweep",
        "winning-moves",
        "-p",
        "2",
        "--games",
        "30",
        "--workers",
        "1",
        "--set",
        "player_counts.2.target=500,900",
        "--metric",
        "first_side_win_share",
        "--metric",
        "turns_per_hand",
    ]
    text = CliRunner().invoke(app, [*args, "--out", str(out), "--no-charts"], env={"COLUMNS": "80"})
    assert text.exit_code == 0, text.output
    return text.stdout, json.loads((out / "sweep.json").read_text(encoding="utf-8"))


def test_the_headline_names_the_trip_in_words_with_a_certainty_word(trip_sweep):
    text, doc = trip_sweep
    head = doc["headline"]
    assert 1 <= len(head) <= 3
    assert head[0].startswith("Clearly, hands get about") and "as the 2-player trip goes 500 → 900" in head[0]
    for line in head:
        assert line.split(",")[0].split(":")[0].lower() in CERTAINTY, line
        assert "player_counts" not in line and "side a" not in line
    # the terminal opens with the same sentences, wrapped between words at 80 columns
    assert " ".join(" ".join(text.splitlines()[:12]).split()).count(head[0]) == 1
    assert max(len(x) for x in text.splitlines()) <= 80
    assert "side a " not in text and "matches a value" not in text
    assert any("matches won by side A" in x["text"] for x in doc["summary"] if x["metric"] == "point")


def test_a_rule_turned_on_is_said_so_and_a_target_names_its_closest_value():
    res = CliRunner().invoke(
        app,
        [
            "sweep",
            "winning-moves",
            "-p",
            "2",
            "--games",
            "12",
            "--workers",
            "1",
            "--json",
            "--set",
            "play.hazard_on_hazard=false,true",
        ],
    )
    head = json.loads(res.stdout)["headline"]
    assert "with “a hazard may cover another hazard” turned on" in head[0] and "false → true" not in head[0]
    res = CliRunner().invoke(
        app,
        [
            "sweep",
            "winning-moves",
            "-p",
            "2",
            "--games",
            "12",
            "--workers",
            "1",
            "--json",
            "--set",
            "match.target_points=2000,5000",
            "--target",
            "hands_per_match=99",
        ],
    )
    head = json.loads(res.stdout)["headline"]
    assert head[0].startswith("Not shown: no value of the match's target score gives 99.0 hands; the closest is ")
    assert "match.target_points" not in head[0]
