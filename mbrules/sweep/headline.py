"""The headline of a sweep in words: which value gives what (the curve metrics per value), each
trend shown over the swept values with its size per step and interval, and the target's values.
The same sentences are the terminal's first lines, the top of ``index.html`` and ``summary`` in ``--json``."""
from __future__ import annotations

from ..compare.figures import fmt, fmt_ci, fmt_diff
from .values import fmt_value

PER_VALUE_LINES = 8  # above this many values, the table says it (one sentence a value is too long)


def _minus(s: str) -> str:
    return s.replace("-", "−")


def step_of(values) -> float:
    """The step a trend is given per: the values' smallest gap."""
    xs = sorted(values)
    gaps = [b - a for a, b in zip(xs, xs[1:]) if b > a]
    return min(gaps) if gaps else 1


def fmt_p(p: float | None) -> str:
    if p is None:
        return "p –"
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.2g}"


def trend_sentence(sw, r: dict) -> str:
    key = r["metric"]
    first, last = sw.points[0], sw.points[-1]
    a, b = first["metrics"][key]["value"], last["metrics"][key]["value"]
    path = sw.sets[0].path
    step = step_of(sw.sets[0].values)
    per = r["slope"] * step
    lo, hi = (c * step for c in r["ci95"]) if r["ci95"] else (None, None)
    word = "rises" if r["slope"] > 0 else "falls"
    text = (f"{r['name']} {word} as {path} goes {fmt_value(sw.sets[0].values[0])} → "
            f"{fmt_value(sw.sets[0].values[-1])}: {fmt(a, key)} → {fmt(b, key)}, {fmt_diff(per, key)} per "
            f"+{fmt_value(step)}")
    if lo is not None:
        text += f" (95% CI {fmt_diff(lo, key)} to {fmt_diff(hi, key)}; trend test {fmt_p(r['p_holm'])} after Holm)"
    return _minus(text)


def value_sentence(sw, p: dict) -> str:
    parts = []
    for key in sw.settings["metrics"]:
        m = p["metrics"][key]
        parts.append(f"{m['name'].lower()} {fmt(m['value'], key)} {fmt_ci(m['ci95'], key)}".rstrip())
    return _minus(f"At {p['label']}: " + "; ".join(parts))


def target_sentence(sw) -> str:
    t = sw.target
    key = t["metric"]
    name = sw.points[0]["metrics"][key]["name"]
    goal = fmt(t["value"], key)
    if t["closest"] is None:
        return f"Target {name} = {goal}: no value measured it"
    held = (f"the 95% interval holds it at {', '.join(t['held_by'])}" if t["held_by"]
            else "no value's 95% interval holds it")
    return _minus(f"Target {name} = {goal}: {held}; closest: {t['closest']} "
                  f"({fmt(t['closest_value'], key)} {fmt_ci(t['closest_ci95'], key)})")


def size(sw, r: dict) -> float:
    """How much a trend moves its metric over the values swept: in points for a share, else relative
    to the first value (the order of the other trends)."""
    xs = sw.sets[0].values
    move = abs(r["slope"] * (max(xs) - min(xs)))
    if r["metric"].endswith("_share"):
        return move
    base = sw.points[0]["metrics"][r["metric"]]["value"]
    return move / abs(base) if base else 0.0


def steps_sentence(sw, key: str) -> str:
    """``Hands per match: 4.1 at false, 4.6 at true; +0.50 (95% CI +0.21 to +0.79) from false to true``."""
    pts = sw.points
    name = pts[0]["metrics"][key]["name"]
    at = ", ".join(f"{fmt(p['metrics'][key]['value'], key)} at {fmt_value(p['value'])}" for p in pts)
    steps = []
    for prev, p in zip(pts, pts[1:]):
        m = p["metrics"][key]
        if m.get("diff_prev") is None:
            continue
        ci = m.get("diff_prev_ci95")
        shown = "" if not ci else f" (95% CI {fmt_diff(ci[0], key)} to {fmt_diff(ci[1], key)})"
        steps.append(f"{fmt_diff(m['diff_prev'], key)}{shown} from {fmt_value(prev['value'])} to {fmt_value(p['value'])}")
    return _minus(f"{name}: {at}" + ("; " + "; ".join(steps) if steps else "") + " (paired by seed)")


def summary(sw) -> list[dict]:
    out = []
    if sw.target is not None:
        out.append({"metric": sw.target["metric"], "kind": "target", "text": target_sentence(sw)})
    curve = sw.settings["metrics"]
    by_key = {r["metric"]: r for r in sw.trend}
    for key in curve:
        r = by_key.get(key)
        if r is None:
            continue
        if r["flagged"]:
            out.append({"metric": key, "kind": "curve", "text": trend_sentence(sw, r)})
        else:
            lo, hi = r["ci95"] or (None, None)
            out.append({"metric": key, "kind": "curve", "text": _minus(f"{r['name']}: no trend shown over {sw.sets[0].path} "
                                                      f"(slope {r['slope']:+.3g} a unit, 95% CI "
                                                      f"{lo:+.3g} to {hi:+.3g})") if lo is not None else
                        f"{r['name']}: no trend shown over {sw.sets[0].path}"})
    if not sw.trend and len(sw.points) > 1:  # values that are not numbers: no slope, the steps in words
        for key in curve:
            out.append({"metric": key, "kind": "curve", "text": steps_sentence(sw, key)})
    others = sorted((r for r in sw.trend if r["flagged"] and r["metric"] not in curve),
                    key=lambda r: -size(sw, r))[:4]
    for r in others:
        out.append({"metric": r["metric"], "kind": "other", "text": trend_sentence(sw, r)})
    if len(sw.points) <= PER_VALUE_LINES:
        for p in sw.points:
            out.append({"metric": "point", "kind": "point", "text": value_sentence(sw, p)})
    return out
