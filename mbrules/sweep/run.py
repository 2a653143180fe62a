"""The orchestration of a sweep, in one call a notebook can make: :func:`run_sweep`.

Every value is the ruleset patched in memory (:func:`mbrules.ruleset.loader.load_patched`: the same
composition and checks as a file), compiled once. Seed i is dealt to every value (common random
numbers): a work item is a range of seeds, and a worker plays match i of every value together, so the
seeds finished when a run is stopped are finished by every value. Each seed's metrics go into running
sums over the values (:class:`mbrules.matches.intervals.ArmsSums`): memory does not grow with the games.
The runner of arms, the process pool and Ray are those of :mod:`mbrules.matches` (:func:`mbrules.matches.arms.run_arms`, as compare).
"""

from __future__ import annotations

import math
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..bots import check_bots, lineup
from ..matches.arms import PairResult, Phase, cpu_seconds, run_arms
from ..matches.metrics import METRIC_BY_KEY, METRICS, Metric, applies, arm_value, metrics_for
from ..engine import Game
from ..matches import intervals as stats
from ..matches.base import DEFAULT_WORKERS
from .values import (
    MAX_VALUES,
    SetError,
    Setting,
    fmt_value,
    numeric,
    parse_set,
    parse_values,
    point_label,
    resolve_path,
)

DEFAULT_METRICS = ("turns_per_hand", "hands_per_match")


@dataclass
class Sweep:
    """What :func:`run_sweep` returns; ``.document()`` is what ``--json`` prints."""

    settings: dict[str, Any]
    sets: list[Setting]
    points: list[dict[str, Any]]  # per value: its label, values and every metric (the --json keys)
    trend: list[dict[str, Any]]
    target: dict[str, Any] | None
    summary: list[dict[str, Any]]
    interrupted: bool
    seeds_done: int
    seconds: dict[str, float] = field(default_factory=dict)
    headline: list[str] = field(default_factory=list)  # at most three sentences a player reads first
    written: bool = False  # the report folder was written (not when stopped before any seed finished)

    def document(self) -> dict[str, Any]:
        from .report import document

        return document(self)


def parse_target(text: str) -> tuple[str, float]:
    """``METRIC=VALUE`` as (metric, value). A share (a metric ending in ``_share``) is given in percent,
    from 0 to 100, with or without ``%``: ``=1`` is 1%, ``=55`` and ``=55%`` are 55%; it is returned as
    the fraction the figures use. Any other metric is a plain number."""
    key, eq, value = text.partition("=")
    key = key.strip()
    if not eq or not _may_be_metric(key):
        raise SetError(
            f"mbrules: --target {text[:60]!r}: write METRIC=VALUE with a metric of: "
            + ", ".join(m.key for m in METRICS)
        )
    share = key.endswith("_share")
    number = value.strip()
    if number.endswith("%"):
        if not share:
            raise SetError(
                f"mbrules: --target {key}: {value[:40]!r}: only a share is given in percent; {key} is a plain number"
            )
        number = number[:-1].strip()
    try:
        v = float(number)
    except ValueError:
        raise SetError(f"mbrules: --target {key}: {value[:40]!r} is not a number") from None
    if not math.isfinite(v) or abs(v) > 1e9:
        raise SetError(f"mbrules: --target {key}: {value[:40]!r} is out of range")
    if share:
        if not 0 <= v <= 100:
            raise SetError(
                f"mbrules: --target {key}: {value[:40]!r} is not a share: give a percentage from 0 "
                f"to 100 (e.g. {key}=55 for 55%)"
            )
        v = v / 100
    return key, v


_OWN_LINE_METRIC = re.compile(r"points_per_hand\.[a-z][a-z0-9_]{0,39}")


def _may_be_metric(key: str) -> bool:
    """A metric of the registry, or a score line's a ruleset may add (known once the values are compiled)."""
    return key in METRIC_BY_KEY or _OWN_LINE_METRIC.fullmatch(key) is not None


