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

Bounds: a client (its address; behind a proxy, the address the proxy forwards, as uvicorn reads it)
may make :data:`HTTP_RATE` requests a second with bursts of :data:`HTTP_BURST`, and open
:data:`OPEN_RATE` tables a second with bursts of :data:`OPEN_BURST`; past that it is answered 429
with ``Retry-After`` (``GET /health`` is never limited). A request body is at most :data:`MAX_BODY` bytes, a socket message at most
:data:`MAX_MESSAGE` bytes (a larger one closes the socket, code 1009), a socket may send
:data:`RATE` messages a second with bursts of :data:`BURST` (past that they are dropped unread,
and :data:`MAX_DROPPED` drops close it, code 1008).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from collections import OrderedDict
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .lobby import Conn, Lobby
from .rules import MAX_UPLOAD, RulesChoiceError, bundled_choice, uploaded_choice
from .seats import PERSON, warm_bots
from .store import StoreUnavailable
from .table import TableError

log = logging.getLogger("mbrules.web")

MAX_BODY = 2 * MAX_UPLOAD + 16 * 1024  # a JSON body carrying an upload (escaped) and the choices
MAX_MESSAGE = 16 * 1024  # bytes of one socket message (an action is about 60)
RATE = 20.0  # socket messages a second, on average
BURST = 40  # socket messages at once
MAX_DROPPED = 100  # messages dropped for the rate before the socket is closed
HTTP_RATE = 20.0  # HTTP requests a second a client may make, on average (a page loads with six)
HTTP_BURST = 100  # HTTP requests at once
OPEN_RATE = 1 / 3  # tables a client may open a second, on average (twenty a minute)
OPEN_BURST = 20  # tables opened at once
MAX_CLIENTS = 10_000  # clients whose request rate is remembered (the least recent is forgotten past it)
STATIC = Path(str(resources.files("mbrules.web") / "static"))


class BodyTooLarge(Exception):
    pass


class Buckets:
    """A token bucket per client: ``rate`` a second, ``burst`` at once; the least recently seen client is
    forgotten past :data:`MAX_CLIENTS` (memory stays bounded whatever the number of addresses)."""

    def __init__(self, rate: float, burst: int, clock=time.monotonic):
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

    def __init__(self, app, requests: Buckets, opens: Buckets):
        self.app, self.requests, self.opens = app, requests, opens

    async def __call__(self, scope, receive, send):
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
            answer = JSONResponse(
                {"errors": [f"too many {what} from your address: try again in {seconds} s"]},
                status_code=429,
                headers={"Retry-After": str(seconds)},
            )
            return await answer(scope, receive, send)
        return await self.app(scope, receive, send)


