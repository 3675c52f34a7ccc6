"""Chains of MongoDB operations driven from the wire binding's reply callback (see
:meth:`ycsbctl.stores.mongodb.wire.MongoWireBinding.chain`).

An awaited operation pays a future, a coroutine switch and the engine's loop; ``bson.encode``
of its command and ``bson.decode`` of a reply holding ten 100-byte fields cost as much again.
A chain writes each request from hand-built BSON (per shape of record, one ``%`` on a cached
template, as the Redis binding's ``HMSET``), reads the few reply fields that decide the status
without decoding the documents, and writes the next request from ``data_received``. The bytes
sent are exactly ``bson.encode`` of the awaited path's commands (a test compares them), so the
stored documents are the same; replies that are not plainly successful are judged by
``bson.decode`` exactly as :meth:`MongoWireBinding.command` judges them.
"""

from __future__ import annotations

import asyncio
import struct
import time
from typing import TYPE_CHECKING, Any

import bson

from ycsbctl.stores.binding import ChainContext, Status
from ycsbctl.stores.chain import ChainRun
from ycsbctl.stores.mongodb.pymongo_binding import record_document
from ycsbctl.workload.core import ALL_FIELDS, INSERT, READ, UPDATE

if TYPE_CHECKING:
    from ycsbctl.stores.mongodb.wire import MongoWireBinding

OK, NOT_FOUND, ERROR = Status.OK, Status.NOT_FOUND, Status.ERROR
_I32 = struct.Struct("<i")
_HEAD_TAIL = _I32.pack(0) + _I32.pack(2013) + _I32.pack(0) + b"\x00"  # responseTo, OP_MSG, flagBits, kind 0
_OK_END = b"\x01ok\x00\x00\x00\x00\x00\x00\x00\xf0?\x00"  # a reply ending with ok: 1.0
_CURSOR = b"\x03cursor\x00"
_FIRST_BATCH = b"\x04firstBatch\x00"
_EMPTY = b"\x05\x00\x00\x00"

Parts = list  # of bytes (constant) and int (a variable part of that many bytes)


def _size(parts: Parts) -> int:
    return sum(p if p.__class__ is int else len(p) for p in parts)


def _doc(parts: Parts) -> Parts:
    """A document of elements ``parts``."""
    return [_I32.pack(_size(parts) + 5), *parts, b"\x00"]


def _string(name: bytes, n: int | bytes) -> Parts:
    """A string element: a variable one of ``n`` bytes, or the constant ``n``."""
    size = n if n.__class__ is int else len(n)  # type: ignore[arg-type]
    return [b"\x02" + name + b"\x00" + _I32.pack(size + 1), n, b"\x00"]


def _template(body: Parts) -> bytes:
    """A ``%`` template of the OP_MSG whose command document has the elements ``body``: its
    placeholders are the request id (4 bytes, packed), then the variable parts in order."""
    doc = _doc(body)
    parts = [_I32.pack(16 + 5 + _size(doc)), 4, _HEAD_TAIL, *doc]
    return b"".join(b"%b" if p.__class__ is int else p.replace(b"%", b"%%") for p in parts)


_MAX_SHAPES = 256  # templates kept per kind of request; beyond, requests are encoded by bson
_SHARED: dict[tuple[str, bytes], MongoRequests] = {}


