"""A comparison's rows: each metric of the registry (:mod:`mbrules.matches.metrics`) in two arms, and
the paired difference B − A with its 95% interval, tested and flagged by Holm over the family.

``kind`` ``share`` is a share of matches (Wilson interval), ``ratio`` every other figure (delta-method
interval, the match as the unit). The difference of every metric is paired by seed.
"""

from __future__ import annotations

from ..matches import intervals as stats
from ..matches.metrics import METRICS, Metric, applies, arm_value, metric_values
from ..matches.records import MatchRecord


def mark_not_applicable(rows: list[dict], games) -> None:
    """Blank a metric in an arm whose game it does not apply to (:func:`applies`: the extension's without
    an extension, reshuffles or draws from the discard pile without those turn rules): "–" there, and no
    difference."""
    for m, r in zip(METRICS, rows):
        for arm, g in zip("ab", games):
            if not applies(m, g):
                r[arm] = r[f"{arm}_ci95"] = None
                r["diff"] = r["ci95"] = r["se"] = None
                r["compared"] = r["flagged"] = r["excludes_zero"] = False
                r["p_holm"] = None


def row_from_sums(metric: Metric, sums: stats.PairSums, comparable: bool = True) -> dict:
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


def sums_of(a: list[MatchRecord], b: list[MatchRecord]) -> list[stats.PairSums]:
    """The running sums of every metric over paired records (match i of A with match i of B)."""
    if len(a) != len(b):
        raise ValueError("the two arms must hold the same matches (pairs) to be compared")
    sums = [stats.PairSums() for _ in METRICS]
    for ra, rb in zip(a, b):
        add_pair(sums, metric_values(ra), metric_values(rb))
    return sums


def add_pair(sums: list[stats.PairSums], va, vb) -> None:
    for s, (xa, ya), (xb, yb) in zip(sums, va, vb):
        s.add(xa, ya, xb, yb)


def evaluate_sums(sums: list[stats.PairSums], comparable_sides: bool = True) -> list[dict]:
    """Every metric of two arms from their running sums, each difference tested, flags by Holm over
    the family of metrics compared. Side metrics are compared only when both arms seat the players
    in the same sides (``comparable_sides``); otherwise they are shown per arm, not differenced."""
    rows = [row_from_sums(m, s, comparable_sides or m.scope == "game") for m, s in zip(METRICS, sums)]
    # a difference with no spread at all (the metric is the same constant in every pair: no extension
    # in a ruleset without one) is not a test; it stays out of the family so as not to dilute it
    tested = [i for i, r in enumerate(rows) if r["se"] is not None and (r["se"] > 0 or r["diff"] != 0)]
    flags, adjusted = stats.holm([rows[i]["p"] for i in tested])
    for r in rows:
        r["flagged"] = False
        r["p_holm"] = None
        r["excludes_zero"] = bool(r["ci95"]) and (r["ci95"][0] > 0 or r["ci95"][1] < 0)
    for i, f, adj in zip(tested, flags, adjusted):
        rows[i]["flagged"] = f
        rows[i]["p_holm"] = adj
    return rows


def evaluate(a: list[MatchRecord], b: list[MatchRecord], comparable_sides: bool = True) -> list[dict]:
    """:func:`evaluate_sums` of two lists of paired records (match i of A with match i of B)."""
    return evaluate_sums(sums_of(a, b), comparable_sides)


def add_distribution(dist: dict, record: MatchRecord) -> None:
    """Count one record into the charts' distributions (value -> how many): turns per hand, points
    per hand and side, hands per match. Counts, not lists: their size does not grow with the games."""
    for h in record.hands:
        dist["turns_per_hand"][h.turns] += 1
        for p in h.points:
            dist["points_per_hand"][p] += 1
    dist["hands_per_match"][record.hands_played] += 1


def new_distribution() -> dict:
    from collections import Counter

    return {"turns_per_hand": Counter(), "points_per_hand": Counter(), "hands_per_match": Counter()}


def distributions(records: list[MatchRecord]) -> dict:
    """The charts' distributions of a list of records."""
    dist = new_distribution()
    for r in records:
        add_distribution(dist, r)
    return dist
