"""A seat's socket (``WS /ws/{table}/{secret}``): the seat's views out, its moves in.

The seat is the socket's (from its link), never a field of a message. A socket message is at most
:data:`MAX_MESSAGE` bytes (a larger one closes the socket, code 1009, uvicorn's bound), a socket may
send :data:`RATE` messages a second with bursts of :data:`BURST` (past that they are dropped unread,
and :data:`MAX_DROPPED` drops close it, code 1008).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from .jsontypes import Refused, is_whole
from .control import SEAT_REQUESTS, seat_request
from .lobby import Conn, Lobby
from .table import Table

log = logging.getLogger("mbrules.web")

MAX_MESSAGE = 16 * 1024  # bytes of one socket message (an action is about 60)
RATE = 20.0  # socket messages a second, on average
BURST = 40  # socket messages at once
MAX_DROPPED = 100  # messages dropped for the rate before the socket is closed

NOT_UNDERSTOOD: Refused = {"type": "refused", "code": "not-a-move", "message": "that message is not understood"}
TOO_LARGE: Refused = {"type": "refused", "code": "too-large", "message": "that message is too large"}


class Inflow:
    """One socket's message rate: a token bucket of :data:`RATE` a second and :data:`BURST` at once."""

    def __init__(self) -> None:
        self.tokens, self.last, self.dropped = float(BURST), time.monotonic(), 0

    def admit(self) -> bool:
        """Whether the next message is read (a token taken); else it is dropped and counted."""
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.last) * RATE)
        self.last = now
        if self.tokens < 1:
            self.dropped += 1
            return False
        self.tokens -= 1
        return True


class SeatSockets:
    """The seats' sockets of ``lobby``'s tables; :meth:`serve` is the route's endpoint."""

    def __init__(self, lobby: Lobby):
        self.lobby = lobby

    async def serve(self, ws: WebSocket) -> None:
        table = self.lobby.get(ws.path_params["table"])
        seat = table.seat_for(ws.path_params["secret"]) if table is not None else None
        if table is None or seat is None:
            await ws.close(code=1008)  # before accept: the handshake is refused (HTTP 403), nothing sent
            log.warning("a socket with a wrong link was refused (table %s)", str(ws.path_params["table"])[:20])
            return
        await ws.accept()
        conn = Conn(ws, table.id, seat)
        self.lobby.attach(table, seat, conn)
        name = table.game.player_names[seat]
        log.info("table %s: %s joined", table.id, name)
        writer = asyncio.get_running_loop().create_task(conn.writer(self.lobby.keep_sent))
        conn.push(table.welcome(seat))
        self.lobby.broadcast(table)  # everyone sees who is here
        try:
            await self._read(ws, table, seat, conn)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("table %s: %s's socket failed", table.id, name)
        finally:
            self.lobby.detach(conn)
            writer.cancel()
            log.info("table %s: %s left", table.id, name)
            self.lobby.broadcast(table)

    async def _read(self, ws: WebSocket, table: Table, seat: int, conn: Conn) -> None:
        """Read the page's messages until it goes; past the rate they are dropped unread."""
        inflow = Inflow()
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            if not inflow.admit():
                if inflow.dropped >= MAX_DROPPED:
                    log.warning("table %s: %s sent too many messages: closed", table.id, table.game.player_names[seat])
                    await ws.close(code=1008, reason="too many messages")
                    return
                continue
            raw = msg.get("text") if msg.get("text") is not None else msg.get("bytes")
            await self.handle(table, seat, conn, raw)

    async def handle(self, table: Table, seat: int, conn: Conn, raw: str | bytes | None) -> None:
        """One message from seat ``seat``'s page; the seat is the socket's, never a field of the message."""
        if raw is None or len(raw) > MAX_MESSAGE:
            conn.push(TOO_LARGE.copy())
            return
        data = _parse(raw)
        kind = data.get("type") if data is not None else None
        if data is not None and kind == "act":
            await self._act(table, seat, conn, data)
        elif kind == "next-hand":
            async with table.lock:
                dealt = table.press_next_hand(seat)
            if dealt:
                self.lobby.kick(table)
            self.lobby.broadcast(table)
        elif kind in SEAT_REQUESTS:
            said = await seat_request(self.lobby, table, seat, str(kind))
            if said is not None:
                conn.push(said)
        elif kind == "view":
            conn.push(table.view(seat, self.lobby.connected(table.id)))  # its own seat's, whatever it asks for
        else:
            conn.push(NOT_UNDERSTOOD.copy())

    async def _act(self, table: Table, seat: int, conn: Conn, data: dict[str, Any]) -> None:
        """A move: refused with its reason and the seat's view again, or written (off the event loop),
        applied and everyone told; a move the store cannot take now is refused in words."""
        version = data.get("version")
        why = await self.lobby.act(table, seat, data.get("action"), version if is_whole(version) else None)
        if why is not None:
            conn.push({"type": "refused", "code": why.code, "message": why.message, "version": table.version_for(seat)})
            conn.push(table.view(seat, self.lobby.connected(table.id)))
            return
        self.lobby.broadcast(table)
        self.lobby.kick(table)


def _parse(raw: str | bytes) -> dict[str, Any] | None:
    """The message as a JSON object, or None for anything else."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: brackets nested too deep
        return None
    return data if isinstance(data, dict) else None


__all__ = ["BURST", "MAX_DROPPED", "MAX_MESSAGE", "RATE", "SeatSockets"]
