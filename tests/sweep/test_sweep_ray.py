"""``mbrules sweep --backend ray``: the same points as the local process pool (a local Ray instance)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="the cluster extra (pip install 'mbrules[cluster]') is not installed")

pytestmark = pytest.mark.slow  # a Ray instance: the fast set does not import this module (nor Ray, ~1 CPU-s)

SCRIPT = Path(sys.executable).parent / "mbrules"
CMD = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-c", "from mbrules.cli.app import main; main()"]


def test_sweep_on_a_local_ray_instance_gives_the_same_points_as_the_process_pool(tmp_path):
    args = [
        "sweep",
        "winning-moves",
        "-p",
        "2",
        "--games",
        "8",
        "--workers",
        "2",
        "--bot",
        "random",
        "--set",
        "player_counts.2.target=500,900",
        "--json",
    ]
    env = {**os.environ, "RAY_DISABLE_USAGE_STATS": "1"}
    runs = []
    for extra in ([], ["--backend", "ray"]):
        p = subprocess.run(CMD + args + extra, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
        assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr[-3000:]
        runs.append(json.loads(p.stdout))
    local, on_ray = runs
    assert on_ray["settings"]["backend"] == "ray"
    assert local["points"] == on_ray["points"] and local["trend"] == on_ray["trend"]
