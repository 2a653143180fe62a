"""Connections bounded below the application, where a request that never finishes its headers lives.

uvicorn hands a request to the application only once its headers are complete, and times out only
the idle time between two requests of a connection (a byte trickled now and then resets even that).
So a client that opens connections and never finishes a request holds a file descriptor each for
ever; past the process's limit (1,024 by default on most systems) the server accepts nothing, and
``/health`` with it. :class:`GuardedH11` (uvicorn's h11 protocol) bounds them where they are accepted:

- :data:`PER_ADDRESS` connections a client address (HTTP and sockets together; a browser holds at
  most six to a server and a page one socket): one past it is answered 503 and closed at once;
- :func:`max_connections` in all (the descriptors the process may open, less a reserve for the
  database and the logs): one past it closes the oldest connection still waiting for its headers
  (or, with none, is closed itself);
- :data:`HEADER_TIMEOUT` seconds to send a request's headers, from the connection's opening or from
  the previous response (a trickle does not reset it): then 408 and closed.

A proxy the host trusts (``serve --forwarded-allow-ips``) is no client: its connections count only
towards the total. The body of a request is bounded in time by :func:`mbrules.web.guard.read_json`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import resource
from collections import OrderedDict
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("mbrules.web")

PER_ADDRESS = 64  # connections one client address may hold open (a household behind one router: ~9 browsers)
MOST_CONNECTIONS = 10_000  # connections in all, at most, whatever the descriptor limit
RESERVE = 64  # descriptors kept for the database, the logs, the listening socket
HEADER_TIMEOUT = 10.0  # seconds a request's headers may take to arrive
KEEP_ALIVE = 5  # seconds an idle connection is kept between two requests (uvicorn's timeout_keep_alive)
MAX_HEADERS = 16 * 1024  # bytes of a request's line and headers (h11's bound; past it: 400)

TOO_MANY = b"too many connections from your address: close some and try again\n"
TOO_SLOW = b"the request's headers took too long\n"


def max_connections() -> int:
    """Connections in all: the descriptors this process may open, less :data:`RESERVE`."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MOST_CONNECTIONS
    return max(16, min(MOST_CONNECTIONS, soft - RESERVE))


def _answer(status: bytes, text: bytes) -> bytes:
    head = f"HTTP/1.1 {status.decode()}\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
    return head.encode() + f"content-length: {len(text)}\r\n\r\n".encode() + text


class Connections:
    """The connections open, by client address, and those still waiting for their headers (oldest first)."""

    def __init__(self, per_address: int, total: int, proxies: list[str] | None = None):
        self.per_address, self.total = per_address, total
        self.open: dict[str, int] = {}
        self.count = 0
        self.waiting: OrderedDict[GuardedH11, None] = OrderedDict()
        self.any_proxy = bool(proxies) and "*" in (proxies or [])
        self.proxies = [ipaddress.ip_network(p, strict=False) for p in proxies or [] if p != "*"]

    def _is_proxy(self, address: str) -> bool:
        if self.any_proxy:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.proxies)

    def admit(self, address: str) -> bool:
        """Count a new connection from ``address``; False when that address holds its share already, or
        when every connection is taken and none is waiting for headers (the oldest that is is closed)."""
        if self.open.get(address, 0) >= self.per_address and not self._is_proxy(address):
            return False
        if self.count >= self.total:
            if not self.waiting:
                return False
            oldest = next(iter(self.waiting))
            log.warning("%d connections open: the oldest waiting for its headers (%s) closed", self.count, oldest.peer)
            oldest.too_slow()
        self.open[address] = self.open.get(address, 0) + 1
        self.count += 1
        return True

    def release(self, address: str) -> None:
        left = self.open.get(address, 0) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)
        self.count -= 1


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with the bounds of :class:`Connections` (``guard``, set by :func:`protocol`)."""

    guard: Connections
    header_timeout: float = HEADER_TIMEOUT

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self.peer = self.client[0] if self.client else "?"
        self.counted = self.guard.admit(self.peer)
        self.timer: asyncio.TimerHandle | None = None
        if not self.counted:
            log.warning("too many connections from %s: one refused", self.peer)
            self.transport.write(_answer(b"503 Service Unavailable", TOO_MANY))
            self.transport.close()
            return
        self._wait_for_headers()

    def _wait_for_headers(self) -> None:
        self._stop_waiting()
        self.guard.waiting[self] = None
        self.timer = self.loop.call_later(self.header_timeout, self.too_slow)

    def _stop_waiting(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.guard.waiting.pop(self, None)

    def too_slow(self) -> None:
        """The headers did not come in time (or room is needed for a new connection): 408, closed."""
        self._stop_waiting()
        if not self.transport.is_closing():
            self.transport.write(_answer(b"408 Request Timeout", TOO_SLOW))
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.timer is not None and self.conn.their_state is not h11.IDLE:  # the headers are in
            self._stop_waiting()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.counted and not self.transport.is_closing():
            self._wait_for_headers()  # the next request's headers, on a kept-alive connection

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        super().handle_websocket_upgrade(event)
        self._stop_waiting()
        socket = self.transport.get_protocol()  # uvicorn's socket protocol now owns the connection
        lost = socket.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            try:
                lost(exc)
            finally:
                self._release()

        socket.connection_lost = connection_lost  # type: ignore[method-assign]

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)
        finally:
            self._stop_waiting()
            if self.transport.get_protocol() is self:  # not handed to a socket's protocol
                self._release()

    def _release(self) -> None:
        if self.counted:
            self.counted = False
            self.guard.release(self.peer)


def protocol(
    proxies: list[str] | None, per_address: int = PER_ADDRESS, header_timeout: float = HEADER_TIMEOUT
) -> type[GuardedH11]:
    """The protocol class for one server: its own :class:`Connections`, and ``header_timeout`` (docs/web.md's
    10 s; a test gives a shorter bound to see a slow client dropped sooner)."""
    guard = Connections(per_address, max_connections(), proxies)
    return type("ServerH11", (GuardedH11,), {"guard": guard, "header_timeout": header_timeout})


__all__ = ["HEADER_TIMEOUT", "KEEP_ALIVE", "MAX_HEADERS", "PER_ADDRESS", "Connections", "GuardedH11", "protocol"]
