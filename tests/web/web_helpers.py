"""What the tests of ``mbrules serve`` share: a real server process on 127.0.0.1, its HTTP API,
seat sockets, and a seeded deal in which a coup fourré window opens for a person's seat."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from websockets.sync.client import connect

from procs import rss_kb

ROOT = Path(__file__).resolve().parents[2]
START = re.compile(r"^mbrules serve: (http://127\.0\.0\.1:\d+)/ \(tables in (.+); (\d+) resumed\)$")


def client(url: str, address: str | None = None, timeout: float = 30) -> httpx.Client:
    """An HTTP client of a test server (plain http on loopback), from ``address`` (a loopback address of its
    own: the server bounds what one address may do) if given. No TLS is ever spoken, so the client loads no
    certificate store (httpx's default context reads the system's CA file: 0.1 CPU-s a client)."""
    transport = None if address is None else httpx.HTTPTransport(local_address=address, verify=False)
    return httpx.Client(base_url=url, timeout=timeout, transport=transport, verify=False)


class ServerApi:
    """The HTTP API of a server on ``url`` (``http``: a client from 127.0.0.1; ``db``: its database file)."""

    url: str
    db: str | Path
    http: httpx.Client
    opened: int

    def open_table(self, **body) -> dict:
        """A table opened through the API by a host of its own, on a loopback address of its own
        (127.0.0.10, .11, ...): the server bounds the tables an address opens (tests/web/test_web_security.py)."""
        body = {"ruleset": "winning-moves", "options": [], "players": 4, "pace": 0, **body}
        self.opened += 1
        with client(self.url, f"127.0.0.{10 + self.opened % 240}") as host:
            r = host.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        return r.json()

    def host(self, table: dict) -> dict:
        return self.http.get(path(table["host_url"]).replace("/host/", "/api/host/")).json()

    def host_post(self, table: dict, what: str, body: dict | None = None):
        return self.http.post(path(table["host_url"]).replace("/host/", "/api/host/") + "/" + what, json=body or {})

    def seat_url(self, table: dict, p: int) -> str:
        """Seat ``p``'s link on this server (a link keeps its path when the server comes back on another port)."""
        return self.url + path(table["seats"][p]["url"])

    def steps(self, table: dict) -> list:
        """The table's stored steps, read from its database (the export holds only the hands that are over
        while the match is in play)."""
        from mbrules.web.store import Store

        store = Store(self.db)
        try:
            found = store.load(table["table"])
        finally:
            store.close()
        assert found is not None
        return list(found.steps)

    def export(self, table: dict) -> str:
        r = self.http.get(path(table["export_url"]))
        assert r.status_code == 200, r.text
        return r.text


class Server(ServerApi):
    """``python -m mbrules.cli serve --port 0 --db DB`` in a real process; ``url`` from its start line."""

    def __init__(
        self,
        db: Path,
        log: Path,
        port: int = 0,
        args: tuple[str, ...] = (),
        preexec=None,
        argv: list[str] | None = None,
    ):
        """``args``: more flags of ``serve``; ``preexec``: run in the child before it starts (its limits);
        ``argv``: another command line that prints serve's start line (a server made with settings the command's
        flags do not have: test_web_slow_clients' short bounds)."""
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        env.pop("COLUMNS", None)
        self.log = open(log, "ab")
        serve = [sys.executable, "-m", "mbrules.cli", "serve", "--host", "127.0.0.1"]
        serve += ["--port", str(port), "--db", str(db), *args]
        self.proc = subprocess.Popen(
            argv if argv is not None else serve,
            stdout=subprocess.PIPE,
            stderr=self.log,
            cwd=str(ROOT),
            env=env,
            text=True,
            preexec_fn=preexec,
        )
        line = self.proc.stdout.readline().strip()
        m = START.match(line)
        if m is None:
            self.proc.kill()
            raise AssertionError(f"no start line: {line!r}; log: {Path(log).read_text()[-2000:]}")
        self.url, self.db, self.resumed = m.group(1), m.group(2), int(m.group(3))
        self.http = client(self.url)
        self.opened = 0

    def stop(self, sig=signal.SIGTERM) -> tuple[int, str]:
        self.http.close()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            out, _ = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, _ = self.proc.communicate()
        self.log.close()
        return self.proc.returncode, out

    def kill(self) -> None:
        self.http.close()
        self.proc.kill()  # SIGKILL: nothing gets to run
        self.proc.wait(timeout=30)
        self.log.close()

    def rss_kib(self) -> int:
        return rss_kb(self.proc.pid)


