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
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

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
    setup: dict
    steps: tuple[tuple[int, dict], ...]  # (hand number, step fields), in order
    joined: bool = False  # a person has opened a seat of it (it no longer expires for want of players)


class StoreError(Exception):
    """The database file cannot be opened or is not a tables database."""


class Store:
    """The SQLite file of every table."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            if self.path.parent and not self.path.parent.exists():
                self.path.parent.mkdir(parents=True, exist_ok=True)
            fresh = not self.path.exists()
            self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            if fresh:
                os.chmod(self.path, 0o600)  # it holds the invitation secrets
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

    def close(self) -> None:
        try:
            self.db.close()
        except sqlite3.Error:
            pass

    def add_table(self, table_id: str, setup: dict) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO tables (id, created, setup) VALUES (?, ?, ?)", (table_id, time.time(), json.dumps(setup))
            )

    def update_setup(self, table_id: str, setup: dict) -> None:
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE tables SET setup = ? WHERE id = ?", (json.dumps(setup), table_id))

    def add_step(self, table_id: str, n: int, hand: int, step: dict) -> None:
        """Step ``n`` (0-based) of the table; committed when this returns."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO steps (table_id, n, hand, step) VALUES (?, ?, ?, ?)", (table_id, n, hand, json.dumps(step))
            )

    def mark_over(self, table_id: str) -> None:
        """The table's match is over: a restarted server leaves it on disk until a link asks for it."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE tables SET over = 1 WHERE id = ?", (table_id,))

    def mark_joined(self, table_id: str) -> None:
        """A person opened a seat of the table: it no longer expires for want of players."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("UPDATE tables SET joined = 1 WHERE id = ? AND joined = 0", (table_id,))

    def expire(self, table_id: str, why: str) -> None:
        """The table nobody joined is closed: its steps go, its setup keeps only the secrets (so that its
        links can still be told ``why``), and a restart does not resume it."""
        stored = self.load(table_id)
        if stored is None:
            return
        kept = {k: stored.setup[k] for k in ("secrets", "host_secret") if k in stored.setup}
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute("DELETE FROM steps WHERE table_id = ?", (table_id,))
            self.db.execute(
                "UPDATE tables SET over = 1, expired = ?, setup = ? WHERE id = ?", (why, json.dumps(kept), table_id)
            )

    def expired(self, table_id: str) -> tuple[str, dict] | None:
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
        with self.db:
            self.db.execute("BEGIN")
            return self.db.execute("DELETE FROM tables WHERE expired IS NOT NULL AND created < ?", (before,)).rowcount

    def count_steps(self, table_id: str) -> int:
        return self.db.execute("SELECT COUNT(*) FROM steps WHERE table_id = ?", (table_id,)).fetchone()[0]

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


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/mbrules/tables.sqlite3`` (``~/.local/share/mbrules/tables.sqlite3``)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "mbrules" / "tables.sqlite3"


__all__ = ["Store", "StoreError", "StoredTable", "default_db_path"]
