"""The ASGI application of ``mbrules serve`` (Starlette): pages, a JSON API for the host, and one
WebSocket a seat.

Routes (every secret is a path segment, never logged):

=====================================  ====================================================
``GET /``                              the host's page: choose the rules, the seats; open
``GET /health``                        200 ``ok`` while the server serves
``GET /api/catalog``                   bundled editions, options and bots
``POST /api/preview``                  the rule changes in words, or the file's errors
``POST /api/tables``                   open a table: the host's link and one link a seat
``GET /host/{table}/{secret}``         the host's page of a table (links, who is here)
``GET /api/host/{table}/{secret}``     the same as JSON; ``POST .../bot`` ``.../next-hand``
                                       ``.../new-link``
``GET /play/{table}/{secret}``         a seat's page (404 for a wrong link: nothing is sent)
``WS /ws/{table}/{secret}``            a seat's socket: its views in, its actions out
``GET /export/{table}/{secret}``       the table's record as a scenario file
=====================================  ====================================================

The HTTP handlers are the methods of :class:`Pages` (the host's and the seats' pages and the host's
API); a seat's socket is :class:`~mbrules.web.sockets.SeatSockets`; the bounds on what a client may
ask (requests and tables opened per address, bodies) are :mod:`mbrules.web.guard`'s, and those on
socket messages :mod:`mbrules.web.sockets`'. The host's ``.../person`` (a seat handed back) and
``.../again`` (play again) are :mod:`mbrules.web.control`'s.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from .guard import (
    BODY_TIMEOUT,
    HTTP_BURST,
    HTTP_RATE,
    MAX_BODY,
    OPEN_BURST,
    OPEN_RATE,
    REFUSED,
    BodyTooLarge,
    Buckets,
    RateLimit,
    is_whole,
    read_json,
    refusal,
)
from .control import again_host_url, control_routes, replaced_link
from .lobby import Lobby
from .jsontypes import Catalog, EditionEntry, Errors, HostView, OptionEntry, Preview, Setup
from .rules import MAX_UPLOAD, Rules, RulesChoiceError, bundled_choice, uploaded_choice
from mbrules.ruleset.render import table_warning
from .seats import PERSON, warm_bots
from .sockets import BURST, MAX_DROPPED, MAX_MESSAGE, RATE, SeatSockets
from .table import Table, TableError

log = logging.getLogger("mbrules.web")

STATIC = Path(str(resources.files("mbrules.web") / "static"))
NOT_FOUND = "not found\n"

# The pages run only their own scripts and talk only to this server (a link is never sent elsewhere).
CSP = (
    "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
)


def _page(name: str) -> HTMLResponse:
    return HTMLResponse(
        (STATIC / name).read_text(encoding="utf-8"),
        headers={
            "Cache-Control": "no-store",
            "Referrer-Policy": "no-referrer",
            "X-Frame-Options": "DENY",
            "Content-Security-Policy": CSP,
        },
    )


def _choice(data: dict[str, Any]) -> Rules:
    """The host's rules from a request: {"ruleset": id, "options": [...]} or {"upload": {"name", "text"}}."""
    options = data.get("options") or []
    if not isinstance(options, list):
        raise RulesChoiceError(["options is a list of bundled option ids"])
    upload = data.get("upload")
    if upload is not None:
        name = upload.get("name") if isinstance(upload, dict) else None
        if not isinstance(upload, dict) or not isinstance(upload.get("text"), str) or not isinstance(name, str | None):
            raise RulesChoiceError(["an upload is {name, text}, both strings"])
        return uploaded_choice(name or "upload.yaml", upload["text"].encode("utf-8", "replace"), options)
    rid = data.get("ruleset")
    if not isinstance(rid, str):
        raise RulesChoiceError(["choose an edition"])
    return bundled_choice(rid, options)


def _players(data: dict[str, Any]) -> int:
    n = data.get("players")
    if not is_whole(n) or not 1 <= n <= 12:  # 1: a one-seat table (option solo)
        raise TableError("players is a whole number from 1 to 12")
    return n