class MongoRequests:
    """OP_MSG requests as bytes, identical to ``bson.encode`` of the awaited path's commands (same
    fields, same order): find by ``_id`` (with a projection), update by ``$set``, insert of one
    record document. One ``%`` on a template cached per shape (table, names, key and value
    lengths), as RedisBinding._hmset: encoding a 10-field insert this way measured a third of
    ``bson.encode`` of its command, a find by ``_id`` a third too. Building a template costs ~5×
    ``bson.encode``, so at most ``_MAX_SHAPES`` are kept per kind (constant field lengths, YCSB's
    default, need a few dozen); past that (e.g. a uniform ``fieldlengthdistribution``) requests are
    encoded by ``bson.encode``, as the awaited path does."""

    def __init__(self, db: str, wc: dict | None) -> None:
        self.db_name, self.wc_doc = db, wc
        self.db = _string(b"$db", db.encode())
        self.wc = [] if wc is None else [b"\x03writeConcern\x00" + bson.encode(wc)]
        self._finds: dict[tuple, bytes] = {}
        self._updates: dict[tuple, bytes] = {}
        self._inserts: dict[tuple, bytes] = {}

    @classmethod
    def shared(cls, db: str, wc: dict | None) -> MongoRequests:
        """The instance of this process for ``db`` and ``wc``: the clients of a worker share templates."""
        key = (db, b"" if wc is None else bson.encode(wc))
        req = _SHARED.get(key)
        if req is None:
            req = _SHARED[key] = cls(db, wc)
        return req

    @staticmethod
    def _fields(names: tuple[bytes, ...], lengths: tuple[int, ...]) -> Parts:
        """The elements ``name: BinData(0, value)`` for values of these lengths."""
        parts: Parts = []
        for n, size in zip(names, lengths):
            parts += [b"\x05" + n + b"\x00" + _I32.pack(size) + b"\x00", size]
        return parts

    def _encoded(self, request_id: int, cmd: dict) -> bytes:
        """The OP_MSG of ``cmd`` by ``bson.encode``."""
        doc = bson.encode(cmd)
        return _I32.pack(21 + len(doc)) + _I32.pack(request_id) + _HEAD_TAIL + doc

    def _write(self, cmd: dict) -> dict:
        """``cmd`` with the write concern, then ``$db`` (as ``MongoWireBinding._write``)."""
        if self.wc_doc is not None:
            cmd["writeConcern"] = self.wc_doc
        cmd["$db"] = self.db_name
        return cmd

    def find(self, request_id: int, table: str, key: bytes, names: tuple[bytes, ...] | None) -> bytes:
        """``{find, filter: {_id}, limit: 1, singleBatch: true, $db[, projection]}``."""
        shape = (table, names, len(key))
        tmpl = self._finds.get(shape)
        if tmpl is None:
            if len(self._finds) >= _MAX_SHAPES:
                cmd = {"find": table, "filter": {"_id": key.decode()}, "limit": 1, "singleBatch": True,
                       "$db": self.db_name}
                if names is not None:
                    cmd["projection"] = {n.decode(): 1 for n in names}
                return self._encoded(request_id, cmd)
            body = [*_string(b"find", table.encode()), b"\x03filter\x00", *_doc(_string(b"_id", len(key))),
                    b"\x10limit\x00\x01\x00\x00\x00\x08singleBatch\x00\x01", *self.db]
            if names is not None:
                body += [b"\x03projection\x00", *_doc([b"\x10" + n + b"\x00\x01\x00\x00\x00" for n in names])]
            tmpl = self._finds[shape] = _template(body)
        return tmpl % (_I32.pack(request_id), key)

    def update(self, request_id: int, table: str, key: bytes, names: tuple[bytes, ...], values: list[bytes]) -> bytes:
        """``{update, updates: [{q: {_id}, u: {$set: {…}}}], ordered: true[, writeConcern], $db}``."""
        shape = (table, names, len(key), *map(len, values))
        tmpl = self._updates.get(shape)
        if tmpl is None:
            if len(self._updates) >= _MAX_SHAPES:
                update = {"q": {"_id": key.decode()}, "u": {"$set": {n.decode(): v for n, v in zip(names, values)}}}
                return self._encoded(request_id, self._write({"update": table, "updates": [update], "ordered": True}))
            s = [b"\x03$set\x00", *_doc(self._fields(names, tuple(map(len, values))))]
            u = [b"\x03q\x00", *_doc(_string(b"_id", len(key))), b"\x03u\x00", *_doc(s)]
            tmpl = self._updates[shape] = _template([
                *_string(b"update", table.encode()), b"\x04updates\x00", *_doc([b"\x030\x00", *_doc(u)]),
                b"\x08ordered\x00\x01", *self.wc, *self.db])
        return tmpl % (_I32.pack(request_id), key, *values)

    def insert(self, request_id: int, table: str, key: bytes, names: tuple[bytes, ...], values: list[bytes]) -> bytes:
        """``{insert, documents: [{_id, field…}], ordered: true[, writeConcern], $db}``."""
        shape = (table, names, len(key), *map(len, values))
        tmpl = self._inserts.get(shape)
        if tmpl is None:
            if len(self._inserts) >= _MAX_SHAPES:
                doc = record_document(key.decode(), list(zip(names, values)))
                return self._encoded(request_id, self._write({"insert": table, "documents": [doc], "ordered": True}))
            d = [*_string(b"_id", len(key)), *self._fields(names, tuple(map(len, values)))]
            tmpl = self._inserts[shape] = _template([
                *_string(b"insert", table.encode()), b"\x04documents\x00", *_doc([b"\x030\x00", *_doc(d)]),
                b"\x08ordered\x00\x01", *self.wc, *self.db])
        return tmpl % (_I32.pack(request_id), key, *values)


