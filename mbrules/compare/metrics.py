"""The metrics of a comparison: each is a ratio of sums over matches (see :mod:`.stats`).

A metric is ``(key, label, kind, values)`` where ``values(record)`` gives the match's numerator and
denominator. ``kind`` is ``share`` for a share of matches (Wilson interval) and ``ratio`` for every
other figure (delta-method interval, the match as the unit). The difference B − A of every metric
is paired by seed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mbrules.vocab import SCORE_LINES

from ..matches import intervals as stats

LINE_WORDS = {
    "milestones": "distance", "safeties": "safeties", "all_safeties": "all four safeties",
    "coup_fourres": "coups fourrés", "trip_completed": "trip completed", "delayed_action": "delayed action",
    "safe_trip": "safe trip", "shutout": "shutout", "extension": "extension",
}


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    kind: str  # "share" (of matches: Wilson) or "ratio" (delta method)
    values: Callable[[dict], tuple[float, float]]
    name: str = ""  # the human name the report and the headline print (the key stays in JSON and CSV)
    # "game": means the same whatever the seating (per hand, per match); "side": depends on how the
    # players are seated in sides (points per side, side A's wins): not differenced across seatings
    scope: str = "game"


def _hands(r):
    return r["hands"]


def _count(r, field):
    return sum(1 for h in r["hands"] if h[field])


def _sides(r):
    return len(r["totals"])


def _line_metric(line: str) -> Metric:
    return Metric(f"points_per_hand.{line}", f"points per hand and side: {LINE_WORDS[line]}", "ratio",
                  lambda r: (sum(sum(h["lines"][line]) for h in r["hands"]), len(r["hands"]) * _sides(r)),
                  f"Points per hand and side from {LINE_WORDS[line]}", "side")


METRICS: tuple[Metric, ...] = (
    Metric("hands_per_match", "hands per match", "ratio", lambda r: (r["hands_played"], 1), "Hands per match"),
    Metric("turns_per_hand", "turns per hand (cards played or discarded)", "ratio",
           lambda r: (r["turns"], r["hands_played"]), "Turns per hand"),
    Metric("trip_completed_share", "share of hands whose trip is completed (the rest end by exhaustion)", "ratio",
           lambda r: (sum(1 for h in r["hands"] if h["completed_by"] >= 0), r["hands_played"]),
           "Hands whose trip is completed"),
    Metric("coups_fourres_per_hand", "coups fourrés per hand", "ratio",
           lambda r: (sum(h["coups_fourres"] for h in r["hands"]), r["hands_played"]), "Coups fourrés per hand"),
    Metric("reshuffles_per_hand", "reshuffles of the discard pile into a new draw pile per hand (turn.reshuffles)",
           "ratio", lambda r: (sum(h.get("reshuffles", 0) for h in r["hands"]), r["hands_played"]),
           "Reshuffles per hand"),
    Metric("discard_draws_per_hand", "draws from the discard pile per hand (turn.draw_from_discard)", "ratio",
           lambda r: (sum(h.get("discard_draws", 0) for h in r["hands"]), r["hands_played"]),
           "Draws from the discard pile per hand"),
    Metric("safe_trip_share", "share of hands with a safe trip", "ratio",
           lambda r: (_count(r, "safe_trip"), r["hands_played"]), "Hands with a safe trip"),
    Metric("shutout_share", "share of hands with a shutout", "ratio",
           lambda r: (_count(r, "shutout"), r["hands_played"]), "Hands with a shutout"),
    Metric("extension_called_share", "share of hands where an extension is called", "ratio",
           lambda r: (_count(r, "extension_called"), r["hands_played"]), "Hands where the extension is called"),
    Metric("extension_made_share", "share of called extensions made (caller's side completes)", "ratio",
           lambda r: (_count(r, "extension_made"), _count(r, "extension_called")),
           "Extensions made, of those called"),
    Metric("points_per_hand", "points per hand and side (total)", "ratio",
           lambda r: (sum(sum(h["points"]) for h in r["hands"]), r["hands_played"] * _sides(r)),
           "Points per hand and side", "side"),
    *(_line_metric(line) for line in SCORE_LINES if line != "total"),
    Metric("first_side_win_share", "share of matches won by side A (the first seat's side)", "share",
           lambda r: (1 if r["winner"] == 0 else 0, 1), "Who wins: matches won by side A (the first seat's)", "side"),
    Metric("dealer_left_hand_share", "share of hands won by the side that plays first (dealer's left)", "ratio",
           lambda r: (sum(1 for h in r["hands"] if h["winner"] >= 0 and h["winner"] == h["first_side"]),
                      r["hands_played"]), "Hands won by the side that plays first", "side"),
    Metric("lead_changes_per_match", "lead changes per match (running totals after each hand)", "ratio",
           lambda r: (r["lead_changes"], 1), "Lead changes per match"),
    Metric("comeback_share", "comeback share: the winner was behind after the first hand", "share",
           lambda r: (1 if r["comeback"] else 0, 0 if r["comeback"] is None else 1),
           "Comebacks: the winner was behind after the first hand"),
    Metric("margin", "winning margin (points, winner minus runner-up)", "ratio",
           lambda r: (r["margin"] or 0, 0 if r["margin"] is None else 1), "Winning margin (points)"),
    Metric("draw_share", "share of matches drawn", "share", lambda r: (1 if r["result"] == "draw" else 0, 1),
           "Matches drawn"),
    Metric("unfinished_share", "share of matches unfinished (match.max_hands reached)", "share",
           lambda r: (1 if r["result"] == "unfinished" else 0, 1), "Matches unfinished (hand cap reached)"),
)
METRIC_BY_KEY = {m.key: m for m in METRICS}


# metrics of the extension: they do not apply to a game without one (shown "–", not 0%)
EXTENSION_METRICS = ("extension_called_share", "extension_made_share", "points_per_hand.extension")


def mark_not_applicable(rows: list[dict], games) -> None:
    """Blank the extension's metrics in an arm whose game has no extension (for this player count):
    "–" there, and no difference."""
    for r in rows:
        if r["key"] not in EXTENSION_METRICS:
            continue
        for arm, g in zip("ab", games):
            if g.extension_to is None:
                r[arm] = r[f"{arm}_ci95"] = None
                r["diff"] = r["ci95"] = r["se"] = None
                r["compared"] = r["flagged"] = r["excludes_zero"] = False
                r["p_holm"] = None


def metric_values(record: dict) -> tuple[tuple[int, int], ...]:
    """Every metric's (numerator, denominator) for one match record, in :data:`METRICS` order."""
    return tuple(m.values(record) for m in METRICS)