def _catalog() -> Catalog:
    """The bundled editions (with their player counts), options (by category) and bots."""
    from mbrules.bots import bot_descriptions
    from mbrules.ruleset import bundled_option_ids, bundled_ruleset_ids, option_summary, ruleset_summary
    from mbrules.ruleset.listing import OPTION_CATEGORIES

    editions: list[EditionEntry] = []
    for rid in bundled_ruleset_ids():
        s = ruleset_summary(rid)
        rs = bundled_choice(rid, []).ruleset
        players = sorted(int(k) for k in rs.player_counts)
        editions.append({"id": rid, "name": s.name, "description": s.description, "players": players})
    options: list[OptionEntry] = []
    for oid in bundled_option_ids():
        o = option_summary(oid)
        options.append(
            {
                "id": oid,
                "name": o.name,
                "description": o.description,
                "category": o.category,
                "groups": list(o.groups),
            }
        )
    return {
        "editions": editions,
        "options": options,
        "categories": OPTION_CATEGORIES,
        "bots": bot_descriptions(),
        "max_upload": MAX_UPLOAD,
    }


def _gone_text(why: str) -> Response:
    """A seat's link to an expired table: 410 with the sentence saying why."""
    return PlainTextResponse(f"{why[0].upper()}{why[1:]}.\n", 410)


