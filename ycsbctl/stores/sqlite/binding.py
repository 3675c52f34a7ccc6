"""SQLite binding: Python's ``sqlite3`` on one file, YCSB's jdbc layout (:mod:`ycsbctl.stores.sql.layout`).

SQLite is embedded: each call runs in the client's own process, on the event loop's thread (no
network, nothing to await), so the clients of one engine worker take turns and a worker's CPU
is the store's. Every client has its own connection (autocommit), and sqlite3 keeps each
statement shape prepared (its statement cache). Writers of several worker processes take turns
on the file's lock: a busy one waits up to the operation timeout (``busy_timeout``), then ERROR.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence

from ycsbctl.stores.binding import Binding, ConnectionLost, Fields, Status, Values
from ycsbctl.stores.sql.layout import QMARK, columns, create_table, row_status, split_values

# The durability settings of every connection: WAL journal, no fsync (the file is on tmpfs anyway).
PRAGMAS = {"journal_mode": "WAL", "synchronous": "OFF"}


def connect(path: str, timeout_s: float) -> sqlite3.Connection:
    """A connection in autocommit mode with :data:`PRAGMAS`; ConnectionLost when the file cannot be opened.

    Switching to WAL takes the file's exclusive lock, and SQLite answers "database is locked" at once when
    another connection holds it — its busy handler is not asked (a load's worker processes open the file
    together) — so the switch is tried again until ``timeout_s``; WAL persists in the file, so a file
    already in WAL is not switched at all."""
    deadline = time.monotonic() + timeout_s
    try:
        conn = sqlite3.connect(path, timeout=timeout_s, isolation_level=None, check_same_thread=False,
                               cached_statements=256)
        for name, value in PRAGMAS.items():
            while True:
                try:
                    if name != "journal_mode" or str(conn.execute("PRAGMA journal_mode").fetchone()[0]).upper() != value:
                        conn.execute(f"PRAGMA {name}={value}")
                    break
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) or time.monotonic() > deadline:
                        raise
                    time.sleep(0.01)
    except sqlite3.Error as exc:
        raise ConnectionLost(f"cannot open SQLite database {path}: {exc}") from None
    return conn


def ensure_table(path: str, table: str, fields: Sequence[str], timeout_s: float) -> None:
    conn = connect(path, timeout_s)
    try:
        conn.execute(create_table(table, fields))
    finally:
        conn.close()


class SqliteBinding(Binding):
    """One client thread: one connection to the database file."""

    blocking = True  # each call runs on the loop's thread to its end (see engine.worker.TURN_NS)

    def __init__(self, path: str, timeout_s: float) -> None:
        self.path, self.timeout_s = path, timeout_s
        self.conn: sqlite3.Connection | None = None

    async def connect(self) -> None:
        self.conn = connect(self.path, self.timeout_s)

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def _fail(self, exc: sqlite3.Error) -> Status:
        self.last_error = f"SQLite: {exc}"
        return Status.ERROR

    async def sql(self, statement: str, params: Sequence[object] = ()) -> tuple[int, list[tuple], int]:
        """Any statement (``?`` placeholders) → (status, its rows, rows it changed): the generic request a
        workload plug-in's executor speaks through (``workload.plugin.SqlBinding``)."""
        try:
            cur = self.conn.execute(statement, params)  # type: ignore[union-attr]
            return Status.OK, cur.fetchall(), max(cur.rowcount, 0)
        except sqlite3.Error as exc:
            return self._fail(exc), [], 0

    def _rows(self, sql: str, args: Sequence) -> list | Status:
        try:
            return self.conn.execute(sql, args).fetchall()  # type: ignore[union-attr]
        except sqlite3.Error as exc:
            return self._fail(exc)

    def _write(self, sql: str, args: Sequence) -> Status:
        try:
            return row_status(self.conn.execute(sql, args).rowcount)  # type: ignore[union-attr]
        except sqlite3.Error as exc:
            return self._fail(exc)

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        rows = self._rows(QMARK.read(table, columns(fields)), (key.decode(),))
        return rows if isinstance(rows, Status) else row_status(len(rows))

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        rows = self._rows(QMARK.read(table, columns(fields)), (key.decode(),))
        if isinstance(rows, Status):
            return rows, {}
        if not rows:
            return Status.NOT_FOUND, {}
        return Status.OK, {f: v.encode("latin-1") for f, v in zip(fields, rows[0]) if v is not None}

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        names, texts = split_values(values)
        return self._write(QMARK.insert(table, names), (key.decode(), *texts))

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        names, texts = split_values(values)
        return self._write(QMARK.update(table, names), (*texts, key.decode()))

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        rows = self._rows(QMARK.scan(table, columns(fields)), (start_key.decode(), count))
        return rows if isinstance(rows, Status) else Status.OK

    async def delete(self, table: str, key: bytes) -> Status:
        return self._write(QMARK.delete(table), (key.decode(),))
