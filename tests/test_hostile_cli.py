"""Hostile input, end to end: the `mbrules` command's app, and the real command in a subprocess.

Every path and flag a user can give, bad in every way we could think of, must answer with the
contract's exit code (0 success, 1 a check failed / an invalid file, 2 a usage error) and, where a
file is involved, `FILE:LINE:COL: message` lines on stderr; never a Python traceback; with --json,
nothing but one JSON document on stdout (nothing at all on an error).

The table runs in a module fixture, each row then its own test. One row of each command and one of each
exit code run the real command in a subprocess (a few at a time; tests/cli_runs.py's ``first_rows``); the
others run the same app in this process (Click's runner: its stdout, stderr and exit code; an exception the app lets out is written on
stderr as the traceback a process would print): 130 processes were 69 CPU-s (issue 46).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cli_runs
import pytest
import yaml

pytestmark = pytest.mark.slow  # runs the real command over a table of bad inputs: make test-fast leaves it out

HERE = Path(__file__).resolve().parent
HOSTILE = HERE / "data" / "hostile"
LOCATED = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): \S")
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def mbrules_argv() -> list[str]:
    exe = Path(sys.executable).parent / "mbrules"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("mbrules")
    if found:
        return [found]
    return [sys.executable, "-c", "from mbrules.cli.app import main; main()"]


def run(args, cwd, timeout=120, env=None):
    t0 = time.perf_counter()
    p = subprocess.run(
        mbrules_argv() + list(args), cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env, errors="replace"
    )
    p.seconds = time.perf_counter() - t0
    return p


# ----------------------------------------------------------------------------
# The table: (id, argv, exit code, file whose FILE:LINE:COL lines are expected or None)

OK, CHECK, USAGE = 0, 1, 2
R = "winning-moves"

TABLE = [
    # -- rulesets / schema
    ("rulesets-unknown-flag", ["rulesets", "--bogus"], USAGE, None),
    ("rulesets-json", ["rulesets", "--json"], OK, None),
    ("schema-bad-argument", ["schema", "bogus"], USAGE, None),
    ("schema-two-arguments", ["schema", "ruleset", "scenario"], USAGE, None),
    ("schema-ruleset", ["schema", "ruleset"], OK, None),
    ("schema-scenario", ["schema", "scenario"], OK, None),
    # -- show
    ("show-unknown-id", ["show", "nope"], USAGE, None),
    ("show-missing-path", ["show", "missing/nope.yaml"], USAGE, "missing/nope.yaml"),
    ("show-folder", ["show", "folder.yaml"], USAGE, "folder.yaml"),
    ("show-binary", ["show", "binary.yaml"], CHECK, "binary.yaml"),
    ("show-huge", ["show", "huge.yaml"], CHECK, "huge.yaml"),
    ("show-alias-bomb", ["show", "alias-bomb.yaml"], CHECK, "alias-bomb.yaml"),
    ("show-deep-nesting", ["show", "deep-nesting.yaml"], CHECK, "deep-nesting.yaml"),
    ("show-python-tag", ["show", "python-tag.yaml"], CHECK, "python-tag.yaml"),
    ("show-nul-byte", ["show", "nul-byte.yaml"], CHECK, "nul-byte.yaml"),
    ("show-not-utf8", ["show", "not-utf8.yaml"], CHECK, "not-utf8.yaml"),
    ("show-truncated", ["show", "truncated.yaml"], CHECK, "truncated.yaml"),
    ("show-option-as-ruleset", ["show", "option-as-ruleset.yaml"], None, "option-as-ruleset.yaml"),
    ("show-players-5", ["show", R, "--players", "5"], USAGE, None),
    ("show-players-negative", ["show", R, "--players", "-1"], USAGE, None),
    ("show-players-text", ["show", R, "--players", "two"], USAGE, None),
    ("show-unknown-option", ["show", R, "--option", "nope"], USAGE, None),
    ("show-option-missing-path", ["show", R, "--option", "missing/o.yaml"], USAGE, "missing/o.yaml"),
    ("show-option-folder", ["show", R, "--option", "folder.yaml"], USAGE, "folder.yaml"),
    ("show-option-bomb", ["show", R, "--option", "option-alias-bomb.yaml"], CHECK, "option-alias-bomb.yaml"),
    ("show-ruleset-as-option", ["show", R, "--option", "ruleset-as-option.yaml"], None, "ruleset-as-option.yaml"),
    ("show-json-error", ["show", "binary.yaml", "--json"], CHECK, "binary.yaml"),
    # -- validate
    ("validate-nothing", ["validate"], USAGE, None),
    ("validate-missing", ["validate", "missing.yaml"], USAGE, "missing.yaml"),
    ("validate-folder", ["validate", "folder.yaml"], USAGE, "folder.yaml"),
    ("validate-binary", ["validate", "binary.yaml"], CHECK, "binary.yaml"),
    ("validate-huge", ["validate", "huge.yaml"], CHECK, "huge.yaml"),
    ("validate-alias-bomb", ["validate", "alias-bomb.yaml"], CHECK, "alias-bomb.yaml"),
    ("validate-option-bomb", ["validate", "option-alias-bomb.yaml"], CHECK, "option-alias-bomb.yaml"),
    ("validate-deep", ["validate", "deep-nesting.yaml"], CHECK, "deep-nesting.yaml"),
    ("validate-duplicate-key", ["validate", "duplicate-key.yaml"], CHECK, "duplicate-key.yaml"),
    ("validate-cycle", ["validate", "cycle-a.yaml"], CHECK, ("cycle-a.yaml", "cycle-b.yaml")),
    (
        "validate-unknown-key-missing-parent",
        ["validate", "unknown-key-missing-parent.yaml"],
        CHECK,
        "unknown-key-missing-parent.yaml",
    ),
    ("validate-python-tag", ["validate", "python-tag.yaml"], CHECK, "python-tag.yaml"),
    ("validate-nul", ["validate", "nul-byte.yaml"], CHECK, "nul-byte.yaml"),
    ("validate-not-utf8", ["validate", "not-utf8.yaml"], CHECK, "not-utf8.yaml"),
    ("validate-truncated", ["validate", "truncated.yaml"], CHECK, "truncated.yaml"),
    ("validate-empty", ["validate", "empty.yaml"], CHECK, "empty.yaml"),
    ("validate-scenario-as-ruleset", ["validate", "scenario-bad.yaml"], CHECK, "scenario-bad.yaml"),
    ("validate-good-option", ["validate", "good-option.yaml"], OK, None),
    ("validate-json-error", ["validate", "binary.yaml", "--json"], CHECK, None),
    # -- diff
    ("diff-unknown", ["diff", R, "nope"], USAGE, None),
    ("diff-one-argument", ["diff", R], USAGE, None),
    ("diff-binary", ["diff", R, "binary.yaml"], CHECK, "binary.yaml"),
    ("diff-missing", ["diff", "missing.yaml", R], USAGE, "missing.yaml"),
    ("diff-unknown-option", ["diff", R, "parker-1971", "--option", "nope"], USAGE, None),
    # -- play
    ("play-players-5", ["play", "--players", "5", "--json"], USAGE, None),
    ("play-players-negative", ["play", "--players", "-1", "--json"], USAGE, None),
    ("play-players-zero", ["play", "--players", "0", "--json"], USAGE, None),
    ("play-players-huge", ["play", "--players", "99999999999999999999", "--json"], USAGE, None),
    ("play-players-text", ["play", "--players", "four", "--json"], USAGE, None),
    ("play-hands-negative", ["play", "--hands", "-3", "--json"], USAGE, None),
    ("play-hands-zero", ["play", "--hands", "0", "--json"], USAGE, None),
    ("play-seed-text", ["play", "--seed", "abc", "--json"], USAGE, None),
    ("play-seed-negative", ["play", "--seed", "-5", "--hands", "1", "--json"], OK, None),
    (
        "play-seed-huge",
        ["play", "--seed", "9" * 40, "--hands", "1", "--json"],
        USAGE,
        None,
    ),  # issue 9: seeds are 64-bit
    ("play-unknown-bot", ["play", "--bot", "nope", "--json"], USAGE, None),
    ("play-bot-count", ["play", "--bot", "random", "--bot", "random", "--json"], USAGE, None),
    ("play-unknown-ruleset", ["play", "--ruleset", "nope", "--json"], USAGE, None),
    ("play-ruleset-folder", ["play", "--ruleset", "folder.yaml", "--json"], USAGE, "folder.yaml"),
    ("play-ruleset-missing", ["play", "--ruleset", "missing.yaml", "--json"], USAGE, "missing.yaml"),
    ("play-ruleset-binary", ["play", "--ruleset", "binary.yaml", "--json"], CHECK, "binary.yaml"),
    ("play-ruleset-huge", ["play", "--ruleset", "huge.yaml", "--json"], CHECK, "huge.yaml"),
    ("play-ruleset-bomb", ["play", "--ruleset", "alias-bomb.yaml", "--json"], CHECK, "alias-bomb.yaml"),
    ("play-ruleset-cycle", ["play", "--ruleset", "cycle-b.yaml", "--json"], CHECK, ("cycle-a.yaml", "cycle-b.yaml")),
    ("play-unknown-option", ["play", "--option", "nope", "--json"], USAGE, None),
    ("play-option-bomb", ["play", "--option", "option-alias-bomb.yaml", "--json"], CHECK, "option-alias-bomb.yaml"),
    ("play-option-folder", ["play", "--option", "folder.yaml", "--json"], USAGE, "folder.yaml"),
    ("play-unknown-flag", ["play", "--bogus"], USAGE, None),
    ("play-record-missing-dir", ["play", "--hands", "1", "--record", "missing/dir/x.yaml", "--json"], USAGE, None),
    ("play-record-folder", ["play", "--hands", "1", "--record", "folder.yaml", "--json"], USAGE, None),
    ("play-record-unwritable", ["play", "--hands", "1", "--record", "/proc/mbrules-x.yaml", "--json"], USAGE, None),
    ("play-record-empty", ["play", "--hands", "1", "--record", "", "--json"], USAGE, None),
    ("play-record-under-a-file", ["play", "--hands", "1", "--record", "empty.yaml/x.yaml", "--json"], USAGE, None),
    # -- simulate
    ("simulate-games-zero", ["simulate", "--games", "0", "--json"], USAGE, None),
    ("simulate-games-negative", ["simulate", "--games", "-1", "--json"], USAGE, None),
    ("simulate-workers-zero", ["simulate", "--workers", "0", "--json"], USAGE, None),
    ("simulate-workers-negative", ["simulate", "--workers", "-2", "--json"], USAGE, None),
    ("simulate-players-5", ["simulate", "--players", "5", "--json"], USAGE, None),
    ("simulate-seed-text", ["simulate", "--seed", "abc", "--json"], USAGE, None),
    ("simulate-unknown-bot", ["simulate", "--bot", "nope", "--json"], USAGE, None),
    ("simulate-unknown-ruleset", ["simulate", "--ruleset", "nope", "--json"], USAGE, None),
    ("simulate-ruleset-binary", ["simulate", "--ruleset", "binary.yaml", "--json"], CHECK, "binary.yaml"),
    ("simulate-option-missing", ["simulate", "--option", "missing.yaml", "--json"], USAGE, "missing.yaml"),
    ("simulate-one-game", ["simulate", "--games", "1", "--json", "--bot", "random"], OK, None),
    # -- replay
    ("replay-nothing", ["replay"], USAGE, None),
    ("replay-missing", ["replay", "missing.yaml"], USAGE, None),
    ("replay-empty-folder", ["replay", "emptydir"], USAGE, None),
    ("replay-binary", ["replay", "binary.yaml"], CHECK, "binary.yaml"),
    ("replay-huge", ["replay", "huge-scenario.yaml"], CHECK, "huge-scenario.yaml"),
    ("replay-alias-bomb", ["replay", "scenario-alias-bomb.yaml"], CHECK, "scenario-alias-bomb.yaml"),
    ("replay-deep", ["replay", "deep-nesting.yaml"], CHECK, "deep-nesting.yaml"),
    ("replay-python-tag", ["replay", "python-tag.yaml"], CHECK, "python-tag.yaml"),
    ("replay-bad-scenario", ["replay", "scenario-bad.yaml"], CHECK, "scenario-bad.yaml"),
    ("replay-unknown-ruleset", ["replay", "scenario-unknown-ruleset.yaml"], CHECK, "scenario-unknown-ruleset.yaml"),
    ("replay-too-many-cards", ["replay", "scenario-too-many-cards.yaml"], CHECK, "scenario-too-many-cards.yaml"),
    ("replay-wrong-types", ["replay", "scenario-wrong-types.yaml"], CHECK, "scenario-wrong-types.yaml"),
    ("replay-ruleset-as-scenario", ["replay", "duplicate-key.yaml"], CHECK, "duplicate-key.yaml"),
    ("replay-empty", ["replay", "empty.yaml"], CHECK, "empty.yaml"),
    ("replay-json-binary", ["replay", "binary.yaml", "--json"], CHECK, None),
    ("replay-unknown-flag", ["replay", "--bogus", "x.yaml"], USAGE, None),
    ("replay-every-hostile-file", ["replay", "."], CHECK, None),  # a folder: every *.yaml under it
    ("validate-every-hostile-file", ["validate", *sorted(p.name for p in HOSTILE.glob("*.yaml"))], CHECK, None),
    # -- no command, unknown command
    ("unknown-command", ["frobnicate"], USAGE, None),
    # -- the happy paths the contract promises for every command: --help, and --json as one document
    *[
        (f"{c}-help", [c, "--help"], OK, None)
        for c in ("rulesets", "show", "validate", "schema", "diff", "play", "simulate", "replay")
    ],
    ("show-json", ["show", R, "--players", "3", "--json"], OK, None),
    ("diff-json", ["diff", R, "parker-1971", "--option", "hazard-on-hazard", "--json"], OK, None),
    ("validate-json-ok", ["validate", "good-option.yaml", "--json"], OK, None),
    ("replay-json-recorded", ["replay", "recorded.yaml", "--json"], OK, None),
]


def _unreadable_path() -> str | None:
    """A file this process cannot read: a chmod 000 file, or as root (who reads those anyway) a
    write-only /proc/sys entry; None when there is no such thing here."""
    if not IS_ROOT:
        return "unreadable.yaml"  # made chmod 000 by the workdir fixture
    for candidate in ("/proc/sys/vm/compact_memory", "/proc/sys/vm/drop_caches"):
        try:
            with open(candidate, "rb"):
                pass
        except PermissionError:
            return candidate
        except OSError:
            continue
    return None


U = _unreadable_path()
UNREADABLE = [
    ("show-unreadable", ["show", U], USAGE, U),
    ("validate-unreadable", ["validate", U], USAGE, U),
    ("play-ruleset-unreadable", ["play", "--ruleset", U, "--json"], USAGE, U),
    ("play-option-unreadable", ["play", "--option", U, "--json"], USAGE, U),
    ("diff-unreadable", ["diff", R, U], USAGE, U),
    ("replay-unreadable", ["replay", U], USAGE, None),
]
TABLE += UNREADABLE
ROOT_SKIPS = {row[0] for row in UNREADABLE} if U is None else set()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    d = tmp_path_factory.mktemp("hostile")
    for f in HOSTILE.iterdir():
        shutil.copy(f, d / f.name)
    (d / "folder.yaml").mkdir()
    (d / "emptydir").mkdir()
    (d / "empty.yaml").write_text("")
    (d / "binary.yaml").write_bytes(bytes(range(256)) * 8)
    (d / "huge.yaml").write_bytes(b"id: huge\nname: " + b"a" * (2 * 1024 * 1024) + b"\n")  # over 1 MiB
    with open(d / "huge-scenario.yaml", "wb") as fh:  # over the 16 MiB of a scenario file
        fh.write(b"scenario: huge\nsource: x\nruleset: winning-moves\nplayers: 2\nsteps:\n")
        fh.write(b"  - {player: p1, play: d25}\n" * (17 * 1024 * 1024 // 28 + 1))
    shutil.copy(HERE.parent / "rulesets" / "options" / "hazard-on-hazard.yaml", d / "good-option.yaml")
    rec = run(["play", "--hands", "1", "--players", "2", "--seed", "4", "--record", "recorded.yaml", "--json"], d)
    assert rec.returncode == 0, rec.stderr
    u = d / "unreadable.yaml"
    u.write_text("id: x\n")
    u.chmod(0)
    return d


def run_in_process(args, cwd) -> subprocess.CompletedProcess:
    """The command's app on ARGS in CWD, in this process (tests/cli_runs.py), as text like ``run``'s."""
    p = cli_runs.run_in_process(args, cwd)
    return subprocess.CompletedProcess(
        p.args, p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    )


def real_rows() -> set[str]:
    """One row of each command and one of each exit code (tests/cli_runs.py): those run the real command."""
    return cli_runs.first_rows((name, args, code) for name, args, code, _ in TABLE if name not in ROOT_SKIPS)


ONE_WORKER_FIXTURES = ("results",)  # computed once under make test's workers (tests/conftest.py)


@pytest.fixture(scope="module")
def results(workdir):
    rows = {name: args for name, args, _, _ in TABLE if name not in ROOT_SKIPS}
    real = real_rows()
    with ThreadPoolExecutor(max_workers=4) as pool:
        futs = {name: pool.submit(run, args, workdir) for name, args in rows.items() if name in real}
        done = {name: run_in_process(args, workdir) for name, args in rows.items() if name not in real}
        return done | {name: f.result() for name, f in futs.items()}


def _check_no_traceback(p):
    for stream in (p.stdout, p.stderr):
        assert "Traceback (most recent call last)" not in stream, stream[-3000:]
        assert not re.search(r"^\w+(Error|Exception): ", stream, re.M), stream[-3000:]


@pytest.mark.parametrize(
    "name,args,code,file",
    [
        pytest.param(
            *row,
            id=row[0],
            marks=pytest.mark.skipif(row[0] in ROOT_SKIPS, reason="no unreadable file here (root reads chmod 000)"),
        )
        for row in TABLE
    ],
)
def test_hostile_input_gets_the_contract_exit_code_and_messages(name, args, code, file, results, workdir):
    p = results[name]
    _check_no_traceback(p)
    if code is None:
        assert p.returncode in (CHECK, USAGE), (p.returncode, p.stderr)
    else:
        assert p.returncode == code, f"exit {p.returncode}, expected {code}\nstderr: {p.stderr[-2000:]}"
    if p.returncode != OK:
        assert p.stderr.strip(), "an error with nothing on stderr"
        if "--json" in args and name not in ("validate-json-error", "replay-json-binary"):
            assert p.stdout == "", f"--json printed on stdout with an error: {p.stdout[:500]}"
    if file is not None:
        lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
        located = [ln for ln in lines if LOCATED.match(ln)]
        assert located, f"no FILE:LINE:COL line naming {file}: {p.stderr[-1500:]}"
        for ln in located:
            m = LOCATED.match(ln)
            named = (workdir / m["file"]).resolve()
            allowed = [(workdir / x).resolve() for x in ((file,) if isinstance(file, str) else file)]
            assert named in allowed, f"error names {m['file']}, expected {file}: {ln}"
            target = named
            if target.is_file() and os.access(target, os.R_OK):
                text = target.read_bytes().decode("utf-8", errors="replace")
                rows = text.split("\n")
                ln_no, col = int(m["line"]), int(m["col"])
                assert 1 <= ln_no <= len(rows), ln
                assert 1 <= col <= len(rows[ln_no - 1]) + 1, ln
    if "--json" in args and p.returncode == OK:
        json.loads(p.stdout)  # one JSON document, nothing else


def test_python_tags_are_never_executed(results):
    assert not Path("/tmp/mbrules-pwned").exists()


def test_json_errors_are_still_one_json_document_or_nothing(results):
    """validate/replay --json on a bad file: stdout is one JSON document (the report) and exit 1."""
    for name in ("validate-json-error", "replay-json-binary"):
        p = results[name]
        assert p.returncode == CHECK
        if p.stdout.strip():
            json.loads(p.stdout)


# ----------------------------------------------------------------------------
# --record


def test_record_writes_a_scenario_that_replays_and_leaves_no_temporary_file(tmp_path):
    out = tmp_path / "game.yaml"
    p = run(["play", "--hands", "2", "--seed", "3", "--record", str(out), "--json"], tmp_path)
    assert p.returncode == OK, p.stderr
    assert sorted(x.name for x in tmp_path.iterdir()) == ["game.yaml"], "a temporary file was left behind"
    r = run(["replay", str(out)], tmp_path)
    assert r.returncode == OK, r.stdout[-2000:] + r.stderr[-2000:]
    assert r.stdout.strip().splitlines()[-1].endswith("0 failed")


def test_record_into_a_missing_directory_creates_nothing(tmp_path):
    p = run(["play", "--hands", "1", "--record", str(tmp_path / "no" / "x.yaml")], tmp_path)
    assert p.returncode == USAGE
    assert list(tmp_path.iterdir()) == []


def test_record_is_atomic_when_the_write_fails(tmp_path, monkeypatch):
    """The temp-file-and-rename path: a failure while writing leaves the old file whole and no temp file."""
    from mbrules.scenario import record

    target = tmp_path / "game.yaml"
    target.write_text("OLD\n")
    real_fdopen = os.fdopen

    class Broken:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()
            return False

        def write(self, text):
            self.fh.write(text[: len(text) // 2])
            self.fh.flush()
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(record.os, "fdopen", lambda *a, **k: Broken(real_fdopen(*a, **k)))
    with pytest.raises(OSError):
        record.write_scenario_file(target, "scenario: new\n" * 1000)
    assert target.read_text() == "OLD\n"
    assert [x.name for x in tmp_path.iterdir()] == ["game.yaml"]

    monkeypatch.undo()
    renamed = []
    real_replace = os.replace
    monkeypatch.setattr(record.os, "replace", lambda a, b: (renamed.append((a, b)), real_replace(a, b)))
    record.write_scenario_file(target, "scenario: new\n")
    assert target.read_text() == "scenario: new\n"
    assert len(renamed) == 1 and Path(renamed[0][0]).parent == tmp_path and Path(renamed[0][1]) == target


def test_record_killed_midway_leaves_the_old_file_or_a_whole_new_one(tmp_path):
    """SIGKILL `mbrules play --record` at several moments: the target is the old file or a complete
    scenario, never half written, and no temporary file outlives a completed run."""
    target = tmp_path / "game.yaml"
    full = run(["play", "--seed", "1", "--record", str(target), "--json"], tmp_path)
    assert full.returncode == OK, full.stderr
    whole = target.read_text()
    for delay in (0.2, 0.5, 0.8, 1.2, 2.0):
        target.write_text("OLD\n")
        proc = subprocess.Popen(
            mbrules_argv() + ["play", "--seed", "1", "--record", str(target), "--json"],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        text = target.read_text()
        assert text in ("OLD\n", whole), f"half-written record after a kill at {delay} s ({len(text)} chars)"
        if text == whole:
            list(yaml.safe_load_all(text))
        for stray in tmp_path.iterdir():
            if stray.name != "game.yaml":
                stray.unlink()  # a temp file of a killed run: never the target itself


# ----------------------------------------------------------------------------
# Odd file kinds


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize(
    "command",
    [
        ["validate", "pipe.yaml"],
        ["show", "pipe.yaml"],
        ["replay", "pipe.yaml"],
        ["play", "--ruleset", "pipe.yaml", "--json"],
    ],
)
def test_a_named_pipe_does_not_hang(command, tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    try:
        p = run(command, tmp_path, timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mbrules {' '.join(command)} hangs on a named pipe (it waits for a writer)")
    _check_no_traceback(p)
    assert p.returncode in (CHECK, USAGE)


def test_simulate_workers_far_above_the_work_do_not_fork_a_process_each(monkeypatch):
    """Found here: `simulate --games 2 --workers 100` forked 100 processes (ProcessPoolExecutor with the
    fork start method launches max_workers at once); `--workers 100000` is a fork bomb. The pool must
    not be larger than the chunks of work, nor than a few per core."""
    import concurrent.futures

    from mbrules.matches import local, simulate
    from mbrules.testing import load_game

    sizes = []
    real = concurrent.futures.ProcessPoolExecutor

    def spy(*args, max_workers=None, **kwargs):
        sizes.append(max_workers)
        return real(*args, max_workers=min(max_workers, 2), **kwargs)

    monkeypatch.setattr(local, "ProcessPoolExecutor", spy)
    game = load_game("winning-moves", 2)
    stats, _ = simulate(game, ["random"], 2, 0, workers=100)
    assert stats.games == 2
    assert sizes and sizes[0] <= 2, f"a pool of {sizes[0]} processes for 2 games"
    simulate(game, ["random"], 40, 0, workers=100_000)
    assert sizes[1] <= 4 * (os.cpu_count() or 1), f"a pool of {sizes[1]} processes"


def test_a_recorded_file_gets_the_usual_permissions(tmp_path):
    """Found here: the temporary file of the atomic write is created 0600 (mkstemp) and the rename
    kept that mode, so a recorded game was unreadable by anyone else. It follows the umask now."""
    mask = os.umask(0)
    os.umask(mask)
    p = run(["play", "--hands", "1", "--players", "2", "--record", "g.yaml", "--json"], tmp_path)
    assert p.returncode == OK, p.stderr
    assert (tmp_path / "g.yaml").stat().st_mode & 0o777 == 0o666 & ~mask
