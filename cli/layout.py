"""Text a person reads, laid out for the width of the terminal (:func:`cli.common.output_width`): paragraphs
wrapped between words, bullets with a hanging indent, and tables that fold into rows when they do not fit.

The same inputs at the same width give the same bytes (tests pin ``COLUMNS``)."""

from __future__ import annotations

import textwrap
from typing import Sequence

from rich.cells import cell_len
from rich.console import Console, JustifyMethod
from rich.table import Table

FOLD_INDENT = "    "  # the figures of a folded row, under its title
MIN_TITLE = 18  # a table keeps its layout only while its first column can be at least this wide


def wrap(text: str, width: int, first: str = "", rest: str | None = None) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken between words only (a word longer than a line
    stays whole on a line of its own), ``first`` before the first line and ``rest`` (default: as many spaces)
    before the others."""
    rest = " " * cell_len(first) if rest is None else rest
    return textwrap.wrap(
        text, width=width, initial_indent=first, subsequent_indent=rest, break_long_words=False, break_on_hyphens=False
    ) or [first.rstrip()]


def print_lines(con: Console, lines: Sequence[str], style: str | None = None) -> None:
    """Lines already laid out, printed as they are (never re-wrapped, never read as markup)."""
    for line in lines:
        con.print(line, markup=False, highlight=False, style=style, soft_wrap=True)


def table_width(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> tuple[int, int]:
    """(the columns a boxed table needs with every cell on one line, of which its first column)."""
    widths = [
        max([cell_len(h)] + [max((cell_len(x) for x in str(r[i]).split("\n")), default=0) for r in rows])
        for i, h in enumerate(headers)
    ]
    return sum(widths) + 3 * len(widths) + 1, widths[0]


def fits(headers: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> bool:
    """True when a table fits ``width`` with every column after the first on one line and its first column
    at least :data:`MIN_TITLE` wide (or as wide as its longest cell, if less)."""
    total, first = table_width(headers, rows)
    return total - first + min(first, MIN_TITLE) <= width


def table(headers: Sequence[tuple[str, JustifyMethod]], rows: Sequence[Sequence[str]]) -> Table:
    """A boxed table whose first column wraps between words and whose other columns never wrap."""
    t = Table(title_justify="left")
    for k, (head, justify) in enumerate(headers):
        t.add_column(head, justify=justify, no_wrap=k > 0, overflow="fold")
    for r in rows:
        t.add_row(*r)
    return t


def folded(title: str, groups: Sequence[str], width: int) -> list[str]:
    """One row of a table that does not fit, as a person reads it: its title on a line (wrapped), then
    its figures, each group kept whole, as many a line as fit, under the title."""
    lines = wrap(title, width)
    line = ""
    for g in (x for x in groups if x):
        if line and cell_len(FOLD_INDENT + line + "   " + g) > width:
            lines.append(FOLD_INDENT + line)
            line = ""
        line = g if not line else line + "   " + g
    if line:
        if cell_len(FOLD_INDENT + line) > width:
            lines += wrap(line, width, FOLD_INDENT)
        else:
            lines.append(FOLD_INDENT + line)
    return lines
