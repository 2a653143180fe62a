"""Report folders of ``compare --out DIR`` and ``sweep --out DIR`` (issue 33 items 10 and 11): a run stopped
before any match finished leaves DIR as it was (it used to replace a good report with an empty one,
``"pairs": 0``); a folder holding another command's report is refused, never mixed with it."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from typer.testing import CliRunner

runner = CliRunner()

COMPARE = [
    "compare",
    "winning-moves",
    "--option-b",
    "hazard-on-hazard",
    "-p",
    "2",
    "--games",
    "4",
    "--skill-games",
    "0",
    "--bot",
    "random",
    "--workers",
    "1",
    "--no-charts",
]
SWEEP = [
    "sweep",
    "winning-moves",
    "-p",
    "2",
    "--games",
    "4",
    "--set",
    "player_counts.2.target=500,900",
    "--bot",
    "random",
    "--workers",
    "1",
    "--no-charts",
]


def _app():
    from mbrules.cli.app import app

    return app


def _snapshot(d: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


def _report(d: Path, names: tuple[str, ...]) -> dict:
    d.mkdir()
    for name in names:
        (d / name).write_text(f"a good earlier report: {name}\n")
    (d / "notes.txt").write_text("the user's own file\n")
    return _snapshot(d)


COMPARE_FILES = ("compare.json", "index.html", "matches.jsonl", "matches.csv", "hands.csv")
SWEEP_FILES = ("sweep.json", "index.html", "points.csv")


@pytest.mark.parametrize("command", ["compare", "sweep"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_run_stopped_before_any_match_finished_leaves_the_report_folder_as_it_was(
    command, signum, tmp_path, monkeypatch
):
    from mbrules.compare import run as compare_run
    from mbrules.sweep import run as sweep_run

    d = tmp_path / "report"
    before = _report(d, COMPARE_FILES if command == "compare" else SWEEP_FILES)
    real = compare_run.run_arms  # the public runner of arms both commands call (mbrules.matches.arms)

    def signalled_first(*a, **k):  # Ctrl-C (or SIGTERM) as the first match starts
        os.kill(os.getpid(), signum)
        return real(*a, **k)

    monkeypatch.setattr(compare_run, "run_arms", signalled_first)
    monkeypatch.setattr(sweep_run, "run_arms", signalled_first)
    res = runner.invoke(_app(), (COMPARE if command == "compare" else SWEEP) + ["--out", str(d)])
    assert res.exit_code == 128 + signum, (res.exit_code, res.output[-1500:], res.exception)
    assert _snapshot(d) == before
    assert f"{d} is left as it was" in res.output
    assert "Report written" not in res.output


@pytest.mark.parametrize("first,then", [("compare", "sweep"), ("sweep", "compare")])
def test_a_folder_holding_another_commands_report_is_refused_not_mixed(first, then, tmp_path):
    """sweep --out DIR over a compare report used to write sweep's files beside compare's (index.html
    replaced, compare.json and the records left): a folder of two half reports."""
    d = tmp_path / "report"
    args = {"compare": COMPARE, "sweep": SWEEP}
    made = runner.invoke(_app(), args[first] + ["--out", str(d)])
    assert made.exit_code == 0, made.output[-1500:]
    (d / "notes.txt").write_text("the user's own file\n")
    before = _snapshot(d)
    res = runner.invoke(_app(), args[then] + ["--out", str(d)])
    assert res.exit_code == 2, (res.exit_code, res.output[-1500:])
    assert f"it holds a report of mbrules {first}" in res.output
    assert _snapshot(d) == before
    again = runner.invoke(_app(), args[first] + ["--out", str(d)])  # the same command replaces its own report
    assert again.exit_code == 0, again.output[-1500:]
