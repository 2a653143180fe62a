"""Entry point of the `mbrules` command. Each module below registers its commands on `app`."""

from __future__ import annotations

import os as _os
import signal as _signal
import sys as _sys

from mbrules import _startup

# The command itself (its console script or python -m mbrules.cli), not an import: ``import mbrules``
# has already made Ctrl-C and SIGTERM exit quietly with 130/143 while the modules load.
_EARLY = _startup.is_command()
if _EARLY:
    _startup.install_early()

import importlib as _importlib  # noqa: E402

from .common import app  # noqa: E402,F401

# Each module registers its commands on `app`. The console script imports only the module of the
# command it runs (a ruleset command need not pay for the engine, the bots and Rich's tables);
# --help, shell completion, an unknown command and every import from Python load them all.
COMMAND_MODULES = {
    "ruleset_cmds": ("rulesets", "show", "validate", "schema", "diff"),
    "play_cmds": ("play", "simulate"),
    "replay_cmd": ("replay",),
    "compare_cmd": ("compare",),
    "ladder_cmd": ("ladder",),
    "train_cmd": ("train",),
    "sweep_cmd": ("sweep",),
    "serve_cmd": ("serve",),
}


def _modules_for(argv: list[str]) -> list[str]:
    every = list(COMMAND_MODULES)
    if any(k.endswith("_COMPLETE") for k in _os.environ) or "--help" in argv or "-h" in argv:
        return every
    words = [a for a in argv[1:] if not a.startswith("-")]
    if not words and ("--version" in argv or "-V" in argv):
        return []  # the version is the app's own option: no command, bot or engine to load
    if not words:
        return every
    return [m for m, names in COMMAND_MODULES.items() if words[0] in names] or every


for _module in _modules_for(_sys.argv) if _EARLY else COMMAND_MODULES:
    _importlib.import_module(f"{__package__}.{_module}")


_MAIN_PID = _os.getpid()
_told = False


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM outside a command's own handling (while the rules are read, before the work): exit 143 quietly,
    as the contract says; a process forked from this one (a pool worker) dies of the signal as before."""
    if _os.getpid() != _MAIN_PID:
        _signal.signal(signum, _signal.SIG_DFL)
        _os.kill(_os.getpid(), signum)
        return
    global _told
    if not _told:  # the exit may be raised twice (mbrules._startup sends it again when Python cannot raise it)
        print("mbrules: interrupted (SIGTERM)", file=_sys.stderr)
        _told = True
    raise SystemExit(128 + signum)


def main() -> None:
    if _EARLY:  # imports done: Ctrl-C is Typer's (exit 130) or the command's own handling; SIGTERM exits 143
        _signal.signal(_signal.SIGINT, _signal.default_int_handler)
        _signal.signal(_signal.SIGTERM, _terminated)
    app()
