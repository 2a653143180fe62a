"""A checkout runs without installing, and the wheel ships what the checkout keeps in top-level folders.

The project's folders (``mbrules/``, ``cli/``, ``rulesets/``, ``schemas/``) become one package
``mbrules`` in two ways: from a checkout with ``PYTHONPATH=.`` (``mbrules._paths`` finds the
rulesets and schemas beside the package, and ``mbrules/cli`` takes its modules from ``cli/``), and
installed from a wheel (pyproject's ``package-dir`` maps them inside the package). Both are run
here from a copy outside this checkout, so the editable install of the test environment cannot
stand in for them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("mbrules", "cli", "rulesets", "schemas")
SNIPPET = (
    "import mbrules, mbrules._paths as p; print(mbrules.__file__); print(p.bundled_dir()); "
    "print(mbrules.load_game('winning-moves', players=2).new_match(seed=1))"
)


def _python(args: list[str], where: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(where))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


def _copy_checkout(dest: Path) -> Path:
    for name in FOLDERS:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


ONE_WORKER_FIXTURES = ("checkout",)  # copied once under make test's workers (tests/conftest.py)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    """One copy of the checkout for the module's tests, which read it and never change it: the first
    process compiles the copy's modules and writes their bytecode there, the later ones read it (a copy a
    test compiled mbrules' modules again, ~0.4 CPU-s)."""
    return _copy_checkout(tmp_path_factory.mktemp("checkout"))


def test_a_checkout_loads_a_bundled_ruleset_without_installing(checkout):
    co = checkout
    p = _python(["-c", SNIPPET], co, co)
    assert p.returncode == 0, p.stderr
    module, bundled, state = p.stdout.splitlines()
    assert Path(module).is_relative_to(co), "the copy's mbrules was not the one imported"
    assert Path(bundled) == (co / "rulesets").resolve()
    assert state.startswith("<State winning-moves hand 1: turn p1")


def test_a_checkout_runs_the_command_as_python_m_mbrules_cli(checkout, tmp_path):
    co = checkout
    listing = _python(["-m", "mbrules.cli", "rulesets"], co, tmp_path)
    assert listing.returncode == 0, listing.stderr
    assert "winning-moves" in listing.stdout and "hazard-on-hazard" in listing.stdout
    schema = _python(["-m", "mbrules.cli", "schema", "scenario"], co, tmp_path)
    assert schema.returncode == 0, schema.stderr
    assert schema.stdout == (ROOT / "schemas" / "scenario.schema.json").read_text(encoding="utf-8")
    where = _python(["-c", "import mbrules.cli.app as a; print(a.__file__)"], co, tmp_path)
    assert Path(where.stdout.strip()) == (co / "cli" / "app.py").resolve()


@pytest.mark.slow
def test_the_wheel_ships_rulesets_schemas_and_the_cli_inside_mbrules_only(tmp_path):
    out = tmp_path / "wheel"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if built.returncode != 0:
        pytest.skip(f"pip cannot build a wheel here (no build backend reachable): {built.stderr[-300:]}")
    (wheel,) = out.glob("mbrules-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        z.extractall(tmp_path / "site")
        top = z.read(next(n for n in names if n.endswith("top_level.txt"))).decode().split()
        scripts = z.read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert top == ["mbrules"], "the wheel installs a top-level module other than mbrules"
    assert not any(n.startswith("cli/") for n in names)
    assert "mbrules/bundled/winning-moves.yaml" in names and "mbrules/bundled/options/extension-1200.yaml" in names
    assert "mbrules/schemas/ruleset.schema.json" in names and "mbrules/cli/app.py" in names
    # mbrules serve's pages are package data: plain files, no build step (docs/web.md)
    assert {f"mbrules/web/static/{f}" for f in ("play.html", "play.js", "dom.js", "app.css", "index.html")} <= set(
        names
    )
    assert "mbrules = mbrules.cli.app:main" in scripts
    # PEP 561: the marker that tells a type checker to read the package's own annotations (issue 37)
    assert "mbrules/py.typed" in names
    site = tmp_path / "site"
    p = _python(["-c", SNIPPET], site, tmp_path)
    assert p.returncode == 0, p.stderr
    module, bundled, state = p.stdout.splitlines()
    assert Path(module).is_relative_to(site) and Path(bundled) == (site / "mbrules" / "bundled").resolve()
    assert state.startswith("<State winning-moves hand 1")
    listing = _python(
        ["-c", "import sys; sys.argv = ['mbrules', 'rulesets']; from mbrules.cli.app import main; main()"],
        site,
        tmp_path,
    )
    assert listing.returncode == 0, listing.stderr
    assert "parker-1971" in listing.stdout
