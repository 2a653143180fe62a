"""Where matches run: the one interface of the backends (this machine: :mod:`~mbrules.matches.local`; a Ray
cluster: :mod:`~mbrules.matches.cluster`; pick one with :func:`mbrules.matches.backend.make_backend`).

A run hands a backend the compiled rules, a *task* and the items of work, lazily::

    backend = make_backend("local", workers=2)          # or "ray", with address=HOST:PORT
    stopped = backend.run(game, task, items, consume, count=n, should_stop=flag)

``task(game, item, should_stop)`` is a module-level function (or a ``functools.partial`` of one, so
it pickles by reference) that plays the item's matches on ``game``: one compiled Game, or a tuple of
them (the two arms of a comparison). Every worker compiles the rules once, from each game's resolved
ruleset (:func:`rules_of`: a custom ruleset's files need not exist where the worker runs), and keeps
them for the run. ``consume(item, result)`` gets each result in the items'
order, whichever worker finished first, so a run's figures are the same on every backend and for any
number of workers. Items are seed ranges whose last two fields are ``(start, stop)``.

Work is fed lazily, :data:`IN_FLIGHT_PER_WORKER` items per worker ahead of the merge, so memory stays
flat whatever the number of games. ``should_stop()`` is polled (at least every 0.1 s); once it is true
the results finished in a row after the last one consumed are consumed too, the work in flight is
dropped (the pool's workers killed, Ray's tasks cancelled) and ``run`` returns True: the figures are
those of a prefix of the items. An error (a worker's, or an interrupt raised in the main thread)
stops the work in flight the same way and propagates.
"""

from __future__ import annotations

import collections
import itertools
import os
from abc import ABC, abstractmethod
from typing import Any, Callable, Iterable, Iterator, Protocol, TypeVar, Union

from ..engine import Game
from .loop import StopPoll

MAX_GAMES = 10**9  # the bounds the CLI enforces on a run (usage error beyond them)
MAX_WORKERS = 256
WORKERS_CAP = 8
DEFAULT_WORKERS = max(1, min(os.cpu_count() or 1, WORKERS_CAP))  # --workers of every command: the CPUs, at most 8
IN_FLIGHT_PER_WORKER = 3  # items handed out ahead of the merge: memory stays flat

Games = Union[Game, tuple[Game, ...]]  # what a run plays on: one game, or a tuple of them (a comparison's arms)
Rules = tuple[Any, ...]  # rules_of's picklable description: (ruleset, players), or a tuple of those
_I = TypeVar("_I")  # an item of work (a seed range, with what the task needs to know about it)
_R = TypeVar("_R")  # what the task makes of one item
# task(game, item, should_stop): the game is Any because each task takes what its run plays on (a Game,
# or a tuple of them: a Callable's parameter cannot be narrowed from Games to either)
Task = Callable[[Any, _I, "StopPoll | None"], _R]
Consume = Callable[[_I, _R], None]
_I_in = TypeVar("_I_in", contravariant=True)
_R_out = TypeVar("_R_out", covariant=True)