def check_metrics(keys: Sequence[str], metrics: Sequence[Metric] | None = None) -> list[str]:
    """``--metric`` keys, each once; one that is no metric (of ``metrics``, the swept rulesets' once
    compiled; before, of the registry or a score line's) is a :class:`SetError` listing them."""
    known = {m.key for m in metrics} if metrics is not None else None
    out = []
    for k in keys:
        if not (_may_be_metric(k) if known is None else k in known):
            raise SetError(
                f"mbrules: --metric {k[:60]!r}: no such metric; the metrics are: "
                + ", ".join(m.key for m in (metrics or METRICS))
            )
        if k not in out:
            out.append(k)
    return out


def build_settings(ruleset: str, options: Sequence[str], players: int, sets: Sequence[str]) -> list[Setting]:
    """Every ``--set PATH=VALUES`` checked (the path exists, the values parse, as many in each)."""
    from ..ruleset import load_report

    if not sets:
        raise SetError("mbrules: give --set PATH=VALUES (e.g. --set player_counts.2.target=500..900:200)")
    known = {o.path for o in load_report(ruleset, list(options)).origins}
    out: list[Setting] = []
    for text in sets:
        path, values = parse_set(text)
        parts = resolve_path(path, known, ruleset, players)
        if any(s.parts == parts for s in out):
            raise SetError(f"mbrules: --set {path} is given twice")
        out.append(Setting(path, parts, tuple(parse_values(values, path))))
    counts = {len(s.values) for s in out}
    if len(counts) > 1:
        raise SetError(
            "mbrules: each --set gives the values of the same points (the first value of each "
            "together, then the second...): give them as many values each ("
            + ", ".join(f"{s.path}: {len(s.values)}" for s in out)
            + ")"
        )
    return out


def compile_points(
    ruleset: str,
    options: Sequence[str],
    players: int,
    sets: list[Setting],
    files_read: list[Path] | None = None,
) -> list[Game]:
    """Each point's ruleset patched and compiled; an invalid one refused with its path and reason."""
    from ..engine import GameError
    from ..ruleset import RulesetError
    from ..ruleset.diagnostics import printable
    from ..ruleset.loader import load_patched

    games = []
    for j in range(len(sets[0].values)):
        patch: dict[str, Any] = {}
        for s in sets:
            _deep_merge(patch, s.patch(s.values[j]))
        where = printable("--set " + point_label(sets, j))
        try:
            rs = load_patched(ruleset, list(options), patch, where, files_read=files_read)
        except RulesetError as e:
            lines = [
                f"mbrules: {where}: {d.message}" + ("" if d.file == where else f" ({d.file}:{d.line}:{d.col})")
                for d in e.diagnostics
            ]
            raise SetError("\n".join(lines or e.lines)) from None
        try:
            games.append(Game(rs, players))
        except GameError as e:
            raise SetError(f"mbrules: {where}: {e}") from None
    return games


def _deep_merge(into: dict[str, Any], patch: dict[str, Any]) -> None:
    for k, v in patch.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            _deep_merge(into[k], v)
        else:
            into[k] = v


