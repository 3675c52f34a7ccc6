"""Tarantool binding: IPROTO spoken directly on one connection per client (as the Redis binding speaks
RESP), records in YCSB's tarantool layout (``site.ycsb.db.TarantoolClient``): space ``ycsb`` (id 1024,
``tarantool.space``), one tuple per record, ``[key, name, value, name, value, …]`` as strings, a TREE
primary index on the key. The workload's ``table`` is ignored, as in YCSB.

- READ: SELECT by the primary key (EQ, limit 1), the whole tuple; the fields asked for are picked from
  it by name (YCSB's ``tupleConvertFilter``), so records YCSB wrote in its hash order read alike.
- INSERT: INSERT of the tuple, fields in the workload's order (field0 … fieldN). YCSB replaces
  instead, which overwrites: here an insert of a key already stored fails (ERROR, "Duplicate key"),
  as on every other store of ycsbctl.
- UPDATE: UPDATE of the fields written, each at its place in that order (name at 2i+1, value at 2i+2,
  counted from 0): the other fields stay. YCSB replaces the tuple with the fields written, which
  leaves a record of those fields only; a missing key is NOT_FOUND here (YCSB creates it).
- SCAN: SELECT GE from the start key, limit = the scan length (YCSB uses GT, which leaves the start
  key out; GE is what the other stores' scans return).
- DELETE: DELETE by key; NOT_FOUND when nothing was deleted.

Why not a driver: the PyPI ``tarantool`` connector is blocking (one thread per client), and
``asynctnt`` awaits a future per operation; the engine's chains run READ / UPDATE / INSERT from the
reply callback without one (``bench store_clients --store tarantool`` measures the client CPU per
operation beside the Redis path's).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

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
from ycsbctl.stores.tarantool import iproto
from ycsbctl.stores.tarantool.admin import address
from ycsbctl.workload.core import ALL_FIELDS, DELETE, INSERT, READ, UPDATE

OK, NOT_FOUND, ERROR = int(Status.OK), int(Status.NOT_FOUND), int(Status.ERROR)
_now = time.perf_counter_ns
_TIMEOUT = object()


class Reply:
    """One reply: its type (0 OK, else ``0x8000 | errcode``), the frame and where its body is."""

    __slots__ = ("code", "data", "body", "end")

    def __init__(self, code: int, data: bytes, body: int, end: int) -> None:
        self.code, self.data, self.body, self.end = code, data, body, end

    def count(self) -> int:
        """Tuples in an OK reply's data (-1: no data field)."""
        return iproto.data_count(self.data, self.body, self.end)

    def error(self) -> str:
        return iproto.error_message(self.data[self.body:self.end])

    def tuples(self) -> list[Any]:
        return iproto.decode_body(self.data[self.body:self.end]).get(0x30, [])


