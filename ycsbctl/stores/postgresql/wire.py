"""PostgreSQL binding on the wire protocol itself (protocol 3.0, extended query): an
``asyncio.Protocol`` per client, named prepared statements, text parameters and results.

Why: client and server share the machine's cores, and asyncpg — the fastest asyncio driver —
costs about 2.4× ``pgbench -S``'s client CPU per point read (18 µs against 8 µs, ``bench
sql_clients``). Here each operation is one Bind + Execute + Sync written in one piece (the Parse
goes before the first Bind of each statement shape on a connection, as asyncpg's statement cache
does) and its reply is read for the few things that decide the status: rows, command tag, error.
Unpaced runs of READ / UPDATE / INSERT are chained from the reply callback (:mod:`ycsbctl.stores.sql.chain`).
The messages themselves are :mod:`ycsbctl.stores.postgresql.messages`'.

Used for URLs without a password or options other than TLS's (``sslmode``, ``sslrootcert``: libpq's
spelling; see :func:`tls_of`) — the trust authentication of a server ycsbctl starts — unless the server
asks for a password (``PGPASSWORD``, ``~/.pgpass``: asyncpg sends those); anything
else, and ``-p postgresql.driver=asyncpg``, goes through :mod:`ycsbctl.stores.postgresql.binding`.
"""

from __future__ import annotations

import asyncio
import time
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
from ycsbctl.stores.postgresql.messages import (
    _BIND_TAIL,
    _ENDINGS,
    _HEAD,
    _I16,
    _I32,
    _INSERT_ENDING,
    _INSERTED,
    ERROR,
    EXECUTE_SYNC,
    NOT_FOUND,
    OK,
    READY,
    Result,
    error_text,
    row_values,
)
from ycsbctl.stores.sql.chain import SqlChain
from ycsbctl.stores.sql.layout import DOLLAR, columns
from ycsbctl.stores.sql.tls import WireTls, untrusted
from ycsbctl.stores.sql.wire import SqlWireBinding
from ycsbctl.stores.tls_wire import start_tls
from ycsbctl.workload.core import DELETE, INSERT, READ

PASSWORD_ASKED = "the server asks for a password, which the wire path does not send: use postgresql.driver=asyncpg"
_now = time.perf_counter_ns


class PasswordAsked(ConnectionLost):
    """The server asked for a password at start-up (the wire path has none to give)."""


def driver_of(properties: dict[str, str]) -> str:
    """``-p postgresql.driver``: auto (the default), wire or asyncpg."""
    driver = properties.get("postgresql.driver", "auto").strip().lower()
    if driver not in ("auto", "wire", "asyncpg"):
        raise UserError(f"postgresql.driver={driver}: use auto, wire or asyncpg")
    return driver


TLS_KEYS = ("sslmode", "sslrootcert")  # the URL options the wire path reads itself (TLS)
SSLMODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
# A PostgreSQL that answered the SSLRequest N where the URL requires TLS (both drivers say it so)
NO_TLS = "speaks no TLS (it declined the SSLRequest): drop sslmode from the URL, or turn ssl on in the server"
SSL_REQUEST = _I32.pack(8) + _I32.pack(80877103)  # SSLRequest: "may we speak TLS?"; the server answers S or N
UNTRUSTED_FIX = "add sslrootcert=/path/ca.crt to the URL (or sslmode=require to skip the check)"


def tls_of(url: str) -> WireTls | None:
    """What the URL's ``sslmode`` asks of the wire path, as libpq reads it: none (absent, ``disable``,
    ``allow``: plain), ``prefer`` (TLS when the server offers it), ``require`` (TLS; the certificate
    checked only when ``sslrootcert`` names a CA, as libpq does), ``verify-ca`` (the chain),
    ``verify-full`` (the chain and the host name)."""
    query = dict(parse_qsl(urlsplit(url).query))
    mode = query.get("sslmode", "disable").lower()
    if mode not in SSLMODES:
        raise UserError(f"sslmode={mode} in a PostgreSQL URL: use one of {', '.join(SSLMODES)}")
    if mode in ("disable", "allow"):
        return None
    ca = query.get("sslrootcert") or None
    verify = mode in ("verify-ca", "verify-full") or (ca is not None and ca != "system")
    return WireTls(None if ca == "system" else ca, verify, mode == "verify-full", required=mode != "prefer",
                   option="sslrootcert")


