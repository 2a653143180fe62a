"""The first lines of the ``mbrules`` command: quiet exits for a signal that comes while it starts.

The command is its console script (``mbrules``) or ``python -m mbrules.cli``. Until the command
installs its own handling (:func:`mbrules.cli.app.main`), Ctrl-C or SIGTERM while the modules are
imported exits 130 or 143 quietly, never with a KeyboardInterrupt traceback nor killed by the signal
(the contract's exit codes). ``import mbrules`` calls :func:`install_early` first thing, so the
window covers every module the command loads; a program that merely imports mbrules is untouched.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from types import FrameType

_VALUED = {"-W", "-X", "--check-hash-based-pycs"}  # interpreter options that take the next word


def is_command() -> bool:
    """True in the process of the ``mbrules`` command (its console script, or ``python -m mbrules.cli``)."""
    if sys.argv and os.path.basename(sys.argv[0]) == "mbrules":
        return True
    words: list[str] = list(getattr(sys, "orig_argv", ()))[1:]  # the interpreter's own command line
    i = 0
    while i < len(words):
        w = words[i]
        if w == "-m":
            return i + 1 < len(words) and words[i + 1] == "mbrules.cli"
        if w.startswith("-m") and not w.startswith("--"):
            return w[2:] == "mbrules.cli"
        if w in ("-c", "-") or not w.startswith("-"):
            return False  # code or a script: its own arguments follow
        i += 2 if w in _VALUED else 1
    return False


def _exit_quietly(signum: int, frame: FrameType | None) -> NoReturn:
    raise SystemExit(128 + signum)  # 130 for SIGINT, 143 for SIGTERM


def _signal_again(unraisable: sys.UnraisableHookArgs) -> None:
    """A signal's exit raised where Python cannot raise it (inside a callback run by the interpreter, e.g. an
    import lock's weak-reference callback while a module loads) would be printed as "Exception ignored" with a
    traceback, and the command would go on as if no signal had come. Such an exit is sent again as the same
    signal a moment later, from another thread, so that the main thread meets it in its own code."""
    exc = unraisable.exc_value
    signum = 0
    if isinstance(exc, KeyboardInterrupt):
        signum = signal.SIGINT
    elif isinstance(exc, SystemExit) and exc.code in (128 + signal.SIGINT, 128 + signal.SIGTERM):
        signum = int(exc.code) - 128
    if not signum:
        sys.__unraisablehook__(unraisable)
        return
    import threading

    threading.Timer(0.01, os.kill, (os.getpid(), signum)).start()


def install_early() -> None:
    """Ctrl-C and SIGTERM exit quietly with 130 and 143 (until the command installs its own handling)."""
    sys.unraisablehook = _signal_again
    for s in (signal.SIGINT, signal.SIGTERM):
        try:
            signal.signal(s, _exit_quietly)
        except ValueError:  # not the main thread: leave the signals to whoever runs it
            return
