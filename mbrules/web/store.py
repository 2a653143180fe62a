"""The tables' store: one SQLite file (stdlib ``sqlite3``), written before anything is broadcast.

A table is its setup (the ruleset: a bundled id or the uploaded file's text; the options, the
player count, the seed, what plays each seat, the invitation secrets) and its steps, one row a
step in the scenario step notation (:func:`mbrules.scenario.format.step_fields`, as JSON). The
position is never stored: a table is rebuilt by dealing the same seed and playing the steps again
(:meth:`mbrules.web.table.Table.restore`), so the file cannot hold a position the engine did not
reach. A decision a scenario leaves implicit (a draw chosen among several, a window let pass) is a
row too (``{"player": "p2", "implicit": "decline"}``), so a restart does not ask it again; a lone
draw has no row.

Each write is its own transaction, committed before the caller goes on (WAL journal: a killed
process loses nothing that was committed). Only the thread that runs the server touches the
connection.

The file is marked as a table store (``PRAGMA application_id``, :data:`APPLICATION_ID`), and a file
that is not one (another program's SQLite database, or no database at all) is refused before anything
is written to it (:func:`check_store`). A store written before the mark (its two tables and nothing
else) is marked when first opened. One server at a time uses a store: :class:`ServerLock`.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .jsontypes import Message, Setup

APPLICATION_ID = 0x4D425442  # "MBTB": PRAGMA application_id of an mbrules table store
SCHEMA_VERSION = 1  # PRAGMA user_version of the store this code writes
WRITE_WAIT = 1.0  # seconds a write waits for another program's lock before it is refused (off the event loop)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    setup TEXT NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    joined INTEGER NOT NULL DEFAULT 0,
    expired TEXT
);
CREATE TABLE IF NOT EXISTS steps (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    hand INTEGER NOT NULL,
    step TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
"""


@dataclass(frozen=True)
class StoredTable:
    id: str
    created: float
    setup: Setup
    steps: tuple[tuple[int, Message], ...]  # (hand number, step fields), in order
    joined: bool = False  # a person has opened a seat of it (it no longer expires for want of players)


class StoreError(Exception):
    """The database file cannot be opened or is not a tables database."""


