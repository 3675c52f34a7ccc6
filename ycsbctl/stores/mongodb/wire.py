"""MongoDB binding on the wire protocol itself: ``OP_MSG`` over an ``asyncio.Protocol``, BSON by
pymongo's C codec. Used in the timed loop for plain connections; pymongo does the rest.

Why: client and server share the machine's cores, so every µs of client CPU per op is lost
throughput, and a client slower than the server makes the comparison measure the client.
Measured on this machine against the mongo-wire server (find by ``_id``, 10 × 100-byte fields):
pymongo 4.20 costs 180–290 µs of client CPU per op, sync or async, C extensions on — one core
of client saturates near 5k ops/s, below what an in-memory mongod serves. One command document
per operation encoded with ``bson.encode`` and one ``bson.decode`` of the reply: 64–66 µs per op
in the engine against 218–245 µs with pymongo in the same runs (0.27–0.29×, ``bench/mongo_client.py``;
at FerretDB's ~2k ops/s every op also pays an event-loop wake-up). The stored documents are the
same as pymongo's: ``{_id: str, fieldN: BinData(0)}``.

Used when the URL is a single host without credentials, replica set name or a read preference
other than primary (TLS included: ``tls=true``, ``tlsCAFile``, ``tlsAllowInvalidCertificates``,
``tlsAllowInvalidHostnames``, ``tlsInsecure``, as pymongo reads them; a client certificate goes to pymongo), and
``batchsize`` is 1 without ``mongodb.upsert``; anything else (and ``-p mongodb.driver=pymongo``) goes through
:mod:`ycsbctl.stores.mongodb.pymongo_binding`.

Unpaced runs of READ / UPDATE / INSERT are chained from the reply callback (:meth:`MongoWireBinding.chain`,
:mod:`ycsbctl.stores.mongodb.wire_chain`): no future, coroutine switch or ``bson`` call per operation.
"""

from __future__ import annotations

import asyncio
import itertools
import ssl
import struct
from collections import deque
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qsl, urlparse

import bson

from ycsbctl.errors import UserError
from ycsbctl.native import core
from ycsbctl.stores.binding import (
    ChainContext,
    ConnectionLost,
    Fields,
    Status,
    Values,
    WireBinding,
    WireProtocol,
)
from ycsbctl.stores.chain import run_chain
from ycsbctl.stores.mongodb.pymongo_binding import database_name, document_cells, projection, record_document
from ycsbctl.stores.mongodb.wire_chain import MongoChain, MongoRequests
from ycsbctl.stores.tls_wire import open_tls
from ycsbctl.user_input import ca_context, url_files

OP_MSG = 2013
_HEADER = struct.Struct("<iiiiI")  # messageLength, requestID, responseTo, opCode, flagBits
_TLS_OPTIONS = {"tls", "ssl", "tlscafile", "tlsallowinvalidcertificates", "tlsallowinvalidhostnames", "tlsinsecure"}
_PLAIN_OPTIONS = {"w", "journal", "j", "wtimeoutms", "directconnection", "connecttimeoutms", "sockettimeoutms",
                  "servertimeoutms", "serverselectiontimeoutms", "appname", "maxpoolsize", "readpreference",
                  *_TLS_OPTIONS}
UNTRUSTED = ("TLS certificate not trusted: add tlsCAFile=/path/ca.crt (the CA that signed it) to the URL, "
             "or tlsAllowInvalidCertificates=true to skip the check")
TLS_ONLY = "if the server takes TLS clients only, add ?tls=true&tlsCAFile=/path/ca.crt to the URL"
NO_TLS_THERE = "the server speaks no TLS on this port: drop tls=true from the URL"
_TRUE = ("true", "1", "yes")


def _url_options(url: str) -> dict[str, str]:
    """The URL's query options, names lower-cased (MongoDB URI options are case-insensitive)."""
    return {k.lower(): v for k, v in parse_qsl(urlparse(url).query)}


