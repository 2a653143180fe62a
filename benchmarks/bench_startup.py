"""Start-up time of the ruleset commands against the bare import of the libraries they use.

Each command is run as a fresh process (the installed ``mbrules`` console script, as a user runs
it), and timed in CPU time (user + system of the child, read from ``getrusage``: other jobs on a
shared machine do not count in it), best of ``--runs``; the baseline is a process that only imports
the libraries those commands need (typer, yaml, pydantic, jsonschema), measured in the same run,
the runs of every process interleaved. The issue's goal: ``mbrules rulesets``, ``validate`` and
``show`` within 1.5x of that baseline, and ``mbrules --version`` within 1.3x of ``import mbrules, typer``.

    .venv/bin/python benchmarks/bench_startup.py [--runs 15]
    .venv/bin/python benchmarks/bench_startup.py --instructions   # valgrind: one run each, minutes

``--instructions`` counts each process's instructions under callgrind instead (the load of a shared
machine moves CPU times by 10% between runs; the counts move by well under 1%); printed in the same
form, in millions for milliseconds.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
MBRULES = str(BIN / "mbrules")

# A Typer app with two commands, run: what Typer itself costs a command beyond its import (it builds
# a pydantic adapter for each parameter when the app runs, so pydantic is loaded by every command).
TYPER_APP = (
    "import typer, yaml\napp = typer.Typer()\n@app.command()\ndef one(name: str = 'x') -> None:\n"
    "    print(name)\n@app.command()\ndef two() -> None:\n    pass\napp(['one'])"
)
BASELINES = {
    "bare import (typer, yaml)": [sys.executable, "-c", "import typer, yaml"],
    "bare import (typer, yaml, pydantic, jsonschema)": [
        sys.executable,
        "-c",
        "import typer, yaml, pydantic, jsonschema",
    ],
    # ``import pydantic`` loads its models' machinery only when a name such as BaseModel is first asked
    # for: this is what any pydantic model costs before its first class (shown, not a goal).
    "bare import (typer, yaml, BaseModel, jsonschema)": [
        sys.executable,
        "-c",
        "import typer, yaml, jsonschema\nfrom pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator",
    ],
    "a two-command Typer app, run (typer, yaml)": [sys.executable, "-c", TYPER_APP],
    "bare import (mbrules, typer)": [sys.executable, "-c", "import mbrules, typer"],
}
GOALS = {"bare import (mbrules, typer)": 1.3}  # every other baseline: 1.5
COMMANDS = {
    "mbrules --version": ([MBRULES, "--version"], "bare import (mbrules, typer)"),
    "mbrules rulesets": ([MBRULES, "rulesets"], "bare import (typer, yaml)"),
    "mbrules validate winning-moves.yaml": (
        [MBRULES, "validate", "rulesets/winning-moves.yaml"],
        "bare import (typer, yaml, pydantic, jsonschema)",
    ),
    "mbrules validate examples/stap-op.yaml": (
        [MBRULES, "validate", "examples/stap-op.yaml"],
        "bare import (typer, yaml, pydantic, jsonschema)",
    ),
    "mbrules show winning-moves": (
        [MBRULES, "show", "winning-moves"],
        "bare import (typer, yaml, pydantic, jsonschema)",
    ),
}


# Any non-empty PYTHONDONTWRITEBYTECODE (even "0") stops Python writing .pyc files: each process would then
# compile every stale or missing module again, which an installed package (compiled by pip) never does.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_of(cmd: list[str]) -> float:
    """CPU seconds (user + system) of one run of ``cmd`` as a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[:500]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions_of(cmd: list[str]) -> float:
    """Instructions of one run of ``cmd`` under callgrind, in thousands of millions (printed as M for ms)."""
    grind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    proc = subprocess.run(grind + cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or found is None:
        raise SystemExit(f"{' '.join(cmd)} failed under valgrind ({proc.returncode}): {proc.stderr[-500:]}")
    return int(found.group(1)) / 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15, help="runs of each command; the best is kept")
    ap.add_argument("--instructions", action="store_true", help="count instructions (callgrind), one run each")
    args = ap.parse_args()
    measure, unit = (instructions_of, "M instructions") if args.instructions else (cpu_of, "ms of CPU")
    runs = 1 if args.instructions else args.runs
    every = {**BASELINES, **{name: cmd for name, (cmd, _) in COMMANDS.items()}}
    best = {name: float("inf") for name in every}
    for cmd in every.values():  # untimed: writes the .pyc files a first run compiles
        subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    for _ in range(runs):  # interleaved: a busy spell weighs on every process alike
        for name, cmd in every.items():
            best[name] = min(best[name], measure(cmd))
    for name in BASELINES:
        print(f"{name:<50} {best[name] * 1000:7.1f} {unit} (best of {runs})")
    app = best["a two-command Typer app, run (typer, yaml)"]
    models = best["bare import (typer, yaml, BaseModel, jsonschema)"]
    for name, (cmd, against) in COMMANDS.items():
        ratio = best[name] / best[against]
        floor = f", {best[name] / models:.2f}x with BaseModel" if "pydantic" in against else ""
        print(
            f"{name:<50} {best[name] * 1000:7.1f} {unit} = {ratio:.2f}x {against} "
            f"(goal {GOALS.get(against, 1.5)}x){floor}; {best[name] / app:.2f}x the Typer app"
        )


if __name__ == "__main__":
    main()
