"""Score lines as data (issue 36): every line of the score sheet, compiled for the engine and paid at a hand's end.

A score line is a condition, points and recipients. The contract's ten lines are lines of this one form
too: :meth:`~mbrules.ruleset.model.ScoringRules.all_lines` gives the ruleset's standard entries (built
from its cited values: ``scoring.coup_fourre``, ...) and its own ``scoring.lines``; :func:`compile_lines`
turns them into plain tuples once (in :class:`~mbrules.engine.game.Game`), and :func:`pay_lines` lays them
on a hand's sheet. For each side meeting ``when``, ``points`` (times ``per``) go to that side, or to each
opposing side meeting ``to_when``. Nothing here knows an edition, an option or a line's name: the book's
safe trip, the French capot, the French variant's 500 for a trip without 100s or 200s and a score sheet's
end-of-hand primes are all lines of this one form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..vocab import SCORE_LINES

if TYPE_CHECKING:
    from ..ruleset.model import Ruleset, ScoreLineRule, SideFacts
    from .fields import StateFields

# What a condition checks, one code a key of the model's SideCondition / LineCondition.
(TRIP, BLANK, EMPTY, SAFETIES, NONE_PLAYED, EXACT, ALL_SAFETIES, DELAYED, CALLER, EXTENDED, EVERY_OPPONENT) = range(11)
PLAYED, ENDED_EMPTY, UNLESS = range(11, 14)
# What the points are paid per (ScoreLineRule.per): once, a mile, a safety, a coup fourré, a counted opponent.
ONCE, MILE, SAFETY, COUP, OPPONENT, MILE_UP_TO_TARGET = range(6)
_PER = {None: ONCE, "mile": MILE, "safety": SAFETY, "coup_fourre": COUP, "opponent": OPPONENT}

# A compiled condition: the checks it makes, (code, expected value) each; () checks nothing.
Condition = tuple[tuple[int, object], ...]
# A compiled line: (slot in the sheet's names, points, per, when, per_when, to_each_opponent, to_when,
# finisher_only, exclusive). finisher_only: ``when`` asks for the trip completed, so only the side that completed
# it is looked at (that check is then left out of ``when``): most lines of a sheet are the finisher's.
# exclusive: the line's group of alternatives (a side is paid by the first that holds), or -1.
Line = tuple[int, int, int, Condition, Condition, bool, Condition, bool, int]


def _condition(cond: SideFacts | None, index: dict[str, int]) -> Condition:
    if cond is None:
        return ()
    out: list[tuple[int, object]] = []
    for code, key in (
        (TRIP, "trip_completed"),
        (BLANK, "no_distance"),
        (EMPTY, "hand_empty"),
        (SAFETIES, "safeties"),
        (EXACT, "exact_finish"),
        (ALL_SAFETIES, "all_safeties"),
        (DELAYED, "delayed_action"),
        (CALLER, "called_extension"),
        (EXTENDED, "extended"),
    ):
        value = getattr(cond, key)
        if value is not None:
            out.append((code, value))
    if cond.none_played is not None:
        out.append((NONE_PLAYED, tuple(index[c] for c in cond.none_played)))
    if cond.played is not None:
        bounds = ((index[c], n.at_least, 1000 if n.at_most is None else n.at_most) for c, n in cond.played.items())
        out.append((PLAYED, tuple(bounds)))
    if cond.ended_empty_handed is not None:
        out.append((ENDED_EMPTY, cond.ended_empty_handed))
    unless = getattr(cond, "unless", None)
    if unless is not None:
        out.append((UNLESS, _condition(unless, index)))
    every = getattr(cond, "every_opponent", None)
    if every is not None:
        out.append((EVERY_OPPONENT, _condition(every, index)))
    return tuple(out)


def compile_lines(ruleset: Ruleset, index: dict[str, int]) -> tuple[tuple[Line, ...], tuple[str, ...]]:
    """``(lines, sheet names)``: the names are the contract's ten with the ruleset's new lines before
    ``total``, in the order it gives them; a line worth 0 is left out (it never changes a sheet), and so
    is every line where ``scoring.enabled`` is false (the kids' simpler game: a sheet of zeros)."""
    sc = ruleset.scoring
    entries = sc.all_lines()
    new: list[str] = []
    for name, rule in entries.items():
        sheet = rule.line or name
        if sheet not in SCORE_LINES and sheet not in new:
            new.append(sheet)
    names = (*SCORE_LINES[:-1], *new, SCORE_LINES[-1])
    return (compile_entries(entries, names, index) if sc.enabled.value else ()), names


def compile_entries(
    entries: "dict[str, ScoreLineRule]", names: tuple[str, ...], index: dict[str, int]
) -> tuple[Line, ...]:
    """The score lines ``entries`` (name -> model entry) as tuples, on the sheet ``names``; those worth 0 left out."""
    slot = {n: i for i, n in enumerate(names)}
    groups: dict[str, int] = {}
    out = []
    for name, rule in entries.items():
        if not rule.points:
            continue
        when = _condition(rule.when, index)
        finisher_only = (TRIP, True) in when
        out.append(
            (
                slot[rule.line or name],
                rule.points,
                MILE_UP_TO_TARGET if rule.up_to_target and rule.per == "mile" else _PER[rule.per],
                tuple(c for c in when if c != (TRIP, True)),
                _condition(rule.per_when, index),
                rule.to == "each_opponent",
                _condition(rule.to_when, index),
                finisher_only,
                -1 if rule.exclusive is None else groups.setdefault(rule.exclusive, len(groups)),
            )
        )
    return tuple(out)


def holds(st: "StateFields", s: int, cond: Condition, done: int) -> bool:
    """Whether side ``s`` meets ``cond`` now (``done``: the side that completed the trip, or -1)."""
    for code, want in cond:
        if code == TRIP:
            ok = done == s
        elif code == BLANK:
            ok = not any(st._played[s])  # no distance card: a safety's miles (play.safety_distance) are none
        elif code == NONE_PLAYED:
            played = st._played[s]
            # want is this code's tuple of card indices: a condition's value type follows its code, which mypy
            # cannot narrow from the int code (the compiler, compile_lines above, writes each pair)
            ok = not any(played[c] for c in want)  # type: ignore[attr-defined]
            want = True
        elif code == ALL_SAFETIES:
            n = st.game.safety_cards_in_deck
            ok = n > 0 and len(st._safeties[s]) + len(st._coups[s]) == n
        elif code == SAFETIES:
            ok = len(st._safeties[s]) + len(st._coups[s]) == want
            want = True
        elif code == DELAYED:
            ok = st._completion_delayed and st._completer == s  # completed with the draw pile out (WM §8)
        elif code == CALLER:
            caller = st._extension_called_by
            ok = caller >= 0 and st.game.side_of[caller] == s
        elif code == EXTENDED:
            ok = st._extension_called_by >= 0
        elif code == EXACT:
            ok = st._miles[s] == st._target  # option exact-finish-bonus: landed exactly on the target
        elif code == EMPTY:
            ok = all(not st._hands[p] for p in st.game.side_players[s])
        elif code == PLAYED:
            played = st._played[s]
            # want is this code's tuple of (card index, at least, at most) (the typing as for NONE_PLAYED)
            ok = all(lo <= played[c] <= hi for c, lo, hi in want)  # type: ignore[attr-defined]
            want = True
        elif code == ENDED_EMPTY:
            p = _last_actor(st)
            ok = p >= 0 and st.game.side_of[p] == s and not st._hands[p]
        elif code == UNLESS:
            ok = not holds(st, s, want, done)  # type: ignore[arg-type]
            want = True
        else:  # EVERY_OPPONENT
            # want is the nested condition every opponent must meet (the same code-follows-value typing as above)
            # a side with no opponent (a one-side table, option solo) meets no condition on its opponents: a
            # shutout is a trip 'before the opponent has played any Distance cards' (rulings: solo)
            opps = st.game.opponents[s]
            ok = bool(opps) and all(holds(st, t, want, done) for t in opps)  # type: ignore[arg-type]
            want = True
        if ok != want:
            return False
    return True


def _last_actor(st: "StateFields") -> int:
    """Who took the hand's last action (-1: none this hand): the one whose card ended it."""
    return st._history[-1][0] if st._history else -1  # (-1, -1) marks a new hand: none yet


def pay_lines(st: "StateFields", done: int) -> list[list[int]]:
    """Each side's points on each of the sheet's lines (``game.score_line_names``' order, ``total`` last)."""
    g = st.game
    S = g.sides
    rows = [[0] * len(g.score_line_names) for _ in range(S)]
    opponents = g.opponents
    every = range(S)
    finisher = (done,) if done >= 0 else ()
    paid: set[tuple[int, int]] = set()  # (side, exclusive group) already paid by one of its alternatives
    for slot, points, per, when, per_when, each_opponent, to_when, finisher_only, group in g.scoring_lines:
        for s in finisher if finisher_only else every:
            if group >= 0 and (s, group) in paid:
                continue
            if when and not holds(st, s, when, done):
                continue
            if group >= 0:
                paid.add((s, group))
            pts = points
            if per:
                if per == MILE:
                    n = st._miles[s]
                elif per == MILE_UP_TO_TARGET:  # PlayAural _calculate_race_scores: min(miles, round_distance)
                    n = min(st._miles[s], st._target)
                elif per == SAFETY:
                    n = len(st._safeties[s]) + len(st._coups[s])
                elif per == COUP:
                    n = len(st._coups[s])
                else:
                    n = sum(1 for t in opponents[s] if holds(st, t, per_when, done))
                pts = points * n
                if not pts:
                    continue
            if not each_opponent:
                rows[s][slot] += pts
                continue
            for t in opponents[s]:
                if not to_when or holds(st, t, to_when, done):
                    rows[t][slot] += pts
    for row in rows:
        row[-1] = sum(row)
    return rows


__all__ = ["compile_entries", "compile_lines", "holds", "pay_lines"]