def arm_value(metric: Metric, moments: list, n: int) -> dict:
    """One arm's estimate, its 95% interval and how many units it rests on, from its sums over ``n`` matches."""
    sx, sy = moments[0], moments[1]
    if sy == 0:
        return {"value": None, "ci95": None, "n": int(sy), "method": None}
    if metric.kind == "share":
        return {"value": sx / sy, "ci95": list(stats.wilson(sx, sy)), "n": int(sy), "method": "wilson"}
    r, se = stats.ratio_se(moments, n)
    ci = stats.normal_ci(r, se)
    if ci:  # a normal interval may cross what the figure can be: every metric is >= 0, a share <= 1
        ci = (max(0.0, ci[0]), min(1.0, ci[1]) if metric.key.endswith("_share") else ci[1])
    return {"value": r, "ci95": list(ci) if ci else None, "n": n, "method": "delta"}


def row_from_sums(metric: Metric, sums: stats.PairSums, comparable: bool = True) -> dict:
    """A, B, and (when ``comparable``) the paired difference B − A with its 95% interval and p-value."""
    va, vb = arm_value(metric, sums.arm_moments(0), sums.n), arm_value(metric, sums.arm_moments(1), sums.n)
    d, se = sums.paired_diff() if comparable else (None, None)
    ci = stats.normal_ci(d, se)
    return {
        "key": metric.key, "label": metric.label, "name": metric.name or metric.label, "kind": metric.kind,
        "scope": metric.scope, "compared": comparable,
        "a": va["value"], "b": vb["value"], "diff": d,
        "a_ci95": va["ci95"], "b_ci95": vb["ci95"],
        "ci95": list(ci) if ci else None,
        "n_a": va["n"], "n_b": vb["n"], "pairs": sums.n, "method": va["method"] or vb["method"],
        "se": se,
        "p": stats.p_value(d, se),
    }


def sums_of(a: list[dict], b: list[dict]) -> list[stats.PairSums]:
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


def evaluate(a: list[dict], b: list[dict], comparable_sides: bool = True) -> list[dict]:
    """:func:`evaluate_sums` of two lists of paired records (match i of A with match i of B)."""
    return evaluate_sums(sums_of(a, b), comparable_sides)


def add_distribution(dist: dict, record: dict) -> None:
    """Count one record into the charts' distributions (value -> how many): turns per hand, points
    per hand and side, hands per match. Counts, not lists: their size does not grow with the games."""
    for h in record["hands"]:
        dist["turns_per_hand"][h["turns"]] += 1
        for p in h["points"]:
            dist["points_per_hand"][p] += 1
    dist["hands_per_match"][record["hands_played"]] += 1


def new_distribution() -> dict:
    from collections import Counter

    return {"turns_per_hand": Counter(), "points_per_hand": Counter(), "hands_per_match": Counter()}


def distributions(records: list[dict]) -> dict:
    """The charts' distributions of a list of records."""
    dist = new_distribution()
    for r in records:
        add_distribution(dist, r)
    return dist
