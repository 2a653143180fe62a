"""Headless matches between bots: the driver loop, match statistics, and many matches in parallel.

Determinism: a match is dealt from its seed with the match's own RNG, and every bot
has its own stream seeded from the match seed and its player; nothing reads the global
``random``. ``simulate`` seeds game ``i`` from ``(seed, i)`` alone and adds up integer
counts, so its figures are the same for any number of workers and any chunking.
"""

from __future__ import annotations

import collections
import hashlib
import itertools
import multiprocessing as mp
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Iterator, Sequence

from mbrules.vocab import COUP_FOURRE, DISCARD, PLAY, SCORE_LINES

from ..bots import make_bots
from ..engine import Game, Observer, State


def game_seed(seed: int, i: int) -> int:
    """The seed of game ``i`` of a simulation seeded with ``seed`` (stable across machines and runs)."""
    digest = hashlib.sha256(f"mbrules:{seed}:game:{i}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_match(
    game: Game,
    seed: int,
    bots: Sequence[str],
    *,
    max_hands: int | None = None,
    observers: Sequence[Observer] = (),
    should_stop: Callable[[], object] | None = None,
) -> State:
    """Play a match (or its first ``max_hands`` hands) between bots; return the final state.

    ``bots`` holds one bot name for every player or one per player in seating order. Each
    bot sees its seat's observation only. A decision with a single legal action (the draw,
    mostly) is applied without asking the bot, so bots are asked only real questions.
    ``observers`` (narrator, recorder, checker) watch through the state's hooks.

    A match never lasts more than the ruleset's ``match.max_hands`` hands: the engine ends a
    match still undecided then as ``unfinished`` (its outcome says so), so a ruleset whose
    target is never reached cannot make this loop run forever.

    ``should_stop()`` is polled before every bot decision; once it returns true the match is
    abandoned (``_Stopped`` is raised): a slow bot's match (the expert's lasts seconds) must not
    hold up a Ctrl-C until it ends.
    """
    players = make_bots(bots, game, seed)
    choosers = [b.choose for b in players]
    observes = [getattr(b, "observes", True) for b in players]
    st = State.new_match(game, seed, deal_next=False)
    for o in observers:
        st.add_observer(o)
    legal = st.legal_actions
    apply = st.step  # the record apply returns is not read here: step skips building it
    hands = 0
    while True:
        while True:
            acts = legal()
            n = len(acts)
            if n == 1:
                apply(acts[0])
            elif n:
                if should_stop is not None and should_stop():
                    raise _Stopped
                p = st.current_player
                apply(choosers[p](st.observation(p) if observes[p] else None, acts))
            else:
                break  # the hand is over
        hands += 1
        if st.is_terminal() or (max_hands is not None and hands >= max_hands):
            return st
        st.next_hand()


def count_turns(history) -> int:
    """Turns in a history: cards played or discarded (draws, answers and new-hand marks are not turns)."""
    return sum(1 for p, a in history if p >= 0 and a.op in (PLAY, DISCARD))


# -- statistics ------------------------------------------------------------------------
# Per-match moments of the ratios simulate reports with an interval: for each, the sums over matches
# of x, y, x*x, y*y and x*y (x, y: the match's numerator and denominator), integers, so they add up
# like the counters and the interval is the same for any number of workers (mbrules.matches.intervals).
RATIOS = ("hands_per_game", "turns_per_hand", "trip_completed_share", "coups_fourres_per_hand",
          "points_per_hand")


def new_stats(sides: int) -> dict:
    """Integer counters; two of them add up with :func:`merge_stats` in any grouping."""
    return {
        "games": 0, "hands": 0, "turns": 0, "wins": [0] * sides, "draws": 0, "unfinished": 0,
        "trips_completed": 0, "coups_fourres": 0,
        "score": {line: [0] * sides for line in SCORE_LINES},
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
    for line in SCORE_LINES:
        into["score"][line] = [a + b for a, b in zip(into["score"][line], other["score"][line])]
    return into


def match_stats(game: Game, seed: int, bots: Sequence[str], stats: dict, records: bool = False,
                should_stop: Callable[[], object] | None = None) -> None:
    """Play one whole match and add it to ``stats`` (and its record, with ``records``)."""
    score = stats["score"]
    st = play_match(game, seed, bots, should_stop=should_stop)
    out = st.outcome
    points = 0
    for sheet in out.hand_sheets:
        for s, lines in enumerate(sheet.values()):
            points += lines["total"]
            for line in SCORE_LINES:
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


# -- many matches ----------------------------------------------------------------------------
_WORKER: dict = {}

MAX_GAMES = 10**9  # the bounds the CLI enforces (usage error beyond them)
MAX_WORKERS = 256
IN_FLIGHT_PER_WORKER = 3  # chunks handed to the pool ahead of the results: memory stays flat


def compile_game(ruleset_ref: str, options: Sequence[str], players: int) -> Game:
    from ..ruleset import load_ruleset

    return Game(load_ruleset(ruleset_ref, list(options)), players)


def _die_with_parent(parent: int) -> None:
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


def _init_worker(ruleset_ref: str, options: Sequence[str], players: int, bots: Sequence[str],
                 parent: int | None = None, records: bool = False) -> None:
    """Process-pool initializer: die with the parent, leave Ctrl-C to it, compile the rules once."""
    import signal as _signal

    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)  # the parent coordinates: it stops the workers
    if parent is not None:
        _die_with_parent(parent)
    _WORKER["game"] = compile_game(ruleset_ref, options, players)
    _WORKER["bots"] = list(bots)
    _WORKER["records"] = records


