"""What a client may ask of the server, bounded: requests and tables opened per address (token buckets,
an ASGI middleware), request bodies, and the refusals answered past a bound.

A client (its address; behind a proxy, the address the proxy forwards, as uvicorn reads it) may make
:data:`HTTP_RATE` requests a second with bursts of :data:`HTTP_BURST`, and open :data:`OPEN_RATE`
tables a second with bursts of :data:`OPEN_BURST`; past that it is answered 429 with ``Retry-After``
(``GET /health`` is never limited). A request body is at most :data:`MAX_BODY` bytes, and arrives
within :data:`BODY_TIMEOUT` seconds (the connections themselves: :mod:`mbrules.web.connections`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections import OrderedDict
from typing import Any, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .jsontypes import Errors, is_number, is_whole
from .rules import MAX_UPLOAD, RulesChoiceError
from .store import StoreUnavailable
from .table import TableError

log = logging.getLogger("mbrules.web")

MAX_BODY = 2 * MAX_UPLOAD + 16 * 1024  # a JSON body carrying an upload (escaped) and the choices
HTTP_RATE = 20.0  # HTTP requests a second a client may make, on average (a page loads with six)
HTTP_BURST = 100  # HTTP requests at once
OPEN_RATE = 1 / 3  # tables a client may open a second, on average (twenty a minute)
OPEN_BURST = 20  # tables opened at once
BODY_TIMEOUT = 10.0  # seconds a request's body may take to arrive (144 KiB at 15 KB/s)
MAX_CLIENTS = 10_000  # clients whose request rate is remembered (the least recent is forgotten past it)


class BodyTooLarge(Exception):
    pass


class BodyTooSlow(Exception):
    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds  # the bound the body missed


class Buckets:
    """A token bucket per client: ``rate`` a second, ``burst`` at once; the least recently seen client is
    forgotten past :data:`MAX_CLIENTS` (memory stays bounded whatever the number of addresses)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, burst, clock
        self.kept: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client -> (tokens, when)

    def take(self, client: str) -> float:
        """0 when the client may go on (a token is taken), else the seconds until it may."""
        now = self.clock()
        tokens, last = self.kept.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate
        self.kept[client] = (tokens - 1 if wait == 0 else tokens, now)
        while len(self.kept) > MAX_CLIENTS:
            self.kept.popitem(last=False)
        return wait


class RateLimit:
    """ASGI middleware: every HTTP request of a client (a socket's handshake included) takes a token of
    ``requests``, a table opened one of ``opens`` too; without one the answer is 429 with
    ``Retry-After`` (a socket: closed before it opens), and nothing else runs."""

    def __init__(self, app: ASGIApp, requests: Buckets, opens: Buckets):
        self.app, self.requests, self.opens = app, requests, opens

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope.get("path") == "/health":
            return await self.app(scope, receive, send)
        client = (scope.get("client") or ("?", 0))[0]
        wait = self.requests.take(client)
        if scope["type"] == "websocket":  # a socket's handshake is a request too; refused, it is closed unopened
            if wait:
                log.warning("too many requests from %s: a socket refused", client)
                return await send({"type": "websocket.close", "code": 1008})
            return await self.app(scope, receive, send)
        what = "requests"
        if not wait and scope.get("method") == "POST" and scope.get("path") == "/api/tables":
            wait, what = self.opens.take(client), "tables opened"
        if wait:
            seconds = max(1, math.ceil(wait))
            log.warning("too many %s from %s: refused for %d s", what, client, seconds)
            body: Errors = {"errors": [f"too many {what} from your address: try again in {seconds} s"]}
            answer = JSONResponse(
                body,
                status_code=429,
                headers={"Retry-After": str(seconds)},
            )
            return await answer(scope, receive, send)
        return await self.app(scope, receive, send)


async def read_json(request: Request) -> dict[str, Any]:
    """The request's JSON body, read up to MAX_BODY bytes (a larger one is refused before it is all read)
    within the application's ``state.body_timeout`` seconds (:func:`mbrules.web.app.create_app`'s, BODY_TIMEOUT
    unless the server was made with another): a body trickled slower is refused, 408."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise BodyTooLarge()
    seconds: float = request.app.state.body_timeout  # create_app's
    try:
        body = await asyncio.wait_for(_read_body(request), seconds)
    except asyncio.TimeoutError:
        raise BodyTooSlow(seconds) from None
    try:
        data = json.loads(body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise TableError("the request is not JSON") from None
    except RecursionError:  # brackets nested deeper than the parser goes: refused as any malformed body
        raise TableError("the request's JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise TableError("the request is a JSON object")
    return data


async def _read_body(request: Request) -> bytes:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise BodyTooLarge()
        chunks.append(chunk)
    return b"".join(chunks)


def error(message: str | list[str], status: int = 400) -> JSONResponse:
    lines = message if isinstance(message, list) else [message]
    body: Errors = {"errors": lines}
    return JSONResponse(body, status_code=status)


REFUSED = (BodyTooLarge, BodyTooSlow, RulesChoiceError, TableError, StoreUnavailable)


def refusal(e: Exception) -> JSONResponse:
    """A request refused: 413 for a body too large, 422 for rules that do not check, 503 for a store that
    cannot be written now, else 400."""
    if isinstance(e, BodyTooLarge):
        return error(f"the request is larger than {MAX_BODY // 1024} KiB", 413)
    if isinstance(e, BodyTooSlow):
        return error(f"the request's body took longer than {e.seconds:g} s to arrive", 408)
    if isinstance(e, RulesChoiceError):
        return error(e.lines, 422)
    if isinstance(e, StoreUnavailable):  # another program's lock, a full disk: nothing was done
        answer = error(f"the table cannot be saved now ({e.why}): nothing was changed; try again in a moment", 503)
        answer.headers["Retry-After"] = "2"
        return answer
    return error(str(e))


__all__ = [
    "HTTP_BURST",
    "HTTP_RATE",
    "MAX_BODY",
    "MAX_CLIENTS",
    "OPEN_BURST",
    "OPEN_RATE",
    "REFUSED",
    "BodyTooLarge",
    "BodyTooSlow",
    "Buckets",
    "RateLimit",
    "error",
    "is_number",
    "is_whole",
    "read_json",
    "refusal",
]
