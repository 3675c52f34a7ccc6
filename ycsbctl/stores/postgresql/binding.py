"""PostgreSQL binding through asyncpg, one connection per client thread, YCSB's jdbc layout: for URLs
with a password or options (and ``-p postgresql.driver=asyncpg``); plain URLs use the wire-protocol
binding (:mod:`ycsbctl.stores.postgresql.wire`, a third less client CPU per operation).

asyncpg prepares each statement shape once per connection (its statement cache) and then sends
Bind/Execute only, parsed in Cython: the fastest asyncio driver for PostgreSQL we measured
(``bench sql_clients``). A statement that takes longer than the operation timeout is cancelled by
asyncpg (TIMEOUT); a lost connection (the server gone, or a FATAL error such as ``pg_terminate_backend``
closing it) is reconnected once, else the client stops (:class:`ConnectionLost`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import asyncpg

from ycsbctl.stores.binding import Binding, ConnectionLost, Fields, Status, Values
from ycsbctl.stores.sql.layout import DOLLAR, columns, row_status, row_values, split_values

_LOST = (asyncpg.exceptions.ConnectionDoesNotExistError, asyncpg.exceptions.InterfaceError,
         asyncpg.exceptions.InternalClientError, ConnectionError, OSError)


class PgBinding(Binding):
    """One client thread of YCSB's jdbc binding against PostgreSQL."""

    def __init__(self, url: str, timeout_s: float) -> None:
        self.url, self.timeout_s = url, timeout_s
        self.conn: asyncpg.Connection | None = None

    async def connect(self) -> None:
        try:
            self.conn = await asyncpg.connect(self.url, timeout=max(self.timeout_s, 1.0))
        except (OSError, asyncio.TimeoutError, asyncpg.PostgresError) as exc:
            raise ConnectionLost(f"cannot reach the PostgreSQL server: {str(exc) or 'no answer (timed out)'}") from None

    async def close(self) -> None:
        if self.conn is not None:
            conn, self.conn = self.conn, None
            try:
                await conn.close(timeout=2)
            except Exception:  # noqa: BLE001 - closing is best effort
                conn.terminate()

    async def _failed(self, exc: BaseException) -> Status:
        if isinstance(exc, asyncio.TimeoutError):
            self.last_error = f"timed out after {self.timeout_s:g} s"
            return Status.TIMEOUT
        gone = self.conn is None or self.conn.is_closed()  # a FATAL (pg_terminate_backend) closed it
        if isinstance(exc, asyncpg.PostgresError) and not isinstance(exc, _LOST) and not gone:
            self.last_error = f"PostgreSQL: {type(exc).__name__}: {exc}"
            return Status.ERROR
        why = str(exc) or type(exc).__name__
        if isinstance(exc, asyncpg.exceptions.InternalClientError):  # asyncpg's state after a FATAL it read idle
            why = "the server closed the connection"
        await self.close()
        try:
            await self.connect()
        except ConnectionLost as lost:
            raise ConnectionLost(f"lost the PostgreSQL server ({why}); reconnecting failed: {lost}") from None
        self.last_error = f"connection lost: {why}"
        return Status.ERROR

    async def sql(self, statement: str, params: Sequence[object] = ()) -> tuple[int, list[tuple], int]:
        """Any statement (``$n`` placeholders) → (status, its rows, rows it changed): the generic request a
        workload plug-in's executor speaks through (``workload.plugin.SqlBinding``)."""
        conn: asyncpg.Connection = self.conn
        try:
            if (statement.split(None, 1) or [""])[0].upper() in ("SELECT", "WITH"):  # its first word: rows to fetch
                return Status.OK, [tuple(r) for r in await conn.fetch(statement, *params, timeout=self.timeout_s)], 0
            tag = await conn.execute(statement, *params, timeout=self.timeout_s)
        except (asyncpg.PostgresError, asyncio.TimeoutError, *_LOST) as exc:
            return await self._failed(exc), [], 0
        last = tag.rpartition(" ")[2]
        return Status.OK, [], int(last) if last.isdigit() else 0

    async def _row(self, sql: str, *args: object) -> asyncpg.Record | None | Status:
        try:
            return await self.conn.fetchrow(sql, *args, timeout=self.timeout_s)  # type: ignore[union-attr]
        except (asyncpg.PostgresError, asyncio.TimeoutError, *_LOST) as exc:
            return await self._failed(exc)

    async def _write(self, sql: str, *args: object) -> Status:
        try:
            tag = await self.conn.execute(sql, *args, timeout=self.timeout_s)  # type: ignore[union-attr]
        except (asyncpg.PostgresError, asyncio.TimeoutError, *_LOST) as exc:
            return await self._failed(exc)
        return row_status(int(tag.rpartition(" ")[2]))  # "UPDATE 1", "INSERT 0 1", "DELETE 0": always a count

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        row = await self._row(DOLLAR.read(table, columns(fields)), key.decode())
        return row if isinstance(row, Status) else row_status(row is not None)

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        return row_values(await self._row(DOLLAR.read(table, columns(fields)), key.decode()), fields)

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        names, texts = split_values(values)
        return await self._write(DOLLAR.insert(table, names), key.decode(), *texts)

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        names, texts = split_values(values)
        return await self._write(DOLLAR.update(table, names), *texts, key.decode())

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        try:
            await self.conn.fetch(DOLLAR.scan(table, columns(fields)), start_key.decode(), count,  # type: ignore[union-attr]
                                  timeout=self.timeout_s)
        except (asyncpg.PostgresError, asyncio.TimeoutError, *_LOST) as exc:
            return await self._failed(exc)
        return Status.OK

    async def delete(self, table: str, key: bytes) -> Status:
        return await self._write(DOLLAR.delete(table), key.decode())
