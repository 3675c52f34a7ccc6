"""SphinxQL's reply parser and frame skimmer (stores/sphinx/wire.py) against replies built from the MySQL
protocol's definition (tests/fixtures/mysql_packets.py), each read a second way by PyMySQL's own packet
reader: names, rows, NULLs, affected rows, errors, the EOF rule, replies cut at every byte."""

from __future__ import annotations

import asyncio
import struct

import pymysql.err
import pytest
from pymysql.constants import CLIENT, COMMAND
from pymysql.protocol import FieldDescriptorPacket, MysqlPacket, OKPacketWrapper

from tests.fixtures.mysql_packets import EOF, column_definition, err_payload, ok, result_set, row
from ycsbctl.stores.mysql41 import error_text, packet
from ycsbctl.stores.sphinx.wire import Reply, SphinxQL, handshake_response, query

NAMES = [b"id", b"field0", b"field1"]
ROWS = [[b"7", b"a" * 300, None], [b"8", b"", b"b"], [b"9", None, b"c" * 70_000]]


class Chain:
    """A chain's waiter (the binding's ``_Chain``): told a reply's rows (skimmed) or the reply (replied)."""

    def __init__(self) -> None:
        self.skims: list[int] = []
        self.replies: list[Reply] = []

    def skimmed(self, rows: int) -> None:
        self.skims.append(rows)

    def replied(self, reply: Reply) -> None:
        self.replies.append(reply)


def _proto(*waiters) -> SphinxQL:
    p = SphinxQL()
    p.ready = True
    p.chains = (Chain,)
    p.waiters.extend(waiters)
    return p


def _packets(data: bytes) -> list[bytes]:
    out, pos = [], 0
    while pos < len(data):
        end = pos + 4 + int.from_bytes(data[pos:pos + 3], "little")
        out.append(data[pos + 4:end])
        pos = end
    return out


def _pymysql_reading(data: bytes) -> tuple[list[bytes], list[list[bytes | None]]]:
    """The column names and rows of a result set as PyMySQL's packet reader reads them."""
    ps = _packets(data)
    count = MysqlPacket(ps[0], "utf8").read_length_encoded_integer()
    names = [FieldDescriptorPacket(p, "utf8").name.encode() for p in ps[1:1 + count]]
    assert MysqlPacket(ps[1 + count], "utf8").is_eof_packet()
    rows = []
    for p in ps[2 + count:]:
        m = MysqlPacket(p, "utf8")
        if m.is_eof_packet():
            break
        rows.append([m.read_length_coded_string() for _ in names])
    return names, rows


def _parsed(*chunks: bytes) -> tuple[Reply, SphinxQL]:
    w = Chain()
    p = _proto()
    p.waiters.append(w)
    for c in chunks:
        p.parsed(c)
    assert len(w.replies) == 1
    return w.replies[0], p


@pytest.mark.parametrize("rows", [ROWS, ROWS[:1], []])
def test_a_result_set_gives_the_names_and_rows_pymysql_reads_whole_or_cut_at_any_byte(rows):
    data = result_set(NAMES, rows)
    names, expect = _pymysql_reading(data)
    for cut in (None, *range(1, len(data), 97), *range(len(data) - 12, len(data))):
        r, p = _parsed(data) if cut is None else _parsed(data[:cut], data[cut:])
        assert r.names == names == NAMES and r.rows == len(expect) and r.all_rows() == expect, cut
        assert r.error is None and r.affected == 0 and r.first == (row(rows[0]) if rows else None)
        assert not p.buf and p.state == 0 and not p.waiters
    assert r.record() == ({n: v for n, v in zip(names, expect[0]) if v is not None} if rows else {})


def test_an_ok_packet_gives_its_affected_rows_as_pymysql_reads_them():
    for affected in (0, 1, 300, 70_000):
        data = ok(affected)
        r, p = _parsed(data)
        assert r.affected == OKPacketWrapper(MysqlPacket(data[4:], "utf8")).affected_rows == affected
        assert (r.rows, r.first, r.error, r.names) == (0, None, None, []) and not p.buf


@pytest.mark.parametrize("sqlstate", [b"42000", None])
def test_an_err_packet_says_pymysqls_code_and_message_first_or_after_rows(sqlstate):
    payload = err_payload(1064, b"index 'nope': no such index", sqlstate)
    with pytest.raises(pymysql.err.MySQLError) as raised:
        pymysql.err.raise_mysql_exception(payload)
    code, message = raised.value.args
    said = f"{message} (error {code}" + (f", SQLSTATE {sqlstate.decode()})" if sqlstate else ")")
    assert error_text(payload) == said
    r, _ = _parsed(packet(payload, 1))
    assert (r.error, r.rows, r.affected) == (said, 0, 0)
    r, p = _parsed(result_set(NAMES, ROWS[:2], tail=payload))  # an error after two rows: searchd gave up
    assert (r.error, r.rows) == (said, 2) and p.state == 0


