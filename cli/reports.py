"""What `compare` and `sweep` share as commands: checking the report folder before any match, the
progress bars of their phases (rate and ETA), and the words for a run that could not finish
(a worker that died, a signal while the folder was written, a write that failed)."""
from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator

import typer
from rich.console import Console

from .common import EXIT_CHECK_FAILED, EXIT_USAGE, fail


def signal_name(signum: int) -> str:
    return "SIGINT" if signum == 2 else "SIGTERM" if signum == 15 else f"signal {signum}"


def check_report_folder(check_out: Callable, out: str, inputs: list, charts: bool) -> None:
    """``check_out`` (the report's own: which files it holds) before any match; exit 2 with its sentence."""
    from mbrules.compare.charts import ChartsUnavailable
    from mbrules.safe_output import OutputPathError

    try:
        check_out(out, inputs, charts)
    except OutputPathError as e:
        fail(str(e), EXIT_USAGE)
    except ChartsUnavailable as e:
        fail(f"mbrules: {e}", EXIT_USAGE)


@contextmanager
def phase_progress(unit: str) -> Iterator[Callable[[str, str, int, int], None]]:
    """A ``progress(key, title, done, total)`` callback drawing one bar a phase on stderr, with the rate
    in ``unit``/s and the ETA (nothing when stderr is not a terminal)."""
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    err = Console(stderr=True)
    tasks: dict[str, int] = {}
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                  console=err, transient=True, disable=not err.is_terminal) as bar:

        def progress(key: str, title: str, done: int, total: int) -> None:
            if key not in tasks:
                tasks[key] = bar.add_task(title, total=total, rate="")
            t = tasks[key]
            bar.update(t, completed=done)
            speed = bar.tasks[[x.id for x in bar.tasks].index(t)].speed
            bar.update(t, rate=f"{speed:.1f} {unit}/s" if speed else "")

        yield progress


@contextmanager
def refused_bots() -> Iterator[None]:
    """A bot the library refuses before the first match (a default ladder rung whose model cannot be
    found or trained): exit 2 with its sentence, as the command's own checks do."""
    from mbrules.bots import UnknownBot

    try:
        yield
    except UnknownBot as e:
        fail(f"mbrules: {e}", EXIT_USAGE)


@contextmanager
def report_run(out: str | None) -> Iterator[None]:
    """The failures of a run that writes a report folder, each as a sentence and the contract's code."""
    from concurrent.futures.process import BrokenProcessPool

    from mbrules.safe_output import OutputInterrupted

    try:
        yield
    except BrokenProcessPool as e:
        fail(f"mbrules: a worker process stopped unexpectedly ({e}); the other workers were stopped "
             "and nothing is reported", EXIT_CHECK_FAILED)
    except OutputInterrupted as e:  # a signal while the report was written: the folder is as it was
        print(f"mbrules: interrupted ({signal_name(e.signum)}) while the report was written: {out} is left as it was",
              file=sys.stderr)
        raise typer.Exit(128 + e.signum)
    except OSError as e:
        fail(f"mbrules: cannot write the report in {out}: {e.strerror or e}", EXIT_USAGE)