def run_sweep(
    ruleset: str,
    sets: Sequence[str],
    *,
    options: Sequence[str] = (),
    players: int = 2,
    games: int = 200,
    seed: int = 0,
    bots: Sequence[str] = ("heuristic",),
    metrics: Sequence[str] = (),
    target: str | None = None,
    workers: int | None = None,
    out: str | os.PathLike[str] | None = None,
    charts: bool = True,
    inputs: Sequence[str | os.PathLike[str]] = (),
    progress: Callable[[str, str, int, int], None] | None = None,
    should_stop: Callable[[], object] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> Sweep:
    """Sweep ruleset values: ``sets`` are ``"PATH=VALUES"`` strings (several: set together, point by
    point); ``games`` matches per value on the same seeds. Bad input raises :class:`SetError` before
    any match. ``metrics``: the response curves drawn (default turns and hands); ``target``
    ``"METRIC=VALUE"``. ``should_stop()`` (or a KeyboardInterrupt) ends the run with the seeds every
    value finished (``interrupted``)."""
    t_start, cpu_start = time.perf_counter(), cpu_seconds()
    options = list(options)
    curve = check_metrics(metrics) or list(DEFAULT_METRICS)
    goal = parse_target(target) if target is not None else None  # (metric, value)
    if goal is not None and goal[0] not in curve:
        curve.append(goal[0])
    if games < 2:
        raise SetError("mbrules: --games must be at least 2")
    settings = build_settings(ruleset, options, players, sets)
    inputs_read = [Path(p) for p in inputs]  # and every file the values are read from (compile_points adds them)
    points_games = compile_points(ruleset, options, players, settings, inputs_read)
    bots = tuple(bots)
    lineup(bots, players)
    check_bots(bots, points_games)  # every bot fits every value (the learned bot's model), before any match
    workers = DEFAULT_WORKERS if workers is None else workers
    if out is not None:
        from .report import check_out

        check_out(out, inputs_read, charts)
    metric_list = metrics_for(points_games)  # the registry's, and each score line the rulesets add
    check_metrics(curve, metric_list)
    sums = [stats.ArmsSums(len(points_games)) for _ in metric_list]
    phase = Phase("main", "main", games, f"sweep of {len(points_games)} values", bots=bots)
    seconds: dict[str, float] = {}
    n, stopped = _play(points_games, phase, sums, seed, progress, workers, should_stop, seconds, backend, address)
    points = _points(settings, points_games, metric_list, sums, n)
    trend = _trend(settings, metric_list, sums, points_games)
    seconds["total"] = time.perf_counter() - t_start
    seconds["cpu"] = cpu_seconds() - cpu_start
    sw = Sweep(
        settings=_settings(
            ruleset, options, players, games, seed, bots, workers, backend, curve, settings, points_games
        ),
        sets=settings,
        points=points,
        trend=trend,
        target=_target(points, *goal) if goal is not None else None,
        summary=[],
        interrupted=stopped,
        seeds_done=n,
        seconds=seconds,
    )
    from .headline import headline, summary

    sw.summary = summary(sw)
    sw.headline = headline(sw)
    if out is not None and n > 0:  # stopped before any seed finished: the folder is left as it was
        from .report import write_report

        write_report(sw, out, charts, inputs_read)
        sw.written = True
    return sw


def _play(
    points_games: list[Game],
    phase: Phase,
    sums: list[stats.ArmsSums],
    seed: int,
    progress: Callable[[str, str, int, int], None] | None,
    workers: int,
    should_stop: Callable[[], object] | None,
    seconds: dict[str, float],
    backend: str,
    address: str | None,
) -> tuple[int, bool]:
    """Every value's matches of ``phase``, seed by seed, into each metric's running sums over the values;
    the seeds every value finished, and whether the run was stopped."""
    done = {"main": 0}

    def consume(ph: Phase, start: int, result: list[PairResult]) -> None:
        for vals, _ in result:
            for m, s in enumerate(sums):
                flat: list[int] = []
                for per_value in vals:
                    assert isinstance(per_value, tuple)  # a main phase's: every metric's values
                    flat.extend(per_value[m])
                s.add(flat)
        done["main"] += len(result)
        if progress:
            progress(ph.key, ph.title, done["main"], ph.pairs)

    stopped = run_arms(
        points_games,
        [phase],
        seed,
        consume,
        workers=workers,
        should_stop=should_stop,
        seconds=seconds,
        backend=backend,
        address=address,
    )
    return done["main"], stopped


def _settings(
    ruleset: str,
    options: list[str],
    players: int,
    games: int,
    seed: int,
    bots: tuple[str, ...],
    workers: int,
    backend: str,
    curve: list[str],
    settings: list[Setting],
    points_games: list[Game],
) -> dict[str, Any]:
    """The run's settings as ``--json`` writes them (each --set's path in words too)."""
    from .headline import path_words

    return {
        "ruleset": ruleset,
        "options": options,
        "players": players,
        "games": games,
        "seed": seed,
        "bots": list(bots),
        "workers": workers,
        "backend": backend,
        "metrics": curve,
        "ruleset_name": points_games[0].ruleset.name,
        "sets": [
            {"path": s.path, "words": path_words(s.parts, points_games[0].ruleset), "values": list(s.values)}
            for s in settings
        ],
    }


def _points(
    settings: list[Setting], games: list[Game], metrics: Sequence[Metric], sums: list[stats.ArmsSums], n: int
) -> list[dict[str, Any]]:
    pts = []
    for j, g in enumerate(games):
        mets: dict[str, Any] = {}
        for m, s in zip(metrics, sums):
            av = arm_value(m, s.arm_moments(j), n)
            row: dict[str, Any] = {
                "name": m.name or m.label,
                "value": av["value"],
                "ci95": av["ci95"],
                "n": av["n"],
                "method": av["method"],
            }
            if j > 0:  # paired with the value before: the same seeds
                w = [0] * len(games)
                w[j - 1], w[j] = -1, 1
                d, se = s.contrast(w)
                ci = stats.normal_ci(d, se)
                row["diff_prev"], row["diff_prev_ci95"] = d, list(ci) if ci else None
            if not applies(m, g):
                row.update(value=None, ci95=None, diff_prev=None, diff_prev_ci95=None)
            mets[m.key] = row
        pts.append(
            {
                "label": point_label(settings, j),
                "value": settings[0].values[j],
                "values": {s.path: s.values[j] for s in settings},
                "matches": n,
                "metrics": mets,
            }
        )
    return pts


def _trend(
    settings: list[Setting], metrics: Sequence[Metric], sums: list[stats.ArmsSums], games: list[Game]
) -> list[dict[str, Any]]:
    """Per metric, the least-squares slope of the metric over the first --set's values (when they are
    numbers), with its paired 95% interval; flagged by Holm over the metrics."""
    xs = settings[0].values
    if not numeric(xs):
        return []
    mean = sum(xs) / len(xs)
    sxx = sum((x - mean) ** 2 for x in xs)
    if sxx == 0:
        return []
    from fractions import Fraction

    w = [Fraction(x) - Fraction(mean) for x in xs]
    w = [c / Fraction(sxx) for c in w]
    rows: list[dict[str, Any]] = []
    for m, s in zip(metrics, sums):
        if not all(applies(m, g) for g in games):
            continue
        slope, se = s.contrast(w)
        if slope is None:
            continue
        ci = stats.normal_ci(slope, se)
        rows.append(
            {
                "metric": m.key,
                "name": m.name or m.label,
                "slope": slope,
                "se": se,
                "ci95": list(ci) if ci else None,
                "p": stats.p_value(slope, se),
            }
        )
    tested = [r for r in rows if r["se"] is not None and (r["se"] > 0 or r["slope"] != 0)]
    flags, adjusted = stats.holm([r["p"] for r in tested])
    for r in rows:
        r["flagged"], r["p_holm"] = False, None
    for r, f, a in zip(tested, flags, adjusted):
        r["flagged"], r["p_holm"] = f, a
    return rows


def _target(points: list[dict[str, Any]], key: str, value: float) -> dict[str, Any]:
    held = [
        p["label"]
        for p in points
        if p["metrics"][key]["ci95"] and p["metrics"][key]["ci95"][0] <= value <= p["metrics"][key]["ci95"][1]
    ]
    scored = [p for p in points if p["metrics"][key]["value"] is not None]
    closest = min(scored, key=lambda p: abs(p["metrics"][key]["value"] - value)) if scored else None
    return {
        "metric": key,
        "value": value,
        "held_by": held,
        "closest": closest["label"] if closest else None,
        "closest_value": closest["metrics"][key]["value"] if closest else None,
        "closest_ci95": closest["metrics"][key]["ci95"] if closest else None,
    }


__all__ = ["MAX_VALUES", "SetError", "Sweep", "fmt_value", "run_sweep"]
