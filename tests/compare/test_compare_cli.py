"""``mbrules compare`` from the command line: table, --json, --out DIR, bad input, determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

pytest.importorskip("matplotlib", reason="the plots extra (pip install 'mbrules[plots]') is not installed")

from mbrules.cli.app import app  # noqa: E402
from procs import needs_proc, wait_cpu, wait_workers  # noqa: E402
from mbrules.matches.metrics import METRICS

pytestmark = (
    pytest.mark.slow
)  # plays hundreds of paired matches and starts real processes: make test-fast leaves it out

# cheap lineups everywhere (the expert's matches take seconds): random for the robustness check,
# a two-rung ladder
FAST = [
    "--games",
    "12",
    "--skill-games",
    "6",
    "--robust-games",
    "4",
    "--bots",
    "random",
    "--rung",
    "random",
    "--rung",
    "heuristic",
    "--workers",
    "1",
]


def run(*args: str):
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output
    return result


ONE_WORKER_FIXTURES = ("report",)  # computed once under make test's workers (tests/conftest.py)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp") / "report"
    res = run(
        "compare",
        "winning-moves",
        "winning-moves",
        "--option-b",
        "hazard-on-hazard",
        "--players",
        "4",
        *FAST,
        "--out",
        str(out),
    )
    assert res.exit_code == 0, res.output
    return res, out


def test_done_when_command_prints_the_table_and_writes_charts_and_index_html(report):
    res, out = report
    for name in ("Turns per hand", "Hands whose trip is completed", "Comebacks"):
        assert name in res.stdout
    assert "The rule change: a hazard may cover another hazard: no → yes" in res.stdout
    assert "Holm" in res.stdout
    names = {p.name for p in out.iterdir()}
    assert {
        "index.html",
        "compare.json",
        "distributions.png",
        "distributions.svg",
        "differences.png",
        "differences.svg",
        "matches.jsonl",
        "matches.csv",
        "hands.csv",
    } <= names
    assert not [n for n in names if n.endswith(".tmp")]


def test_index_html_is_self_contained_with_charts_and_the_table(report):
    _, out = report
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 2 and "<table>" in page and "trip_completed_share" in page
    # the first screen: the rule in words, then the effects, before any chart or table
    assert (
        page.index("a hazard may cover another hazard: no → yes")
        < page.index("What it does to play")
        < page.index("<svg")
        < page.index("Every metric")
    )
    assert "Wilson" not in page[: page.index("<svg")]  # the method is at the bottom
    for ref in ('src="http', "src='http", 'href="http', "<script src", "<link "):
        assert ref not in page  # opens offline: nothing fetched


def test_charts_render_as_png_and_well_formed_svg(report):
    _, out = report
    for name in ("distributions", "differences"):
        png = (out / f"{name}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
        ElementTree.fromstring((out / f"{name}.svg").read_text(encoding="utf-8"))
    svg = (out / "distributions.svg").read_text(encoding="utf-8")
    assert "Hand length" in svg and "Points per hand and side" in svg and "Match length" in svg


def test_json_holds_every_metric_with_a_b_diff_and_ci95(tmp_path):
    res = run("compare", "winning-moves", "--option-b", "hazard-on-hazard", *FAST, "--json")
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert set(doc["metrics"]) == {m.key for m in METRICS}
    for key, m in doc["metrics"].items():
        assert {"a", "b", "diff", "ci95", "flagged", "method"} <= set(m), key
    assert doc["settings"]["b"]["options"] == ["hazard-on-hazard"] and doc["settings"]["a"]["options"] == []
    assert "Holm" in doc["method"] and "Wilson" in doc["method"]
    assert doc["rule_changes"] == ["a hazard may cover another hazard: no → yes"]
    assert doc["summary"] and all(set(x) == {"metric", "text"} and x["text"] for x in doc["summary"])
    for key in doc["flagged"]:
        assert doc["metrics"][key]["robust"] in (True, False)  # every flagged metric measured with random too
    for key, m in doc["metrics"].items():
        assert ("robust" in m) == m["flagged"], key


def test_terminal_headline_and_json_summary_are_the_same_sentences_in_the_same_order():
    res = run("compare", "winning-moves", "--option-b", "hazard-on-hazard", *FAST)
    doc = json.loads(run("compare", "winning-moves", "--option-b", "hazard-on-hazard", *FAST, "--json").stdout)
    printed = [line[2:] for line in res.stdout.replace("\n ", " ").splitlines() if line.startswith("- ")]
    assert [" ".join(t.split()) for t in printed] == [" ".join(x["text"].split()) for x in doc["summary"]]


def test_per_game_export_has_one_line_per_match_and_one_row_per_hand(report):
    _, out = report
    lines = (out / "matches.jsonl").read_text(encoding="utf-8").splitlines()
    recs = [json.loads(x) for x in lines]
    assert len(recs) == 2 * 12
    assert {(r["arm"], r["kind"]) for r in recs} == {("A", "main"), ("B", "main")}
    hands = (out / "hands.csv").read_text(encoding="utf-8").splitlines()
    assert len(hands) - 1 == sum(len(r["hands"]) for r in recs)
    assert len((out / "matches.csv").read_text(encoding="utf-8").splitlines()) - 1 == len(recs)
    a_seeds = [r["seed"] for r in recs if r["arm"] == "A" and r["kind"] == "main"]
    b_seeds = [r["seed"] for r in recs if r["arm"] == "B" and r["kind"] == "main"]
    assert a_seeds == b_seeds  # paired: the same seeds in both arms


def test_figures_are_the_same_for_any_number_of_workers():
    args = ["compare", "winning-moves", "--option-b", "hazard-on-hazard", *FAST[:-2], "--json"]
    one = json.loads(run(*args, "--workers", "1").stdout)
    two = json.loads(run(*args, "--workers", "2").stdout)
    for key in ("metrics", "summary", "ladder", "restricted"):
        assert one[key] == two[key], key


@pytest.mark.parametrize(
    "args, words",
    [
        (["no-such-ruleset"], "no-such-ruleset"),
        (["winning-moves", "--option-b", "no-such-option"], "no-such-option"),
        (["winning-moves", "--bot", "nobody"], "unknown bot"),
        (["winning-moves", "--bots", "nobody"], "unknown bot"),
        (["winning-moves", "--rung", "nobody"], "unknown bot"),
        (["winning-moves", "--out", ""], "--out"),
        (["winning-moves", "--skill-games", "1"], "--skill-games"),
        (["winning-moves", "--games", "1"], "--games"),
        (["winning-moves", "--players", "9"], "9"),
    ],
)
def test_bad_input_is_a_usage_error_with_a_sentence(args, words):
    res = run("compare", *args)
    assert res.exit_code == 2, res.output
    assert words in res.output


def test_out_that_is_a_file_or_a_link_is_refused_before_any_match(tmp_path):
    f = tmp_path / "file"
    f.write_text("keep")
    res = run("compare", "winning-moves", *FAST, "--out", str(f))
    assert res.exit_code == 2 and "not a folder" in res.output and f.read_text() == "keep"
    (tmp_path / "dir").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "dir")
    res = run("compare", "winning-moves", *FAST, "--out", str(tmp_path / "link"))
    assert res.exit_code == 2 and not list((tmp_path / "dir").iterdir())


def test_without_matplotlib_the_command_says_how_to_install_it(tmp_path):
    blocker = tmp_path / "block"
    blocker.mkdir()
    (blocker / "matplotlib.py").write_text("raise ImportError('blocked for the test')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(Path(__file__).resolve().parents[2])])}
    exe = Path(sys.executable).with_name("mbrules")
    from mbrules._paths import install_hint  # this checkout's form: pip install -e '.[plots]'

    res = subprocess.run(
        [str(exe), "compare", "winning-moves", *FAST, "--out", str(tmp_path / "r")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert res.returncode == 2 and install_hint("plots") in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "r").exists()
    res = subprocess.run(
        [str(exe), "compare", "winning-moves", *FAST, "--out", str(tmp_path / "r"), "--no-charts"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "r" / "index.html").exists() and not (tmp_path / "r" / "differences.png").exists()


@pytest.mark.slow
@needs_proc
def test_ctrl_c_keeps_the_pairs_both_arms_finished_reports_interrupted_and_exits_130(tmp_path):
    import signal

    exe = Path(sys.executable).with_name("mbrules")
    proc = subprocess.Popen(
        [
            str(exe),
            "compare",
            "winning-moves",
            "--games",
            "100000",
            "--workers",
            "2",
            "--skill-games",
            "0",
            "--json",
            "--out",
            str(tmp_path / "r"),
            "--no-charts",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_cpu(wait_workers(proc), 2.0, proc)  # both workers into the matches (polling for the spill cost 8 CPU-s)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted (SIGINT)" in err
    doc = json.loads(out)
    assert doc["interrupted"] is True and 0 < doc["pairs"] < 100000
    assert doc["metrics"]["turns_per_hand"]["a"] is not None
    saved = json.loads((tmp_path / "r" / "compare.json").read_text(encoding="utf-8"))
    assert saved["interrupted"] is True and saved["pairs"] == doc["pairs"]
    lines = (tmp_path / "r" / "matches.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 * doc["pairs"]  # whole pairs only


def test_the_two_inline_charts_share_no_id_and_every_reference_resolves(report):
    import re

    _, out = report
    page = (out / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    refs = set(re.findall(r'href="#([^"]+)"', page)) | set(re.findall(r"url\(#([^)]+)\)", page))
    assert refs <= set(ids)


@pytest.mark.parametrize("make", ["fifo", "symlink", "folder"])
def test_a_file_of_the_report_that_cannot_be_written_is_refused_before_any_match(tmp_path, make):
    out = tmp_path / "r"
    out.mkdir()
    (out / "mine.txt").write_text("the user's own file")
    target = out / "hands.csv"
    if make == "fifo":
        os.mkfifo(target)
    elif make == "symlink":
        (tmp_path / "elsewhere.csv").write_text("keep")
        target.symlink_to(tmp_path / "elsewhere.csv")
    else:
        target.mkdir()
    res = run("compare", "winning-moves", *FAST, "--out", str(out), "--no-charts")
    assert res.exit_code == 2, res.output
    assert "hands.csv" in res.output and "Turns per hand" not in res.output  # refused before the matches
    assert sorted(p.name for p in out.iterdir()) == ["hands.csv", "mine.txt"]
