"""A comparison's rows: each metric of the registry (:mod:`mbrules.matches.metrics`) in two arms, and
the paired difference B − A with its 95% interval, tested and flagged by Holm over the family.

``kind`` ``share`` is a share of matches (Wilson interval), ``ratio`` every other figure (delta-method
interval, the match as the unit). The difference of every metric is paired by seed.

Rows are typed records (:class:`MetricRow`, :class:`FocusRow`): a key the code reads is one a checker
knows; their keys are the ``--json`` document's.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, NotRequired, Sequence, TypedDict

from ..matches import intervals as stats
from ..matches.metrics import METRICS, Metric, applies, arm_value, metric_values
from ..matches.records import MatchRecord

if TYPE_CHECKING:
    from ..engine import Game


class RobustCheck(TypedDict):
    """One other lineup's measurement of a flagged effect (``robust_checks`` of a row)."""

    bots: str
    pairs: int
    diff: float | None
    ci95: list[float] | None
    holds: bool
    verdict: str  # holds | differs | unconfirmed


class MetricRow(TypedDict):
    """One metric in both arms and their paired difference B − A (``metrics.KEY`` of ``--json``)."""

    key: str
    label: str
    name: str
    kind: str
    scope: str
    plain: str  # a score line's words in a headline's sentence (LineWords.plain); "" for any other metric
    compared: bool
    a: float | None
    b: float | None
    diff: float | None
    a_ci95: list[float] | None
    b_ci95: list[float] | None
    ci95: list[float] | None
    n_a: int
    n_b: int
    pairs: int
    method: str | None
    se: float | None
    p: float
    flagged: NotRequired[bool]  # (set by evaluate_sums: Holm over the family)
    p_holm: NotRequired[float | None]
    excludes_zero: NotRequired[bool]
    robust: NotRequired[bool | None]  # flagged rows, once the other lineups are measured
    robust_checks: NotRequired[list[RobustCheck]]
    robust_verdict: NotRequired[str | None]


class FocusRow(TypedDict):
    """A ladder rung or a restriction: the focus side's win share in each arm (``ladder``/``restricted``)."""

    key: str
    kind: str
    focus: str
    other: str
    pairs: int
    a: float | None
    a_ci95: list[float] | None
    b: float | None
    b_ci95: list[float] | None
    diff: float | None
    ci95: list[float] | None
    se: float | None
    excludes_zero: bool
    flagged: NotRequired[bool]
    p_holm: NotRequired[float | None]
    family: NotRequired[int]


Distribution = dict[str, Counter[int]]  # chart name -> value -> how many


def mark_not_applicable(rows: list[MetricRow], games: Sequence[Game], metrics: Sequence[Metric] = METRICS) -> None:
    """Blank a metric in an arm whose game it does not apply to (:func:`applies`: the extension's without
    an extension, reshuffles or draws from the discard pile without those turn rules, a ruleset's own score
    line where the arm's sheet has none): "–" there, and no difference."""
    for m, r in zip(metrics, rows):
        for arm, g in zip("ab", games):
            if not applies(m, g):
                if arm == "a":
                    r["a"] = r["a_ci95"] = None
                else:
                    r["b"] = r["b_ci95"] = None
                r["diff"] = r["ci95"] = r["se"] = None
                r["compared"] = r["flagged"] = r["excludes_zero"] = False
                r["p_holm"] = None


def row_from_sums(metric: Metric, sums: stats.PairSums, comparable: bool = True) -> MetricRow:
    """A, B, and (when ``comparable``) the paired difference B − A with its 95% interval and p-value."""
    va, vb = arm_value(metric, sums.arm_moments(0), sums.n), arm_value(metric, sums.arm_moments(1), sums.n)
    d, se = sums.paired_diff() if comparable else (None, None)
    ci = stats.normal_ci(d, se)
    return {
        "key": metric.key,
        "label": metric.label,
        "name": metric.name or metric.label,
        "kind": metric.kind,
        "scope": metric.scope,
        "plain": metric.plain,
        "compared": comparable,
        "a": va["value"],
        "b": vb["value"],
        "diff": d,
        "a_ci95": va["ci95"],
        "b_ci95": vb["ci95"],
        "ci95": list(ci) if ci else None,
        "n_a": va["n"],
        "n_b": vb["n"],
        "pairs": sums.n,
        "method": va["method"] or vb["method"],
        "se": se,
        "p": stats.p_value(d, se),
    }


