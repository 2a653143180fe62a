"""Headless matches between bots: the driver loop, match statistics, and many matches in parallel.

Determinism: a match is dealt from its seed with the match's own RNG, and every bot
has its own stream seeded from the match seed and its player; nothing reads the global
``random``. ``simulate`` seeds game ``i`` from ``(seed, i)`` alone and adds up integer
counts, so its figures are the same for any number of workers and any chunking.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Callable, Sequence

from .bots import make_bots
from .engine import Game, Observer, State
from .engine.game import SCORE_LINES
from .engine.notation import COUP_FOURRE, DISCARD, PLAY


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
    keep_deals: bool = False,
    observers: Sequence[Observer] = (),
) -> State:
    """Play a match (or its first ``max_hands`` hands) between bots; return the final state.

    ``bots`` holds one bot name for every player or one per player in seating order. Each
    bot sees its seat's observation only. A decision with a single legal action (the draw,
    mostly) is applied without asking the bot, so bots are asked only real questions.
    ``observers`` (narrator, recorder, checker) watch through the state's hooks.
    """
    players = make_bots(bots, game, seed)
    choosers = [b.choose for b in players]
    observes = [getattr(b, "observes", True) for b in players]
    st = State.new_match(game, seed, keep_deals, deal_next=False)
    for o in observers:
        st.add_observer(o)
    legal = st.legal_actions
    apply = st.apply
    hands = 0
    while True:
        while True:
            acts = legal()
            if not acts:
                break  # the hand is over
            if len(acts) == 1:
                a = acts[0]
            else:
                p = st.current_player
                a = choosers[p](st.observation(p) if observes[p] else None, acts)
            apply(a)
        hands += 1
        if st.is_terminal() or (max_hands is not None and hands >= max_hands):
            return st
        st.next_hand()


def count_turns(history) -> int:
    """Turns in a history: cards played or discarded (draws, answers and new-hand marks are not turns)."""
    return sum(1 for p, a in history if p >= 0 and a.op in (PLAY, DISCARD))


# -- statistics ------------------------------------------------------------------------
def new_stats(sides: int) -> dict:
    """Integer counters; two of them add up with :func:`merge_stats` in any grouping."""
    return {
        "games": 0, "hands": 0, "turns": 0, "wins": [0] * sides, "draws": 0, "unfinished": 0,
        "trips_completed": 0, "coups_fourres": 0,
        "score": {line: [0] * sides for line in SCORE_LINES},
    }


def merge_stats(into: dict, other: dict) -> dict:
    for k in ("games", "hands", "turns", "draws", "unfinished", "trips_completed", "coups_fourres"):
        into[k] += other[k]
    into["wins"] = [a + b for a, b in zip(into["wins"], other["wins"])]
    for line in SCORE_LINES:
        into["score"][line] = [a + b for a, b in zip(into["score"][line], other["score"][line])]
    return into


def match_stats(game: Game, seed: int, bots: Sequence[str], stats: dict) -> None:
    """Play one whole match and add it to ``stats``."""
    score = stats["score"]
    st = play_match(game, seed, bots)
    out = st.outcome
    for sheet in out.hand_sheets:
        for s, lines in enumerate(sheet.values()):
            for line in SCORE_LINES:
                score[line][s] += lines[line]
    stats["turns"] += count_turns(st.history)
    stats["games"] += 1
    stats["hands"] += len(out.hand_sheets)
    stats["trips_completed"] += sum(1 for side in out.completed if side is not None)
    stats["coups_fourres"] += sum(1 for p, a in st.history if p >= 0 and a.op == COUP_FOURRE)
    if out.draw:
        stats["draws"] += 1
    elif out.unfinished:
        stats["unfinished"] += 1
    else:
        stats["wins"][out.winner_index] += 1


# -- many matches ----------------------------------------------------------------------------
_WORKER: dict = {}


def compile_game(ruleset_ref: str, options: Sequence[str], players: int) -> Game:
    from .ruleset import load_ruleset

    return Game(load_ruleset(ruleset_ref, list(options)), players)


def _init_worker(ruleset_ref: str, options: Sequence[str], players: int, bots: Sequence[str]) -> None:
    """Process-pool initializer: compile the rules once per worker."""
    _WORKER["game"] = compile_game(ruleset_ref, options, players)
    _WORKER["bots"] = list(bots)


def _play_games(game: Game, bots: Sequence[str], seed: int, start: int, stop: int) -> dict:
    """Games ``start`` to ``stop - 1`` of a simulation seeded with ``seed``, as counters."""
    stats = new_stats(game.sides)
    for i in range(start, stop):
        match_stats(game, game_seed(seed, i), bots, stats)
    return stats


def _run_chunk(seed: int, start: int, stop: int) -> dict:
    """In a pool worker: :func:`_play_games` with the rules the initializer compiled."""
    return _play_games(_WORKER["game"], _WORKER["bots"], seed, start, stop)


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Game ranges handed to workers: small enough that no worker idles long at the end."""
    size = max(1, min(25, -(-games // (workers * 32))))
    return [(a, min(games, a + size)) for a in range(0, games, size)]


def simulate(
    game: Game,
    ruleset_ref: str,
    options: Sequence[str],
    bots: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> tuple[dict, float]:
    """Play ``games`` matches; return the summed counters and the wall-clock seconds.

    ``game`` is the compiled rules (used in-process when ``workers`` is 1); workers
    compile their own from ``ruleset_ref``/``options`` in the pool's initializer.
    ``progress(n)`` is called with the number of games finished so far.
    """
    total = new_stats(game.sides)
    parts = chunks(games, workers)
    t0 = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if workers <= 1:
            results = (_play_games(game, bots, seed, a, b) for a, b in parts)
        else:
            pool = stack.enter_context(ProcessPoolExecutor(
                max_workers=min(workers, len(parts), 4 * (os.cpu_count() or 1)),  # never a process per --workers
                initializer=_init_worker, initargs=(ruleset_ref, list(options), game.players, list(bots))
            ))
            futures = [pool.submit(_run_chunk, seed, a, b) for a, b in parts]
            results = (fut.result() for fut in futures)
        done = 0
        for (a, b), part in zip(parts, results):  # merged in chunk order: same sums for any worker count
            merge_stats(total, part)
            done += b - a
            if progress:
                progress(done)
    return total, time.perf_counter() - t0


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
        "coups_fourres_per_hand": round(stats["coups_fourres"] / hands, 4),
        "mean_score_per_line": {
            line: {names[s]: round(stats["score"][line][s] / hands, 2) for s in range(game.sides)}
            for line in SCORE_LINES
        },
        "hands_per_second": round(stats["hands"] / seconds, 1) if seconds > 0 else None,
        "turns_per_second": round(stats["turns"] / seconds, 1) if seconds > 0 else None,
    }


def default_workers() -> int:
    return max(1, min(os.cpu_count() or 1, 8))