def wire_eligible(url: str, properties: dict[str, str]) -> bool:
    """Whether this binding can serve ``url`` (see the module docstring)."""
    driver = properties.get("mongodb.driver", "auto").strip().lower()
    if driver not in ("auto", "wire", "pymongo"):
        raise UserError(f"mongodb.driver={driver}: use auto, wire or pymongo")
    if driver == "pymongo":
        return False
    u = urlparse(url)
    options = _url_options(url)
    plain = (u.scheme == "mongodb" and "," not in u.netloc and "@" not in u.netloc
             and set(options) <= _PLAIN_OPTIONS and options.get("readpreference", "primary") == "primary"
             and int(properties.get("batchsize", "1") or 1) == 1
             and properties.get("mongodb.upsert", "false").strip().lower() != "true")
    if driver == "wire" and not plain:
        raise UserError("mongodb.driver=wire needs a plain mongodb://host:port URL (no credentials, client "
                        "certificate, replica set or read preference), batchsize=1 and no mongodb.upsert: use "
                        "mongodb.driver=pymongo")
    return plain


def wants_tls(url: str) -> bool:
    """The URL asks for TLS (``tls=true`` or ``ssl=true``, as pymongo reads them: true, 1 or yes)."""
    options = _url_options(url)
    return options.get("tls", options.get("ssl", "false")).lower() in _TRUE


def tls_context(url: str) -> ssl.SSLContext | None:
    """The client's TLS context for ``url`` (None without ``tls=true``/``ssl=true``): the system's CAs
    and ``tlsCAFile``; ``tlsAllowInvalidCertificates`` (or ``tlsInsecure``) checks no certificate,
    ``tlsAllowInvalidHostnames`` no name. One per URL and process: the CA file is read once."""
    if not wants_tls(url):
        return None
    options = _url_options(url)
    ctx = _CONTEXTS.get(url)
    if ctx is None:
        ca_file = options.get("tlscafile") or None
        ctx = ca_context(ca_file, "tlsCAFile")
        insecure = options.get("tlsinsecure", "false").lower() in _TRUE
        if insecure or options.get("tlsallowinvalidhostnames", "false").lower() in _TRUE:
            ctx.check_hostname = False
        if insecure or options.get("tlsallowinvalidcertificates", "false").lower() in _TRUE:
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
        _CONTEXTS[url] = ctx
    return ctx


_CONTEXTS: dict[str, ssl.SSLContext] = {}


def check_url_files(url: str) -> None:
    """Every file ``url`` names read now (``tlsCAFile`` as a CA certificate, ``tlsCertificateKeyFile``,
    ``tlsCRLFile``), whether or not it says ``tls=true`` (pymongo turns TLS on for them): one line, exit 2."""
    options = _url_options(url)
    if options.get("tlscafile"):
        ca_context(options["tlscafile"], "tlsCAFile")
    url_files(url, ("tlsCertificateKeyFile", "tlsCRLFile"))


