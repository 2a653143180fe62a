"""A command's processes watched through Linux's /proc (psutil is not a dependency): its workers, their
CPU time, whether they still run. Tests that signal a running command wait on CPU time, not on a fixed
sleep: a sleep long enough for a loaded machine wastes the cores on a quiet one, and a short one finds the
command still importing its modules on a busy one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

needs_proc = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not Path("/proc/self/task").is_dir(), reason="needs Linux /proc"
)


def children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            try:
                out += [int(x) for x in Path(f"/proc/{pid}/task/{t}/children").read_text().split()]
            except OSError:
                pass
    except OSError:
        pass
    return out


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent to reap it is not running)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def rss_kb(pid: int) -> int:
    """The process's resident memory (VmRSS), in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def wait_workers(p: subprocess.Popen, n: int = 2, timeout: float = 15) -> list[int]:
    """The command's child processes once there are N of them (fails, killing it, after TIMEOUT seconds)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        kids = children(p.pid)
        if len(kids) >= n:
            return kids
        if p.poll() is not None:
            break
        time.sleep(0.05)
    p.kill()
    raise AssertionError(f"the workers did not start: {children(p.pid)}; {p.communicate()[1][-1000:]}")


def cpu_seconds(pid: int) -> float:
    """The process's own CPU time so far (user + system; not its children's)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_cpu(pids: list[int], seconds: float, p: subprocess.Popen, timeout: float = 120) -> None:
    """Wait until each process has used ``seconds`` of CPU: past its start-up, into the work, however loaded
    the machine."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(cpu_seconds(q) >= seconds for q in pids):
            return
        if p.poll() is not None:
            raise AssertionError(f"the command ended before the signal: {p.communicate()[1][-1000:]}")
        time.sleep(0.05)
    p.kill()
    raise AssertionError(f"the command did not reach {seconds} CPU-s in {timeout} s")


def gone_within(pids: list[int], seconds: float) -> float:
    """Seconds until every pid is gone; fails after ``seconds`` (and kills what is left)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        if not any(alive(q) for q in pids):
            return time.monotonic() - t0
        time.sleep(0.01)
    left = [q for q in pids if alive(q)]
    for q in left:
        os.kill(q, signal.SIGKILL)
    raise AssertionError(f"worker processes {left} still running {seconds} s after the signal")
