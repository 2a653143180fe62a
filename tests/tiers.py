"""The two tiers of the suite, as parametrizations (the rule: tests/conftest.py's docstring).

``one_each(cases, key)`` keeps one case of each ``key`` (an edition, an option) in the fast set and
marks the others slow: the k-th key keeps its k-th case (cyclically), so that the kept cases spread over
the counts (or seeds, or bots) instead of all taking the first. ``make test`` runs every case.
``examples(slow, fast)`` sizes a fuzzer for the tier being run.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import pytest


def one_each(
    cases: Sequence[Any], key: Callable[[Any], Hashable], ids: Callable[[Any], str] | None = None
) -> list[Any]:
    """``cases`` as ``pytest.param``s: the first key met keeps its first case fast, the second key its
    second case, and so on (modulo its number of cases); every other case is marked slow."""
    groups: dict[Hashable, list[int]] = {}
    for i, case in enumerate(cases):
        groups.setdefault(key(case), []).append(i)
    fast = {members[k % len(members)] for k, members in enumerate(groups.values())}
    return _params(cases, fast, ids)


def examples(slow: int, fast: int) -> int:
    """A fuzzer's number of generated examples: ``fast`` in the fast set (tests/conftest.py sets
    MBRULES_TEST_TIER=fast for ``-m "not slow"``), ``slow`` in ``make test``."""
    return fast if os.environ.get("MBRULES_TEST_TIER") == "fast" else slow


def cover(
    cases: Sequence[Any], features: Callable[[Any], set[Hashable]], ids: Callable[[Any], str] | None = None
) -> list[Any]:
    """``cases`` as ``pytest.param``s: a few cases that together show every feature any case shows stay fast
    (greedily: the case showing the most features not yet shown, the first such in order), every other case
    is marked slow. For a check over many data files whose cost is per file: the fast set meets each
    feature once, ``make test`` reads every file."""
    shown = [set(features(case)) for case in cases]
    left, fast = set().union(*shown), set()
    while left:
        best = max(range(len(cases)), key=lambda i: len(shown[i] & left))
        fast.add(best)
        left -= shown[best]
    return _params(cases, fast, ids)


def _params(cases: Sequence[Any], fast: set[int], ids: Callable[[Any], str] | None) -> list[Any]:
    """``cases`` as ``pytest.param``s, those whose index is in ``fast`` unmarked, the others marked slow."""
    out = []
    for i, case in enumerate(cases):
        values = case if isinstance(case, tuple) else (case,)
        marks = () if i in fast else (pytest.mark.slow,)
        out.append(pytest.param(*values, marks=marks, id=ids(case) if ids else None))
    return out