def wire_eligible(url: str, properties: dict[str, str]) -> bool:
    driver = driver_of(properties)
    parts = urlsplit(url)
    plain = (not parts.password and "," not in parts.netloc
             and all(k in TLS_KEYS for k, _ in parse_qsl(parts.query, keep_blank_values=True)))
    if driver == "wire" and not plain:
        raise UserError("postgresql.driver=wire needs a postgresql://user@host:port/db URL (trust "
                        "authentication, no options but sslmode and sslrootcert): use postgresql.driver=asyncpg")
    if plain:
        tls_of(url)  # a bad sslmode is refused before anything starts
    return plain and driver != "asyncpg"


class _SslAnswer(asyncio.Protocol):
    """The one byte a server answers an SSLRequest with (``S``: go ahead with TLS; ``N``: no TLS here)."""

    def __init__(self) -> None:
        self.answer: asyncio.Future = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        if not self.answer.done():
            self.answer.set_result(data[:1])

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.answer.done():
            self.answer.set_exception(ConnectionError("the server closed the connection at the SSLRequest"))



class _PgProtocol(WireProtocol):
    """Replies in request order: each operation's messages up to ReadyForQuery resolve one waiter
    (a future, or a :class:`PgChain`) with a :class:`Result`. Only message headers are read (one
    ``unpack_from`` each); of the rows only the first is copied (a point read has one)."""

    def __init__(self) -> None:
        super().__init__()
        self.buf = bytearray()
        self.rows = 0
        self.row: bytes | None = None
        self.tag = b""
        self.error: str | None = None
        self.more: list[bytes] | None = None  # a list: keep the rows after the first (PgWireBinding.sql)

    def data_received(self, data: bytes) -> None:
        # A reply usually comes whole in one read. With one operation in flight, a reply that ends
        # with the CommandComplete of a point operation and ReadyForQuery (and no part of it read
        # before, but headers without content) is judged by that ending alone: two slices, measured
        # 1.0 µs against 2.5 µs for walking its messages. Anything else is parsed in place, and
        # only a message cut by a read boundary waits in ``buf``.
        if not self.buf and not self.rows and self.error is None and len(self.waiters) == 1 and data[-6:] == READY:
            ending = _ENDINGS.get(data[-20:-6])
            if ending is None and data[-22:-6] == _INSERTED:
                ending = _INSERT_ENDING
            if ending is not None:
                waiter = self.waiters.popleft()
                if waiter.done():
                    self.late += 1
                elif waiter.__class__ is SqlChain:  # its status is the ending's: no Result to build
                    waiter.complete(ending[2], _now())
                else:
                    waiter.set_result(Result(ending[0], None, ending[1], None, data))
                return
        if self.buf:
            self.buf += data
            data = bytes(self.buf)
            self.buf.clear()
        pos, n = 0, len(data)
        head = _HEAD.unpack_from
        while n - pos >= 5:
            t, size = head(data, pos)
            end = pos + 1 + size
            if end > n:
                break
            if t == 68:  # D: DataRow
                if not self.rows:
                    self.row = data[pos + 5:end]
                elif self.more is not None:
                    self.more.append(data[pos + 5:end])
                self.rows += 1
            elif t == 67:  # C: CommandComplete
                self.tag = data[pos + 5:end - 1]
            elif t == 90:  # Z: ReadyForQuery — the operation's reply is complete
                self.reply_ended()
            elif t == 69:  # E: ErrorResponse (the server then skips to Sync)
                self.error = error_text(data[pos + 5:end])
            # 1 ParseComplete, 2 BindComplete, n NoData, N notice, S parameter, K key, R auth OK: nothing to do
            elif t == 82 and int.from_bytes(data[pos + 5:pos + 9], "big") != 0:
                # a password request (MD5, SCRAM, …) ends the start-up's reply: the server waits for the password
                self.error = PASSWORD_ASKED
                self.reply_ended()
            pos = end
        if pos < n:
            self.buf += data[pos:]

    def connection_lost(self, exc: Exception | None) -> None:
        # an ErrorResponse the server closed after, without its ReadyForQuery (a start-up refused: too
        # many clients, no such database): that error is why the connection closed
        if self.error is not None and self.error is not PASSWORD_ASKED and self.said is None:
            self.said = self.error
        super().connection_lost(exc)

    def reply_ended(self) -> None:
        """The operation's reply is complete: its :class:`Result` goes to the oldest waiter."""
        r = Result(self.rows, self.row, self.tag, self.error, more=self.more)
        self.rows, self.row, self.tag, self.error, self.more = 0, None, b"", None, None
        self.answer(r, r.error)


