"""`mbrules replay`: output lines, exit codes, invalid files with file:line. The command runs in this
process (Click's runner: the same app, its stdout, stderr and exit code) except where the process is the
point: a real `mbrules` for each exit code (0, 1, 2) and --help (issue 46: 31 start-ups were 21 CPU-s)."""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FORMAT = ROOT / "tests" / "scenarios_format"
INVALID = FORMAT / "invalid"
VALID = FORMAT / "valid"
LOCATED = re.compile(r"^\S[^:]*:\d+:\d+: \S")


def _mbrules() -> list[str]:
    script = Path(sys.executable).with_name("mbrules")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from mbrules.cli.app import main; main()"]


def replay(*args, cwd=ROOT, real: bool = False) -> subprocess.CompletedProcess:
    """`mbrules replay ARGS` run in CWD: a real process if REAL, else the same app in this process (an
    exception the app does not turn into an exit code is raised, never read as exit 1)."""
    if real:
        return subprocess.run(
            [*_mbrules(), "replay", *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120
        )
    from typer.testing import CliRunner

    from mbrules.cli.app import app

    with contextlib.chdir(cwd):
        res = CliRunner().invoke(app, ["replay", *map(str, args)])
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return subprocess.CompletedProcess(args, res.exit_code, res.stdout, res.stderr)


# file, line:col reported, words of the message
INVALID_TABLE = [
    ("unknown-card.yaml", "7:15", "unknown card 'rool'"),
    ("too-many-copies.yaml", "9:10", "more copies of d200 than the deck holds"),
    ("oversized-hand.yaml", "8:9", "p3 holds 7 cards, over the hand size of 6"),
    ("unknown-player.yaml", "7:14", "unknown player 'p5'"),
    ("two-actions.yaml", "8:5", "two actions in one step"),
    ("unknown-side.yaml", "8:5", "unknown side 'C'"),
    ("unknown-key.yaml", "7:24", "unknown key 'miles'"),
    ("bad-reason-code.yaml", "6:39", "'not-moving' is not a reason code"),
    ("duplicate-key.yaml", "5:1", "duplicate key 'players'"),
    ("hazard-needs-side.yaml", "6:24", "a hazard needs 'on:'"),
    ("unknown-ruleset.yaml", "3:10", "unknown ruleset 'winning-movez'"),
    ("yaml-syntax.yaml", "7:11", "YAML syntax error"),
    ("wrong-pile.yaml", "7:24", "d25 cannot lie in the battle pile"),
    ("missing-steps.yaml", "1:1", "missing key 'steps'"),
    ("unreachable-position.yaml", "7:35", "past the trip's target of 700"),
]


def test_the_invalid_table_covers_every_fixture():
    assert sorted(p.name for p in INVALID.glob("*.yaml")) == sorted(name for name, _, _ in INVALID_TABLE)


@pytest.mark.parametrize(("name", "where", "words"), INVALID_TABLE, ids=[n for n, _, _ in INVALID_TABLE])
def test_an_invalid_scenario_fails_and_names_file_line_col(name, where, words):
    proc = replay(f"tests/scenarios_format/invalid/{name}")
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0].startswith("FAIL "), proc.stdout
    located = f"tests/scenarios_format/invalid/{name}:{where}: "
    detail = [line for line in out[1:-1] if line.startswith("  ")]
    assert any(line.strip().startswith(located) and words in line for line in detail), proc.stdout
    assert out[-1] == "0 passed, 1 failed"
    # stderr carries the same problems as FILE:LINE:COL: message lines, and never a traceback
    err = proc.stderr.splitlines()
    assert err and all(LOCATED.match(line) or line.startswith("  ") for line in err), proc.stderr
    assert any(line.startswith(located) and words in line for line in err)
    assert "Traceback" not in proc.stderr + proc.stdout


def test_the_whole_invalid_folder_at_once():
    proc = replay(INVALID.relative_to(ROOT))  # the counts: the app in this process (a real one: the valid folder)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[-1] == f"0 passed, {len(INVALID_TABLE)} failed"
    assert sum(line.startswith("FAIL ") for line in lines) == len(INVALID_TABLE)