class _IProto(WireProtocol):
    """Replies in request order, after the server's 128-byte greeting (kept in :attr:`greeting` until
    :meth:`greeted` takes it: it may come before anyone waits for it)."""

    def __init__(self) -> None:
        super().__init__()
        self.buf = b""
        self.greeting: bytes | None = None
        self.greeted_fut: asyncio.Future | None = None

    def greeted(self, loop: asyncio.AbstractEventLoop) -> asyncio.Future:
        """The future of the greeting's 128 bytes (a ``ConnectionError`` when the server greeted otherwise or
        closed)."""
        fut = self.greeted_fut = loop.create_future()
        if self.greeting is not None:
            fut.set_result(self.greeting)
        elif self.lost is not None:
            fut.set_exception(ConnectionError(self._no_greeting()))
        elif wrong := iproto.not_a_greeting(self.buf):
            fut.set_exception(ConnectionError(wrong))
        return fut

    def _no_greeting(self) -> str:
        wrong = iproto.not_a_greeting(self.buf) if self.buf else None
        return f"{self.lost} before a Tarantool greeting" + (f" ({wrong})" if wrong else "")

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        fut = self.greeted_fut
        if self.greeting is None and fut is not None and not fut.done():
            fut.set_exception(ConnectionError(self._no_greeting()))

    def data_received(self, data: bytes) -> None:
        if self.buf:
            data = self.buf + data
            self.buf = b""
        if self.greeting is None:
            if len(data) < iproto.GREETING_BYTES:
                self.buf = data
                wrong = iproto.not_a_greeting(data)  # another kind of server greets first: told at once, not timed out
                if wrong and self.greeted_fut is not None and not self.greeted_fut.done():
                    self.greeted_fut.set_exception(ConnectionError(wrong))
                return
            self.greeting = data[:iproto.GREETING_BYTES]
            if self.greeted_fut is not None and not self.greeted_fut.done():
                self.greeted_fut.set_result(self.greeting)
            data = data[iproto.GREETING_BYTES:]
        pos, n = 0, len(data)
        waiters = self.waiters
        while n - pos >= 5:
            end = pos + 5 + int.from_bytes(data[pos + 1:pos + 5], "big")  # 0xce <uint32>: Tarantool's length
            if end > n:
                break
            head = pos + 5
            code = iproto.reply_code(data, head)
            body = iproto.body_start(data, head)
            pos = end
            if not waiters:
                self.unsolicited(iproto.error_message(data[body:end]) if code else None)
                continue
            w = waiters.popleft()
            if w.__class__ is _Chain:
                w.replied(code, data, body, end)
            elif not w.done():
                w.set_result(Reply(code, data, body, end))
            else:
                self.late += 1
        if pos < n:
            self.buf = data[pos:]



def status_of(op: int, r: Reply, b: TarantoolBinding) -> int:
    """YCSB's status of a reply to ``op``: an error is ERROR (``last_error`` says which), a READ, UPDATE or
    DELETE that found no tuple NOT_FOUND."""
    if r.code:
        b.last_error = f"Tarantool: {r.error()}"[:300]
        return ERROR
    if op == INSERT:
        return OK
    return OK if r.count() > 0 else NOT_FOUND


class _Chain(ChainRun):
    """Consecutive READ / UPDATE / INSERT operations of one client, each written from the previous one's
    reply (see ``ycsbctl.stores.redis.reply_chain._Chain``)."""

    __slots__ = ()

    def issue(self) -> None:
        i = self.i
        op = self.ops[i]
        b = self.b
        key = self.keys[i]
        if op == READ:  # the whole tuple, whatever the fields asked for (as YCSB's binding)
            payload = b.read_request(key)
        elif op == UPDATE:
            wf = self.wfs[i]
            payload = b.update_request(key, self.ctx.names[wf + 1], self.ctx.values(wf))
        else:
            payload = b.insert_request(key, self.ctx.names[0], self.ctx.values(ALL_FIELDS))
        self.op = op
        b.proto.waiters.append(self)
        b.seq += 1
        self.write(payload)

    def replied(self, code: int, data: bytes, body: int, end: int) -> None:
        if self.late():
            return
        t1 = _now()
        if code:
            st = status_of(self.op, Reply(code, data, body, end), self.b)
        elif self.op == INSERT:
            st = OK
        else:
            st = OK if iproto.data_count(data, body, end) > 0 else NOT_FOUND
        self.complete(st, t1)


def field_positions(properties: dict[str, str]) -> dict[bytes, int]:
    """Each workload field name → its place among the record's fields (``fieldnameprefix`` + 0 … n − 1)."""
    from ycsbctl.stores.sql.layout import workload_fields

    return {name.encode(): i for i, name in enumerate(workload_fields(properties))}


