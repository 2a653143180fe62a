"""Every table of one server process: opening, finding, resuming and running them, and who is connected.

Tables are independent: each has its own state, seats and record, and a task that plays its bots
and draws (:meth:`Lobby.run`). Everything here runs on the server's event loop; the engine is
synchronous, so a table changes only between two awaits and needs no lock.

What a page receives goes through :class:`Conn`: it keeps only the newest message of a kind not
yet sent (a slow page is sent the latest table, never a growing queue), and a task per page sends it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Callable

from starlette.websockets import WebSocket

from mbrules.bots import bot_names, check_bot
from mbrules.engine import GameError

from .jsontypes import is_number, is_whole
from .jsontypes import Outgoing, StateView
from .rules import Rules, RulesChoiceError, choice_from_setup
from .seats import PERSON
from .store import Store, StoreUnavailable
from .table import BotQuestion, Refusal, Table, TableError, same_secret, table_setup
from .thinking import Thinker, shared_thinker

log = logging.getLogger("mbrules.web")

MAX_TABLES = 1000  # tables in memory; past it the one left alone longest is put away (stays in the store)
IDLE_AWAY = 1800.0  # seconds a table in play with no page open and no change stays in memory
MAX_WAITING = 200  # tables in play that no person has joined yet; past it the oldest of them expires
WAITING_AGE = 6 * 3600.0  # seconds a table may wait for its first person before it expires
EXPIRED_KEPT = 30 * 86400.0  # seconds an expired table's links still say why (then they open nothing)
SWEEP_EVERY = 60.0  # seconds between two looks for tables to expire
MAX_PACE = 5.0  # seconds a bot waits before it plays, at most
MAX_RETRY = 10.0  # seconds between two tries of a bot's move the store could not take, at most
NOT_SAVED = "your move was not played; try it again in a moment"


class Conn:
    """One page's socket: the newest view waiting to go, sent by its own task."""

    def __init__(self, ws: WebSocket, table_id: str, seat: int | None):
        self.ws = ws
        self.table_id = table_id
        self.seat = seat
        self.pending: dict[str, Outgoing] = {}  # kind -> the newest message of that kind not yet sent
        self.order: list[str] = []
        self.wake = asyncio.Event()
        self.closed = False
        self.sent: list[Outgoing] = []  # kept only when Lobby.keep_sent (tests compare them with observations)
        self.shown: StateView | None = None  # the last view broadcast to this page

    def push(self, message: Outgoing) -> None:
        kind = message["type"]
        if kind not in self.pending:
            self.order.append(kind)
        self.pending[kind] = message
        self.wake.set()

    async def writer(self, keep: bool) -> None:
        try:
            while not self.closed:
                await self.wake.wait()
                self.wake.clear()
                while self.order:
                    kind = self.order.pop(0)
                    msg = self.pending.pop(kind)
                    if keep:
                        self.sent.append(msg)
                    await self.ws.send_json(msg)
        except Exception:  # the page went away: the reader side ends the connection
            self.closed = True