def sums_of(a: list[MatchRecord], b: list[MatchRecord], metrics: Sequence[Metric] = METRICS) -> list[stats.PairSums]:
    """The running sums of every metric over paired records (match i of A with match i of B)."""
    if len(a) != len(b):
        raise ValueError("the two arms must hold the same matches (pairs) to be compared")
    sums = [stats.PairSums() for _ in metrics]
    for ra, rb in zip(a, b):
        add_pair(sums, metric_values(ra, metrics), metric_values(rb, metrics))
    return sums


Values = Sequence[tuple[int, int]]  # each metric's (numerator, denominator) for one match


def add_pair(sums: list[stats.PairSums], va: Values, vb: Values) -> None:
    for s, (xa, ya), (xb, yb) in zip(sums, va, vb):
        s.add(xa, ya, xb, yb)


def evaluate_sums(
    sums: list[stats.PairSums], comparable_sides: bool = True, metrics: Sequence[Metric] = METRICS
) -> list[MetricRow]:
    """Every metric of two arms from their running sums, each difference tested, flags by Holm over
    the family of metrics compared. Side metrics are compared only when both arms seat the players
    in the same sides (``comparable_sides``); otherwise they are shown per arm, not differenced."""
    rows = [row_from_sums(m, s, comparable_sides or m.scope == "game") for m, s in zip(metrics, sums)]
    # a difference with no spread at all (the metric is the same constant in every pair: no extension
    # in a ruleset without one) is not a test; it stays out of the family so as not to dilute it
    tested = [i for i, r in enumerate(rows) if tested_difference(r["se"], r["diff"])]
    flags, adjusted = stats.holm([rows[i]["p"] for i in tested])
    for r in rows:
        r["flagged"] = False
        r["p_holm"] = None
        r["excludes_zero"] = excludes_zero(r["ci95"])
    for i, f, adj in zip(tested, flags, adjusted):
        rows[i]["flagged"] = f
        rows[i]["p_holm"] = adj
    return rows


def tested_difference(se: float | None, diff: float | None) -> bool:
    """A difference that is a test: measured, with some spread (or away from 0)."""
    return se is not None and (se > 0 or diff != 0)


def excludes_zero(ci: Sequence[float] | None) -> bool:
    if not ci:
        return False
    return ci[0] > 0 or ci[1] < 0


def evaluate(
    a: list[MatchRecord], b: list[MatchRecord], comparable_sides: bool = True, metrics: Sequence[Metric] = METRICS
) -> list[MetricRow]:
    """:func:`evaluate_sums` of two lists of paired records (match i of A with match i of B)."""
    return evaluate_sums(sums_of(a, b, metrics), comparable_sides, metrics)


def add_distribution(dist: Distribution, record: MatchRecord) -> None:
    """Count one record into the charts' distributions (value -> how many): turns per hand, points
    per hand and side, hands per match. Counts, not lists: their size does not grow with the games."""
    for h in record.hands:
        dist["turns_per_hand"][h.turns] += 1
        for p in h.points:
            dist["points_per_hand"][p] += 1
    dist["hands_per_match"][record.hands_played] += 1


def new_distribution() -> Distribution:
    return {"turns_per_hand": Counter(), "points_per_hand": Counter(), "hands_per_match": Counter()}


def distributions(records: list[MatchRecord]) -> Distribution:
    """The charts' distributions of a list of records."""
    dist = new_distribution()
    for r in records:
        add_distribution(dist, r)
    return dist
