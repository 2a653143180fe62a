"""The headline of a comparison in words a player reads: the effects that matter as sentences, with
their size and interval, most important first. The same sentences, in the same order, are the
terminal's first lines, the top of ``index.html`` and ``summary`` in ``--json``."""
from __future__ import annotations

from .figures import fmt, fmt_diff

RESTRICTION_WORDS = {
    "no_coup_fourre": "never calls a coup fourré",
    "no_extension": "never calls the extension",
    "no_attack": "never attacks (plays no hazard)",
    "no_safety_discard": "never discards a safety",
}
ROBUST_WORDS = {True: "holds with every bot", False: "depends on the bots", None: "not checked with other bots"}


def relative(diff: float | None, base: float | None) -> float | None:
    if diff is None or not base:
        return None
    return diff / abs(base)


def _pct(v: float) -> str:
    return f"{100 * v:+.0f}%".replace("-", "−")


def _minus(s: str) -> str:
    return s.replace("-", "−")


def effect_sentence(r: dict) -> str:
    """``Turns per hand: 31.2 → 35.0, +3.8 (+12%; 95% CI +11% to +13%)``: a share's difference in
    percentage points, any other figure's also relative to A."""
    key = r["key"]
    lo, hi = r["ci95"]
    head = f"{r['name']}: {fmt(r['a'], key)} → {fmt(r['b'], key)}"
    if key.endswith("_share"):
        return _minus(f"{head}, {fmt_diff(r['diff'], key)} (95% CI {fmt_diff(lo, key)} to {fmt_diff(hi, key)})")
    rel = relative(r["diff"], r["a"])
    if rel is None:
        return _minus(f"{head}, {fmt_diff(r['diff'], key)} (95% CI {fmt_diff(lo, key)} to {fmt_diff(hi, key)})")
    return _minus(f"{head}, {fmt_diff(r['diff'], key)} ({_pct(rel)}; 95% CI {_pct(lo / abs(r['a']))} "
                  f"to {_pct(hi / abs(r['a']))})")


def importance(r: dict) -> float:
    """How much a flagged effect matters, for the order: its size relative to A (a share's in points)."""
    if r["key"].endswith("_share"):
        return abs(r["diff"])
    rel = relative(r["diff"], r["a"])
    return abs(rel) if rel is not None else 0.0


def robust_words(r: dict) -> str:
    """"holds with every bot" or "depends on the bots", with what the other lineups measured."""
    words = ROBUST_WORDS[r.get("robust")]
    checks = r.get("robust_checks") or []
    if not checks:
        return words
    key = r["key"]
    seen = "; ".join(
        f"{c['bots'].partition(':')[0]}: {fmt_diff(c['diff'], key)}"
        + (f", 95% CI {fmt_diff(c['ci95'][0], key)} to {fmt_diff(c['ci95'][1], key)}" if c["ci95"] else "")
        + f", {c['pairs']} pairs" for c in checks)
    return _minus(f"{words} ({seen})")


def _share(v) -> str:
    return "–" if v is None else f"{100 * v:.1f}%"


def focus_sentence(f: dict, names: tuple[str, str]) -> str:
    if f["kind"] == "ladder":
        what = f"Skill: {f['focus']} against {f['other']} wins {_share(f['a'])} → {_share(f['b'])} of matches"
    else:
        restriction = f["other"].partition(":")[2].partition("=")[0]

        what = (f"Restricted play: the heuristic against one that {RESTRICTION_WORDS.get(restriction, restriction)} "
                f"wins {_share(f['a'])} → {_share(f['b'])}")
    if f["pairs"] == 0:
        return what + " (not played)"
    if f["ci95"] is None:
        return what + f" ({f['pairs']} matches a arm; not differenced: the arms seat the players differently)"
    lo, hi = f["ci95"]
    verdict = ("this decision weighs more under B" if f["kind"] == "restricted" else "skill matters more under B") \
        if f["flagged"] and f["diff"] > 0 else \
        ("this decision weighs less under B" if f["kind"] == "restricted" else "skill matters less under B") \
        if f["flagged"] else "no difference shown"
    return _minus(f"{what}, {100 * f['diff']:+.1f} pt (95% CI {100 * lo:+.1f} to {100 * hi:+.1f}; "
                  f"{f['pairs']} matches a arm): {verdict}")


def summary(cmp) -> list[dict]:
    """The headline: every flagged effect (largest first, labelled by robustness), who wins, the
    skill ladder, and the decisions restricted play shows weighing differently."""
    out = []
    # the shape of the game first (hand length, match length, trips, coups fourrés...), then the score
    # sheet's lines; each group by the size of the effect
    flagged = sorted((r for r in cmp.rows if r["flagged"]),
                     key=lambda r: (r["key"].startswith("points_per_hand"), -importance(r)))
    for r in flagged:
        out.append({"metric": r["key"], "text": f"{effect_sentence(r)}: {robust_words(r)}"})
    win = next(r for r in cmp.rows if r["key"] == "first_side_win_share")
    if not win["flagged"]:
        if not win["compared"]:
            text = "Who wins: not compared (the arms seat the players in different sides)"
        elif win["pairs"] == 0:
            text = "Who wins: no match finished"
        else:
            text = (f"Who wins: no difference shown (side A wins {fmt(win['a'], win['key'])} → "
                    f"{fmt(win['b'], win['key'])} of matches)")
        out.append({"metric": win["key"], "text": text})
    for f in cmp.ladder:
        out.append({"metric": f["key"], "text": focus_sentence(f, cmp.arm_names)})
    shown = [f for f in cmp.restricted if f["flagged"]]
    for f in shown:
        out.append({"metric": f["key"], "text": focus_sentence(f, cmp.arm_names)})
    if cmp.restricted and not shown:
        played = [f for f in cmp.restricted if f["pairs"]]
        if played and all(f["ci95"] is not None for f in played):
            out.append({"metric": "restricted", "text": "Restricted play: no decision (coups fourrés, the extension, "
                        "attacks, safety discards) weighs differently shown"})
    return out


def no_difference(cmp) -> list[str]:
    """The names of the metrics compared with no difference shown (for the line under the headline)."""
    return [r["name"] for r in cmp.rows if r["compared"] and not r["flagged"] and r["diff"] is not None
            and r["key"] != "first_side_win_share"]
