"""--backend ray: the same figures as the local process pool, on a local instance and on a two-node cluster.

Every test drives the real ``mbrules`` command. Ray starts slowly (5 to 15 s a cluster), so each
test plays few games; what is checked is that the figures are *identical*, not their size.
"""

from __future__ import annotations

import re
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the cluster extra (pip install 'mbrules[cluster]') is not installed")

pytestmark = pytest.mark.slow  # starts Ray instances and real processes: make test-fast leaves it out

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(sys.executable).parent / "mbrules"
CMD = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-c", "from mbrules.cli.app import main; main()"]
RAY = Path(sys.executable).parent / "ray"
TIMINGS = ("seconds", "hands_per_second", "turns_per_second")
# the test cluster listens on 127.0.0.1 only and lives for one test: no token to hand between its nodes
LOOPBACK = {"RAY_DISABLE_USAGE_STATS": "1", "RAY_AUTH_MODE": "disabled"}


def mb(args: list[str], cwd: Path, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    e = {**os.environ, "RAY_DISABLE_USAGE_STATS": "1", **(env or {})}
    p = subprocess.run(CMD + args, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=e)
    assert "Traceback" not in p.stderr, p.stderr[-3000:]
    return p


def figures(doc: dict) -> dict:
    """The document without what may differ between backends: timings, the backend's name, where it ran."""
    doc = json.loads(json.dumps(doc))
    for k in TIMINGS + ("cluster",):
        doc.pop(k, None)
    doc.get("settings", {}).pop("backend", None)
    doc.pop("seconds_per_arm", None)
    doc.pop("timings", None)
    return doc


SIM = ["simulate", "--games", "24", "--players", "2", "--bot", "random", "--seed", "5", "--workers", "2", "--json"]


@pytest.fixture(scope="module")
def local_simulation(tmp_path_factory) -> dict:
    p = mb(SIM, tmp_path_factory.mktemp("local"))
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_simulate_on_a_local_ray_instance_equals_the_process_pool(tmp_path, local_simulation):
    p = mb(SIM + ["--backend", "ray"], tmp_path)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["settings"]["backend"] == "ray" and doc["cluster"]["nodes_used"] == 1
    assert figures(doc) == figures(local_simulation)


def test_compare_on_a_local_ray_instance_equals_the_process_pool(tmp_path):
    args = [
        "compare",
        "winning-moves",
        "--option-b",
        "hazard-on-hazard",
        "--players",
        "2",
        "--games",
        "12",
        "--skill-games",
        "4",
        "--bot",
        "random",
        "--bots",
        "random",
        "--robust-games",
        "4",
        "--rung",
        "random",
        "--rung",
        "heuristic",
        "--workers",
        "2",
        "--json",
    ]
    local = mb(args, tmp_path)
    on_ray = mb(args + ["--backend", "ray"], tmp_path)
    assert local.returncode == 0 and on_ray.returncode == 0, local.stderr + on_ray.stderr
    assert figures(json.loads(local.stdout)) == figures(json.loads(on_ray.stdout))


def test_ladder_on_a_local_ray_instance_equals_the_process_pool(tmp_path):
    args = [
        "ladder",
        "--bot",
        "random",
        "--bot",
        "heuristic",
        "--players",
        "2",
        "--games",
        "6",
        "--workers",
        "2",
        "--json",
    ]
    local = mb(args, tmp_path)
    on_ray = mb(args + ["--backend", "ray"], tmp_path)
    assert local.returncode == 0 and on_ray.returncode == 0, local.stderr + on_ray.stderr
    assert figures(json.loads(local.stdout)) == figures(json.loads(on_ray.stdout))


def test_a_worker_killed_mid_run_loses_and_doubles_no_game(tmp_path, local_simulation):
    marker = tmp_path / "killed"
    chunk_start = 4  # the worker that plays the chunk starting at game 4 dies once; Ray retries the range
    p = mb(SIM + ["--backend", "ray"], tmp_path, env={"MBRULES_TEST_KILL_CHUNK": f"{chunk_start}:{marker}"})
    assert p.returncode == 0, p.stderr
    assert marker.exists(), "no worker was killed: the test did not test anything"
    doc = json.loads(p.stdout)
    assert doc["games"] == 24
    assert figures(doc) == figures(local_simulation)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ray_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(RAY), *args], capture_output=True, text=True, timeout=timeout, env=dict(os.environ, **LOOPBACK)
    )


