"""Matches on a Ray cluster: the same seed ranges as the local process pool, merged in the same order.

``run_chunks`` sends chunks of games (seed ranges ``a .. b-1``) out as Ray tasks and merges their
counters in seed order, exactly as :func:`mbrules.matches.simulate.simulate` merges its process pool's, so
every figure but the timings equals ``--backend local`` for the same inputs, whatever the cluster.

What reaches the workers is the *resolved* ruleset (the frozen pydantic model, about 12 KB, sent
inline with each task), never a file path: a custom ruleset on the head node's disk plays the same on a
worker that has never seen the file. A worker process compiles the rules once and keeps them for
the next task of the same run (keyed by a digest of the ruleset, the player count and the bots).

Failures: a task whose worker dies is retried by Ray (``max_retries``); since a task is a whole
seed range and its result is merged once, by position, a retried range is neither lost nor
counted twice. A stop (Ctrl-C, SIGTERM: ``should_stop``) cancels the tasks in flight and keeps
the whole ranges finished in a row, like the local pool.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import itertools
import logging
import os
import socket
from typing import Callable, Iterator

IN_FLIGHT_PER_CPU = 3  # tasks handed out ahead of the merge: memory stays flat whatever --games is
TASK_RETRIES = 3
KILL_ONCE_ENV = "MBRULES_TEST_KILL_CHUNK"  # tests: "START:MARKER" kills the worker running that chunk, once


class BackendUnavailable(RuntimeError):
    """``--backend ray`` without Ray installed, or a cluster that cannot be reached."""


def _ray():
    try:
        import ray  # noqa: PLC0415  (an optional extra: imported only when asked for)
    except ImportError:
        raise BackendUnavailable(
            "--backend ray needs Ray: pip install 'mbrules[cluster]' (make test installs it)"
        ) from None
    return ray


_COMPILED: dict = {}  # in a Ray worker process: key -> (Game, bots, records)


def _chunk_task(key: str, spec, seed: int, start: int, stop: int) -> tuple[dict, str]:
    """In a Ray worker: games ``start .. stop-1`` of the run; the counters and the node that played them."""
    import ray  # noqa: PLC0415

    from ..engine import Game
    from .simulate import _play_games

    kill = os.environ.get(KILL_ONCE_ENV)
    if kill:
        at, marker = kill.split(":", 1)
        if int(at) == start and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)  # the worker dies mid-run: Ray must retry this range on another process
    hit = _COMPILED.get(key)
    if hit is None:
        ruleset, players, bots, records = spec
        hit = _COMPILED[key] = (Game(ruleset, players), list(bots), records)
    game, bots, records = hit
    stats = _play_games(game, bots, seed, start, stop, None, records)
    return stats, ray.get_runtime_context().get_node_id()


def _probe(address: str, timeout: float = 5.0) -> None:
    """Refuse at once a HOST:PORT where nothing listens (ray.init would retry for minutes)."""
    if address in ("auto", "local") or "://" in address:
        return
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise BackendUnavailable(f"--address must be HOST:PORT (or 'auto'), got {address[:60]!r}")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise BackendUnavailable(f"cannot start or reach the Ray cluster at {address[:60]}: "
                                 f"{(e.strerror or str(e)).lower()} (is 'ray start --head' running there?)") from None


def _placer(ray) -> Callable[[], object]:
    """Hand tasks to the nodes in turn, each as often as it has CPUs (soft: a node that is gone or full
    lets Ray place the task elsewhere). Ray's own policy keeps short tasks on the driver's node while
    it has room, so a second node would idle through a run of quick matches."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy  # noqa: PLC0415

    cpus = {n["NodeID"]: int(n.get("Resources", {}).get("CPU", 0)) for n in ray.nodes() if n.get("Alive")}
    slots = [node for k in range(max(cpus.values(), default=0)) for node in sorted(cpus) if cpus[node] > k]
    if not slots:
        return lambda: "DEFAULT"
    turn = itertools.cycle(slots)
    return lambda: NodeAffinitySchedulingStrategy(node_id=next(turn), soft=True)


RAY_TOKEN_LOGGER = "ray._private.authentication.authentication_token_setup"


def _not_the_token_notice(record: logging.LogRecord) -> bool:
    return "Token authentication is enabled" not in record.getMessage()


@contextlib.contextmanager
def quiet_local_token_notice() -> Iterator[None]:
    """While mbrules starts a local Ray instance for itself (no --address), Ray's notice that token
    authentication is on, meant for a cluster others reach, is not printed; a cluster the user names
    keeps every notice."""
    log = logging.getLogger(RAY_TOKEN_LOGGER)
    log.addFilter(_not_the_token_notice)
    try:
        yield
    finally:
        log.removeFilter(_not_the_token_notice)


