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

``make wheel-compiled`` (``python -m mbrules._compiled wheel``) packs a build into a platform wheel: the
pure wheel's files unchanged, plus the build's extensions and manifest in ``mbrules/_native/`` (never
beside a ``.py``: the pure modules stay the fallback). Installed, ``MBRULES_COMPILED=1`` runs that build,
checked the same way against the installed sources; without the variable the wheel runs pure.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import sysconfig
import time
import warnings
from pathlib import Path
from types import ModuleType
from typing import Sequence

PACKAGE = Path(__file__).resolve().parent
DEFAULT_DIR = PACKAGE.parent / "build" / "compiled"  # what `make compiled` writes in a checkout
PACKAGED_DIR = PACKAGE / "_native"  # the build a compiled wheel carries (docs/performance.md)
MANIFEST = "manifest.json"
# what is compiled: the engine's rooms and the modules its hot loop calls, the vocabulary, the
# observation and its encoder, the heuristic bot (the expert's play-outs), the random bot and the seats'
# match loop; notation (Action, an int subclass), the named tuples, the seats' kinds (mbrules/seat_kinds.py)
# and the classes marked mypyc_attr(native_class=False) stay Python classes
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
    "mbrules/bots/random_bot.py",
    "mbrules/seats.py",
)
# the sources whose bytes a build depends on: every module of the packages compiled (a compiled module
# reads the types of the modules it imports) and the Python it was built for
WATCHED = (
    "mbrules/vocab.py",
    "mbrules/engine/*.py",
    "mbrules/bots/heuristic.py",
    "mbrules/bots/random_bot.py",
    "mbrules/seats.py",
    "mbrules/seat_kinds.py",
)

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


def stale_reason(build: Path, sources: Path | None = None) -> str | None:
    """Why the build in ``build`` may not run over the sources under ``sources`` (the folder holding
    ``mbrules/``; by default this package's: a checkout's or an installed wheel's) on this Python
    (None: it may)."""
    try:
        man = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return f"no compiled engine in {build} (make compiled builds it)"
    if man.get("abi") != _abi():
        return f"the compiled engine in {build} was built for {man.get('abi')}, not {_abi()}"
    now = _digests(PACKAGE.parent if sources is None else sources)
    then = man.get("sources", {})
    changed = sorted(k for k in now.keys() | then.keys() if now.get(k) != then.get(k))
    if changed:
        return (
            f"{', '.join(changed[:3])}{' ...' if len(changed) > 3 else ''} changed since the compiled engine was built"
        )
    return None


def default_dir() -> Path:
    """The build ``MBRULES_COMPILED=1`` runs: the installed package's own (a compiled wheel), else the
    checkout's ``build/compiled``."""
    return PACKAGED_DIR if (PACKAGED_DIR / MANIFEST).is_file() else DEFAULT_DIR


def activate(setting: str, build: Path | None = None) -> bool:
    """Run the compiled modules named in the build's manifest (``setting``: ``1``, ``require`` or a
    directory; ``build``: the directory, if not the setting's); whether they will. A stale or missing
    build warns (``require``: raises) and the pure engine runs. Called by ``mbrules/__init__.py`` when
    ``MBRULES_COMPILED`` is set."""
    if build is None:
        build = default_dir() if setting in ("1", "require", "yes", "true") else Path(setting)
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


def wheel_tag() -> str:
    """This Python's platform wheel tag (interpreter-ABI-platform, e.g. ``cp311-cp311-linux_x86_64``): what
    a wheel carrying mypyc's extensions, built by this Python, installs on."""
    if sys.implementation.name != "cpython":
        raise SystemExit(
            f"a compiled wheel is CPython's (mypyc builds CPython extensions), not {sys.implementation.name}'s"
        )
    ver = sysconfig.get_config_var("py_version_nodot")
    threads = "t" if sysconfig.get_config_var("Py_GIL_DISABLED") else ""  # a free-threaded build's ABI
    debug = "d" if hasattr(sys, "gettotalrefcount") else ""  # a debug build's
    return f"cp{ver}-cp{ver}{threads}{debug}-{sysconfig.get_platform().replace('-', '_').replace('.', '_')}"


