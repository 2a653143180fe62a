"""The headline of a sweep in words: which value gives what (the curve metrics per value), each
trend shown over the swept values with its size per step and interval, and the target's values.
The same sentences are the terminal's first lines, the top of ``index.html`` and ``summary`` in ``--json``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from ..compare.figures import fmt, fmt_ci, fmt_diff
from .values import fmt_value

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from .run import Sweep

PER_VALUE_LINES = 8  # above this many values, the table says it (one sentence a value is too long)


def _minus(s: str) -> str:
    """A negative number's hyphen as a minus sign; a hyphen inside a word stays."""
    return re.sub(r"(?<![\w.])-(?=[\d.])", "−", s)


def lower_first(name: str) -> str:
    """A metric's name inside a sentence: its first letter lower-cased, the rest as written ("side A" stays)."""
    return name[:1].lower() + name[1:]


# a swept value as a player names it: the path's pattern (``*`` for a player count or a card id) -> words
PATH_NOUNS = {
    "player_counts.*.target": "the {key}-player trip",
    "player_counts.*.extension_to": "the {key}-player extension",
    "player_counts.*.sides": "the {key}-player sides",
    "cards.*.count": "the number of {card} cards",
    "cards.*.miles": "the miles of {card}",
    "cards.*.max_per_hand": "the most {card} cards a side may play in a hand",
    "match.target_points": "the match's target score",
    "match.max_hands": "the most hands in a match",
    "play.hand_size": "the hand size",
}


def path_words(parts: Sequence[str], ruleset: Ruleset | None = None) -> str:
    """A ``--set`` path in words: ``player_counts.2.target`` is "the 2-player trip", ``player_counts.*.target``
    "the trip", ``cards.stop.count`` "the number of Stop! cards", ``scoring.safe_trip`` "the safe trip bonus";
    any other value its phrase from ``mbrules show``/``diff`` (:mod:`mbrules.ruleset.words`)."""
    from ..ruleset.words import phrase, pretty_id

    parts = [p for p in parts if p != "value"]
    if not parts:
        return "the value"
    stars = {1} if parts[0] in ("player_counts", "removals", "cards", "box") and len(parts) > 1 else set()
    pattern = ".".join("*" if i in stars else p for i, p in enumerate(parts))
    key = parts[1] if stars else ""
    card = ""
    if parts[0] == "cards" and len(parts) > 1:
        c = getattr(ruleset, "cards", {}).get(parts[1]) if ruleset is not None else None
        card = c.name if c is not None else pretty_id(parts[1])
    noun = PATH_NOUNS.get(pattern)
    if noun is not None:
        if key == "*":
            noun = noun.replace("the {key}-player ", "the ").replace("the {key}-player", "the")
        return noun.format(key=key, card=card)
    words = phrase(pattern, key="" if key == "*" else key, card=card)
    if parts[0] == "scoring" and not words.startswith(("points", "cards")):
        return "the " + words
    return words


def step_of(values: Sequence[Any]) -> float:
    """The step a trend is given per: the values' smallest gap."""
    xs = sorted(values)
    gaps = [b - a for a, b in zip(xs, xs[1:]) if b > a]
    return min(gaps) if gaps else 1


def fmt_p(p: float | None) -> str:
    if p is None:
        return "p –"
    return "p < 0.0001" if p < 1e-4 else f"p = {p:.2g}"


def trend_sentence(sw: Sweep, r: dict[str, Any]) -> str:
    key = r["metric"]
    first, last = sw.points[0], sw.points[-1]
    a, b = first["metrics"][key]["value"], last["metrics"][key]["value"]
    path = sw.sets[0].path
    step = step_of(sw.sets[0].values)
    per = r["slope"] * step
    lo, hi = (c * step for c in r["ci95"]) if r["ci95"] else (None, None)
    word = "rises" if r["slope"] > 0 else "falls"
    text = (
        f"{r['name']} {word} as {sw_words(sw)} ({path}) goes {fmt_value(sw.sets[0].values[0])} → "
        f"{fmt_value(sw.sets[0].values[-1])}: {fmt(a, key)} → {fmt(b, key)}, {fmt_diff(per, key)} per "
        f"+{fmt_value(step)}"
    )
    if lo is not None:
        text += f" (95% CI {fmt_diff(lo, key)} to {fmt_diff(hi, key)}; trend test {fmt_p(r['p_holm'])} after Holm)"
    return _minus(text)


def value_sentence(sw: Sweep, p: dict[str, Any]) -> str:
    parts = []
    for key in sw.settings["metrics"]:
        m = p["metrics"][key]
        parts.append(f"{lower_first(m['name'])} {fmt(m['value'], key)} {fmt_ci(m['ci95'], key)}".rstrip())
    return _minus(f"At {p['label']}: " + "; ".join(parts))


