"""The conformance scenarios replayed under the checker on the real engine, kept for the process.

tests/properties/test_conformance_invariants.py replays every scenario under tests/conformance with
``checked_replay`` (its module fixture); test_score_lines' real-engine test asked the options' 104 of them
again (~0.8 CPU-s of the fast set) and reads the same answers here when that module ran first in the
process. Only an unpatched engine's replays are kept: a test that monkeypatches the engine replays afresh.
"""

from __future__ import annotations

from pathlib import Path

from mbrules.testing import checked_replay

_KEPT: dict[Path, tuple] = {}


def replayed(path: Path, *, keep: bool = False) -> tuple:
    """``checked_replay(path)``: the kept answer if there is one, else a fresh replay (kept if ``keep``)."""
    key = Path(path).resolve()
    if key in _KEPT:
        return _KEPT[key]
    done = checked_replay(path)
    if keep:
        _KEPT[key] = done
    return done
