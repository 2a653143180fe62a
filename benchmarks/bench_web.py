"""``mbrules serve`` on loopback: a move's round trip, and many tables at once over time.

    python benchmarks/bench_web.py                      # round trip with 10 busy tables (docs/web.md)
    python benchmarks/bench_web.py --busy 0             # the same with no other table
    python benchmarks/bench_web.py --busy 4 --bot expert --moves 200 --gap 0.1   # four tables of experts (issue 42)
    python benchmarks/bench_web.py soak --tables 50 --seconds 60   # memory over a minute of 50 tables

Round trip: a real server process (``python -m mbrules.cli serve --port 0``, a fresh database) on
127.0.0.1; ``--busy`` tables where bots play on (a pause of ``--pace`` seconds before each bot move,
every seat's page connected so each move is sent to four sockets); one measured table of four
persons, each with its socket open here. The seat that decides sends its move; the round trip is the
time from the send until every one of the four sockets holds the new version of the table. Reported:
the median, the 90th and 99th percentile and the mean (wall, ms), with n; the server process's CPU time (its bot workers not counted) over
the measured moves (user + system from /proc, background tables included) per move; this client's
CPU per move. The goal (issue 38) is a median under 50 ms with 10 busy tables. ``--bot`` names the
busy tables' bots (heuristic; ``expert`` thinks 0.1 to 0.7 s a move). All along, ``GET /health`` is
asked every 50 ms from another address and thread, and its answer times are reported the same way (issue 42: with
four tables of experts, /health and a move at another table within 100 ms at the 99th percentile).

Traced: 40 whole matches through a table and its store in process, then 80 more; Python's traced
memory after each (``python benchmarks/bench_web.py traced``).

Each table has a host of its own, on an address of its own (127.0.0.2, .3, ...): the server bounds
requests and tables opened per address, as it would a host's.

Soak: ``--tables`` tables of bots (the person's seat given to a bot at once) for ``--seconds``, a new
table opened whenever a match ends; the server's resident memory every few seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
START = re.compile(r"^mbrules serve: (http://127\.0\.0\.1:\d+)/ ")
TICK = os.sysconf("SC_CLK_TCK")


def start_server(folder: Path) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mbrules.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            str(folder / "tables.sqlite3"),
        ],
        stdout=subprocess.PIPE,
        stderr=open(folder / "server.log", "wb"),
        text=True,
        cwd=str(ROOT),
        env=env,
    )
    line = proc.stdout.readline()
    m = START.match(line)
    if m is None:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, m.group(1)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime + stime


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def api_path(url: str, what: str = "") -> str:
    from urllib.parse import urlsplit

    return urlsplit(url).path.replace("/host/", "/api/host/") + (f"/{what}" if what else "")


def host_address(k: int) -> str:
    """The loopback address of the host of the ``k``-th table (the server's request bounds are per address)."""
    return f"127.0.0.{2 + k % 250}"


def host_client(url: str, k: int) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=60, transport=httpx.HTTPTransport(local_address=host_address(k)))


def open_table(http: httpx.Client, seats: list[str], seed: int, pace: float) -> dict:
    r = http.post(
        "/api/tables", json={"ruleset": "winning-moves", "players": 4, "seats": seats, "seed": seed, "pace": pace}
    )
    r.raise_for_status()
    return r.json()


class Page:
    """A seat's socket, always reading: the newest view and when each version arrived."""

    def __init__(self, ws):
        self.ws = ws
        self.view: dict | None = None
        self.changed = asyncio.Event()

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                if msg["type"] == "state":
                    self.view = msg
                    self.changed.set()
        except Exception:
            pass

    async def at_least(self, version: int) -> None:
        while self.view is None or self.view["version"] < version:
            self.changed.clear()
            await self.changed.wait()


async def pages_for(url: str, table: dict) -> list[Page]:
    pages = []
    for s in table["seats"]:
        if s["url"]:
            ws = await connect(
                s["url"].replace("http://", "ws://").replace("/play/", "/ws/"), max_size=2**24, open_timeout=120
            )
            page = Page(ws)
            asyncio.get_running_loop().create_task(page.read())
            pages.append(page)
    return pages


def spread(walls: list[float]) -> dict:
    """The median, 90th and 99th percentile, mean and max of answer times (ms)."""
    q = statistics.quantiles(walls, n=100) if len(walls) >= 2 else [walls[0]] * 99
    return {
        "median_ms": statistics.median(walls),
        "p90_ms": q[89],
        "p99_ms": q[98],
        "mean_ms": statistics.fmean(walls),
        "max_ms": max(walls),
    }