def test_valid_format_scenarios_pass_with_exit_0():
    proc = replay("tests/scenarios_format/valid", real=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    n = sum(1 for line in lines if line.startswith("PASS "))
    assert n >= 6  # extension.yaml holds two documents
    assert lines[-1] == f"{n} passed, 0 failed"
    assert proc.stderr == ""


def test_a_folder_is_every_yaml_under_it_sorted(tmp_path):
    (tmp_path / "b").mkdir()
    src = (VALID / "normal-deal.yaml").read_text(encoding="utf-8")
    for rel, title in (("b/z.yaml", "Zulu"), ("a.yaml", "Alpha"), ("b/m.yaml", "Mike")):
        (tmp_path / rel).write_text(
            src.replace("Without a setup the hand is a normal shuffled deal from seed 0", title), encoding="utf-8"
        )
    (tmp_path / "notes.txt").write_text("not a scenario", encoding="utf-8")
    proc = replay(tmp_path)
    assert proc.returncode == 0, proc.stdout
    assert proc.stdout.splitlines() == ["PASS Alpha", "PASS Mike", "PASS Zulu", "3 passed, 0 failed"]


def test_a_failing_step_shows_the_step_and_expected_beside_actual(tmp_path):
    f = tmp_path / "fail.yaml"
    f.write_text(
        (FORMAT / "valid" / "rest-discard-pile.yaml")
        .read_text(encoding="utf-8")
        .replace("match: {A: 5700, B: 3050}", "match: {A: 5700, B: 3051}"),
        encoding="utf-8",
    )
    proc = replay(f.name, cwd=tmp_path)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("FAIL With the rest in the discard pile")
    assert lines[1] == "  fail.yaml:27:27: step 7: match.B: expected 3051, got 3050"
    assert lines[-1] == "0 passed, 1 failed"
    assert proc.stderr == ""  # a failed step is a result, not an error


def test_mixed_results_and_json(tmp_path):
    (tmp_path / "ok.yaml").write_text((VALID / "normal-deal.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "bad.yaml").write_text((INVALID / "unknown-card.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "wrong.yaml").write_text(
        (VALID / "normal-deal.yaml").read_text(encoding="utf-8").replace("draw_pile: 81", "draw_pile: 80"),
        encoding="utf-8",
    )
    proc = replay(tmp_path, "--json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert (doc["passed"], doc["failed"], doc["files"]) == (1, 2, 3)
    by_file = {Path(s["file"]).name: s for s in doc["scenarios"]}
    assert by_file["ok.yaml"]["passed"] and by_file["ok.yaml"]["step"] is None
    bad = by_file["bad.yaml"]
    assert not bad["passed"] and not bad["valid"] and bad["errors"][0]["line"] == 7
    assert "unknown card 'rool'" in bad["errors"][0]["message"]
    wrong = by_file["wrong.yaml"]
    assert wrong["valid"] and not wrong["passed"] and wrong["step"] == 3
    assert wrong["failures"][0] | {"file": None} == {
        "step": 3,
        "file": None,
        "line": 19,
        "col": 35,
        "key": "draw_pile",
        "expected": 80,
        "actual": 81,
        "note": "",
    }


def test_multi_document_files_report_each_document_with_the_right_lines(tmp_path):
    f = tmp_path / "two.yaml"
    text = (VALID / "extension.yaml").read_text(encoding="utf-8")
    f.write_text(
        text.replace(
            "winner: null\n  - {player: p2, play: d25, rejected: hand-over}",
            "winner: A\n  - {player: p2, play: d25, rejected: hand-over}",
        ),
        encoding="utf-8",
    )
    proc = replay(f.name, cwd=tmp_path)
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("PASS The extension question")
    assert lines[1].startswith("FAIL Declining the extension")
    line_no = next(i for i, t in enumerate(f.read_text().splitlines(), 1) if t.strip() == "winner: A")
    assert lines[2] == f"  two.yaml:{line_no}:15: step 3: winner: expected A, got null"
    assert lines[-1] == "1 passed, 1 failed"


# the real process for a lone missing path; a missing path after a good one in this process (the same check)
@pytest.mark.parametrize(
    "args,real",
    [(["no/such/file.yaml"], True), (["tests/scenarios_format/valid", "nowhere"], False)],
    ids=["args0", "args1"],
)
def test_a_path_that_does_not_exist_is_a_usage_error(args, real):
    proc = replay(*args, real=real)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "no such file or folder" in proc.stderr and "Traceback" not in proc.stderr


def test_an_empty_folder_is_a_usage_error(tmp_path):
    proc = replay(tmp_path)
    assert proc.returncode == 2 and "no *.yaml scenario files" in proc.stderr


def test_binary_and_empty_files_are_invalid_not_crashes(tmp_path):
    (tmp_path / "bin.yaml").write_bytes(b"\x00\x01\x02\xff")
    (tmp_path / "empty.yaml").write_text("", encoding="utf-8")
    (tmp_path / "list.yaml").write_text("- 1\n- 2\n", encoding="utf-8")
    (tmp_path / "bomb.yaml").write_text(
        "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n",
        encoding="utf-8",
    )
    proc = replay(tmp_path)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[-1] == "0 passed, 4 failed"
    assert "Traceback" not in proc.stdout + proc.stderr
    for line in proc.stderr.splitlines():
        assert LOCATED.match(line), line


def test_help():
    """The app in this process (0.6 CPU-s a process): the real `mbrules replay` exits 0 in
    test_valid_format_scenarios_pass_with_exit_0 and 2 in test_a_path_that_does_not_exist_is_a_usage_error."""
    proc = replay("--help")
    assert proc.returncode == 0 and "--json" in proc.stdout


def test_a_custom_ruleset_is_found_beside_the_scenario_and_its_errors_are_its_own(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "mine.yaml").write_text(
        "id: mine\nname: Mine\nextends: winning-moves\nbogus: 1\n", encoding="utf-8"
    )
    (tmp_path / "sub" / "s.yaml").write_text(
        "scenario: custom\nsource: x\nruleset: mine.yaml\nplayers: 2\nsteps:\n  - expect: {turn: p1}\n",
        encoding="utf-8",
    )
    proc = replay("sub/s.yaml", cwd=tmp_path)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[1].startswith("  sub/s.yaml:3:10: cannot load ruleset 'mine.yaml'")
    assert any(line.startswith("  sub/mine.yaml:4:1: unknown key 'bogus'") for line in lines)
    (tmp_path / "sub" / "mine.yaml").write_text(
        (ROOT / "rulesets" / "kids-115.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    proc = replay("sub/s.yaml", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout


REFUSED_IN_A_WINDOW = """\
scenario: a refused step leaves an open coup fourre window open
source: "docs/scenarios.md: a step marked rejected leaves the game exactly as it was, an open window included"
ruleset: winning-moves
options: [coup-fourre-any-player]
players: 3
setup:
  hands:
    p1: [flat_tire, flat_tire, d50, d75, d100, gasoline]
    p2: [spare_tire, d25, d50, d75, d100, repairs]
    p3: [puncture_proof, d25, d50, d75, d100, gasoline]
  sides:
    A: {battle: [roll]}
    B: {battle: [roll]}
    C: {battle: [roll]}
  draw_pile: [d25, roll, d50, d75]
steps:
  - {player: p1, play: flat_tire, on: B}
  - {player: %s, play: d50, rejected: true}
  - {player: p3, coup_fourre: puncture_proof}
  - expect: {turn: p3, sides: {C: {coup_fourres: [puncture_proof]}}}
"""


@pytest.mark.parametrize("who", ["p1", "p2", "p3"], ids=["the attacker", "the victim", "the safety's holder"])
def test_a_refused_step_by_any_player_leaves_the_coup_fourre_window_open(tmp_path, who):
    """A step marked ``rejected`` leaves the game exactly as it was (docs/scenarios.md): it must not
    decline the window a hazard opened, so the holder of the safety may still call the coup fourré."""
    path = tmp_path / "window.yaml"
    path.write_text(REFUSED_IN_A_WINDOW % who, encoding="utf-8")
    r = replay(path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("PASS ")
