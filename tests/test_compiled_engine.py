"""The optional compiled engine (mypyc, ``make compiled``): it plays the same games as the pure one, and a
checkout never runs a build older than its sources (docs/performance.md).

``make test-compiled`` runs this file, with the engine and conformance suites, under
``MBRULES_COMPILED=require``; under ``make test`` the tests that need a build skip when there is none.
The compiled wheel (``make wheel-compiled``) is made here from the existing build, installed and played.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
import warnings
import zipfile
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


# --- the wheels (make wheel, make wheel-compiled) ---

PLAY = (
    "import json, mbrules, mbrules._compiled as c, mbrules.engine.state as s\n"
    "from mbrules.matches import play_match\n"
    "st = play_match(mbrules.load_game('winning-moves', players=3), 7, ['heuristic', 'random', 'heuristic'], max_hands=2)\n"
    "print(json.dumps({'package': mbrules.__file__, 'state': s.__file__, 'active': c.active(),\n"
    "    'history': [[p, int(a)] for p, a in st.history], 'sheets': repr(st.hand_sheets)}))\n"
)
EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES) + (".so", ".pyd")


def _fake_pure_wheel(where: Path, sources: Path = ROOT) -> Path:
    """A pure wheel of the watched sources only (what a compiled wheel's check reads), with its dist-info."""
    wheel = where / "mbrules-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for name in _compiled._digests(sources):
            z.write(sources / name, name)
        z.writestr("mbrules/py.typed", "")
        z.writestr("mbrules-0.1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr("mbrules-0.1.0.dist-info/RECORD", "")
    return wheel


def test_the_compiled_wheel_is_the_pure_one_plus_the_build_in_its_own_folder(tmp_path):
    """The compiled wheel keeps every file of the pure wheel byte for byte (the pure modules stay the
    fallback), adds the build's manifest and extensions under mbrules/_native/ only (never beside a .py),
    is tagged for this Python and platform, and its RECORD holds every file's true SHA-256 and size."""
    build = tmp_path / "build"
    build.mkdir()
    (build / "mbrules" / "engine").mkdir(parents=True)
    ext = "mbrules/engine/state" + importlib.machinery.EXTENSION_SUFFIXES[0]
    (build / ext).write_bytes(b"not really an extension: the packing copies bytes")
    manifest = {"abi": _compiled._abi(), "modules": {"mbrules.engine.state": ext}, "sources": _compiled._digests(ROOT)}
    (build / _compiled.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    pure = _fake_pure_wheel(tmp_path)
    made = _compiled.pack_wheel(pure, build)
    assert made.name == f"mbrules-0.1.0-{_compiled.wheel_tag()}.whl" and "none-any" not in made.name
    with zipfile.ZipFile(pure) as p, zipfile.ZipFile(made) as c:
        kept = [n for n in p.namelist() if not n.startswith("mbrules-0.1.0.dist-info/")]
        assert all(c.read(n) == p.read(n) for n in kept)
        added = sorted(set(c.namelist()) - set(p.namelist()))
        assert added == ["mbrules/_native/manifest.json", f"mbrules/_native/{ext}"]
        assert "Root-Is-Purelib: false" in c.read("mbrules-0.1.0.dist-info/WHEEL").decode()
        assert f"Tag: {_compiled.wheel_tag()}" in c.read("mbrules-0.1.0.dist-info/WHEEL").decode()
        rows = [r.split(",") for r in c.read("mbrules-0.1.0.dist-info/RECORD").decode().splitlines()]
        assert sorted(r[0] for r in rows) == sorted(c.namelist())
        for name, digest, size in rows:
            if name.endswith("/RECORD"):
                continue
            data = c.read(name)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, size) == (f"sha256={want}", str(len(data))), name


def test_a_wheel_is_never_packed_with_a_build_of_other_sources(tmp_path):
    """The compiled wheel's build must match the wheel's own sources (the check an installed wheel runs
    at import): a build recorded over another state.py is refused, and no wheel is written."""
    sources = _compiled._digests(ROOT)
    sources["mbrules/engine/state.py"] = "0" * 64
    build = _fake_build(tmp_path, sources)
    with pytest.raises(SystemExit, match="state.py .*changed since"):
        _compiled.pack_wheel(_fake_pure_wheel(tmp_path), build)
    assert not list(tmp_path.glob("*cp*.whl"))


def _pip_wheel(tmp_path: Path) -> Path:
    """The pure wheel, built by pip from a copy of what pyproject packs (the checkout left as it is)."""
    src = tmp_path / "src"
    for name in ("mbrules", "cli", "rulesets", "schemas"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "_native"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(src)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if built.returncode != 0:
        pytest.skip(f"pip cannot build a wheel here (no build backend reachable): {built.stderr[-300:]}")
    (wheel,) = (tmp_path / "dist").glob("mbrules-*-py3-none-any.whl")
    return wheel


def _run_installed(site: Path, mode: str | None, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "MBRULES_COMPILED"}
    env["PYTHONPATH"] = str(site)
    if mode is not None:
        env["MBRULES_COMPILED"] = mode
    return subprocess.run([sys.executable, "-c", PLAY], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)


def test_an_installed_compiled_wheel_runs_its_own_build_and_plays_the_pure_games(tmp_path):
    """make wheel-compiled's wheel, installed by pip: MBRULES_COMPILED=require loads the engine from the
    wheel's own mbrules/_native build (checked against the installed sources) and plays the same seeded
    match as the same installation without the variable (pure); an edited installed source is refused.
    The pure wheel carries no extension module."""
    why = _compiled.stale_reason(BUILD)
    if why is not None:
        if REQUIRED:
            pytest.fail(why)
        pytest.skip(why)
    pure = _pip_wheel(tmp_path)
    with zipfile.ZipFile(pure) as z:
        assert not [n for n in z.namelist() if n.endswith(EXTENSIONS) or "/_native/" in n]
    made = _compiled.pack_wheel(pure, BUILD)
    site = tmp_path / "site"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--target", str(site), str(made)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stderr
    compiled, plain = (_run_installed(site, mode, tmp_path) for mode in ("require", None))
    assert compiled.returncode == 0 and plain.returncode == 0, compiled.stderr + plain.stderr
    c, p = json.loads(compiled.stdout), json.loads(plain.stdout)
    assert Path(c["package"]).is_relative_to(site) and Path(p["package"]).is_relative_to(site)
    assert c["active"] and Path(c["state"]).is_relative_to(site / "mbrules" / "_native")
    assert c["state"].endswith(importlib.machinery.EXTENSION_SUFFIXES[0])
    assert not p["active"] and Path(p["state"]) == site / "mbrules" / "engine" / "state.py"
    assert c["history"] and (c["history"], c["sheets"]) == (p["history"], p["sheets"])
    with open(site / "mbrules" / "engine" / "turn.py", "a", encoding="utf-8") as f:
        f.write("# edited after the install\n")
    edited = _run_installed(site, "require", tmp_path)
    assert edited.returncode != 0 and "mbrules/engine/turn.py changed since" in edited.stderr