def health_times(url: str, stop: threading.Event, times: list[float]) -> None:
    """``GET /health`` every 50 ms until ``stop``, from an address of its own and a thread of its own (the
    moves' event loop does not delay it); each answer's time (ms)."""
    with httpx.Client(base_url=url, timeout=60, transport=httpx.HTTPTransport(local_address="127.0.1.1")) as h:
        while not stop.is_set():
            t0 = time.perf_counter()
            h.get("/health").raise_for_status()
            times.append((time.perf_counter() - t0) * 1000)
            stop.wait(0.05)


async def round_trips(
    url: str,
    proc: subprocess.Popen,
    busy: int,
    pace: float,
    moves: int,
    seed: int,
    bot: str = "heuristic",
    gap: float = 0.0,
    limit: float = 300.0,
) -> dict:
    http = host_client(url, busy)
    background = []
    for i in range(busy):
        with host_client(url, i) as host:
            t = open_table(host, ["person", bot, bot, bot], seed + 1 + i, pace)
            host.post(api_path(t["host_url"], "bot"), json={"seat": 0, "bot": bot}).raise_for_status()
        background.append((t, await pages_for(url, t)))  # the seat's page still open, watching the bots
    stop = asyncio.Event()

    async def deal_on() -> None:
        """The busy tables' hosts deal each next hand, so they stay busy all along."""
        hosts = [
            httpx.AsyncClient(
                base_url=url, timeout=30, transport=httpx.AsyncHTTPTransport(local_address=host_address(i))
            )
            for i in range(len(background))
        ]
        try:
            while not stop.is_set():
                for (t, _), ahttp in zip(background, hosts):
                    h = (await ahttp.get(api_path(t["host_url"]))).json()
                    if h["hand_over"] and not h["match_over"]:
                        await ahttp.post(api_path(t["host_url"], "next-hand"))
                await asyncio.sleep(0.5)
        finally:
            for ahttp in hosts:
                await ahttp.aclose()

    dealer = asyncio.get_running_loop().create_task(deal_on())
    table = open_table(http, ["person"] * 4, seed, 0)
    pages = await pages_for(url, table)
    for p in pages:
        await p.at_least(0)
    await asyncio.sleep(2)  # the busy tables are under way
    healths: list[float] = []
    watching = threading.Event()
    watch = threading.Thread(target=health_times, args=(url, watching, healths), daemon=True)
    watch.start()
    walls: list[float] = []
    started = time.perf_counter()
    cpu0, client0 = cpu_seconds(proc.pid), time.process_time()
    while len(walls) < moves and time.perf_counter() - started < limit:
        view = max((p.view for p in pages), key=lambda v: v["version"])
        deciding = [p for p in pages if p.view["version"] == view["version"] and p.view["moves"]]
        if view["match_over"]:
            break
        if view["hand_over"]:
            for p in pages:
                await p.ws.send(json.dumps({"type": "next-hand"}))
            await asyncio.gather(*(p.at_least(view["version"] + len(pages)) for p in pages))
            continue
        if not deciding:
            await asyncio.sleep(0.005)
            continue
        page = deciding[0]
        moves_now = page.view["moves"]
        calls = [m for m in moves_now if m["op"] == "coup-fourre"]
        action = (calls or moves_now)[0]["action"]
        before = page.view["version"]
        t0 = time.perf_counter()
        await page.ws.send(json.dumps({"type": "act", "action": action, "version": before}))
        await asyncio.wait_for(asyncio.gather(*(p.at_least(before + 1) for p in pages)), 30)
        walls.append((time.perf_counter() - t0) * 1000)
        await asyncio.sleep(gap)  # a person's time to choose: the busy tables play meanwhile
    cpu1, client1 = cpu_seconds(proc.pid), time.process_time()
    stop.set()
    watching.set()
    await dealer
    watch.join()
    progress = 0
    for i, (t, _) in enumerate(background):
        with host_client(url, i) as host:
            progress += host.get(api_path(t["host_url"])).json()["version"]
    for p in pages + [q for _, ps in background for q in ps]:
        await p.ws.close()
    http.close()
    n = len(walls)
    return {
        "busy_tables": busy,
        "busy_bot": bot,
        "pace_s": pace,
        "moves": n,
        **spread(walls),
        "health_asked": len(healths),
        "health": spread(healths),
        "seconds": round(time.perf_counter() - started, 1),
        "server_cpu_ms_per_move": 1000 * (cpu1 - cpu0) / n,
        "client_cpu_ms_per_move": 1000 * (client1 - client0) / n,
        "busy_tables_versions": progress,
    }


