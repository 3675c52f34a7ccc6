"""ClickHouse binding: SQL over ClickHouse's HTTP interface, spoken directly on one keep-alive connection per
client (:mod:`ycsbctl.stores.clickhouse.http`), in YCSB's jdbc layout on a MergeTree table
(:mod:`ycsbctl.stores.clickhouse.layout`). YCSB has no ClickHouse binding.

- READ: ``SELECT * FROM t WHERE YCSB_KEY = '…'`` (one granule of the primary index read); NOT_FOUND
  when no row comes back.
- INSERT: ``INSERT INTO t VALUES ('…', …)``, one row per statement, as YCSB inserts (each becomes a data
  part that ClickHouse merges in the background; a key already stored is not refused: MergeTree has no
  unique key, and such an insert is OK, as ClickHouse says).
- SCAN: ``SELECT * FROM t WHERE YCSB_KEY >= '…' ORDER BY YCSB_KEY LIMIT n``.
- UPDATE and DELETE: refused before anything starts (see ``ClickHouseProtocol.unsupported``).

Why not a driver: ``clickhouse-driver`` (the native TCP protocol) decodes every column block in Python,
and the HTTP drivers (``clickhouse-connect``) need a newer server than 18.16; this path writes one
request and judges its reply by its frame, chained from the previous reply as on the Redis path
(``bench store_clients --stores clickhouse``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from ycsbctl.stores.binding import (
    ChainContext,
    ConnectionLost,
    Fields,
    Status,
    Values,
    WireBinding,
    WireProtocol,
)
from ycsbctl.stores.chain import ChainRun, run_chain
from ycsbctl.stores.clickhouse import http
from ycsbctl.stores.clickhouse.layout import Statements
from ycsbctl.stores.http1 import parse
from ycsbctl.workload.core import ALL_FIELDS, READ

OK, NOT_FOUND, ERROR = int(Status.OK), int(Status.NOT_FOUND), int(Status.ERROR)
_now = time.perf_counter_ns
_TIMEOUT = object()


class _Http(WireProtocol):
    """Replies in request order: a chain gets its status, a future the :class:`~http.Reply`."""

    def __init__(self) -> None:
        super().__init__()
        self.buf = b""

    def data_received(self, data: bytes) -> None:
        waiters = self.waiters
        if not self.buf and len(waiters) == 1 and waiters[0].__class__ is _Chain:
            rows = http.whole_rows(data)  # a whole 200 reply in this read (the usual case)
            if rows >= 0:
                waiters.popleft().replied(200, rows, None)
                return
        buf = self.buf + data if self.buf else data
        while buf:
            reply, used = parse(buf, http.Reply)
            if reply is None:
                break
            buf = buf[used:]
            if not waiters:
                self.unsolicited(reply.error() if reply.status != 200 else None)
                continue
            w = waiters.popleft()
            if w.__class__ is _Chain:
                w.replied(reply.status, reply.rows(), reply)
            elif not w.done():
                w.set_result(reply)
            else:
                self.late += 1
        self.buf = buf



class _Chain(ChainRun):
    """Consecutive READ / INSERT operations of one client, each written from the previous one's reply."""

    __slots__ = ()

    def issue(self) -> None:
        i = self.i
        op = self.ops[i]
        b = self.b
        if op == READ:
            payload = b.read_request(self.ctx.table, self.keys[i])
        else:  # INSERT (UPDATE is refused before a run starts)
            payload = b.insert_request(self.ctx.table, self.keys[i], self.ctx.names[0], self.ctx.values(ALL_FIELDS))
        self.op = op
        b.proto.waiters.append(self)
        b.seq += 1
        self.write(payload)

    def replied(self, status: int, rows: int, reply: http.Reply | None) -> None:
        if self.late():
            return
        t1 = _now()
        if status != 200:
            self.b.last_error = f"ClickHouse: {reply.error() if reply else status}"[:300]
            st = ERROR
        elif self.op == READ:
            st = OK if rows else NOT_FOUND
        else:
            st = OK
        self.complete(st, t1)


class ClickHouseBinding(WireBinding):
    """One client = one HTTP connection, one statement in flight."""

    EXPIRED = _TIMEOUT
    SERVER = "the ClickHouse server"

    def __init__(self, host: str, port: int, statements: Statements, timeout_s: float) -> None:
        super().__init__(timeout_s)
        self.host, self.port = host, port
        self.proto: _Http | None = None
        self.sql = statements
        self._read_heads: dict[tuple[str, int], bytes] = {}  # (table, key length) → a READ's bytes up to its key

    def address(self) -> str:
        return f"{self.SERVER} at {self.host}:{self.port}"

    async def open(self) -> None:
        _, self.proto = await self.loop.create_connection(_Http, self.host, self.port)  # type: ignore[union-attr]
        r = await self.send(http.request(self.sql.path, b"SELECT 1"))
        if r.status != 200:
            raise ConnectionLost(f"{self.address()} refused the connection: {r.error()}")


    def read_request(self, table: str, key: bytes) -> bytes:
        if b"'" in key or b"\\" in key:
            return http.request(self.sql.path, self.sql.read(table) % http.quote(key))
        head = self._read_heads.get((table, len(key)))
        if head is None:  # the request's bytes before the key, and the quote after it
            full = http.request(self.sql.path, self.sql.read(table) % (b"\0" * len(key)))
            head = self._read_heads[(table, len(key))] = full[:-len(key) - 1]
        return head + key + b"'"

    def insert_request(self, table: str, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        return http.request(self.sql.path,
                            self.sql.insert(table, tuple(names)) % (http.quote(key), *map(http.quote, values)))

    async def _reply(self, payload: bytes) -> http.Reply | Status:
        r = await self.call(payload)
        if r.__class__ is not Status and r.status != 200:
            self.last_error = f"ClickHouse: {r.error()}"[:300]
            return Status.ERROR
        return r

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        r = await self._reply(self.read_request(table, key))
        return r if isinstance(r, Status) else (Status.OK if r.rows() else Status.NOT_FOUND)

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        r = await self._reply(self.read_request(table, key))
        if isinstance(r, Status):
            return r, {}
        if not r.rows():
            return Status.NOT_FOUND, {}
        return Status.OK, self.sql.row_fields(r.body.split(b"\n", 1)[0], fields)

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        r = await self._reply(self.insert_request(table, key, [n for n, _ in values], [v for _, v in values]))
        return r if isinstance(r, Status) else Status.OK

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        self.last_error = "ClickHouse has no row update (refused before a run starts)"
        return Status.ERROR

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        r = await self._reply(http.request(self.sql.path, self.sql.scan(table) % (http.quote(start_key), count)))
        return r if isinstance(r, Status) else Status.OK

    async def delete(self, table: str, key: bytes) -> Status:
        self.last_error = "ClickHouse has no row delete (refused before a run starts)"
        return Status.ERROR

    async def chain(self, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int) -> tuple[int, int]:
        """Operations ``start:end`` of ``batch`` (READ / INSERT) from the reply callback. Returns (done, failed)."""
        return await run_chain(_Chain, self, ctx, batch, start, end)

    async def ch(self, sql: str) -> tuple[int, list[list[bytes]]]:
        """One statement (for workload plug-ins) → (status, its TabSeparated rows, each a list of cells as sent:
        TSV escapes left in). An error is ERROR with ClickHouse's message in ``last_error``."""
        r = await self._reply(http.request(self.sql.path, sql.encode()))
        if isinstance(r, Status):
            return int(r), []
        return OK, [line.split(b"\t") for line in r.body.split(b"\n") if line]
