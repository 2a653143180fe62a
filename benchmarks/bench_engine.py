"""Engine throughput: hands/s and turns/s for bots playing whole hands in one process.

Default: random bots, 4 players, winning-moves, 3000 hands after a 300-hand warm-up, best
of 3 runs. A turn is one card played or discarded. The loop is the one ``mbrules play`` and
``mbrules simulate`` use (:func:`mbrules.matches.play_match`), bots included.

    python benchmarks/bench_engine.py [--hands 3000] [--warmup 300] [--repeat 3]
                                      [--ruleset winning-moves] [--players 4] [--bot random]
                                      [--profile]
"""
from __future__ import annotations

import argparse
import platform
import sys
import time

from mbrules.engine import Game
from mbrules.ruleset import load_ruleset
from mbrules.matches import count_turns, game_seed, play_match


def run(game: Game, bots: list[str], hands: int, seed: int) -> tuple[int, int]:
    """Play whole matches (the last one cut short) until ``hands`` hands are played: (hands, turns)."""
    done = turns = 0
    i = 0
    while done < hands:
        st = play_match(game, game_seed(seed, i), bots, max_hands=hands - done)
        i += 1
        done += st.hands_played
        turns += count_turns(st.history)
    return done, turns


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--warmup", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ruleset", default="winning-moves")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bot", default="random")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one run instead")
    args = ap.parse_args(argv)

    print("command:", " ".join([sys.executable, *sys.argv]) if argv is None else " ".join(argv))
    print(f"python: {platform.python_implementation()} {platform.python_version()} ({platform.machine()})")
    game = Game(load_ruleset(args.ruleset), args.players)
    bots = [args.bot]
    run(game, bots, args.warmup, args.seed + 1)
    if args.profile:
        import cProfile
        import pstats

        prof = cProfile.Profile()
        prof.runcall(run, game, bots, args.hands, args.seed)
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return
    best = None
    for r in range(args.repeat):
        t0 = time.perf_counter()
        c0 = time.process_time()
        hands, turns = run(game, bots, args.hands, args.seed)
        dt = time.perf_counter() - t0
        cpu = time.process_time() - c0
        print(f"run {r + 1}: {hands} hands, {turns} turns in {dt:.3f} s (cpu {cpu:.3f} s): "
              f"{hands / dt:,.0f} hands/s, {turns / dt:,.0f} turns/s")
        if best is None or dt < best[0]:
            best = (dt, hands, turns)
    dt, hands, turns = best
    print(f"best: {hands / dt:,.0f} hands/s, {turns / dt:,.0f} turns/s "
          f"({args.bot} bots, {args.players} players, {args.ruleset}, one process)")


if __name__ == "__main__":
    main()
