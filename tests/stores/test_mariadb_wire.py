"""The MariaDB wire binding's reply parser: a result set, an OK and an ERR cut anywhere by the reads give what
they give whole (packets as the protocol defines them, CLIENT_DEPRECATE_EOF on). The chains' requests (each
operation's bytes the binding's own request for it, a reply after its expiry late), the handshake's packets
and a server greeting with an error or without DEPRECATE_EOF, and a plug-in's bytes escaped as PyMySQL
does."""

from __future__ import annotations

import asyncio
import struct
import time

import pytest

from tests.fixtures.mysql_packets import lenenc_int
from tests.fixtures.wire_waiter import Written, connect_said
from ycsbctl.stores.binding import Status
from ycsbctl.stores.mariadb.wire import MariaWireBinding, _MyProtocol
from ycsbctl.stores.mysql41 import lenenc, packet, quote, row_values


class Waiter:
    def __init__(self) -> None:
        self.result = None

    def done(self) -> bool:
        return self.result is not None

    def set_result(self, r) -> None:
        self.result = r


def _lenenc_str(v: bytes) -> bytes:
    return bytes((len(v),)) + v


ROWS = (packet(b"\x02", 1) + packet(b"def-column-1", 2) + packet(b"def-column-2", 3)
        + packet(_lenenc_str(b"user1") + _lenenc_str(b"a" * 100), 4)
        + packet(b"\xfe\x00\x00\x02\x00\x00\x00", 5))  # OK packet with the 0xFE header: end of rows
OK_MATCHED = packet(b"\x00\x01\x00\x02\x00\x00\x00", 1)  # 1 row matched
ERR = packet(b"\xff\x26\x04#23000Duplicate entry 'user1' for key 'PRIMARY'", 1)


def _parse(chunks: list[bytes]):
    p = _MyProtocol()
    p.handshake = False
    w = Waiter()
    p.waiters.append(w)
    for c in chunks:
        p.data_received(c)
    return w.result, p


def test_replies_cut_at_any_byte_read_as_whole_ones():
    for reply, expect in ((ROWS, (1, 0, None)), (OK_MATCHED, (0, 1, None))):
        whole, _ = _parse([reply])
        assert (whole.rows, whole.affected, whole.error) == expect
        for cut in range(1, len(reply)):
            r, p = _parse([reply[:cut], reply[cut:]])
            assert (r.rows, r.row, r.affected, r.error) == (whole.rows, whole.row, whole.affected, whole.error), cut
            assert not p.buf and not p.waiters and p.state == 0
            assert p.head in (b"", HEAD), cut  # learned only from a head that came whole in one read
    r, _ = _parse([ROWS])
    assert row_values(r.row) == [b"user1", b"a" * 100]


def test_an_err_packet_carries_the_servers_code_sqlstate_and_message():
    r, _ = _parse([ERR])
    assert r.error == "Duplicate entry 'user1' for key 'PRIMARY' (error 1062, SQLSTATE 23000)"


def test_quotes_and_backslashes_in_a_value_are_escaped():
    assert quote(b"it's a \\ test") == b"it\\'s a \\\\ test"


HEAD = ROWS[:ROWS.index(packet(_lenenc_str(b"user1") + _lenenc_str(b"a" * 100), 4))]  # column count and definitions
NO_ROW = HEAD + packet(b"\xfe\x00\x00\x02\x00\x00\x00", 4)
TWO_ROWS = HEAD + packet(_lenenc_str(b"user1") + _lenenc_str(b"a"), 4) + packet(_lenenc_str(b"user2") + b"\xfb", 5) \
    + packet(b"\xfe\x00\x00\x02\x00\x00\x00", 6)
NULL_FIRST = HEAD + packet(b"\xfb" + _lenenc_str(b"b"), 4) + packet(b"\xfe\x00\x00\x02\x00\x00\x00", 5)
ERR_IN_ROWS = HEAD + packet(b"\xff\x26\x04#HY000query interrupted", 4)


