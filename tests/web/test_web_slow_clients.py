"""Slow clients against a real server process on 127.0.0.1 whose descriptor limit is the usual 1,024:
connections that never finish their headers are bounded per address and in time, so ``/health`` and
other clients are still served (issue 42: 1,100 such connections from one address stopped the server)."""

from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

import resource
import socket
import time
from urllib.parse import urlsplit

import pytest

from mbrules.web.connections import HEADER_TIMEOUT, PER_ADDRESS
from mbrules.web.guard import BODY_TIMEOUT
from web_helpers import Server, client

FLOOD = 1_100
LIMIT = 1_024  # the server's RLIMIT_NOFILE, as on most systems


def _server_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def _open(where: tuple[str, int], source: str, first: bytes) -> socket.socket | None:
    """A connection from ``source`` that sends ``first`` and then nothing; None if it could not connect."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.settimeout(2)
    try:
        s.connect(where)
        s.sendall(first)
    except OSError:
        s.close()
        return None
    return s


def _answer(s: socket.socket, wait: float) -> bytes:
    """What the server sent on ``s`` within ``wait`` seconds (b"" when it closed without a word)."""
    s.settimeout(wait)
    try:
        return s.recv(200)
    except TimeoutError:
        return b"(nothing)"
    except OSError:
        return b""


@pytest.mark.slow
def test_connections_that_never_finish_their_headers_do_not_stop_the_server(tmp_path):
    """1,100 connections from one address that send half a request line: the first PER_ADDRESS wait, the
    others are answered 503 at once; ``/health`` and another address are served meanwhile; the waiting
    ones are closed with 408 after HEADER_TIMEOUT, as is a request whose body never arrives."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < FLOOD + 200:
        pytest.skip(f"this test opens {FLOOD} sockets: the descriptor limit here is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096) if hard > 0 else 4096), hard))
    server = Server(tmp_path / "t.sqlite3", tmp_path / "server.log", preexec=_server_limit)
    u = urlsplit(server.url)
    where = (u.hostname, u.port)
    held: list[socket.socket] = []
    try:
        body = _open(where, "127.0.0.6", b"POST /api/preview HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{")
        start = time.monotonic()
        for _ in range(FLOOD):
            s = _open(where, "127.0.0.3", b"GET / HTTP/1.1\r\nhost: x\r\n")
            if s is not None:
                held.append(s)
        with client(server.url, timeout=5) as c:
            assert c.get("/health").text == "ok\n"
        with client(server.url, "127.0.0.4", timeout=5) as c:
            assert c.get("/api/catalog").status_code == 200  # another address is served
        refused = [s for s in held if _answer(s, 0.05).startswith(b"HTTP/1.1 503")]
        assert len(held) == FLOOD and len(refused) == FLOOD - PER_ADDRESS
        waiting = [s for s in held if s not in refused]
        assert time.monotonic() - start < HEADER_TIMEOUT  # they are still within their time
        late = max(HEADER_TIMEOUT, BODY_TIMEOUT) + 5 - (time.monotonic() - start)
        assert _answer(waiting[0], late).startswith(b"HTTP/1.1 408")
        assert all(_answer(s, 2).startswith(b"HTTP/1.1 408") for s in waiting[1:])
        assert body is not None and b"took longer than" in _answer(body, 5) + _answer(body, 1)
    finally:
        for s in held:
            s.close()
        server.stop()
