"""The Typer app shared by every command module, and the contract's exit codes."""
from __future__ import annotations

import sys
from typing import NoReturn

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
