"""What the SQL wire bindings (PostgreSQL's, MariaDB's) share: each YCSB operation as one request
that the store's binding builds, its reply turned into YCSB's status by the store's own rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ycsbctl.stores.binding import ChainContext, Fields, Status, Values, WireBinding
from ycsbctl.stores.chain import run_chain
from ycsbctl.stores.sql.chain import SqlChain
from ycsbctl.workload.core import INSERT, READ, UPDATE

OK = Status.OK


class SqlWireBinding(WireBinding):
    """One YCSB client thread over a SQL server's wire protocol: its own connection, one statement in
    flight. A subclass builds the requests (``read_request``, ``insert_request``, ``update_request``),
    judges a reply (``status``) and gives the values of its first row (``first_values``)."""

    SERVER = "the SQL server"
    host: str
    port: int

    def address(self) -> str:
        return f"{self.SERVER} at {self.host}:{self.port}"

    def read_request(self, table: str, key: bytes, names: tuple[bytes, ...] | None) -> bytes:
        raise NotImplementedError

    def insert_request(self, table: str, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        raise NotImplementedError

    def update_request(self, table: str, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        raise NotImplementedError

    def status(self, op: int, r: Any) -> Status:
        raise NotImplementedError

    def first_values(self, r: Any) -> list[bytes | None]:
        """The columns of the reply's first row, in the order the read asked for them."""
        raise NotImplementedError

    async def _call(self, op: int, message: bytes) -> Status:
        r = await self.call(message)
        return r if r.__class__ is Status else self.status(op, r)

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        return await self._call(READ, self.read_request(table, key, None if fields is None else tuple(fields)))

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        r: Any = await self.call(self.read_request(table, key, tuple(fields)))
        if r.__class__ is Status:
            return r, {}
        st = self.status(READ, r)
        if st != OK:
            return st, {}
        return OK, {f: v for f, v in zip(fields, self.first_values(r)) if v is not None}

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        return await self._call(INSERT, self.insert_request(table, key, [n for n, _ in values], [v for _, v in values]))

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        return await self._call(UPDATE, self.update_request(table, key, [n for n, _ in values], [v for _, v in values]))

    async def chain(self, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int) -> tuple[int, int]:
        """Operations ``start:end`` of ``batch`` (READ / UPDATE / INSERT), each written from the previous
        one's reply (:mod:`ycsbctl.stores.sql.chain`), timed once through ``ctx.record``. Returns (done, failed)."""
        return await run_chain(SqlChain, self, ctx, batch, start, end)