def module_server(tmp_path_factory, args: tuple[str, ...] = ()):
    """A module's server (``server = pytest.fixture(scope="module")(module_server)``); at the end its log
    holds no traceback: every refusal was in words, none a crash. ``args``: more flags of ``serve``."""
    d = tmp_path_factory.mktemp("serve")
    s = Server(d / "tables.sqlite3", d / "server.log", args=args)
    yield s
    s.stop()
    assert "Traceback" not in (d / "server.log").read_text()


def posing_as_many(server: ServerApi, most: int) -> list[int]:
    """Requests from 127.0.0.1, each claiming another client address in ``X-Forwarded-For``, until the
    first 429 (at most ``most``); their status codes. On a server that believes no proxy, 127.0.0.1 is left
    without tokens of its request bucket for the next HTTP_BURST / HTTP_RATE seconds."""
    codes: list[int] = []
    with client(server.url) as c:
        while len(codes) < most and 429 not in codes:
            i = len(codes)
            codes.append(c.get("/play/x/y", headers={"X-Forwarded-For": f"10.9.{i // 250}.{i % 250 + 1}"}).status_code)
    return codes


def path(url: str) -> str:
    from urllib.parse import urlsplit

    return urlsplit(url).path


def ws_url(seat_url: str) -> str:
    return seat_url.replace("http://", "ws://").replace("/play/", "/ws/")


class SeatClient:
    """A seat's socket, keeping every message it received (the leak checks read them all)."""

    def __init__(self, seat_url: str):
        self.ws = connect(ws_url(seat_url), max_size=2**24, open_timeout=20).__enter__()  # closed by close()
        self.received: list[dict] = []
        self.view: dict | None = None

    def _take(self, msg: dict) -> dict:
        self.received.append(msg)
        if msg["type"] == "state":
            self.view = msg
        return msg

    def recv(self, timeout: float = 20) -> dict:
        return self._take(json.loads(self.ws.recv(timeout=timeout)))

    def until(self, pred, timeout: float = 30) -> dict:
        """Read messages until one satisfies ``pred`` (bounded by ``timeout`` seconds)."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such message in {timeout} s; last view: {json.dumps(self.view)[:600]}")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def settle(self, quiet: float = 0.3) -> dict:
        """Read until nothing more comes for ``quiet`` seconds; the newest view."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return self.view

    def send(self, obj) -> None:
        self.ws.send(obj if isinstance(obj, (str, bytes)) else json.dumps(obj))

    def act(self, action: str, version: int | None = None) -> None:
        self.send({"type": "act", "action": action, "version": self.view["version"] if version is None else version})

    def close(self) -> None:
        self.ws.close()


def my_move(view: dict) -> str | None:
    """The tests' person policy: the coup fourré call in a window, else the first move offered."""
    moves = view["moves"]
    if not moves:
        return None
    calls = [m for m in moves if m["op"] == "coup-fourre"]
    return (calls or moves)[0]["action"]


