"""Elasticsearch binding: the REST API spoken directly on one keep-alive connection per client
(:mod:`ycsbctl.stores.elasticsearch.rest`), records as YCSB's ``elasticsearch`` binding stores them: index
``es.ycsb`` (``es.index.key``), the workload's table as the mapping type (``usertable``), the key as the
document's ``_id``, the fields as strings in ``_source`` — plus the key once more in ``key`` (a keyword), so
that a scan can range over keys (Elasticsearch 6 has no range query on ``_id``).

- READ: ``GET /es.ycsb/usertable/<key>`` (real-time: no refresh needed); 404 is NOT_FOUND.
- INSERT: ``PUT …/<key>/_create``; 409 (the key exists) is ERROR, as on the other stores (YCSB indexes, which
  overwrites).
- UPDATE: ``POST …/<key>/_update?retry_on_conflict=5`` with ``{"doc": {fields}}`` (Elasticsearch gets, merges
  and reindexes the document, again when another update came between; YCSB does the same from the client,
  last writer wins); 404 is NOT_FOUND.
- SCAN: ``POST /es.ycsb/usertable/_search`` with a range from the start key, sorted by ``key``, ``size`` n: it
  sees the documents of the last refresh (each second), as any search.
- DELETE: ``DELETE …/<key>``; 404 is NOT_FOUND.

Why not a driver: ``elasticsearch-py`` (with ``aiohttp`` or ``urllib3``) builds and decodes every body in
Python; a document API's status line says what happened, so this path writes one request and reads one status
(``bench store_clients --stores elasticsearch``).
"""

from __future__ import annotations

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
from ycsbctl.stores.elasticsearch import rest
from ycsbctl.stores.http1 import parse
from ycsbctl.workload.core import ALL_FIELDS, DELETE, INSERT, READ, UPDATE

OK, NOT_FOUND, ERROR = int(Status.OK), int(Status.NOT_FOUND), int(Status.ERROR)
_now = time.perf_counter_ns
_TIMEOUT = object()
# what a document API's status means, per operation (anything else is ERROR)
_OK = {READ: 200, INSERT: 201, UPDATE: 200, DELETE: 200}


class _Rest(WireProtocol):
    def __init__(self) -> None:
        super().__init__()
        self.buf = b""

    def data_received(self, data: bytes) -> None:
        waiters = self.waiters
        if not self.buf and waiters and waiters[0].__class__ is _Chain:
            st = waiters[0].verdict(rest.whole_status(data))  # a whole reply in this read (the usual case)
            if st >= 0:
                waiters.popleft().ended(st)
                return
        buf = self.buf + data if self.buf else data
        while buf:
            reply, used = parse(buf, rest.Reply)
            if reply is None:
                break
            buf = buf[used:]
            if not waiters:
                self.unsolicited(reply.error() if reply.status >= 400 else None)
                continue
            w = waiters.popleft()
            if w.__class__ is _Chain:
                w.replied(reply)
            elif not w.done():
                w.set_result(reply)
            else:
                self.late += 1
        self.buf = buf



class _Chain(ChainRun):
    """Consecutive READ / UPDATE / INSERT operations of one client, each written from the previous one's reply."""

    __slots__ = ()

    def issue(self) -> None:
        i = self.i
        op = self.ops[i]
        b = self.b
        table, key = self.ctx.table, self.keys[i]
        if op == READ:
            payload = b.read_request(table, key)
        elif op == UPDATE:
            wf = self.wfs[i]
            payload = b.update_request(table, key, self.ctx.names[wf + 1], self.ctx.values(wf))
        else:
            payload = b.insert_request(table, key, self.ctx.names[0], self.ctx.values(ALL_FIELDS))
        self.op = op
        b.proto.waiters.append(self)
        b.seq += 1
        self.write(payload)

    def replied(self, r: rest.Reply) -> None:
        if self.late():
            return
        self.complete(self.b.status(self.op, r), _now())

    def verdict(self, status: int) -> int:
        """The operation's status from its reply's HTTP ``status`` alone (:func:`rest.whole_status`) when that
        says OK or NOT_FOUND; -1 for anything else (an error, whose body :meth:`replied` reads; 0: no status)."""
        op = self.op
        if status == _OK[op]:
            return OK
        if status == 404 and op != INSERT:
            return NOT_FOUND
        return -1

    def ended(self, st: int) -> None:
        """:meth:`replied` for a reply judged by :meth:`verdict`."""
        if not self.late():
            self.complete(st, _now())


