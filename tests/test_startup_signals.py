"""Ctrl-C and SIGTERM while the ``mbrules`` command starts: exit 130 and 143 quietly, both ways of running it.

The signal is sent by the process itself at a fixed point of its start-up (an audit hook in a
``sitecustomize`` on the path sends it when a given module is first imported), so the test is
deterministic: no sleep, no race with the import. ``python -m mbrules.cli`` is the way that used to
die of SIGTERM (killed by the signal, no exit code) and print a KeyboardInterrupt traceback on Ctrl-C.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

HOOK = """\
import os, sys
_module = os.environ.get("MBRULES_TEST_SIGNAL_AT")
if _module:
    _sent = []
    def _hook(event, args):
        if event == "import" and args[0] == _module and not _sent:
            _sent.append(1)
            os.kill(os.getpid(), int(os.environ["MBRULES_TEST_SIGNAL"]))
    sys.addaudithook(_hook)
"""


def _run(tmp_path: Path, command: list[str], at: str, signum: int) -> subprocess.CompletedProcess:
    (tmp_path / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]),
        MBRULES_TEST_SIGNAL_AT=at,
        MBRULES_TEST_SIGNAL=str(int(signum)),
    )
    return subprocess.run(
        [*command, "play", "--players", "2", "--hands", "1"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


# where the signal comes: the first module of the package, the CLI's imports, the command reading the rules
POINTS = ["mbrules.vocab", "typer", "mbrules.ruleset"]
FAST = {(signal.SIGINT, "typer"), (signal.SIGTERM, "typer")}  # the rest run with the slow tests


CASES = [
    pytest.param(signum, at, id=f"{signum.name}-{at}", marks=() if (signum, at) in FAST else pytest.mark.slow)
    for signum in (signal.SIGINT, signal.SIGTERM)
    for at in POINTS
]


@pytest.mark.parametrize(("signum", "at"), CASES)
def test_python_m_mbrules_cli_exits_130_or_143_quietly_when_a_signal_comes_while_it_starts(tmp_path, signum, at):
    """The contract's exit codes (130 SIGINT, 143 SIGTERM) hold from the command's first line, with no
    traceback, however the command is run."""
    r = _run(tmp_path, [sys.executable, "-m", "mbrules.cli"], at, signum)
    assert r.returncode == 128 + signum, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr and "KeyboardInterrupt" not in r.stderr, r.stderr[-2000:]
    assert r.stdout == ""  # stopped before the game: nothing half-told


def test_the_console_script_exits_130_quietly_on_ctrl_c_while_it_starts(tmp_path):
    script = Path(sys.executable).with_name("mbrules")
    if not script.exists():
        pytest.skip("no mbrules console script beside this Python")
    r = _run(tmp_path, [str(script)], "typer", signal.SIGINT)
    assert r.returncode == 130, (r.returncode, r.stderr[-2000:])
    assert "Traceback" not in r.stderr, r.stderr[-2000:]


def test_importing_mbrules_in_a_program_leaves_its_signals_alone():
    """Only the command changes the signals: a program (a notebook, a test run) that imports mbrules
    keeps Python's KeyboardInterrupt."""
    # against the handler the program had before the import: a process started in the background (nohup, a
    # CI runner's job) inherits SIGINT ignored, and then Python installs no default_int_handler at all
    code = (
        "import signal; before = signal.getsignal(signal.SIGINT); import mbrules; "
        "print(signal.getsignal(signal.SIGINT) is before)"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.stdout.strip() == "True", r.stderr
