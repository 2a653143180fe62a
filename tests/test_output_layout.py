"""Output a person reads fits the terminal (issue 34): text wraps between words, tables that do not fit fold
into rows, and the progress of compare and sweep keeps its count, rate and ETA at 80 columns, or, piped,
prints a line every few seconds."""

from __future__ import annotations

import io
import re

from rich.cells import cell_len

from mbrules.cli.layout import fits, folded, wrap
from mbrules.cli.reports import phase_progress


def test_wrap_breaks_between_words_with_a_hanging_indent():
    text = "Hands whose trip is completed: 85.6% → 97.0%, +11.4 pt (95% CI +7.7 pt to +15.2 pt): holds with every bot"
    lines = wrap(text, 40, "- ")
    assert all(cell_len(x) <= 40 for x in lines) and lines[0].startswith("- ")
    assert all(x.startswith("  ") for x in lines[1:])
    assert " ".join(x[2:] for x in lines).split() == text.split()  # no word cut


def test_a_table_that_does_not_fit_folds_into_a_title_and_whole_groups():
    heads = ["metric", "A", "95%", "B", "95%", "B − A", "95%", "p (Holm)", ""]
    rows = [
        [
            "Turns per hand",
            "66.7",
            "[64.3, 69.0]",
            "56.7",
            "[55.0, 58.3]",
            "-10.0",
            "[-12.1, -7.98]",
            "<0.001",
            "robust",
        ]
    ]
    assert not fits(heads, rows, 80) and fits(heads, rows, 140)
    groups = ["A 85.6% [82.0%, 89.2%]", "B 97.0% [95.3%, 98.7%]", "B − A +11.4 pt [+7.7 pt, +15.2 pt]", "p <0.001"]
    lines = folded("Hands whose trip is completed: holds with every bot", groups, 80)
    assert lines[0] == "Hands whose trip is completed: holds with every bot"
    assert all(cell_len(x) <= 80 for x in lines)
    body = " ".join(lines[1:])
    assert all(g in body for g in groups)  # each group whole, on one line


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_piped_progress_prints_a_line_every_few_seconds_with_count_rate_and_eta():
    err, clock = io.StringIO(), Clock()
    with phase_progress("pairs", stream=err, every=5.0, clock=clock) as progress:
        for done in range(0, 101, 10):
            progress("main", "paired matches", done, 100)
            clock.now += 1.0  # ten pairs a second
    lines = err.getvalue().splitlines()
    assert len(lines) == 2  # at 5 s and 10 s: never a line a call
    assert re.fullmatch(r"mbrules: paired matches 50/100 pairs, 10\.0 pairs/s, ETA 0:05", lines[0]), lines


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bars_keep_count_rate_and_eta_at_80_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    err = Terminal()
    with phase_progress("pairs", stream=err) as progress:
        progress("ladder", "restricted: no safety discard and a label far too long for its column", 0, 1000)
        progress("ladder", "restricted: no safety discard and a label far too long for its column", 340, 1000)
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", err.getvalue())
    frames = [x for x in re.split(r"[\r\n]", shown) if "/1000" in x]
    assert frames, shown
    last = frames[-1]
    assert cell_len(last.rstrip()) <= 80
    assert "340/1000" in last and "ETA" in last and "…" in last  # the label is cut, never the figures