def chunk_size(items: int, workers: int, *, most: int = 25, per_worker: int = 32) -> int:
    """Items (games, pairs) per work item: about ``per_worker`` work items a worker, so that no worker
    idles long at the end, and at most ``most`` (progress and a stop stay prompt)."""
    return max(1, min(most, -(-items // (max(1, workers) * per_worker))))


def chunks(items: int, workers: int, *, most: int = 25, per_worker: int = 32) -> Iterator[tuple[int, int]]:
    """The ranges ``(start, stop)`` of ``items`` handed to workers, in order, made one at a time (never a
    list of them all): the one chunker of simulate, the ladder, compare and sweep."""
    size = chunk_size(items, workers, most=most, per_worker=per_worker)
    for a in range(0, items, size):
        yield a, min(items, a + size)


def chunk_count(items: int, workers: int, *, most: int = 25, per_worker: int = 32) -> int:
    """How many ranges :func:`chunks` makes."""
    return -(-items // chunk_size(items, workers, most=most, per_worker=per_worker))


def rules_of(game: Games) -> Rules:
    """What a worker needs to compile ``game`` (a Game or a tuple of them) again: the resolved ruleset and
    the player count of each; picklable, about 12 KB a game."""
    if isinstance(game, tuple):
        return tuple((g.ruleset, g.players) for g in game)
    return (game.ruleset, game.players)


def compile_rules(rules: Rules) -> Games:
    """The Game (or the tuple of Games) :func:`rules_of` describes."""
    if rules and isinstance(rules[0], tuple):
        return tuple(Game(r, p) for r, p in rules)
    ruleset, players = rules
    return Game(ruleset, players)


def rules_digest(game: Games) -> str:
    """A digest of the rules a run plays (the key a worker keeps its compiled games under)."""
    import hashlib

    from ..ruleset.pydantic_plugins import skip_empty_plugin_lookup

    skip_empty_plugin_lookup()  # before pydantic makes the ruleset's serializer
    games = game if isinstance(game, tuple) else (game,)
    return hashlib.sha256(repr([(g.ruleset.model_dump_json(), g.players) for g in games]).encode()).hexdigest()


class BackendUnavailable(RuntimeError):
    """A backend that cannot run here: ``ray`` without Ray installed, or a cluster that cannot be reached."""


class Backend(ABC):
    """Runs a task over items of work and hands the results back in the items' order."""

    name = "?"

    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        self.workers = max(1, workers)

    @abstractmethod
    def run(
        self,
        game: Games,
        task: Task[_I, _R],
        items: Iterable[_I],
        consume: Consume[_I, _R],
        *,
        count: int,
        should_stop: StopPoll | None = None,
    ) -> bool:
        """``consume(item, task(game, item, ...))`` for every item, in order; True when stopped.

        ``count`` is the number of items (a pool is never larger than the work)."""


class Handles(Protocol[_I_in, _R_out]):
    """What :func:`merge_in_order` needs of a backend's tasks in flight. A handle is Any: a future, or a Ray
    object reference (Ray has no annotations)."""

    def submit(self, item: _I_in) -> Any: ...
    def done(self, handle: Any) -> bool: ...
    def wait(self, handle: Any, timeout: float) -> None: ...
    def result(self, handle: Any) -> _R_out: ...
    def abort(self, handles: list[Any]) -> None: ...  # stop the work in flight now (kill, cancel)
    def close(self) -> None: ...  # the run ended normally


def merge_in_order(
    h: Handles[_I, _R], items: Iterable[_I], consume: Consume[_I, _R], ahead: int, should_stop: StopPoll | None = None
) -> bool:
    """The one executor of every backend that runs tasks elsewhere: submit ``ahead`` items, then one
    more each time the oldest result is consumed; results are consumed in the items' order. Returns
    True when ``should_stop()`` stopped the run (see the module's doc)."""
    todo = iter(items)
    in_flight: collections.deque[tuple[_I, Any]] = collections.deque()  # (item, handle), in the items' order
    stopped = False
    try:
        for item in itertools.islice(todo, ahead):
            in_flight.append((item, h.submit(item)))
        while in_flight:
            item, handle = in_flight[0]
            while not h.done(handle):
                if should_stop is not None and should_stop():
                    stopped = True
                    break
                h.wait(handle, 0.1)
            if stopped:
                break
            try:
                result = h.result(handle)
            except Exception:
                if should_stop is not None and should_stop():  # a worker killed by the same signal
                    stopped = True
                    break
                raise
            in_flight.popleft()
            consume(item, result)
            for nxt in itertools.islice(todo, 1):
                in_flight.append((nxt, h.submit(nxt)))
    finally:
        if stopped or in_flight:
            # keep the results already finished in a row after the last one consumed
            while stopped and in_flight and h.done(in_flight[0][1]):
                item, handle = in_flight[0]
                try:
                    result = h.result(handle)
                except Exception:  # noqa: BLE001  (a cancelled or failed task ends the prefix)
                    break
                in_flight.popleft()
                consume(item, result)
            h.abort([handle for _, handle in in_flight])
        else:
            h.close()
    return stopped
