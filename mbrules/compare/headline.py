"""The headline of a comparison in words a player reads: the effects that matter as sentences, with
their size and interval, most important first. The same sentences, in the same order, are the
terminal's first lines, the top of ``index.html`` and ``summary`` in ``--json``."""

from __future__ import annotations

import re

from typing import TYPE_CHECKING, Sequence, TypedDict

from ..vocab import SCORE_LINE_WORDS, LineWords
from .figures import fmt, fmt_diff, known, known_ci

if TYPE_CHECKING:
    from .metrics import FocusRow, MetricRow
    from .run import Comparison


class SummaryItem(TypedDict):
    """One sentence of the headline (``summary`` in ``--json``): the metric (or ladder rung, restriction) it tells of."""

    metric: str
    text: str | None


RESTRICTION_WORDS = {
    "no_coup_fourre": "never calls a coup fourré",
    "no_extension": "never calls the extension",
    "no_attack": "never attacks (plays no hazard)",
    "no_safety_discard": "never discards a safety",
    "no_discard_draw": "never draws the discard pile's top",
    "no_mulligan": "never mulligans",
}
RESTRICTION_SHORT = {
    "no_coup_fourre": "coups fourrés",
    "no_extension": "the extension",
    "no_attack": "attacks",
    "no_safety_discard": "safety discards",
    "no_discard_draw": "discard draws",
    "no_mulligan": "mulligans",
}  # a progress bar's label: "forbid attacks"
RESTRICTION_NOUNS = {
    "no_coup_fourre": "coups fourrés",
    "no_extension": "the extension",
    "no_attack": "attacks",
    "no_safety_discard": "safety discards",
    "no_discard_draw": "draws from the discard pile",
    "no_mulligan": "mulligans",
}
ROBUST_WORDS = {True: "holds with every bot", False: "depends on the bots", None: "not checked with other bots"}
# the label of a flagged effect, by what the other lineups measured (``robust_verdict`` of a row):
# "unconfirmed" is a check with too few pairs to tell, never read as "depends on the bots"
VERDICT_BADGES = {
    "holds": "holds with every bot",
    "differs": "depends on the bots",
    "unconfirmed": "not confirmed",
    None: "not checked with other bots",
}

# what a table notices first, in this order (issue 34): hand length, trips completed, shutouts, who wins,
# then points; any other flagged effect after these, the largest first
NOTICED = (
    "turns_per_hand",
    "trip_completed_share",
    "shutout_share",
    "first_side_win_share",
    "points_per_hand",
    "margin",
)
HEADLINE_SENTENCES = 3
CERTAINTY = ("clearly", "probably", "not shown")


def relative(diff: float | None, base: float | None) -> float | None:
    if diff is None or not base:
        return None
    return diff / abs(base)


def _pct(v: float) -> str:
    return f"{100 * v:+.0f}%".replace("-", "−")


def _minus(s: str) -> str:
    """A negative number's hyphen as a minus sign; a hyphen inside a word (heuristic-2026) stays."""
    return re.sub(r"(?<![\w.])-(?=[\d.])", "−", s)


def effect_sentence(r: MetricRow) -> str:
    """``Turns per hand: 31.2 → 35.0, +3.8 (+12%; 95% CI +11% to +13%)``: a share's difference in
    percentage points, any other figure's also relative to A."""
    key = r["key"]
    lo, hi = known_ci(r["ci95"])
    head = f"{r['name']}: {fmt(r['a'], key)} → {fmt(r['b'], key)}"
    if key.endswith("_share"):
        return _minus(f"{head}, {fmt_diff(r['diff'], key)} (95% CI {fmt_diff(lo, key)} to {fmt_diff(hi, key)})")
    rel = relative(r["diff"], r["a"])
    if rel is None:
        return _minus(f"{head}, {fmt_diff(r['diff'], key)} (95% CI {fmt_diff(lo, key)} to {fmt_diff(hi, key)})")
    return _minus(
        f"{head}, {fmt_diff(r['diff'], key)} ({_pct(rel)}; 95% CI {_pct(lo / abs(known(r['a'])))} to {_pct(hi / abs(known(r['a'])))})"
    )