def test_the_eof_rule_is_pymysqls_a_0xfe_packet_under_9_bytes_ends_the_rows_one_of_9_is_a_row():
    for size in (5, 7, 8, 9):
        odd = b"\xfe" + bytes(size - 1)  # 0xFE with an 8-byte length of 0 when 9 bytes long: a row
        is_eof = MysqlPacket(odd, "utf8").is_eof_packet()
        assert is_eof is (size < 9)
        data = b"".join(packet(p, s) for s, p in enumerate(
            [b"\x01", column_definition(b"id"), EOF, row([b"1"]), odd, EOF], 1))
        w = Chain()
        p = _proto(w)
        p.parsed(data)
        rows = 1 if is_eof else 2
        assert w.replies[0].rows == rows, size
        assert w.replies[0].all_rows() == ([[b"1"]] if is_eof else [[b"1"], [b""]])
        assert SphinxQL().skim(data) == (-1 if is_eof else 2), size  # one reply and a stray EOF: not one whole reply


def test_skim_counts_the_rows_parsing_counts_and_learns_the_head_of_a_result_set():
    p = SphinxQL()
    for rows in (ROWS, [], ROWS[:1], ROWS[:2]):
        data = result_set(NAMES, rows)
        assert p.skim(data) == len(rows) == _parsed(data)[0].rows
        assert p.head == data[:data.index(packet(EOF, 5)) + 9]  # count, three definitions and their EOF
    other = result_set([b"id"], [[b"1"], [b"2"]])
    assert p.skim(other) == 2 and p.head == other[:len(packet(b"\x01", 1) + packet(column_definition(b"id"), 2)) + 9]
    assert p.skim(ok(1)) == 0 and p.skim(ok(300)) == 0
    wide = [b"id", b"f" * 300]  # a column definition over 255 bytes: its length's second byte counts
    data = result_set(wide, [[b"1", b"x"], [b"2", b"y"]])
    assert SphinxQL().skim(data) == 2 == _parsed(data)[0].rows and _pymysql_reading(data)[0] == wide
    huge = [b"id", b"f" * 70000]  # one over 64 KiB: its length's third byte counts
    data = result_set(huge, [[b"1", b"x"]])
    assert SphinxQL().skim(data) == 1 == _parsed(data)[0].rows and _pymysql_reading(data)[0] == huge


def test_skim_hands_anything_but_one_whole_reply_to_the_parser():
    p = SphinxQL()
    data = result_set(NAMES, ROWS[:2])
    assert p.skim(data) == 2
    for cut in range(len(data)):  # a reply not yet whole, with its head known and without
        assert p.skim(data[:cut]) == -1 == SphinxQL().skim(data[:cut]), cut
    cases = [data + ok(1), data + data, ok(1) + ok(1), ok(1)[:-1], ok(1) + b"\x00",
             packet(err_payload(1064, b"syntax"), 1), result_set(NAMES, ROWS[:1], tail=err_payload(1, b"x")),
             packet(b"\x01", 1) + packet(err_payload(1, b"x"), 2)]
    for bad in cases:
        assert p.skim(bad) == -1 == SphinxQL().skim(bad), bad
    assert p.skim(packet(b"\x00", 1)) == 0  # the shortest frame: an OK of one byte


def test_a_chains_whole_reply_is_skimmed_and_anything_else_parsed_to_its_own_waiter():
    data = result_set(NAMES, ROWS[:2])
    a, b, c = Chain(), Chain(), Chain()
    p = _proto(a, b, c)
    p.data_received(data)  # whole: skimmed
    p.data_received(data[:10])  # cut: parsed, the rest in the next read
    p.data_received(data[10:] + ok(3))  # two replies in one read: parsed, each to its own waiter
    assert (a.skims, a.replies) == ([2], []) and b.skims == [] and c.skims == []
    assert b.replies[0].rows == 2 and c.replies[0].affected == 3 and not p.waiters and not p.buf
    d, e = Chain(), Chain()
    p.waiters.extend([d, e])
    p.data_received(ok(1))  # a write's OK and a read that found nothing: skimmed too, as 0 rows
    p.data_received(result_set(NAMES, []))
    assert (d.skims, d.replies, e.skims, e.replies) == ([0], [], [0], [])
    f = asyncio.get_event_loop_policy().new_event_loop().create_future()
    p.waiters.append(f)  # not a chain: a future, never skimmed
    p.data_received(ok(4))
    assert f.result().affected == 4
    done = f.get_loop().create_future()
    done.cancel()
    p.waiters.append(done)  # a request that timed out: its reply comes late
    p.data_received(packet(err_payload(1, b"late"), 1))
    p.data_received(packet(err_payload(2, b"nobody asked"), 1))
    assert (p.late, p.stray, p.said) == (1, 1, "nobody asked (error 2, SQLSTATE HY000)")
    f.get_loop().close()


