"""Bots think in worker processes, never in the event loop every table shares.

An expert decision is 0.1 to 0.7 s of CPU: made in the server's event loop it stalls every table,
``/health`` and every person's move. The server hands each of its bots' decisions to a bounded
pool of worker processes (:class:`Thinker`, a :class:`~concurrent.futures.ProcessPoolExecutor` of
``--bot-workers`` processes; :func:`default_workers`) and awaits the answer.

A decision stays deterministic: the worker is sent what the bot would have been given in process
(the seat's observation and the legal actions) and the bot itself, pickled with its random streams
as they are (:func:`dumps`; the compiled :class:`~mbrules.engine.Game` is not pickled but named, and
each worker keeps the few it has built: :func:`think`; an action is named by its code and given back as
the worker's game's own). The worker answers with the index of the
chosen action and the bot as it is after choosing, which the table keeps only if it applies the
action: a decision the table no longer wants (the seat was handed to a person meanwhile, the table
expired) is dropped with the bot's state it produced, so the bot's stream is as if it had not been
asked. The same bot, asked the same question, gives the same answer in any process.

A worker that dies (killed, out of memory) breaks the pool: a new one is started and the decision
asked again, :data:`ATTEMPTS` times at most. Workers run at a lower priority (``nice`` +10): on a
busy machine the event loop, which answers every page, gets the CPU first. Workers ignore SIGINT (a Ctrl-C in the terminal reaches
the whole process group; the server stops them itself).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import multiprocessing
import os
import pickle
import signal
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from mbrules.engine import Action, Game, Observation

from .jsontypes import Setup

log = logging.getLogger("mbrules.web")

MAX_WORKERS = 64  # --bot-workers at most
ATTEMPTS = 3  # pools started for one decision before it is given up (its table then waits)
WORKER_NICE = 10  # the workers' niceness above the server's (their CPU goes to the loop first)
GAMES_KEPT = 16  # compiled games a worker keeps (one per rules and player count in play)
_GAME = "game"  # the persistent id of the Game in a pickle (an Action's is its code)


def default_workers() -> int:
    """One worker a core but one (the event loop's), at least one, at most 4: 1 on 2 cores."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 2
    return max(1, min(4, cores - 1))


class ThinkingFailed(Exception):
    """The bot could not be asked: the worker processes kept dying."""


def dumps(obj: object, game: Game) -> bytes:
    """``obj`` pickled with ``game`` named, not copied (the worker has its own)."""
    out = io.BytesIO()
    p = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)

    def named(o: object) -> object:
        if o is game:
            return _GAME
        if isinstance(o, Action):  # an action is its game's: named by its code, given back as the game's own
            return int(o)
        return None

    p.persistent_id = named  # type: ignore[method-assign]
    p.dump(obj)
    return out.getvalue()


def loads(data: bytes, game: Game) -> Any:
    """What :func:`dumps` pickled, with ``game`` where it was named."""
    u = pickle.Unpickler(io.BytesIO(data))

    def load(pid: object) -> object:
        if pid == _GAME:
            return game
        if isinstance(pid, int) and pid in game.actions:
            return game.actions[pid]
        raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")

    u.persistent_load = load  # type: ignore[method-assign]
    return u.load()