class StoreUnavailable(Exception):
    """A write could not be made now (the file locked by another program, a full disk): nothing was
    written, and the caller applies nothing. ``why`` says it in words."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


def _why(e: BaseException) -> str:
    text = str(e).lower()
    if "locked" in text or "busy" in text:
        return "the database is locked by another program"
    if "full" in text or getattr(e, "errno", None) == 28:
        return "the disk is full"
    if "readonly" in text or "read-only" in text:
        return "the database is read-only"
    return f"the database failed: {e}"


class Store:
    """The SQLite file of every table."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            if self.path.parent and not self.path.parent.exists():
                self.path.parent.mkdir(parents=True, exist_ok=True)
            fresh = not self.path.exists()
            check_store(self.path)  # before any write: another program's file is refused untouched
            self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            if fresh:
                os.chmod(self.path, 0o600)  # it holds the invitation secrets
            self.db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # durable against a killed process (WAL)
            self.db.executescript(SCHEMA)
            have = {r[1] for r in self.db.execute("PRAGMA table_info(tables)")}
            for column, decl in (("joined", "INTEGER NOT NULL DEFAULT 0"), ("expired", "TEXT")):
                if column not in have:  # a file written before the column existed
                    self.db.execute(f"ALTER TABLE tables ADD COLUMN {column} {decl}")
                    if column == "joined":  # its tables predate the expiry of tables nobody joins: never expire
                        self.db.execute("UPDATE tables SET joined = 1")
        except (sqlite3.Error, OSError) as e:
            raise StoreError(f"cannot use {self.path} as the tables database: {e}") from None
        self._writer: ThreadPoolExecutor | None = None
        self._writer_thread: threading.Thread | None = None
        self.wdb: sqlite3.Connection | None = None

    # -- writing off the event loop --------------------------------------------------------------
    def _open_writer(self) -> None:
        self._writer_thread = threading.current_thread()
        self.wdb = sqlite3.connect(str(self.path), isolation_level=None, timeout=WRITE_WAIT)
        self.wdb.execute("PRAGMA synchronous=NORMAL")  # as the first connection's

    @property
    def _db(self) -> sqlite3.Connection:
        """The writer thread's own connection there, else the caller's (tools write in their thread)."""
        if self.wdb is not None and threading.current_thread() is self._writer_thread:
            return self.wdb
        return self.db

    def submit(self, method: str, *args: Any) -> Future[Any]:
        """Run the write ``method`` in the store's writer thread (one, in order); its future."""
        if self._writer is None:
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="mbrules-store", initializer=self._open_writer)
        return self._writer.submit(getattr(self, method), *args)

    async def write(self, method: str, *args: Any) -> Any:
        """Await the write ``method`` made in the writer thread (the event loop goes on meanwhile);
        :class:`StoreUnavailable` when it cannot be made now (nothing was written)."""
        try:
            return await asyncio.wrap_future(self.submit(method, *args))
        except (sqlite3.Error, OSError) as e:
            raise StoreUnavailable(_why(e)) from None

    def close(self) -> None:
        if self._writer is not None:
            self._writer.submit(self._close_writer).result()
            self._writer.shutdown(wait=True)
        try:
            self.db.close()
        except sqlite3.Error:
            pass

    def _close_writer(self) -> None:
        if self.wdb is not None:
            try:
                self.wdb.close()
            except sqlite3.Error:
                pass

    def add_table(self, table_id: str, setup: Setup) -> None:
        db = self._db
        with db:
            db.execute("BEGIN")
            db.execute(
                "INSERT INTO tables (id, created, setup) VALUES (?, ?, ?)", (table_id, time.time(), json.dumps(setup))
            )

    def update_setup(self, table_id: str, setup: Setup, joined: bool = False) -> None:
        """The table's setup changed (a seat given to a bot, a link replaced); ``joined``: mark it joined too."""
        db = self._db
        with db:
            db.execute("BEGIN")
            db.execute("UPDATE tables SET setup = ? WHERE id = ?", (json.dumps(setup), table_id))
            if joined:
                db.execute("UPDATE tables SET joined = 1 WHERE id = ?", (table_id,))

    def add_step(self, table_id: str, n: int, hand: int, step: Message) -> None:
        """Step ``n`` (0-based) of the table; committed when this returns. A write that failed yet left the
        very row (a commit whose answer was lost, a step written again) counts as written: once, never twice."""
        db, text = self._db, json.dumps(step)
        try:
            with db:
                db.execute("BEGIN")
                db.execute("INSERT INTO steps (table_id, n, hand, step) VALUES (?, ?, ?, ?)", (table_id, n, hand, text))
        except sqlite3.Error:
            try:
                row = db.execute("SELECT step FROM steps WHERE table_id = ? AND n = ?", (table_id, n)).fetchone()
            except sqlite3.Error:
                row = None
            if row is None or row[0] != text:
                raise

    def mark_over(self, table_id: str) -> None:
        """The table's match is over: a restarted server leaves it on disk until a link asks for it."""
        db = self._db
        with db:
            db.execute("BEGIN")
            db.execute("UPDATE tables SET over = 1 WHERE id = ?", (table_id,))

    def mark_joined(self, table_id: str) -> None:
        """A person opened a seat of the table: it no longer expires for want of players."""
        db = self._db
        with db:
            db.execute("BEGIN")
            db.execute("UPDATE tables SET joined = 1 WHERE id = ? AND joined = 0", (table_id,))

    def expire(self, table_id: str, why: str) -> None:
        """The table nobody joined is closed: its steps go, its setup keeps only the secrets (so that its
        links can still be told ``why``), and a restart does not resume it."""
        db = self._db
        row = db.execute("SELECT setup FROM tables WHERE id = ? AND expired IS NULL", (table_id,)).fetchone()
        if row is None:
            return
        setup = json.loads(row[0])
        kept = {k: setup[k] for k in ("secrets", "host_secret") if k in setup}
        with db:
            db.execute("BEGIN")
            db.execute("DELETE FROM steps WHERE table_id = ?", (table_id,))
            db.execute(
                "UPDATE tables SET over = 1, expired = ?, setup = ? WHERE id = ?", (why, json.dumps(kept), table_id)
            )

    def expired(self, table_id: str) -> tuple[str, Setup] | None:
        """Why the table expired and what is kept of its setup (its secrets), or None (never, or no such table)."""
        row = self.db.execute(
            "SELECT expired, setup FROM tables WHERE id = ? AND expired IS NOT NULL", (table_id,)
        ).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def waiting(self) -> list[tuple[str, float]]:
        """The tables in play that no person has joined yet, oldest first: (id, created)."""
        return [
            (r[0], r[1])
            for r in self.db.execute(
                "SELECT id, created FROM tables WHERE joined = 0 AND over = 0 AND expired IS NULL ORDER BY created"
            )
        ]

    def forget_expired(self, before: float) -> int:
        """Drop the expired tables opened before ``before`` (their links then open nothing, as a wrong one);
        returns how many."""
        db = self._db
        with db:
            db.execute("BEGIN")
            return db.execute("DELETE FROM tables WHERE expired IS NOT NULL AND created < ?", (before,)).rowcount

    def count_steps(self, table_id: str) -> int:
        n: int = self.db.execute("SELECT COUNT(*) FROM steps WHERE table_id = ?", (table_id,)).fetchone()[0]
        return n

    def table_ids(self, playing_only: bool = False) -> list[str]:
        """Every table's id, oldest first (``playing_only``: those whose match is not over)."""
        where = " WHERE over = 0 AND expired IS NULL" if playing_only else " WHERE expired IS NULL"
        return [r[0] for r in self.db.execute(f"SELECT id FROM tables{where} ORDER BY created")]

    def load(self, table_id: str) -> StoredTable | None:
        row = self.db.execute(
            "SELECT id, created, setup, joined FROM tables WHERE id = ? AND expired IS NULL", (table_id,)
        ).fetchone()
        if row is None:
            return None
        steps = tuple(
            (hand, json.loads(text))
            for hand, text in self.db.execute("SELECT hand, step FROM steps WHERE table_id = ? ORDER BY n", (table_id,))
        )
        return StoredTable(row[0], row[1], json.loads(row[2]), steps, bool(row[3]))