def target_sentence(sw: Sweep) -> str:
    t = sw.target
    assert t is not None  # (called when a target was given)
    key = t["metric"]
    name = sw.points[0]["metrics"][key]["name"]
    goal = fmt(t["value"], key)
    if t["closest"] is None:
        return f"Target {name} = {goal}: no value measured it"
    held = (
        f"the 95% interval holds it at {', '.join(t['held_by'])}"
        if t["held_by"]
        else "no value's 95% interval holds it"
    )
    return _minus(
        f"Target {name} = {goal}: {held}; closest: {t['closest']} "
        f"({fmt(t['closest_value'], key)} {fmt_ci(t['closest_ci95'], key)})"
    )


def size(sw: Sweep, r: dict[str, Any]) -> float:
    """How much a trend moves its metric over the values swept: in points for a share, else relative
    to the first value (the order of the other trends)."""
    xs = sw.sets[0].values
    move = float(abs(r["slope"] * (max(xs) - min(xs))))
    if r["metric"].endswith("_share"):
        return move
    base = sw.points[0]["metrics"][r["metric"]]["value"]
    return move / abs(base) if base else 0.0


def steps_sentence(sw: Sweep, key: str) -> str:
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
        steps.append(
            f"{fmt_diff(m['diff_prev'], key)}{shown} from {fmt_value(prev['value'])} to {fmt_value(p['value'])}"
        )
    return _minus(f"{name}: {at}" + ("; " + "; ".join(steps) if steps else "") + " (paired by seed)")


def summary(sw: Sweep) -> list[dict[str, Any]]:
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
            out.append(
                {
                    "metric": key,
                    "kind": "curve",
                    "text": _minus(
                        f"{r['name']}: no trend shown over {sw_words(sw)} "
                        f"(slope {r['slope']:+.3g} a unit, 95% CI "
                        f"{lo:+.3g} to {hi:+.3g})"
                    )
                    if lo is not None
                    else f"{r['name']}: no trend shown over {sw_words(sw)}",
                }
            )
    if not sw.trend and len(sw.points) > 1:  # values that are not numbers: no slope, the steps in words
        for key in curve:
            out.append({"metric": key, "kind": "curve", "text": steps_sentence(sw, key)})
    others = sorted((r for r in sw.trend if r["flagged"] and r["metric"] not in curve), key=lambda r: -size(sw, r))[:4]
    for r in others:
        out.append({"metric": r["metric"], "kind": "other", "text": trend_sentence(sw, r)})
    if len(sw.points) <= PER_VALUE_LINES:
        for p in sw.points:
            out.append({"metric": "point", "kind": "point", "text": value_sentence(sw, p)})
    return out


def sw_words(sw: Sweep) -> str:
    """The first swept value in words (``settings["sets"][0]["words"]``), or its path."""
    first = sw.settings["sets"][0]
    return str(first.get("words") or first["path"])


def _where(sw: Sweep) -> str:
    """ " as the 2-player trip goes 500 → 900", or for a rule turned on or off " with “a hazard may cover another
    hazard” turned on"."""
    values = list(sw.sets[0].values)
    if values in ([False, True], [True, False]):
        return f" with “{sw_words(sw)}” turned {'on' if values[-1] else 'off'}"
    return f" as {sw_words(sw)} goes {_span(sw)}"


def _plain_target(sw: Sweep) -> str:
    """The target's answer in words: "Probably, 3000 gives about 3 hands per match (2.91 measured)." when a
    value's 95% interval holds it, else "Not shown: ..." and the closest value."""
    from ..compare.headline import PLAIN_CHANGES, plain_value

    t = sw.target
    assert t is not None  # (called when a target was given)
    key = t["metric"]
    unit = PLAIN_CHANGES.get(key, (None, None, None, ""))[3]
    name = lower_first(sw.points[0]["metrics"][key]["name"])
    goal = f"{plain_value(t['value'], key)}{unit}" if unit else f"{name} = {plain_value(t['value'], key)}"
    by_label = {p["label"]: p for p in sw.points}

    def value(label: str) -> str:
        p = by_label.get(label)
        return fmt_value(p["value"]) if p is not None and len(sw.sets) == 1 else label

    if t["closest"] is None:
        return f"Not shown: no value measured {name}."
    measured = f"{plain_value(t['closest_value'], key)}{unit} measured"
    if t["held_by"]:
        held = ", ".join(value(x) for x in t["held_by"])
        return _minus(f"Probably, {sw_words(sw)} at {held} gives {goal} ({measured} at {value(t['closest'])}).")
    return _minus(
        f"Not shown: no value of {sw_words(sw)} gives {goal}; the closest is {value(t['closest'])} ({measured})."
    )