def window_seed(
    seats: list[str], ruleset: str = "winning-moves", options=(), limit: int = 400, within: int | None = None
) -> tuple[int, int]:
    """A seed whose first hand, with the persons playing :func:`my_move`, opens a coup fourré window for
    a person (the seed, and the person it opens for); ``within``: in that many person moves at most."""
    from mbrules.web.rules import bundled_choice
    from mbrules.web.table import Table, table_setup

    rules = bundled_choice(ruleset, list(options))
    for seed in range(limit):
        t = Table("find", table_setup(rules, len(seats), seats, seed, 0), rules, None)
        moves = 0
        while t.state.hand_no == 0 and not t.state.hand_over:
            while t.step_once():
                pass
            p = t.deciding()
            if p < 0:
                break
            v = t.view(p)
            if v["obs"]["decision"]["kind"] == "coup_fourre":
                return seed, p
            moves += 1
            if within is not None and moves > within:
                break
            assert t.act(p, my_move(v), t.version_for(p)) is None
    raise AssertionError("no seed opens a window for a person")


def allowed_observations(db: str, table_id: str, seat: int) -> set[str]:
    """Every observation ``seat`` may have been shown at this table (JSON, sorted keys): rebuilt from the
    stored record by dealing the seed again and playing the steps, watching the seat's observation
    before and after every action, then the implicit tail (the draws, a window let pass) the record
    does not hold yet."""
    from mbrules.engine import Observer
    from mbrules.vocab import DRAW
    from mbrules.web.rules import choice_from_setup
    from mbrules.web.store import Store
    from mbrules.web.table import Table

    store = Store(db)
    try:
        stored = store.load(table_id)
    finally:
        store.close()
    t = Table(table_id, stored.setup, choice_from_setup(stored.setup), None)
    seen: set[str] = set()

    def note(st) -> None:
        seen.add(json.dumps(st.observation(seat).to_dict(), sort_keys=True))

    class Watch(Observer):
        def before_action(self, st, player, action):
            note(st)

        def after_action(self, st, player, action):
            note(st)

    t.state.add_observer(Watch())
    note(t.state)
    t.restore(stored.steps)
    note(t.state)
    for branch in range(2):
        st = t.state.clone()
        st.add_observer(Watch())
        if st.hand_over and not st.is_terminal():
            st.next_hand()
            note(st)
        for _ in range(20):
            legal = st.legal_actions()
            if len(legal) == 1 and legal[0].op == DRAW:
                st.apply(legal[0])
            elif branch == 1 and st.decision.kind == "coup_fourre":
                st.apply(t.game.decline_action)
            else:
                break
    return seen


PUBLIC_KEYS = {
    "type",
    "table",
    "version",
    "seat",
    "obs",
    "moves",
    "question",
    "why_not",
    "narration",
    "sheets",
    "seats",
    "hand_over",
    "match_over",
    "status",
    "you_ready",
    "again",
}


def check_nothing_leaked(messages: list[dict], allowed: set[str], seat_name: str) -> int:
    """Every message a seat received shows what its observation allows: its own observation (one it
    may have had), moves and reasons about cards in its own hand, no key but the public ones.
    Returns how many views were checked."""
    views = 0
    for msg in messages:
        if msg["type"] == "welcome":
            assert msg["seat"] == seat_name
            assert set(msg) == {
                "type",
                "table",
                "seat",
                "ruleset",
                "ruleset_id",
                "options",
                "cards",
                "sides",
                "unit",
                "rules",
                "changes",
            }
            continue
        if msg["type"] == "refused":
            assert set(msg) <= {"type", "code", "message", "version"}
            continue
        assert msg["type"] == "state", msg["type"]
        assert set(msg) == PUBLIC_KEYS
        assert msg["seat"] == seat_name
        assert json.dumps(msg["obs"], sort_keys=True) in allowed, f"an observation {seat_name} never had"
        hand = set(msg["obs"]["hand"])
        assert {m["card"] for m in msg["moves"] if m["card"]} <= hand
        assert set(msg["why_not"]) <= hand
        views += 1
    return views


HOUSE_RULES = ["draw-from-discard", "mulligan", "fast-play-remedy"]  # the decisions a person makes with them
HOUSE_DECISIONS = {"pile", "discard", "mulligan", "fast"}


