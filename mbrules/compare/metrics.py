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
    "milestones": "milestones", "safeties": "safeties", "all_safeties": "all four safeties",
    "coup_fourres": "coups fourrés", "trip_completed": "trip completed", "delayed_action": "delayed action",
    "safe_trip": "safe trip", "shutout": "shutout", "extension": "extension",
}


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    kind: str  # "share" (of matches: Wilson) or "ratio" (delta method)
    values: Callable[[dict], tuple[float, float]]
    skill: bool = False  # computed on the strong-vs-weak matches


def _hands(r):
    return r["hands"]


def _count(r, field):
    return sum(1 for h in r["hands"] if h[field])


def _sides(r):
    return len(r["totals"])


def _line_metric(line: str) -> Metric:
    return Metric(f"points_per_hand.{line}", f"points per hand and side: {LINE_WORDS[line]}", "ratio",
                  lambda r: (sum(sum(h["lines"][line]) for h in r["hands"]), len(r["hands"]) * _sides(r)))


METRICS: tuple[Metric, ...] = (
    Metric("hands_per_match", "hands per match", "ratio", lambda r: (r["hands_played"], 1)),
    Metric("turns_per_hand", "turns per hand (cards played or discarded)", "ratio",
           lambda r: (r["turns"], r["hands_played"])),
    Metric("trip_completed_share", "share of hands whose trip is completed (the rest end by exhaustion)", "ratio",
           lambda r: (sum(1 for h in r["hands"] if h["completed_by"] >= 0), r["hands_played"])),
    Metric("coups_fourres_per_hand", "coups fourrés per hand", "ratio",
           lambda r: (sum(h["coups_fourres"] for h in r["hands"]), r["hands_played"])),
    Metric("safe_trip_share", "share of hands with a safe trip", "ratio",
           lambda r: (_count(r, "safe_trip"), r["hands_played"])),
    Metric("shutout_share", "share of hands with a shutout", "ratio",
           lambda r: (_count(r, "shutout"), r["hands_played"])),
    Metric("extension_called_share", "share of hands where an extension is called", "ratio",
           lambda r: (_count(r, "extension_called"), r["hands_played"])),
    Metric("extension_made_share", "share of called extensions made (caller's side completes)", "ratio",
           lambda r: (_count(r, "extension_made"), _count(r, "extension_called"))),
    Metric("points_per_hand", "points per hand and side (total)", "ratio",
           lambda r: (sum(sum(h["points"]) for h in r["hands"]), r["hands_played"] * _sides(r))),
    *(_line_metric(line) for line in SCORE_LINES if line != "total"),
    Metric("first_side_win_share", "share of matches won by side A (the first seat's side)", "share",
           lambda r: (1 if r["winner"] == 0 else 0, 1)),
    Metric("dealer_left_hand_share", "share of hands won by the side that plays first (dealer's left)", "ratio",
           lambda r: (sum(1 for h in r["hands"] if h["winner"] >= 0 and h["winner"] == h["first_side"]),
                      r["hands_played"])),
    Metric("lead_changes_per_match", "lead changes per match (running totals after each hand)", "ratio",
           lambda r: (r["lead_changes"], 1)),
    Metric("comeback_share", "comeback share: the winner was behind after the first hand", "share",
           lambda r: (1 if r["comeback"] else 0, 0 if r["comeback"] is None else 1)),
    Metric("margin", "winning margin (points, winner minus runner-up)", "ratio",
           lambda r: (r["margin"] or 0, 0 if r["margin"] is None else 1)),
    Metric("draw_share", "share of matches drawn", "share", lambda r: (1 if r["result"] == "draw" else 0, 1)),
    Metric("unfinished_share", "share of matches unfinished (match.max_hands reached)", "share",
           lambda r: (1 if r["result"] == "unfinished" else 0, 1)),
    Metric("skill_points_share", "skill sensitivity: the strong bot's side's share of all points scored",
           "ratio", lambda r: (r["totals"][r["strong_side"]], sum(t for t in r["totals"] if t > 0)), skill=True),
    Metric("skill_win_share", "skill sensitivity: share of matches the strong bot's side wins against the weak bot",
           "share", lambda r: (1 if r["winner"] >= 0 and r["winner"] == r["strong_side"] else 0, 1), skill=True),
)


def arm_value(metric: Metric, records: list[dict]) -> dict:
    """One arm's estimate, its 95% interval and how many units it rests on."""
    xs, ys = _xy(metric, records)
    n = len(records)
    sy = sum(ys)
    if sy == 0:
        return {"value": None, "ci95": None, "n": int(sy), "method": None}
    if metric.kind == "share":
        return {"value": sum(xs) / sy, "ci95": list(stats.wilson(sum(xs), sy)), "n": int(sy), "method": "wilson"}
    r, se = stats.ratio_se(stats.ratio_moments(xs, ys), n)
    ci = stats.normal_ci(r, se)
    if ci:  # a normal interval may cross what the figure can be: every metric is >= 0, a share <= 1
        ci = (max(0.0, ci[0]), min(1.0, ci[1]) if metric.key.endswith("_share") else ci[1])
    return {"value": r, "ci95": list(ci) if ci else None, "n": n, "method": "delta"}


def _xy(metric: Metric, records: list[dict]) -> tuple[list[float], list[float]]:
    xs, ys = [], []
    for rec in records:
        x, y = metric.values(rec)
        xs.append(x)
        ys.append(y)
    return xs, ys


def compare_metric(metric: Metric, a: list[dict], b: list[dict]) -> dict:
    """A, B, the paired difference B − A with its 95% interval and p-value (flag added by :func:`evaluate`)."""
    if len(a) != len(b):
        raise ValueError("the two arms must hold the same matches (pairs) to be compared")
    va, vb = arm_value(metric, a), arm_value(metric, b)
    xa, ya = _xy(metric, a)
    xb, yb = _xy(metric, b)
    # a pair counts only where both arms define the metric (e.g. an extension called in both)
    d, se = stats.paired_diff(xa, ya, xb, yb)
    ci = stats.normal_ci(d, se)
    return {
        "key": metric.key, "label": metric.label, "kind": metric.kind,
        "a": va["value"], "b": vb["value"], "diff": d,
        "a_ci95": va["ci95"], "b_ci95": vb["ci95"],
        "ci95": list(ci) if ci else None,
        "n_a": va["n"], "n_b": vb["n"], "method": va["method"] or vb["method"],
        "se": se,
        "p": stats.p_value(d, se),
    }


def evaluate(a: list[dict], b: list[dict], skill_a: list[dict] | None, skill_b: list[dict] | None) -> list[dict]:
    """Every metric of two arms, each difference tested, flags by Holm over the whole family."""
    rows = []
    for m in METRICS:
        if m.skill:
            if not skill_a:
                continue
            rows.append(compare_metric(m, skill_a, skill_b))
        else:
            rows.append(compare_metric(m, a, b))
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


def distributions(records: list[dict]) -> dict[str, list[int]]:
    """The raw values the charts show: turns per hand, points per hand and side, hands per match."""
    return {
        "turns_per_hand": [h["turns"] for r in records for h in r["hands"]],
        "points_per_hand": [p for r in records for h in r["hands"] for p in h["points"]],
        "hands_per_match": [r["hands_played"] for r in records],
    }
