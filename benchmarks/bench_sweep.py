"""What ``mbrules sweep`` costs and finds: CPU time of the whole command, the trend test, peak memory.

    .venv/bin/python benchmarks/bench_sweep.py cpu [--games 200] [--repeat 3]
    .venv/bin/python benchmarks/bench_sweep.py memory [--small 100] [--large 1000]

``cpu`` runs ``sweep winning-moves -p 2 --set player_counts.2.target=500..900:200 --games G`` (3 values,
heuristic bots, one worker) ``--repeat`` times and prints the CPU seconds (user + system, the command and
its workers) of each run with their mean and range, and the trend of turns per hand the run found
(slope per +200 miles with its 95% interval). ``memory`` prints the peak RSS at two numbers of games.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_compare import run_measured  # noqa: E402

TRIP = ["sweep", "winning-moves", "-p", "2", "--set", "player_counts.2.target=500..900:200", "--workers", "1", "--json"]


def cpu(games: int, repeat: int) -> None:
    print(f"CPU on this machine ({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}); one worker")
    args = TRIP + ["--games", str(games)]
    cpus = []
    for _ in range(repeat):
        c, wall, _, doc = run_measured(args)
        cpus.append(c)
        t = {r["metric"]: r for r in doc["trend"]}["turns_per_hand"]
        tph = [p["metrics"]["turns_per_hand"]["value"] for p in doc["points"]]
        print(
            f"mbrules {' '.join(a for a in args if a != '--json')}: {c:.1f} s CPU, {wall:.1f} s wall; turns per hand "
            + " / ".join(f"{v:.1f}" for v in tph)
            + f"; slope {200 * t['slope']:+.2f} per +200 (95% CI {200 * t['ci95'][0]:+.2f} to "
            f"{200 * t['ci95'][1]:+.2f}), p (Holm) " + ("< 1e-4" if t["p_holm"] < 1e-4 else f"{t['p_holm']:.2g}")
        )
    print(
        f"{repeat} runs x 3 values x {games} matches: CPU mean {statistics.mean(cpus):.1f} s, "
        f"min {min(cpus):.1f} s, max {max(cpus):.1f} s"
    )


def memory(small: int, large: int) -> None:
    peaks = {}
    for games in (small, large):
        c, _, rss, doc = run_measured(TRIP + ["--games", str(games), "--bot", "random"])
        peaks[games] = rss
        print(
            f"--games {games} (random bots): peak RSS {rss / 1024:.1f} MB ({c:.1f} s CPU, "
            f"{doc['matches_per_value']} matches a value)"
        )
    print(f"ratio {large}/{small} games = {peaks[large] / peaks[small]:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cpu")
    c.add_argument("--games", type=int, default=200)
    c.add_argument("--repeat", type=int, default=3)
    m = sub.add_parser("memory")
    m.add_argument("--small", type=int, default=100)
    m.add_argument("--large", type=int, default=1000)
    a = ap.parse_args()
    if a.what == "cpu":
        cpu(a.games, a.repeat)
    else:
        memory(a.small, a.large)


if __name__ == "__main__":
    main()