def _retag(wheel_file: Path, tag: str) -> None:
    """The dist-info's WHEEL file says a platform wheel (not purelib) with one tag, ``tag``."""
    lines, tagged = [], False
    for line in wheel_file.read_text(encoding="utf-8").splitlines():
        if line.startswith("Root-Is-Purelib:"):
            line = "Root-Is-Purelib: false"
        elif line.startswith("Tag:"):
            if tagged:
                continue
            line, tagged = f"Tag: {tag}", True
        lines.append(line)
    wheel_file.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _zip_wheel(root: Path, dist_info: str, dest: Path) -> None:
    """Zip the tree ``root`` into the wheel ``dest``, its RECORD (every file's SHA-256 and size) written anew,
    the dist-info last; every entry dated ``SOURCE_DATE_EPOCH`` (1980 without it): the same tree, the same bytes."""
    import zipfile

    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    when = time.gmtime(max(315532800, int(epoch) if epoch.isdigit() else 0))[:6]  # 315532800: 1980, zip's first day
    record = f"{dist_info}/RECORD"
    names = sorted(
        (f.relative_to(root).as_posix() for f in root.rglob("*") if f.is_file()),
        key=lambda n: (n.startswith(dist_info + "/"), n),
    )
    rows = []
    with zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as z:
        for name in [n for n in names if n != record]:
            data = (root / name).read_bytes()
            info = zipfile.ZipInfo(name, date_time=when)
            executable = name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
            info.external_attr = (0o755 if executable else 0o644) << 16
            z.writestr(info, data, zipfile.ZIP_DEFLATED)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            rows.append(f"{name},sha256={digest},{len(data)}")
        rows.append(f"{record},,")
        info = zipfile.ZipInfo(record, date_time=when)
        info.external_attr = 0o644 << 16
        z.writestr(info, "\n".join(rows) + "\n", zipfile.ZIP_DEFLATED)


def pack_wheel(pure: Path, build: Path = DEFAULT_DIR, out: Path | None = None) -> Path:
    """The compiled wheel made from the pure wheel ``pure`` and the build in ``build``, written into ``out``
    (by default beside ``pure``); its path. It holds the pure wheel's files unchanged and the build's
    manifest and extension modules under ``mbrules/_native/`` (never beside a ``.py``), and is tagged for
    this Python and platform. Refused when the build may not run over the wheel's own sources (their
    SHA-256, the Python): a wheel never carries a stale build."""
    import shutil
    import tempfile
    import zipfile

    parts = pure.name.removesuffix(".whl").split("-")
    if len(parts) != 5 or parts[2:] != ["py3", "none", "any"]:
        raise SystemExit(f"{pure}: not a pure wheel (NAME-VERSION-py3-none-any.whl)")
    tag = wheel_tag()
    with tempfile.TemporaryDirectory(prefix="mbrules-wheel-") as tmp:
        root = Path(tmp)
        with zipfile.ZipFile(pure) as z:
            z.extractall(root)
        why = stale_reason(build, root)
        if why is not None:
            raise SystemExit(f"{why}: no compiled wheel made from {pure.name}")
        native = root / "mbrules" / PACKAGED_DIR.name
        man = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
        for rel in [MANIFEST, *man["modules"].values()]:
            (native / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(build / rel, native / rel)
        dist_info = f"{parts[0]}-{parts[1]}.dist-info"
        _retag(root / dist_info / "WHEEL", tag)
        dest = (pure.parent if out is None else out) / f"{parts[0]}-{parts[1]}-{tag}.whl"
        _zip_wheel(root, dist_info, dest)
    return dest


def _pure_wheel(dist: Path) -> Path:
    found = sorted(dist.glob("mbrules-*-py3-none-any.whl"))
    if len(found) != 1:
        raise SystemExit(
            f"{len(found)} pure wheels (mbrules-*-py3-none-any.whl) in {dist}, not one: make wheel builds it"
        )
    return found[0]


USAGE = "usage: python -m mbrules._compiled build [OUT_DIR] | wheel [DIST_DIR]"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["build"] and len(args) <= 2:
        build(Path(args[1]) if len(args) > 1 else DEFAULT_DIR, jobs=int(os.environ.get("MBRULES_COMPILE_JOBS", "2")))
        return 0
    if args[:1] == ["wheel"] and len(args) <= 2:
        made = pack_wheel(_pure_wheel(Path(args[1] if len(args) > 1 else "dist")))
        print(
            f"{made}: the compiled engine of {DEFAULT_DIR}; installed, MBRULES_COMPILED=1 runs it (docs/performance.md)"
        )
        return 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
