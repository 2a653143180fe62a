"""benchmarks/bench_env.py runs and prints each toolkit's rate against the engine's with the issue's goals."""

from __future__ import annotations

import importlib.util
import pathlib
import re

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "benchmarks" / "bench_env.py"


def test_bench_env_prints_v1_v0_and_openspiel_against_the_engine_with_the_goals(capsys):
    spec = importlib.util.spec_from_file_location("bench_env", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main(["--steps", "150", "--hands", "4", "--repeat", "1", "--ruleset", "kids-115", "--players", "2"])
    out = capsys.readouterr().out
    assert re.search(r"engine [\d,]+ actions/cpu-s; v1 [\d,]+ steps/cpu-s \(\d\.\d+\)", out)
    assert re.search(r"mille_bornes_v1 steps with observations: \d\.\d+ .* goal >= 0\.25: (met|NOT met)", out)
    assert re.search(r"OpenSpiel actions: \d\.\d+ .* goal >= 0\.4: (met|NOT met)", out)
