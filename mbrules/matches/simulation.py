"""Many matches between bots on one ruleset: counters summed over seed ranges, on any backend.

``simulate`` seeds game ``i`` from ``(seed, i)`` alone (:func:`mbrules.matches.loop.game_seed`),
plays the games in chunks of consecutive seeds on a backend (:mod:`mbrules.matches.base`) and adds
up integer counts (:mod:`mbrules.matches.stats`) in seed order, so its figures are the same for any
number of workers, any chunking and any backend.
"""

from __future__ import annotations

import functools
import time
from typing import Callable, Sequence

from ..engine import Game
from .backend import as_backend
from .base import DEFAULT_WORKERS, Backend, chunk_count, chunks
from .loop import StopPoll, game_seed
from .records import MatchRecord
from .stats import MatchStats, match_stats, merge_stats, new_stats


def play_chunk(
    game: Game,
    item: tuple[int, int],
    should_stop: StopPoll | None = None,
    *,
    bots: Sequence[str],
    seed: int,
    records: bool = False,
) -> MatchStats:
    """The task of a simulation: games ``start .. stop-1`` (``item``) seeded from ``seed``, as counters."""
    start, stop = item
    stats = new_stats(game.sides, game.score_line_names)
    for i in range(start, stop):  # play_match polls should_stop at every bot decision
        match_stats(game, game_seed(seed, i), bots, stats, records, should_stop)
    return stats


def simulate(
    game: Game,
    bots: Sequence[str],
    games: int,
    seed: int,
    *,
    workers: int = DEFAULT_WORKERS,
    backend: str | Backend = "local",
    address: str | None = None,
    nodes: set[str] | None = None,
    progress: Callable[[int], None] | None = None,
    should_stop: StopPoll | None = None,
    records: bool = False,
    on_records: Callable[[int, list[MatchRecord]], None] | None = None,
) -> tuple[MatchStats, float]:
    """Play ``games`` matches between ``bots`` on ``game``; return the summed counters (:class:`~mbrules.matches.stats.MatchStats`) and the wall-clock seconds.

    ``progress(n)`` is called with the number of games counted so far. The games go out in chunks of
    consecutive seeds (:func:`mbrules.matches.base.chunks`) to ``backend`` (``"local"``: ``workers`` processes, this one when
    1; ``"ray"``: a Ray cluster at ``address``, None for a local instance with ``workers`` CPUs, ``nodes``
    collecting where the tasks ran; or a :class:`mbrules.matches.base.Backend`), and their counters
    are merged in seed order, so the counters after any number of chunks are those of games ``0 .. n-1``.

    ``should_stop()`` is polled (at least every 0.1 s, and at every bot decision in this process); once
    it returns true the work in flight is dropped and the counters of the whole chunks finished before
    the first gap are returned: ``stats.games < games`` then says the run was stopped. With
    ``records``, ``stats.records`` holds one :func:`mbrules.matches.records.match_record` a match, in
    seed order; with ``on_records`` too, each chunk's records are handed to ``on_records(first_game,
    records)`` as they are merged (in seed order) and not kept, so memory stays flat however many games
    are recorded.
    """
    runner = as_backend(backend, workers, address, nodes)
    total = new_stats(game.sides, game.score_line_names)
    t0 = time.perf_counter()
    done = 0

    def add(item: tuple[int, int], part: MatchStats) -> None:
        nonlocal done
        if on_records is not None:
            on_records(item[0], part.records)
            part.records = []
        merge_stats(total, part)
        done += item[1] - item[0]
        if progress:
            progress(done)

    task = functools.partial(play_chunk, bots=tuple(bots), seed=seed, records=records)
    n_chunks = chunk_count(games, runner.workers)
    runner.run(game, task, chunks(games, runner.workers), add, count=n_chunks, should_stop=should_stop)
    return total, time.perf_counter() - t0