def reply_status(b: MongoWireBinding, op: int, body: bytes) -> Status:
    """The status of a READ / UPDATE / INSERT from its reply, as the awaited path gives it. The
    replies of a standalone server (``{cursor: {firstBatch, …}, ok: 1.0}``, ``{n, …, ok: 1.0}``
    without write errors) are read in place; anything else is decoded and judged by the rules of
    :meth:`MongoWireBinding.command` (``last_error`` says why)."""
    if body.endswith(_OK_END):
        if op == READ:
            if body[4:12] == _CURSOR and body[16:28] == _FIRST_BATCH:
                return NOT_FOUND if body[28:32] == _EMPTY else OK
        elif b"Error" not in body:  # writeErrors, writeConcernError (a write's reply holds no data)
            if op == INSERT:
                return OK
            if body[4:7] == b"\x10n\x00":
                return NOT_FOUND if body[7:11] == b"\x00\x00\x00\x00" else OK
    reply = bson.decode(body)
    if reply.get("ok") != 1:
        b.last_error = f"{reply.get('codeName', 'error')}: {reply.get('errmsg', reply)}"[:300]
        return ERROR
    errors = reply.get("writeErrors") or ([reply["writeConcernError"]] if "writeConcernError" in reply else None)
    if errors:
        error = errors[0]  # one document written: one write error at most
        b.last_error = str(error.get("errmsg", error))[:300]
        return ERROR
    if op == INSERT:
        return OK
    if op == UPDATE:
        return OK if reply["n"] else NOT_FOUND
    return OK if reply["cursor"]["firstBatch"] else NOT_FOUND


class MongoChain(ChainRun):
    """Consecutive READ / UPDATE / INSERT operations of one client: each reply completes its
    operation (``ctx.record``) and the next request is written at once, without waking a coroutine.
    It waits in the protocol's queue as a future would (``done``, ``set_result``,
    ``set_exception``), so the protocol needs no case of its own."""

    __slots__ = ("req", "table", "rid")

    def __init__(self, b: MongoWireBinding, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int,
                 fut: asyncio.Future) -> None:
        super().__init__(b, ctx, batch, start, end, fut)
        self.req, self.table, self.rid = b.requests, ctx.table, b._ids

    def issue(self) -> None:
        i = self.i
        op, key = self.ops[i], self.keys[i]
        req, ctx = self.req, self.ctx
        b = self.b
        request_id = next(self.rid)
        if op == READ:
            rf = self.rfs[i]
            data = req.find(request_id, self.table, key, None if rf == ALL_FIELDS else ctx.names[rf + 1])
        elif op == UPDATE:
            wf = self.wfs[i]
            data = req.update(request_id, self.table, key, ctx.names[wf + 1], ctx.values(wf))
        else:
            data = req.insert(request_id, self.table, key, ctx.names[0], ctx.values(ALL_FIELDS))
        proto: Any = b.proto
        self.op = op
        proto.waiters.append((request_id, self))
        b.seq += 1
        self.write(data)

    def done(self) -> bool:
        """True once the chain has ended: a late reply (after a timeout) is then dropped."""
        return self.dead or self.fut.done()

    def set_result(self, body: bytes) -> None:
        """The reply to the operation in flight: record it, then issue the next or finish."""
        st = reply_status(self.b, self.op, body)
        self.complete(st, time.perf_counter_ns())

    def judge(self, reader: Any) -> None:
        """:meth:`set_result` for a reply the compiled core framed (``reader``: its ``OpMsgReader``):
        a plainly successful reply is judged in place there, anything else as ``reply_status`` does."""
        st = reader.status(self.op)
        if st < 0:
            st = reply_status(self.b, self.op, reader.body())
        self.complete(st, time.perf_counter_ns())

    set_exception = ChainRun.fail  # the protocol fails a waiter as it would a future
