"""Statistics of many matches as running sums: integer counters that add up in any grouping.

A run's figures are a :class:`MatchStats`, one :class:`~mbrules.matches.records.MatchRecord` added at a
time (:func:`add_record`; :func:`match_stats` plays the match first) and whole chunks merged by
:func:`merge_stats`. Every per-match figure is a metric of the registry (:mod:`mbrules.matches.metrics`,
the ones compare and sweep difference): its sums over matches of x, y, x*x, y*y and x*y, integers, so
the same games give the same figures whatever the number of workers or the backend, and the 95%
intervals are the registry's. :func:`summary` turns them into the ``--json`` report of ``mbrules
simulate`` (its names and values unchanged since before the registry: tests/data/golden/).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..engine import Game
from ..vocab import SCORE_LINES
from .intervals import add_moment, normal_ci, ratio_se, wilson
from .loop import StopPoll, play_match
from .metrics import METRICS, ArmValue, Metric, arm_value, metric_values
from .records import MatchRecord, match_record

_INDEX = {m.key: i for i, m in enumerate(METRICS)}


@dataclass
class MatchStats:
    """Integer counters of a run; two of them add up with :func:`merge_stats` in any grouping."""

    sides: int
    lines: tuple[str, ...] = (
        SCORE_LINES  # the score sheet's lines (game.score_line_names: the contract's and the ruleset's own)
    )
    games: int = 0
    wins: list[int] = field(default_factory=list)  # per side
    draws: int = 0
    unfinished: int = 0
    score: dict[str, list[int]] = field(default_factory=dict)  # score line -> per side, summed over hands
    moments: list[list[int]] = field(default_factory=list)  # per metric of METRICS: [sx, sy, sxx, syy, sxy]
    records: list[MatchRecord] = field(default_factory=list)  # one a match, in seed order, when asked for

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.sides
        self.lines = tuple(self.lines)
        self.score = self.score or {line: [0] * self.sides for line in self.lines}
        self.moments = self.moments or [[0, 0, 0, 0, 0] for _ in METRICS]

    def sums(self, key: str) -> list[int]:
        """The metric ``key``'s sums over the matches counted."""
        return self.moments[_INDEX[key]]

    def figure(self, metric: Metric) -> ArmValue:
        """The metric's estimate with its 95% interval (:func:`mbrules.matches.metrics.arm_value`), as compare shows it."""
        return arm_value(metric, self.moments[_INDEX[metric.key]], self.games)

    @property
    def hands(self) -> int:
        return self.sums("hands_per_match")[0]

    @property
    def turns(self) -> int:
        return self.sums("turns_per_hand")[0]

    @property
    def trips_completed(self) -> int:
        return self.sums("trip_completed_share")[0]

    @property
    def coups_fourres(self) -> int:
        return self.sums("coups_fourres_per_hand")[0]


def new_stats(sides: int, lines: Sequence[str] = SCORE_LINES) -> MatchStats:
    """Empty counters for ``sides`` sides and the score sheet's ``lines`` (``game.score_line_names``)."""
    return MatchStats(sides, tuple(lines))


def merge_stats(into: MatchStats, other: MatchStats) -> MatchStats:
    into.games += other.games
    into.draws += other.draws
    into.unfinished += other.unfinished
    into.wins = [a + b for a, b in zip(into.wins, other.wins)]
    into.moments = [[a + b for a, b in zip(m, o)] for m, o in zip(into.moments, other.moments)]
    into.records.extend(other.records)
    for line in into.score:
        into.score[line] = [a + b for a, b in zip(into.score[line], other.score[line])]
    return into


def add_record(stats: MatchStats, rec: MatchRecord, keep: bool = False) -> None:
    """Count one match (and keep its record, with ``keep``)."""
    score = stats.score
    for h in rec.hands:
        for line, per_side in h.lines:
            row = score[line]
            for s, v in enumerate(per_side):
                row[s] += v
    for m, (x, y) in zip(stats.moments, metric_values(rec)):
        add_moment(m, x, y)
    stats.games += 1
    if keep:
        stats.records.append(rec)
    if rec.result == "draw":
        stats.draws += 1
    elif rec.result == "unfinished":
        stats.unfinished += 1
    else:
        stats.wins[rec.winner] += 1


