"""CPU of ``mbrules.testing.api_test`` per table: this tree's harness against the harness of a git commit.

    .venv/bin/python benchmarks/bench_api_test.py [--base main] [--repeats 3]

The base commit's ``mbrules/testing`` is extracted (``git archive``) into a temporary directory and
imported as another package, so both harnesses run on this tree's engine in one process: each table is
run with one, then the other (the order swapped every repeat), and the median CPU of each is printed.
The tables are those of the fast set's ``api_test`` files (tests/test_reactions_and_score_lines.py,
test_turn_rules.py, test_new_rules.py, test_api_test.py): a few seconds each (issue 46 point 7).
"""

from __future__ import annotations

import argparse
import importlib
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import warnings
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import mbrules  # noqa: E402
from mbrules import testing as this_tree  # noqa: E402

TABLES = [  # (ruleset, players, options, matches, seed)
    ("winning-moves", 4, ["fast-play-remedy"], 1, 3),
    ("winning-moves", 6, ["queued-coup-fourre-turn"], 1, 3),
    ("winning-moves", 4, ["french-end-bonuses"], 1, 3),
    ("winning-moves", 4, ["mulligan"], 1, 0),
    ("winning-moves", 4, ["play-then-draw"], 1, 0),
    ("winning-moves", 4, ["reshuffle-discard"], 1, 0),
    ("winning-moves", 4, ["empty-pile-ends-hand"], 2, 5),
    ("winning-moves", 6, ["karma"], 2, 5),
    ("playaural", 4, [], 1, 2),
    ("express", 2, [], 1, 3),
    ("wikipedia", 3, ["hazard-on-hazard", "roll-after-safety"], 1, 11),
    ("winning-moves", 2, [], 2, 1),
]


def base_harness(ref: str, into: Path) -> ModuleType:
    """``mbrules/testing`` at commit ``ref``, imported as the package ``base_testing``."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "mbrules/testing"], capture_output=True, check=True)
    with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as archive:
        archive.extractall(into, filter="data")
    (into / "mbrules" / "testing").rename(into / "base_testing")
    sys.path.insert(0, str(into))
    return importlib.import_module("base_testing")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main", help="the commit whose harness is compared (default main)")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    warnings.simplefilter("ignore")  # an option that changes nothing in its edition says so
    with tempfile.TemporaryDirectory() as tmp:
        base = base_harness(args.base, Path(tmp))
        cpu: dict[tuple[int, str], list[float]] = {}
        for rep in range(args.repeats):
            for i, (rid, n, options, matches, seed) in enumerate(TABLES):
                game = mbrules.load_game(rid, players=n, options=options)
                pair = [("base", base), ("this", this_tree)]
                for name, harness in pair if rep % 2 == 0 else pair[::-1]:
                    start = time.process_time()
                    harness.api_test(game, matches=matches, seed=seed)
                    cpu.setdefault((i, name), []).append(time.process_time() - start)
    print(f"{'table':58s} {'base':>6s} {'this':>6s} {'ratio':>6s}")
    total = {"base": 0.0, "this": 0.0}
    for i, (rid, n, options, matches, seed) in enumerate(TABLES):
        med = {name: statistics.median(cpu[i, name]) for name in total}
        for name in total:
            total[name] += med[name]
        label = f"{rid} {n}p {'+'.join(options) or '-'} m{matches} s{seed}"
        print(f"{label:58s} {med['base']:6.2f} {med['this']:6.2f} {med['this'] / med['base']:6.2f}")
    print(f"{'sum of the medians':58s} {total['base']:6.2f} {total['this']:6.2f} {total['this'] / total['base']:6.2f}")


if __name__ == "__main__":
    main()