def test_a_result_set_teaches_its_head_and_replies_read_by_it_say_what_walking_their_packets_says():
    _, p = _parse([ROWS])
    assert p.head == HEAD  # learned from a reply read packet by packet
    for reply in (ROWS, NO_ROW, TWO_ROWS, NULL_FIRST, ERR_IN_ROWS, OK_MATCHED, ERR):
        slow, _ = _parse([reply])  # a fresh protocol knows no head: every packet walked
        for cut in (None, *range(1, len(reply))):
            fast = _MyProtocol()
            fast.handshake, fast.head = False, HEAD
            w = Waiter()
            fast.waiters.append(w)
            for chunk in ([reply] if cut is None else [reply[:cut], reply[cut:]]):
                fast.data_received(chunk)
            r = w.result
            assert (r.rows, r.row, r.affected,
                    r.error) == (slow.rows, slow.row, slow.affected, slow.error), (reply, cut)
            assert not fast.buf and not fast.waiters and fast.state == 0
    assert slow.rows == 0 and _parse([TWO_ROWS])[0].rows == 2 and _parse([NO_ROW])[0].rows == 0


def test_a_reply_read_by_its_head_reaches_only_its_own_waiter():
    p = _MyProtocol()
    p.handshake, p.head = False, HEAD
    a, b = Waiter(), Waiter()
    p.waiters.extend([a, b])
    p.data_received(ROWS + NO_ROW)  # two waiters: the replies are walked, each to its own
    assert (a.result.rows, b.result.rows) == (1, 0)


def test_a_read_built_from_its_cached_head_is_the_same_packet_as_one_built_from_the_template():
    b = MariaWireBinding("mysql://root@127.0.0.1:3306/ycsb", 1.0)
    keys = [b"user1", b"user2", b"us'r3", b"us\\r4", b"user12345", b"user67890", b"o'reilly1"]
    for names in (None, (b"field0",), (b"field1", b"field9")):
        for key in keys * 2:  # the second time through, the heads are known
            built = b.query(b.template("read", "usertable", names) % (quote(key),))
            assert b.read_request("usertable", key, names) == built, (names, key)
    assert len(b.read_heads) == 3 * 2  # a head per field list and key length


def test_a_reply_of_a_known_head_is_read_without_walking_its_packets(monkeypatch):
    from ycsbctl.stores.mariadb import wire

    def walked(*_):
        raise AssertionError("the reply's packets were walked")

    for reply, rows in ((ROWS, 1), (NO_ROW, 0)):
        p = _MyProtocol()
        p.handshake, p.head = False, HEAD
        w = Waiter()
        p.waiters.append(w)
        monkeypatch.setattr(wire, "lenenc", walked)
        p.data_received(reply)
        monkeypatch.undo()
        assert w.result.rows == rows and (rows == 0 or row_values(w.result.row) == [b"user1", b"a" * 100])


def test_a_null_column_is_none_and_the_next_one_is_read_after_it():
    assert row_values(b"\xfb" + _lenenc_str(b"b") + b"\xfb") == [None, b"b", None]


def _greeting(upper_caps: int, lower_caps: int = 0xF7FE) -> bytes:
    """A protocol-10 greeting as MariaDB 10.11 sends it, with the capability flags given."""
    return packet(b"\x0a" + b"10.11.19-MariaDB\x00" + struct.pack("<I", 7) + b"abcdefgh\x00"
                  + struct.pack("<HBHH", lower_caps, 45, 2, upper_caps) + bytes((21,)) + b"\x00" * 10
                  + b"ijklmnopqrst\x00" + b"mysql_native_password\x00", 0)


@pytest.mark.parametrize("deprecate_eof", [True, False])
def test_the_handshake_asks_for_deprecate_eof_only_of_a_server_that_offers_it(deprecate_eof: bool):
    async def main() -> tuple[int, bool]:
        asked: list[int] = []

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(_greeting(0x0008 | (0x0100 if deprecate_eof else 0)))  # PLUGIN_AUTH (+ DEPRECATE_EOF)
            head = await reader.readexactly(4)
            body = await reader.readexactly(int.from_bytes(head[:3], "little"))
            asked.append(struct.unpack_from("<I", body)[0])
            writer.write(packet(b"\x00\x00\x00\x02\x00\x00\x00", 2))  # OK
            await writer.drain()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        b = MariaWireBinding(f"mysql://root@127.0.0.1:{server.sockets[0].getsockname()[1]}/ycsb", 2.0)
        try:
            await b.connect()
            return asked[0], b.proto.eof_after_columns
        finally:
            await b.close()
            server.close()

    flags, eof_after_columns = asyncio.run(main())
    assert bool(flags & (1 << 24)) is deprecate_eof and eof_after_columns is not deprecate_eof
    assert flags & 512 and flags & 2  # PROTOCOL_41, CLIENT_FOUND_ROWS (rows matched, as Connector/J)


