"""MariaDB / MySQL binding on the client/server protocol itself: an ``asyncio.Protocol`` per client,
one COM_QUERY per operation (the statement text with its values quoted, as MariaDB Connector/J sends
YCSB's prepared statements by default), replies read packet by packet for the few things that decide
the status: rows, rows matched (``CLIENT_FOUND_ROWS``, as Connector/J), error.

Why: asyncmy (the fastest asyncio driver measured, a third of aiomysql's CPU) still costs ~29 µs of
client CPU per point read (``bench sql_clients``). Used for URLs without a password (a server ycsbctl
starts); anything else, and ``-p mariadb.driver=asyncmy``, goes through :mod:`ycsbctl.stores.mariadb.binding`.
Unpaced runs of READ / UPDATE / INSERT are chained from the reply callback (:mod:`ycsbctl.stores.sql.chain`).
"""

from __future__ import annotations

import asyncio
import struct
import time
from collections import deque
from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from ycsbctl.errors import UserError
from ycsbctl.stores.binding import (
    ConnectionLost,
    Fields,
    Status,
    WireProtocol,
)
from ycsbctl.stores.mariadb.session import ER_CON_COUNT_ERROR, TLS_KEYS, TOO_MANY, tls_of
from ycsbctl.stores.mysql41 import error_text, lenenc, packet, quote, row_values
from ycsbctl.stores.sql.chain import SqlChain
from ycsbctl.stores.sql.layout import Dialect, columns
from ycsbctl.stores.sql.tls import untrusted
from ycsbctl.stores.sql.wire import SqlWireBinding
from ycsbctl.stores.tls_wire import start_tls
from ycsbctl.workload.core import DELETE, INSERT, READ

OK, NOT_FOUND, ERROR = Status.OK, Status.NOT_FOUND, Status.ERROR
QUOTED = Dialect("quoted", lambda i: "'%b'")  # values go in the text, quoted (see quote)
# CLIENT_LONG_PASSWORD | FOUND_ROWS | LONG_FLAG | CONNECT_WITH_DB | PROTOCOL_41 | TRANSACTIONS |
# SECURE_CONNECTION | PLUGIN_AUTH | DEPRECATE_EOF
CAPABILITIES = 1 | 2 | 4 | 8 | 512 | 8192 | 32768 | (1 << 19) | (1 << 24)
CLIENT_SSL = 2048  # in a short handshake response (an SSLRequest): switch this connection to TLS now
UNTRUSTED_FIX = "add ssl_ca=/path/ca.crt to the URL (or ssl_verify_cert=false to skip the check)"
DEPRECATE_EOF = 1 << 24
UTF8MB4 = 45
_now = time.perf_counter_ns


def wire_eligible(url: str, properties: dict[str, str]) -> bool:
    driver = properties.get("mariadb.driver", "auto").strip().lower()
    if driver not in ("auto", "wire", "asyncmy"):
        raise UserError(f"mariadb.driver={driver}: use auto, wire or asyncmy")
    parts = urlsplit(url)
    plain = not parts.password and all(k.lower() in TLS_KEYS for k, _ in parse_qsl(parts.query, keep_blank_values=True))
    if driver == "wire" and not plain:
        raise UserError("mariadb.driver=wire needs a mysql://user@host:port/db URL without a password or options "
                        "(but ssl, ssl_ca, ssl_verify_cert): use mariadb.driver=asyncmy")
    if plain:
        tls_of(url)  # bad TLS options are refused before anything starts
    return plain and driver != "asyncmy"












class Reply:
    """One statement's reply: rows (and the first one), rows matched by a write, the error if any."""

    __slots__ = ("rows", "row", "affected", "error", "more")

    def __init__(self, rows: int, row: bytes | None, affected: int, error: str | None) -> None:
        self.rows, self.row, self.affected, self.error = rows, row, affected, error
        self.more: list[bytes] | None = None  # the rows after the first, when asked for (MariaWireBinding.sql)