async def read_json(request: Request) -> dict:
    """The request's JSON body, read up to MAX_BODY bytes (a larger one is refused before it is all read)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise BodyTooLarge()
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise BodyTooLarge()
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks) or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise TableError("the request is not JSON") from None
    if not isinstance(data, dict):
        raise TableError("the request is a JSON object")
    return data


def unsaved(e: StoreUnavailable) -> JSONResponse:
    """503: the store cannot be written now (another program's lock, a full disk); nothing was done."""
    return JSONResponse(
        {"errors": [f"the table cannot be saved now ({e.why}): nothing was changed; try again in a moment"]},
        status_code=503,
        headers={"Retry-After": "2"},
    )


def error(message: str | list[str], status: int = 400) -> JSONResponse:
    lines = message if isinstance(message, list) else [message]
    return JSONResponse({"errors": lines}, status_code=status)


REFUSED = (BodyTooLarge, RulesChoiceError, TableError)


def refusal(e: Exception) -> JSONResponse:
    """A request refused: 413 for a body too large, 422 for rules that do not check, else 400."""
    if isinstance(e, BodyTooLarge):
        return error(f"the request is larger than {MAX_BODY // 1024} KiB", 413)
    if isinstance(e, RulesChoiceError):
        return error(e.lines, 422)
    return error(str(e))


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


def _choice(data: dict):
    """The host's rules from a request: {"ruleset": id, "options": [...]} or {"upload": {"name", "text"}}."""
    options = data.get("options") or []
    if not isinstance(options, list):
        raise RulesChoiceError(["options is a list of bundled option ids"])
    upload = data.get("upload")
    if upload is not None:
        if not isinstance(upload, dict) or not isinstance(upload.get("text"), str):
            raise RulesChoiceError(["an upload is {name, text}"])
        return uploaded_choice(
            str(upload.get("name") or "upload.yaml"), upload["text"].encode("utf-8", "replace"), options
        )
    rid = data.get("ruleset")
    if not isinstance(rid, str):
        raise RulesChoiceError(["choose an edition"])
    return bundled_choice(rid, options)


def _players(data: dict) -> int:
    n = data.get("players")
    if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 12:
        raise TableError("players is a whole number from 2 to 12")
    return n


def create_app(lobby: Lobby) -> Starlette:
    """The application serving ``lobby``'s tables."""

    async def index(request: Request) -> Response:
        return _page("index.html")

    async def health(request: Request) -> Response:
        return PlainTextResponse("ok\n")

    async def catalog(request: Request) -> Response:
        from mbrules.bots import bot_descriptions
        from mbrules.ruleset import bundled_option_ids, bundled_ruleset_ids, option_summary, ruleset_summary
        from mbrules.ruleset.listing import OPTION_CATEGORIES

        editions = []
        for rid in bundled_ruleset_ids():
            s = ruleset_summary(rid)
            rs = bundled_choice(rid, []).ruleset
            editions.append(
                {
                    "id": rid,
                    "name": s.name,
                    "description": s.description,
                    "players": sorted(int(k) for k in rs.player_counts),
                }
            )
        options = []
        for oid in bundled_option_ids():
            s = option_summary(oid)
            options.append(
                {
                    "id": oid,
                    "name": s.name,
                    "description": s.description,
                    "category": s.category,
                    "groups": list(s.groups),
                }
            )
        return JSONResponse(
            {
                "editions": editions,
                "options": options,
                "categories": OPTION_CATEGORIES,
                "bots": bot_descriptions(),
                "max_upload": MAX_UPLOAD,
            }
        )

    async def preview(request: Request) -> Response:
        try:
            data = await read_json(request)
            rules = _choice(data)
            players = data.get("players")
            text = (
                rules.rules_text(players)
                if isinstance(players, int) and str(players) in rules.ruleset.player_counts
                else rules.rules_text(None)
            )
            return JSONResponse(
                {
                    "name": rules.ruleset.name,
                    "changes": rules.changes(),
                    "rules": text,
                    "players": sorted(int(k) for k in rules.ruleset.player_counts),
                }
            )
        except REFUSED as e:
            return refusal(e)

    async def open_table(request: Request) -> Response:
        try:
            data = await read_json(request)
            rules = _choice(data)
            players = _players(data)
            seed = data.get("seed")
            # a bot that trains its model on first use does so in a worker thread, not in the event loop
            await asyncio.to_thread(warm_bots, rules.ruleset, players, data.get("seats"))
            table = await lobby.open_saved(
                rules, players, data.get("seats"), seed if seed != "" else None, data.get("pace", 0.6)
            )
        except REFUSED as e:
            return refusal(e)
        except StoreUnavailable as e:
            return unsaved(e)
        return JSONResponse(host_json(request, table), status_code=201)

    def host_json(request: Request, table) -> dict:
        base = str(request.base_url).rstrip("/")
        g = table.game
        here = lobby.connected(table.id)
        return {
            "table": table.id,
            "ruleset": table.rules.ruleset.name,
            "options": list(table.rules.options),
            "players": g.players,
            "seed": table.setup["seed"],
            "version": table.version,
            "host_url": f"{base}/host/{table.id}/{table.setup['host_secret']}",
            "export_url": f"{base}/export/{table.id}/{table.setup['host_secret']}",
            "seats": [
                {
                    "name": g.player_names[p],
                    "side": g.side_names[g.side_of[p]],
                    "kind": table.seats[p].kind,
                    "url": f"{base}/play/{table.id}/{table.setup['secrets'][p]}"
                    if table.seats[p].kind == PERSON
                    else None,
                    "here": p in here,
                }
                for p in range(g.players)
            ],
            "hand": table.state.hand_no + 1,
            "hand_over": table.state.hand_over,
            "match_over": table.state.is_terminal(),
            "changes": table.rules.changes(),
        }

    def host_table(request: Request):
        table = lobby.get(request.path_params["table"])
        if table is None or not table.is_host(request.path_params["secret"]):
            return None
        return table

    def gone(request: Request) -> str | None:
        """Why the table a link names expired (nobody joined it), to a holder of one of its links."""
        return lobby.why_gone(request.path_params["table"], request.path_params["secret"])

    async def host_page(request: Request) -> Response:
        if host_table(request) is not None or gone(request) is not None:
            return _page("host.html")  # an expired table's page says why (from the API)
        return PlainTextResponse("not found\n", 404)

    async def host_api(request: Request) -> Response:
        table = host_table(request)
        if table is None:
            why = gone(request)
            if why is not None:
                return JSONResponse({"errors": [why], "expired": why}, status_code=410)
            return PlainTextResponse("not found\n", 404)
        answer = JSONResponse(host_json(request, table))
        lobby.put_away(table)  # a finished match read again from the store leaves memory again
        return answer

    async def host_bot(request: Request) -> Response:
        table = host_table(request)
        if table is None:
            return PlainTextResponse("not found\n", 404)
        try:
            data = await read_json(request)
            seat = data.get("seat")
            bot = data.get("bot")
            if not isinstance(seat, int) or not 0 <= seat < table.players:
                raise TableError("seat is a seat number from 0")
            from mbrules.bots import bot_names

            if bot not in bot_names():
                raise TableError(f"unknown bot: bots are {', '.join(bot_names())}")
            if seat in lobby.connected(table.id):
                raise TableError(f"{table.game.player_names[seat]} is at the table: only an absent seat goes to a bot")
            await asyncio.to_thread(warm_bots, table.rules.ruleset, table.players, [bot])  # see open_table
            async with table.lock:  # no move of the seat is being written meanwhile
                if seat in lobby.connected(table.id):  # the person came back while the bot was being built
                    raise TableError(
                        f"{table.game.player_names[seat]} is at the table: only an absent seat goes to a bot"
                    )
                if table.store is not None:
                    await table.store.write("update_setup", table.id, table.with_bot(seat, bot), True)
                table.give_to_bot(seat, bot, saved=table.with_bot(seat, bot))
        except REFUSED as e:
            return refusal(e)
        except StoreUnavailable as e:
            return unsaved(e)
        log.info("table %s: the host gave %s to the %s bot", table.id, table.game.player_names[seat], bot)
        lobby.broadcast(table)
        lobby.kick(table)
        return JSONResponse(host_json(request, table))

    async def host_relink(request: Request) -> Response:
        table = host_table(request)
        if table is None:
            return PlainTextResponse("not found\n", 404)
        try:
            seat = (await read_json(request)).get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < table.players:
                raise TableError("seat is a seat number from 0")
            async with table.lock:  # one change of the setup at a time
                saved = table.with_new_link(seat)
                if table.store is not None:
                    await table.store.write("update_setup", table.id, saved)
                table.new_link(seat, saved=saved)
        except REFUSED as e:
            return refusal(e)
        except StoreUnavailable as e:
            return unsaved(e)
        lobby.drop(table, seat, 4001, "the host replaced this seat's link")
        log.info("table %s: the host replaced %s's link", table.id, table.game.player_names[seat])
        lobby.broadcast(table)
        return JSONResponse(host_json(request, table))

    async def host_next(request: Request) -> Response:
        table = host_table(request)
        if table is None:
            return PlainTextResponse("not found\n", 404)
        async with table.lock:
            dealt = table.press_next_hand(None)
        if dealt:
            lobby.kick(table)
        lobby.broadcast(table)
        return JSONResponse(host_json(request, table))

    async def play_page(request: Request) -> Response:
        table = lobby.get(request.path_params["table"])
        if table is None or table.seat_for(request.path_params["secret"]) is None:
            why = gone(request) if table is None else None
            if why is not None:
                return PlainTextResponse(f"{why[0].upper()}{why[1:]}.\n", 410)
            return PlainTextResponse("not found\n", 404)
        return _page("play.html")

    async def export(request: Request) -> Response:
        table = lobby.get(request.path_params["table"])
        secret = request.path_params["secret"]
        if table is None or (not table.is_host(secret) and table.seat_for(secret) is None):
            why = gone(request) if table is None else None
            if why is not None:
                return PlainTextResponse(f"{why[0].upper()}{why[1:]}.\n", 410)
            return PlainTextResponse("not found\n", 404)
        if not table.is_host(secret) and not table.state.is_terminal():
            return PlainTextResponse("the record shows every hand: a seat may export it once the match is over\n", 403)
        text = table.export()
        lobby.put_away(table)
        return Response(
            text,
            media_type="application/yaml",
            headers={"Content-Disposition": f'attachment; filename="table-{table.id}.yaml"'},
        )

    async def seat_socket(ws: WebSocket) -> None:
        table = lobby.get(ws.path_params["table"])
        seat = table.seat_for(ws.path_params["secret"]) if table is not None else None
        if table is None or seat is None:
            await ws.close(code=1008)  # before accept: the handshake is refused (HTTP 403), nothing sent
            log.warning("a socket with a wrong link was refused (table %s)", str(ws.path_params["table"])[:20])
            return
        await ws.accept()
        conn = Conn(ws, table.id, seat)
        lobby.attach(table, seat, conn)
        name = table.game.player_names[seat]
        log.info("table %s: %s joined", table.id, name)
        writer = asyncio.get_running_loop().create_task(conn.writer(lobby.keep_sent))
        conn.push(table.welcome(seat))
        lobby.broadcast(table)  # everyone sees who is here
        tokens, last, dropped = float(BURST), time.monotonic(), 0
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                now = time.monotonic()
                tokens = min(BURST, tokens + (now - last) * RATE)
                last = now
                if tokens < 1:
                    dropped += 1
                    if dropped >= MAX_DROPPED:
                        log.warning("table %s: %s sent too many messages: closed", table.id, name)
                        await ws.close(code=1008, reason="too many messages")
                        break
                    continue
                tokens -= 1
                raw = msg.get("text") if msg.get("text") is not None else msg.get("bytes")
                await handle(table, seat, conn, raw)
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("table %s: %s's socket failed", table.id, name)
        finally:
            lobby.detach(conn)
            writer.cancel()
            log.info("table %s: %s left", table.id, name)
            lobby.broadcast(table)

    async def handle(table, seat: int, conn: Conn, raw) -> None:
        """One message from seat ``seat``'s page; the seat is the socket's, never a field of the message."""
        if raw is None or len(raw) > MAX_MESSAGE:
            conn.push({"type": "refused", "code": "too-large", "message": "that message is too large"})
            return
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict):
            conn.push({"type": "refused", "code": "not-a-move", "message": "that message is not understood"})
            return
        kind = data.get("type")
        if kind == "act":
            version = data.get("version")
            why = await lobby.act(table, seat, data.get("action"), version if isinstance(version, int) else None)
            if why is not None:
                conn.push({"type": "refused", "code": why.code, "message": why.message, "version": table.version})
                conn.push(table.view(seat, lobby.connected(table.id)))
                return
            lobby.broadcast(table)
            lobby.kick(table)
        elif kind == "next-hand":
            async with table.lock:
                dealt = table.press_next_hand(seat)
            if dealt:
                lobby.kick(table)
            lobby.broadcast(table)
        elif kind == "view":
            conn.push(table.view(seat, lobby.connected(table.id)))  # its own seat's, whatever it asks for
        else:
            conn.push({"type": "refused", "code": "not-a-move", "message": "that message is not understood"})

    routes = [
        Route("/", index),
        Route("/health", health),
        Route("/api/catalog", catalog),
        Route("/api/preview", preview, methods=["POST"]),
        Route("/api/tables", open_table, methods=["POST"]),
        Route("/host/{table}/{secret}", host_page),
        Route("/api/host/{table}/{secret}", host_api),
        Route("/api/host/{table}/{secret}/bot", host_bot, methods=["POST"]),
        Route("/api/host/{table}/{secret}/next-hand", host_next, methods=["POST"]),
        Route("/api/host/{table}/{secret}/new-link", host_relink, methods=["POST"]),
        Route("/play/{table}/{secret}", play_page),
        Route("/export/{table}/{secret}", export),
        WebSocketRoute("/ws/{table}/{secret}", seat_socket),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]

    async def on_startup() -> None:
        await lobby.start_all()

    if _has_on_startup():
        app = Starlette(routes=routes, on_startup=[on_startup])  # type: ignore[call-arg]  # an older Starlette's hook
    else:
        app = Starlette(routes=routes, lifespan=_lifespan(lobby))
    app.state.lobby = lobby
    app.add_middleware(RateLimit, requests=Buckets(HTTP_RATE, HTTP_BURST), opens=Buckets(OPEN_RATE, OPEN_BURST))
    return app


def _has_on_startup() -> bool:
    import inspect

    return "on_startup" in inspect.signature(Starlette.__init__).parameters


def _lifespan(lobby: Lobby):
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(app):
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
    "Buckets",
    "RateLimit",
    "create_app",
]