def test_the_handshake_packets_go_whole_to_their_waiters_in_order_kept_while_none_waits():
    p = SphinxQL()
    loop = asyncio.new_event_loop()
    try:
        greeting, ok_payload = b"\x0a2.2.11-id64-release\x00" + bytes(40), ok(0, 2)[4:]
        first = loop.create_future()
        p.waiters.append(first)
        p.parsed(packet(greeting, 0)[:7])
        assert not first.done()
        p.parsed(packet(greeting, 0)[7:] + packet(ok_payload, 2) + packet(b"\x0a", 3))
        assert first.result() == greeting and p.early == [ok_payload, b"\x0a"] and not p.buf
        second = loop.create_future()
        p.waiters.append(second)
        p.parsed(packet(b"\x01", 4))
        assert second.result() == ok_payload and p.early == [b"\x0a", b"\x01"]
    finally:
        loop.close()


def test_the_handshake_response_and_a_query_are_the_protocols_bytes():
    caps = CLIENT.LONG_PASSWORD | CLIENT.LONG_FLAG | CLIENT.PROTOCOL_41 | CLIENT.TRANSACTIONS | CLIENT.SECURE_CONNECTION
    body = struct.pack("<IIB", caps, 16 * 1024 * 1024, 33) + bytes(23) + b"ycsbctl\x00\x00"
    assert handshake_response() == len(body).to_bytes(3, "little") + b"\x01" + body
    assert handshake_response(b"u")[4 + 32:] == b"u\x00\x00"
    assert query(b"SELECT 1") == b"\x09\x00\x00\x00" + bytes((COMMAND.COM_QUERY,)) + b"SELECT 1"


# -- the binding's requests and statuses (stores/sphinx/binding.py) --------------------------------------------

def test_the_bindings_requests_number_the_document_and_quote_its_values():
    from ycsbctl.stores.sphinx.binding import SphinxBinding, document_id

    assert [document_id(k) for k in (b"user0", b"user42", b"user6284781860667377211", b"k_9")] == \
        [1, 43, 6284781860667377212, 10]
    for bad in (b"user", b"user42x", b"42user", b""):
        with pytest.raises(ValueError, match="has no number"):
            document_id(bad)
    b = SphinxBinding("127.0.0.1", 9306, 1.0)
    for key in (b"user0", b"user42", b"k_7", b"user" + b"9" * 18):
        assert b.read_request(key) == query(b"SELECT * FROM usertable WHERE id = %d" % document_id(key))
    names, values = [b"field0", b"field1"], [b"it's", b"a\\b"]
    for _ in range(2):  # the second time from the cached head
        assert b.insert_request(b"user7", names, values) == query(
            b"INSERT INTO usertable (id, key_text, ycsb_key, field0, field1) VALUES (8, 'user7', 'user7', "
            b"'it\\'s', 'a\\\\b')")


def test_a_replys_status_is_its_error_first_then_rows_for_a_read():
    from ycsbctl.stores.sphinx.binding import ERROR, NOT_FOUND, OK, SphinxBinding
    from ycsbctl.workload.core import INSERT, READ, SCAN

    b = SphinxBinding("127.0.0.1", 9306, 1.0)
    assert [b.status(READ, Reply(rows=1)), b.status(READ, Reply()), b.status(INSERT, Reply(affected=1)),
            b.status(SCAN, Reply())] == [OK, NOT_FOUND, OK, OK]
    assert b.status(INSERT, Reply(error="duplicate id '8' (error 1064)")) == ERROR
    assert b.last_error == "Sphinx: duplicate id '8' (error 1064)"


def _connect(greeting: bytes, reply: bytes | None) -> str | None:
    """The binding's ConnectionLost (None: connected) against a loopback server that sends ``greeting`` and
    answers the handshake response with ``reply``."""
    from tests.fixtures.wire_waiter import connect_said
    from ycsbctl.stores.sphinx.binding import SphinxBinding

    async def main() -> str | None:
        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(greeting)
            if reply is not None:
                head = await reader.readexactly(4)
                await reader.readexactly(int.from_bytes(head[:3], "little"))
                writer.write(reply)
            await writer.drain()

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        try:
            return await connect_said(SphinxBinding("127.0.0.1", server.sockets[0].getsockname()[1], 2.0))
        finally:
            server.close()

    return asyncio.run(main())


def test_a_refused_connection_or_handshake_is_said_in_searchds_words():
    greeting = packet(b"\x0a2.2.11-id64-release (r2.2.11)\x00" + bytes(40), 0)
    assert _connect(greeting, ok(0, 2)) is None
    said = _connect(packet(err_payload(1040, b"maxed out", None), 0), None)
    assert said is not None and said.endswith("refused the connection: maxed out (error 1040)")
    said = _connect(greeting, packet(err_payload(1045, b"no such user", b"28000"), 2))
    assert said.endswith("refused the handshake: no such user (error 1045, SQLSTATE 28000)")
    said = _connect(greeting, packet(b"\xfe" + b"x" * 60, 2))  # neither OK nor ERR: its first 40 bytes shown
    assert said.endswith("refused the handshake: " + repr(b"\xfe" + b"x" * 39))