def importance(r: MetricRow) -> float:
    """How much a flagged effect matters, for the order: its size relative to A (a share's in points)."""
    if r["key"].endswith("_share"):
        return abs(known(r["diff"]))
    rel = relative(r["diff"], r["a"])
    return abs(rel) if rel is not None else 0.0


def bot_words(bot: str) -> str:
    """A lineup as a sentence names it: "the expert" for any budget of it, else the bot's name."""
    base = bot.partition(":")[0]
    return {
        "expert": "the expert",
        "learned": "the learned bot",
        "heuristic": "the heuristic",
        "random": "random play",
    }.get(base, base)


def verdict_of(r: MetricRow) -> str | None:
    """``holds``, ``differs`` or ``unconfirmed`` (see :func:`mbrules.compare.run.check_verdict`), None unchecked."""
    if "robust_verdict" in r:
        return r["robust_verdict"]
    return {True: "holds", False: "differs", None: None}[r.get("robust")]


def badge(r: MetricRow) -> str:
    """The short label of a flagged effect: "holds with every bot", "depends on the bots", "not confirmed"."""
    return VERDICT_BADGES[verdict_of(r)]


def notice_rank(r: MetricRow) -> int:
    """The order a table notices effects in: :data:`NOTICED` first, in its order; then the other shapes of
    the game (match length, coups fourrés...); then the score sheet's lines."""
    if r["key"] in NOTICED:
        return NOTICED.index(r["key"])
    return len(NOTICED) + (1 if r["key"].startswith("points_per_hand.") else 0)


def robust_words(r: MetricRow) -> str:
    """What the other lineups said of a flagged effect: "holds with every bot", "depends on the bots" (one of
    them measured it clearly smaller, absent or reversed) or "not confirmed with the expert (8 pairs)" (too
    few pairs to tell), with what each measured."""
    checks = r.get("robust_checks") or []
    verdict = verdict_of(r)
    if not checks:
        return VERDICT_BADGES[verdict]
    key = r["key"]
    words = "not confirmed" if verdict == "unconfirmed" else VERDICT_BADGES[verdict]
    seen = "; ".join(
        f"with {bot_words(c['bots'])}, {c['pairs']} pairs: {fmt_diff(c['diff'], key)}"
        + (f", 95% CI {fmt_diff(c['ci95'][0], key)} to {fmt_diff(c['ci95'][1], key)}" if c["ci95"] else "")
        for c in checks
    )
    return _minus(f"{words} ({seen})")


def _share(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.1f}%"


def focus_sentence(f: FocusRow, names: tuple[str, str]) -> str:
    if f["kind"] == "ladder":
        what = (
            f"Skill: {bot_words(f['focus'])} against {bot_words(f['other'])} wins {_share(f['a'])} → "
            f"{_share(f['b'])} of matches"
        )
    else:
        restriction = f["other"].partition(":")[2].partition("=")[0]

        what = (
            f"Restricted play: the heuristic against one that {RESTRICTION_WORDS.get(restriction, restriction)} "
            f"wins {_share(f['a'])} → {_share(f['b'])}"
        )
    if f["pairs"] == 0:
        return what + " (not played)"
    if f["ci95"] is None:
        return what + f" ({f['pairs']} matches per arm; not differenced: the arms seat the players differently)"
    lo, hi = f["ci95"]
    verdict = (
        ("this decision weighs more under B" if f["kind"] == "restricted" else "skill matters more under B")
        if f["flagged"] and known(f["diff"]) > 0
        else ("this decision weighs less under B" if f["kind"] == "restricted" else "skill matters less under B")
        if f["flagged"]
        else "no difference shown"
    )
    if not f["flagged"] and f.get("excludes_zero"):
        verdict += (
            f" once corrected for the {f.get('family', 'other')} ladder and restricted-play tests "
            "(Holm); its interval alone excludes 0"
        )
    return _minus(
        f"{what}, {100 * known(f['diff']):+.1f} percentage points (95% CI {100 * lo:+.1f} to {100 * hi:+.1f}; "
        f"{f['pairs']} matches per arm): {verdict}"
    )


