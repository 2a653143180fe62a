"""The metric registry: every figure of many matches, read by simulate, compare, sweep and the ladder.

Each metric is a ratio of sums over matches (:mod:`.intervals`). A metric is ``(key, label, kind,
values)`` where ``values(record)`` gives a :class:`~mbrules.matches.records.MatchRecord`'s numerator
and denominator. ``kind`` is ``share`` for a share of matches (Wilson interval) and ``ratio`` for every
other figure (delta-method interval, the match as the unit). The difference B − A of every metric
is paired by seed.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, TypedDict

from mbrules.vocab import SCORE_LINE_WORDS, SCORE_LINES, LineWords

from . import intervals as stats
from .records import MatchRecord

if TYPE_CHECKING:
    from ..engine import Game


@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    kind: str  # "share" (of matches: Wilson) or "ratio" (delta method)
    values: Callable[[MatchRecord], tuple[int, int]]
    name: str = ""  # the human name the report and the headline print (the key stays in JSON and CSV)
    # "game": means the same whatever the seating (per hand, per match); "side": depends on how the
    # players are seated in sides (points per side, side A's wins): not differenced across seatings
    scope: str = "game"
    line: str = ""  # a score line's metric: the line (its points per hand and side); "" for any other
    plain: str = ""  # ... and the line in a headline's words (LineWords.plain)


def _count(r: MatchRecord, field: str) -> int:
    return sum(1 for h in r.hands if getattr(h, field))


def _sides(r: MatchRecord) -> int:
    return len(r.totals)


def _line_points(r: MatchRecord, line: str) -> int:
    """Every side's points on ``line`` over the match's hands (0 where the record's sheet has no such line)."""
    total = 0
    for h in r.hands:
        for name, v in h.lines:
            if name == line:
                total += sum(v)
                break
    return total


def _line_metric(line: str, words: LineWords) -> Metric:
    """The points per hand and side a score line pays, in the line's words (:class:`mbrules.vocab.LineWords`)."""
    return Metric(
        f"points_per_hand.{line}",
        f"points per hand and side: {words.noun}",
        "ratio",
        lambda r: (_line_points(r, line), len(r.hands) * _sides(r)),
        f"Points per hand and side from {words.noun}",
        "side",
        line,
        words.plain,
    )


METRICS: tuple[Metric, ...] = (
    Metric("hands_per_match", "hands per match", "ratio", lambda r: (r.hands_played, 1), "Hands per match"),
    Metric(
        "turns_per_hand",
        "turns per hand (cards played or discarded)",
        "ratio",
        lambda r: (r.turns, r.hands_played),
        "Turns per hand",
    ),
    Metric(
        "trip_completed_share",
        "share of hands whose trip is completed (the rest end by exhaustion)",
        "ratio",
        lambda r: (sum(1 for h in r.hands if h.completed_by >= 0), r.hands_played),
        "Hands whose trip is completed",
    ),
    Metric(
        "coups_fourres_per_hand",
        "coups fourrés per hand",
        "ratio",
        lambda r: (sum(h.coups_fourres for h in r.hands), r.hands_played),
        "Coups fourrés per hand",
    ),
    Metric(
        "reshuffles_per_hand",
        "reshuffles of the discard pile into a new draw pile per hand (turn.reshuffles)",
        "ratio",
        lambda r: (sum(h.reshuffles for h in r.hands), r.hands_played),
        "Reshuffles per hand",
    ),
    Metric(
        "discard_draws_per_hand",
        "draws from the discard pile per hand (turn.draw_from_discard)",
        "ratio",
        lambda r: (sum(h.discard_draws for h in r.hands), r.hands_played),
        "Draws from the discard pile per hand",
    ),
    Metric(
        "safe_trip_share",
        "share of hands with a safe trip",
        "ratio",
        lambda r: (_count(r, "safe_trip"), r.hands_played),
        "Hands with a safe trip",
    ),
    Metric(
        "shutout_share",
        "share of hands with a shutout",
        "ratio",
        lambda r: (_count(r, "shutout"), r.hands_played),
        "Hands with a shutout",
    ),
    Metric(
        "extension_called_share",
        "share of hands where an extension is called",
        "ratio",
        lambda r: (_count(r, "extension_called"), r.hands_played),
        "Hands where the extension is called",
    ),
    Metric(
        "extension_made_share",
        "share of called extensions made (caller's side completes)",
        "ratio",
        lambda r: (_count(r, "extension_made"), _count(r, "extension_called")),
        "Extensions made, of those called",
    ),
    Metric(
        "points_per_hand",
        "points per hand and side (total)",
        "ratio",
        lambda r: (sum(sum(h.points) for h in r.hands), r.hands_played * _sides(r)),
        "Points per hand and side",
        "side",
    ),
    *(_line_metric(line, SCORE_LINE_WORDS[line]) for line in SCORE_LINES if line != "total"),
    Metric(
        "first_side_win_share",
        "share of matches won by side A (the first seat's side)",
        "share",
        lambda r: (1 if r.winner == 0 else 0, 1),
        "Who wins: matches won by side A (the first seat's)",
        "side",
    ),
    Metric(
        "dealer_left_hand_share",
        "share of hands won by the side that plays first (dealer's left)",
        "ratio",
        lambda r: (sum(1 for h in r.hands if h.winner >= 0 and h.winner == h.first_side), r.hands_played),
        "Hands won by the side that plays first",
        "side",
    ),
    Metric(
        "lead_changes_per_match",
        "lead changes per match (running totals after each hand)",
        "ratio",
        lambda r: (r.lead_changes, 1),
        "Lead changes per match",
    ),
    Metric(
        "comeback_share",
        "comeback share: the winner was behind after the first hand",
        "share",
        lambda r: (1 if r.comeback else 0, 0 if r.comeback is None else 1),
        "Comebacks: the winner was behind after the first hand",
    ),
    Metric(
        "margin",
        "winning margin (points, winner minus runner-up)",
        "ratio",
        lambda r: (r.margin or 0, 0 if r.margin is None else 1),
        "Winning margin (points)",
    ),
    Metric(
        "draw_share", "share of matches drawn", "share", lambda r: (1 if r.result == "draw" else 0, 1), "Matches drawn"
    ),
    Metric(
        "unfinished_share",
        "share of matches unfinished (match.max_hands reached)",
        "share",
        lambda r: (1 if r.result == "unfinished" else 0, 1),
        "Matches unfinished (hand cap reached)",
    ),
)
METRIC_BY_KEY = {m.key: m for m in METRICS}
_LAST_LINE_METRIC = max(i for i, m in enumerate(METRICS) if m.line)


def metrics_for(games: Sequence[Game]) -> tuple[Metric, ...]:
    """The metrics of arms playing ``games``: :data:`METRICS`, and after the contract's score lines' metrics
    one for each score line a ruleset (or an option) adds (``scoring.lines``), in the words of its label
    (:func:`mbrules.ruleset.words.score_line_words`), in the order the games' sheets give them."""
    from ..ruleset.words import score_line_words

    own: dict[str, LineWords] = {}
    for g in games:
        words = score_line_words(g.ruleset)
        for line in g.score_line_names:
            if line not in SCORE_LINE_WORDS and line not in own:
                own[line] = words.get(line) or LineWords.of_id(line)
    if not own:
        return METRICS
    return _with_lines(tuple(own.items()))


@functools.lru_cache(maxsize=64)
def _with_lines(own: tuple[tuple[str, LineWords], ...]) -> tuple[Metric, ...]:
    cut = _LAST_LINE_METRIC + 1
    return (*METRICS[:cut], *(_line_metric(line, words) for line, words in own), *METRICS[cut:])


def won_by(bot: str, game: Game) -> Metric:
    """The share of matches won by the side ``bot`` holds, in lineups that seat one bot a side (the ladder's
    seatings: a bot alone on one side, the other bot on every other side); a draw or an unfinished match
    is not won. A record without its lineup counts as not won."""
    first = tuple(players[0] for players in game.side_players)  # a side's bot: that of its first player

    def values(r: MatchRecord) -> tuple[int, int]:
        return (1 if r.winner >= 0 and r.bots is not None and r.bots[first[r.winner]] == bot else 0), 1

    return Metric(
        f"won_by.{bot}", f"share of matches won by {bot}'s side", "share", values, f"Matches won by {bot}", "side"
    )


# metrics of the extension: they do not apply to a game without one (shown "–", not 0%)
EXTENSION_METRICS = ("extension_called_share", "extension_made_share", "points_per_hand.extension")


# metrics of the turn rules (issue 35): each applies only to a game whose rules can make it happen
TURN_RULE_METRICS: dict[str, Callable[["Game"], bool]] = {
    "reshuffles_per_hand": lambda g: bool(g.max_reshuffles or g.max_refill_reshuffles),  # reshuffle-discard
    "discard_draws_per_hand": lambda g: bool(g.draw_from_discard),  # draw-from-discard
}


def applies(metric: Metric, game: Game) -> bool:
    """Whether ``metric`` means anything in ``game``: the extension's metrics do not apply to a game
    without an extension (for its player count), nor reshuffles or draws from the discard pile to a game
    whose turn rules have none; they are shown "–" (null in JSON, empty in CSV), never 0."""
    if metric.key in EXTENSION_METRICS:
        return game.extension_to is not None
    if metric.line and metric.line not in SCORE_LINE_WORDS:  # a ruleset's own line: on its sheet only
        return metric.line in game.score_line_names
    rule = TURN_RULE_METRICS.get(metric.key)
    return rule is None or rule(game)


def metric_values(record: MatchRecord, metrics: Sequence[Metric] = METRICS) -> tuple[tuple[int, int], ...]:
    """Every metric's (numerator, denominator) for one match record, in the order of ``metrics``
    (:data:`METRICS`, or :func:`metrics_for` the arms' games)."""
    return tuple(m.values(record) for m in metrics)


class ArmValue(TypedDict):
    """One arm's figure for one metric, as reports write it (JSON keys)."""

    value: float | None
    ci95: list[float] | None
    n: int
    method: str | None  # "wilson", "delta", or None when nothing was counted


def arm_value(metric: Metric, moments: Sequence[float], n: int) -> ArmValue:
    """One arm's estimate, its 95% interval and how many units it rests on, from its sums over ``n`` matches."""
    sx, sy = moments[0], moments[1]
    if sy == 0:
        return {"value": None, "ci95": None, "n": int(sy), "method": None}
    if metric.kind == "share":
        return {"value": sx / sy, "ci95": list(stats.wilson(sx, sy) or ()), "n": int(sy), "method": "wilson"}
    r, se = stats.ratio_se(moments, n)
    ci = stats.normal_ci(r, se)
    if ci:  # a normal interval may cross what the figure can be: every metric is >= 0, a share <= 1
        ci = (max(0.0, ci[0]), min(1.0, ci[1]) if metric.key.endswith("_share") else ci[1])
    return {"value": r, "ci95": list(ci) if ci else None, "n": n, "method": "delta"}
