"""The bundled cycling example (examples/stap-op.yaml): validates, shows, diffs, plays, records,
replays and simulates; distances shown in its unit (km)."""

from __future__ import annotations

import json

from authoring_helpers import ROOT, run

EXAMPLE = ROOT / "examples" / "stap-op.yaml"


def test_cycling_example_validates():
    result = run("validate", EXAMPLE)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"OK {EXAMPLE}"


def test_cycling_example_shows_in_km_with_its_new_cards():
    result = run("show", EXAMPLE, "-p", "2", columns=240)  # each fact on one line, whatever its length
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Hongerklop (Bonk): fixed by Krentenbol (Snack); prevented by Energiereep (Energy Bar)" in out
    assert "target: 140 km" in out and "extension: to 200 km" in out
    assert "Out of Gas" not in out and "(uncited)" not in out
    assert "deck: 101 cards (5 removed before the deal)" in out


def test_cycling_example_diffs_against_its_parent():
    result = run("diff", "winning-moves", EXAMPLE, "--exit-code")
    assert result.exit_code == 1  # they differ
    assert "25 Miles: miles: 25 → 5" in result.stdout  # a card by its name (the first ruleset's), not its id
    assert "distances are counted in: miles → km" in result.stdout


def test_cycling_example_plays_records_and_replays(tmp_path):
    """The app in this process, as the tests above (two processes were 2.4 CPU-s of Python starting; the
    command as a process of its own is test_startup_signals' and test_cli_polish's, and test_scenario_record's
    play --record then replay)."""
    record = tmp_path / "race.yaml"
    play = run("play", "--ruleset", EXAMPLE, "-p", "4", "--seed", "3", "--record", record)
    assert play.exit_code == 0, play.output
    assert " km" in play.stdout and " miles" not in play.stdout
    replay = run("replay", record)
    assert replay.exit_code == 0, replay.output
    assert replay.stdout.strip().endswith("passed, 0 failed")


def test_cycling_example_simulates():
    """In this process too: the example's rules are what is checked here, not the command's process (a
    process of its own was 0.8 of the test's 1.0 CPU-s; issue 46 point 7)."""
    result = run("simulate", "--ruleset", EXAMPLE, "--games", "20", "-p", "4", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["games"] == 20 and doc["settings"]["ruleset_id"] == "stap-op"
    assert doc["wins"]["A"] + doc["wins"]["B"] + doc["draws"] + doc["unfinished"] == 20