def match_stats(
    game: Game,
    seed: int,
    bots: Sequence[str],
    stats: MatchStats,
    records: bool = False,
    should_stop: StopPoll | None = None,
) -> None:
    """Play one whole match and add it to ``stats`` (and its record, with ``records``)."""
    st = play_match(game, seed, bots, should_stop=should_stop)
    add_record(stats, match_record(game, seed, st, bots), records)


# simulate --json's figures with an interval: its name -> the registry's metric
SUMMARY_RATIOS = {
    "mean_hands_per_game": "hands_per_match",
    "mean_turns_per_hand": "turns_per_hand",
    "trip_completed_share": "trip_completed_share",
    "coups_fourres_per_hand": "coups_fourres_per_hand",
    "mean_points_per_hand_and_side": "points_per_hand",
}


def summary(game: Game, stats: MatchStats, seconds: float) -> dict[str, Any]:  # Any: a JSON document
    """The report of :func:`mbrules.matches.simulate` (the ``--json`` document's figures).

    A mean over no games (a run interrupted before its first game ended) or no hands is None (null in
    JSON), never 0.0: there is no such figure, and 0.0 would read as one."""
    games, hands = stats.games, stats.hands
    names = game.side_names

    def per(total: float, count: int, digits: int) -> float | None:
        return round(total / count, digits) if count else None

    return {
        "games": games,
        "hands": hands,
        "turns": stats.turns,
        "seconds": round(seconds, 3),
        "wins": {names[s]: stats.wins[s] for s in range(game.sides)},
        "draws": stats.draws,
        "unfinished": stats.unfinished,
        "mean_hands_per_game": per(hands, games, 4),
        "mean_turns_per_hand": per(stats.turns, hands, 4),
        "trip_completed_share": per(stats.trips_completed, hands, 4),
        "mean_points_per_hand_and_side": per(stats.sums("points_per_hand")[0], hands * game.sides, 2),
        "coups_fourres_per_hand": per(stats.coups_fourres, hands, 4),
        "mean_score_per_line": {
            line: {names[s]: per(stats.score[line][s], hands, 2) for s in range(game.sides)} for line in stats.score
        },
        "ci95": intervals(game, stats),
        "hands_per_second": round(hands / seconds, 1) if seconds > 0 else None,
        "turns_per_second": round(stats.turns / seconds, 1) if seconds > 0 else None,
    }


def intervals(game: Game, stats: MatchStats) -> dict[str, Any]:  # Any: a JSON document
    """95% intervals of the report's figures (:mod:`mbrules.matches.intervals`): Wilson for each side's
    share of matches won, the draws and the unfinished; the delta method over matches (a match's
    hands are not independent) for the per-game and per-hand means, from the registry's sums."""
    n = stats.games
    out: dict[str, Any] = {}
    for name in (
        "mean_hands_per_game",
        "trip_completed_share",
        "mean_turns_per_hand",
        "coups_fourres_per_hand",
        "mean_points_per_hand_and_side",
    ):
        r, se = ratio_se(stats.sums(SUMMARY_RATIOS[name]), n)
        ci = normal_ci(r, se)
        out[name] = [round(x, 4) for x in ci] if ci else None

    def share(k: int) -> list[float] | None:
        ci = wilson(k, n)
        return [round(x, 4) for x in ci] if ci else None

    out["win_share"] = {game.side_names[s]: share(stats.wins[s]) for s in range(game.sides)}
    out["draw_share"] = share(stats.draws)
    out["unfinished_share"] = share(stats.unfinished)
    return out


__all__ = ["MatchStats", "add_record", "match_stats", "merge_stats", "new_stats", "summary"]
