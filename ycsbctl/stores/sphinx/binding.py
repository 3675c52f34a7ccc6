"""Sphinx binding: SphinxQL (:mod:`ycsbctl.stores.sphinx.wire`) on one connection per client, one document per
record in the real-time index ``usertable`` (infra/sphinx/sphinx.conf). YCSB has no Sphinx binding.

A document's id is the key's number + 1 (``user42`` → 43: Sphinx numbers its documents, from 1); the key and
each field are stored string attributes.

- READ: ``SELECT * FROM usertable WHERE id = N``; NOT_FOUND when no row comes back.
- INSERT: ``INSERT INTO usertable (id, key_text, ycsb_key, field0, …) VALUES (…)``; an id already stored is
  ERROR ("duplicate id"), as on the other stores.
- SCAN: ``SELECT * FROM usertable WHERE id >= N ORDER BY id ASC LIMIT n`` — the next records by number, as
  the Redis binding's scan follows its own order (``_indices`` scores), not YCSB's string order.
- DELETE: ``DELETE FROM usertable WHERE id = N``; NOT_FOUND when nothing was deleted.
- UPDATE: refused before anything starts (``SphinxProtocol.unsupported``).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Sequence

from ycsbctl.stores.binding import ChainContext, ConnectionLost, Fields, Status, Values, WireBinding
from ycsbctl.stores.chain import ChainRun, run_chain
from ycsbctl.stores.mysql41 import quote
from ycsbctl.stores.sphinx import wire
from ycsbctl.workload.core import ALL_FIELDS, DELETE, INSERT, READ, SCAN

OK, NOT_FOUND, ERROR = int(Status.OK), int(Status.NOT_FOUND), int(Status.ERROR)
_now = time.perf_counter_ns
_TIMEOUT = object()
_NUMBERED = re.compile(rb"^[A-Za-z_]*(\d+)$")
INDEX = b"usertable"
_READ = b"\x03SELECT * FROM usertable WHERE id = %d"  # COM_QUERY's payload (wire.query, inlined)


def document_id(key: bytes) -> int:
    """``user42`` → 43 (YCSB's keys are a prefix and a number); ``ValueError`` for any other key."""
    m = _NUMBERED.match(key)
    if m is None:
        raise ValueError(f"key {key[:40]!r} has no number: Sphinx documents are numbered (keys are user<number>)")
    return int(m.group(1)) + 1


class _Chain(ChainRun):
    """Consecutive READ / INSERT operations of one client, each written from the previous one's reply."""

    __slots__ = ()

    def issue(self) -> None:
        i = self.i
        op = self.ops[i]
        b = self.b
        if op == READ:
            payload = b.read_request(self.keys[i])
        else:  # INSERT (UPDATE is refused before a run starts)
            payload = b.insert_request(self.keys[i], self.ctx.names[0], self.ctx.values(ALL_FIELDS))
        self.op = op
        b.proto.waiters.append(self)
        b.seq += 1
        self.write(payload)

    def replied(self, r: wire.Reply) -> None:
        if self.late():
            return
        self.complete(self.b.status(self.op, r), _now())

    def skimmed(self, rows: int) -> None:
        """:meth:`replied` for a reply told apart by its frame (:meth:`wire.SphinxQL.skim`): no error, ``rows``
        rows (a READ with none is NOT_FOUND; an INSERT's OK packet says 0)."""
        if self.late():
            return
        self.complete(OK if rows or self.op != READ else NOT_FOUND, _now())


class SphinxBinding(WireBinding):
    """One client = one SphinxQL connection, one statement in flight."""

    EXPIRED = _TIMEOUT
    SERVER = "the Sphinx server"

    def __init__(self, host: str, port: int, timeout_s: float) -> None:
        super().__init__(timeout_s)
        self.host, self.port = host, port
        self.proto: wire.SphinxQL | None = None
        self._inserts: dict[tuple[bytes, ...], bytes] = {}

    def address(self) -> str:
        return f"{self.SERVER} at {self.host}:{self.port}"

    def _next(self) -> asyncio.Future:
        fut = self.loop.create_future()  # type: ignore[union-attr]
        if self.proto.early:  # type: ignore[union-attr]
            fut.set_result(self.proto.early.pop(0))  # type: ignore[union-attr]
        else:
            self.proto.waiters.append(fut)  # type: ignore[union-attr]
        return fut

    async def open(self) -> None:
        _, self.proto = await self.loop.create_connection(wire.SphinxQL, self.host, self.port)  # type: ignore[union-attr]
        self.proto.chains = (_Chain,)
        greeting = await self._next()
        if greeting[:1] == b"\xff":
            raise ConnectionLost(f"{self.address()} refused the connection: {wire.error_text(greeting)}")
        reply = self._next()
        self.proto.transport.write(wire.handshake_response())  # type: ignore[union-attr]
        r = await reply
        if r[:1] != b"\x00":
            why = wire.error_text(r) if r[:1] == b"\xff" else repr(r[:40])
            raise ConnectionLost(f"{self.address()} refused the handshake: {why}")
        self.proto.ready = True


    # -- requests ------------------------------------------------------------------------------------
    def read_request(self, key: bytes) -> bytes:
        tail = key[4:]  # YCSB's keys: user<number> (any other goes through document_id)
        sql = _READ % (int(tail) + 1 if key[:4] == b"user" and tail.isdigit() else document_id(key))
        return len(sql).to_bytes(3, "little") + b"\0" + sql

    def insert_request(self, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        head = self._inserts.get(tuple(names))
        if head is None:
            head = self._inserts[tuple(names)] = b"INSERT INTO usertable (id, key_text, ycsb_key, %b) VALUES (" % (
                b", ".join(names))
        quoted = quote(key)
        cells = b"', '".join(map(quote, values))
        return wire.query(b"%b%d, '%b', '%b', '%b')" % (head, document_id(key), quoted, quoted, cells))

    def status(self, op: int, r: wire.Reply) -> int:
        if r.error is not None:
            self.last_error = f"Sphinx: {r.error}"[:300]
            return ERROR
        if op == READ:
            return OK if r.rows else NOT_FOUND
        return OK

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        try:
            payload = self.read_request(key)
        except ValueError as exc:
            self.last_error = str(exc)
            return Status.ERROR
        r = await self.call(payload)
        return r if r.__class__ is Status else Status(self.status(READ, r))

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        r = await self.call(self.read_request(key))
        if r.__class__ is Status:
            return r, {}
        st = Status(self.status(READ, r))
        if st != Status.OK:
            return st, {}
        got = r.record()
        return st, {f: got[f] for f in fields if f in got}

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        try:
            payload = self.insert_request(key, [n for n, _ in values], [v for _, v in values])
        except ValueError as exc:
            self.last_error = str(exc)
            return Status.ERROR
        r = await self.call(payload)
        return r if r.__class__ is Status else Status(self.status(INSERT, r))

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        self.last_error = "Sphinx 2.2 cannot update a string attribute (refused before a run starts)"
        return Status.ERROR

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        sql = b"SELECT * FROM usertable WHERE id >= %d ORDER BY id ASC LIMIT %d" % (document_id(start_key), count)
        r = await self.call(wire.query(sql))
        return r if r.__class__ is Status else Status(self.status(SCAN, r))

    async def delete(self, table: str, key: bytes) -> Status:
        r = await self.call(wire.query(b"DELETE FROM usertable WHERE id = %d" % document_id(key)))
        if r.__class__ is Status:
            return r
        st = Status(self.status(DELETE, r))
        return st if st != Status.OK or r.affected else Status.NOT_FOUND

    async def chain(self, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int) -> tuple[int, int]:
        """Operations ``start:end`` of ``batch`` (READ / INSERT) from the reply callback. Returns (done, failed)."""
        return await run_chain(_Chain, self, ctx, batch, start, end)

    async def sphinxql(self, sql: bytes) -> tuple[int, list[list[bytes | None]], int]:
        """One SphinxQL statement (for workload plug-ins) → (status, its rows' columns, rows affected). An error is
        ERROR with searchd's message in ``last_error``."""
        r = await self.call(wire.query(sql))
        if r.__class__ is Status:
            return int(r), [], 0
        if r.error is not None:
            self.last_error = f"Sphinx: {r.error}"[:300]
            return ERROR, [], 0
        return OK, r.all_rows(), r.affected