class Pages:
    """The HTTP handlers of ``lobby``'s tables: the pages, the catalog, opening a table, the host's API
    and the export (one method a route, see :meth:`routes`)."""

    def __init__(self, lobby: Lobby):
        self.lobby = lobby

    # -- the host's page before a table ---------------------------------------------------------
    async def index(self, request: Request) -> Response:
        return _page("index.html")

    async def health(self, request: Request) -> Response:
        return PlainTextResponse("ok\n")

    async def catalog(self, request: Request) -> Response:
        return JSONResponse(_catalog())

    async def preview(self, request: Request) -> Response:
        try:
            data = await read_json(request)
            rules = _choice(data)
            players = data.get("players")
            counts = rules.ruleset.player_counts
            chosen = players if is_whole(players) and str(players) in counts else None
            preview: Preview = {
                "name": rules.ruleset.name,
                "changes": rules.changes(),
                "rules": rules.rules_text(chosen),
                "players": sorted(int(k) for k in counts),
                # a table whose hands rarely complete a trip (and the option that fixes it), karma at
                # fewer sides than PlayAural allows, or null
                "warning": table_warning(rules.ruleset, chosen) if chosen is not None else None,
            }
            return JSONResponse(preview)
        except REFUSED as e:
            return refusal(e)

    async def open_table(self, request: Request) -> Response:
        try:
            data = await read_json(request)
            rules = _choice(data)
            players = _players(data)
            seed = data.get("seed")
            # a bot that trains its model on first use does so in a worker thread, not in the event loop
            await asyncio.to_thread(warm_bots, rules.ruleset, players, data.get("seats"))
            table = await self.lobby.open_saved(
                rules, players, data.get("seats"), seed if seed != "" else None, data.get("pace", 0.6)
            )
        except REFUSED as e:
            return refusal(e)
        return JSONResponse(self.host_json(request, table), status_code=201)

    # -- a table's host -------------------------------------------------------------------------
    def host_json(self, request: Request, table: Table) -> HostView:
        """What the host's page shows of ``table``: its links, its seats and who is here, where it is."""
        base = str(request.base_url).rstrip("/")
        g = table.game
        here = self.lobby.connected(table.id)
        host_secret, secrets = table.setup["host_secret"], table.setup["secrets"]
        return {
            "table": table.id,
            "ruleset": table.rules.ruleset.name,
            "options": list(table.rules.options),
            "players": g.players,
            "seed": table.setup["seed"] if table.state.is_terminal() else None,  # it deals every hand to come
            "version": table.version,
            "host_url": f"{base}/host/{table.id}/{host_secret}",
            "export_url": f"{base}/export/{table.id}/{host_secret}",
            "seats": [
                {
                    "name": g.player_names[p],
                    "side": g.side_names[g.side_of[p]],
                    "kind": table.seats[p].kind,
                    "url": f"{base}/play/{table.id}/{secrets[p]}" if table.seats[p].kind == PERSON else None,
                    "here": p in here,
                }
                for p in range(g.players)
            ],
            "hand": table.state.hand_no + 1,
            "hand_over": table.state.hand_over,
            "match_over": table.state.is_terminal(),
            "changes": table.rules.changes(),
            "asking": sorted(table.asking),
            "again": again_host_url(base, table),
        }

    def host_table(self, request: Request) -> Table | None:
        """The table the host's link names, or None for a wrong link."""
        table = self.lobby.get(request.path_params["table"])
        if table is None or not table.is_host(request.path_params["secret"]):
            return None
        return table

    def gone(self, request: Request) -> str | None:
        """Why the table a link names expired (nobody joined it), to a holder of one of its links."""
        return self.lobby.why_gone(request.path_params["table"], request.path_params["secret"])

    async def host_page(self, request: Request) -> Response:
        if self.host_table(request) is not None or self.gone(request) is not None:
            return _page("host.html")  # an expired table's page says why (from the API)
        return PlainTextResponse(NOT_FOUND, 404)

    async def host_api(self, request: Request) -> Response:
        table = self.host_table(request)
        if table is None:
            why = self.gone(request)
            if why is not None:
                gone: Errors = {"errors": [why], "expired": why}
                return JSONResponse(gone, status_code=410)
            return PlainTextResponse(NOT_FOUND, 404)
        answer = JSONResponse(self.host_json(request, table))
        self.lobby.put_away(table)  # a finished match read again from the store leaves memory again
        return answer

    async def host_bot(self, request: Request) -> Response:
        """The host gives an absent person's seat to a bot."""
        table = self.host_table(request)
        if table is None:
            return PlainTextResponse(NOT_FOUND, 404)
        try:
            data = await read_json(request)
            seat, bot = table.seat_number(data.get("seat")), data.get("bot")
            from mbrules.bots import bot_names

            if not isinstance(bot, str) or bot not in bot_names():
                raise TableError(f"unknown bot: bots are {', '.join(bot_names())}")
            self._absent(table, seat)
            await asyncio.to_thread(warm_bots, table.rules.ruleset, table.players, [bot])  # see open_table

            def with_bot() -> Setup:
                self._absent(table, seat)  # the person may have come back while the bot was being built
                return table.with_bot(seat, bot)

            await table.change_setup(with_bot, lambda saved: table.give_to_bot(seat, bot, saved=saved), joined=True)
        except REFUSED as e:
            return refusal(e)
        log.info("table %s: the host gave %s to the %s bot", table.id, table.game.player_names[seat], bot)
        self.lobby.broadcast(table)
        self.lobby.kick(table)
        return JSONResponse(self.host_json(request, table))

    def _absent(self, table: Table, seat: int) -> None:
        if seat in self.lobby.connected(table.id):
            raise TableError(f"{table.game.player_names[seat]} is at the table: only an absent seat goes to a bot")

    async def host_relink(self, request: Request) -> Response:
        """The host replaces a seat's link: the old one opens nothing, its open page is closed."""
        table = self.host_table(request)
        if table is None:
            return PlainTextResponse(NOT_FOUND, 404)
        try:
            seat = table.seat_number((await read_json(request)).get("seat"))
            await table.change_setup(lambda: table.with_new_link(seat), lambda saved: table.new_link(seat, saved=saved))
        except REFUSED as e:
            return refusal(e)
        self.lobby.drop(table, seat, 4001, "the host replaced this seat's link")
        log.info("table %s: the host replaced %s's link", table.id, table.game.player_names[seat])
        self.lobby.broadcast(table)
        return JSONResponse(self.host_json(request, table))

    async def host_next(self, request: Request) -> Response:
        table = self.host_table(request)
        if table is None:
            return PlainTextResponse(NOT_FOUND, 404)
        async with table.lock:
            dealt = table.press_next_hand(None)
        if dealt:
            self.lobby.kick(table)
        self.lobby.broadcast(table)
        return JSONResponse(self.host_json(request, table))

    # -- a seat's page and the record -------------------------------------------------------------
    async def play_page(self, request: Request) -> Response:
        table = self.lobby.get(request.path_params["table"])
        if table is None or table.seat_for(request.path_params["secret"]) is None:
            replaced = replaced_link(self.lobby, request.path_params["table"], request.path_params["secret"])
            if replaced is not None:
                return replaced
            why = self.gone(request) if table is None else None
            return _gone_text(why) if why is not None else PlainTextResponse(NOT_FOUND, 404)
        return _page("play.html")

    async def export(self, request: Request) -> Response:
        table = self.lobby.get(request.path_params["table"])
        secret = request.path_params["secret"]
        if table is None or (not table.is_host(secret) and table.seat_for(secret) is None):
            why = self.gone(request) if table is None else None
            return _gone_text(why) if why is not None else PlainTextResponse(NOT_FOUND, 404)
        if not table.is_host(secret) and not table.state.is_terminal():
            return PlainTextResponse("the record shows every hand: a seat may export it once the match is over\n", 403)
        try:
            text = table.export()  # in play: the hands that are over, without the seed (the host may play a seat)
        except TableError as e:
            return PlainTextResponse(f"{e}\n", 409)
        self.lobby.put_away(table)
        return Response(
            text,
            media_type="application/yaml",
            headers={"Content-Disposition": f'attachment; filename="table-{table.id}.yaml"'},
        )

    def routes(self, sockets: SeatSockets) -> list[BaseRoute]:
        return [
            Route("/", self.index),
            Route("/health", self.health),
            Route("/api/catalog", self.catalog),
            Route("/api/preview", self.preview, methods=["POST"]),
            Route("/api/tables", self.open_table, methods=["POST"]),
            Route("/host/{table}/{secret}", self.host_page),
            Route("/api/host/{table}/{secret}", self.host_api),
            Route("/api/host/{table}/{secret}/bot", self.host_bot, methods=["POST"]),
            Route("/api/host/{table}/{secret}/next-hand", self.host_next, methods=["POST"]),
            Route("/api/host/{table}/{secret}/new-link", self.host_relink, methods=["POST"]),
            Route("/play/{table}/{secret}", self.play_page),
            Route("/export/{table}/{secret}", self.export),
            WebSocketRoute("/ws/{table}/{secret}", sockets.serve),
            *control_routes(self.lobby, self.host_table, self.host_json),
            Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
        ]