def _connect(ray, address: str | None, workers: int) -> None:
    if ray.is_initialized():
        return
    if address:
        _probe(address)
    kw = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        if address:
            ray.init(address=address, **kw)  # a cluster the user names: Ray's notices are theirs to read
        else:  # a local instance with as many CPUs as --workers asks for
            with quiet_local_token_notice():
                ray.init(num_cpus=max(1, workers), **kw)
    except Exception as e:  # noqa: BLE001  (Ray raises several kinds for an unreachable cluster)
        raise BackendUnavailable(f"cannot start or reach the Ray cluster{' at ' + address if address else ''}: "
                                 f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from None


def run_chunks(game, bots, seed: int, todo: Iterator[tuple[int, int]], add: Callable[[int, int, dict], None], *,
               workers: int, address: str | None = None, should_stop: Callable[[], object] | None = None,
               records: bool = False, nodes: set | None = None) -> None:
    """Play the seed ranges of ``todo`` as Ray tasks; ``add(a, b, stats)`` each in seed order.

    ``nodes`` (a set) collects the ids of the nodes that ran tasks. Returns when every range is
    merged, or when ``should_stop()`` turns true (then the tasks in flight are cancelled).
    """
    ray = _ray()
    _connect(ray, address, workers)
    cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
    spec = (game.ruleset, game.players, list(bots), records)
    key = hashlib.sha256(repr((game.ruleset.model_dump_json(), game.players, list(bots), records)).encode()).hexdigest()
    # ~12 KB: passed inline with each task, where Ray keeps it out of the object store. A ray.put()
    # reference would pull every task to the node holding the object (locality-aware scheduling
    # wins over SPREAD): on a two-node cluster all tasks ran on the head node.
    spec_ref = spec
    task = ray.remote(max_retries=TASK_RETRIES, retry_exceptions=False, num_cpus=1)(_chunk_task)
    place = _placer(ray)

    def consume(ab: tuple[int, int], result: tuple[dict, str]) -> None:
        stats, node = result
        if nodes is not None:
            nodes.add(node)
        add(ab[0], ab[1], stats)

    run_ordered(ray, lambda ab: task.options(scheduling_strategy=place()).remote(key, spec_ref, seed, *ab), todo,
                consume, cpus, should_stop)


def run_ordered(ray, submit: Callable, todo: Iterator, consume: Callable, cpus: int,
                should_stop: Callable[[], object] | None = None) -> None:
    """Ray's twin of :func:`mbrules.matches.simulate.run_ordered`: ``submit(item)`` returns a task's ref, fed
    lazily (``cpus * IN_FLIGHT_PER_CPU`` ahead); ``consume(item, result)`` in ``todo``'s order. A stop
    (``should_stop()``, polled every 0.1 s) keeps the results finished in a row; a stop or an error
    (an interrupt raised in the main thread, which the 0.1 s waits let in) cancels the tasks in flight."""
    in_flight: collections.deque = collections.deque()  # (item, ref), in todo's order
    for item in itertools.islice(todo, cpus * IN_FLIGHT_PER_CPU):
        in_flight.append((item, submit(item)))
    try:
        while in_flight:
            item, ref = in_flight[0]
            ready: list = []
            while not ready:
                if should_stop is not None and should_stop():
                    _keep_finished_prefix(ray, in_flight, consume)
                    return
                ready, _ = ray.wait([ref], timeout=0.1)
            result = ray.get(ref)
            in_flight.popleft()
            consume(item, result)
            for nxt in itertools.islice(todo, 1):
                in_flight.append((nxt, submit(nxt)))
    finally:
        for _, ref in in_flight:
            ray.cancel(ref, force=True)


def _keep_finished_prefix(ray, in_flight, consume) -> None:
    """On a stop: consume the results already finished in a row at the head (the figures stay a prefix)."""
    while in_flight:
        item, ref = in_flight[0]
        ready, _ = ray.wait([ref], timeout=0)
        if not ready:
            return
        try:
            result = ray.get(ref)
        except Exception:  # noqa: BLE001  (a cancelled or failed task ends the prefix)
            return
        in_flight.popleft()
        consume(item, result)


def _slice_task(key: str, spec, a: str, b: str, seed: int, start: int, stop: int) -> list:
    """In a Ray worker: games ``start .. stop-1`` of the ladder pair (a, b), in order."""
    from .ladder import play_slice
    from ..engine import Game

    hit = _COMPILED.get(key)
    if hit is None:
        ruleset, players = spec
        hit = _COMPILED[key] = (Game(ruleset, players),)
    return play_slice(hit[0], a, b, seed, start, stop)


def run_slices(game, seed: int, todo: Iterator[tuple], consume: Callable[[tuple, list], None], *, workers: int,
               address: str | None = None) -> None:
    """A ladder's seed ranges (``(pair, a, b, start, stop)``) as Ray tasks, fed lazily like
    :func:`run_chunks`; ``consume(item, results)`` each in order, so the ratings are the same as on
    the process pool. An interrupt raised in the main thread cancels the tasks in flight."""
    ray = _ray()
    _connect(ray, address, workers)
    cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
    spec = (game.ruleset, game.players)  # inline, as in run_chunks: no locality pull to the head node
    key = hashlib.sha256(repr(("ladder", game.ruleset.model_dump_json(), game.players)).encode()).hexdigest()
    task = ray.remote(max_retries=TASK_RETRIES, retry_exceptions=False, num_cpus=1)(_slice_task)
    place = _placer(ray)

    def submit(item):
        _, a, b, start, stop = item
        return task.options(scheduling_strategy=place()).remote(key, spec, a, b, seed, start, stop)

    run_ordered(ray, submit, todo, consume, cpus)


def shutdown() -> None:
    """Disconnect (and stop a local instance this process started)."""
    try:
        import ray  # noqa: PLC0415
    except ImportError:
        return
    if ray.is_initialized():
        ray.shutdown()
