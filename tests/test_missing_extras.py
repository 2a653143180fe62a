"""A command whose optional extra is missing says which extra to install: exit 2, one line, no
traceback (issue 23 item 7). Each extra is hidden from a real `mbrules` process by a module of its
name on PYTHONPATH that refuses to import."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXE = Path(sys.executable).with_name("mbrules")
ROOT = Path(__file__).resolve().parents[1]


def run_without(module: str, args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    blocker = tmp_path / "block"
    blocker.mkdir(exist_ok=True)
    (blocker / f"{module}.py").write_text("raise ImportError('hidden for the test')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(blocker), str(ROOT)])}  # this checkout's code
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)


@pytest.mark.slow  # six real processes
@pytest.mark.parametrize(
    "module,args,extra",
    [
        ("sklearn", ["train", "winning-moves", "-p", "2", "--games", "2", "--out", "model.json"], "learn"),
        ("ray", ["simulate", "--games", "2", "--backend", "ray"], "cluster"),
        ("ray", ["compare", "winning-moves", "--games", "2", "--skill-games", "0", "--backend", "ray"], "cluster"),
        (
            "ray",
            ["ladder", "--bot", "random", "--bot", "heuristic", "--players", "2", "--games", "2", "--backend", "ray"],
            "cluster",
        ),
        ("matplotlib", ["compare", "winning-moves", "--games", "2", "--skill-games", "0", "--out", "report"], "plots"),
        ("starlette", ["serve", "--port", "0", "--db", "tables.sqlite3"], "web"),
    ],
    ids=["train-sklearn", "simulate-ray", "compare-ray", "ladder-ray", "compare-matplotlib", "serve-starlette"],
)
def test_a_command_whose_extra_is_missing_names_the_extra_and_exits_2(module, args, extra, tmp_path):
    res = run_without(module, args, tmp_path)
    assert res.returncode == 2, (res.returncode, res.stderr)
    assert f"pip install -e '.[{extra}]'" in res.stderr  # a checkout (this one) cannot install by name
    assert "Traceback" not in res.stderr + res.stdout
    assert res.stdout == ""


def test_the_install_hint_names_the_checkout_form_in_a_clone_and_the_package_for_a_wheel(monkeypatch, tmp_path):
    """A clone cannot reach 'mbrules[plots]' by name (pip would fetch the published package): there the
    hint is pip install -e '.[plots]'; an installed wheel (no pyproject beside the package) keeps the name."""
    from mbrules import _paths

    assert _paths.install_hint("plots") == "pip install -e '.[plots]'"  # the tests run in a checkout
    monkeypatch.setattr(_paths, "CHECKOUT_DIR", tmp_path)  # site-packages: no pyproject.toml, no rulesets/
    assert _paths.install_hint("plots") == "pip install 'mbrules[plots]'"