def tls_hint(exc: BaseException | str, tls: bool) -> str | None:
    """What to do when TLS is why a connection failed (a certificate not trusted, a TLS-only server
    spoken to in plain, TLS spoken to a plain server); None when it is not the likely cause."""
    text = str(exc)
    if isinstance(exc, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in text:
        return UNTRUSTED
    if tls and (isinstance(exc, ssl.SSLError) or "WRONG_VERSION_NUMBER" in text or "record layer failure" in text):
        return NO_TLS_THERE
    if not tls and ("closed by the server" in text or "reset by peer" in text or "Connection closed" in text
                    or "connection closed" in text):
        return TLS_ONLY
    return None


def write_concern(url: str) -> dict | None:
    """The URL's write concern as a command field (``w``, ``j``, ``wtimeout``), or None."""
    options = _url_options(url)
    wc: dict = {}
    if "w" in options:
        wc["w"] = int(options["w"]) if options["w"].isdigit() else options["w"]
    j = options.get("journal", options.get("j"))
    if j is not None:
        wc["j"] = j.lower() == "true"
    if "wtimeoutms" in options:
        wc["wtimeout"] = int(options["wtimeoutms"])
    return wc or None


class _OpMsgProtocol(WireProtocol):
    """OP_MSG replies, matched in order to the futures of their requests (one in flight per client)."""

    waiters: deque[tuple[int, asyncio.Future]]

    def __init__(self) -> None:
        super().__init__()
        self.buf = bytearray()
        self.reader: Any = core.OpMsgReader() if core is not None else None  # the compiled path's

    def framed(self, data: bytes) -> None:
        """The compiled path's ``data_received``: framed in C, a chain's plain reply judged there too."""
        reader = self.reader
        reader.feed(data)
        waiters = self.waiters
        while (response_to := reader.next()) is not None:
            if not waiters:  # a reply to nothing we asked
                self.transport.close()  # type: ignore[union-attr]
                return
            request_id, fut = waiters.popleft()
            if response_to != request_id:  # out of step (or no OP_MSG body): never guess
                self.transport.close()  # type: ignore[union-attr]
                return
            if fut.done():  # timed out earlier: the late reply is dropped, and counted
                self.late += 1
            elif fut.__class__ is MongoChain:
                fut.judge(reader)
            else:
                fut.set_result(reader.body())

    def parsed(self, data: bytes) -> None:
        """The pure path's ``data_received``."""
        buf = self.buf
        buf += data
        while len(buf) >= 16:
            # a length below the header's 16 bytes is garbage: framed as a header alone (then out of
            # step), as the compiled reader does, so the buffer always moves on
            length = max(16, int.from_bytes(buf[:4], "little", signed=True))
            if len(buf) < length:
                return
            _, _, response_to, opcode, _ = _HEADER.unpack_from(buf)
            # kind-0 section: one BSON document after the 4-byte flags and the kind byte
            body = bytes(buf[21:length]) if opcode == OP_MSG and length >= 21 and buf[20] == 0 else None
            del buf[:length]
            if not self.waiters:  # a reply to nothing we asked
                self.transport.close()  # type: ignore[union-attr]
                return
            request_id, fut = self.waiters.popleft()
            if response_to != request_id or body is None:
                self.transport.close()  # type: ignore[union-attr]  # out of step: never guess
                return
            if not fut.done():
                fut.set_result(body)
            else:  # timed out earlier: the late reply is dropped, and counted
                self.late += 1

    # Chosen once (no test per read): uvloop calls it for every read.
    data_received = parsed if core is None else framed

    def fail(self, waiter: tuple[int, asyncio.Future], err: ConnectionError) -> None:
        super().fail(waiter[1], err)


class MongoWireBinding(WireBinding):
    """One YCSB client thread: its own connection, one command in flight."""

    SERVER = "the MongoDB server"

    def __init__(self, url: str, timeout_s: float) -> None:
        super().__init__(timeout_s)
        u = urlparse(url)
        self.host, self.port = u.hostname or "127.0.0.1", u.port or 27017
        self.db = database_name(url)
        self.wc = write_concern(url)
        self._ids = itertools.count(1)
        self.requests = MongoRequests.shared(self.db, self.wc)  # chains' requests as bytes
        self.tls = tls_context(url)  # None: plain

    def address(self) -> str:
        return f"{self.SERVER} at {self.host}:{self.port}"

    async def open(self) -> None:
        try:
            if self.tls is not None:
                _, self.proto = await open_tls(_OpMsgProtocol, self.host, self.port, self.tls)
            else:
                _, self.proto = await self.loop.create_connection(_OpMsgProtocol, self.host, self.port)  # type: ignore[union-attr]
            hello = bson.decode(await self.send(self._encode({"hello": 1, "$db": "admin"})))
        except (OSError, ConnectionError) as exc:
            hint = tls_hint(exc, self.tls is not None)
            if hint is None:
                raise
            raise ConnectionLost(f"{self.address()}: {hint} ({str(exc) or type(exc).__name__})") from None
        if hello.get("ok") != 1:  # servers older than 4.4.2 know only isMaster
            hello = bson.decode(await self.send(self._encode({"isMaster": 1, "$db": "admin"})))
        if hello.get("ok") != 1:
            raise ConnectionLost(f"{self.address()} did not answer the MongoDB handshake: {hello.get('errmsg', hello)}")
        if int(hello.get("maxWireVersion", 0)) < 6:
            raise ConnectionLost(f"{self.address()} is older than MongoDB 3.6 (no OP_MSG): use -p "
                                 "mongodb.driver=pymongo")

    def _encode(self, command: dict) -> tuple[int, bytes]:
        doc = bson.encode(command)
        request_id = next(self._ids)
        return request_id, _HEADER.pack(21 + len(doc), request_id, 0, OP_MSG, 0) + b"\x00" + doc

    def send(self, message: tuple[int, bytes]) -> asyncio.Future:
        request_id, data = message
        fut = self.loop.create_future()  # type: ignore[union-attr]
        self.proto.transport.write(data)
        self.proto.waiters.append((request_id, fut))
        return fut

    async def command(self, cmd: dict) -> dict | Status:
        """The server's reply document, or TIMEOUT / ERROR (``last_error`` says why)."""
        r = await self.call(self._encode(cmd))
        if r.__class__ is Status:
            return r
        reply = bson.decode(r)
        if reply.get("ok") != 1:
            self.last_error = f"{reply.get('codeName', 'error')}: {reply.get('errmsg', reply)}"[:300]
            return Status.ERROR
        errors = reply.get("writeErrors") or ([reply["writeConcernError"]] if "writeConcernError" in reply else None)
        if errors:
            error = errors[0]  # one document written: one write error at most
            self.last_error = str(error.get("errmsg", error))[:300]
            return Status.ERROR
        return reply

    async def run_command(self, cmd: dict, write: bool = False) -> tuple[Status, dict | None]:
        """Workload plug-ins' request (see ``workload.plugin``): ``cmd`` against the URL's database
        (with its write concern when ``write``); (OK, the reply) or (ERROR/TIMEOUT, None)."""
        r = await self.command(self._write(cmd) if write else {**cmd, "$db": self.db})
        return (r, None) if r.__class__ is Status else (Status.OK, r)  # type: ignore[return-value]

    def _write(self, cmd: dict) -> dict:
        if self.wc is not None:
            cmd["writeConcern"] = self.wc
        cmd["$db"] = self.db
        return cmd

    async def _find(self, cmd: dict, fields: Fields) -> Status:
        """OK when the find returned documents, NOT_FOUND when none."""
        if fields is not None:
            cmd["projection"] = projection(fields)
        r = await self.command(cmd)
        if r.__class__ is Status:
            return r
        return Status.OK if r["cursor"]["firstBatch"] else Status.NOT_FOUND  # type: ignore[index]

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        return await self._find({"find": table, "filter": {"_id": key.decode()}, "limit": 1, "singleBatch": True,
                                 "$db": self.db}, fields)

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        r = await self.command({"find": table, "filter": {"_id": key.decode()}, "limit": 1, "singleBatch": True,
                                "$db": self.db, "projection": projection(fields)})
        if r.__class__ is Status:
            return r, {}
        docs = r["cursor"]["firstBatch"]  # type: ignore[index]
        return (Status.OK, document_cells(docs[0])) if docs else (Status.NOT_FOUND, {})

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        doc = record_document(key.decode(), values)  # the same document as the pymongo binding's
        r = await self.command(self._write({"insert": table, "documents": [doc], "ordered": True}))
        return r if r.__class__ is Status else Status.OK

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        update = {"q": {"_id": key.decode()}, "u": {"$set": {n.decode(): v for n, v in values}}}
        r = await self.command(self._write({"update": table, "updates": [update], "ordered": True}))
        if r.__class__ is Status:
            return r
        return Status.OK if r["n"] else Status.NOT_FOUND  # type: ignore[index]

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        return await self._find({"find": table, "filter": {"_id": {"$gte": start_key.decode()}}, "sort": {"_id": 1},
                                 "limit": count, "batchSize": count, "singleBatch": True, "$db": self.db}, fields)

    async def delete(self, table: str, key: bytes) -> Status:
        r = await self.command(self._write({"delete": table, "deletes": [{"q": {"_id": key.decode()}, "limit": 1}]}))
        if r.__class__ is Status:
            return r
        return Status.OK if r["n"] else Status.NOT_FOUND  # type: ignore[index]

    async def chain(self, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int) -> tuple[int, int]:
        """Run operations ``start:end`` of ``batch`` = (ops, keys, key numbers, read fields, write
        fields) — READ, UPDATE and INSERT only — one after the other from the reply callback (see
        :mod:`ycsbctl.stores.mongodb.wire_chain`), each timed once through ``ctx.record(op, status, t0,
        t1, t0)``; stop early at the deadline, a timeout, a lost connection or (``ctx.stop_on_error``)
        a failed operation. Statuses and stored documents are the awaited calls'. Returns (done, failed)."""
        return await run_chain(MongoChain, self, ctx, batch, start, end)