def test_columns_of_every_length_encoding_are_read_whole_and_the_next_one_after_them():
    """A field of 300 bytes has a 2-byte length, one of 70,000 (``fieldlength`` of a big record) a 3-byte
    one; a NULL between them is one 0xFB byte."""
    values = [b"user1", b"b" * 300, None, b"c" * 70_000, b"d"]
    row = b"".join(b"\xfb" if v is None else lenenc_int(len(v)) + v for v in values)
    assert row_values(row) == values
    big = (1 << 32) + 7  # an 8-byte length: read as a number, not a whole 4 GiB value
    assert lenenc(b"x" + lenenc_int(big) + b"y", 1) == (big, 10)
    assert lenenc(lenenc_int(65_535), 0) == (65_535, 3) and lenenc(lenenc_int(65_536), 0) == (65_536, 4)


def test_a_0xfe_packet_under_16_mib_ends_the_rows_and_one_of_16_mib_is_a_row():
    """The end of the rows is a 0xFE packet shorter than the protocol's largest (0xFFFFFF bytes, which
    splits a longer one): an OK of 0xFFFFFE bytes still ends them."""
    long_ok = b"\xfe\x00\x00\x02\x00\x00\x00" + b"i" * (0xFFFFFE - 7)  # an OK with a long info text
    r, p = _parse([HEAD + packet(_lenenc_str(b"user1") + _lenenc_str(b"a"), 4) + packet(long_ok, 5)])
    assert (r.rows, r.error) == (1, None) and not p.waiters and p.state == 0


@pytest.mark.parametrize(("op", "reply", "status"), [
    ("read", (1, b"r", 0, None), "OK"), ("read", (0, None, 0, None), "NOT_FOUND"),
    ("update", (0, None, 1, None), "OK"), ("update", (0, None, 0, None), "NOT_FOUND"),
    ("delete", (0, None, 2, None), "OK"), ("insert", (0, None, 0, None), "OK"),
    ("read", (0, None, 0, "boom (error 1)"), "ERROR"), ("update", (0, None, 1, "boom (error 1)"), "ERROR")])
def test_a_replys_status_is_rows_for_a_read_rows_matched_for_a_write_and_error_first(op, reply, status):
    from ycsbctl.stores.binding import Status
    from ycsbctl.stores.mariadb.wire import Reply
    from ycsbctl.workload.core import DELETE, INSERT, READ, UPDATE

    b = MariaWireBinding("mysql://root@127.0.0.1:3306/ycsb", 1.0)
    code = {"read": READ, "update": UPDATE, "delete": DELETE, "insert": INSERT}[op]
    assert b.status(code, Reply(*reply)) is Status[status]
    assert (b.last_error == f"MariaDB: {reply[3]}") is (reply[3] is not None)


def test_only_a_url_without_a_password_or_options_but_tls_ones_takes_the_wire_path():
    from ycsbctl.errors import UserError
    from ycsbctl.stores.mariadb.wire import wire_eligible

    assert wire_eligible("mysql://root@h:3306/ycsb", {})
    assert wire_eligible("mysql://root@h:3306/ycsb?SSL=true&ssl_ca=/ca.crt&ssl_verify_cert=false", {})
    for url in ("mysql://root:pw@h:3306/ycsb", "mysql://root@h:3306/ycsb?charset=latin1"):
        assert not wire_eligible(url, {}), url
    assert not wire_eligible("mysql://root@h/ycsb", {"mariadb.driver": "asyncmy"})
    assert wire_eligible("mysql://root@h/ycsb", {"mariadb.driver": " Wire "})
    with pytest.raises(UserError, match="mariadb.driver=wire needs a mysql://user@host:port/db URL"):
        wire_eligible("mysql://root:pw@h/ycsb", {"mariadb.driver": "wire"})
    with pytest.raises(UserError, match="mariadb.driver=pymysql: use auto, wire or asyncmy"):
        wire_eligible("mysql://root@h/ycsb", {"mariadb.driver": "pymysql"})
    with pytest.raises(UserError, match="ssl=maybe, ssl_verify_cert=true in a MySQL URL"):
        wire_eligible("mysql://root@h/ycsb?ssl=maybe", {})


