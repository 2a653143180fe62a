"""Hostile table, third round (issue 22): report folders written whole, memory bounded, no surface that
hangs or wraps. Each test drives the real ``mbrules`` command in a subprocess, or the public API; a row whose
subject is what the command does, not its process, runs the command's app in the test's process (``mb_here``).
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cli_runs
from procs import needs_proc, wait_cpu

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).with_name("mbrules")
CMD = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-c", "from cli.app import main; main()"]
OK, CHECK, USAGE = 0, 1, 2


def mb(args: list[str], cwd: Path, timeout: float = 120, **kw) -> subprocess.CompletedProcess:
    p = subprocess.run(CMD + args, cwd=cwd, capture_output=True, text=True, timeout=timeout, **kw)
    assert "Traceback" not in p.stderr + p.stdout, p.stderr[-2000:]
    return p


def mb_here(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``mb`` with the command's app in this process (tests/cli_runs.py: the same exit code, stdout and stderr,
    an escaped exception written as its traceback): a process is ~0.9 CPU-s of Python starting and importing."""
    p = cli_runs.run_in_process(args, cwd)
    out, err = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    assert "Traceback" not in err + out, err[-2000:]
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def tree(folder: Path) -> dict:
    """Every entry of a folder: its kind, inode and bytes (regular files) or target (links)."""
    out = {}
    for p in sorted(folder.iterdir()):
        st = os.lstat(p)
        if stat.S_ISREG(st.st_mode):
            content = p.read_bytes()
        elif stat.S_ISLNK(st.st_mode):
            content = os.readlink(p)
        else:
            content = None
        out[p.name] = (stat.S_IFMT(st.st_mode), st.st_ino, content)
    return out


