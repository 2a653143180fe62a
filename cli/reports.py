"""What `compare` and `sweep` share as commands: checking the report folder before any match, the
progress bars of their phases (rate and ETA), and the words for a run that could not finish
(a worker that died, a signal while the folder was written, a write that failed)."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Sequence

import typer
from rich.console import Console

if TYPE_CHECKING:
    from rich.progress import Progress

from .common import EXIT_CHECK_FAILED, EXIT_USAGE, SignalFlag, fail, output_width, signals


def signal_name(signum: int) -> str:
    return "SIGINT" if signum == 2 else "SIGTERM" if signum == 15 else f"signal {signum}"


def check_report_folder(
    check_out: Callable[..., None], out: str | Path, inputs: Sequence[str | Path], charts: bool
) -> None:
    """``check_out`` (the report's own: which files it holds) before any match; exit 2 with its sentence."""
    from mbrules.compare.charts import ChartsUnavailable
    from mbrules.safe_output import OutputPathError

    try:
        check_out(out, inputs, charts)
    except OutputPathError as e:
        fail(str(e), EXIT_USAGE)
    except ChartsUnavailable as e:
        fail(f"mbrules: {e}", EXIT_USAGE)


PIPED_EVERY = 5.0  # seconds between two progress lines on a stderr that is not a terminal
LABEL_WIDTH = 24  # a phase's label in a progress bar, cut with "…" beyond (count, rate and ETA always shown)


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


@contextmanager
def phase_progress(
    unit: str, stream: Any = None, every: float = PIPED_EVERY, clock: Callable[[], float] | None = None
) -> Iterator[Callable[[str, str, int, int], None]]:
    """A ``progress(key, title, done, total)`` callback. On a terminal: one bar a phase on stderr, laid out
    for its width (:func:`output_width`) so that the count, the rate in ``unit``/s and the ETA stay in view
    at 80 columns (a long label is cut). Piped (stderr not a terminal): one line at most every ``every``
    seconds, ``mbrules: LABEL DONE/TOTAL UNIT, RATE UNIT/s, ETA M:SS``, so a run in a log shows it lives."""
    import time

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.table import Column

    stream = sys.stderr if stream is None else stream
    clock = time.monotonic if clock is None else clock
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        started: dict[str, tuple[float, int]] = {}
        last = [clock()]

        def line(key: str, title: str, done: int, total: int) -> None:
            now = clock()
            t0, d0 = started.setdefault(key, (now, done))
            if now - last[0] < every:
                return
            last[0] = now
            rate = (done - d0) / (now - t0) if now > t0 and done > d0 else None
            words = f"mbrules: {title} {done:,}/{total:,} {unit}"
            if rate:
                words += f", {rate:.1f} {unit}/s, ETA {_clock((total - done) / rate)}"
            print(words, file=stream, flush=True)

        yield line
        return

    width = output_width(stream)
    err = Console(file=stream, width=width)
    bar_width = max(6, width - LABEL_WIDTH - 48)
    tasks: dict[str, TaskID] = {}
    with Progress(
        TextColumn("{task.description}", table_column=Column(max_width=LABEL_WIDTH, no_wrap=True, overflow="ellipsis")),
        BarColumn(bar_width=bar_width),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
    ) as bar:

        def progress(key: str, title: str, done: int, total: int) -> None:
            if key not in tasks:
                tasks[key] = bar.add_task(title, total=total, rate="")
            t = tasks[key]
            bar.update(t, completed=done)
            speed = bar.tasks[[x.id for x in bar.tasks].index(t)].speed
            bar.update(t, rate=f"{speed:.1f} {unit}/s" if speed else "")

        yield progress


def count_bar(label: str, rate: str) -> Progress:
    """The progress bar of a run counted in one unit (simulate's games, train's matches) on stderr: the
    label, the bar, done/total, the rate (``rate`` formats it: "{:,.0f} games/s"), elapsed time and ETA;
    gone when done, and off when stderr is not a terminal. Use it as a context manager, then ``add_task``."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Task
    from rich.text import Text

    class RateColumn(ProgressColumn):  # once there is a rate to show
        def render(self, task: Task) -> Text:
            return Text(rate.format(task.speed) if task.speed else "")

    err = Console(stderr=True)
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )


def end_run(
    doc: dict[str, Any],
    as_json: bool,
    show: Callable[[], None],
    stop: SignalFlag,
    done: str,
    unwritten: str,
    out: str | None,
    written: bool,
) -> None:
    """How compare and sweep end: the ``--json`` document or the terminal's report (``show``); after a
    signal, what the figures count (``done``: "after 40 of 100 paired matches: ...") and, when the report
    folder was not written, that it was left as it was (``unwritten`` says why), then the signal's exit code."""
    if as_json:
        sys.stdout.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    else:
        show()
    if stop.signum is not None:
        print(f"mbrules: interrupted ({signal_name(stop.signum)}) after {done}", file=sys.stderr)
        if out is not None and not written:
            print(f"mbrules: {unwritten}: {out} is left as it was", file=sys.stderr)
        raise typer.Exit(stop.exit_code)


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
        fail(
            f"mbrules: a worker process stopped unexpectedly ({e}); the other workers were stopped "
            "and nothing is reported",
            EXIT_CHECK_FAILED,
        )
    except OutputInterrupted as e:  # a signal while the report was written: the folder is as it was
        print(
            f"mbrules: interrupted ({signal_name(e.signum)}) while the report was written: {out} is left as it was",
            file=sys.stderr,
        )
        raise typer.Exit(128 + e.signum)
    except OSError as e:
        fail(f"mbrules: cannot write the report in {out}: {e.strerror or e}", EXIT_USAGE)


def check_folder_name(out: str | None) -> None:
    """``--out`` of compare and sweep names a folder: an empty or blank one is a usage error (exit 2)."""
    if out is not None and out.strip() == "":
        fail("mbrules: --out needs a folder name (an empty one would write into the current folder)", EXIT_USAGE)


@contextmanager
def folder_run(
    unit: str, out: str | None, backend: str
) -> Iterator[tuple[Callable[[str, str, int, int], None], SignalFlag]]:
    """How compare and sweep run: a progress bar a phase (counted in ``unit``), Ctrl-C and SIGTERM setting the
    flag the run polls, each failure of the run or of its report folder as a sentence and the contract's code
    (:func:`report_run`), the cluster's session and a refused default bot (:func:`refused_bots`)."""
    from .backends import cluster_session

    with phase_progress(unit) as progress:
        with signals(raising=False) as stop, report_run(out):
            with cluster_session(backend), refused_bots():
                yield progress, stop