def test_a_plugins_statement_goes_with_its_values_quoted_and_its_rows_come_back():
    """``sql`` against a loopback server speaking the protocol: the statement sent is the text with each
    ``?`` filled as Connector/J fills it (NULL, a number, a quoted string), and the reply's rows are
    read back whole (a result set of two rows, with a NULL)."""
    sent: list[bytes] = []
    rows = HEAD + packet(_lenenc_str(b"user1") + _lenenc_str(b"a"), 4) + packet(b"\xfb" + _lenenc_str(b"b"), 5) \
        + packet(b"\xfe\x00\x00\x02\x00\x00\x00", 6)

    async def main():
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(_greeting(0x0008 | 0x0100))
            for reply in (packet(b"\x00\x00\x00\x02\x00\x00\x00", 2), rows, OK_MATCHED, ERR):
                head = await reader.readexactly(4)
                sent.append(await reader.readexactly(int.from_bytes(head[:3], "little")))
                writer.write(reply)
                await writer.drain()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        b = MariaWireBinding(f"mysql://root@127.0.0.1:{server.sockets[0].getsockname()[1]}/ycsb", 2.0)
        try:
            await b.connect()
            got = [await b.sql("SELECT ?, ? FROM t WHERE a = ? AND b = ?", (None, 5, "it's", "x\\y")),
                   await b.sql("UPDATE t SET a = 1 WHERE b = ?", ("z",)),
                   (await b.sql("INSERT INTO t VALUES (1)"), b.last_error)]
            with pytest.raises(ValueError, match="1 parameters for 2 placeholders"):
                await b.sql("SELECT ? + ?", (1,))
            return got
        finally:
            await b.close()
            server.close()

    (status, got_rows, matched), (status2, none, matched2), failed = asyncio.run(main())
    assert sent[1] == b"\x03SELECT NULL, 5 FROM t WHERE a = 'it\\'s' AND b = 'x\\\\y'"
    assert sent[2] == b"\x03UPDATE t SET a = 1 WHERE b = 'z'"
    assert (status, got_rows, matched) == (0, [(b"user1", b"a"), (None, b"b")], 0)
    assert (status2, none, matched2) == (0, [], 1)
    assert failed == ((2, [], 0), "MariaDB: Duplicate entry 'user1' for key 'PRIMARY' (error 1062, SQLSTATE 23000)")


def test_a_url_without_a_port_user_or_database_takes_mariadbs_defaults():
    b = MariaWireBinding("mysql://db.example", 1.0)
    assert (b.host, b.port, b.user, b.db) == ("db.example", 3306, "root", "ycsb")
    b = MariaWireBinding("mysql://b%40b@[::1]:3307/other", 1.0)
    assert (b.host, b.port, b.user, b.db) == ("::1", 3307, "b@b", "other")


def test_the_handshake_response_and_the_ssl_request_are_the_protocols_bytes():
    """HandshakeResponse41: capabilities, max packet 16 MiB, utf8mb4 (45), 23 zero bytes, the user, an empty
    auth response, the database, the auth plugin's name; an SSLRequest: its first 32 bytes with CLIENT_SSL."""
    ((seq, body),), _ = _connect_with_replies([packet(b"\x00\x00\x00\x02\x00\x00\x00", 2)])
    caps, max_packet, charset = struct.unpack_from("<IIB", body)
    assert (seq, max_packet, charset, body[9:32]) == (1, 1 << 24, 45, bytes(23))
    assert body[32:] == b"bob\x00" + b"\x00" + b"db1\x00" + b"mysql_native_password\x00"
    assert caps & 8 and caps & (1 << 19) and not caps & 2048  # CONNECT_WITH_DB, PLUGIN_AUTH; no TLS asked
    ((seq, body),), said = _connect_with_replies([b"no TLS here"], 0xF7FE | 0x0800, "?ssl=true&ssl_verify_cert=false")
    assert said is not None and "TLS handshake failed" in said
    caps, max_packet, charset = struct.unpack_from("<IIB", body)
    assert (seq, len(body), max_packet, charset, body[9:]) == (1, 32, 1 << 24, 45, bytes(23)) and caps & 2048


