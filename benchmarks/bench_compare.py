"""How long ``mbrules compare`` takes: N paired matches per arm with heuristic bots, wall-clock and CPU.

    .venv/bin/python benchmarks/bench_compare.py [--games 2000] [--workers 2] [--skill-games 0]

Prints the wall-clock seconds of the matches (both arms; the skill matches when asked), of the
metrics (intervals, Holm), and the CPU seconds of this process and its workers. The baseline in the
same run is ``simulate`` of arm A alone, without records: the cost of the records is the difference.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from mbrules.compare.metrics import evaluate  # noqa: E402
from mbrules.compare.run import make_arm, run_arm  # noqa: E402
from mbrules.matches import simulate  # noqa: E402


def cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--skill-games", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--option-b", default="hazard-on-hazard")
    args = ap.parse_args()
    arms = [make_arm("A", "winning-moves", [], args.players),
            make_arm("B", "winning-moves", [args.option_b], args.players)]

    c0, t0 = cpu(), time.perf_counter()
    simulate(arms[0].game, ["heuristic"], args.games, 0, workers=args.workers)
    base_wall, base_cpu = time.perf_counter() - t0, cpu() - c0

    c0, t0 = cpu(), time.perf_counter()
    for arm in arms:
        run_arm(arm, args.players, ["heuristic"], args.games, args.skill_games, "heuristic", "random", 0, args.workers)
    play_wall, play_cpu = time.perf_counter() - t0, cpu() - c0
    t1 = time.perf_counter()
    rows = evaluate(arms[0].records, arms[1].records, arms[0].skill_records or None, arms[1].skill_records or None)
    metrics_wall = time.perf_counter() - t1
    n = 2 * (args.games + args.skill_games)
    print(f"baseline: simulate arm A alone, {args.games} matches, no records: {base_wall:.1f} s wall, {base_cpu:.1f} s CPU")
    print(f"compare: {args.games} paired matches per arm + {args.skill_games} skill matches per arm "
          f"({n} matches, {args.players} players, heuristic bots, {args.workers} workers): "
          f"{play_wall:.1f} s wall, {play_cpu:.1f} s CPU ({n / play_wall:.0f} matches/s)")
    print(f"metrics ({len(rows)} metrics, intervals and Holm): {metrics_wall:.2f} s; "
          f"flagged: {', '.join(r['key'] for r in rows if r['flagged']) or 'none'}")
    print(f"total: {play_wall + metrics_wall:.1f} s wall; load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