def house_move(view: dict, done: set[str]) -> str:
    """The tests' person policy with :data:`HOUSE_RULES`, noting in ``done`` each decision taken: a
    fast-play window answered with the remedy, then at the draw: the discard pile's top once, a
    mulligan of the first card once (after the discard top), else the draw pile; a mulligan under way
    ends at once; any other decision: the first move (a coup fourré called)."""
    moves = view["moves"]
    kind = view["obs"]["decision"]["kind"]
    acts = [m["action"] for m in moves]
    if kind == "fast_play":
        done.add("fast")
        return next(m["action"] for m in moves if m["op"] == "fast-play")
    if kind == "mulligan":
        return "draw"
    if any(m["op"] == "draw" for m in moves):
        if "discard" in done and "mulligan" not in done and any(m["op"] == "mulligan" for m in moves):
            done.add("mulligan")
            return f"mulligan {view['obs']['hand'][0]}"
        if "draw discard" in acts and "discard" not in done:
            done.add("discard")
            return "draw discard"
        done.add("pile")
        return "draw"
    return my_move(view)


def house_seed(seats: list[str], limit: int = 300, within: int = 30) -> tuple[int, int]:
    """A seed whose first hand, the persons playing :func:`house_move`, brings every one of
    :data:`HOUSE_DECISIONS` in ``within`` person moves: (the seed, the person moves it takes)."""
    from mbrules.web.rules import bundled_choice
    from mbrules.web.table import Table, table_setup

    rules = bundled_choice("winning-moves", HOUSE_RULES)
    for seed in range(limit):
        t = Table("find", table_setup(rules, len(seats), seats, seed, 0), rules, None)
        done: set[str] = set()
        for n in range(1, within + 1):
            while t.step_once():
                pass
            p = t.deciding()
            if p < 0:
                break
            assert t.act(p, house_move(t.view(p), done), t.version_for(p)) is None
            if done >= HOUSE_DECISIONS:
                return seed, n
    raise AssertionError(f"no seed below {limit} brings every house-rule decision in {within} moves")


class InProcessServer(ServerApi):
    """The application of a :class:`~mbrules.web.lobby.Lobby` the test holds, served by uvicorn on
    127.0.0.1 from a thread of this process (the test may then move the lobby's clock); ``url``."""

    def __init__(self, lobby):
        import threading

        import uvicorn

        from mbrules.web.app import create_app
        from mbrules.web.server import bind

        sock = bind("127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        self.server = uvicorn.Server(
            uvicorn.Config(create_app(lobby), log_level="warning", access_log=False, lifespan="on")
        )
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.05)
        self.http = client(self.url)
        self.db, self.opened = lobby.store.path, 0

    def close(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(timeout=30)


class _Crashes(logging.Handler):
    """Keeps every record logged with a traceback or at ERROR and above."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or record.levelno >= logging.ERROR:
            self.seen.append(record)


@contextlib.contextmanager
def served_in_process(folder: Path) -> Iterator[InProcessServer]:
    """A server of a new store in FOLDER, in this process, for the tests about what the server answers, not
    about its process: a server process cost a Python start and the web stack's imports (about 0.8 CPU-s;
    issue 46 point 7). At the end nothing was logged with a traceback or as an error (as module_server reads
    its process's log for a traceback)."""
    from mbrules.web.lobby import Lobby
    from mbrules.web.store import Store

    s = InProcessServer(Lobby(Store(folder / "tables.sqlite3")))
    crashes = _Crashes()  # after uvicorn's Config: it sets its loggers' handlers anew
    loggers = [logging.getLogger(), logging.getLogger("uvicorn")]  # uvicorn's do not propagate to the root
    for lg in loggers:
        lg.addHandler(crashes)
    try:
        yield s
    finally:
        s.close()
        for lg in loggers:
            lg.removeHandler(crashes)
    assert not crashes.seen, [crashes.format(r) for r in crashes.seen]


def module_in_process_server(tmp_path_factory):
    """A module's server in this process (``server = pytest.fixture(scope="module")(module_in_process_server)``):
    :func:`served_in_process`."""
    with served_in_process(tmp_path_factory.mktemp("serve")) as s:
        yield s
