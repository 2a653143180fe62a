"""The Typer app shared by every command module, and the contract's exit codes."""
from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
from typing import Iterator, NoReturn

import typer

EXIT_OK = 0
EXIT_CHECK_FAILED = 1  # invalid file, failed scenario
EXIT_USAGE = 2  # unknown ruleset, bad flag, unreadable file

app = typer.Typer(
    name="mbrules",
    help="Mille Bornes rules as data: list, show, diff and validate rulesets; play, simulate and replay games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(lines: list[str] | str, code: int) -> NoReturn:
    """Print error lines ('FILE:LINE:COL: message') to stderr and exit with the contract's code."""
    if isinstance(lines, str):
        lines = [lines]
    for line in lines:
        print(line, file=sys.stderr)
    raise typer.Exit(code)


EXIT_SIGNAL_BASE = 128  # a command stopped by a signal exits 128 + its number (130 Ctrl-C, 143 SIGTERM)


def check_range(flag: str, value: int | None, low: int, high: int, words: str = "") -> None:
    """A usage error (exit 2) naming the allowed range when ``value`` is outside ``low .. high``."""
    if value is not None and not low <= value <= high:
        shown = str(value) if len(str(value)) <= 30 else str(value)[:27] + "..."
        fail(f"mbrules: {flag} must be {words or f'from {low:,} to {high:,}'} (got {shown})", EXIT_USAGE)


class Interrupted(BaseException):
    """Raised in the main thread by SIGINT or SIGTERM while :func:`signals` is active (raising mode)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return EXIT_SIGNAL_BASE + self.signum


class SignalFlag:
    """Set by SIGINT or SIGTERM while :func:`signals` is active; call it to read the signal (or None)."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def __call__(self) -> int | None:
        return self.signum

    @property
    def exit_code(self) -> int:
        return EXIT_SIGNAL_BASE + (self.signum or 0)


@contextmanager
def signals(raising: bool) -> Iterator[SignalFlag]:
    """SIGINT (Ctrl-C) and SIGTERM during a command: set a flag the work polls (``raising`` False)
    or raise :class:`Interrupted` where the main thread is (``raising`` True). Handlers are put
    back afterwards. Outside the main thread (no handlers can be set there) it does nothing."""
    flag = SignalFlag()

    def handler(signum, frame) -> None:
        first = flag.signum is None
        if first:
            flag.signum = signum
        if raising and first:
            raise Interrupted(signum)

    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield flag
    finally:
        for s, h in old.items():
            signal.signal(s, h)
