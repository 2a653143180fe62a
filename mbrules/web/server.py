"""``mbrules serve``: one process, uvicorn on a socket it binds itself, every table in one SQLite file.

The start line says where to go and where the tables are kept. SIGINT and SIGTERM stop it
gracefully: the sockets are closed, the database (every step already committed) is closed, and
the process exits 130 or 143, as the contract says. Logs (joins, refusals of links, errors) go to
standard error; the access log is off, since a seat's link is a secret and would be logged.
"""

from __future__ import annotations

import gc
import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, TextIO

import uvicorn

from .app import MAX_MESSAGE, create_app
from .connections import HEADER_TIMEOUT, KEEP_ALIVE, MAX_HEADERS, protocol
from .guard import BODY_TIMEOUT
from .lobby import Lobby
from .store import ServerLock, Store, check_store
from .thinking import Thinker

if TYPE_CHECKING:
    from signal import _HANDLER  # typeshed's name for what signal.signal takes and returns (private, types only)

log = logging.getLogger("mbrules.web")


class _Server(uvicorn.Server):
    """uvicorn's server, with the signal that stopped it kept (its own handling would re-raise it)."""

    stopped_by: int | None = None

    def install_signal_handlers(self) -> None:  # uvicorn < 0.29
        self._install()

    @contextmanager
    def capture_signals(self) -> Iterator[None]:  # uvicorn >= 0.29
        old = self._install()
        try:
            yield
        finally:
            for s, h in old.items():
                signal.signal(s, h)

    def _install(self) -> dict[signal.Signals, _HANDLER]:
        if threading.current_thread() is not threading.main_thread():
            return {}

        def handler(signum: int, frame: FrameType | None) -> None:
            if self.stopped_by is None:
                self.stopped_by = signum
            self.should_exit = True

        return {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on sockets whose proto says TCP, and without it a
    # response written in two parts on a kept-alive connection waits ~40 ms for the client's delayed ACK
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(
    host: str,
    port: int,
    db: Path,
    out: TextIO | None = None,
    proxies: list[str] | None = None,
    workers: int | None = None,
    header_timeout: float = HEADER_TIMEOUT,
    body_timeout: float = BODY_TIMEOUT,
) -> int:
    """Serve until SIGINT or SIGTERM; returns the exit code (0, 130, 143). Raises OSError when the
    address cannot be bound and StoreError when the database cannot be used. ``proxies``: the
    addresses whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (uvicorn's
    ``forwarded_allow_ips``); None: nobody's, a client's address is the one it connects from.
    ``header_timeout``, ``body_timeout``: the seconds a request's headers and its body may take (the
    command's are the documented 10 s; tests/web/test_web_slow_clients.py runs a server with shorter ones)."""
    out = out or sys.stdout
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    check_store(db)  # another program's file is refused before anything is written next to it
    lock = ServerLock(db)
    lock.acquire()  # a second server on the same file is refused before it reads or writes it
    try:
        store = Store(db)
    except BaseException:
        lock.release()
        raise
    thinker = Thinker(workers)  # the bots' worker processes (started at the first decision)
    lobby = Lobby(store, thinker=thinker)
    try:
        thinker.start()
        resumed = lobby.resume_all()
        sock = bind(host, port)
        app = create_app(lobby, body_timeout)
        config = uvicorn.Config(
            app,
            log_level="warning",
            access_log=False,
            ws_max_size=MAX_MESSAGE,
            ws_ping_interval=20,
            ws_ping_timeout=20,
            lifespan="on",
            timeout_graceful_shutdown=3,
            # connections bounded per address, in all, and in the time headers take
            http=protocol(proxies, header_timeout=header_timeout),
            timeout_keep_alive=KEEP_ALIVE,
            h11_max_incomplete_event_size=MAX_HEADERS,
            proxy_headers=proxies is not None,  # uvicorn's default trusts 127.0.0.1: one address could pose as many
            forwarded_allow_ips=",".join(proxies or []),
        )
        server = _Server(config)
        shown_host = f"[{host}]" if ":" in host else host
        url = f"http://{shown_host}:{sock.getsockname()[1]}/"
        lock.note(f"pid {os.getpid()}, {url}")
        print(
            f"mbrules serve: {url} (tables in {db}; {resumed} resumed)",
            file=out,
            flush=True,
        )
        gc.freeze()  # what start-up built (modules, rules, resumed tables) is never scanned: shorter GC pauses
        server.run(sockets=[sock])
    finally:
        try:
            n = len(store.table_ids())
        except Exception:
            n = len(lobby.tables)
        thinker.close()
        store.close()
        lock.release()
    if server.stopped_by is not None:
        name = signal.Signals(server.stopped_by).name
        print(f"mbrules serve: stopped ({name}); {n} tables saved in {db}", file=out, flush=True)
        return 128 + server.stopped_by
    return 0


__all__ = ["bind", "serve"]
