"""Read a wall-clock log of the suite (``MBRULES_TEST_WALL=FILE``, tests/conftest.py): where a worker waited.

Each line of the log is the xdist worker, the test's start and end (seconds since the epoch), its CPU seconds
(its own and the child processes it waited for) and its node id, tab-separated:

    MBRULES_TEST_WALL=/tmp/wall.tsv .venv/bin/python -m pytest -q -n 2 --dist loadgroup
    python benchmarks/test_wall.py /tmp/wall.tsv [--workers 2 3] [--top 15]

It prints each worker's end and busy time, the tests that mostly wait (wall time over three times their CPU:
a browser, a terminal, a Ray node, a timeout), and a model of ``make test`` on two cores with N workers: the
tests in node-id order, those of over 10 CPU-s first (as the ``long`` mark does), each worker taking the next
test when free, a test being its CPU (shared by the workers computing at that moment, two cores) then its
wait; every worker first pays ``--collect`` CPU-s of collection. A model, not a measure: it ranks choices.
"""

from __future__ import annotations

import argparse
from collections import defaultdict


def read(path: str) -> list[tuple[str, float, float, float, str]]:
    rows = []
    for no, line in enumerate(open(path, encoding="utf-8"), 1):
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 5:
            raise ValueError(f"{path}:{no}: expected 'worker<TAB>start<TAB>end<TAB>cpu<TAB>nodeid', got {line!r}")
        worker, start, end, cpu, nodeid = fields
        rows.append((worker, float(start), float(end), max(0.0, float(cpu)), nodeid))
    return rows


def waits(rows) -> dict[str, float]:
    """The wall seconds a test spent not computing, for the tests that mostly wait (else 0)."""
    return {n: (e - s - c if e - s > 3 * c and e - s > 0.5 else 0.0) for _, s, e, c, n in rows}


def model(rows, workers: int, collect: float, cores: float = 2.0) -> float:
    """The modelled wall seconds of the whole run (processor sharing; see the module's text)."""
    cpu = {n: c for _, _, _, c, n in rows}
    wait = waits(rows)
    order = sorted(cpu, key=lambda n: (cpu[n] <= 10, n))
    queue = iter(order)
    phases: list[list[list[float]]] = [[[1.0, collect]] for _ in range(workers)]  # [computing?, seconds left]
    clock, live = 0.0, set(range(workers))
    while live:
        for w in list(live):
            while phases[w] and phases[w][0][1] <= 1e-9:
                phases[w].pop(0)
            if not phases[w]:
                n = next(queue, None)
                if n is None:
                    live.discard(w)
                    continue
                phases[w] = [[1.0, cpu[n]], [0.0, wait[n]]]
        if not live:
            break
        computing = sum(1 for w in live if phases[w] and phases[w][0][0])
        share = min(1.0, cores / computing) if computing else 1.0
        rate = {w: (share if phases[w][0][0] else 1.0) for w in live if phases[w]}
        step = min(phases[w][0][1] / r for w, r in rate.items())
        for w, r in rate.items():
            phases[w][0][1] -= step * r
        clock += step
    return clock


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("--workers", type=int, nargs="+", default=[2, 3])
    ap.add_argument("--collect", type=float, default=26.0, help="CPU-s a worker spends collecting (default 26)")
    ap.add_argument("--top", type=int, default=15)
    a = ap.parse_args()
    rows = read(a.log)
    t0 = min(s for _, s, _, _, _ in rows)
    per: dict[str, list] = defaultdict(list)
    for r in rows:
        per[r[0]].append(r)
    for w, rs in sorted(per.items()):
        busy, cpu = sum(e - s for _, s, e, _, _ in rs), sum(c for *_, c, _ in rs)
        print(
            f"{w}: {len(rs)} tests, ends at {max(e for _, _, e, _, _ in rs) - t0:.0f} s, busy {busy:.0f}, CPU {cpu:.0f}"
        )
    wait = waits(rows)
    print(f"waiting: {sum(wait.values()):.0f} s in {sum(1 for v in wait.values() if v)} tests")
    for n, v in sorted(wait.items(), key=lambda kv: -kv[1])[: a.top]:
        print(f"  {v:6.1f}  {n}")
    for k in a.workers:
        print(f"model, {k} workers on two cores: {model(rows, k, a.collect):.0f} s")


if __name__ == "__main__":
    main()
