"""The local backend: this machine, in this process with one worker, else a process pool whose workers
compile the rules once and die with their parent (their results merged by :func:`mbrules.matches.base.merge_in_order`).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor, wait
from typing import Any, Callable, Generic, Iterable, TypeVar

from .base import IN_FLIGHT_PER_WORKER, Backend, Consume, Games, Rules, Task, compile_rules, merge_in_order, rules_of
from .loop import StopPoll, Stopped

_WORKER: dict[str, Any] = {}  # in a pool worker: "game", the compiled rules; "task", the run's task
_I = TypeVar("_I")
_R = TypeVar("_R")


def die_with_parent(parent: int) -> None:
    """Make this worker die when the process that started it dies, even by SIGKILL.

    Linux: ``prctl(PR_SET_PDEATHSIG, SIGKILL)``, enforced by the kernel at the parent's death (the
    pool starts its workers from the main thread, which lives as long as the parent). The parent
    may have died before the call: then ``getppid()`` is no longer ``parent`` and we leave now.
    Elsewhere, a daemon thread polls ``getppid()`` twice a second.
    """
    import signal as _signal

    armed = False
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(1, int(_signal.SIGKILL), 0, 0, 0) == 0  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:
        os._exit(1)
    if not armed:
        import threading

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="mbrules-parent-watch", daemon=True).start()


def _init_worker(rules: Rules, task: Task[Any, Any], parent: int | None = None) -> None:
    """Pool initializer: die with the parent, leave Ctrl-C to it, compile the rules once."""
    import signal as _signal

    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)  # the parent coordinates: it stops the workers
    if parent is not None:
        die_with_parent(parent)
    _WORKER["game"] = compile_rules(rules)
    _WORKER["task"] = task


def _run_item(item: object) -> Any:  # Any: what the run's task (kept in _WORKER) returns
    """In a pool worker: the run's task on one item, with the rules the initializer compiled."""
    return _WORKER["task"](_WORKER["game"], item, None)


def worker_pool(size: int, initializer: Callable[..., object], initargs: tuple[Any, ...]) -> ProcessPoolExecutor:
    """A process pool of ``size`` workers (forked where the platform can), each set up by ``initializer``."""
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    return ProcessPoolExecutor(max_workers=size, mp_context=ctx, initializer=initializer, initargs=initargs)


def kill_pool(pool: ProcessPoolExecutor) -> None:
    """Stop every worker of ``pool`` now (SIGKILL) and wait for them: no process is left behind."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        try:
            p.kill()
        except (OSError, ValueError, AttributeError):
            pass
    pool.shutdown(wait=True, cancel_futures=True)
    for p in procs:
        try:
            p.join(2)
        except (OSError, ValueError, AssertionError, AttributeError):
            pass


class PoolHandles(Generic[_I, _R]):
    """A pool of ``size`` workers running ``task`` on ``game``: :class:`mbrules.matches.base.Handles`
    over its futures."""

    def __init__(self, size: int, game: Games, task: Task[_I, _R]) -> None:
        self.size = size
        self.pool = worker_pool(size, _init_worker, (rules_of(game), task, os.getpid()))

    def submit(self, item: _I) -> Future[_R]:
        return self.pool.submit(_run_item, item)

    def done(self, fut: Future[_R]) -> bool:
        return fut.done()

    def wait(self, fut: Future[_R], timeout: float) -> None:
        wait([fut], timeout=timeout)

    def result(self, fut: Future[_R]) -> _R:
        return fut.result()

    def abort(self, futs: list[Future[_R]]) -> None:
        kill_pool(self.pool)

    def close(self) -> None:
        self.pool.shutdown(wait=True)


class LocalBackend(Backend):
    """This machine: in this process with one worker, else a process pool of at most ``workers``."""

    name = "local"

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
        if self.workers <= 1:
            try:
                for item in items:  # the task polls should_stop at every bot decision
                    consume(item, task(game, item, should_stop))
                    if should_stop is not None and should_stop():
                        return True
            except Stopped:  # the item being played is dropped
                return True
            return False
        size = min(self.workers, count, 4 * (os.cpu_count() or 1))  # never a process per --workers
        handles: PoolHandles[_I, _R] = PoolHandles(max(1, size), game, task)
        return merge_in_order(handles, items, consume, handles.size * IN_FLIGHT_PER_WORKER, should_stop)
