"""Slow clients against a real server process on 127.0.0.1 whose descriptor limit is the usual 1,024:
connections that never finish their headers are bounded per address and in time, so ``/health`` and
other clients are still served (issue 42: 1,100 such connections from one address stopped the server)."""

from __future__ import annotations

import web_extra  # noqa: F401  (first: skips this module without the extra 'web')

import inspect
import re
import resource
import select
import socket
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from mbrules.web.connections import HEADER_TIMEOUT, PER_ADDRESS, protocol
from mbrules.web.guard import BODY_TIMEOUT
from web_helpers import ROOT, Server, client

FLOOD = 1_100
LIMIT = 1_024  # the server's RLIMIT_NOFILE, as on most systems
# the bounds the test's server is made with (serve's header_timeout and body_timeout), not the documented
# 10 s (test_the_server_is_made_with_the_documented_10_s pins those): the same code drops the slow, sooner.
# The flood, /health and /api/catalog take 2 to 3 s under a load of 6 (the server accepting 1,100
# connections), all within the bound: 5 s keeps the 2x margin the 10 s had.
SHORT = 5.0
LAUNCH = (
    "import sys; from pathlib import Path; from mbrules.web.server import serve; "
    "sys.exit(serve('127.0.0.1', 0, Path(sys.argv[1]), header_timeout=float(sys.argv[2]), "
    "body_timeout=float(sys.argv[2])))"
)


class ShortBoundsServer(Server):
    """web_helpers.Server, but ``serve`` called with ``header_timeout`` and ``body_timeout`` of ``seconds``
    (the command's flags have no such setting: a user's server keeps the documented bounds)."""

    def __init__(self, db: Path, log: Path, seconds: float, preexec=None):
        super().__init__(db, log, preexec=preexec, argv=[sys.executable, "-c", LAUNCH, str(db), str(seconds)])


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


def _kept_alive_then_slow(where: tuple[str, int], source: str) -> socket.socket:
    """A kept-alive connection from ``source``: one request answered in full, then the next request's line
    and nothing more. The header bound counts again from the response (a trickle after it must not hold the
    connection for ever: uvicorn's own keep-alive timer stops at the first byte)."""
    s = _open(where, source, b"GET /health HTTP/1.1\r\nhost: x\r\n\r\n")
    assert s is not None
    got = b""
    while not got.endswith(b"\r\n\r\nok\n"):
        more = _answer(s, 5)
        assert more and more != b"(nothing)", got
        got += more
    assert got.startswith(b"HTTP/1.1 200"), got
    s.sendall(b"GET /health HTTP/1.1\r\n")
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


def _answered(socks: list[socket.socket], within: float) -> set[socket.socket]:
    """The sockets of ``socks`` with something to read (an answer or a close) within ``within`` seconds:
    one poll over them all (select.select stops at descriptor 1,024)."""
    poller = select.poll()
    by_fd = {s.fileno(): s for s in socks}
    for fd in by_fd:
        poller.register(fd, select.POLLIN)
    return {by_fd[fd] for fd, _ in poller.poll(within * 1000)}


@pytest.mark.slow
def test_connections_that_never_finish_their_headers_do_not_stop_the_server(tmp_path):
    """1,100 connections from one address that send half a request line: the first PER_ADDRESS wait, the
    others are answered 503 at once; ``/health`` and another address are served meanwhile; the waiting
    ones are closed with 408 after the header bound, as is a kept-alive connection whose next request's
    headers never come after its first response, and a request whose body never arrives after the body bound
    (both SHORT here)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < FLOOD + 200:
        pytest.skip(f"this test opens {FLOOD} sockets: the descriptor limit here is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096) if hard > 0 else 4096), hard))
    server = ShortBoundsServer(tmp_path / "t.sqlite3", tmp_path / "server.log", SHORT, preexec=_server_limit)
    u = urlsplit(server.url)
    where = (u.hostname, u.port)
    held: list[socket.socket] = []
    kept: socket.socket | None = None
    try:
        body = _open(where, "127.0.0.6", b"POST /api/preview HTTP/1.1\r\nhost: x\r\ncontent-length: 100\r\n\r\n{")
        kept = _kept_alive_then_slow(where, "127.0.0.7")
        start = time.monotonic()
        for _ in range(FLOOD):
            s = _open(where, "127.0.0.3", b"GET / HTTP/1.1\r\nhost: x\r\n")
            if s is not None:
                held.append(s)
        with client(server.url, timeout=5) as c:
            assert c.get("/health").text == "ok\n"
        with client(server.url, "127.0.0.4", timeout=5) as c:
            assert c.get("/api/catalog").status_code == 200  # another address is served
        assert len(held) == FLOOD
        answered: set[socket.socket] = set()
        for _ in range(50):  # the 503s come at once; those waiting say nothing
            answered |= _answered([s for s in held if s not in answered], 0.02)
            if len(answered) >= FLOOD - PER_ADDRESS:
                break
        assert time.monotonic() - start < SHORT  # the waiting ones are still within their time
        refused = [s for s in held if s in answered and _answer(s, 1).startswith(b"HTTP/1.1 503")]
        assert len(answered) == len(refused) == FLOOD - PER_ADDRESS
        waiting = [s for s in held if s not in answered]
        late = SHORT + 3 - (time.monotonic() - start)  # (a bound ignored, the documented 10 s, comes too late)
        assert _answer(waiting[0], late).startswith(b"HTTP/1.1 408")
        assert all(_answer(s, 2).startswith(b"HTTP/1.1 408") for s in waiting[1:])
        # its bound counts from the previous response, whose timer started before the flood's
        assert _answer(kept, 2).startswith(b"HTTP/1.1 408")
        slow_body = _answer(body, 5) + _answer(body, 1)
        assert body is not None and f"took longer than {SHORT:g} s".encode() in slow_body, slow_body
    finally:
        for s in [*held, *([kept] if kept else [])]:
            s.close()
        server.stop()


def test_the_server_is_made_with_the_documented_10_s():
    """The bounds a user's server has (the test above makes one with shorter ones): ``serve`` builds its
    protocol and application with HEADER_TIMEOUT and BODY_TIMEOUT, 10 s each, as docs/web.md says."""
    from mbrules.web.app import create_app
    from mbrules.web.server import serve

    assert HEADER_TIMEOUT == BODY_TIMEOUT == 10.0
    defaults = inspect.signature(serve).parameters
    assert defaults["header_timeout"].default == HEADER_TIMEOUT and defaults["body_timeout"].default == BODY_TIMEOUT
    assert inspect.signature(create_app).parameters["body_timeout"].default == BODY_TIMEOUT
    assert protocol(None).header_timeout == HEADER_TIMEOUT and protocol(None, header_timeout=2).header_timeout == 2
    doc = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    assert re.search(r"\| time to send a request's headers \| 10 s ", doc) and re.search(
        r"\| time to send a request's body \| 10 s ", doc
    )
