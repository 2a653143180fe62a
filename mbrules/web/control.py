"""The host in control, and the requests a seat's page makes beside its moves.

Routes (added to :func:`mbrules.web.app.create_app`'s):

==========================================  ==========================================================
``POST /api/host/{table}/{secret}/person``  hand seat ``{"seat": n}``, given to a bot, back to its person
``POST /api/host/{table}/{secret}/again``   the match over, open a table with the same rules and seats
==========================================  ==========================================================

A seat's socket may send ``{"type": "ask-back"}`` (the host gave its seat to a bot: the host's page
shows that the person asks for it back) and ``{"type": "again"}`` (the match over: play again; every
seat's page is then sent its own link to the new table). A seat's link the host replaced answers
410 with a sentence saying so (:func:`replaced_link`), not a bare "not found".
"""

from __future__ import annotations

import logging
from typing import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from .guard import REFUSED, read_json, refusal
from .jsontypes import HostView, Refused
from .lobby import Lobby
from .seats import BrowserSeat
from .store import StoreUnavailable
from .table import Table, TableError

log = logging.getLogger("mbrules.web")

REPLACED = "This link was replaced by the host of the table: ask them for your new link.\n"


def replaced_link(lobby: Lobby, table_id: str, secret: str) -> Response | None:
    """The answer to a seat's link that the host replaced (410 and why), else None."""
    table = lobby.tables.get(table_id)
    if table is not None and table.replaced(secret):
        return PlainTextResponse(REPLACED, 410)
    return None


async def seat_request(lobby: Lobby, table: Table, seat: int, kind: str) -> Refused | None:
    """A seat's page asks for its seat back, or to play again; a refusal to send it, or None."""
    if kind == "ask-back":
        if isinstance(table.seats[seat], BrowserSeat):
            return {"type": "refused", "code": "not-a-move", "message": "you play this seat already"}
        table.asking.add(seat)
        log.info("table %s: %s asks for the seat back", table.id, table.game.player_names[seat])
    else:  # "again"
        try:
            await lobby.again(table)
        except TableError as e:
            return {"type": "refused", "code": "not-a-move", "message": str(e)}
        except StoreUnavailable as e:
            return {"type": "refused", "code": "not-saved", "message": f"the table cannot be saved now ({e.why})"}
    lobby.broadcast(table)
    return None


SEAT_REQUESTS = ("ask-back", "again")


def again_host_url(base: str, table: Table) -> str | None:
    """The host's link of the table opened to play ``table`` again, if it was."""
    again = table.setup.get("again")
    return f"{base}/host/{again['table']}/{again['host']}" if isinstance(again, dict) else None


def control_routes(
    lobby: Lobby,
    host_table: Callable[[Request], Table | None],
    describe: Callable[[Request, Table], HostView],
) -> list[Route]:
    """The host's routes of this module; ``host_table`` finds the table a host link names (or None),
    ``describe(request, table)`` is the host's JSON of a table."""

    async def give_back(request: Request) -> Response:
        table = host_table(request)
        if table is None:
            return PlainTextResponse("not found\n", 404)
        try:
            seat = table.seat_number((await read_json(request)).get("seat"))
            await table.change_setup(lambda: table.with_person(seat), lambda saved: table.give_back(seat, saved=saved))
        except REFUSED as e:
            return refusal(e)
        log.info("table %s: the host gave %s back to its person", table.id, table.game.player_names[seat])
        lobby.broadcast(table)
        lobby.kick(table)
        return JSONResponse(describe(request, table))

    async def again(request: Request) -> Response:
        table = host_table(request)
        if table is None:
            return PlainTextResponse("not found\n", 404)
        try:
            await lobby.again(table)
        except (TableError, StoreUnavailable) as e:
            return refusal(e)
        return JSONResponse(describe(request, table))

    return [
        Route("/api/host/{table}/{secret}/person", give_back, methods=["POST"]),
        Route("/api/host/{table}/{secret}/again", again, methods=["POST"]),
    ]


__all__ = ["REPLACED", "SEAT_REQUESTS", "control_routes", "replaced_link", "seat_request"]