def _connect_with_replies(replies: list[bytes], lower_caps: int = 0xF7FE,
                          query: str = "") -> tuple[list[tuple[int, bytes]], str | None]:
    """The client's packets (sequence number, payload) and its ConnectionLost (None: connected) against a
    server that greets it (with ``lower_caps``), answers each of its packets with the next of ``replies``,
    then closes."""
    asked: list[tuple[int, bytes]] = []

    async def main() -> str | None:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(_greeting(0x0008 | 0x0100, lower_caps))
            for reply in replies:
                head = await reader.readexactly(4)
                asked.append((head[3], await reader.readexactly(int.from_bytes(head[:3], "little"))))
                writer.write(reply)
                await writer.drain()
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        try:
            return await connect_said(MariaWireBinding(f"mysql://bob@127.0.0.1:{server.sockets[0].getsockname()[1]}"
                                                       f"/db1{query}", 2.0))
        finally:
            server.close()

    return asked, asyncio.run(main())


def test_a_refused_login_says_the_servers_words_and_an_auth_switch_is_answered_without_a_password():
    denied = packet(b"\xff\x15\x04#28000Access denied for user 'bob'@'localhost'", 2)
    _, said = _connect_with_replies([denied])
    assert said is not None and said.endswith("refused 'bob': Access denied for user 'bob'@'localhost' (error 1045, "
                                              "SQLSTATE 28000) (give the password in the URL: the asyncmy path is used "
                                              "then)")
    _, said = _connect_with_replies([denied], lower_caps=0xF7FE | 0x0800)  # a server that offers TLS: say so too
    assert said.endswith("; or, if the server takes TLS clients only, add ?ssl=true)")
    switch = packet(b"\xfe" + b"mysql_native_password\x00" + b"abcdefghijklmnopqrst\x00", 2)
    asked, said = _connect_with_replies([switch, packet(b"\x00\x00\x00\x02\x00\x00\x00", 4)])
    assert said is None and asked[1] == (3, b"")  # the switch answered with no auth data, the next sequence number
    _, said = _connect_with_replies([switch, packet(b"\x01\x04", 4)])  # more auth data asked: a method it cannot do
    assert "an authentication ycsbctl's wire client cannot do" in said


def test_a_mariadb_sql_chain_writes_each_operation_as_the_bindings_own_request_for_it_field_for_field():
    # chained READ of one field or all, UPDATE of one field, INSERT: the bytes a MariaDB wire binding's chain
    # writes are those its read_request / update_request / insert_request build for that operation
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.mariadb.wire import MariaWireBinding, _MyProtocol
    from ycsbctl.workload.core import INSERT, READ, UPDATE

    names = [b"field%d" % i for i in range(10)]
    values = {-1: [b"v%d" % i for i in range(10)], **{i: [b"new%d" % i] for i in range(10)}}
    ok = b"\x07\0\0\x01" + b"\0\0\0\x02\0\0\0"  # an OK packet: no rows, 0 affected

    async def chained(b: MariaWireBinding, op: int, rf: int, wf: int) -> bytes:
        b.loop, b.proto = asyncio.get_running_loop(), _MyProtocol()
        b.proto.handshake, b.proto.transport = False, Written()
        ctx = ChainContext(record=lambda *_: None, names=[tuple(names)] + [(n,) for n in names],
                           values=values.__getitem__,
                           ack=None, deadline_ns=time.perf_counter_ns() + 10**10, stop_on_error=False, table="t")
        run = asyncio.ensure_future(b.chain(ctx, ([op], [b"user7"], [7], [rf], [wf]), 0, 1))
        await asyncio.sleep(0)
        (sent,) = b.proto.transport.sent
        b.proto.data_received(ok)
        await run
        return sent

    async def go() -> None:
        b = MariaWireBinding("mariadb://root@127.0.0.1:1/ycsb", 1.0)
        assert await chained(b, READ, -1, -1) == b.read_request("t", b"user7", None)
        for f in range(10):
            assert await chained(b, READ, f, -1) == b.read_request("t", b"user7", (names[f],)), f
            assert await chained(b, UPDATE, -1, f) == b.update_request("t", b"user7", (names[f],), [b"new%d" % f]), f
        assert await chained(b, INSERT, -1, -1) == b.insert_request("t", b"user7", tuple(names), values[-1])

    asyncio.run(go())


def _packet(seq: int, payload: bytes) -> bytes:
    return len(payload).to_bytes(3, "little") + bytes((seq,)) + payload


