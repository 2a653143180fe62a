"""``mbrules sweep`` through the real command: the table, --json points, --out, --target, paired
seeds, every value checked before any match (a hostile table of bad input), Ctrl-C."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

from mbrules.cli.app import app
from mbrules.matches.metrics import METRICS
from procs import needs_proc, wait_cpu, wait_workers

# 6 matches a value: the module report's table, intervals, target and files are checked, not its figures (12
# were 0.2 CPU-s more; issue 46 point 7); the refusals come before any match
FAST = ["-p", "2", "--games", "6", "--workers", "1"]
TRIP = "player_counts.2.target=500,900"


def run(*args: str):
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output
    return result


def needs_plots() -> None:
    pytest.importorskip("matplotlib", reason="the plots extra (pip install 'mbrules[plots]') is not installed")


ONE_WORKER_FIXTURES = ("report",)  # computed once under make test's workers (tests/conftest.py)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    needs_plots()  # the report's charts
    out = tmp_path_factory.mktemp("sweep") / "report"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")  # a file of the user's, kept (and by a second report)
    res = run("sweep", "winning-moves", *FAST, "--set", TRIP, "--target", "turns_per_hand=50", "--out", str(out))
    assert res.exit_code == 0, res.output
    return res, out


def test_the_table_names_each_value_with_the_curve_metrics_and_intervals(report):
    res, _ = report
    out = res.output
    assert "player_counts.2.target" in out and "Turns per hand" in out and "Hands per match" in out
    rows = [line for line in out.splitlines() if line.startswith("│ 500") or line.startswith("│ 900")]
    assert len(rows) == 2 and all("[" in r for r in rows)


def test_the_report_folder_holds_index_html_charts_csv_and_json_points(report):
    _, out = report
    assert sorted(p.name for p in out.iterdir()) == [
        "index.html",
        "notes.txt",
        "points.csv",
        "response.png",
        "response.svg",
        "sweep.json",
    ]
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"
    ElementTree.parse(out / "response.svg")
    assert (out / "response.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    doc = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert [p["value"] for p in doc["points"]] == [500, 900]
    for p in doc["points"]:
        assert p["matches"] == 6 and p["values"] == {"player_counts.2.target": p["value"]}
        assert set(p["metrics"]) == {m.key for m in METRICS}
        tph = p["metrics"]["turns_per_hand"]
        assert tph["ci95"][0] <= tph["value"] <= tph["ci95"][1]
    rows = (out / "points.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("player_counts.2.target,metric,value,ci95_low,ci95_high")
    assert len(rows) == 1 + 2 * len(METRICS)


def test_index_html_puts_the_headline_and_the_curve_before_the_tables(report):
    _, out = report
    page = (out / "index.html").read_text(encoding="utf-8")
    head, chart, table = page.index('<ul class="head">'), page.index("<svg"), page.index("<table")
    assert head < chart < table
    assert "Target Turns per hand = 50.0" in page


def test_target_names_the_values_whose_interval_holds_it_and_the_closest(report):
    _, out = report
    doc = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    t = doc["target"]
    by_label = {p["label"]: p["metrics"]["turns_per_hand"] for p in doc["points"]}
    assert t["held_by"] == [lab for lab, m in by_label.items() if m["ci95"][0] <= 50 <= m["ci95"][1]]
    assert t["closest"] == min(by_label, key=lambda lab: abs(by_label[lab]["value"] - 50))


def test_each_value_plays_the_same_seeds_as_that_ruleset_written_as_a_file(tmp_path, play_arm):
    """The value patched in memory is the file with that value: same matches, same figure."""
    opt = tmp_path / "trip900.yaml"
    opt.write_text('kind: option\nid: trip900\nname: trip 900\nplayer_counts: {"2": {target: 900}}\n', encoding="utf-8")
    res = run(
        "sweep",
        "winning-moves",
        "-p",
        "2",
        "--games",
        "6",
        "--workers",
        "1",
        "--seed",
        "3",
        "--set",
        "player_counts.2.target=500,900",
        "--json",
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    arm = play_arm("winning-moves", [str(opt)], 2, 6, 3)
    turns = sum(r.turns for r in arm.records) / sum(r.hands_played for r in arm.records)
    assert doc["points"][1]["metrics"]["turns_per_hand"]["value"] == pytest.approx(turns, rel=1e-6)


def test_the_figures_do_not_depend_on_the_number_of_workers():
    docs = []
    for w in ("1", "2"):
        res = run("sweep", "winning-moves", "-p", "2", "--games", "6", "--workers", w, "--set", TRIP, "--json")
        assert res.exit_code == 0, res.output
        docs.append(json.loads(res.stdout)["points"])
    assert docs[0] == docs[1]


def test_several_set_move_together_point_by_point():
    res = run(
        "sweep",
        "winning-moves",
        "-p",
        "2",
        "--games",
        "4",
        "--workers",
        "1",
        "--json",
        "--set",
        "match.target_points=1000,3000",
        "--set",
        "player_counts.2.extension_to=800,1200",
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert [p["values"] for p in doc["points"]] == [
        {"match.target_points": 1000, "player_counts.2.extension_to": 800},
        {"match.target_points": 3000, "player_counts.2.extension_to": 1200},
    ]


HOSTILE = [
    (["--set", "player_counts.2.target=1200"], "a sweep needs at least two"),
    (["--set", "player_counts.2.target=900..500"], "is empty"),
    (["--set", "player_counts.2.target=1..100000"], "more than 50"),
    (["--set", "player_counts.2.target=1..100:0"], "step"),
    (["--set", "player_counts.2.target=1..99999999999999999999"], "out of range"),
    (["--set", "player_counts.2.target=5e400,1"], "out of range"),
    (["--set", "player_counts.2.target=,"], "empty value"),
    (["--set", "player_counts.2.target="], "no values"),
    (["--set", "player_counts.2.target=500,500"], "given twice"),
    (["--set", "player_counts.2.target"], "write PATH=VALUES"),
    (["--set", "=1,2"], "is not a path"),
    (["--set", "player_counts.2.tagret=1,2"], "did you mean player_counts.2.target"),
    (["--set", "player_counts.3.target=500,600"], "for 3 players"),
    (["--set", "player_counts.2.target=500,abc"], "--set player_counts.2.target=abc: expected an integer"),
    (["--set", "player_counts.2.target=500,1200"], "--set player_counts.2.target=1200: extension_to (1000) must be"),
    (["--set", "scoring.safe_trip=1,2", "--set", "cards.stop.count=1,2,3"], "as many values each"),
    (["--set", "scoring.safe_trip=1,2", "--set", "scoring.safe_trip=3,4"], "given twice"),
    (["--set", "scoring.safe_trip=1,2", "--metric", "nope"], "no such metric"),
    (["--set", "scoring.safe_trip=1,2", "--target", "turns_per_hand=lots"], "is not a number"),
    (["--set", "scoring.safe_trip=1,2", "--target", "nope=3"], "write METRIC=VALUE"),
    (["--set", "scoring.safe_trip=\x1b[31m,2"], "expected an integer"),
    ([], "give --set"),
]


@pytest.mark.parametrize("args,words", HOSTILE, ids=[" ".join(a) or "none" for a, _ in HOSTILE])
def test_bad_input_is_refused_before_any_match_with_exit_2_and_no_report(tmp_path, args, words):
    out = tmp_path / "r"
    res = run("sweep", "winning-moves", *FAST, *args, "--out", str(out))
    assert res.exit_code == 2, res.output
    assert words in res.output
    assert "\x1b[31m" not in res.output
    assert not out.exists()


def test_an_output_folder_that_is_a_link_is_refused_before_any_match(tmp_path):
    (tmp_path / "dir").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "dir")
    res = run("sweep", "winning-moves", *FAST, "--set", TRIP, "--out", str(tmp_path / "link"))
    assert res.exit_code == 2 and not list((tmp_path / "dir").iterdir())


@pytest.mark.slow
def test_sweeping_the_2_player_trip_lengthens_hands_with_a_trend_test():
    res = run(
        "sweep", "winning-moves", "-p", "2", "--games", "60", "--set", "player_counts.2.target=500..900:200", "--json"
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    trend = {t["metric"]: t for t in doc["trend"]}["turns_per_hand"]
    assert trend["flagged"] and trend["ci95"][0] > 0
    values = [p["metrics"]["turns_per_hand"]["value"] for p in doc["points"]]
    assert values == sorted(values)


@pytest.mark.slow
@pytest.mark.long
@needs_proc
def test_ctrl_c_keeps_the_seeds_every_value_finished_reports_interrupted_and_exits_130(tmp_path):
    import signal

    exe = Path(sys.executable).with_name("mbrules")
    proc = subprocess.Popen(
        [
            str(exe),
            "sweep",
            "winning-moves",
            "-p",
            "2",
            "--games",
            "100000",
            "--workers",
            "2",
            "--set",
            TRIP,
            "--json",
            "--out",
            str(tmp_path / "r"),
            "--no-charts",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ},
    )
    wait_cpu(wait_workers(proc), 2.0, proc)  # both workers into the matches (a 15 s sleep burnt 20 CPU-s)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted (SIGINT)" in err
    doc = json.loads(out)
    assert doc["interrupted"] is True and 0 < doc["matches_per_value"] < 100000
    assert all(p["matches"] == doc["matches_per_value"] for p in doc["points"])
    saved = json.loads((tmp_path / "r" / "sweep.json").read_text(encoding="utf-8"))
    assert saved["interrupted"] is True and saved["matches_per_value"] == doc["matches_per_value"]


def test_values_that_are_not_numbers_get_no_slope_and_their_steps_in_words():
    res = run(
        "sweep",
        "winning-moves",
        "-p",
        "2",
        "--games",
        "6",
        "--workers",
        "1",
        "--json",
        "--set",
        "play.hazard_on_hazard=false,true",
    )
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["trend"] == [] and [p["value"] for p in doc["points"]] == [False, True]
    turns = next(x["text"] for x in doc["summary"] if x["metric"] == "turns_per_hand")
    assert turns.startswith("Turns per hand: ") and "from false to true (paired by seed)" in turns
    assert doc["points"][1]["metrics"]["turns_per_hand"]["diff_prev_ci95"] is not None


COMMAND_ROWS = [
    (["sweep", "no-such-ruleset", "--set", TRIP], 2, "no-such-ruleset"),
    (["sweep", "winning-moves", "--option", "no-such-option", "--set", TRIP], 2, "no-such-option"),
    (["sweep", "winning-moves", "--set", "name=a,b"], 2, "is not a rule value"),
    (["sweep", "winning-moves", "--set", "extends=a,b"], 2, "is not a rule value"),
    (["sweep", "winning-moves", "--set", TRIP, "--games", "1"], 2, "--games"),
    (["sweep", "winning-moves", "--set", TRIP, "--bot", "nobody"], 2, "nobody"),
    (["sweep", "winning-moves", "--set", TRIP, "--out", " "], 2, "--out needs a folder name"),
    (["sweep", "winning-moves", "--set", TRIP, "-p", "3"], 2, "for 2 players and the sweep plays 3"),
]


@pytest.mark.parametrize("args,code,words", COMMAND_ROWS, ids=[" ".join(a[1:]) for a, _, _ in COMMAND_ROWS])
def test_a_bad_ruleset_option_or_flag_is_refused_with_its_exit_code_and_a_sentence(args, code, words):
    res = run(*args, "-w", "1")
    assert res.exit_code == code, res.output
    assert words in res.output


def test_the_report_folder_may_not_be_an_input_file(tmp_path):
    rules = tmp_path / "mine.yaml"
    rules.write_text("extends: winning-moves\nid: mine\nname: Mine\n", encoding="utf-8")
    res = run("sweep", str(rules), *FAST, "--set", TRIP, "--out", str(rules))
    assert res.exit_code == 2, res.output
    assert rules.read_text(encoding="utf-8").startswith("extends: winning-moves")


def test_a_second_report_without_charts_removes_the_old_charts_and_keeps_the_users_files(tmp_path, report):
    """The first report is a copy of the module's (its charts drawn beside the user's notes.txt): drawing
    the charts of a report of its own cost 0.7 CPU-s (matplotlib; issue 46 point 7)."""
    import shutil

    out = tmp_path / "r"
    shutil.copytree(report[1], out)
    assert (out / "response.svg").exists() and (out / "notes.txt").exists()
    assert (
        run("sweep", "winning-moves", *FAST, "--games", "4", "--set", TRIP, "--out", str(out), "--no-charts").exit_code
        == 0
    )
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "notes.txt", "points.csv", "sweep.json"]
    assert (out / "notes.txt").read_text(encoding="utf-8") == "mine"


@pytest.mark.parametrize(
    "target,words",
    [
        ("first_side_win_share=-5", "give a percentage from 0 to 100"),
        ("first_side_win_share=150", "give a percentage from 0 to 100"),
        ("draw_share=100.5%", "give a percentage from 0 to 100"),
        ("turns_per_hand=50%", "only a share is given in percent"),
    ],
    ids=["minus-5", "150", "100.5-percent", "percent-on-a-count"],
)
def test_a_target_share_is_a_percentage_from_0_to_100_else_refused_before_any_match(tmp_path, target, words):
    out = tmp_path / "r"
    res = run("sweep", "winning-moves", *FAST, "--set", TRIP, "--target", target, "--out", str(out))
    assert res.exit_code == 2, res.output
    assert words in res.output and not out.exists()


def test_a_target_share_means_percent_whatever_its_size():
    """=1 is 1% and =2 is 2% (=1 used to mean 100%, =2 2%); =55% is 55%."""
    from mbrules.sweep.run import parse_target

    assert parse_target("first_side_win_share=1") == ("first_side_win_share", 0.01)
    assert parse_target("first_side_win_share=2") == ("first_side_win_share", 0.02)
    assert parse_target("first_side_win_share=55%") == ("first_side_win_share", 0.55)
    assert parse_target("first_side_win_share=0.5") == ("first_side_win_share", 0.005)
    assert parse_target("turns_per_hand=60") == ("turns_per_hand", 60.0)
