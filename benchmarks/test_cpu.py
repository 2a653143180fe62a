"""Sum a per-test CPU log (``MBRULES_TEST_CPU=FILE pytest ...``, tests/conftest.py) by file or by test.

Each line of the log is a test's CPU seconds in its own process, the CPU seconds of the child processes it
waited for, and its node id, tab-separated. The ranking is what `make test` costs two cores, file by file:

    MBRULES_TEST_CPU=/tmp/suite.tsv .venv/bin/python -m pytest -q -n 2 --dist loadgroup
    python benchmarks/test_cpu.py /tmp/suite.tsv [--by file|test] [--top 30] [--only IDS_FILE]

``--by test`` sums a parametrized test's cases under one name. ``--only`` keeps the node ids listed in a
file (one per line, e.g. ``pytest -q --collect-only -m "not slow"``'s output: the fast set's share).
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections import Counter
from pathlib import Path


def _key(nodeid: str, by: str) -> str:
    if by == "file":
        return nodeid.split("::", 1)[0]
    return nodeid.split("[", 1)[0]


def summed(lines: list[str], by: str, keep: set[str] | None) -> tuple[dict[str, float], Counter[str]]:
    """CPU seconds and test counts per key; a line that is not three tab-separated fields is an error."""
    cpu: dict[str, float] = {}
    count: Counter[str] = Counter()
    for no, line in enumerate(lines, 1):
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 3:
            raise ValueError(f"line {no}: expected 'own<TAB>children<TAB>nodeid', got {line.strip()!r}")
        own, kids, nodeid = fields
        if keep is not None and nodeid not in keep:
            continue
        key = _key(nodeid, by)
        cpu[key] = cpu.get(key, 0.0) + float(own) + max(0.0, float(kids))  # a child's figure can print as -0.0000
        count[key] += 1
    return cpu, count


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log", type=Path)
    ap.add_argument("--by", choices=("file", "test"), default="file")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--only", type=Path, help="keep only the node ids listed in this file")
    args = ap.parse_args(argv)
    try:
        lines = args.log.read_text(encoding="utf-8").splitlines()
        keep = None if args.only is None else {s.strip() for s in args.only.read_text(encoding="utf-8").splitlines()}
        cpu, count = summed(lines, args.by, keep)
    except (OSError, ValueError) as exc:
        print(f"test_cpu: {exc}", file=sys.stderr)
        return 2
    print(f"{sum(cpu.values()):9.1f} CPU-s in {sum(count.values())} tests")
    for key, seconds in sorted(cpu.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{seconds:9.1f} {count[key]:6d}  {key}")
    return 0


if __name__ == "__main__":
    if hasattr(signal, "SIGPIPE"):  # `... | head` closes the pipe early: end quietly like any Unix filter
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