def _span(sw: Sweep) -> str:
    values = sw.sets[0].values
    return f"{fmt_value(values[0])} → {fmt_value(values[-1])}"


def _plain_trend(sw: Sweep, key: str, word: str, rising: bool, first_sentence: bool = True) -> str:
    from ..compare.headline import PLAIN_CHANGES, about, plain_value, relative

    first, last = sw.points[0]["metrics"][key]["value"], sw.points[-1]["metrics"][key]["value"]
    plain = PLAIN_CHANGES.get(key)  # (rises, falls, noun, unit), or None for a score line
    noun, unit = (plain[2], plain[3]) if plain is not None else (None, "")
    name = sw.points[0]["metrics"][key]["name"]
    figures = f"{plain_value(first, key)} → {plain_value(last, key)}{unit}"
    where = _where(sw) if first_sentence else ""
    if word == "not shown":
        return _minus(f"Not shown: a change in {noun or lower_first(name)}{where} ({figures}).")
    if plain is None:
        change = f"{lower_first(name)} {'rises' if rising else 'falls'}"
    else:
        change = plain[0] if rising else plain[1]
        rel = relative(None if first is None or last is None else last - first, first)
        change = change.replace("about {p} ", "") if rel is None else change.replace("{p}", about(rel))
    return _minus(f"{word.capitalize()}, {change}{where} ({figures}).")


def headline(sw: Sweep) -> list[str]:
    """At most three sentences a player reads first (``headline`` in ``--json``, the first lines of the terminal
    and of ``index.html``): the target's answer, then what the swept value does to the game, what a table
    notices first (hand length, trips, shutouts, who wins, points), each with its certainty: "clearly" (a
    trend Holm's correction keeps), "probably" (values that are not numbers: a step whose interval excludes
    0, uncorrected), "not shown"."""
    from ..compare.headline import NOTICED

    out = []
    starved = starved_sentence(sw)
    if starved is not None:  # it explains every other figure: said first
        out.append(starved)
    if sw.target is not None:
        out.append(_plain_target(sw))
    curve = list(sw.settings["metrics"])

    def rank(key: str) -> tuple[Any, ...]:
        return (NOTICED.index(key) if key in NOTICED else len(NOTICED), curve.index(key) if key in curve else 99)

    said: list[tuple[str, str, bool]] = []  # (metric, certainty, rising), in the order they are said
    if sw.trend:
        flagged = sorted((r for r in sw.trend if r["flagged"]), key=lambda r: (rank(r["metric"]), -size(sw, r)))
        said += [(r["metric"], "clearly", r["slope"] > 0) for r in flagged]
        shown = {r["metric"] for r in flagged}
        said += [
            (key, "not shown", False) for key in curve if key not in shown and any(x["metric"] == key for x in sw.trend)
        ]
    elif len(sw.points) > 1:
        for key in sorted(curve, key=rank):
            steps = [p["metrics"][key].get("diff_prev_ci95") for p in sw.points[1:]]
            moved = [ci for ci in steps if ci and (ci[0] > 0 or ci[1] < 0)]
            first, last = sw.points[0]["metrics"][key]["value"], sw.points[-1]["metrics"][key]["value"]
            rising = first is not None and last is not None and last > first
            said.append((key, "probably" if moved else "not shown", rising))
    for k, (key, word, rising) in enumerate(said[: max(0, 3 - len(out))]):
        out.append(_plain_trend(sw, key, word, rising, first_sentence=k == 0))
    return out[:3]


def starved_sentence(sw: Sweep) -> str | None:
    """Where trips almost never complete at some swept values (at least compare's ``STARVED`` share of their
    hands end with no trip completed: the draw pile runs out first), one sentence naming those values with
    the share and its 95% interval in words (issue 35); None where trips complete at every value."""
    from ..compare.headline import STARVED

    said = []
    for p in sw.points:
        m = p["metrics"].get("trip_completed_share")
        if not m or m["value"] is None or 1 - m["value"] < STARVED:
            continue
        ci = m.get("ci95")
        bounds = f" (somewhere between {100 * (1 - ci[1]):.0f}% and {100 * (1 - ci[0]):.0f}%)" if ci else ""
        said.append(f"{100 * (1 - m['value']):.0f}% of hands at {p['label']}{bounds}")
    if not said:
        return None
    return _minus(
        "The deck runs out before any car arrives in "
        + "; ".join(said)
        + ": trips almost never complete"
        + (" there." if len(said) < len(sw.points) else ".")
    )
