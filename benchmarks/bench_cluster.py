"""Ray backend figures: task overhead, and simulate's speed on the process pool vs Ray (1 and 2 workers).

    python benchmarks/bench_cluster.py [--games 400] [--bot random] [--players 4]

Prints, for the same games and seed: seconds and games/s for ``--backend local`` with 1 and 2
workers and ``--backend ray`` with 1 and 2 CPUs (a local instance started for each run, whose
start-up is timed apart), checks that every figure but the timings is identical, and the
overhead of an empty Ray task (tasks/s).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from mbrules import load_game
from mbrules.matches import simulate, summary

TIMINGS = ("seconds", "hands_per_second", "turns_per_second")


def run(game, args, workers: int, backend: str) -> tuple[dict, float]:
    t0 = time.perf_counter()
    stats, _ = simulate(game, [args.bot], args.games, args.seed, workers=workers, backend=backend)
    return summary(game, stats, 1.0), time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--bot", default="random")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--ruleset", default="winning-moves")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tasks", type=int, default=2000)
    args = ap.parse_args(argv)
    import ray

    print("command:", " ".join([sys.executable, *sys.argv]) if argv is None else " ".join(argv))
    print(f"python: {platform.python_version()}; ray {ray.__version__}")
    game = load_game(args.ruleset, args.players)
    reference = None
    for backend, workers in (("local", 1), ("local", 2), ("ray", 1), ("ray", 2)):
        if backend == "ray":
            t0 = time.perf_counter()
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
            start = time.perf_counter() - t0
        doc, secs = run(game, args, workers, backend)
        figures = {k: v for k, v in doc.items() if k not in TIMINGS}
        reference = reference or figures
        same = "identical figures" if figures == reference else "FIGURES DIFFER"
        extra = f" (+{start:.1f} s to start the instance)" if backend == "ray" else ""
        print(f"{backend:5} {workers} worker(s): {secs:7.2f} s, {args.games / secs:7.1f} games/s; {same}{extra}")
        if backend == "ray":
            if workers == 2:

                @ray.remote
                def empty(i):
                    return i

                ray.get([empty.remote(i) for i in range(100)])  # warm the workers
                t0 = time.perf_counter()
                ray.get([empty.remote(i) for i in range(args.tasks)])
                dt = time.perf_counter() - t0
                print(
                    f"empty Ray tasks: {args.tasks} in {dt:.2f} s, {args.tasks / dt:,.0f} tasks/s "
                    f"({1000 * dt / args.tasks:.2f} ms a task on 2 CPUs)"
                )
            ray.shutdown()


if __name__ == "__main__":
    main()
