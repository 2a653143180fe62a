"""The optional compiled engine (mypyc, ``make compiled``): it plays the same games as the pure one, and a
checkout never runs a build older than its sources (docs/performance.md).

``make test-compiled`` runs this file, with the engine and conformance suites, under
``MBRULES_COMPILED=require``; under ``make test`` the tests that need a build skip when there is none.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from mbrules import _compiled

ROOT = Path(__file__).resolve().parents[1]
BUILD = _compiled.DEFAULT_DIR
REQUIRED = os.environ.get("MBRULES_COMPILED") == "require"


def test_the_compiled_engine_runs_where_it_is_required():
    """Under MBRULES_COMPILED=require (make test-compiled) the engine's state module is the extension:
    the suites run in the compiled engine, not silently in the pure one."""
    if not REQUIRED:
        pytest.skip("only under MBRULES_COMPILED=require (make test-compiled)")
    assert _compiled.active()
    import mbrules.engine.state as state

    assert not str(state.__file__).endswith(".py")


def _hashes(tmp_path: Path, mode: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "MBRULES_COMPILED"}
    if mode is not None:
        env["MBRULES_COMPILED"] = mode
    out = tmp_path / f"hashes-{mode}.json"
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "game_hashes.py"), "--out", str(out)],
        env=dict(env, PYTHONPATH=str(ROOT)),
        cwd=ROOT,
        check=True,
        timeout=900,
    )
    result: dict[str, str] = json.loads(out.read_text(encoding="utf-8"))
    return result


def test_both_engines_play_the_same_games(tmp_path):
    """Same seeds, same histories, transitions, score sheets, outcomes and observation vectors (byte for
    byte), pure and compiled, on every bundled edition and every option (benchmarks/game_hashes.py)."""
    why = _compiled.stale_reason(BUILD)
    if why is not None:
        if REQUIRED:
            pytest.fail(why)
        pytest.skip(why)
    pure = _hashes(tmp_path, None)
    compiled = _hashes(tmp_path, "require")
    assert len(pure) > 200
    differ = sorted(k for k in pure if pure[k] != compiled.get(k))
    assert not differ, f"the compiled engine plays other games in: {differ[:10]}"


def _fake_build(tmp_path: Path, sources: dict[str, str]) -> Path:
    build = tmp_path / "build"
    build.mkdir()
    manifest = {"abi": _compiled._abi(), "modules": {}, "sources": sources}
    (build / _compiled.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return build


def test_a_build_older_than_an_edited_source_is_refused(tmp_path):
    """An extension module must never shadow an edited .py: a build whose recorded source bytes differ
    from the checkout's is refused with a warning (the pure engine runs), and `require` raises."""
    sources = _compiled._digests(ROOT)
    sources["mbrules/engine/state.py"] = "0" * 64  # as if state.py was edited after the build
    build = _fake_build(tmp_path, sources)
    assert "mbrules/engine/state.py" in str(_compiled.stale_reason(build))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert _compiled.activate(str(build)) is False
    assert any("pure Python engine" in str(w.message) for w in seen)
    with pytest.raises(ImportError, match="changed since"):
        _compiled.activate("require", build)


def test_a_missing_build_is_refused(tmp_path):
    """No build at all (a fresh checkout): a warning and the pure engine, never an import error."""
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert _compiled.activate(str(tmp_path / "nothing")) is False
    assert "make compiled" in str(_compiled.stale_reason(tmp_path / "nothing"))
