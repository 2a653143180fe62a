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
from mbrules.compare.metrics import METRICS

pytestmark = pytest.mark.slow  # plays hundreds of paired matches and starts real processes: make test-fast leaves it out

FAST = ["--games", "12", "--skill-games", "6", "--workers", "1"]


def run(*args: str):
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output
    return result


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("cmp") / "report"
    res = run("compare", "winning-moves", "winning-moves", "--option-b", "hazard-on-hazard", "--players", "4",
              *FAST, "--out", str(out))
    assert res.exit_code == 0, res.output
    return res, out


def test_done_when_command_prints_the_table_and_writes_charts_and_index_html(report):
    res, out = report
    for key in ("turns_per_hand", "trip_completed_share", "skill_win_share", "comeback_share"):
        assert key in res.stdout
    assert "flagged" in res.stdout and "Holm" in res.stdout
    names = {p.name for p in out.iterdir()}
    assert {"index.html", "compare.json", "distributions.png", "distributions.svg", "differences.png",
            "differences.svg", "matches.jsonl", "matches.csv", "hands.csv"} <= names
    assert not [n for n in names if n.endswith(".tmp")]


def test_index_html_is_self_contained_with_charts_and_the_table(report):
    _, out = report
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 2 and "<table>" in page and "trip_completed_share" in page
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


def test_per_game_export_has_one_line_per_match_and_one_row_per_hand(report):
    _, out = report
    lines = (out / "matches.jsonl").read_text(encoding="utf-8").splitlines()
    recs = [json.loads(x) for x in lines]
    assert len(recs) == 2 * (12 + 6)
    assert {(r["arm"], r["kind"]) for r in recs} == {("A", "main"), ("B", "main"), ("A", "skill"), ("B", "skill")}
    hands = (out / "hands.csv").read_text(encoding="utf-8").splitlines()
    assert len(hands) - 1 == sum(len(r["hands"]) for r in recs)
    assert len((out / "matches.csv").read_text(encoding="utf-8").splitlines()) - 1 == len(recs)
    a_seeds = [r["seed"] for r in recs if r["arm"] == "A" and r["kind"] == "main"]
    b_seeds = [r["seed"] for r in recs if r["arm"] == "B" and r["kind"] == "main"]
    assert a_seeds == b_seeds  # paired: the same seeds in both arms


def test_figures_are_the_same_for_any_number_of_workers():
    one = json.loads(run("compare", "winning-moves", "--option-b", "hazard-on-hazard", "--games", "10",
                         "--skill-games", "4", "--workers", "1", "--json").stdout)
    two = json.loads(run("compare", "winning-moves", "--option-b", "hazard-on-hazard", "--games", "10",
                         "--skill-games", "4", "--workers", "2", "--json").stdout)
    assert one["metrics"] == two["metrics"]


@pytest.mark.parametrize("args, words", [
    (["no-such-ruleset"], "no-such-ruleset"),
    (["winning-moves", "--option-b", "no-such-option"], "no-such-option"),
    (["winning-moves", "--bot", "nobody"], "unknown bot"),
    (["winning-moves", "--strong-bot", "nobody"], "unknown bot"),
    (["winning-moves", "--games", "1"], "--games"),
    (["winning-moves", "--players", "9"], "9"),
])
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
    env = {**os.environ, "PYTHONPATH": str(blocker)}
    exe = Path(sys.executable).with_name("mbrules")
    res = subprocess.run([str(exe), "compare", "winning-moves", *FAST, "--out", str(tmp_path / "r")],
                         capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 2 and "pip install 'mbrules[plots]'" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "r").exists()
    res = subprocess.run([str(exe), "compare", "winning-moves", *FAST, "--out", str(tmp_path / "r"), "--no-charts"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "r" / "index.html").exists() and not (tmp_path / "r" / "differences.png").exists()


def test_ctrl_c_stops_the_workers_exits_130_and_writes_nothing(tmp_path):
    import signal
    import time

    exe = Path(sys.executable).with_name("mbrules")
    proc = subprocess.Popen([str(exe), "compare", "winning-moves", "--games", "100000", "--workers", "2",
                             "--out", str(tmp_path / "r")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(8)  # (on a loaded machine the command may still be importing: then it exits 130 quietly too)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert not (tmp_path / "r").exists()


def test_the_two_inline_charts_share_no_id_and_every_reference_resolves(report):
    import re

    _, out = report
    page = (out / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    refs = set(re.findall(r'href="#([^"]+)"', page)) | set(re.findall(r"url\(#([^)]+)\)", page))
    assert refs <= set(ids)
