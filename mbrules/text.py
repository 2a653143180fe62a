"""Words for people, the engine's and every command's: counts (``plural(1, "card")`` is "1 card",
``plural(2, "card")`` "2 cards") and text folded to a width between words (:func:`fold`). A leaf: a
command that only prints (rulesets, show) imports it without the engine."""

from __future__ import annotations

from typing import Iterable


def plural(n: int, one: str, many: str | None = None) -> str:
    """``n`` and the noun that goes with it (``many`` for an irregular plural; default: ``one`` + s)."""
    return f"{n} {one if n == 1 else (many if many is not None else one + 's')}"


def fold(text: str, width: int, hang: int | None = None) -> str:
    """``text`` with every line longer than ``width`` folded between words.

    A folded line goes on under its own text: indented as the line was plus two spaces (or ``hang``
    spaces), so a reader sees where an entry ends. A word longer than the width (a path) stays whole.
    The same text and width give the same bytes."""
    import textwrap

    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))] + "  " if hang is None else " " * hang
        out.extend(
            textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)
            or [line]
        )
    return "\n".join(out)


def players_refused(ruleset_id: str, players: int, counts: Iterable[int | str]) -> str:
    """The one sentence for a player count a ruleset has no setup for (``counts``: the ones it has), the
    same in every command (play, simulate, show -p, ...) and in the Python API."""
    allowed = ", ".join(sorted((str(c) for c in counts), key=int))
    alone = "; a one-player table is an option: --option solo" if players == 1 else ""
    return f"{ruleset_id} is not played with {plural(players, 'player')} (it allows {allowed}{alone})"
