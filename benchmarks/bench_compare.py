"""What ``mbrules compare`` costs: CPU time of whole commands, and peak memory against the number of games.

    .venv/bin/python benchmarks/bench_compare.py cpu [--games 100] [--games 1000] [--players 4]
    .venv/bin/python benchmarks/bench_compare.py memory [--small 300] [--large 3000]

``cpu`` runs the default ``compare winning-moves --option-b hazard-on-hazard -p 4 --games G`` (main
matches, skill ladder, restricted play, the robustness check of the flagged effects) on one worker and
prints the CPU seconds (user + system) of the command and of the processes it started, with the
seconds of each phase from ``--json``. ``memory`` runs ``compare --games S`` and ``--games L`` (random
bots, 2 players, one worker, no ladder, no other lineup), with and without ``--out``, and prints each
one's peak resident set size and the ratio L/S.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

MBRULES = str(Path(sys.executable).with_name("mbrules"))


def run_measured(args: list[str]) -> tuple[float, float, int, dict | None]:
    """Run one command in a fresh child and read its rusage (CPU of it and its reaped workers; peak RSS)."""
    t0 = time.perf_counter()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.execv(MBRULES, [MBRULES, *args])
    os.close(w)
    chunks = []
    with os.fdopen(r, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            chunks.append(block)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"mbrules {' '.join(args)} exited {code}")
    out = b"".join(chunks).decode()
    doc = json.loads(out) if "--json" in args else None
    return ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss, doc


def cpu(games_list: list[int], players: int) -> None:
    print(f"CPU on this machine ({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}); one worker")
    for games in games_list:
        args = [
            "compare",
            "winning-moves",
            "--option-b",
            "hazard-on-hazard",
            "-p",
            str(players),
            "--games",
            str(games),
            "--workers",
            "1",
            "--json",
        ]
        c, wall, _, doc = run_measured(args)
        phases = ", ".join(f"{k} {v:.1f}" for k, v in doc["seconds"].items() if k not in ("total", "cpu"))
        print(
            f"mbrules {' '.join(args[:-1])}: {c:.1f} s CPU, {wall:.1f} s wall; "
            f"flagged {len(doc['flagged'])}; phases (wall s): {phases}"
        )


def memory(small: int, large: int) -> None:
    print("peak RSS (ru_maxrss of the command; random bots, 2 players, one worker, no ladder, no other lineup)")
    base = [
        "compare",
        "winning-moves",
        "--option-b",
        "hazard-on-hazard",
        "-p",
        "2",
        "--bot",
        "random",
        "--skill-games",
        "0",
        "--bots",
        "none",
        "--workers",
        "1",
        "--json",
    ]
    for label, extra in (("no --out", []), ("--out DIR --no-charts", ["--out", None, "--no-charts"])):
        peaks = {}
        for games in (small, large):
            with tempfile.TemporaryDirectory() as tmp:
                args = base + ["--games", str(games)] + [x if x is not None else str(Path(tmp) / "r") for x in extra]
                c, wall, rss, doc = run_measured(args)
                peaks[games] = rss
                print(f"  {label}, --games {games}: peak RSS {rss / 1024:.1f} MB ({c:.1f} s CPU, {doc['pairs']} pairs)")
        print(f"  {label}: ratio {large}/{small} games = {peaks[large] / peaks[small]:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("cpu")
    c.add_argument("--games", type=int, action="append")
    c.add_argument("--players", type=int, default=4)
    m = sub.add_parser("memory")
    m.add_argument("--small", type=int, default=300)
    m.add_argument("--large", type=int, default=3000)
    a = ap.parse_args()
    if a.what == "cpu":
        cpu(a.games or [100, 1000], a.players)
    else:
        memory(a.small, a.large)


if __name__ == "__main__":
    main()
