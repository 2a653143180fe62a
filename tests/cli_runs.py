"""The `mbrules` command's app run in the test's own process, as a real process would answer.

A table of hostile command lines started one process a row spent most of its time starting Python and
importing the app (test_hostile_cli: 130 processes, 69 CPU-s; issue 46). The tables run one row of each
command and one of each exit code as the real command, in a subprocess (``first_rows``), and the others
here: Click's runner gives the bytes the app wrote on stdout and stderr and its exit code; an exception the
app lets out is written on stderr as the traceback a process would print, so a no-traceback check still
sees it."""

from __future__ import annotations

import contextlib
import subprocess
import traceback
from collections.abc import Iterable, Sequence
from pathlib import Path


def run_in_process(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """The command's app on ARGS in CWD, in this process: what a process would print (bytes), its exit code."""
    from typer.testing import CliRunner

    from mbrules.cli.app import app
    from mbrules.ruleset import clear_cache

    clear_cache()  # a process starts with no ruleset read: neither does a row
    with contextlib.chdir(cwd):
        res = CliRunner().invoke(app, list(args))
    err = res.stderr_bytes or b""
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        tb = "Traceback (most recent call last):\n" + "".join(traceback.format_exception(res.exception))
        err += tb.encode("utf-8", "backslashreplace")
    return subprocess.CompletedProcess(list(args), res.exit_code, res.stdout_bytes, err)


def first_rows(rows: Iterable[tuple[str, Sequence[str], int | None]]) -> set[str]:
    """The names of the rows that run the real command (name, argv, code): one a command, and one an exit code.

    A command's row is its first that gets past the parsing of its flags (exit code 0 or 1: the command's body
    ran, on the modules a fresh process imports for that command alone, cli/app.py's ``_modules_for``), else
    its first row; then the first row of each exit code no chosen row has. The other rows, usage errors and
    located errors like those, run the same app in this process: Click's exit code and the bytes on stdout and
    stderr are the ones the process gives (the first row of each command *and* exit code ran as a process:
    24 of test_hostile_cli's rows, 10 now; issue 46)."""
    rows = list(rows)
    chosen: dict[str, str] = {}
    for name, args, code in rows:
        if code in (0, 1) and args[0] not in chosen:
            chosen[args[0]] = name
    for name, args, _ in rows:
        chosen.setdefault(args[0], name)
    real = set(chosen.values())
    codes = {code for name, _, code in rows if name in real}
    for name, _, code in rows:
        if code not in codes:
            codes.add(code)
            real.add(name)
    return real