def summary(cmp: Comparison) -> list[SummaryItem]:
    """The headline: every flagged effect (largest first, labelled by robustness), who wins, the
    skill ladder, and the decisions restricted play shows weighing differently."""
    out: list[SummaryItem] = []
    # the shape of the game first (hand length, match length, trips, coups fourrés...), then the score
    # sheet's lines; each group by the size of the effect
    flagged = sorted((r for r in cmp.rows if r["flagged"]), key=lambda r: (notice_rank(r), -importance(r)))
    win = next(r for r in cmp.rows if r["key"] == "first_side_win_share")
    for r in flagged:
        if not win["flagged"] and notice_rank(r) > notice_rank(win) and not any(x["metric"] == win["key"] for x in out):
            out.append({"metric": win["key"], "text": None})  # who wins in its place: filled in below
        out.append({"metric": r["key"], "text": f"{effect_sentence(r)}: {robust_words(r)}"})
    if not win["flagged"]:
        if not win["compared"]:
            text = "Who wins: not compared (the arms seat the players in different sides)"
        elif win["pairs"] == 0:
            text = "Who wins: no match finished"
        else:
            text = (
                f"Who wins: no difference shown (side A wins {fmt(win['a'], win['key'])} → "
                f"{fmt(win['b'], win['key'])} of matches)"
            )
            if win.get("excludes_zero"):
                text += (
                    f", once corrected for testing {sum(1 for r in cmp.rows if r['p_holm'] is not None)} "
                    "figures at once (Holm); its interval alone excludes 0"
                )
        slot = next((x for x in out if x["metric"] == win["key"]), None)
        if slot is None:
            out.append({"metric": win["key"], "text": text})
        else:
            slot["text"] = text
    for f in cmp.ladder:
        out.append({"metric": f["key"], "text": focus_sentence(f, cmp.arm_names)})
    shown = [f for f in cmp.restricted if f["flagged"]]
    for f in shown:
        out.append({"metric": f["key"], "text": focus_sentence(f, cmp.arm_names)})
    if cmp.restricted and not shown:
        played = [f for f in cmp.restricted if f["pairs"]]
        if played and all(f["ci95"] is not None for f in played):
            kinds = ", ".join(RESTRICTION_NOUNS.get(f["key"].partition(":")[2], f["key"]) for f in played)
            text = f"Restricted play: no decision ({kinds}) shown to weigh more or less under B"
            turned = [
                RESTRICTION_NOUNS.get(f["key"].partition(":")[2], f["key"]) for f in played if f.get("excludes_zero")
            ]
            if turned:
                text += (
                    f", once corrected for the {played[0].get('family', 'other')} ladder and restricted-play "
                    f"tests (Holm); the interval alone excludes 0 for {', '.join(turned)}"
                )
            out.append({"metric": "restricted", "text": text})
    return out


def no_difference(rows: Sequence[MetricRow]) -> list[str]:
    """The names of the metrics compared with no difference shown (for the line under the headline)."""
    return [
        r["name"]
        for r in rows
        if r["compared"]
        and not r["flagged"]
        and r["diff"] is not None
        and r["key"] != "first_side_win_share"
        and not r.get("excludes_zero")
    ]  # those: holm_sentence


def holm_sentence(rows: list[MetricRow]) -> str | None:
    """Where Holm's correction changed a verdict: the metrics whose 95% interval alone excludes 0 but which
    are not flagged once corrected for testing every metric at once (None when there is none)."""
    turned = [r["name"] for r in rows if r["compared"] and not r["flagged"] and r.get("excludes_zero")]
    if not turned:
        return None
    tests = sum(1 for r in rows if r.get("p_holm") is not None)
    return (
        f"Not shown once corrected for testing {tests} figures at once (Holm), though the 95% interval alone "
        f"excludes 0: {', '.join(turned)}."
    )


