"""Statistics of many matches as running sums: integer counters that add up in any grouping.

A run's figures are :func:`new_stats` counters, one match added at a time by :func:`match_stats`
and whole chunks merged by :func:`merge_stats`; they are integers, so the same games give the same
figures whatever the number of workers or the backend. :func:`summary` turns them into the report
of ``mbrules simulate`` with 95% intervals (:mod:`mbrules.matches.intervals`).
"""

from __future__ import annotations

from typing import Sequence

from ..engine import Game
from ..vocab import COUP_FOURRE, SCORE_LINES
from .intervals import normal_ci, ratio_se, wilson
from .loop import StopPoll, count_turns, play_match

# Per-match moments of the ratios simulate reports with an interval: for each, the sums over matches
# of x, y, x*x, y*y and x*y (x, y: the match's numerator and denominator), integers, so they add up
# like the counters and the interval is the same for any number of workers (mbrules.matches.intervals).
RATIOS = ("hands_per_game", "turns_per_hand", "trip_completed_share", "coups_fourres_per_hand",
          "points_per_hand")


def new_stats(sides: int, lines: Sequence[str] = SCORE_LINES) -> dict:
    """Integer counters; two of them add up with :func:`merge_stats` in any grouping. ``lines``: the score
    sheet's lines (``game.score_line_names``: the contract's ten and the ruleset's own)."""
    return {
        "games": 0, "hands": 0, "turns": 0, "wins": [0] * sides, "draws": 0, "unfinished": 0,
        "trips_completed": 0, "coups_fourres": 0,
        "score": {line: [0] * sides for line in lines},
        "moments": {k: [0, 0, 0, 0, 0] for k in RATIOS},
        "records": [],  # one record a match (mbrules.matches.records), when asked for
    }


def _add_moment(m: list, x: int, y: int) -> None:
    m[0] += x
    m[1] += y
    m[2] += x * x
    m[3] += y * y
    m[4] += x * y


def merge_stats(into: dict, other: dict) -> dict:
    for k in ("games", "hands", "turns", "draws", "unfinished", "trips_completed", "coups_fourres"):
        into[k] += other[k]
    into["wins"] = [a + b for a, b in zip(into["wins"], other["wins"])]
    for k in RATIOS:
        into["moments"][k] = [a + b for a, b in zip(into["moments"][k], other["moments"][k])]
    into["records"].extend(other["records"])
    for line in into["score"]:
        into["score"][line] = [a + b for a, b in zip(into["score"][line], other["score"][line])]
    return into


def match_stats(game: Game, seed: int, bots: Sequence[str], stats: dict, records: bool = False,
                should_stop: StopPoll | None = None) -> None:
    """Play one whole match and add it to ``stats`` (and its record, with ``records``)."""
    score = stats["score"]
    st = play_match(game, seed, bots, should_stop=should_stop)
    out = st.outcome
    points = 0
    for sheet in out.hand_sheets:
        for s, lines in enumerate(sheet.values()):
            points += lines["total"]
            for line in score:
                score[line][s] += lines[line]
    turns = count_turns(st.history)
    hands = len(out.hand_sheets)
    trips = sum(1 for side in out.completed if side is not None)
    cf = sum(1 for p, a in st.history if p >= 0 and a.op == COUP_FOURRE)
    stats["turns"] += turns
    stats["games"] += 1
    stats["hands"] += hands
    stats["trips_completed"] += trips
    stats["coups_fourres"] += cf
    mo = stats["moments"]
    _add_moment(mo["hands_per_game"], hands, 1)
    _add_moment(mo["turns_per_hand"], turns, hands)
    _add_moment(mo["trip_completed_share"], trips, hands)
    _add_moment(mo["coups_fourres_per_hand"], cf, hands)
    _add_moment(mo["points_per_hand"], points, hands * game.sides)
    if records:
        from .records import match_record

        stats["records"].append(match_record(game, seed, st, bots))
    if out.draw:
        stats["draws"] += 1
    elif out.unfinished:
        stats["unfinished"] += 1
    else:
        stats["wins"][out.winner_index] += 1


def summary(game: Game, stats: dict, seconds: float) -> dict:
    """The report of :func:`mbrules.matches.simulate` (the ``--json`` document's figures).

    A mean over no games (a run interrupted before its first game ended) or no hands is None (null in
    JSON), never 0.0: there is no such figure, and 0.0 would read as one."""
    games, hands = stats["games"], stats["hands"]
    names = game.side_names

    def per(total: float, count: int, digits: int):
        return round(total / count, digits) if count else None

    return {
        "games": games,
        "hands": hands,
        "turns": stats["turns"],
        "seconds": round(seconds, 3),
        "wins": {names[s]: stats["wins"][s] for s in range(game.sides)},
        "draws": stats["draws"],
        "unfinished": stats["unfinished"],
        "mean_hands_per_game": per(hands, games, 4),
        "mean_turns_per_hand": per(stats["turns"], hands, 4),
        "trip_completed_share": per(stats["trips_completed"], hands, 4),
        "mean_points_per_hand_and_side": per(stats["moments"]["points_per_hand"][0], hands * game.sides, 2),
        "coups_fourres_per_hand": per(stats["coups_fourres"], hands, 4),
        "mean_score_per_line": {
            line: {names[s]: per(stats["score"][line][s], hands, 2) for s in range(game.sides)}
            for line in stats["score"]
        },
        "ci95": intervals(game, stats),
        "hands_per_second": round(hands / seconds, 1) if seconds > 0 else None,
        "turns_per_second": round(stats["turns"] / seconds, 1) if seconds > 0 else None,
    }


def intervals(game: Game, stats: dict) -> dict:
    """95% intervals of the report's figures (:mod:`mbrules.matches.intervals`): Wilson for each side's
    share of matches won, the draws and the unfinished; the delta method over matches (a match's
    hands are not independent) for the per-game and per-hand means."""
    n = stats["games"]
    out: dict = {}
    for k in RATIOS:
        r, se = ratio_se(stats["moments"][k], n)
        ci = normal_ci(r, se)
        out[k if k != "hands_per_game" else "mean_hands_per_game"] = [round(x, 4) for x in ci] if ci else None
    out["mean_turns_per_hand"] = out.pop("turns_per_hand")
    out["coups_fourres_per_hand"] = out.pop("coups_fourres_per_hand")
    out["mean_points_per_hand_and_side"] = out.pop("points_per_hand")
    share = lambda k: [round(x, 4) for x in wilson(k, n)] if n else None  # noqa: E731
    out["win_share"] = {game.side_names[s]: share(stats["wins"][s]) for s in range(game.sides)}
    out["draw_share"] = share(stats["draws"])
    out["unfinished_share"] = share(stats["unfinished"])
    return out