@pytest.mark.parametrize("size", [1, 255, 256, 65_535, 65_536, 65_541, 70_000])
def test_a_mariadb_one_row_reply_after_a_known_head_is_that_row_whole_whatever_its_size_and_bytes(size: int):
    # the reply's head (column count, column definitions) as the connection saw it before, one row packet,
    # the end of the rows (an EOF packet): its length is read from the 3-byte little-endian packet header. The
    # row's bytes from its (size mod 256)th on look like an EOF packet's header reaching the data's end: where a
    # length read with its third byte wrong (0 for 65,536 + k) would say the row ends.
    from ycsbctl.stores.mariadb.wire import _MyProtocol

    eof = _packet(9, b"\xfe\0\0\x02\0")
    row = bytearray(b"r" * size)
    off = size & 0xFF
    fake = (size + len(eof) - 4 - off).to_bytes(3, "little") + b"\x00\xfe"
    row[off:off + 5] = fake[:max(0, min(5, size - off))]
    assert len(row) == size
    loop = asyncio.new_event_loop()
    try:
        p = _MyProtocol()
        p.handshake, p.head = False, _packet(1, b"\x01") + _packet(2, b"column definition")
        waiter = loop.create_future()
        p.waiters.append(waiter)
        p.data_received(p.head + _packet(3, bytes(row)) + eof)
        reply = waiter.result()
    finally:
        loop.close()
    assert (reply.rows, reply.row, reply.error) == (1, bytes(row), None)


def test_a_mariadb_plugins_bytes_parameter_is_escaped_as_pymysql_escapes_a_string_every_byte_kept():
    from pymysql.converters import escape_string

    from ycsbctl.stores.mariadb.wire import literal

    for value in (bytes(range(256)), b"", b"a\tb\nc\r\0\x1a'\"\\z"):
        assert literal(value) == b"_binary'" + escape_string(value.decode("latin-1")).encode("latin-1") + b"'", value
    assert (literal(None), literal(-12), literal("it's")) == (b"NULL", b"-12", b"'it\\'s'")


