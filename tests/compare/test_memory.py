"""compare's memory does not grow with the number of games (issue 22, item 2): metrics from running
sums, records streamed to the report folder as they are made.

The goal is stated on peak RSS (docs/memory.md: ``--games 3000`` within 1.3x of ``--games 300``,
``benchmarks/bench_compare.py memory`` measures it). A test at 3,300 games cost 75 CPU-seconds, and its
sensitivity was its game count: a leak had to pass 0.3x the process (about 15 MB over 5,400 records, some
2.8 KB a record) to be seen. Here the Python heap is traced (``tracemalloc``) in the command's own process:
what the play keeps between two points of one run (a leak of 1 KB a game shows over 50 pairs), and the peak
while the report is written (a file read whole shows as that file's size). The Python heap only: a leak in
C memory outside it would be left to ``bench_compare.py memory``."""

from __future__ import annotations

import contextlib
import tracemalloc
from statistics import median

import pytest

# the command benchmarks/bench_compare.py's memory figure runs (random bots, 2 players, one worker, no ladder)
ARGS = (
    "compare winning-moves --option-b hazard-on-hazard -p 2 --bot random --skill-games 0 --bots none"
    " --workers 1 --json --no-charts"
).split()
GAMES = 400  # pairs: matches.jsonl about 4 MB, four times the report writer's 1 MB copy block
WARM = 100  # pairs played before the heap is traced (caches and the distributions' first keys grow until then)
WINDOW = 80  # pairs traced after WARM
PER_PAIR = 2_000  # bytes a pair the play may keep (measured: about 700); both arms' records are about 29 KB a pair


def _traced_run(monkeypatch, out) -> tuple[list[tuple[int, int]], int]:
    """Run the command's app in this process on GAMES pairs; return the traced heap (pairs done, bytes) at each
    pair chunk of the window, and the traced peak while the report folder was written."""
    from typer.testing import CliRunner

    import mbrules.compare.report as report
    import mbrules.compare.run as run
    from mbrules.cli.app import app

    marks: list[tuple[int, int]] = []
    consume, write_report = run._Tally.consume, report.write_report

    def measured_consume(self, phase, start, result):  # the same sums; the heap read after each chunk
        consume(self, phase, start, result)
        done = self.done.get("main", 0)
        if WARM <= done and not marks:
            tracemalloc.start()
        if tracemalloc.is_tracing():
            marks.append((done, tracemalloc.get_traced_memory()[0]))
            if done >= WARM + WINDOW:
                tracemalloc.stop()

    peak = {}

    def measured_write_report(*args, **kwargs):
        tracemalloc.start()
        try:
            return write_report(*args, **kwargs)
        finally:
            peak["report"] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()

    monkeypatch.setattr(run._Tally, "consume", measured_consume)
    monkeypatch.setattr(report, "write_report", measured_write_report)
    with contextlib.ExitStack() as stack:
        stack.callback(lambda: tracemalloc.is_tracing() and tracemalloc.stop())
        res = CliRunner().invoke(app, [*ARGS, "--games", str(GAMES), "--out", str(out)])
    assert res.exit_code == 0 and res.exception is None, (res.output, res.exception)
    return marks, peak["report"]


@pytest.mark.slow
def test_compare_keeps_nothing_per_game_and_streams_its_records_into_the_report(tmp_path, monkeypatch):
    """The play holds what it held 50 pairs earlier (within 2 KB a pair: keeping each match's record would
    add about 14 KB a game), and writing the report never holds its largest file whole (matches.jsonl is
    copied in blocks from the spill); every record reaches the folder."""
    if tracemalloc.is_tracing():
        pytest.skip("the heap is already traced (python -X tracemalloc): the window would not be this test's")
    out = tmp_path / "large"
    marks, report_peak = _traced_run(monkeypatch, out)
    # each mark holds one chunk's records (10 pairs, their size varying with the games' lengths): the median of the
    # first three chunks traced whole and of the last three
    (first, held), (last, now) = (tuple(map(median, zip(*part))) for part in (marks[1:4], marks[-3:]))
    assert len(marks) >= 7 and last - first >= WINDOW / 2, marks
    assert now - held <= PER_PAIR * (last - first), (
        f"the play kept {now - held} bytes over {last - first} pairs: {marks}"
    )
    largest = max(p.stat().st_size for p in out.iterdir())
    assert largest > 3_000_000  # the measure below means something only past the copy block
    assert report_peak < 0.75 * largest, f"writing the report held {report_peak} bytes; its largest file is {largest}"
    assert sum(1 for _ in open(out / "matches.jsonl", encoding="utf-8")) == 2 * GAMES
