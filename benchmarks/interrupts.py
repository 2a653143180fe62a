"""Interrupts and memory of ``mbrules simulate`` (issue 9), measured on real processes through /proc.

    python benchmarks/interrupts.py            # Linux: every figure, best (fastest) of --runs runs

For each way of stopping ``simulate --games 1000000 --workers 2`` (SIGINT to the process group,
SIGINT to the parent only, SIGTERM to the parent, SIGTERM to the group, SIGKILL to the parent): the
seconds from the signal until both worker processes are gone, the exit code, and the games counted.
Then the parent's resident memory (VmRSS) under ``--games 1000000000`` after 1 s and after 5 s of
play, and the time ``--games 99999999999999999999`` takes to be refused.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from procs import alive, children, rss_kb  # noqa: E402  (the /proc readers the tests use: one place)

MBRULES = str(Path(sys.executable).with_name("mbrules"))
SIM = [MBRULES, "simulate", "--games", "1000000", "--workers", "2", "--bot", "random", "--players", "2", "--json"]


def start(args):
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)


def workers_of(p, n=2, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        kids = children(p.pid)
        if len(kids) >= n:
            return kids
        time.sleep(0.02)
    raise SystemExit("the workers did not start")


def stop_once(how: str) -> dict:
    p = start(SIM)
    kids = workers_of(p)
    time.sleep(1.0)
    t0 = time.monotonic()
    {
        "SIGINT to the group": lambda: os.killpg(p.pid, signal.SIGINT),
        "SIGINT to the parent": lambda: os.kill(p.pid, signal.SIGINT),
        "SIGTERM to the parent": lambda: os.kill(p.pid, signal.SIGTERM),
        "SIGTERM to the group": lambda: os.killpg(p.pid, signal.SIGTERM),
        "SIGKILL to the parent": lambda: os.kill(p.pid, signal.SIGKILL),
    }[how]()
    while any(alive(k) for k in kids) and time.monotonic() - t0 < 30:
        time.sleep(0.002)
    gone = time.monotonic() - t0
    out, err = p.communicate(timeout=30)
    m = re.search(r"interrupted after (\d+) of", err)
    return {
        "how": how,
        "workers_gone_s": round(gone, 3),
        "exit": p.returncode,
        "games_counted": int(m.group(1)) if m else None,
        "json_interrupted": json.loads(out)["interrupted"] if out.strip() else None,
    }


def memory() -> dict:
    p = start([MBRULES, "simulate", "--games", "1000000000", "--workers", "2", "--bot", "random", "--json"])
    workers_of(p)
    time.sleep(1.0)
    first = rss_kb(p.pid)
    time.sleep(4.0)
    last = rss_kb(p.pid)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=30)
    t0 = time.monotonic()
    r = subprocess.run([MBRULES, "simulate", "--games", "99999999999999999999"], capture_output=True, text=True)
    return {
        "rss_kb_after_1s": first,
        "rss_kb_after_5s": last,
        "games_played": json.loads(out)["games"],
        "huge_games_exit": r.returncode,
        "huge_games_refused_in_s": round(time.monotonic() - t0, 3),
        "huge_games_message": r.stderr.strip(),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    if not sys.platform.startswith("linux"):
        print("needs Linux /proc")
        return 2
    for how in (
        "SIGINT to the group",
        "SIGINT to the parent",
        "SIGTERM to the parent",
        "SIGTERM to the group",
        "SIGKILL to the parent",
    ):
        runs = [stop_once(how) for _ in range(a.runs)]
        best = min(runs, key=lambda r: r["workers_gone_s"])
        worst = max(r["workers_gone_s"] for r in runs)
        print(
            f"{how}: workers gone in {best['workers_gone_s']} s (worst of {a.runs}: {worst} s), "
            f"exit {best['exit']}, {best['games_counted']} games counted, JSON interrupted: {best['json_interrupted']}"
        )
    m = memory()
    print(
        f"--games 1000000000 --workers 2: parent VmRSS {m['rss_kb_after_1s']} kB after 1 s, "
        f"{m['rss_kb_after_5s']} kB after 5 s ({m['games_played']} games played)"
    )
    print(
        f"--games 99999999999999999999: exit {m['huge_games_exit']} in {m['huge_games_refused_in_s']} s: "
        f"{m['huge_games_message']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