_OURS = {"tables": {"id", "created", "setup", "over"}, "steps": {"table_id", "n", "hand", "step"}}


def check_store(path: Path) -> None:
    """Raise :class:`StoreError` unless ``path`` is absent, empty, or an mbrules table store: marked with
    :data:`APPLICATION_ID`, or unmarked with only the store's own tables (written before the mark), or an
    SQLite database with no table at all. Read only: the file is left as it was."""
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        ro = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            mark = ro.execute("PRAGMA application_id").fetchone()[0]
            names = [r[0] for r in ro.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
            columns = {n: {r[1] for r in ro.execute(f"PRAGMA table_info({n})")} for n in names if n in _OURS}
        finally:
            ro.close()
    except sqlite3.DatabaseError as e:
        raise StoreError(
            f"{path} is not an mbrules table store ({e}): give --db a new file or an mbrules one"
        ) from None
    if mark == APPLICATION_ID:
        return
    ours_unmarked = mark == 0 and set(names) <= set(_OURS) and all(_OURS[n] <= columns[n] for n in names)
    if not ours_unmarked:
        what = f"its tables are {', '.join(names[:5])}" if names else f"its application_id is {mark}"
        raise StoreError(
            f"{path} is not an mbrules table store (another program's SQLite database: {what}); it was left "
            "untouched: give --db a new file or an mbrules one"
        )


class ServerLock:
    """One server a store: an exclusive lock (``flock``) on ``FILE.lock`` next to the store, held while
    the server runs and released by the system when its process ends, however it ends. The file says
    which process holds it (its pid and address), for the refusal of a second server."""

    def __init__(self, db: Path):
        self.path = db.with_name(db.name + ".lock")
        self.fd: int | None = None
        self.db = db

    def acquire(self) -> None:
        """Take the lock, or raise :class:`StoreError` naming the file and the server holding it."""
        try:
            import fcntl
        except ImportError:  # no flock (Windows): one server a file is the operator's to keep
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise StoreError(f"cannot use {self.db} as the tables database: {e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            held = os.read(fd, 200).decode("utf-8", "replace").strip() or "a process"
            os.close(fd)
            raise StoreError(
                f"{self.db} is in use by another mbrules serve ({held}): stop it, or give this one another --db"
            ) from None
        self.fd = fd
        self.note(f"pid {os.getpid()}")

    def note(self, text: str) -> None:
        """Say in the lock file who holds it (read by a second server's refusal)."""
        if self.fd is not None:
            os.ftruncate(self.fd, 0)
            os.pwrite(self.fd, text.encode("utf-8"), 0)

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)  # the lock goes with the descriptor; the file stays (removing it would race)
            self.fd = None


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/mbrules/tables.sqlite3`` (``~/.local/share/mbrules/tables.sqlite3``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "mbrules" / "tables.sqlite3"


__all__ = [
    "APPLICATION_ID",
    "ServerLock",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "StoredTable",
    "check_store",
    "default_db_path",
]