def test_a_mariadb_sql_chains_reply_after_its_operation_expired_is_counted_late_and_recorded_once():
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.mariadb.wire import MariaWireBinding, _MyProtocol
    from ycsbctl.workload.core import UPDATE

    names = [b"field%d" % i for i in range(10)]
    ok = b"\x07\0\0\x01" + b"\0\x01\0\x02\0\0\0"  # an OK packet: 1 row matched

    async def go() -> tuple:
        b = MariaWireBinding("mariadb://root@127.0.0.1:1/ycsb", 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _MyProtocol()
        b.proto.handshake, b.proto.transport = False, Written()
        timed: list[int] = []
        ctx = ChainContext(record=lambda op, st, *_: timed.append(st), names=[tuple(names)] + [(n,) for n in names],
                           values=lambda f: [b"x"], ack=None, deadline_ns=time.perf_counter_ns() + 10**10,
                           stop_on_error=False)
        run = asyncio.ensure_future(b.chain(ctx, ([UPDATE], [b"user1"], [1], [-1], [0]), 0, 1))
        await asyncio.sleep(0)
        b.expire()
        b.proto.data_received(ok)  # the reply, in the same turn of the loop as the watchdog's expiry
        done = await run
        return done, timed, b.proto.late

    assert asyncio.run(go()) == ((1, 1), [Status.TIMEOUT], 1)


def test_the_mariadb_handshake_packets_go_whole_to_their_waiters_in_order_kept_while_none_waits():
    # the greeting may come before open() waits for it (and a packet split anywhere): kept, then handed in order
    from ycsbctl.stores.mariadb.wire import _MyProtocol

    def packet(payload: bytes, seq: int) -> bytes:
        return len(payload).to_bytes(3, "little") + bytes([seq]) + payload

    p = _MyProtocol()
    loop = asyncio.new_event_loop()
    try:
        greeting, ok_payload = b"\x0a11.4.2-MariaDB\x00" + bytes(40), b"\x00\x00\x00\x02\x00\x00\x00"
        p.data_received(packet(greeting, 0)[:9])
        assert not p.early and p.buf
        p.data_received(packet(greeting, 0)[9:] + packet(ok_payload, 2))  # nothing waits yet
        assert list(p.early) == [greeting, ok_payload] and not p.buf
        first, second, third = (loop.create_future() for _ in range(3))
        p.waiters.extend([first, second, third])
        p.data_received(packet(b"\x01", 3))
        assert first.result() == greeting and second.result() == ok_payload and third.result() == b"\x01"
        assert not p.early and not p.waiters
    finally:
        loop.close()


def test_a_mariadb_server_that_greets_with_an_error_is_said_refusing_the_connection_in_its_words():
    # a server at max_connections answers the TCP connection with an ERR packet instead of its greeting
    from tests.fixtures.wire_waiter import connect_said
    from ycsbctl.stores.mariadb.wire import MariaWireBinding

    refusal = b"\xff\x10\x04Too many connections"
    greeting = len(refusal).to_bytes(3, "little") + b"\x00" + refusal

    async def main() -> tuple[str | None, int]:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(greeting)
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        try:
            port = server.sockets[0].getsockname()[1]
            return await connect_said(MariaWireBinding(f"mysql://bob@127.0.0.1:{port}/db1", 2.0)), port
        finally:
            server.close()

    said, port = asyncio.run(main())
    assert said == (f"the MariaDB server at 127.0.0.1:{port} refused the connection: Too many connections (error 1040)"
                    " — more client threads than the server's max_connections allows: lower --threads or raise "
                    "max_connections (SET GLOBAL max_connections = N)")


def test_a_mariadb_reply_read_by_its_head_measures_a_64_kib_row_by_all_three_length_bytes():
    # two rows of over 64 KiB (scan-sized): the head's short cut must see the first row end where its three length
    # bytes say and so walk on to the second. Where a length read one bit off would end it (byte 3 as << 15 or
    # << 17), a packet that looks like the end of the rows is planted, so a misread would say one row.
    from tests.fixtures.mysql_packets import lenenc_int as lenenc
    from ycsbctl.stores.mariadb.wire import _MyProtocol
    from ycsbctl.stores.mysql41 import packet

    h, eof = len(HEAD), packet(b"\xfe\x00\x00\x02\x00\x00\x00", 6)
    one, two = (
        bytearray(b"\x05user1" + lenenc(70_000) + b"a" * 70_000),
        bytearray(b"\x05user2" + lenenc(70_000) + b"b" * 70_000),
    )
    end = h + 4 + len(one)  # where the first row's packet ends
    n = end + 4 + len(two) + len(eof)
    for wrong in (end - 32_768, end + 65_536):  # byte 3 (1) read as << 15 / << 17: inside row one / row two
        at, body = (wrong - h - 4, one) if wrong < end else (wrong - end - 4, two)
        body[at:at + 5] = (n - wrong - 4).to_bytes(3, "little") + b"\x09\xfe"
    reply = HEAD + packet(bytes(one), 4) + packet(bytes(two), 5) + eof
    assert reply[h + 2] == 1 and len(reply) == n
    slow, _ = _parse([reply])  # no head known: every packet walked
    fast = _MyProtocol()
    fast.handshake, fast.head = False, HEAD
    w = Waiter()
    fast.waiters.append(w)
    fast.data_received(reply)
    assert (w.result.rows, w.result.row, w.result.error) == (slow.rows, slow.row, slow.error) and slow.rows == 2


def test_a_mariadb_server_without_deprecate_eof_is_not_asked_for_it_and_its_column_eofs_are_expected():
    from ycsbctl.stores.mariadb.wire import CAPABILITIES, DEPRECATE_EOF, MariaWireBinding

    caps = CAPABILITIES & ~DEPRECATE_EOF | 2048  # an older server: every capability asked but DEPRECATE_EOF (and TLS)
    hello = (
        b"\x0a5.5.5-10.1.48\x00"
        + (7).to_bytes(4, "little")
        + b"a" * 8
        + b"\x00"
        + (caps & 0xFFFF).to_bytes(2, "little")
        + b"\x21"
        + b"\x02\x00"
        + (caps >> 16).to_bytes(2, "little")
        + b"\x15"
        + b"\x00" * 10
        + b"b" * 12
        + b"\x00"
    )
    asked: list[int] = []

    async def main() -> bool:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(len(hello).to_bytes(3, "little") + b"\x00" + hello)
            head = await reader.readexactly(4)
            body = await reader.readexactly(int.from_bytes(head[:3], "little"))
            asked.append(int.from_bytes(body[:4], "little"))
            ok = b"\x00\x00\x00\x02\x00\x00\x00"
            writer.write(len(ok).to_bytes(3, "little") + b"\x02" + ok)
            await writer.drain()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        try:
            b = MariaWireBinding(f"mysql://bob@127.0.0.1:{server.sockets[0].getsockname()[1]}/db1", 2.0)
            await b.connect()
            eofs = b.proto.eof_after_columns
            await b.close()
            return eofs
        finally:
            server.close()

    assert asyncio.run(main()) is True and asked == [CAPABILITIES & ~DEPRECATE_EOF]