class _MyProtocol(WireProtocol):
    """Packets in order. During the handshake each packet resolves the next waiter with its payload;
    then each statement's packets up to its last (OK, ERR, or the end of its rows) resolve one waiter
    with a :class:`Reply`."""

    def __init__(self) -> None:
        super().__init__()
        self.buf = b""
        self.handshake = True
        self.early: deque[bytes] = deque()  # handshake packets nothing waits for yet
        self.eof_after_columns = False  # a server without CLIENT_DEPRECATE_EOF ends the columns with EOF
        self.state = 0  # 0 first packet, 1 column definitions, 2 rows
        self.left = 0  # column definitions (and the EOF after them) still to come
        self.rows = 0
        self.row: bytes | None = None
        # the bytes of the last result set up to its first row (column count and definitions, with their
        # sequence numbers): the same for every reply to one statement shape
        self.head = b""
        self.more: list[bytes] | None = None  # a list: keep the rows after the first (MariaWireBinding.sql)

    def _done(self, reply: Reply) -> None:
        if self.more is not None:
            reply.more, self.more = self.more, None
        self.state, self.rows, self.row = 0, 0, None
        self.answer(reply, reply.error)

    def data_received(self, data: bytes) -> None:
        # A point read's reply usually comes whole in one read: the head of the last result set, at most
        # one row, then the end of the rows. Such a reply is judged by those few bytes, without walking
        # its column definitions packet by packet (eleven of them for YCSB's table).
        head = self.head
        if head and not self.buf and not self.state and len(self.waiters) == 1 and data.startswith(head):
            h, n = len(head), len(data)
            if n - h > 4:
                end = h + 4 + (data[h] | data[h + 1] << 8 | data[h + 2] << 16)
                first = data[h + 4]
                if first == 0xFE and end == n:  # no row
                    rows = 0
                elif first < 0xFE and n - end > 4 and data[end + 4] == 0xFE and \
                        end + 4 + (data[end] | data[end + 1] << 8 | data[end + 2] << 16) == n:  # one row
                    rows = 1
                else:
                    rows = -1
                if rows >= 0:
                    waiter = self.waiters[0]
                    if waiter.__class__ is SqlChain and not waiter.done():  # a chained READ: its status is known
                        self.waiters.popleft()
                        waiter.complete(OK if rows else NOT_FOUND, _now())
                    else:
                        self._done(Reply(rows, data[h + 4:end] if rows else None, 0, None))
                    return
        if self.buf:
            data = self.buf + data
            self.buf = b""
        pos, n = 0, len(data)
        start = -1  # where a result set began in this data
        while n - pos >= 4:
            size = data[pos] | data[pos + 1] << 8 | data[pos + 2] << 16
            end = pos + 4 + size
            if end > n:
                break
            p = data[pos + 4:end]
            pos = end
            if self.handshake:  # the greeting may come before open() waits for it: kept until asked for
                self.early.append(p)
                while self.early and self.waiters:
                    self.waiters.popleft().set_result(self.early.popleft())
                continue
            state, first = self.state, p[0] if p else 0
            if state == 0:
                if first == 0:  # OK: rows matched (affected rows with CLIENT_FOUND_ROWS)
                    self._done(Reply(0, None, lenenc(p, 1)[0], None))
                elif first == 0xFF:
                    self._done(Reply(0, None, 0, error_text(p)))
                else:  # a result set: its column count
                    self.left = lenenc(p, 0)[0] + (1 if self.eof_after_columns else 0)
                    self.state = 1
                    start = pos - 4 - size
            elif state == 1:
                self.left -= 1
                if not self.left:
                    self.state = 2
                    if start >= 0:  # the whole head is in this data
                        self.head = data[start:pos]
            elif first == 0xFE and size < 0xFFFFFF:  # the end of the rows (EOF, or OK with DEPRECATE_EOF)
                self._done(Reply(self.rows, self.row, 0, None))
            elif first == 0xFF:
                self._done(Reply(self.rows, self.row, 0, error_text(p)))
            else:
                if not self.rows:
                    self.row = p
                elif self.more is not None:
                    self.more.append(p)
                self.rows += 1
        if pos < n:
            self.buf = data[pos:]


# the bytes a _binary string literal escapes, as PyMySQL's escape_string (NUL, newline, return, ^Z, quotes, backslash)
_BINARY_ESCAPES = {0: b"\\0", 10: b"\\n", 13: b"\\r", 26: b"\\Z", 34: b'\\"', 39: b"\\'", 92: b"\\\\"}


