"""MariaDB binding through asyncmy (a Cython MySQL-protocol client for asyncio), one connection per
client thread, YCSB's jdbc layout: for URLs with a password or options (and ``-p mariadb.driver=asyncmy``);
the others use the wire-protocol binding (:mod:`ycsbctl.stores.mariadb.wire`, half the client CPU).

Statements go as text with the values escaped by the driver, as MariaDB Connector/J sends YCSB's
prepared statements by default (``useServerPrepStmts=false``): one round trip per operation. As
Connector/J by default, an UPDATE's row count is the rows it matched (``CLIENT_FOUND_ROWS``), not the
rows it changed: rewriting a record with the values it holds is OK, not NOT_FOUND.
A statement that takes longer than the operation timeout is TIMEOUT and its connection is replaced
(a reply may still be on its way); a lost connection is reconnected once, else the client stops.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import asyncmy
from asyncmy.constants.CLIENT import FOUND_ROWS
from asyncmy.errors import Error as MySQLError
from asyncmy.errors import InterfaceError, OperationalError

from ycsbctl.stores.binding import Binding, ConnectionLost, Fields, Status, Values
from ycsbctl.stores.mariadb.session import ER_CON_COUNT_ERROR, TOO_MANY, connect_args
from ycsbctl.stores.sql.layout import (
    FORMAT,
    columns,
    create_table,
    field_names,
    row_status,
    row_values,
    split_values,
)

_LOST_CODES = (2006, 2013, 2055)  # server gone away, lost connection during query, lost connection


_DRIVER_LOG = logging.getLogger("asyncmy")  # where asyncmy's cursors log the server's Notes and warnings


class _Unless(logging.Filter):
    """Drops the log records whose message contains ``text``."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def filter(self, record: logging.LogRecord) -> bool:
        return self.text not in record.getMessage()


class MariaBinding(Binding):
    """One client thread of YCSB's jdbc binding against MariaDB."""

    def __init__(self, url: str, timeout_s: float) -> None:
        self.args = connect_args(url)
        self.timeout_s = timeout_s
        self.conn: Any = None  # asyncmy's Connection and Cursor (Cython: untyped)
        self.cur: Any = None

    async def connect(self) -> None:
        a = self.args
        try:
            self.conn = await asyncio.wait_for(
                asyncmy.connect(host=a["host"], port=a["port"], user=a["user"], password=a["password"],
                                database=a["db"], autocommit=True, client_flag=FOUND_ROWS, ssl=a["ssl"]),
                timeout=max(self.timeout_s, 1.0))
        except (OSError, asyncio.TimeoutError, MySQLError) as exc:
            why = str(exc) or "no answer (timed out)"
            from ycsbctl.stores.mariadb.wire import UNTRUSTED_FIX
            from ycsbctl.stores.sql.tls import untrusted

            why = f"{hint} ({why})" if (hint := untrusted(exc, UNTRUSTED_FIX)) else why
            if isinstance(exc, MySQLError) and exc.args[:1] == (ER_CON_COUNT_ERROR,):
                why += f" — {TOO_MANY}"
            if a["ssl"] is None and "using password: NO" in why:  # require_secure_transport refuses a plain client so
                why += " (if the server takes TLS clients only, add ?ssl=true to the URL)"
            raise ConnectionLost(f"cannot reach the MariaDB server: {why}") from None
        self.cur = self.conn.cursor()

    async def ensure_table(self, properties: dict[str, str]) -> None:
        """YCSB's table, unless it exists. IF NOT EXISTS on an existing table is a Note that the driver
        logs as a warning (a bare line on stderr): ask first, and keep quiet the Note of a table another
        engine process created between the question and this CREATE (each process asks as it starts)."""
        table = properties.get("table", "usertable")
        await self.cur.execute("SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() "
                               "AND table_name = %s", (table,))
        if not await self.cur.fetchall():
            quiet = _Unless("already exists")
            _DRIVER_LOG.addFilter(quiet)
            try:
                await self.cur.execute(create_table(table, field_names(properties)))
            finally:
                _DRIVER_LOG.removeFilter(quiet)

    async def close(self) -> None:
        conn, self.conn, self.cur = self.conn, None, None
        if conn is not None:
            conn.close()

    async def _failed(self, exc: BaseException) -> Status:
        timed_out = isinstance(exc, asyncio.TimeoutError)
        lost = timed_out or isinstance(exc, InterfaceError | OSError) or (
            isinstance(exc, OperationalError) and exc.args and exc.args[0] in _LOST_CODES)
        if not lost:
            self.last_error = f"MariaDB: {exc}"
            return Status.ERROR
        why = f"timed out after {self.timeout_s:g} s" if timed_out else (str(exc) or type(exc).__name__)
        await self.close()
        try:
            await self.connect()
        except ConnectionLost as gone:
            raise ConnectionLost(f"lost the MariaDB server ({why}); reconnecting failed: {gone}") from None
        self.last_error = why if timed_out else f"connection lost: {why}"
        return Status.TIMEOUT if timed_out else Status.ERROR

    async def _execute(self, sql: str, args: Sequence) -> int | Status:
        try:
            return await asyncio.wait_for(self.cur.execute(sql, args), self.timeout_s)
        except (MySQLError, asyncio.TimeoutError, OSError) as exc:
            return await self._failed(exc)

    async def sql(self, statement: str, params: Sequence[object] = ()) -> tuple[int, list[tuple], int]:
        """Any statement (``?`` placeholders) → (status, its rows, rows it matched): the generic request a
        workload plug-in's executor speaks through (``workload.plugin.SqlBinding``). A statement that returns rows
        (a SELECT) matched none: asyncmy's count is then its rows, which the wire path and the server's own
        ``ROW_COUNT()`` (-1) never call matched."""
        n = await self._execute(statement.replace("%", "%%").replace("?", "%s"), params)
        if isinstance(n, Status):
            return n, [], 0
        if self.cur.description is not None:  # a result set: its rows, none matched
            return Status.OK, list(await self.cur.fetchall() or ()), 0
        return Status.OK, [], int(n)

    async def _row(self, sql: str, args: Sequence) -> tuple | None | Status:
        n = await self._execute(sql, args)
        if isinstance(n, Status):
            return n
        return await self.cur.fetchone() if n else None

    async def _write(self, sql: str, args: Sequence) -> Status:
        n = await self._execute(sql, args)
        return n if isinstance(n, Status) else row_status(n)

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        row = await self._row(FORMAT.read(table, columns(fields)), (key.decode(),))
        return row if isinstance(row, Status) else row_status(row is not None)

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        return row_values(await self._row(FORMAT.read(table, columns(fields)), (key.decode(),)), fields)

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        names, texts = split_values(values)
        return await self._write(FORMAT.insert(table, names), (key.decode(), *texts))

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        names, texts = split_values(values)
        return await self._write(FORMAT.update(table, names), (*texts, key.decode()))

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        n = await self._execute(FORMAT.scan(table, columns(fields)), (start_key.decode(), count))
        if isinstance(n, Status):
            return n
        await self.cur.fetchall()
        return Status.OK

    async def delete(self, table: str, key: bytes) -> Status:
        return await self._write(FORMAT.delete(table), (key.decode(),))