# -- the headline: at most three sentences a player reads first ------------------------------------
# each metric as a change in plain words: (rising, falling, what a "not shown" sentence names, unit)
PLAIN_CHANGES = {
    "turns_per_hand": ("hands get about {p} longer", "hands get about {p} shorter", "hand length", " turns"),
    "hands_per_match": (
        "matches take about {p} more hands",
        "matches take about {p} fewer hands",
        "match length",
        " hands",
    ),
    "trip_completed_share": (
        "trips are completed more often",
        "trips are completed less often",
        "how often trips are completed",
        " of hands",
    ),
    "shutout_share": ("shutouts become more common", "shutouts become rarer", "shutouts", " of hands"),
    "first_side_win_share": (
        "side A (the first seat's) wins more often",
        "side A (the first seat's) wins less often",
        "who wins",
        " of matches won by side A",
    ),
    "points_per_hand": (
        "each side scores about {p} more points a hand",
        "each side scores about {p} fewer points a hand",
        "points a hand",
        " points",
    ),
    "margin": (
        "matches are won by about {p} wider margins",
        "matches are won by about {p} narrower margins",
        "winning margins",
        " points",
    ),
    "coups_fourres_per_hand": (
        "coups fourrés become more common",
        "coups fourrés become rarer",
        "coups fourrés",
        " a hand",
    ),
    "safe_trip_share": ("safe trips become more common", "safe trips become rarer", "safe trips", " of hands"),
    "extension_called_share": (
        "the extension is called more often",
        "the extension is called less often",
        "extensions called",
        " of hands",
    ),
    "extension_made_share": (
        "called extensions succeed more often",
        "called extensions succeed less often",
        "extensions made",
        " of those called",
    ),
    "dealer_left_hand_share": (
        "the side that plays first wins more hands",
        "the side that plays first wins fewer hands",
        "the first side's hands",
        " of hands",
    ),
    "lead_changes_per_match": (
        "the lead changes more often",
        "the lead changes less often",
        "lead changes",
        " a match",
    ),
    "comeback_share": ("comebacks become more common", "comebacks become rarer", "comebacks", " of matches"),
    "draw_share": ("draws become more common", "draws become rarer", "draws", " of matches"),
    "unfinished_share": (
        "more matches reach the hand cap",
        "fewer matches reach the hand cap",
        "unfinished matches",
        " of matches",
    ),
}


def plain_value(v: float | None, key: str) -> str:
    """A figure as the headline shows it: a share as a whole percentage, else :func:`fmt`."""
    if v is None:
        return "–"
    return f"{100 * v:.0f}%" if key.endswith("_share") else fmt(v, key)


def about(rel: float) -> str:
    p = abs(100 * rel)
    return "1%" if p < 1.5 else f"{p:.0f}%"


def _plain_change(r: MetricRow) -> tuple[str, str]:
    """(the change in words, "a → b unit") of a row."""
    key = r["key"]
    plain = PLAIN_CHANGES.get(key)
    rel = relative(r["diff"], r["a"])
    if plain is not None:
        up, down, _, unit = plain
    else:  # a score line: "each side scores about 74% fewer points a hand from delayed action"
        line = key.partition(".")[2]
        words = r.get("plain") or SCORE_LINE_WORDS.get(line, LineWords.of_id(line)).plain
        up, down, unit = (
            f"each side scores about {{p}} more points a hand from {words}",
            f"each side scores about {{p}} fewer points a hand from {words}",
            " points",
        )
    text = up if known(r["diff"]) > 0 else down
    if "{p}" in text:
        text = text.replace("about {p} ", "") if rel is None else text.replace("{p}", about(rel))
    return text, f"{plain_value(r['a'], key)} → {plain_value(r['b'], key)}{unit}"


def certainty(r: MetricRow) -> str:
    """The plain word for how sure an effect is: "clearly" (flagged after Holm's correction, and held
    with every other lineup measured), "probably" (flagged, but no other lineup confirmed it), "not
    shown" (not flagged)."""
    if not r["flagged"]:
        return "not shown"
    return "clearly" if r.get("robust") is True else "probably"


def _tests(cmp: Comparison) -> int:
    return sum(1 for r in cmp.rows if r["p_holm"] is not None)


def _lineup_words(cmp: Comparison) -> str:
    bots = cmp.settings.get("bots") or []
    return f"with {bot_words(bots[0])}" if len(set(bots)) == 1 else "with this lineup"