def soak(url: str, proc: subprocess.Popen, tables: int, seconds: float, pace: float) -> dict:
    hosts = [host_client(url, i) for i in range(tables)]  # table i's host (a new table there: the same host)
    seeds = iter(range(1000, 10**6))
    opened = [0]

    def new(http: httpx.Client) -> dict:
        opened[0] += 1
        t = open_table(http, ["person", "heuristic", "random", "heuristic"], next(seeds), pace)
        http.post(api_path(t["host_url"], "bot"), json={"seat": 0, "bot": "random"}).raise_for_status()
        return t

    live = [new(h) for h in hosts]
    t0 = time.monotonic()
    samples = []
    while time.monotonic() - t0 < seconds:
        for i, t in enumerate(live):
            http = hosts[i]
            h = http.get(api_path(t["host_url"])).json()
            if h["match_over"]:
                live[i] = new(http)
            elif h["hand_over"]:
                http.post(api_path(t["host_url"], "next-hand"))
        samples.append((round(time.monotonic() - t0, 1), rss_kib(proc.pid), opened[0]))
        time.sleep(max(0.0, 3 - (time.monotonic() - t0) % 3))
    for http in hosts:
        http.close()
    return {
        "tables_at_once": tables,
        "seconds": seconds,
        "pace_s": pace,
        "tables_opened": opened[0],
        "samples_s_rss_kib_opened": samples,
        "rss_growth_kib_after_first_third": samples[-1][1] - samples[len(samples) // 3][1],
    }


def traced(first: int, then: int) -> dict:
    """Python memory (tracemalloc) after ``first`` whole matches through a table and its store, then
    after ``then`` more, in process: what a finished match leaves behind once it is put away."""
    import gc
    import tracemalloc

    from mbrules.web.rules import bundled_choice
    from mbrules.web.store import Store
    from mbrules.web.table import Table, table_setup

    with tempfile.TemporaryDirectory(prefix="bench-web-") as d:
        store = Store(Path(d) / "t.sqlite3")
        rules = bundled_choice("winning-moves", [])

        def match(i: int) -> None:
            setup = table_setup(rules, 4, ["random", "heuristic", "random", "heuristic"], i, 0)
            store.add_table(f"t{i}", setup)
            t = Table(f"t{i}", setup, rules, store)
            while not t.state.is_terminal():
                while t.step_once():
                    pass
                t.view(0)
                t.press_next_hand(None)

        tracemalloc.start()
        for i in range(first):
            match(i)
        gc.collect()
        after_first = tracemalloc.get_traced_memory()[0]
        for i in range(first, first + then):
            match(i)
        gc.collect()
        after_then = tracemalloc.get_traced_memory()[0]
        store.close()
    return {
        "matches_first": first,
        "traced_bytes_after_first": after_first,
        "matches_then": then,
        "traced_bytes_after_then": after_then,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", nargs="?", default="roundtrip", choices=["roundtrip", "soak", "traced"])
    ap.add_argument("--busy", type=int, default=10, help="busy tables beside the measured one (round trip)")
    ap.add_argument("--pace", type=float, default=0.1, help="the busy tables' bots' pause, seconds")
    ap.add_argument("--moves", type=int, default=200, help="moves measured")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--bot", default="heuristic", help="the busy tables' bots (round trip)")
    ap.add_argument("--gap", type=float, default=0.0, help="seconds between two measured moves (round trip)")
    ap.add_argument("--limit", type=float, default=300.0, help="seconds the measured moves may take at most")
    ap.add_argument("--tables", type=int, default=50, help="tables at once (soak)")
    ap.add_argument("--seconds", type=float, default=60, help="how long (soak)")
    args = ap.parse_args()
    if args.what == "traced":
        print(json.dumps(traced(40, 80), indent=1))
        return
    with tempfile.TemporaryDirectory(prefix="bench-web-") as d:
        proc, url = start_server(Path(d))
        try:
            if args.what == "roundtrip":
                out = asyncio.run(
                    round_trips(url, proc, args.busy, args.pace, args.moves, args.seed, args.bot, args.gap, args.limit)
                )
            else:
                out = soak(url, proc, args.tables, args.seconds, args.pace if args.pace != 0.1 else 0.6)
        finally:
            proc.terminate()
            proc.wait(30)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
