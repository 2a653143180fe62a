"""compare's memory does not grow with the number of games (issue 22, item 2): metrics from running
sums, records streamed to the report folder as they are made."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

MBRULES = str(Path(sys.executable).with_name("mbrules"))


def peak_rss_kb(args: list[str]) -> int:
    """The peak resident set size of one command run in a fresh child (its own rusage)."""
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execv(MBRULES, [MBRULES, *args])
    _, status, ru = os.wait4(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, args
    return ru.ru_maxrss


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "wait4"), reason="needs wait4 (Unix)")
@pytest.mark.long
def test_peak_memory_of_3000_games_stays_within_1_3_times_that_of_300(tmp_path):
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
        "--no-charts",
    ]
    small = peak_rss_kb(base + ["--games", "300", "--out", str(tmp_path / "small")])
    large = peak_rss_kb(base + ["--games", "3000", "--out", str(tmp_path / "large")])
    assert large <= 1.3 * small, (small, large)
    # and every record went to the folder
    assert sum(1 for _ in open(tmp_path / "large" / "matches.jsonl", encoding="utf-8")) == 2 * 3000