def _wait_for_nodes(address: str, n: int, timeout: float = 90) -> None:
    probe = (
        "import ray, time\n"
        f"ray.init(address={address!r}, include_dashboard=False, log_to_driver=False, configure_logging=False)\n"
        f"end = time.time() + {timeout}\n"
        f"while sum(1 for x in ray.nodes() if x['Alive']) < {n} and time.time() < end: time.sleep(0.5)\n"
        "print(sum(1 for x in ray.nodes() if x['Alive']))\n"
    )
    p = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=timeout + 60,
        env=dict(os.environ, **LOOPBACK),
    )
    assert p.stdout.strip().endswith(str(n)), p.stdout + p.stderr[-2000:]


@pytest.mark.skipif(not RAY.exists(), reason="the ray command is not installed beside this Python")
def test_a_two_node_cluster_runs_tasks_on_both_nodes_with_the_same_figures(tmp_path, local_simulation):
    """Head and worker node on this machine (one CPU each): the tasks land on both, the figures do not move."""
    port = _free_port()
    address = f"127.0.0.1:{port}"
    try:
        head = _ray_cli(
            "start",
            "--head",
            f"--port={port}",
            "--num-cpus=1",
            "--include-dashboard=false",
            "--node-ip-address=127.0.0.1",
            "--disable-usage-stats",
        )
        assert head.returncode == 0, head.stdout + head.stderr
        second = _ray_cli("start", f"--address={address}", "--num-cpus=1", "--node-ip-address=127.0.0.1")
        assert second.returncode == 0, second.stdout + second.stderr
        _wait_for_nodes(address, 2)  # 'ray start' returns before the second node has joined
        p = mb(SIM + ["--backend", "ray", "--address", address], tmp_path, env=LOOPBACK)
        assert p.returncode == 0, p.stderr
        doc = json.loads(p.stdout)
        # how we know the tasks ran on both nodes: each task returns the id of the node that ran it
        # (ray.get_runtime_context().get_node_id()), and the command reports how many distinct ids it saw
        assert doc["cluster"] == {"address": address, "nodes_used": 2}
        assert figures(doc) == figures(local_simulation)
    finally:
        _ray_cli("stop", "--force")


def test_backend_ray_without_ray_installed_is_a_usage_error(tmp_path):
    fake = tmp_path / "noray"
    fake.mkdir()
    (fake / "ray.py").write_text("raise ImportError('not installed here')\n", encoding="utf-8")
    p = mb(SIM + ["--backend", "ray"], tmp_path, env={"PYTHONPATH": str(fake)})
    # a checkout (this suite's) is told pip install -e '.[cluster]', an installed wheel 'mbrules[cluster]'
    assert p.returncode == 2 and re.search(r"pip install (-e '\.\[cluster\]'|'mbrules\[cluster\]')", p.stderr), p.stderr
    assert p.stdout == ""


def test_an_unknown_backend_and_an_address_without_ray_are_usage_errors(tmp_path):
    p = mb(SIM + ["--backend", "spark"], tmp_path)
    assert p.returncode == 2 and "--backend must be 'local' or 'ray'" in p.stderr
    p = mb(SIM + ["--address", "127.0.0.1:1"], tmp_path)
    assert p.returncode == 2 and "--address goes with --backend ray" in p.stderr


def test_an_unreachable_cluster_is_a_usage_error_not_a_hang(tmp_path):
    p = mb(SIM + ["--backend", "ray", "--address", f"127.0.0.1:{_free_port()}"], tmp_path, timeout=240)
    assert p.returncode == 2 and "cannot start or reach the Ray cluster" in p.stderr, p.stderr[-2000:]
