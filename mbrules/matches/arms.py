"""Arms played on the same seeds, pair by pair: the runner compare and sweep share (:func:`run_arms`).

An *arm* is one compiled Game (a ruleset, or one value of a sweep); every arm plays match ``i`` of a
phase on the same seed (common random numbers), so the differences between arms are paired. A work
item is a range of pair indices of one phase, and a worker plays match ``i`` of every arm together:
the pairs finished when a run is stopped are whole pairs. What a pair gives back:

- ``main`` and ``robust`` phases (``bots``: the lineup): per arm, every metric's (numerator,
  denominator) (:func:`mbrules.matches.metrics.metric_values`) and, when asked, the
  :class:`~mbrules.matches.records.MatchRecord`;
- a phase with a focus (``ladder``, ``restricted``): per arm, 1 when the side seating ``focus`` (side
  ``i mod sides``, every other seat ``other``) won, else 0.

Seeds: the main and robust phases deal match ``i`` from :func:`~mbrules.matches.loop.game_seed` (the
same deals as ``simulate``), every other phase from its own stream (:func:`phase_seed`).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence, Union

from ..bots import lineup
from ..engine import Game
from .backend import as_backend
from .base import DEFAULT_WORKERS, chunk_count, chunks
from .loop import StopPoll, derive_seed, game_seed, play_match
from .metrics import metric_values, metrics_for
from .records import MatchRecord, match_record

# pairs per work item: each is a match per arm, so items are smaller than simulate's
CHUNK_MOST, CHUNK_PER_WORKER = 10, 16


@dataclass(frozen=True)
class Phase:
    key: str  # "main", "robust:<bot>", "ladder:<strong>><weak>", "restricted:<restriction>"
    kind: str  # main | robust | ladder | restricted
    pairs: int
    title: str
    bots: tuple[str, ...] = ()  # main and robust: the lineup (one name, or one per player)
    focus: str = ""  # ladder and restricted: the bot of the focus side (rotating through the sides)
    other: str = ""  # ... and of every other seat


def phase_seed(seed: int, phase: str, i: int) -> int:
    """The seed of pair ``i`` of a phase other than the main and robust ones (the same in every arm)."""
    return derive_seed(seed, phase, i)


def cpu_seconds() -> float:
    """CPU time of this process and of its finished workers (user + system)."""
    try:
        import resource
    except ImportError:  # not on Unix
        return time.process_time()
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


# -- work done in a worker (or in-process) --------------------------------------------------------
# One pair's result: per arm, the metric values (main and robust phases: tuple[tuple[int, int], ...] in
# the order of metrics_for(games)) or whether the focus side won (ladder and restricted: 1 or 0); the arms' records or None
ArmResult = Union[tuple[tuple[int, int], ...], int]
PairResult = tuple[tuple[ArmResult, ...], Union[list[MatchRecord], None]]


def play_pairs(
    games: Sequence[Game],
    phase: Phase,
    seed: int,
    start: int,
    stop: int,
    with_records: bool,
    should_stop: StopPoll | None = None,
) -> list[PairResult]:
    """Pairs ``start .. stop-1`` of ``phase``: for each, per arm, the metric values and the record
    (main and robust phases) or whether the focus side won (ladder and restricted)."""
    out: list[PairResult] = []
    metrics = metrics_for(games)  # the registry's, and each score line the arms' rulesets add
    for i in range(start, stop):
        if phase.kind in ("main", "robust"):
            s = game_seed(seed, i)
            recs = [
                match_record(g, s, play_match(g, s, phase.bots, should_stop=should_stop), lineup(phase.bots, g.players))
                for g in games
            ]
            out.append((tuple(metric_values(r, metrics) for r in recs), recs if with_records else None))
        else:
            s = phase_seed(seed, phase.key, i)
            wins: list[int] = []
            for g in games:
                side = i % g.sides
                bots = [phase.focus if g.side_of[p] == side else phase.other for p in range(g.players)]
                o = play_match(g, s, bots, should_stop=should_stop).outcome
                wins.append(1 if o is not None and o.winner_index == side else 0)
            out.append((tuple(wins), None))
    return out


Item = tuple[Phase, int, int]  # a phase and a range of its pairs


def pairs_task(
    games: Sequence[Game], item: Item, should_stop: StopPoll | None = None, *, seed: int, with_records: bool
) -> list[PairResult]:
    """The task of :func:`run_arms` on a backend: the pairs ``start .. stop-1`` of ``item = (phase, start, stop)``
    (records of the main phase only)."""
    phase, start, stop = item
    return play_pairs(games, phase, seed, start, stop, with_records and phase.kind == "main", should_stop)


# -- the runner ------------------------------------------------------------------------------------
Consume = Callable[[Phase, int, list[PairResult]], None]


def run_arms(
    games: Sequence[Game],
    phases: Sequence[Phase],
    seed: int,
    consume: Consume,
    *,
    workers: int = DEFAULT_WORKERS,
    with_records: bool = False,
    should_stop: StopPoll | None = None,
    seconds: dict[str, float] | None = None,
    backend: str = "local",
    address: str | None = None,
) -> bool:
    """Play ``phases`` one after the other on every arm of ``games`` (two arms of a comparison, or the
    values of a sweep) on the backend (:mod:`mbrules.matches.base`); True when stopped.

    ``consume(phase, start, results)`` gets each work item's pairs (:func:`play_pairs`) in order, whatever
    the number of workers; ``seconds[phase.key]`` adds up the wall time each phase's results took to come in.
    A KeyboardInterrupt (Ctrl-C in a notebook, where nothing polls ``should_stop``) is a stop as well: the
    pairs consumed before it are kept, and the call returns True.
    """
    runner = as_backend(backend, workers, address)
    shape = {"workers": runner.workers, "most": CHUNK_MOST, "per_worker": CHUNK_PER_WORKER}

    def todo() -> Iterator[Item]:
        for ph in phases:
            for a, b in chunks(ph.pairs, **shape):
                yield ph, a, b

    count = sum(chunk_count(ph.pairs, **shape) for ph in phases)
    last = [time.perf_counter()]

    def took(item: Item, result: list[PairResult]) -> None:
        now = time.perf_counter()
        if seconds is not None:
            seconds[item[0].key] = seconds.get(item[0].key, 0.0) + now - last[0]
        last[0] = now
        consume(item[0], item[1], result)

    task = functools.partial(pairs_task, seed=seed, with_records=with_records)
    try:
        return runner.run(tuple(games), task, todo(), took, count=count, should_stop=should_stop)
    except KeyboardInterrupt:
        return True