def rules_of(setup: Setup) -> tuple[str, str]:
    """A table's rules and player count as the worker rebuilds them (no secrets), and its key."""
    keep = {k: setup.get(k) for k in ("ruleset", "upload_name", "upload_text", "options", "players")}
    text = json.dumps(keep, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest(), text


# -- in the worker --------------------------------------------------------------------------------
_games: OrderedDict[str, Game] = OrderedDict()


def _worker_start() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops its workers itself
    try:
        os.nice(WORKER_NICE)  # a bot's thinking yields the CPU to the event loop that serves every table
    except (AttributeError, OSError):
        pass


def _ready() -> bool:
    return True


def think(key: str, rules: str | None, bot: bytes, question: bytes) -> tuple[int, bytes] | None:
    """In a worker: the bot's choice (an index into the legal actions) and the bot after it; None when
    the worker has not built the rules ``key`` names and ``rules`` was not sent (the caller sends them)."""
    game = _games.get(key)
    if game is None:
        if rules is None:
            return None
        from .rules import choice_from_setup

        setup = json.loads(rules)
        game = Game(choice_from_setup(setup).ruleset, setup["players"])
        _games[key] = game
        while len(_games) > GAMES_KEPT:
            _games.popitem(last=False)
    _games.move_to_end(key)
    chooser = loads(bot, game)
    obs, legal = loads(question, game)
    action = chooser.choose(obs, legal)
    return legal.index(action), dumps(chooser, game)


# -- in the server --------------------------------------------------------------------------------
def think_here(game: Game, bot: bytes, obs: Observation | None, legal: list[Action]) -> tuple[int, bytes]:
    """:func:`think` in this process, on a copy of the bot (the bot moves on only if its action is taken)."""
    chooser = loads(bot, game)
    action = chooser.choose(obs, legal)
    return legal.index(action), dumps(chooser, game)


class Thinker:
    """The server's pool of bot workers (started by :meth:`start`, or at the first decision).

    A bot registered as quick (not ``slow`` in :func:`mbrules.bots.bot_facts`: random, heuristic,
    learned...) decides in this process, where its decision costs a fraction of a millisecond, less
    than the trip to a worker; a slow one (expert: 0.1 to 0.7 s) in a worker. ``everywhere``: every bot
    in a worker (the tests check that a decision made there is the one made here)."""

    def __init__(self, workers: int | None = None, everywhere: bool = False):
        self.workers = workers or default_workers()
        self.everywhere = everywhere
        self._pool: ProcessPoolExecutor | None = None

    def elsewhere(self, kind: str) -> bool:
        """Whether the bot ``kind`` decides in a worker."""
        from mbrules.bots import is_slow

        return self.everywhere or is_slow(kind)

    def _get_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            # never fork a process with threads (the tests' servers run in one); forkserver starts fast
            ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            if ctx.get_start_method() == "forkserver":
                ctx.set_forkserver_preload(["mbrules.web.thinking", "mbrules.bots"])  # not __main__ (the CLI)
            self._pool = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_worker_start)
        return self._pool

    async def decide(
        self, setup: Setup, game: Game, bot: bytes, obs: Observation | None, legal: list[Action], kind: str = ""
    ) -> tuple[int, bytes]:
        """Ask the bot ``kind`` (pickled, :func:`dumps`) in a worker (here if it is quick): the index of its
        action in ``legal`` and the bot after choosing."""
        if kind and not self.elsewhere(kind):
            return think_here(game, bot, obs, legal)
        key, rules = rules_of(setup)
        question = dumps((obs, legal), game)
        for attempt in range(ATTEMPTS):
            pool = self._get_pool()
            try:
                answer = await asyncio.wrap_future(pool.submit(think, key, None, bot, question))
                if answer is None:  # this worker has not built these rules yet
                    answer = await asyncio.wrap_future(pool.submit(think, key, rules, bot, question))
                assert answer is not None
                return answer
            except BrokenProcessPool:
                log.error("a bot worker process died (attempt %d of %d): starting new workers", attempt + 1, ATTEMPTS)
                if self._pool is pool:
                    self._pool = None
                    pool.shutdown(wait=False, cancel_futures=True)
        raise ThinkingFailed(f"the bot workers died {ATTEMPTS} times in a row")

    def start(self) -> None:
        """Start the workers now and wait until they are ready (a server's first bot move then waits for no
        process to start, and the start line comes once the server is whole)."""
        pool = self._get_pool()
        for f in [pool.submit(_ready) for _ in range(self.workers)]:
            f.result()

    def close(self) -> None:
        """Stop the workers (a decision being made is waited for: at most one a worker)."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


_shared: Thinker | None = None


def shared_thinker() -> Thinker:
    """The process's thinker of :func:`default_workers` workers, for a lobby not given its own."""
    global _shared
    if _shared is None:
        _shared = Thinker()
    return _shared


__all__ = [
    "MAX_WORKERS",
    "Thinker",
    "ThinkingFailed",
    "default_workers",
    "dumps",
    "loads",
    "rules_of",
    "shared_thinker",
    "think",
    "think_here",
]
