"""The optional compiled engine: the same source, compiled by mypyc into a build directory of its own.

The pure modules are the source of truth and what a checkout runs. ``make compiled`` (``python -m
mbrules._compiled build``) copies the package into a scratch directory, compiles :data:`MODULES` there
with mypyc (it ships with mypy) and puts the extension modules and a manifest into ``build/compiled/``;
nothing is written next to a ``.py``. A process runs them only when ``MBRULES_COMPILED`` is set (``1``:
that directory; or a directory's path) before ``mbrules`` is imported: :func:`activate` then checks the
manifest (the same Python and the same bytes of every source the build read, by SHA-256) and puts a
finder first on ``sys.meta_path`` that loads those modules from the build. A stale build (a source
edited since), one for another Python, or none at all, is refused with a warning, and the pure engine
runs: an extension never shadows an edited ``.py``. ``MBRULES_COMPILED=require`` raises instead (CI).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Sequence

PACKAGE = Path(__file__).resolve().parent
DEFAULT_DIR = PACKAGE.parent / "build" / "compiled"
MANIFEST = "manifest.json"
# what is compiled: the engine's rooms and the modules its hot loop calls, the vocabulary, the
# observation and its encoder, and the heuristic bot (the expert's play-outs); notation (Action, an int
# subclass), the named tuples and the classes marked mypyc_attr(native_class=False) stay Python classes
MODULES = (
    "mbrules/vocab.py",
    "mbrules/engine/phases.py",
    "mbrules/engine/fields.py",
    "mbrules/engine/legality.py",
    "mbrules/engine/effects.py",
    "mbrules/engine/turn.py",
    "mbrules/engine/reactions.py",
    "mbrules/engine/scoring.py",
    "mbrules/engine/scorelines.py",
    "mbrules/engine/state.py",
    "mbrules/engine/game.py",
    "mbrules/engine/compact.py",
    "mbrules/engine/observation.py",
    "mbrules/bots/heuristic.py",
)
# the sources whose bytes a build depends on: every module of the packages compiled (a compiled module
# reads the types of the modules it imports) and the Python it was built for
WATCHED = ("mbrules/vocab.py", "mbrules/engine/*.py", "mbrules/bots/heuristic.py")

_active: dict[str, str] = {}


def _digests(root: Path) -> dict[str, str]:
    out = {}
    for pattern in WATCHED:
        for f in sorted(root.glob(pattern)):
            out[f.relative_to(root).as_posix()] = hashlib.sha256(f.read_bytes()).hexdigest()
    return out


def _abi() -> str:
    return f"{sys.implementation.cache_tag} {importlib.machinery.EXTENSION_SUFFIXES[0]}"


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules of a checked build (by full name); every other module as before."""

    def __init__(self, modules: dict[str, str]):
        self.modules = modules

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        f = self.modules.get(fullname)
        return None if f is None else importlib.util.spec_from_file_location(fullname, f)


def stale_reason(build: Path) -> str | None:
    """Why the build in ``build`` may not run over this checkout's sources (None: it may)."""
    try:
        man = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return f"no compiled engine in {build} (make compiled builds it)"
    if man.get("abi") != _abi():
        return f"the compiled engine in {build} was built for {man.get('abi')}, not {_abi()}"
    now = _digests(PACKAGE.parent)
    then = man.get("sources", {})
    changed = sorted(k for k in now.keys() | then.keys() if now.get(k) != then.get(k))
    if changed:
        return (
            f"{', '.join(changed[:3])}{' ...' if len(changed) > 3 else ''} changed since the compiled engine was built"
        )
    return None


def activate(setting: str, build: Path | None = None) -> bool:
    """Run the compiled modules named in the build's manifest (``setting``: ``1``, ``require`` or a
    directory; ``build``: the directory, if not the setting's); whether they will. A stale or missing
    build warns (``require``: raises) and the pure engine runs. Called by ``mbrules/__init__.py`` when
    ``MBRULES_COMPILED`` is set."""
    if build is None:
        build = DEFAULT_DIR if setting in ("1", "require", "yes", "true") else Path(setting)
    why = stale_reason(build)
    if why is not None:
        if setting == "require":
            raise ImportError(f"MBRULES_COMPILED=require: {why}")
        warnings.warn(f"{why}: running the pure Python engine", RuntimeWarning, stacklevel=3)
        return False
    man = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
    modules = {name: str(build / rel) for name, rel in man["modules"].items()}
    _active.update(modules)
    sys.meta_path.insert(0, _Finder(modules))
    return True


def active() -> bool:
    """Whether this process runs the compiled engine (its state module an extension)."""
    import mbrules.engine.state as state

    return bool(_active) and not str(state.__file__).endswith(".py")


def build(out: Path = DEFAULT_DIR, modules: Sequence[str] = MODULES, jobs: int = 2) -> None:
    """Compile ``modules`` with mypyc in a scratch copy of the package; extensions and manifest into ``out``."""
    import shutil
    import subprocess
    import tempfile

    root = PACKAGE.parent
    with tempfile.TemporaryDirectory(prefix="mbrules-mypyc-") as tmp:
        work = Path(tmp)
        shutil.copytree(PACKAGE, work / "mbrules", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
        (work / "mypyc.ini").write_text(
            "[mypy]\npython_version = 3.11\nignore_missing_imports = True\n", encoding="utf-8"
        )
        args = ["--config-file=mypyc.ini", *modules]
        (work / "setup.py").write_text(
            "from setuptools import setup\nfrom mypyc.build import mypycify\n"
            f"setup(name='mbrules_compiled', ext_modules=mypycify({args!r}, opt_level='3'))\n",
            encoding="utf-8",
        )
        done = subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--inplace", "-j", str(jobs)],
            cwd=work,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise SystemExit(f"mypyc failed:\n{done.stdout[-6000:]}\n{done.stderr[-6000:]}")
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        found: dict[str, str] = {}
        for so in sorted(work.glob("*" + importlib.machinery.EXTENSION_SUFFIXES[0])) + sorted(
            (work / "mbrules").rglob("*" + importlib.machinery.EXTENSION_SUFFIXES[0])
        ):
            rel = so.relative_to(work)
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(so, out / rel)
            name = ".".join(rel.parts[:-1] + (rel.name.split(".")[0],))
            found[name] = rel.as_posix()
        manifest = {"abi": _abi(), "modules": found, "sources": _digests(work)}
    if manifest["sources"] != _digests(root):
        raise SystemExit("the sources changed while the engine was compiled: build again")
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"compiled {len(modules)} modules into {out}: run with MBRULES_COMPILED=1 (docs/performance.md)")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] != ["build"]:
        print("usage: python -m mbrules._compiled build [OUT_DIR]", file=sys.stderr)
        return 2
    build(Path(args[1]) if len(args) > 1 else DEFAULT_DIR, jobs=int(os.environ.get("MBRULES_COMPILE_JOBS", "2")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