@dataclass
class Lobby:
    store: Store
    keep_sent: bool = False  # keep every message sent (security tests read them back)
    tables: dict[str, Table] = field(default_factory=dict)
    conns: dict[str, dict[int, Conn]] = field(default_factory=dict)
    running: set[str] = field(default_factory=set)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    sent_log: dict[tuple[str, int], list[Outgoing]] = field(default_factory=dict)
    max_waiting: int = MAX_WAITING
    max_tables: int = MAX_TABLES
    waiting_age: float = WAITING_AGE
    clock: Callable[[], float] = time.time  # the store's clock (a table's age is from its row's 'created')
    thinker: Thinker = field(default_factory=shared_thinker)  # the worker processes the bots think in

    # -- tables --------------------------------------------------------------------------------
    def new_table(self, rules: Rules, players: int, seats: object, seed: int | None, pace: float) -> Table:
        """A new table, not yet written; ``seats`` (what plays each seat), ``seed`` and ``pace`` come from the
        page as they were sent and are checked here."""
        if not self.make_room():
            raise TableError(f"this server has {self.max_tables} tables in play with someone at each: try again later")
        if not isinstance(seats, list) or len(seats) != players:
            raise TableError(f"give what plays each of the {players} seats")
        names = set(bot_names())
        for k in seats:
            if k != PERSON and (not isinstance(k, str) or k not in names):
                raise TableError(f"unknown bot {str(k)!r:.40}: bots are {', '.join(sorted(names))}")
        if PERSON not in seats:
            raise TableError("at least one seat is a person's")
        if not is_number(pace):
            raise TableError("the bots' pause is a number of seconds")
        pace = float(pace)
        if not 0 <= pace <= MAX_PACE:
            raise TableError(f"the bots' pause is from 0 to {MAX_PACE} seconds")
        if seed is None:
            seed = secrets.randbelow(2**31)
        if not is_whole(seed) or not 0 <= seed < 2**63:
            raise TableError("a seed is a whole number from 0")
        from mbrules.engine import Game

        try:
            game = Game(rules.ruleset, players)
            for k in set(seats) - {PERSON}:
                check_bot(k, game)
        except GameError as e:
            raise TableError(str(e)) from None
        except ValueError as e:  # UnknownBot: a bot that cannot play this ruleset
            raise TableError(str(e)) from None
        table_id = secrets.token_urlsafe(6)
        setup = table_setup(rules, players, seats, seed, pace)
        return Table(table_id, setup, rules, self.store, game)

    def open_table(self, rules: Rules, players: int, seats: object, seed: int | None, pace: float) -> Table:
        """A new table, written and playing (tools and tests; the server writes off its loop: :meth:`open_saved`)."""
        table = self.new_table(rules, players, seats, seed, pace)
        self.store.add_table(table.id, table.setup)
        self.admit(table)
        self.sweep()  # past MAX_WAITING tables nobody joined, the oldest of them makes room
        return table

    async def open_saved(self, rules: Rules, players: int, seats: object, seed: int | None, pace: float) -> Table:
        """:meth:`open_table` with the writes made off the event loop (StoreUnavailable: nothing was opened)."""
        table = self.new_table(rules, players, seats, seed, pace)
        await self.store.write("add_table", table.id, table.setup)
        self.admit(table)
        await self.sweep_saved()
        return table

    def admit(self, table: Table) -> None:
        self.tables[table.id] = table
        log.info(
            "table %s opened: %s, %d players, seats %s",
            table.id,
            table.rules.ruleset.id,
            table.players,
            ", ".join(table.setup["seats"]),
        )
        self.kick(table)

    async def again(self, table: Table) -> Table:
        """The table opened to play again with ``table``'s rules, seats and pace (a new deal), opened once:
        its links go in ``table``'s setup, each seat's to that seat's page only (:meth:`Table.again_link`).
        Written off the event loop (StoreUnavailable: the store cannot be written now)."""
        async with table.lock:  # asked twice at once: one table
            return await self._again(table)

    async def _again(self, table: Table) -> Table:
        found = table.setup.get("again")
        if isinstance(found, dict):
            again = self.get(found["table"])
            if again is not None:
                return again
        if not table.state.is_terminal():
            raise TableError("the match is not over yet")
        kinds = list(table.setup["seats"])
        again = await self.open_saved(table.rules, table.players, kinds, None, table.setup.get("pace", 0.6))
        links = [again.setup["secrets"][p] if k == PERSON else None for p, k in enumerate(kinds)]
        saved = {**table.setup, "again": {"table": again.id, "secrets": links, "host": again.setup["host_secret"]}}
        if table.store is not None:
            await table.store.write("update_setup", table.id, saved)
        table.setup = saved
        log.info("table %s: played again at table %s", table.id, again.id)
        self.broadcast(table)
        return again

    # -- tables nobody joins -------------------------------------------------------------------------
    def sweep(self, forget: bool = False) -> list[str]:
        """Expire the tables no person has joined: those older than ``waiting_age``, then the oldest past
        ``max_waiting`` of them. Their links then say why (:meth:`why_gone`); returns their ids.
        ``forget``: drop too the expired tables older than :data:`EXPIRED_KEPT` (the periodic look does)."""
        gone = self.due()
        for tid, why in gone:
            self.store.expire(tid, why)
            self.expired(tid, why)
        if forget:
            self.store.forget_expired(self.clock() - EXPIRED_KEPT)
        return [tid for tid, _ in gone]

    async def sweep_saved(self, forget: bool = False) -> list[str]:
        """:meth:`sweep` with the writes made off the event loop; a table that cannot be written expired
        now is left for the next look."""
        done = []
        for tid, why in self.due():
            try:
                await self.store.write("expire", tid, why)
            except StoreUnavailable as e:
                log.warning("table %s could not be expired now (%s): tried again later", tid, e.why)
                continue
            self.expired(tid, why)
            done.append(tid)
        if forget:
            try:
                await self.store.write("forget_expired", self.clock() - EXPIRED_KEPT)
            except StoreUnavailable as e:
                log.warning("expired tables could not be forgotten now (%s)", e.why)
        return done

    def due(self) -> list[tuple[str, str]]:
        """The tables nobody joined that expire now, and why (in words)."""
        now = self.clock()
        waiting = [
            (tid, created)
            for tid, created in self.store.waiting()
            if not getattr(self.tables.get(tid), "joined", False)
        ]  # a table joined in memory whose mark is not written yet does not expire
        gone: list[tuple[str, str]] = []
        hours = self.waiting_age / 3600
        at = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now))
        for tid, created in waiting:
            if created <= now - self.waiting_age:
                gone.append(
                    (tid, f"this table expired at {at}: nobody joined it in the {hours:g} hours after it was opened")
                )
        left = [tid for tid, _ in waiting if tid not in {g for g, _ in gone}]
        for tid in left[: max(0, len(left) - self.max_waiting)]:
            gone.append(
                (
                    tid,
                    f"this table expired at {at}: nobody had joined it, and it was the oldest of the "
                    f"{self.max_waiting} tables waiting for players that this server keeps",
                )
            )
        return gone

    def expired(self, tid: str, why: str) -> None:
        """The table ``tid``, expired in the store, leaves memory."""
        table = self.tables.pop(tid, None)
        self.conns.pop(tid, None)
        if table is not None:
            table.store = None  # a bot still playing it writes nothing more
        log.info("table %s: %s", tid, why.removeprefix("this table "))

    def why_gone(self, tid: str, secret: str | None) -> str | None:
        """Why the table ``tid`` expired, to a holder of one of its links (the host's or a seat's); else
        None, as for a table that never was."""
        if tid in self.tables or not isinstance(tid, str) or len(tid) > 32:
            return None
        found = self.store.expired(tid)
        if found is None:
            return None
        why, kept = found
        links = [kept.get("host_secret", "")] + list(kept.get("secrets", []))
        hits = [same_secret(secret, k) for k in links if isinstance(k, str)]  # every link compared: no early exit
        return why if any(hits) else None

    async def sweeper(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                self.put_away_idle()
                await self.sweep_saved(forget=True)
            except Exception:  # a failed look is tried again at the next
                log.exception("the look for tables nobody joined failed")

    def resume_all(self) -> int:
        """Rebuild the stored tables still in play at their last step (a restarted server), the newest
        half of :attr:`max_tables` at most; returns how many. A table whose match is over, or older than
        those, stays on disk until a link asks for it (:meth:`get`)."""
        n = 0
        for tid in self.store.table_ids(playing_only=True)[-(self.max_tables // 2) :]:
            if self._load(tid) is not None:
                n += 1
        return n

    def _load(self, tid: str) -> Table | None:
        stored = self.store.load(tid)
        if stored is None:
            return None
        try:
            rules = choice_from_setup(stored.setup)
            table = Table(tid, stored.setup, rules, self.store)
            table.restore(stored.steps)
        except (RulesChoiceError, TableError, GameError, ValueError) as e:
            log.error("table %s cannot be resumed: %s", tid, e)
            return None
        table.joined = stored.joined
        self.tables[tid] = table
        return table

    def get(self, tid: str) -> Table | None:
        """The table ``tid``, from memory or rebuilt from the store (a finished match put away)."""
        table = self.tables.get(tid)
        if (
            table is None
            and isinstance(tid, str)
            and 0 < len(tid) <= 32
            and tid.replace("-", "").replace("_", "").isalnum()
            and self.make_room()
        ):
            table = self._load(tid)
            if table is not None:
                self.kick(table)  # a table put away in play: its bots play on
        return table

    # -- tables left alone ------------------------------------------------------------------------
    def idle(self, table: Table) -> bool:
        """No page is open at the table, no bot is playing there, nothing is being written."""
        return table.id not in self.running and not self.connected(table.id) and not table.lock.locked()

    def make_room(self) -> bool:
        """Room for one more table in memory: past :attr:`max_tables`, the idle table left alone longest is
        put away (it stays in the store and its links load it again). False when every table is in use."""
        if len(self.tables) < self.max_tables:
            return True
        idle = [t for t in self.tables.values() if self.idle(t)]
        if not idle:
            return False
        self.leave(min(idle, key=lambda t: t.touched), "to make room")
        return True

    def put_away_idle(self) -> list[str]:
        """Put away the tables in play left alone (no page open, no change) for :data:`IDLE_AWAY` seconds."""
        now = time.monotonic()
        gone = [t for t in self.tables.values() if self.idle(t) and t.touched < now - IDLE_AWAY]
        for t in gone:
            self.leave(t, f"left alone for {IDLE_AWAY / 60:g} minutes")
        return [t.id for t in gone]

    def leave(self, table: Table, why: str) -> None:
        """The table leaves memory; it stays in the store, as it is, and its links load it again."""
        del self.tables[table.id]
        self.conns.pop(table.id, None)
        log.info("table %s put away (%s): its links load it again", table.id, why)

    def put_away(self, table: Table) -> None:
        """A finished match with no page open leaves memory (it stays in the store): memory stays flat
        however many matches a server has hosted."""
        if (
            table.state.is_terminal()
            and table.id not in self.running
            and not self.connected(table.id)
            and self.tables.get(table.id) is table
        ):
            self.background("mark_over", table.id)
            del self.tables[table.id]
            self.conns.pop(table.id, None)

    async def start_all(self) -> None:
        await self.sweep_saved(forget=True)  # the tables that waited past their age while the server was down
        for t in self.tables.values():
            self.kick(t)
        task = asyncio.get_running_loop().create_task(self.sweeper())
        self.tasks.add(task)

    # -- running -------------------------------------------------------------------------------
    def kick(self, table: Table) -> None:
        """Make sure the table's bots and draws are being played (one task per table at a time)."""
        if table.id in self.running:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet: start_all runs it once the server starts
        self.running.add(table.id)
        task = loop.create_task(self.run(table))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def run(self, table: Table) -> None:
        """Play the table's draws and bots' moves until a person decides or the hand ends. A bot thinks in
        a worker process (:mod:`.thinking`), never here; a move that cannot be written now is tried again,
        later and later (at most every :data:`MAX_RETRY` s), until the store takes it."""
        try:
            pace = float(table.setup.get("pace", 0))
            wait = 0.0
            for _ in range(100_000):
                if self.tables.get(table.id) is not table:  # expired (nobody joined) while its bots played
                    return
                q = table.bot_question()
                if q is None:
                    async with table.lock:
                        done = table.step_once()  # a lone draw (never written), or None: a person decides
                    if done is None:
                        break
                    continue
                index, bot = await self.thinker.decide(
                    table.setup, table.game, q.seat.pickled(), q.obs, q.legal, q.seat.kind
                )
                if self.tables.get(table.id) is not table:
                    return
                try:
                    taken = await self.take(table, q, index, bot)
                except StoreUnavailable as e:
                    wait = min(MAX_RETRY, max(0.5, wait * 2))
                    log.warning("table %s: a bot's move cannot be saved now (%s): again in %g s", table.id, e.why, wait)
                    await asyncio.sleep(wait)
                    continue
                wait = 0.0
                if taken and table.counted.last_public:  # a window let pass: no one may see it, nor wait for it
                    self.broadcast(table)
                    await asyncio.sleep(pace)
            self.broadcast(table)
        except Exception:  # a bug must not take the server down: logged, the table stops where it is
            log.exception("table %s: error while the bots played", table.id)
        finally:
            self.running.discard(table.id)
        self.put_away(table)

    async def take(self, table: Table, q: BotQuestion, index: int, bot: bytes) -> bool:
        """The bot's answer to ``q`` (its action's index, the bot after choosing), written then applied;
        False when the question is no longer the table's (dropped, the bot as it was)."""
        async with table.lock:
            if not table.still_asked(q):
                return False
            action = q.legal[index]
            fields = table.record(q.p, action)
            if fields is not None and table.store is not None:
                await table.store.write("add_step", table.id, table.steps, table.state.hand_no, fields)
            table.applied(q.p, action, fields)
            q.seat.moved_on(bot)
            return True

    async def act(self, table: Table, p: int, text: object, version: int | None) -> Refusal | None:
        """A person's move (``text``, the version it saw), checked, written off the event loop, then
        applied; else the refusal in words (the table cannot be saved now: nothing was played)."""
        async with table.lock:
            checked = table.check(p, text, version)
            if isinstance(checked, Refusal):
                return checked
            fields = table.record(p, checked)
            if fields is not None and table.store is not None:
                try:
                    await table.store.write("add_step", table.id, table.steps, table.state.hand_no, fields)
                except StoreUnavailable as e:
                    log.warning("table %s: a move cannot be saved now (%s): refused", table.id, e.why)
                    return Refusal("not-saved", f"the table cannot be saved now ({e.why}): {NOT_SAVED}")
            table.applied(p, checked, fields)
            return None

    def background(self, method: str, *args: object) -> None:
        """A write nothing waits for (a table marked joined, a match over), made off the event loop; a
        failure is logged (the mark is made again the next time)."""

        def said(f: Future[Any]) -> None:
            if f.exception() is not None:
                log.warning("the store could not be written (%s %s): %s", method, args[0], f.exception())

        self.store.submit(method, *args).add_done_callback(said)

    # -- pages ----------------------------------------------------------------------------------
    def attach(self, table: Table, seat: int, conn: Conn) -> None:
        if not table.joined:
            table.joined = True  # kept in memory too: the sweep does not expire it before the mark is written
            if table.store is not None:
                self.background("mark_joined", table.id)
        seats = self.conns.setdefault(table.id, {})
        old = seats.get(seat)
        seats[seat] = conn
        table.away_since.pop(seat, None)
        if self.keep_sent:
            conn.sent = self.sent_log.setdefault((table.id, seat), [])
        if old is not None:
            old.closed = True
            old.wake.set()
            asyncio.get_running_loop().create_task(_close(old.ws, 4000, "this seat was opened in another page"))

    def drop(self, table: Table, seat: int, code: int, reason: str) -> None:
        """Close seat ``seat``'s page, if one is open (its link was replaced)."""
        conn = self.conns.get(table.id, {}).pop(seat, None)
        if conn is not None:
            table.away_since[seat] = time.time()
            conn.closed = True
            conn.wake.set()
            asyncio.get_running_loop().create_task(_close(conn.ws, code, reason))

    def detach(self, conn: Conn) -> None:
        seats = self.conns.get(conn.table_id, {})
        table = self.tables.get(conn.table_id)
        if conn.seat is not None and seats.get(conn.seat) is conn:
            del seats[conn.seat]
            if table is not None:
                table.away_since[conn.seat] = time.time()  # the table shows for how long
        conn.closed = True
        conn.wake.set()
        if table is not None:
            self.put_away(table)

    def connected(self, table_id: str) -> set[int]:
        return set(self.conns.get(table_id, {}))

    def broadcast(self, table: Table) -> None:
        """Each connected page gets its own seat's view (built from that seat's observation), when it
        changed since the last broadcast: how many messages a page gets never tells another seat's hidden
        decisions (a window let pass changes no other seat's view)."""
        table.touched = time.monotonic()
        here = self.connected(table.id)
        for p, conn in list(self.conns.get(table.id, {}).items()):
            view = table.view(p, here)
            if view != conn.shown:  # a view unchanged is not sent again: a hidden step sends nothing
                conn.shown = view
                conn.push(view)


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    try:
        await ws.close(code=code, reason=reason)
    except Exception:
        pass


__all__ = ["Conn", "Lobby", "MAX_TABLES", "MAX_WAITING", "WAITING_AGE"]
