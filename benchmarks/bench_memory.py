"""Peak memory (RSS) of the commands that play many games, at two sizes: does it grow with the games?

Each run is a fresh ``mbrules`` process (random bots, 2 players, one worker, so every game is played in
that process); its peak resident set size (``ru_maxrss``) and CPU time (user + system) are read from
``wait4`` when it ends. The goal (issue 22): the peak RSS at the large size within 1.3x that at the small
size, for ``simulate --out FILE.jsonl`` and for ``compare --out DIR`` (no ladder, no restricted play, no
other lineups, no charts: the paired matches and their records only).
Peak RSS of one process is close to deterministic here (same seeds, same games); ``--runs`` repeats each
run and prints the lowest and highest peak of the repeats.

    .venv/bin/python benchmarks/bench_memory.py [--small 300] [--large 3000] [--runs 1] [--only simulate|compare]
                                                [--mbrules PATH]   (another build's command, to compare with)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = Path(sys.executable).parent
MBRULES = str(BIN / "mbrules")
GOAL = 1.3
_COMMAND = [MBRULES]


def commands(games: int, folder: Path) -> dict[str, list[str]]:
    MBRULES = _COMMAND[0]
    return {
        "simulate": [
            MBRULES,
            "simulate",
            "--players",
            "2",
            "--bot",
            "random",
            "--workers",
            "1",
            "--games",
            str(games),
            "--seed",
            "1",
            "--json",
            "--out",
            str(folder / f"records-{games}.jsonl"),
        ],
        "compare": [
            MBRULES,
            "compare",
            "winning-moves",
            "--option-b",
            "hazard-on-hazard",
            "--players",
            "2",
            "--bot",
            "random",
            "--bots",
            "none",
            "--workers",
            "1",
            "--games",
            str(games),
            "--skill-games",
            "0",
            "--seed",
            "1",
            "--json",
            "--no-charts",
            "--out",
            str(folder / f"report-{games}"),
        ],
    }


def measure(cmd: list[str], cwd: Path) -> tuple[int, float, int]:
    """(peak RSS in KiB, CPU seconds, exit code) of one run of ``cmd`` in ``cwd``."""
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {p.returncode}: {err[-500:]}")
    return usage.ru_maxrss, usage.ru_utime + usage.ru_stime, p.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=300)
    ap.add_argument("--large", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=1, help="repeats of each run (the lowest and highest peak shown)")
    ap.add_argument("--only", choices=("simulate", "compare"), default=None)
    ap.add_argument("--mbrules", default=MBRULES, help="the mbrules command to measure (default: this venv's)")
    args = ap.parse_args()
    _COMMAND[0] = args.mbrules
    names = [args.only] if args.only else ["simulate", "compare"]
    print(
        f"peak RSS of one mbrules process (KiB, ru_maxrss), random bots, 2 players, 1 worker; "
        f"{args.runs} run(s) each; goal: {args.large} games within {GOAL}x of {args.small}"
    )
    failed = False
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        folder = Path(tmp)
        for name in names:
            peaks: dict[int, list[int]] = {}
            for games in (args.small, args.large):
                runs = []
                for _ in range(args.runs):
                    rss, cpu, _ = measure(commands(games, folder)[name], folder)
                    runs.append(rss)
                    print(f"  {name:8} --games {games:>6}: peak RSS {rss:>8,} KiB   CPU {cpu:6.1f} s")
                peaks[games] = runs
            lo_small, hi_small = min(peaks[args.small]), max(peaks[args.small])
            lo_large, hi_large = min(peaks[args.large]), max(peaks[args.large])
            ratio = min(peaks[args.large]) / max(1, min(peaks[args.small]))
            ok = ratio <= GOAL
            failed |= not ok
            spread = f" (runs: {lo_small:,}..{hi_small:,} and {lo_large:,}..{hi_large:,} KiB)" if args.runs > 1 else ""
            print(
                f"{name}: peak RSS {args.large} / {args.small} games = {ratio:.2f}x "
                f"({'meets' if ok else 'MISSES'} the goal of {GOAL}x){spread}"
            )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
