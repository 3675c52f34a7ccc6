"""SQLite binding: Python's ``sqlite3`` on one file, YCSB's jdbc layout (:mod:`ycsbctl.stores.sql.layout`).

SQLite is embedded: each call runs in the client's own process, on the event loop's thread (no
network, nothing to await), so the clients of one engine worker take turns and a worker's CPU
is the store's. Every client has its own connection (autocommit), and sqlite3 keeps each
statement shape prepared (its statement cache). Writers of several worker processes take turns
on the file's lock: a busy one waits up to the operation timeout, then ERROR.

The wait is the binding's own, not SQLite's busy handler (its connections have a busy timeout of 0): a
statement SQLite answers ``SQLITE_BUSY`` ("database is locked") is tried again after SQLite's own delays
(:data:`BUSY_DELAYS_S`), and the binding counts those calls, their wait and the calls that waited at least
:data:`LONG_LOCK_S` (:attr:`SqliteBinding.counts`, summed into the point's ``binding_counts``) — the evidence that
a pause of the client's loop was the store's lock, even when the program that held it has exited by the end of the
point (:meth:`ycsbctl.stores.sqlite.store.SqliteProtocol.pause_cause`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from ycsbctl.stores.binding import Binding, ConnectionLost, Fields, Status, Values
from ycsbctl.stores.sql.layout import QMARK, columns, create_table, row_status, split_values

T = TypeVar("T")

# The durability settings of every connection: WAL journal, no fsync (the file is on tmpfs anyway).
PRAGMAS = {"journal_mode": "WAL", "synchronous": "OFF"}
# Between tries of a statement answered SQLITE_BUSY: SQLite's own busy handler's delays (sqliteDefaultBusyCallback),
# then its last one again until the operation timeout
BUSY_DELAYS_S = (0.001, 0.002, 0.005, 0.01, 0.015, 0.02, 0.025, 0.025, 0.025, 0.05, 0.05, 0.1)
# One call waiting this long (s) on the lock: held longer than any one statement of ours holds it (our writes are
# single autocommit statements on tmpfs: µs to ms, even when the engine's processes take turns)
LONG_LOCK_S = 0.5
SQLITE_BUSY = 5  # the result code of "database is locked"


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether SQLite answered SQLITE_BUSY ("database is locked": another connection holds the lock)."""
    return getattr(exc, "sqlite_errorcode", None) == SQLITE_BUSY or "database is locked" in str(exc)


def _journal_mode(conn: sqlite3.Connection) -> str:
    """The database file's journal mode, upper case (``WAL``, ``DELETE``, …)."""
    return str(conn.execute("PRAGMA journal_mode").fetchone()[0]).upper()


def connect(path: str, timeout_s: float, busy_timeout_s: float | None = None) -> sqlite3.Connection:
    """A connection in autocommit mode with :data:`PRAGMAS`; ConnectionLost when the file cannot be opened.

    Switching to WAL takes the file's exclusive lock, and SQLite answers "database is locked" at once when
    another connection holds it — its busy handler is not asked (a load's worker processes open the file
    together) — so the switch is tried again until ``timeout_s``; WAL persists in the file, so a file
    already in WAL is not switched at all. ``busy_timeout_s``: SQLite's own busy timeout (``timeout_s``
    when not given; 0 for a binding, which waits itself)."""
    deadline = time.monotonic() + timeout_s
    try:
        busy_s = timeout_s if busy_timeout_s is None else busy_timeout_s
        conn = sqlite3.connect(path, timeout=busy_s, isolation_level=None, check_same_thread=False,
                               cached_statements=256)
        for name, value in PRAGMAS.items():
            while True:
                try:
                    # a file already in WAL (it persists in the file) is not switched again
                    current = _journal_mode(conn) if name == "journal_mode" else None
                    if current != value:
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
        # calls answered SQLITE_BUSY, their wait (ms) and those that waited ≥ LONG_LOCK_S (see the module docstring)
        self.counts = {"sqlite_busy_calls": 0, "sqlite_busy_ms": 0, "sqlite_busy_long": 0}

    async def connect(self) -> None:
        self.conn = connect(self.path, self.timeout_s, busy_timeout_s=0.0)

    def _retry(self, exc: sqlite3.Error, again: Callable[[], T]) -> T | Status:
        """``again()`` (the statement that raised ``exc``) tried after each of :data:`BUSY_DELAYS_S` while SQLite
        answers SQLITE_BUSY, up to the operation timeout; its result, else ERROR (``last_error``). The wait is
        counted in :attr:`counts`."""
        if not is_busy(exc):
            return self._fail(exc)
        t0 = time.perf_counter()
        k = 0
        try:
            while time.perf_counter() - t0 < self.timeout_s:
                time.sleep(min(BUSY_DELAYS_S[min(k, len(BUSY_DELAYS_S) - 1)],
                               max(0.0, self.timeout_s - (time.perf_counter() - t0))))
                k += 1
                try:
                    return again()
                except sqlite3.Error as later:
                    if not is_busy(later):
                        return self._fail(later)
                    exc = later
            return self._fail(exc)
        finally:
            waited = time.perf_counter() - t0
            c = self.counts
            c["sqlite_busy_calls"] += 1
            c["sqlite_busy_ms"] += round(waited * 1000)
            c["sqlite_busy_long"] += waited >= LONG_LOCK_S

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
        def run() -> tuple[int, list[tuple], int]:
            cur = self.conn.execute(statement, params)  # type: ignore[union-attr]
            return Status.OK, cur.fetchall(), max(cur.rowcount, 0)

        try:
            return run()
        except sqlite3.Error as exc:
            out = self._retry(exc, run)
            return (out, [], 0) if isinstance(out, Status) else out

    def _rows(self, sql: str, args: Sequence) -> list | Status:
        try:
            return self.conn.execute(sql, args).fetchall()  # type: ignore[union-attr]
        except sqlite3.Error as exc:
            return self._retry(exc, lambda: self.conn.execute(sql, args).fetchall())  # type: ignore[union-attr]

    def _write(self, sql: str, args: Sequence) -> Status:
        try:
            return row_status(self.conn.execute(sql, args).rowcount)  # type: ignore[union-attr]
        except sqlite3.Error as exc:
            return self._retry(exc, lambda: row_status(self.conn.execute(sql, args).rowcount))  # type: ignore[union-attr]

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