class TarantoolBinding(WireBinding):
    """One client = one connection, one request in flight (YCSB's thread model)."""

    EXPIRED = _TIMEOUT
    SERVER = "the Tarantool server"

    def __init__(self, url: str, timeout_s: float, positions: dict[bytes, int], space: int = iproto.SPACE_ID) -> None:
        super().__init__(timeout_s)
        self.host, self.port = address(url)
        self.proto: _IProto | None = None
        self.space = space
        self.positions = positions
        self._read_heads: dict[int, bytes] = {}  # key length → a READ's bytes up to its key

    def address(self) -> str:
        return f"{self.SERVER} at {self.host}:{self.port}"

    async def open(self) -> None:
        _, self.proto = await self.loop.create_connection(_IProto, self.host, self.port)  # type: ignore[union-attr]
        try:
            line = (await self.proto.greeted(self.loop)).split(b"\n", 1)[0]  # type: ignore[arg-type]
        except ConnectionError as exc:  # another kind of server, or one that closed: said at once
            raise ConnectionLost(f"{self.address()}: {exc}") from None
        if not line.startswith(b"Tarantool "):
            raise ConnectionLost(f"{self.address()} is no Tarantool server (it greeted {line[:60]!r})")
        r = await self.send(iproto.frame(iproto.PING, b"\x80"))
        if r.code:  # e.g. a server that refuses more connections says why here
            raise ConnectionLost(f"{self.address()} refused the connection: {r.error()}")


    # -- requests ------------------------------------------------------------------------------------
    def read_request(self, key: bytes) -> bytes:
        # Keys of one length share the bytes before them (~0.3 µs against the general build)
        head = self._read_heads.get(len(key))
        if head is None:
            full = iproto.frame(iproto.SELECT, iproto.select_body(self.space, b"\0" * len(key)))
            head = self._read_heads[len(key)] = full[:-len(key)] if key else full
        return head + key

    def insert_request(self, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        fields = [key]
        pos = self.positions
        for name, value in sorted(zip(names, values), key=lambda nv: pos.get(nv[0], len(pos))):
            fields += (name, value)
        return iproto.frame(iproto.INSERT, iproto.tuple_body(self.space, fields))

    def update_request(self, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        ops: list[tuple[int, bytes]] = []
        pos = self.positions
        for name, value in zip(names, values):
            i = pos.get(name)
            if i is None:
                raise ValueError(f"field {name!r} is not one of the workload's fields")
            ops += ((2 * i + 1, name), (2 * i + 2, value))
        return iproto.frame(iproto.UPDATE, iproto.update_body(self.space, key, ops))

    async def _status(self, op: int, payload: bytes) -> Status:
        r = await self.call(payload)
        if r.__class__ is Status:
            return r
        return Status(status_of(op, r, self))

    # -- the binding contract ------------------------------------------------------------------------
    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        return await self._status(READ, self.read_request(key))

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        r = await self.call(self.read_request(key))
        if r.__class__ is Status:
            return r, {}
        st = Status(status_of(READ, r, self))
        if st != Status.OK:
            return st, {}
        return st, iproto.record_fields(r.tuples()[0], set(fields) if fields else None)

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        return await self._status(INSERT, self.insert_request(key, [n for n, _ in values], [v for _, v in values]))

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        try:
            payload = self.update_request(key, [n for n, _ in values], [v for _, v in values])
        except ValueError as exc:
            self.last_error = str(exc)
            return Status.ERROR
        return await self._status(UPDATE, payload)

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        r = await self.call(iproto.frame(iproto.SELECT, iproto.select_body(self.space, start_key, count, iproto.GE)))
        if r.__class__ is Status:
            return r
        return Status.OK if not r.code else Status(status_of(READ, r, self))

    async def delete(self, table: str, key: bytes) -> Status:
        return await self._status(DELETE, iproto.frame(iproto.DELETE, iproto.key_body(self.space, key)))

    async def chain(self, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int) -> tuple[int, int]:
        """Operations ``start:end`` of ``batch`` (READ / UPDATE / INSERT) from the reply callback. Returns (done,
        failed)."""
        return await run_chain(_Chain, self, ctx, batch, start, end)

    async def iproto(self, kind: int, body: bytes) -> tuple[int, list[Any]]:
        """One request of ``kind`` (:mod:`~ycsbctl.stores.tarantool.iproto`'s SELECT, CALL, …) with an encoded
        ``body`` (for workload plug-ins) → (status, the reply's data decoded: tuples, or a function's results).
        An error reply is ERROR with Tarantool's message in ``last_error``."""
        r = await self.call(iproto.frame(kind, body))
        if r.__class__ is Status:
            return int(r), []
        if r.code:
            self.last_error = f"Tarantool: {r.error()}"[:300]
            return ERROR, []
        return OK, iproto.decode_body(r.data[r.body:r.end]).get(0x30, [])