def literal(value: object) -> bytes:
    """A plug-in's parameter as an SQL literal: NULL, an integer, bytes as a ``_binary'…'`` string (every byte kept,
    not decoded in the connection's character set), anything else as its text in quotes."""
    if value is None:
        return b"NULL"
    if isinstance(value, int):
        return b"%d" % value
    if isinstance(value, bytes | bytearray | memoryview):
        return b"_binary'" + b"".join(_BINARY_ESCAPES.get(c, bytes((c,))) for c in bytes(value)) + b"'"
    return b"'" + quote(str(value).encode()) + b"'"


class MariaWireBinding(SqlWireBinding):
    """One YCSB client thread: its own connection, one statement in flight."""

    SERVER = "the MariaDB server"

    def __init__(self, url: str, timeout_s: float) -> None:
        super().__init__(timeout_s)
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 3306
        self.user = unquote(parts.username or "root")
        self.db = parts.path.strip("/") or "ycsb"
        self.templates: dict[tuple, bytes] = {}  # (kind, table, field names) -> statement text with %b for values
        # (table, field names, key length) -> a read's packet up to its key (see read_request)
        self.read_heads: dict[tuple, bytes] = {}
        self.tls = tls_of(url)
        self.encrypted = False  # this connection speaks TLS (set by open)

    def _next(self) -> asyncio.Future:
        fut = self.loop.create_future()  # type: ignore[union-attr]
        if self.proto.early:
            fut.set_result(self.proto.early.popleft())
        else:
            self.proto.waiters.append(fut)
        return fut

    async def open(self) -> None:
        _, self.proto = await self.loop.create_connection(_MyProtocol, self.host, self.port)  # type: ignore[union-attr]
        greeting = await self._next()
        if greeting[:1] == b"\xff":
            said = error_text(greeting)
            if int.from_bytes(greeting[1:3], "little") == ER_CON_COUNT_ERROR:
                said += f" — {TOO_MANY}"
            raise ConnectionLost(f"{self.address()} refused the connection: {said}")
        pos = greeting.index(b"\x00", 1) + 1 + 4 + 8 + 1  # version, connection id, auth data 1, filler
        caps = int.from_bytes(greeting[pos:pos + 2], "little") | int.from_bytes(greeting[pos + 5:pos + 7],
                                                                                "little") << 16
        wanted = CAPABILITIES & (caps | ~DEPRECATE_EOF)
        self.proto.eof_after_columns = not caps & DEPRECATE_EOF
        seq = 1
        if self.tls is not None:
            await self._start_tls(self.tls, caps, wanted)
            wanted |= CLIENT_SSL
            seq = 2  # the SSLRequest was packet 1
        response = (struct.pack("<IIB", wanted, 1 << 24, UTF8MB4)
                    + b"\x00" * 23 + self.user.encode() + b"\x00" + b"\x00" + self.db.encode() + b"\x00"
                    + b"mysql_native_password\x00")
        reply = self._next()
        self.proto.transport.write(packet(response, seq))
        r = await reply
        if r[:1] == b"\xfe":  # switch to another authentication method: still no password
            reply = self._next()
            self.proto.transport.write(packet(b"", seq + 2))
            r = await reply
        if r[:1] != b"\x00":
            why = error_text(r) if r[:1] == b"\xff" else "an authentication ycsbctl's wire client cannot do"
            fix = "give the password in the URL: the asyncmy path is used then"
            if self.tls is None and caps & CLIENT_SSL:  # require_secure_transport refuses a plain client this way too
                fix += "; or, if the server takes TLS clients only, add ?ssl=true"
            raise ConnectionLost(f"{self.address()} refused {self.user!r}: {why} ({fix})")
        self.proto.handshake = False

    async def _start_tls(self, tls, caps: int, wanted: int) -> None:
        """An SSLRequest (the handshake response's first 32 bytes, with CLIENT_SSL), then the TLS
        handshake on this connection; the protocol's transport encrypts from then on."""
        if not caps & CLIENT_SSL:
            raise ConnectionLost(f"{self.address()} speaks no TLS (no CLIENT_SSL in its greeting): drop ssl from the "
                                 "URL, or start the server with --ssl-cert and --ssl-key")
        plain = self.proto.transport
        plain.write(packet(struct.pack("<IIB", wanted | CLIENT_SSL, 1 << 24, UTF8MB4) + b"\x00" * 23, 1))
        try:
            secure = await start_tls(plain, self.proto, tls.context(), self.host)
        except (OSError, ConnectionError) as exc:
            hint = untrusted(exc, UNTRUSTED_FIX)
            raise ConnectionLost(f"{self.address()}: {hint or 'TLS handshake failed'} ({exc})") from None
        self.proto.connection_made(secure)  # start_tls does not call it
        self.encrypted = True

    def send(self, message: bytes) -> asyncio.Future:
        fut = self._next()
        self.proto.transport.write(message)
        return fut

    def template(self, kind: str, table: str, names: tuple[bytes, ...] | None) -> bytes:
        key = (kind, table, names)
        t = self.templates.get(key)
        if t is None:
            t = getattr(QUOTED, kind)(table, columns(names)).encode() if kind != "delete" else \
                QUOTED.delete(table).encode()
            if kind == "scan":  # LIMIT takes a number
                i = t.rfind(b"'%b'")
                t = t[:i] + b"%d" + t[i + 4:]
            self.templates[key] = t
        return t

    @staticmethod
    def query(sql: bytes) -> bytes:
        return packet(b"\x03" + sql)

    def read_request(self, table: str, key: bytes, names: tuple[bytes, ...] | None) -> bytes:
        # A key with nothing to escape (YCSB's are letters and digits) follows its read's packet head for
        # keys of its length: two concatenations instead of the template, the escapes and the packet.
        head = self.read_heads.get((table, names, len(key)))
        if head is not None and b"'" not in key and b"\\" not in key:
            return head + key + b"'"
        t = self.template("read", table, names)
        if t.endswith(b"'%b'"):
            self.read_heads[(table, names,
                             len(key))] = packet(b"\x03" + t[:-3] + b"\x00" * len(key) + b"'")[:-len(key) - 1]
        return self.query(t % (quote(key),))

    def insert_request(self, table: str, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        return self.query(self.template("insert", table, tuple(names)) % (quote(key), *map(quote, values)))

    def update_request(self, table: str, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        return self.query(self.template("update", table, tuple(names)) % (*map(quote, values), quote(key)))

    async def sql(self, statement: str, params: Sequence[object] = ()) -> tuple[int, list[tuple], int]:
        """Any statement (``?`` placeholders, filled in quoted as Connector/J does) → (status, its rows as
        column texts, rows it matched): the generic request a workload plug-in's executor speaks through
        (``workload.plugin.SqlBinding``)."""
        parts = statement.encode().split(b"?")
        if len(parts) != len(params) + 1:
            raise ValueError(f"{len(params)} parameters for {len(parts) - 1} placeholders in {statement!r}")
        out = [parts[0]]
        for value, part in zip(params, parts[1:]):
            out += (literal(value), part)
        self.proto.more = []
        r: Any = await self.call(self.query(b"".join(out)))
        self.proto.more = None
        if r.__class__ is Status:
            return r, [], 0
        if r.error is not None:
            self.last_error = f"MariaDB: {r.error}"[:300]
            return ERROR, [], 0
        rows = [] if r.row is None else [tuple(row_values(r.row)), *(tuple(row_values(m)) for m in r.more or ())]
        return OK, rows, r.affected

    def status(self, op: int, r: Reply) -> Status:
        if r.error is not None:
            self.last_error = f"MariaDB: {r.error}"[:300]
            return ERROR
        if op == READ:
            return OK if r.rows else NOT_FOUND
        if op == INSERT:
            return OK
        return OK if r.affected else NOT_FOUND

    def first_values(self, r: Any) -> list[bytes | None]:
        return row_values(r.row)

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        sql = self.template("scan", table, None if fields is None else tuple(fields)) % (quote(start_key), count)
        r: Any = await self.call(self.query(sql))
        if r.__class__ is Status:
            return r
        return self.status(READ, r) if r.error is not None else OK

    async def delete(self, table: str, key: bytes) -> Status:
        return await self._call(DELETE, self.query(self.template("delete", table, None) % (quote(key),)))
