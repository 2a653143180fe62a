"""``simulate`` reports 95% intervals and writes one record per game with ``--out FILE``."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mbrules.cli.app import app


def run(*args: str):
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output
    return result


def test_simulate_json_gives_each_figure_an_interval_around_it_the_same_for_any_workers():
    docs = [json.loads(run("simulate", "--games", "16", "--workers", w, "--json").stdout) for w in ("1", "2")]
    for doc in docs:
        ci = doc["ci95"]
        for key in (
            "mean_hands_per_game",
            "mean_turns_per_hand",
            "trip_completed_share",
            "coups_fourres_per_hand",
            "mean_points_per_hand_and_side",
        ):
            lo, hi = ci[key]
            assert lo <= doc[key] <= hi, key
        for side, (lo, hi) in ci["win_share"].items():
            assert 0 <= lo <= doc["wins"][side] / doc["games"] <= hi <= 1
    assert docs[0]["ci95"] == docs[1]["ci95"]


def test_simulate_table_shows_the_intervals():
    res = run("simulate", "--games", "6")
    assert res.exit_code == 0 and "95% interval" in res.stdout and "Wilson" in res.stdout


def test_simulate_out_jsonl_writes_a_match_a_line_and_csv_a_hand_a_row(tmp_path):
    res = run("simulate", "--games", "7", "--workers", "2", "--out", str(tmp_path / "g.jsonl"), "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    recs = [json.loads(x) for x in (tmp_path / "g.jsonl").read_text().splitlines()]
    assert [r["match"] for r in recs] == list(range(7))
    assert sum(r["hands_played"] for r in recs) == doc["hands"]
    assert sum(r["turns"] for r in recs) == doc["turns"]
    res = run("simulate", "--games", "7", "--out", str(tmp_path / "h.csv"))
    assert res.exit_code == 0
    rows = (tmp_path / "h.csv").read_text().splitlines()
    assert rows[0].startswith("arm,match,kind,seed,") and len(rows) - 1 == doc["hands"]


def test_simulate_out_refuses_another_suffix_an_existing_link_and_an_input(tmp_path):
    res = run("simulate", "--games", "2", "--out", str(tmp_path / "g.txt"))
    assert res.exit_code == 2 and ".jsonl" in res.output
    (tmp_path / "target.jsonl").write_text("keep")
    (tmp_path / "l.jsonl").symlink_to(tmp_path / "target.jsonl")
    res = run("simulate", "--games", "2", "--out", str(tmp_path / "l.jsonl"))
    assert res.exit_code == 2 and (tmp_path / "target.jsonl").read_text() == "keep"
