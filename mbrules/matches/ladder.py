"""A round robin between bots: every pair, every seating, paired seeds; win rates with 95% CIs and ratings.

For each pair of bots (A, B) and each seed ``i`` (``game_seed(seed, i)``), the same deal is
played once per seating: for ``S`` sides, A holds side ``k`` and B the others, then B side
``k`` and A the others, for every ``k`` (two seatings with two sides: seats swapped). Each
bot thus meets the same cards from every seat, so the luck of the deal cancels in the pair.

Win rates are the share of a bot's matches it won, with a Wilson score interval at 95%
(draws and unfinished matches count as not won; they are reported). Ratings are the
Weng-Lin Bayesian (Plackett-Luce) model of ``openskill`` (mu, sigma and the conservative
ordinal ``mu - 3 sigma``), updated match by match in a fixed order (seed range, pair, seed,
seating), so the same inputs give the same ratings for any number of workers. Without
``openskill`` (an optional extra) the ratings are a Bradley-Terry fit of the same results on
the Elo scale (:func:`bradley_terry`); the report names the method.

The work goes out a seed range of every pair at a time, so a ladder stopped early (Ctrl-C,
SIGTERM) has played the first deals of every pair, and the report of what finished is fair.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from typing import Any, Callable, Iterable, Iterator, Sequence

from .._paths import install_hint
from ..engine import Game
from .backend import as_backend
from .base import DEFAULT_WORKERS, Backend, chunk_size
from .intervals import wilson as _wilson
from .loop import StopPoll, game_seed, play_match
from .metrics import arm_value, won_by
from .records import match_record

Pair = tuple[int, int]  # two bots' indexes in the ladder's list
Slice = tuple[int, str, str, int, int]  # a seed range of one pair: (pair, a, b, start, stop)


RATINGS_EXTRA = "bots"  # pip install 'mbrules[bots]': openskill, the ladder's ratings


class RatingsUnavailable(RuntimeError):
    """The ladder's ratings need ``openskill``, an optional extra that is not installed."""


PLACKETT_LUCE = "plackett-luce"  # openskill's Weng-Lin model: mu, sigma, ordinal
BRADLEY_TERRY = "bradley-terry"  # without openskill: maximum likelihood on the pairs' results, Elo scale
METHOD_WORDS = {
    PLACKETT_LUCE: "openskill's Plackett-Luce model, updated match by match; the ordinal is mu minus 3 sigma",
    BRADLEY_TERRY: "Bradley-Terry, fitted on every pair's results (Elo scale, mean 1500; a draw counts "
    "half; openskill is not installed)",
}


def ratings_method() -> str:
    """The ratings the ladder gives here: Plackett-Luce with openskill installed, else Bradley-Terry."""
    try:
        plackett_luce()
    except RatingsUnavailable:
        return BRADLEY_TERRY
    return PLACKETT_LUCE


def plackett_luce() -> Any:  # Any: openskill's model class (openskill has no annotations here)
    """openskill's Plackett-Luce model class; :class:`RatingsUnavailable` (naming the extra) without openskill."""
    try:
        from openskill.models import PlackettLuce  # noqa: PLC0415  (an optional extra)
    except ImportError:
        raise RatingsUnavailable(
            f"the ladder's openskill ratings need openskill: {install_hint(RATINGS_EXTRA)} (make test installs it)"
        ) from None
    return PlackettLuce


def wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson 95% interval of ``k / n`` (:func:`mbrules.matches.intervals.wilson`); (0, 1) when ``n`` is 0
    (the benchmarks' head-to-head figures)."""
    return _wilson(k, n) or (0.0, 1.0)


def seatings(game: Game, a: str, b: str) -> list[list[str]]:
    """Each player's bot for every seating of the pair (A, B): A alone on side k, then B alone on side k."""
    out = []
    S = game.sides
    for k in range(S):
        for solo, rest in ((a, b), (b, a)):
            out.append([solo if game.side_of[p] == k else rest for p in range(game.players)])
    if S == 2:
        out = out[:2]  # A on side A / B on side B, then swapped: the other two are the same seatings
    return out


def play_pairing(game: Game, a: str, b: str, seed: int, i: int, should_stop: StopPoll | None = None) -> list[int]:
    """Game ``i`` of the pair (a, b) in every seating: per seating, the bot that won (0 a, 1 b) or -1, read
    from the match's record by the registry's :func:`~mbrules.matches.metrics.won_by` (a and b are distinct names)."""
    s = game_seed(seed, i)
    won_a, won_b = won_by(a, game).values, won_by(b, game).values
    res = []
    for lineup in seatings(game, a, b):
        rec = match_record(game, s, play_match(game, s, lineup, should_stop=should_stop), lineup)
        res.append(0 if won_a(rec)[0] else 1 if won_b(rec)[0] else -1)
    return res


def play_slice(
    game: Game, a: str, b: str, seed: int, start: int, stop: int, should_stop: StopPoll | None = None
) -> list[list[int]]:
    """Games ``start .. stop-1`` of the pair (a, b): :func:`play_pairing` of each, in order."""
    return [play_pairing(game, a, b, seed, i, should_stop) for i in range(start, stop)]


def play_slice_task(game: Game, item: Slice, should_stop: StopPoll | None = None, *, seed: int) -> list[list[int]]:
    """The task of a ladder on a backend: the seed range ``item`` = ``(pair, a, b, start, stop)``."""
    _, a, b, start, stop = item
    return play_slice(game, a, b, seed, start, stop, should_stop)


def slices(bots: Sequence[str], pairs: Sequence[Pair], games: int, size: int) -> Iterator[Slice]:
    """The round robin's work, lazily: ``(pair, a, b, start, stop)`` seed ranges, a range of every pair in
    turn (so a stopped ladder has played the first deals of every pair)."""
    for start in range(0, games, size):
        for n, (x, y) in enumerate(pairs):
            yield n, bots[x], bots[y], start, min(games, start + size)


class Tally:
    """Counts and ratings, updated as results come in (in the fixed order: pair, seed, seating),
    so memory does not grow with the number of games and any number of workers gives the same
    figures."""

    def __init__(self, bots: Sequence[str], pairs: Iterable[Pair], method: str = PLACKETT_LUCE) -> None:
        self.bots = list(bots)
        self.pairs = list(pairs)
        self.method = method
        self.model = plackett_luce()() if method == PLACKETT_LUCE else None  # Bradley-Terry: fitted at the end
        # openskill's ratings (Any: openskill has no annotations here)
        self.ratings: list[Any] = [self.model.rating(name=b) for b in bots] if self.model is not None else []
        self.wins = [[0, 0] for _ in self.pairs]
        self.draws = [0] * len(self.pairs)
        self.done = 0

    def add(self, n: int, results: list[list[int]]) -> None:
        """The results of pair ``n``'s next games (each the winner per seating: 0, 1 or -1)."""
        x, y = self.pairs[n]
        model = self.model
        ratings = self.ratings
        for r in results:
            for w in r:
                if w < 0:
                    self.draws[n] += 1
                    ranks = [1, 1]
                else:
                    self.wins[n][w] += 1
                    ranks = [1, 2] if w == 0 else [2, 1]
                if model is not None:
                    [[ratings[x]], [ratings[y]]] = model.rate([[ratings[x]], [ratings[y]]], ranks=ranks)
        self.done += len(results)


BT_PRIOR = 0.5  # a virtual draw between every pair played: no infinite rating for a bot that won every match
BT_ROUNDS = 10_000  # the fit's bound (it converges in far fewer: a tolerance of 1e-10 on the strengths)


def bradley_terry(
    n_bots: int, pairs: Sequence[Pair], wins: Sequence[Sequence[int]], draws: Sequence[int]
) -> list[float]:
    """Each bot's Bradley-Terry strength on the Elo scale (400 log10 of its odds, mean 1500), fitted by
    Hunter's MM algorithm to the pairs' results. A draw counts half a win to each; every pair that played
    gets one virtual draw (:data:`BT_PRIOR`), so a bot that won every match still has a finite rating.
    Deterministic: the same results give the same ratings, whatever their order."""
    w = [[0.0] * n_bots for _ in range(n_bots)]  # w[i][j]: i's wins over j
    for (x, y), (a, b), d in zip(pairs, wins, draws):
        if a + b + d:
            w[x][y] += a + d / 2 + BT_PRIOR
            w[y][x] += b + d / 2 + BT_PRIOR
    p = [1.0] * n_bots
    for _ in range(BT_ROUNDS):
        new = []
        for i in range(n_bots):
            games = sum((w[i][j] + w[j][i]) / (p[i] + p[j]) for j in range(n_bots) if j != i)
            new.append(sum(w[i]) / games if games else p[i])
        mean_log = sum(math.log(v) for v in new) / n_bots
        new = [v / math.exp(mean_log) for v in new]
        done = max(abs(a - b) for a, b in zip(new, p)) < 1e-10
        p = new
        if done:
            break
    return [1500 + 400 * math.log10(v) for v in p]


def run_ladder(
    game: Game,
    bots: Sequence[str],
    games: int,
    seed: int,
    *,
    workers: int = DEFAULT_WORKERS,
    backend: str | Backend = "local",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    should_stop: StopPoll | None = None,
    method: str | None = None,
) -> dict[str, Any]:
    """Play the round robin; return per-pair and per-bot counts (see :func:`report`).

    ``should_stop()`` is polled (see :mod:`mbrules.matches.base`); once it is true the work in flight is
    dropped and the report counts the seed ranges finished in order before it, with ``interrupted``
    true. ``method`` is :data:`PLACKETT_LUCE` or :data:`BRADLEY_TERRY` (default: :func:`ratings_method`).

    The work goes out in seed ranges (:func:`slices`), lazily, to ``backend`` (as for
    :func:`mbrules.matches.simulate`: ``"local"`` with ``workers`` processes, ``"ray"`` at ``address``,
    or a :class:`mbrules.matches.base.Backend`) and is tallied in order as it comes back.
    """
    runner = as_backend(backend, workers, address)
    pairs = list(itertools.combinations(range(len(bots)), 2))
    total = len(pairs) * games
    t0 = time.perf_counter()
    tally = Tally(bots, pairs, method or ratings_method())

    def consume(item: Slice, results: list[list[int]]) -> None:
        tally.add(item[0], results)
        if progress:
            progress(tally.done, total)

    size = chunk_size(games, runner.workers, most=8)
    stopped = runner.run(
        game,
        functools.partial(play_slice_task, seed=seed),
        slices(bots, pairs, games, size),
        consume,
        count=len(pairs) * -(-games // size),
        should_stop=should_stop,
    )
    rep = report(game, tally, time.perf_counter() - t0)
    rep["deals_played"] = tally.done
    rep["deals"] = total
    rep["interrupted"] = bool(stopped)
    return rep


def _win_share(game: Game, bot: str, wins: int, matches: int) -> tuple[float | None, list[float]]:
    """``bot``'s share of ``matches`` won and its 95% interval, as the registry's :func:`~mbrules.matches.metrics.won_by`
    figure gives them (Wilson), rounded to 4 digits; (None, [0, 1]) before any match."""
    fig = arm_value(won_by(bot, game), (wins, matches), matches)
    lo, hi = fig["ci95"] or (0.0, 1.0)
    return (None if fig["value"] is None else round(fig["value"], 4)), [round(lo, 4), round(hi, 4)]


def report(game: Game, tally: Tally, seconds: float) -> dict[str, Any]:
    """Counts, win rates with Wilson 95% intervals, and openskill ratings, in a JSON-ready dict (Any: JSON)."""
    bots = tally.bots
    ratings = tally.ratings
    per_bot = [{"matches": 0, "wins": 0, "draws": 0} for _ in bots]
    pair_rows = []
    for n, (x, y) in enumerate(tally.pairs):
        wins = tally.wins[n]
        draws = tally.draws[n]
        m = wins[0] + wins[1] + draws
        for k, z in ((0, x), (1, y)):
            per_bot[z]["matches"] += m
            per_bot[z]["wins"] += wins[k]
            per_bot[z]["draws"] += draws
        rate, ci = _win_share(game, bots[x], wins[0], m)
        pair_rows.append(
            {
                "a": bots[x],
                "b": bots[y],
                "matches": m,
                "a_wins": wins[0],
                "b_wins": wins[1],
                "draws_or_unfinished": draws,
                "a_win_rate": rate,
                "a_ci95": ci,
            }
        )
    if tally.method == BRADLEY_TERRY:
        elo = bradley_terry(len(bots), tally.pairs, tally.wins, tally.draws)
    rows: list[dict[str, Any]] = []
    for z, b in enumerate(bots):
        d = per_bot[z]
        rate, ci = _win_share(game, b, d["wins"], d["matches"])
        if tally.method == BRADLEY_TERRY:
            rating = {"elo": round(elo[z], 1)}
        else:
            r = ratings[z]
            rating = {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "ordinal": round(r.ordinal(), 3)}
        rows.append(
            {
                "bot": b,
                "matches": d["matches"],
                "wins": d["wins"],
                "draws_or_unfinished": d["draws"],
                "win_rate": rate,
                "ci95": ci,
                "rating": rating,
            }
        )
    rows.sort(key=lambda row: (-row["rating"].get("ordinal", row["rating"].get("elo", 0)), row["bot"]))
    return {
        "bots": rows,
        "pairs": pair_rows,
        "seatings_per_seed": len(seatings(game, "a", "b")),
        "rating_method": tally.method,
        "seconds": round(seconds, 3),
    }