class _Stopped(Exception):
    """Raised inside an in-process chunk when the caller asks to stop: the chunk is dropped."""


def _play_games(game: Game, bots: Sequence[str], seed: int, start: int, stop: int,
                should_stop: Callable[[], object] | None = None, records: bool = False) -> dict:
    """Games ``start`` to ``stop - 1`` of a simulation seeded with ``seed``, as counters."""
    stats = new_stats(game.sides)
    for i in range(start, stop):  # play_match polls should_stop at every bot decision
        match_stats(game, game_seed(seed, i), bots, stats, records, should_stop)
    return stats


def _run_chunk(seed: int, start: int, stop: int) -> dict:
    """In a pool worker: :func:`_play_games` with the rules the initializer compiled."""
    return _play_games(_WORKER["game"], _WORKER["bots"], seed, start, stop, records=_WORKER["records"])


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: small enough that no worker idles long at the end (at most 25)."""
    return max(1, min(25, -(-games // (max(1, workers) * 32))))


def chunks(games: int, workers: int) -> Iterator[tuple[int, int]]:
    """Game ranges handed to workers, in seed order, made one at a time (never a list of them all)."""
    size = chunk_size(games, workers)
    for a in range(0, games, size):
        yield a, min(games, a + size)


def _kill_pool(pool) -> None:
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


def simulate(
    game: Game,
    ruleset_ref: str,
    options: Sequence[str],
    bots: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    should_stop: Callable[[], object] | None = None,
    records: bool = False,
    backend: str = "local",
    address: str | None = None,
    nodes: set | None = None,
) -> tuple[dict, float]:
    """Play ``games`` matches; return the summed counters and the wall-clock seconds.

    ``game`` is the compiled rules (used in-process when ``workers`` is 1); workers
    compile their own from ``ruleset_ref``/``options`` in the pool's initializer.
    ``progress(n)`` is called with the number of games counted so far.

    Work is fed lazily: at most a few chunks per worker are in flight, and results are merged
    in chunk (seed) order, so memory does not grow with ``games`` and the counters after any
    number of chunks are those of games ``0 .. n-1``. ``should_stop()`` is polled (at least every
    0.1 s, and between games in-process); once it returns true the workers are killed, chunks not
    finished are dropped, and the counters of the whole chunks finished before the first gap are
    returned: ``stats["games"] < games`` then says the run was stopped. With ``records``,
    ``stats["records"]`` holds one :func:`mbrules.matches.records.match_record` a match, in seed order.
    ``backend="ray"`` plays the same seed ranges as Ray tasks (:mod:`mbrules.matches.cluster`) on the cluster
    at ``address`` (None: a local instance with ``workers`` CPUs); ``nodes`` collects where they ran.
    """
    total = new_stats(game.sides)
    t0 = time.perf_counter()
    done = 0

    def add(a: int, b: int, part: dict) -> None:
        nonlocal done
        merge_stats(total, part)
        done += b - a
        if progress:
            progress(done)

    if backend == "ray":  # the same seed ranges as Ray tasks, merged in the same order (mbrules.matches.cluster)
        from .cluster import run_chunks

        run_chunks(game, bots, seed, chunks(games, workers), add, workers=workers, address=address,
                   should_stop=should_stop, records=records, nodes=nodes)
        return total, time.perf_counter() - t0
    if workers <= 1:
        try:
            for a, b in chunks(games, workers):
                add(a, b, _play_games(game, bots, seed, a, b, should_stop, records))
        except _Stopped:
            pass
        return total, time.perf_counter() - t0

    n_chunks = -(-games // chunk_size(games, workers))
    size = min(workers, n_chunks, 4 * (os.cpu_count() or 1))  # never a process per --workers
    pool = worker_pool(size, _init_worker, (ruleset_ref, list(options), game.players, list(bots), os.getpid(), records))
    run_ordered(pool, lambda ab: pool.submit(_run_chunk, seed, *ab), chunks(games, workers),
                lambda ab, part: add(ab[0], ab[1], part), size, should_stop)
    return total, time.perf_counter() - t0


def worker_pool(size: int, initializer, initargs: tuple) -> ProcessPoolExecutor:
    """A process pool of ``size`` workers (forked where the platform can), each set up by ``initializer``."""
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
    return ProcessPoolExecutor(max_workers=size, mp_context=ctx, initializer=initializer, initargs=initargs)


def run_ordered(pool: ProcessPoolExecutor, submit: Callable, todo: Iterator, consume: Callable, size: int,
                should_stop: Callable[[], object] | None = None) -> bool:
    """Run the items of ``todo`` on ``pool`` and hand each result to ``consume(item, result)`` in
    ``todo``'s order; the one executor of simulate, compare and ladder on the process pool.

    ``submit(item)`` returns the item's future. Work is fed lazily (``size * IN_FLIGHT_PER_WORKER``
    items ahead of the merge), so memory does not grow with the number of items. ``should_stop()``
    is polled at least every 0.1 s; once it returns true the results finished in a row after the
    last one consumed are consumed too, the pool is killed, and True is returned. An exception
    (an interrupt raised in the main thread, a worker's error) kills the pool and propagates; a
    run to the end shuts the pool down and returns False.
    """
    in_flight: collections.deque = collections.deque()  # (item, future), in todo's order
    stopped = False
    try:
        for item in itertools.islice(todo, size * IN_FLIGHT_PER_WORKER):
            in_flight.append((item, submit(item)))
        while in_flight:
            item, fut = in_flight[0]
            while not fut.done():
                if should_stop is not None and should_stop():
                    stopped = True
                    break
                wait([fut], timeout=0.1)
            if stopped:
                break
            try:
                result = fut.result()
            except BrokenProcessPool:
                if should_stop is not None and should_stop():  # a worker died of the same signal
                    stopped = True
                    break
                raise
            in_flight.popleft()
            consume(item, result)
            for nxt in itertools.islice(todo, 1):
                in_flight.append((nxt, submit(nxt)))
    finally:
        if stopped or in_flight:
            # keep the results already finished in a row after the last one consumed
            while stopped and in_flight and in_flight[0][1].done() and not in_flight[0][1].cancelled() \
                    and in_flight[0][1].exception() is None:
                item, fut = in_flight.popleft()
                consume(item, fut.result())
            _kill_pool(pool)
        else:
            pool.shutdown(wait=True)
    return stopped


def summary(game: Game, stats: dict, seconds: float) -> dict:
    """The report of :func:`simulate` (the ``--json`` document's figures)."""
    hands = stats["hands"] or 1
    names = game.side_names
    return {
        "games": stats["games"],
        "hands": stats["hands"],
        "turns": stats["turns"],
        "seconds": round(seconds, 3),
        "wins": {names[s]: stats["wins"][s] for s in range(game.sides)},
        "draws": stats["draws"],
        "unfinished": stats["unfinished"],
        "mean_hands_per_game": round(stats["hands"] / (stats["games"] or 1), 4),
        "mean_turns_per_hand": round(stats["turns"] / hands, 4),
        "trip_completed_share": round(stats["trips_completed"] / hands, 4),
        "mean_points_per_hand_and_side": round(stats["moments"]["points_per_hand"][0] / ((stats["hands"] * game.sides) or 1), 2),
        "coups_fourres_per_hand": round(stats["coups_fourres"] / hands, 4),
        "mean_score_per_line": {
            line: {names[s]: round(stats["score"][line][s] / hands, 2) for s in range(game.sides)}
            for line in SCORE_LINES
        },
        "ci95": intervals(game, stats),
        "hands_per_second": round(stats["hands"] / seconds, 1) if seconds > 0 else None,
        "turns_per_second": round(stats["turns"] / seconds, 1) if seconds > 0 else None,
    }


def intervals(game: Game, stats: dict) -> dict:
    """95% intervals of the report's figures (:mod:`mbrules.matches.intervals`): Wilson for each side's
    share of matches won, the draws and the unfinished; the delta method over matches (a match's
    hands are not independent) for the per-game and per-hand means."""
    from .intervals import normal_ci, ratio_se, wilson

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


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))