def plain_sentence(cmp: Comparison, r: MetricRow) -> str:
    """One headline sentence: the certainty word, the change in plain words, the two figures; where Holm's
    correction turns an interval that excludes 0 into "not shown", or the other lineups did not confirm a
    flagged effect, the sentence says so."""
    word = certainty(r)
    if word == "not shown":
        noun = PLAIN_CHANGES.get(r["key"], (None, None, r["name"].lower(), ""))[2]
        _, figures = _plain_change({**r, "diff": r["diff"] or 0})
        text = f"Not shown: a change in {noun} ({figures})"
        if r["excludes_zero"]:
            text += f"; the difference is not clear once corrected for testing {_tests(cmp)} figures at once"
        return _minus(text + ".")
    change, figures = _plain_change(r)
    text = f"{word.capitalize()}, {change} ({figures})"
    verdict = verdict_of(r)
    checks = r.get("robust_checks") or []
    if verdict == "unconfirmed":
        thin = [c for c in checks if c.get("verdict") == "unconfirmed"]
        text += "; not confirmed with " + " or ".join(f"{bot_words(c['bots'])} ({c['pairs']} pairs)" for c in thin)
    elif verdict == "differs":
        other = [c for c in checks if c.get("verdict", "differs") == "differs"]
        text += f" {_lineup_words(cmp)}, not with " + " or ".join(bot_words(c["bots"]) for c in other)
    elif verdict is None:
        text += "; not checked with another bot"
    return _minus(text + ".")


def headline_rows(cmp: Comparison) -> list[MetricRow]:
    """The rows the headline speaks of, at most three: the flagged ones among what a table notices
    (:data:`NOTICED`, in that order; who wins even when not shown, since a player asks it first), then
    the other flagged ones, the largest first."""
    by_key = {r["key"]: r for r in cmp.rows}
    picked = []
    for key in NOTICED:
        r = by_key.get(key)
        if r is None or r["diff"] is None:
            continue
        if r["flagged"] or (key == "first_side_win_share" and r["compared"] and r["pairs"] > 0):
            picked.append(r)
    rest = sorted((r for r in cmp.rows if r["flagged"] and r["key"] not in NOTICED), key=lambda r: -importance(r))
    return (picked + rest)[:HEADLINE_SENTENCES]


STARVED = 0.9  # an arm whose hands end with no trip completed this often: its deck runs out first


def starved_sentences(cmp: Comparison) -> list[str]:
    """For each arm where trips almost never complete (at least :data:`STARVED` of its hands end with no
    trip completed: the draw pile, reshuffles included, runs out first), a sentence that says so, with the
    share's 95% interval in plain words and the matches it rests on; "clearly" when the whole interval is
    that high, else "probably". Nothing for an arm whose trips complete."""
    r = next((x for x in cmp.rows if x["key"] == "trip_completed_share"), None)
    if r is None:
        return []
    out = []
    for arm in "ab":
        done, ci, n = (r["a"], r["a_ci95"], r["n_a"]) if arm == "a" else (r["b"], r["b_ci95"], r["n_b"])
        if done is None or 1 - done < STARVED:
            continue
        word = "Clearly" if ci and 1 - ci[1] >= STARVED else "Probably"
        bounds = f"somewhere between {100 * (1 - ci[1]):.0f}% and {100 * (1 - ci[0]):.0f}%, " if ci else ""
        basis = f" ({bounds}from {n:,} match{'es' if n != 1 else ''})" if n else ""
        out.append(
            f"{word}, under {arm.upper()} the deck runs out before any car arrives in {100 * (1 - done):.0f}% "
            f"of hands{basis}: trips almost never complete."
        )
    return out


def headline(cmp: Comparison) -> list[str]:
    """At most three sentences a player reads first (``headline`` in ``--json``, the first lines of the
    terminal and of ``index.html``): first, where trips almost never complete in an arm, that its deck runs
    out before any car arrives (:func:`starved_sentences`); then what the rule does to hand length, trips,
    shutouts, who wins and points, each with its certainty ("clearly", "probably", "not shown"); the
    figures behind them follow."""
    first = starved_sentences(cmp)
    rows = headline_rows(cmp)
    if not any(r["flagged"] for r in cmp.rows):
        pairs = cmp.pairs_done
        none = (
            f"Not shown: any effect on play (hand length, trips, shutouts, who wins, points) in {pairs:,} "
            f"paired match{'es' if pairs != 1 else ''}."
        )
        rest = [none] + [plain_sentence(cmp, r) for r in rows if r["excludes_zero"]]
    else:
        rest = [plain_sentence(cmp, r) for r in rows]
    return (first + rest)[:HEADLINE_SENTENCES]