class ElasticsearchBinding(WireBinding):
    """One client = one HTTP connection, one request in flight."""

    EXPIRED = _TIMEOUT
    SERVER = "the Elasticsearch server"

    def __init__(self, host: str, port: int, index: str, timeout_s: float) -> None:
        super().__init__(timeout_s)
        self.host, self.port = host, port
        self.index = index.encode()
        self.proto: _Rest | None = None
        self._paths: dict[str, bytes] = {}

    def address(self) -> str:
        return f"{self.SERVER} at {self.host}:{self.port}"

    async def open(self) -> None:
        _, self.proto = await self.loop.create_connection(_Rest, self.host, self.port)  # type: ignore[union-attr]
        r = await self.send(rest.request(b"GET", b"/"))
        if r.status != 200:
            raise ConnectionLost(f"{self.address()} refused the connection: {r.error()}")


    def path(self, table: str) -> bytes:
        p = self._paths.get(table)
        if p is None:
            p = self._paths[table] = b"/%b/%b/" % (self.index, table.encode())
        return p

    def read_request(self, table: str, key: bytes) -> bytes:
        return b"GET %b%b HTTP/1.1\r\nHost: es\r\n\r\n" % (self.path(table), key)

    def insert_request(self, table: str, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        return rest.request(b"PUT", self.path(table) + key + b"/_create",
                            rest.document(tuple(names), list(values), key))

    def update_request(self, table: str, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        doc = rest.document(tuple(names), list(values))
        return rest.request(b"POST", self.path(table) + key + b"/_update?retry_on_conflict=5", b'{"doc":' + doc + b"}")

    def status(self, op: int, r: rest.Reply) -> int:
        if r.status == _OK[op]:
            return OK
        if r.status == 404 and op != INSERT:
            return NOT_FOUND
        self.last_error = f"Elasticsearch: {r.error()}"[:300]
        return ERROR

    async def _status(self, op: int, payload: bytes) -> Status:
        r = await self.call(payload)
        return r if r.__class__ is Status else Status(self.status(op, r))

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        return await self._status(READ, self.read_request(table, key))

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        r = await self.call(self.read_request(table, key))
        if r.__class__ is Status:
            return r, {}
        st = Status(self.status(READ, r))
        if st != Status.OK:
            return st, {}
        source = r.json().get("_source", {})
        return st, {f: str(source[f.decode()]).encode("latin-1") for f in fields if f.decode() in source}

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        return await self._status(INSERT,
                                  self.insert_request(table, key, [n for n, _ in values], [v for _, v in values]))

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        return await self._status(UPDATE,
                                  self.update_request(table, key, [n for n, _ in values], [v for _, v in values]))

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        body = b'{"query":{"range":{"key":{"gte":%b}}},"sort":["key"],"size":%d}' % (rest.json_string(start_key), count)
        r = await self.call(rest.request(b"POST", self.path(table) + b"_search", body))
        if r.__class__ is Status:
            return r
        if r.status != 200:
            self.last_error = f"Elasticsearch: {r.error()}"[:300]
            return Status.ERROR
        return Status.OK

    async def delete(self, table: str, key: bytes) -> Status:
        return await self._status(DELETE, rest.request(b"DELETE", self.path(table) + key))

    async def chain(self, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int) -> tuple[int, int]:
        """Operations ``start:end`` of ``batch`` (READ / UPDATE / INSERT) from the reply callback. Returns (done,
        failed)."""
        return await run_chain(_Chain, self, ctx, batch, start, end)

    async def rest(self, method: bytes, path: bytes, body: bytes | None = None) -> tuple[int, int, Any]:
        """One REST request (for workload plug-ins; not HEAD, whose reply states a length it does not send) →
        (status: OK unless the connection failed or timed out, the HTTP status or 0 when none came, the decoded JSON
        body or None)."""
        r = await self.call(rest.request(method, path, body))
        if r.__class__ is Status:
            return int(r), 0, None
        try:
            return OK, r.status, r.json()
        except ValueError:
            return OK, r.status, None