# A compare that takes a second or two: random bots, 2 players, no skill matches, no charts.
QUICK = [
    "compare",
    "winning-moves",
    "--option-b",
    "hazard-on-hazard",
    "--players",
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


# ----------------------------------------------------------------------------------------------------
# 1. A report folder is written whole or left as it was


def _old_report(d: Path) -> dict:
    d.mkdir()
    for name in ("compare.json", "index.html", "matches.jsonl", "matches.csv"):
        (d / name).write_text(f"old {name}\n")
    (d / "notes.txt").write_text("the user's own file\n")
    return tree(d)


@pytest.mark.parametrize("plant", ["symlink", "dangling-symlink", "fifo", "folder", "hard-link-to-input"])
def test_report_folder_file_that_must_not_be_written_is_refused_before_any_match(plant, tmp_path):
    (tmp_path / "mine.yaml").write_text("id: mine\nname: M\ndescription: M\nsource: test\nextends: winning-moves\n")
    d = tmp_path / "report"
    _old_report(d)
    target = d / "hands.csv"
    if plant == "symlink":
        (tmp_path / "elsewhere.csv").write_text("precious\n")
        target.symlink_to(tmp_path / "elsewhere.csv")
    elif plant == "dangling-symlink":
        target.symlink_to(tmp_path / "nowhere.csv")
    elif plant == "fifo":
        os.mkfifo(target)
    elif plant == "folder":
        target.mkdir()
    elif plant == "hard-link-to-input":
        os.link(tmp_path / "mine.yaml", target)
    before = tree(d)
    args = QUICK[:]
    args[1] = "mine.yaml"
    # the real process for the fifo (a write to it would block: the process's timeout ends it); the same
    # refusal's other rows, the link outside included, in this process (safe_output's checks are the same code)
    if plant == "fifo":
        p = mb(args + ["--out", "report"], tmp_path, timeout=60)
    else:
        p = mb_here(args + ["--out", "report"], tmp_path)
    assert p.returncode == USAGE, (p.returncode, p.stderr)
    assert "cannot write" in p.stderr and "report/" in p.stderr, p.stderr
    assert p.stdout == "", "matches were played and reported before the folder was refused"
    assert tree(d) == before, "the report folder changed although the command was refused"
    assert (tmp_path / "elsewhere.csv").exists() or plant != "symlink"
    assert "precious" in ((tmp_path / "elsewhere.csv").read_text() if plant == "symlink" else "precious")


def test_report_folder_named_by_an_empty_out_is_a_usage_error(tmp_path):
    (tmp_path / "index.html").write_text("the user's page\n")
    before = tree(tmp_path)
    p = mb_here(QUICK + ["--out", ""], tmp_path)  # a usage error of the flag's value: the app's, in this process
    assert p.returncode == USAGE, (p.returncode, p.stderr)
    assert "--out" in p.stderr and "empty" in p.stderr, p.stderr
    assert tree(tmp_path) == before


def test_report_rewritten_without_charts_removes_the_old_charts_and_keeps_the_users_files(tmp_path):
    d = tmp_path / "report"
    _old_report(d)
    for name in ("distributions.png", "distributions.svg", "differences.png", "differences.svg"):
        (d / name).write_bytes(b"an old chart")
    p = mb(QUICK + ["--out", "report"], tmp_path)
    assert p.returncode == OK, p.stderr
    names = sorted(x.name for x in d.iterdir())
    assert names == sorted(["compare.json", "index.html", "matches.jsonl", "matches.csv", "hands.csv", "notes.txt"])
    assert (d / "notes.txt").read_text() == "the user's own file\n"
    assert json.loads((d / "compare.json").read_text())["settings"]["games"] == 4
    assert not [x for x in tmp_path.iterdir() if x.name.startswith(".mbrules-report-")]


def test_report_into_a_new_folder_appears_whole_with_the_usual_permissions(tmp_path):
    p = mb_here(QUICK + ["--out", "fresh"], tmp_path)  # a report written whole by a process: the test above
    assert p.returncode == OK, p.stderr
    d = tmp_path / "fresh"
    assert sorted(x.name for x in d.iterdir()) == sorted(
        ["compare.json", "index.html", "matches.jsonl", "matches.csv", "hands.csv"]
    )
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(os.stat(d).st_mode) == 0o777 & ~mask
    assert stat.S_IMODE(os.stat(d / "index.html").st_mode) == 0o666 & ~mask
    assert [x.name for x in tmp_path.iterdir()] == ["fresh"]


@pytest.mark.slow
def test_report_folder_replaced_by_a_symlink_during_the_run_is_not_written_through(tmp_path):
    """The folder is swapped for a link once the run is past its first check: when compare's record spill (a
    temporary folder of the run's own) holds a record, the matches are being played; the run must then be
    still going (200 pairs, the second lineup off: seconds of play), and its write refuse the link."""
    d = tmp_path / "report"
    _old_report(d)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    spills = tmp_path / "tmp"
    spills.mkdir()
    args = QUICK[:]
    args[args.index("--games") + 1] = "200"
    p = subprocess.Popen(
        CMD + args + ["--bots", "none", "--out", "report"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(spills)},
    )
    try:
        deadline = time.monotonic() + 60
        while not any(f.stat().st_size for f in spills.glob("mbrules-compare-*/matches.jsonl")):
            assert p.poll() is None and time.monotonic() < deadline, p.communicate()
            time.sleep(0.02)
        d.rename(tmp_path / "report.moved")  # a record was spilled: the folder was checked, the matches are on
        d.symlink_to(elsewhere)
        assert p.poll() is None, "the run ended before the folder could be swapped: give it more games"
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
    assert "Traceback" not in err, err
    assert p.returncode == USAGE, (p.returncode, err)
    assert "symbolic link" in err, err
    assert list(elsewhere.iterdir()) == [], "the report was written through the link"


@pytest.mark.parametrize("other_thread", [False, True], ids=["one-thread", "with-another-thread"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_report_folder_interrupted_while_written_keeps_the_old_report(signum, other_thread, tmp_path, monkeypatch):
    """With another thread alive (a progress bar's refresh thread, a pool's feeder), the kernel gives the
    signal to that thread, where the write's signal mask does not hold it: it must still be seen, and never
    leave a mix of two reports.

    In one thread the signal is held from the moment it is sent, so the write is always interrupted and the
    old report kept. Handed to another thread, it reaches the main thread whenever that thread next runs:
    on a loaded machine that can be after the write's last check (seen once in CI's suite), and then it is
    a signal that came just after the write: the new report whole, and the signal acted on once."""
    import threading

    from mbrules import safe_output

    d = tmp_path / "report"
    before = _old_report(d)
    got = []
    old = signal.signal(signum, lambda s, f: got.append(s))
    real = safe_output._write_into
    calls = []
    release = threading.Event()
    helper = threading.Thread(target=release.wait, daemon=True)
    if other_thread:
        helper.start()

    def write_then_signal(dir_fd, name, content):
        real(dir_fd, name, content)
        calls.append(name)
        if len(calls) == 2:
            os.kill(os.getpid(), signum)  # held: it must not cut the report in two

    monkeypatch.setattr(safe_output, "_write_into", write_then_signal)
    new = {n: f"new {n}\n" for n in ("compare.json", "index.html", "matches.jsonl", "hands.csv")}
    interrupted = None
    try:
        try:
            safe_output.write_output_folder(d, new)
        except safe_output.OutputInterrupted as e:
            interrupted = e.signum
    finally:
        release.set()
        signal.signal(signum, old)
    assert got == [signum], "the signal was lost (or acted on twice)"
    if interrupted is not None or not other_thread:
        assert interrupted == signum, "a held signal did not interrupt the write"
        assert tree(d) == before, "a mix of two reports"
    else:  # seen only after the write's last check: the new report, whole, beside the user's file and old CSV
        contents = {name: content for name, (_, _, content) in tree(d).items()}
        expected = {name: text.encode() for name, text in new.items()}
        expected |= {"matches.csv": b"old matches.csv\n", "notes.txt": b"the user's own file\n"}
        assert contents == expected, "a mix of two reports"


def test_report_folder_signal_during_the_swap_waits_for_the_whole_new_report(tmp_path, monkeypatch):
    from mbrules import safe_output

    d = tmp_path / "report"
    _old_report(d)
    got = []
    old = signal.signal(signal.SIGTERM, lambda s, f: got.append(s))
    real_replace = os.replace
    n = []

    def replace_then_signal(*a, **kw):
        real_replace(*a, **kw)
        n.append(1)
        if len(n) == 1:
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(safe_output.os, "replace", replace_then_signal)
    new = {name: f"new {name}\n" for name in ("compare.json", "index.html", "matches.jsonl", "hands.csv")}
    try:
        safe_output.write_output_folder(d, new, owned=["matches.csv"])
    finally:
        signal.signal(signal.SIGTERM, old)
    assert got == [signal.SIGTERM]
    assert {p.name: p.read_text() for p in d.iterdir()} == {**new, "notes.txt": "the user's own file\n"}


def test_report_folder_swap_that_fails_midway_puts_the_old_report_back(tmp_path, monkeypatch):
    from mbrules import safe_output

    d = tmp_path / "report"
    before = _old_report(d)
    real_replace = os.replace
    n = []

    def replace_or_fail(src, dst, *, src_dir_fd=None, dst_dir_fd=None):
        n.append(src)
        if len(n) == 3 and not src.startswith(".old."):
            raise OSError(5, "Input/output error")
        real_replace(src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)

    monkeypatch.setattr(safe_output.os, "replace", replace_or_fail)
    with pytest.raises(OSError):
        safe_output.write_output_folder(
            d, {name: "new\n" for name in ("compare.json", "index.html", "hands.csv", "matches.jsonl")}
        )
    after = tree(d)
    assert {k: v[2] for k, v in after.items()} == {k: v[2] for k, v in before.items()}
    assert not [x for x in d.iterdir() if x.name.startswith(".mbrules-report-")]


@pytest.mark.slow
def test_report_interrupted_by_sigterm_at_any_moment_is_old_or_new_with_a_message(tmp_path):
    """The real command, signalled at several moments: the folder holds the old report or the new one."""
    d = tmp_path / "report"
    _old_report(d)
    old_names = {"compare.json", "index.html", "matches.jsonl", "matches.csv", "notes.txt"}
    new_names = {"compare.json", "index.html", "matches.jsonl", "matches.csv", "hands.csv", "notes.txt"}
    for delay in (0.8, 1.6, 2.4):
        for x in d.iterdir():
            x.unlink()
        _old_report(d.parent / "tmp-old")
        for x in (d.parent / "tmp-old").iterdir():
            x.rename(d / x.name)
        (d.parent / "tmp-old").rmdir()
        p = subprocess.Popen(
            CMD + QUICK + ["--out", "report"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        time.sleep(delay)
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=60)
        assert "Traceback" not in err, err
        names = {x.name for x in d.iterdir()}
        if names == old_names:
            assert all((d / n).read_text().startswith(("old", "the user's")) for n in names)
        else:
            assert names == new_names, names
            assert json.loads((d / "compare.json").read_text())["settings"]["games"] == 4
        if p.returncode != OK and not (p.returncode == -signal.SIGTERM and err == ""):
            # (-15: the signal came while Python itself was starting, before any mbrules code ran, or while it
            # was shutting down after the command ended; Python handles no signal there. The folder is
            # old or new all the same, as checked above)
            assert p.returncode == 128 + signal.SIGTERM, (p.returncode, err)
            # quiet only when stopped while starting up, before anything was done
            assert "interrupted" in err or (err == "" and names == old_names), err


# ----------------------------------------------------------------------------------------------------
# 2. simulate --out: records go to their file as they are made (memory does not grow with the games)


def _temporaries(folder: Path, name: str) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(f".{name}.") and p.name.endswith(".tmp")]


@pytest.mark.slow
@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_simulate_out_streams_records_to_disk_as_games_are_played_and_keeps_them_whole(suffix, tmp_path):
    name = f"records.{suffix}"
    (tmp_path / name).write_text("the old records\n")
    p = subprocess.Popen(
        CMD + ["simulate", "--players", "2", "--bot", "random", "--games", "1000000", "--json", "--out", name],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        grown = 0
        end = time.monotonic() + 90
        while time.monotonic() < end and grown < 200_000:  # a few dozen games' records on disk
            tmps = _temporaries(tmp_path, name)
            grown = tmps[0].stat().st_size if tmps else 0
            assert p.poll() is None, p.communicate()[1][-2000:]
            time.sleep(0.1)
        assert grown >= 200_000, "no records reached the disk while the games were played"
        assert (tmp_path / name).read_text() == "the old records\n", "the target was written before the end"
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert "Traceback" not in err, err
    assert p.returncode == 128 + signal.SIGINT, (p.returncode, err)
    games = json.loads(out)["games"]
    text = (tmp_path / name).read_text()
    if suffix == "jsonl":
        rows = [json.loads(line) for line in text.splitlines()]
        assert [r["match"] for r in rows] == list(range(games)), "records are the games counted, in seed order"
    else:
        import csv
        import io

        rows = list(csv.DictReader(io.StringIO(text)))
        assert sorted({int(r["match"]) for r in rows}) == list(range(games))
    assert _temporaries(tmp_path, name) == []


def test_simulate_api_hands_records_over_in_seed_order_without_keeping_them():
    from mbrules import load_game
    from mbrules.matches import simulate

    game = load_game("winning-moves", 2)
    seen: list[tuple[int, int]] = []
    stats, _ = simulate(
        game,
        ["random"],
        7,
        3,
        records=True,
        on_records=lambda first, recs: seen.extend((first + k, r.seed) for k, r in enumerate(recs)),
    )
    kept, _ = simulate(game, ["random"], 7, 3, records=True)
    assert stats.records == [], "records handed over are not kept in memory"
    assert [i for i, _ in seen] == list(range(7))
    assert [s for _, s in seen] == [r.seed for r in kept.records]
    kept.records = []
    assert stats == kept


# ----------------------------------------------------------------------------------------------------
# 6. An extends chain of about 960 files: a located error (exit 1), never a RecursionError


def _chain(folder: Path, n: int) -> str:
    for i in range(n):
        parent = "winning-moves" if i == 0 else f"c{i - 1}.yaml"
        (folder / f"c{i}.yaml").write_text(f"id: c{i}\nname: C{i}\nextends: {parent}\n")
    return f"c{n - 1}.yaml"


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [["validate", "{top}"], ["show", "{top}"], ["play", "--ruleset", "{top}", "--players", "2", "--hands", "1"]],
)
def test_extends_chain_of_960_files_is_a_located_error_not_a_recursion_error(command, tmp_path):
    top = _chain(tmp_path, 960)
    p = mb([a.format(top=top) for a in command], tmp_path)
    assert p.returncode == CHECK, (p.returncode, p.stderr[-2000:])
    assert "RecursionError" not in p.stderr + p.stdout
    import re

    assert re.search(r"^c\d+\.yaml:3:10: extends makes a chain of more than \d+ files", p.stderr, re.M), p.stderr[-800:]


def test_extends_chain_of_960_files_through_the_api_is_a_ruleset_error(tmp_path, monkeypatch):
    import mbrules
    from mbrules.ruleset import RulesetError

    monkeypatch.chdir(tmp_path)
    top = _chain(tmp_path, 960)
    with pytest.raises(RulesetError) as e:
        mbrules.load_game(top, 2)
    assert "extends makes a chain" in str(e.value) and ".yaml:3:10:" in str(e.value)


def test_extends_chain_at_the_bound_still_loads(tmp_path, monkeypatch):
    import mbrules
    from mbrules.ruleset.loader import MAX_EXTENDS_CHAIN

    monkeypatch.chdir(tmp_path)
    top = _chain(tmp_path, MAX_EXTENDS_CHAIN - 1)  # (plus the edition: MAX_EXTENDS_CHAIN files)
    assert mbrules.load_game(top, 2).ruleset_id == f"c{MAX_EXTENDS_CHAIN - 2}"


# ----------------------------------------------------------------------------------------------------
# 7. Smaller ones: one option given as a string, a closed pipe, a mean over no games


def test_load_game_takes_one_option_given_as_a_string_as_that_option():
    import mbrules

    one = mbrules.load_game("winning-moves", 2, options="hazard-on-hazard")
    listed = mbrules.load_game("winning-moves", 2, options=["hazard-on-hazard"])
    assert one.ruleset.applied_options == listed.ruleset.applied_options == ("hazard-on-hazard",)
    assert one.ruleset == listed.ruleset
    with pytest.raises(TypeError, match="option"):
        mbrules.load_game("winning-moves", 2, options=7)


def test_load_game_takes_one_option_given_as_a_path(tmp_path):
    import mbrules

    opt = tmp_path / "opt.yaml"
    opt.write_text(
        "kind: option\nid: opt\nname: Opt\ndescription: Opt\nsource: test\n"
        "play:\n  voluntary_discard: {value: false, decided: test}\n"
    )
    assert mbrules.load_game("winning-moves", 2, options=opt).ruleset.applied_options == ("opt",)


CONFORMANCE = str(ROOT / "tests" / "conformance")


@pytest.mark.parametrize(  # a process each: the fast set cuts one table's and one JSON document's output
    "args",
    [
        pytest.param(["replay", CONFORMANCE], marks=pytest.mark.slow),
        pytest.param(["diff", "winning-moves", "parker-1971"], marks=pytest.mark.slow),
        ["diff", "winning-moves", "kids-115", "--json"],
        pytest.param(["show", "winning-moves"], marks=pytest.mark.slow),
        ["rulesets"],
        pytest.param(["simulate", "--games", "2", "--players", "2", "--bot", "random"], marks=pytest.mark.slow),
    ],
    ids=["replay-folder", "diff", "diff-json", "show", "rulesets", "simulate-table"],
)
def test_output_cut_by_a_closed_pipe_ends_quietly_with_exit_0(args, tmp_path):
    """`mbrules replay DIR | head -1`: the reader closed the pipe; that is not a failed check (exit 1)."""
    p = subprocess.Popen(CMD + args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()  # the reader is gone before anything is printed
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == OK, err[-2000:]
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err, err[-2000:]


def test_a_failed_check_still_exits_1_when_the_pipe_is_open(tmp_path):
    (tmp_path / "bad.yaml").write_text("id: bad\nname: B\nextends: winning-moves\nplay:\n  no_such_rule: 1\n")
    p = mb(["validate", "bad.yaml"], tmp_path)
    assert p.returncode == CHECK


def test_simulate_summary_of_no_game_has_no_mean():
    from mbrules import load_game
    from mbrules.matches import new_stats, summary

    game = load_game("winning-moves", 2)
    report = summary(game, new_stats(game.sides), 0.5)
    for key in (
        "mean_hands_per_game",
        "mean_turns_per_hand",
        "trip_completed_share",
        "mean_points_per_hand_and_side",
        "coups_fourres_per_hand",
    ):
        assert report[key] is None, (key, report[key])
    assert all(v is None for line in report["mean_score_per_line"].values() for v in line.values())
    assert report["games"] == 0


LONG = (
    "id: long\nname: Long\ndescription: A match of many hands.\nsource: test\nextends: winning-moves\n"
    "match:\n  target_points: {value: 100000, decided: test}\n  max_hands: {value: 10000, decided: test}\n"
    "scoring:\n  safety: {value: 10, decided: test}\n"
    + "".join(
        f"  {k}: {{value: 0, decided: test}}\n"
        for k in (
            "milestones_per_mile",
            "all_safeties",
            "coup_fourre",
            "trip_completed",
            "delayed_action",
            "safe_trip",
            "shutout",
            "extension",
        )
    )
)


@pytest.mark.slow
@needs_proc
def test_simulate_json_interrupted_before_any_game_reports_null_means_not_zero(tmp_path):
    (tmp_path / "long.yaml").write_text(LONG)
    p = subprocess.Popen(
        CMD
        + [
            "simulate",
            "--ruleset",
            "long.yaml",
            "--players",
            "2",
            "--bot",
            "expert",
            "--games",
            "5",
            "--workers",
            "1",
            "--json",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_cpu([p.pid], 2.5, p, timeout=60)  # started up, first match under way
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 128 + signal.SIGINT, (p.returncode, err[-2000:])
    doc = json.loads(out)
    assert doc["interrupted"] is True and doc["games"] == 0
    assert doc["mean_hands_per_game"] is None and doc["mean_turns_per_hand"] is None


# ----------------------------------------------------------------------------------------------------
# 4. --backend ray --address at something that is not a Ray cluster: a sentence within 30 s, signals work


class _FakeServer:
    """A local TCP server that is not Ray: 'silent' accepts and says nothing, 'garbage' sends bytes that are
    not gRPC's greeting, 'close' closes each connection at once."""

    def __init__(self, mode: str, host: str = "127.0.0.1"):
        import socket
        import threading

        self.mode = mode
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.held: list = []
        self.done = False
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self) -> None:
        while not self.done:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            if self.mode == "close":
                conn.close()
            elif self.mode == "garbage":
                try:
                    conn.sendall(b"HTTP/1.0 400 Bad Request\r\n\r\nnot ray\n" * 4)
                except OSError:
                    pass
                self.held.append(conn)
            else:
                self.held.append(conn)

    def close(self) -> None:
        self.done = True
        self.sock.close()
        for c in self.held:
            c.close()


@pytest.fixture
def fake_cluster(request):
    server = _FakeServer(request.param)
    yield server
    server.close()


RAY_SIM = ["simulate", "--players", "2", "--bot", "random", "--games", "4", "--json", "--backend", "ray"]
RAY_LADDER = ["ladder", "--bot", "random", "--bot", "heuristic", "--players", "2", "--games", "2", "--backend", "ray"]


# the words of each refusal; a server that closes at once is seen as a close (EOF) or, when its close races
# the probe's greeting, as a reset (RST): both are its refusal (a make test run met the reset once)
NOT_RAY = {
    "silent": ("said nothing for",),
    "garbage": ("not as Ray does (no gRPC greeting)",),
    "close": ("closed the connection at once", "the connection was reset"),
}


@pytest.mark.parametrize("fake_cluster", sorted(NOT_RAY), indirect=True)
def test_ray_address_probe_refuses_each_kind_of_server_that_is_not_ray_within_its_bound(fake_cluster):
    """The check of an --address (cluster._probe) with a bound of 0.5 s, not the command's 10 s: the same
    refusal, each kind of server. The commands' wiring of it is the next test's, a process each."""
    from mbrules.matches.cluster import BackendUnavailable, _probe

    t0 = time.monotonic()
    with pytest.raises(BackendUnavailable) as info:
        _probe(f"127.0.0.1:{fake_cluster.port}", None, seconds=0.5)
    seconds = time.monotonic() - t0
    words = str(info.value)
    assert "cannot start or reach the Ray cluster" in words and "not a Ray cluster" in words, words
    assert any(w in words for w in NOT_RAY[fake_cluster.mode]), words
    assert seconds < 5, f"{seconds:.1f} s"  # the silent server: the bound given, not the default 10 s


# the command with the probe's bound (cluster.PROBE_SECONDS, 10 s: test_the_address_probe_is_bounded_by_10_s
# pins it) set to 1.5 s in its process: the silent server is cut off by the same code, sooner
SHORT_PROBE = 1.5
CMD_SHORT_PROBE = [
    sys.executable,
    "-c",
    f"import sys, mbrules.matches.cluster as c; c.PROBE_SECONDS = {SHORT_PROBE}; sys.argv[0] = 'mbrules'; "
    "from mbrules.cli.app import main; sys.exit(main())",
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "command,fake_cluster",
    # each command, each kind of server once (the probe over every kind: the test above); the silent server
    # waits out the bound, 1.5 s here (a process each: the import of Ray is 2 CPU-s)
    [(RAY_SIM, "silent"), (RAY_LADDER, "garbage"), (RAY_LADDER, "close")],
    ids=["simulate-silent", "ladder-garbage", "ladder-close"],
    indirect=["fake_cluster"],
)
def test_ray_address_that_is_not_a_ray_cluster_is_a_usage_error_within_30_s(command, fake_cluster, tmp_path):
    pytest.importorskip("ray")
    t0 = time.monotonic()
    args = command + ["--address", f"127.0.0.1:{fake_cluster.port}"]
    p = subprocess.run(CMD_SHORT_PROBE + args, cwd=tmp_path, capture_output=True, text=True, timeout=90)
    seconds = time.monotonic() - t0
    assert "Traceback" not in p.stderr + p.stdout, p.stderr[-2000:]
    assert p.returncode == USAGE, (p.returncode, p.stderr[-2000:])
    assert "cannot start or reach the Ray cluster" in p.stderr and "not a Ray cluster" in p.stderr, p.stderr[-2000:]
    assert any(w in p.stderr for w in NOT_RAY[fake_cluster.mode]), p.stderr[-2000:]
    if fake_cluster.mode == "silent":  # cut off at the bound the process was given, not at another
        assert f"said nothing for {SHORT_PROBE:g} s" in p.stderr, p.stderr[-2000:]
    assert p.stdout == ""
    assert seconds < 60, f"{seconds:.0f} s"  # (the probe gives up after its bound; the rest is start-up under load)


def test_the_address_probe_is_bounded_by_10_s(monkeypatch):
    """The bound the commands' check of an --address is given (the end-to-end test above shortens it): 10 s,
    as docs/cluster.md promises, read by _connect when it is called."""
    from mbrules.matches import cluster

    assert cluster.PROBE_SECONDS == 10.0
    doc = (ROOT / "docs" / "cluster.md").read_text(encoding="utf-8")
    assert "(exit 2) within 10 s" in doc
    given = []

    def probe(address, should_stop=None, seconds=-1.0):
        given.append(seconds)
        raise cluster.BackendUnavailable("stop here")

    class NoRay:
        @staticmethod
        def is_initialized() -> bool:
            return False

    monkeypatch.setattr(cluster, "_probe", probe)
    with pytest.raises(cluster.BackendUnavailable):
        cluster._connect(NoRay, "127.0.0.1:1", 1)  # type: ignore[arg-type]
    assert given == [10.0]


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize(
    "command",
    [RAY_SIM, RAY_LADDER],
    ids=["simulate", "ladder"],
)
def test_ray_address_check_is_stopped_by_a_signal_with_the_usual_exit_code(command, signum, tmp_path):
    pytest.importorskip("ray")
    server = _FakeServer("silent")
    try:
        p = subprocess.Popen(
            CMD + command + ["--address", f"127.0.0.1:{server.port}"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        end = time.monotonic() + 60
        while not server.held and time.monotonic() < end:  # the command is waiting for an answer now
            assert p.poll() is None, p.communicate()[1][-2000:]
            time.sleep(0.05)
        assert server.held, "the command never connected"
        time.sleep(0.3)
        p.send_signal(signum)
        out, err = p.communicate(timeout=30)
    finally:
        server.close()
        if p.poll() is None:
            p.kill()
    assert "Traceback" not in err, err[-2000:]
    assert p.returncode == 128 + signum, (p.returncode, err[-2000:])


def test_ray_address_in_ipv6_brackets_is_parsed(tmp_path):
    pytest.importorskip("ray")
    import socket

    from mbrules.matches.cluster import BackendUnavailable, split_address

    assert split_address("[::1]:6379") == ("::1", 6379)
    assert split_address("10.0.0.5:6379") == ("10.0.0.5", 6379)
    for bad in ("::1:6379", "[::1]", "host:", "host:99999", "[::1]6379"):
        with pytest.raises(BackendUnavailable):
            split_address(bad)
    if not socket.has_ipv6:
        return
    try:
        server = _FakeServer("close", "::1")
    except OSError:
        return  # no IPv6 loopback here: the parse is checked above
    try:
        # the address's parse and the refusal are the app's: in this process (Ray is imported above already)
        p = mb_here(RAY_SIM + ["--address", f"[::1]:{server.port}"], tmp_path)
    finally:
        server.close()
    assert p.returncode == USAGE and "not a Ray cluster" in p.stderr, p.stderr[-2000:]


def test_report_folder_moved_away_and_replaced_while_written_is_refused(tmp_path, monkeypatch):
    from mbrules import safe_output

    d = tmp_path / "report"
    _old_report(d)
    real = safe_output._write_into
    calls = []

    def write_then_swap_folders(dir_fd, name, content):
        real(dir_fd, name, content)
        calls.append(name)
        if len(calls) == 1:
            d.rename(tmp_path / "moved")
            d.mkdir()

    monkeypatch.setattr(safe_output, "_write_into", write_then_swap_folders)
    with pytest.raises(safe_output.OutputPathError, match="replaced during the run"):
        safe_output.write_output_folder(d, {"compare.json": "new\n", "index.html": "new\n"})
    assert list(d.iterdir()) == []
    assert sorted(x.name for x in (tmp_path / "moved").iterdir()) == sorted(
        ["compare.json", "index.html", "matches.jsonl", "matches.csv", "notes.txt"]
    )
    assert (tmp_path / "moved" / "compare.json").read_text() == "old compare.json\n"