def create_app(lobby: Lobby, body_timeout: float = BODY_TIMEOUT) -> Starlette:
    """The application serving ``lobby``'s tables; a request's body arrives within ``body_timeout`` seconds
    (docs/web.md's 10 s; a test gives a shorter bound to see a slow body refused sooner)."""
    routes = Pages(lobby).routes(SeatSockets(lobby))

    async def on_startup() -> None:
        await lobby.start_all()

    if _has_on_startup():
        app = Starlette(routes=routes, on_startup=[on_startup])  # type: ignore[call-arg]  # an older Starlette's hook
    else:
        app = Starlette(routes=routes, lifespan=_lifespan(lobby))
    app.state.lobby = lobby
    app.state.body_timeout = body_timeout  # read by guard.read_json
    app.add_middleware(RateLimit, requests=Buckets(HTTP_RATE, HTTP_BURST), opens=Buckets(OPEN_RATE, OPEN_BURST))
    return app


def _has_on_startup() -> bool:
    import inspect

    return "on_startup" in inspect.signature(Starlette.__init__).parameters


def _lifespan(lobby: Lobby) -> Any:
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await lobby.start_all()
        yield

    return lifespan


__all__ = [
    "BURST",
    "HTTP_BURST",
    "HTTP_RATE",
    "MAX_BODY",
    "MAX_DROPPED",
    "MAX_MESSAGE",
    "OPEN_BURST",
    "OPEN_RATE",
    "RATE",
    "BodyTooLarge",
    "Buckets",
    "Pages",
    "RateLimit",
    "create_app",
]
