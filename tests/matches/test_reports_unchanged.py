"""The reports of simulate, compare and sweep are byte-identical to those saved before the records and
the metrics were rebuilt (issue 37 item 2: one record type, one metric registry in ``mbrules.matches``).

The golden files in ``tests/data/golden/`` were written by the code before that change, on the small
fixed runs below (2 players, a few seeds, one worker); only the timings (``seconds``, ``*_per_second``)
are blanked, being the one thing that may differ between two runs of the same seeds. A report that
changes a name, a value, an order or a digit fails here. To write them again after a deliberate
change of a report: ``MBRULES_WRITE_GOLDEN=1 pytest tests/matches/test_reports_unchanged.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mbrules.cli.app import app

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
WRITE = os.environ.get("MBRULES_WRITE_GOLDEN") == "1"
TIMINGS = ("seconds", "hands_per_second", "turns_per_second")

SIMULATE = ["simulate", "-g", "6", "-s", "3", "-p", "2", "-w", "1", "--json"]
SIMULATE_4 = ["simulate", "-g", "3", "-s", "11", "-p", "4", "-w", "1", "--json"]
COMPARE = [
    "compare",
    "winning-moves",
    "--option-b",
    "cf-200",
    "-g",
    "8",
    "-s",
    "3",
    "-p",
    "2",
    "-w",
    "1",
    "--rung",
    "random",
    "--rung",
    "heuristic",
    "--skill-games",
    "4",
    "--restricted-games",
    "2",
    "--bots",
    "heuristic-2026",
    "--robust-games",
    "4",
    "--no-charts",
    "--json",
]
SWEEP = [
    "sweep",
    "winning-moves",
    "--set",
    "player_counts.2.target=500..700:200",
    "-g",
    "6",
    "-s",
    "3",
    "-w",
    "1",
    "--target",
    "turns_per_hand=60",
    "--no-charts",
    "--json",
]


def _blank_timings(doc):
    if isinstance(doc, dict):
        return {k: (None if k in TIMINGS else _blank_timings(v)) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_blank_timings(v) for v in doc]
    return doc


def _stdout_json(args: list[str]) -> bytes:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    text = result.stdout
    doc = json.loads(text)
    return (json.dumps(_blank_timings(doc), indent=2, ensure_ascii=False) + "\n").encode()


def _json_file(path: Path) -> bytes:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return (json.dumps(_blank_timings(doc), indent=2, ensure_ascii=False) + "\n").encode()


def _check(name: str, data: bytes) -> None:
    golden = GOLDEN / name
    if WRITE:
        golden.write_bytes(data)
    assert golden.exists(), f"no golden file {golden} (MBRULES_WRITE_GOLDEN=1 writes it)"
    assert data == golden.read_bytes(), f"{name} differs from the report saved before the change"


@pytest.mark.parametrize("args, name", [(SIMULATE, "simulate-2p"), (SIMULATE_4, "simulate-4p")])
def test_simulate_json_and_records_unchanged(args, name, tmp_path):
    """simulate --json and both record files (JSONL, CSV) are those of the saved run."""
    for ext in ("jsonl", "csv"):
        out = tmp_path / f"rec.{ext}"
        data = _stdout_json([*args, "--out", str(out)])
        _check(f"{name}.json", data)
        _check(f"{name}-records.{ext}", out.read_bytes())


def test_compare_json_and_report_files_unchanged(tmp_path):
    """compare --json and the report folder's JSON, CSV and JSONL (every phase: main, ladder, restricted
    play, robustness) are those of the saved run."""
    out = tmp_path / "cmp"
    data = _stdout_json([*COMPARE, "--out", str(out)])
    _check("compare-stdout.json", data)
    _check("compare.json", _json_file(out / "compare.json"))
    for f in ("matches.csv", "hands.csv", "matches.jsonl"):
        _check(f"compare-{f}", (out / f).read_bytes())


def test_sweep_json_and_report_files_unchanged(tmp_path):
    """sweep --json and the report folder's JSON and CSV are those of the saved run."""
    out = tmp_path / "sw"
    data = _stdout_json([*SWEEP, "--out", str(out)])
    _check("sweep-stdout.json", data)
    _check("sweep.json", _json_file(out / "sweep.json"))
    _check("sweep-points.csv", (out / "points.csv").read_bytes())


LADDER = [
    "ladder",
    "-b",
    "random",
    "-b",
    "heuristic",
    "-b",
    "heuristic-2026",
    "-p",
    "3",
    "-g",
    "2",
    "-s",
    "5",
    "-w",
    "1",
    "--json",
]


def test_ladder_json_unchanged():
    """ladder --json (openskill's ratings) is that of the run saved before the ladder read its win shares and
    their intervals from the metric registry (matches.metrics.won_by, arm_value) instead of its own."""
    pytest.importorskip("openskill", reason="the saved ladder's ratings are openskill's (the bots extra)")
    _check("ladder-3p.json", _stdout_json(LADDER))
