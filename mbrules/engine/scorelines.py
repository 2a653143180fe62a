"""Score lines as data (issue 36): ``scoring.lines`` compiled for the engine, and read at a hand's end.

A score line is a condition, points and recipients. :func:`compile_lines` turns the ruleset's lines
into plain tuples once (in :class:`~mbrules.engine.game.Game`); :func:`add_lines` lays them on a hand's
sheet. For each side meeting ``when``, ``points`` go to that side, or to each opposing side meeting
``to_when``. A line named after one of the contract's lines (``shutout``, ...) replaces the
engine's own rule for it: that line is cleared, then paid by the data. Nothing here knows an edition
or an option: the French capot, the French variant's 500 for a trip without 100s or 200s and a score
sheet's end-of-hand primes are all lines of this one form.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..vocab import SCORE_LINES

if TYPE_CHECKING:
    from ..ruleset.model import LineCondition, Ruleset
    from .fields import StateFields

# A compiled condition: (trip_completed, no_distance, hand_empty, safeties, none_played, exact_finish);
# None: not checked.
Condition = tuple[bool | None, bool | None, bool | None, int | None, tuple[int, ...] | None, bool | None]
# A compiled line: (name, points, when, to_each_opponent, to_when or None).
Line = tuple[str, int, Condition, bool, Condition | None]


def _condition(cond: LineCondition, index: dict[str, int]) -> Condition:
    none = None if cond.none_played is None else tuple(index[c] for c in cond.none_played)
    return (cond.trip_completed, cond.no_distance, cond.hand_empty, cond.safeties, none, cond.exact_finish)


def compile_lines(ruleset: Ruleset, index: dict[str, int]) -> tuple[tuple[Line, ...], tuple[str, ...], frozenset[str]]:
    """``(lines, sheet names, replaced contract lines)``: the names are the contract's ten with the new
    lines before ``total``, in the order the ruleset gives them."""
    lines = tuple(
        (name, line.points, _condition(line.when, index), line.to == "each_opponent",
         None if line.to_when is None else _condition(line.to_when, index))
        for name, line in ruleset.scoring.lines.items()
    )
    new = [name for name, *_ in lines if name not in SCORE_LINES]
    names = (*SCORE_LINES[:-1], *new, SCORE_LINES[-1])
    replaced = frozenset(name for name, *_ in lines if name in SCORE_LINES)
    return lines, names, replaced


def holds(st: "StateFields", s: int, cond: Condition, done: int) -> bool:
    """Whether side ``s`` meets ``cond`` now (``done``: the side that completed the trip, or -1)."""
    trip, blank, empty, safeties, none_played, exact = cond
    if exact is not None and (st._miles[s] == st._target) != exact:
        return False  # option exact-finish-bonus: landed exactly on the target (with overshoot it may pass it)
    if trip is not None and (done == s) != trip:
        return False
    if blank is not None and (st._miles[s] == 0) != blank:
        return False
    if empty is not None and all(not st._hands[p] for p in st.game.side_players[s]) != empty:
        return False
    if safeties is not None and len(st._safeties[s]) + len(st._coups[s]) != safeties:
        return False
    if none_played is not None:
        played = st._played[s]
        if any(played[c] for c in none_played):
            return False
    return True


def add_lines(st: "StateFields", sheet: list[dict[str, int]], done: int) -> None:
    """Pay the ruleset's score lines on ``sheet`` (one dict a side, every line name present)."""
    g = st.game
    for name in g.scoring_lines_replaced:
        for line in sheet:
            line[name] = 0  # the data's rule replaces the engine's for this contract line
    for name, points, when, each_opponent, to_when in g.scoring_lines:
        for s in range(g.sides):
            if not holds(st, s, when, done):
                continue
            if not each_opponent:
                sheet[s][name] += points
                continue
            for t in g.opponents[s]:
                if to_when is None or holds(st, t, to_when, done):
                    sheet[t][name] += points


__all__ = ["add_lines", "compile_lines", "holds"]
