"""Start-up time of the ruleset commands against the bare import of the libraries they use.

Each command is run as a fresh process (the installed ``mbrules`` console script, as a user runs
it), best of ``--runs`` wall times; the baseline is a process that only imports the libraries those
commands need (typer, yaml, pydantic, jsonschema), measured in the same run. The issue's goal:
``mbrules rulesets``, ``validate`` and ``show`` within 1.5x of that baseline.

    .venv/bin/python benchmarks/bench_startup.py [--runs 15]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
MBRULES = str(BIN / "mbrules")

BASELINES = {
    "bare import (typer, yaml)": [sys.executable, "-c", "import typer, yaml"],
    "bare import (typer, yaml, pydantic, jsonschema)": [sys.executable, "-c", "import typer, yaml, pydantic, jsonschema"],
}
COMMANDS = {
    "mbrules rulesets": ([MBRULES, "rulesets"], "bare import (typer, yaml)"),
    "mbrules validate winning-moves.yaml": ([MBRULES, "validate", "rulesets/winning-moves.yaml"],
                                            "bare import (typer, yaml, pydantic, jsonschema)"),
    "mbrules validate examples/stap-op.yaml": ([MBRULES, "validate", "examples/stap-op.yaml"],
                                               "bare import (typer, yaml, pydantic, jsonschema)"),
    "mbrules show winning-moves": ([MBRULES, "show", "winning-moves"],
                                   "bare import (typer, yaml, pydantic, jsonschema)"),
}


def best_of(cmd: list[str], runs: int) -> float:
    best = float("inf")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="0")
    for _ in range(runs):
        t = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        elapsed = time.perf_counter() - t
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[:500]}")
        best = min(best, elapsed)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="runs of each command; the best is kept")
    args = ap.parse_args()
    base = {name: best_of(cmd, args.runs) for name, cmd in BASELINES.items()}
    for name, t in base.items():
        print(f"{name:<50} {t * 1000:7.1f} ms (best of {args.runs})")
    worst = 0.0
    for name, (cmd, against) in COMMANDS.items():
        t = best_of(cmd, args.runs)
        ratio = t / base[against]
        worst = max(worst, ratio)
        print(f"{name:<50} {t * 1000:7.1f} ms = {ratio:.2f}x {against}")
    print(f"worst ratio {worst:.2f}x (goal: at most 1.5x)")


if __name__ == "__main__":
    main()