class PgWireBinding(SqlWireBinding):
    """One YCSB client thread: its own connection, one statement in flight."""

    SERVER = "the PostgreSQL server"

    def __init__(self, url: str, timeout_s: float) -> None:
        super().__init__(timeout_s)
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 5432
        self.user = unquote(parts.username or "postgres")
        self.db = parts.path.strip("/") or "postgres"
        self.prepared: dict[str, bytes] = {}  # SQL text -> the name of its prepared statement on this connection
        # (table, field names, key length) -> a prepared read's Bind up to its key (see read_request)
        self.read_heads: dict[tuple, bytes] = {}
        self.statements: dict[tuple, tuple[str, bytes]] = {}  # (kind, table, field names) -> (SQL, name)
        self.parsing: str | None = None  # SQL whose Parse goes with the request in flight
        self.named: dict[str, bytes] = {}  # a plug-in's statements (sql) -> their names on this connection
        self.tls = tls_of(url)
        self.encrypted = False  # this connection speaks TLS (set by open)

    async def open(self) -> None:
        self.prepared.clear()
        self.read_heads.clear()
        if self.tls is None:
            _, self.proto = await self.loop.create_connection(_PgProtocol, self.host, self.port)  # type: ignore[union-attr]
        else:
            self.proto = await self._open_tls(self.tls)
        params = b"user\x00" + self.user.encode() + b"\x00database\x00" + self.db.encode() + b"\x00" + \
            b"client_encoding\x00UTF8\x00application_name\x00ycsbctl\x00\x00"
        startup = _I32.pack(8 + len(params)) + _I32.pack(196608) + params
        fut = self.loop.create_future()  # type: ignore[union-attr]
        self.proto.waiters.append(fut)
        self.proto.transport.write(startup)
        r = await fut
        if r.error:
            lost = PasswordAsked if r.error is PASSWORD_ASKED else ConnectionLost
            raise lost(f"{self.address()} refused the connection: {r.error}")

    async def _open_tls(self, tls: WireTls) -> _PgProtocol:
        """An SSLRequest on a fresh connection, then (``S``) the TLS handshake on it: the protocol's
        transport encrypts from then on. A server that answers ``N`` is refused unless TLS was only
        preferred."""
        loop = self.loop
        assert loop is not None
        transport, asked = await loop.create_connection(_SslAnswer, self.host, self.port)
        proto = _PgProtocol()
        try:
            transport.write(SSL_REQUEST)
            answer = await asked.answer
            if answer != b"S":
                if tls.required:
                    raise ConnectionLost(f"{self.address()} {NO_TLS}")
                transport.set_protocol(proto)
                proto.connection_made(transport)
                return proto
            try:
                secure = await start_tls(transport, proto, tls.context(), self.host)
            except (OSError, ConnectionError) as exc:
                hint = untrusted(exc, UNTRUSTED_FIX)
                raise ConnectionLost(f"{self.address()}: {hint or 'TLS handshake failed'} ({exc})") from None
        except BaseException:
            transport.close()
            raise
        proto.connection_made(secure)  # start_tls does not call it
        self.encrypted = True
        return proto

    def send(self, message: bytes) -> asyncio.Future:
        fut = self.loop.create_future()  # type: ignore[union-attr]
        self.proto.waiters.append(fut)
        self.proto.transport.write(message)
        return fut

    def statement(self, kind: str, table: str, names: tuple[bytes, ...] | None) -> tuple[str, bytes]:
        """(SQL, statement name) of one statement shape; the name is this binding's for that SQL."""
        key = (kind, table, names)
        st = self.statements.get(key)
        if st is None:
            cols = columns(names)
            sql = getattr(DOLLAR, kind)(table, cols) if kind != "delete" else DOLLAR.delete(table)
            st = self.statements[key] = (sql, f"y{len(self.statements)}".encode())
        return st

    def request(self, sql: str, name: bytes, params: Sequence[bytes]) -> bytes:
        """Bind + Execute + Sync of ``name`` with text ``params``, after its Parse when this connection
        has not prepared it yet."""
        pack = _I32.pack
        size = 4 + len(name) + 6 + 2 + 4 * len(params)  # length, names, formats, counts, parameter sizes
        body = [b"\x00", name, b"\x00\x00\x00", _I16.pack(len(params))]
        for p in params:
            if p is None:  # NULL: length −1, no value
                body.append(b"\xff\xff\xff\xff")
                continue
            body += (pack(len(p)), p)
            size += len(p)
        body[0] = b"B" + pack(size) + b"\x00"
        body.append(b"\x00\x00" + EXECUTE_SYNC)
        msg = b"".join(body)
        if sql in self.prepared:
            self.parsing = None
            return msg
        q = sql.encode()
        parse = name + b"\x00" + q + b"\x00\x00\x00"
        self.prepared[sql] = name
        self.parsing = sql
        return b"P" + _I32.pack(len(parse) + 4) + parse + msg

    async def sql(self, statement: str, params: Sequence[object] = ()) -> tuple[int, list[tuple], int]:
        """Any statement (``$n`` placeholders, text parameters) → (status, its rows as column texts, rows it
        changed): the generic request a workload plug-in's executor speaks through
        (``workload.plugin.SqlBinding``); prepared once per connection, as the YCSB statements are."""
        name = self.named.get(statement)
        if name is None:
            name = self.named[statement] = f"q{len(self.named)}".encode()
        texts = [None if v is None else str(v).encode() for v in params]
        self.proto.more = []
        r: Any = await self.call(self.request(statement, name, texts))  # type: ignore[arg-type]
        self.proto.more = None
        if r.__class__ is Status:
            return r, [], 0
        if r.error is not None:
            return self.failed(r), [], 0
        first = r.first_row()
        rows = [] if first is None else [tuple(row_values(first)), *(tuple(row_values(m)) for m in r.more or ())]
        last = r.tag.rpartition(b" ")[2]
        return OK, rows, int(last) if last.isdigit() and not r.tag.startswith(b"SELECT") else 0

    def failed(self, r: Result) -> Status:
        """ERROR for a reply with an error (``last_error`` says why; a failed Parse is prepared again next time)."""
        if self.parsing is not None:
            self.prepared.pop(self.parsing, None)
            self.read_heads.clear()
        self.last_error = f"PostgreSQL: {r.error}"[:300]
        return ERROR

    def read_request(self, table: str, key: bytes, names: tuple[bytes, ...] | None) -> bytes:
        # A read of a statement this connection has prepared is its Bind head for keys of this length,
        # the key and a constant tail: two concatenations, measured 0.2 µs against 0.6 µs for request().
        head = self.read_heads.get((table, names, len(key)))
        if head is not None:
            self.parsing = None
            return head + key + _BIND_TAIL
        sql, name = self.statement("read", table, names)
        message = self.request(sql, name, (key,))
        if self.parsing is None:  # prepared before this one: the Bind starts the message
            self.read_heads[(table, names, len(key))] = message[:-len(key) - len(_BIND_TAIL)]
        return message

    def insert_request(self, table: str, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        sql, name = self.statement("insert", table, tuple(names))
        return self.request(sql, name, (key, *values))

    def update_request(self, table: str, key: bytes, names: Sequence[bytes], values: Sequence[bytes]) -> bytes:
        sql, name = self.statement("update", table, tuple(names))
        return self.request(sql, name, (*values, key))

    def status(self, op: int, r: Result) -> Status:
        """What a reply means: ERROR (``last_error``), rows for a read, rows touched for a write."""
        if r.error is not None:
            return self.failed(r)
        if op == READ:
            return OK if r.rows else NOT_FOUND
        if op == INSERT:
            return OK
        return OK if r.tag.rpartition(b" ")[2] not in (b"0", b"") else NOT_FOUND

    def first_values(self, r: Any) -> list[bytes | None]:
        return row_values(r.first_row())

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        sql, name = self.statement("scan", table, None if fields is None else tuple(fields))
        r: Any = await self.call(self.request(sql, name, (start_key, str(count).encode())))
        if r.__class__ is Status:
            return r
        return self.failed(r) if r.error is not None else OK

    async def delete(self, table: str, key: bytes) -> Status:
        sql, name = self.statement("delete", table, None)
        return await self._call(DELETE, self.request(sql, name, (key,)))
