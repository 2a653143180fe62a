"""A round robin between bots: every pair, every seating, paired seeds; win rates with 95% CIs and ratings.

For each pair of bots (A, B) and each seed ``i`` (``game_seed(seed, i)``), the same deal is
played once per seating: for ``S`` sides, A holds side ``k`` and B the others, then B side
``k`` and A the others, for every ``k`` (two seatings with two sides: seats swapped). Each
bot thus meets the same cards from every seat, so the luck of the deal cancels in the pair.

Win rates are the share of a bot's matches it won, with a Wilson score interval at 95%
(draws and unfinished matches count as not won; they are reported). Ratings are the
Weng-Lin Bayesian (Plackett-Luce) model of ``openskill`` (mu, sigma and the conservative
ordinal ``mu - 3 sigma``), updated match by match in a fixed order (pair, seed, seating), so
the same inputs give the same ratings for any number of workers.
"""

from __future__ import annotations

import itertools
import os
import time
from typing import Callable, Iterator, Sequence

from .intervals import wilson as _wilson
from ..engine import Game



def wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson 95% interval of ``k / n`` (:func:`mbrules.matches.intervals.wilson`); (0, 1) when ``n`` is 0."""
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


def play_pairing(game: Game, a: str, b: str, seed: int, i: int) -> list[int]:
    """Game ``i`` of the pair (a, b) in every seating: per seating, the bot that won (0 a, 1 b) or -1."""
    from .simulate import game_seed, play_match

    s = game_seed(seed, i)
    res = []
    for lineup in seatings(game, a, b):
        out = play_match(game, s, lineup).outcome
        w = out.winner_index
        if w < 0:
            res.append(-1)
        else:
            res.append(0 if lineup[game.side_players[w][0]] == a else 1)  # a and b are distinct names
    return res


def play_slice(game: Game, a: str, b: str, seed: int, start: int, stop: int) -> list[list[int]]:
    """Games ``start .. stop-1`` of the pair (a, b): :func:`play_pairing` of each, in order."""
    return [play_pairing(game, a, b, seed, i) for i in range(start, stop)]


def _slice_job(a: str, b: str, seed: int, start: int, stop: int) -> list[list[int]]:
    """In a pool worker set up by :func:`mbrules.matches.simulate._init_worker` (the rules compiled once)."""
    from .simulate import _WORKER

    return play_slice(_WORKER["game"], a, b, seed, start, stop)


def slices(bots: Sequence[str], pairs, games: int, size: int) -> Iterator[tuple[int, str, str, int, int]]:
    """The round robin's work, lazily: ``(pair, a, b, start, stop)`` seed ranges, pair by pair."""
    for n, (x, y) in enumerate(pairs):
        for start in range(0, games, size):
            yield n, bots[x], bots[y], start, min(games, start + size)


class Tally:
    """Counts and ratings, updated as results come in (in the fixed order: pair, seed, seating),
    so memory does not grow with the number of games and any number of workers gives the same
    figures."""

    def __init__(self, bots: Sequence[str], pairs) -> None:
        from openskill.models import PlackettLuce

        self.bots = list(bots)
        self.pairs = list(pairs)
        self.model = PlackettLuce()
        self.ratings = [self.model.rating(name=b) for b in bots]
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
                [[ratings[x]], [ratings[y]]] = model.rate([[ratings[x]], [ratings[y]]], ranks=ranks)
        self.done += len(results)


def run_ladder(
    game: Game,
    ruleset_ref: str,
    options: Sequence[str],
    bots: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> dict:
    """Play the round robin; return per-pair and per-bot counts (see :func:`report`).

    The work goes out in seed ranges (:func:`slices`), lazily, and is tallied in order as it
    comes back: on the process pool by :func:`mbrules.matches.simulate.run_ordered` (simulate's own
    executor), with ``backend="ray"`` as Ray tasks (:func:`mbrules.matches.cluster.run_slices`).
    """
    from .simulate import chunk_size

    pairs = list(itertools.combinations(range(len(bots)), 2))
    total = len(pairs) * games
    t0 = time.perf_counter()
    tally = Tally(bots, pairs)

    def consume(item, results) -> None:
        tally.add(item[0], results)
        if progress:
            progress(tally.done, total)

    size = max(1, min(8, chunk_size(games, workers)))
    todo = slices(bots, pairs, games, size)
    if backend == "ray":
        from .cluster import run_slices

        run_slices(game, seed, todo, consume, workers=workers, address=address)
    elif workers <= 1:
        for item in todo:
            consume(item, play_slice(game, item[1], item[2], seed, item[3], item[4]))
    else:
        from .simulate import _init_worker, run_ordered, worker_pool

        n = min(workers, -(-total // size), 4 * (os.cpu_count() or 1))  # never a process per --workers
        pool = worker_pool(n, _init_worker, (ruleset_ref, list(options), game.players, [], os.getpid()))
        run_ordered(pool, lambda it: pool.submit(_slice_job, it[1], it[2], seed, it[3], it[4]), todo, consume, n)
    return report(game, tally, time.perf_counter() - t0)


def report(game: Game, tally: Tally, seconds: float) -> dict:
    """Counts, win rates with Wilson 95% intervals, and openskill ratings, in a JSON-ready dict."""
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
        lo, hi = wilson(wins[0], m)
        pair_rows.append({"a": bots[x], "b": bots[y], "matches": m, "a_wins": wins[0], "b_wins": wins[1],
                          "draws_or_unfinished": draws, "a_win_rate": round(wins[0] / m, 4) if m else None,
                          "a_ci95": [round(lo, 4), round(hi, 4)]})
    rows = []
    for z, b in enumerate(bots):
        d = per_bot[z]
        lo, hi = wilson(d["wins"], d["matches"])
        r = ratings[z]
        rows.append({"bot": b, "matches": d["matches"], "wins": d["wins"], "draws_or_unfinished": d["draws"],
                     "win_rate": round(d["wins"] / d["matches"], 4) if d["matches"] else None,
                     "ci95": [round(lo, 4), round(hi, 4)],
                     "rating": {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "ordinal": round(r.ordinal(), 3)}})
    rows.sort(key=lambda row: (-row["rating"]["ordinal"], row["bot"]))
    return {"bots": rows, "pairs": pair_rows, "seatings_per_seed": len(seatings(game, "a", "b")),
            "seconds": round(seconds, 3)}
