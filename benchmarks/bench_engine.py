"""Engine throughput: hands/s and turns/s for bots playing whole hands in one process.

Default: random bots, 4 players, winning-moves, 3000 hands after a 300-hand warm-up, best
of 3 runs. A turn is one card played or discarded. The loop is the one ``mbrules play`` and
``mbrules simulate`` use (:func:`mbrules.matches.play_match`), bots included.

    python benchmarks/bench_engine.py [--hands 3000] [--warmup 300] [--repeat 3]
                                      [--ruleset winning-moves] [--players 4] [--bot random]
                                      [--profile] [--against DIR] [--specialised]

``--against DIR`` compares two versions of the engine in CPU time: each run is a fresh
process (this tree, then the tree at DIR, e.g. ``git archive main | tar -x -C DIR``),
interleaved run by run so that other jobs on the machine weigh on both alike; it prints
the best hands per CPU-second of each and their ratio. ``--specialised`` adds a
hand-written loop for the same rules (``specialised_loop.py``) to the interleave and
prints the specialised-loop ratio: the engine's hands per CPU-second divided by that
loop's (issue 35: Speed).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

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
    ap.add_argument("--against", metavar="DIR", help="also time the engine of the tree at DIR, interleaved")
    ap.add_argument("--specialised", action="store_true", help="also time the hand-written loop, interleaved")
    ap.add_argument("--child", choices=("engine", "specialised"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args)
    if args.against or args.specialised:
        return interleaved(args)

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
        print(
            f"run {r + 1}: {hands} hands, {turns} turns in {dt:.3f} s (cpu {cpu:.3f} s): "
            f"{hands / dt:,.0f} hands/s, {turns / dt:,.0f} turns/s"
        )
        if best is None or dt < best[0]:
            best = (dt, hands, turns)
    dt, hands, turns = best
    print(
        f"best: {hands / dt:,.0f} hands/s, {turns / dt:,.0f} turns/s "
        f"({args.bot} bots, {args.players} players, {args.ruleset}, one process)"
    )


def child(args) -> None:
    """One timed run in this process, printed as JSON (the interleaved comparison's worker)."""
    game = Game(load_ruleset(args.ruleset), args.players)
    if args.child == "specialised":
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from specialised_loop import play_hands

        play_hands(game, args.warmup, args.seed + 1)
        c0 = time.process_time()
        hands, turns = play_hands(game, args.hands, args.seed)
    else:
        run(game, [args.bot], args.warmup, args.seed + 1)
        c0 = time.process_time()
        hands, turns = run(game, [args.bot], args.hands, args.seed)
    print(json.dumps({"hands": hands, "turns": turns, "cpu": time.process_time() - c0}))


def interleaved(args) -> None:
    """This tree's engine, DIR's engine and the hand-written loop, one fresh process each per round."""
    here = str(Path(__file__).resolve().parents[1])
    variants = [("this tree", here, "engine")]
    if args.against:
        variants.append((f"{args.against}", str(Path(args.against).resolve()), "engine"))
    if args.specialised:
        variants.append(("hand-written loop", here, "specialised"))
    common = [
        "--hands",
        str(args.hands),
        "--warmup",
        str(args.warmup),
        "--ruleset",
        args.ruleset,
        "--players",
        str(args.players),
        "--bot",
        args.bot,
        "--seed",
        str(args.seed),
    ]
    best: dict[str, tuple[float, int, int]] = {}
    for r in range(args.repeat):
        for name, root, what in variants:
            env = dict(os.environ, PYTHONPATH=root)
            out = subprocess.run(
                [sys.executable, str(Path(__file__).resolve()), "--child", what, *common],
                env=env,
                cwd=root,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            m = json.loads(out.splitlines()[-1])
            rate = m["hands"] / m["cpu"]
            print(
                f"round {r + 1} {name:<22} {m['hands']} hands, {m['turns'] / m['hands']:.1f} turns a hand, "
                f"cpu {m['cpu']:.3f} s: {rate:,.0f} hands per CPU-second"
            )
            if name not in best or rate > best[name][0]:
                best[name] = (rate, m["hands"], m["turns"])
    mine = best["this tree"][0]
    print(f"best of {args.repeat} ({args.bot} bots, {args.players} players, {args.ruleset}):")
    for name, (rate, _, _) in best.items():
        print(f"  {name:<22} {rate:,.0f} hands per CPU-second")
    if args.against:
        print(f"  this tree / {args.against}: {mine / best[args.against][0]:.3f}")
    if args.specialised:
        print(f"  specialised-loop ratio (this tree / hand-written loop): {mine / best['hand-written loop'][0]:.2f}")
        if args.against:
            print(
                f"  specialised-loop ratio ({args.against} / hand-written loop): "
                f"{best[args.against][0] / best['hand-written loop'][0]:.2f}"
            )


if __name__ == "__main__":
    main()
