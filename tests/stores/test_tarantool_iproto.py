"""Tarantool's IPROTO pieces (stores/tarantool/iproto.py) against the msgpack library: every request part the
module encodes by hand is what ``msgpack`` packs or reads back, and every reply reading (type, body start,
tuple count, error message) is what ``msgpack`` decodes from the same bytes, at every integer width Tarantool
or msgpack may write. A greeting that is not Tarantool's is named by its first bytes."""

from __future__ import annotations

import io
import struct

import msgpack
import pytest

from tests.fixtures.wire_waiter import Waiter
from ycsbctl.stores.tarantool import iproto

# every boundary of msgpack's integer, string and array widths
INTS = [0, 1, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x10000, 0xFFFFFFFF, 0x100000000, (1 << 64) - 1]
LENGTHS = [0, 1, 31, 32, 255, 256, 0xFFFF, 0x10000]
COUNTS = [0, 1, 15, 16, 0xFFFF, 0x10000]


def test_integers_and_strings_are_msgpacks_own_bytes_at_every_width():
    for n in INTS:
        assert iproto.uint(n) == msgpack.packb(n), n
    for n in LENGTHS:
        s = bytes(ord("a") + i % 26 for i in range(n))
        assert iproto.string(s) == msgpack.packb(s.decode()), n
    for n in COUNTS:
        assert msgpack.unpackb(iproto.array(n) + b"\xc0" * n) == [None] * n, n
        assert iproto.array(n) == msgpack.packb([None] * n)[:len(iproto.array(n))]


def _request(data: bytes) -> tuple[dict, dict]:
    assert data[0] == 0xCE
    (size,) = struct.unpack(">I", data[1:5])
    assert size == len(data) - 5
    u = msgpack.Unpacker(io.BytesIO(data[5:]), raw=True, strict_map_key=False)
    head, body = next(u), next(u)
    assert u.tell() == size
    return head, body


@pytest.mark.parametrize("sync", [0, 200, 70_000])
def test_each_request_decodes_to_the_header_and_body_tarantool_reads(sync):
    key, fields = b"user12345", [b"user12345", b"field0", b"x" * 40, b"field1", b"y" * 300]
    cases = [
        (iproto.SELECT, iproto.select_body(iproto.SPACE_ID, key, limit=200, iterator=iproto.GE, index=1),
         {0x10: 1024, 0x11: 1, 0x12: 200, 0x13: 0, 0x14: 5, 0x20: [key]}),
        (iproto.SELECT, iproto.select_body(512, key), {0x10: 512, 0x11: 0, 0x12: 1, 0x13: 0, 0x14: 0, 0x20: [key]}),
        (iproto.INSERT, iproto.tuple_body(iproto.SPACE_ID, fields), {0x10: 1024, 0x21: fields}),
        (iproto.REPLACE, iproto.tuple_body(300, fields * 4), {0x10: 300, 0x21: fields * 4}),
        (iproto.UPDATE, iproto.update_body(iproto.SPACE_ID, key, [(2, b"v" * 33), (200, b"w")]),
         {0x10: 1024, 0x11: 0, 0x20: [key], 0x21: [[b"=", 2, b"v" * 33], [b"=", 200, b"w"]]}),
        (iproto.DELETE, iproto.key_body(70_000, key), {0x10: 70_000, 0x11: 0, 0x20: [key]}),
        (iproto.CALL, iproto.call_body("ycsb_scan", [key, 5]), {0x22: b"ycsb_scan", 0x21: [key, 5]}),
        (iproto.EVAL, iproto.eval_body("return 1"), {0x27: b"return 1", 0x21: []}),
    ]
    for kind, body, expect in cases:
        head, decoded = _request(iproto.frame(kind, body, sync))
        assert head == {0x00: kind, 0x01: sync} and decoded == expect, kind
    # Tarantool 2.6's iproto_constants.h
    assert (iproto.SELECT, iproto.INSERT, iproto.REPLACE, iproto.UPDATE, iproto.DELETE, iproto.EVAL, iproto.CALL,
            iproto.PING, iproto.EQ, iproto.GE, iproto.ERR_TUPLE_FOUND) == (1, 2, 3, 4, 5, 8, 10, 64, 0, 5, 3)


def _full_width_header(code: int, sync: int, schema: int) -> bytes:
    """A reply header as Tarantool writes it: ``{type, sync, schema}``, each integer at full width."""
    return (b"\x83\x00\xce" + code.to_bytes(4, "big") + b"\x01\xcf" + sync.to_bytes(8, "big")
            + b"\x05\xce" + schema.to_bytes(4, "big"))


@pytest.mark.parametrize("code", [0, 0x8000 | iproto.ERR_TUPLE_FOUND, 0x8000 | 0x7F, 0x8000 | 300, 5, 0x90])
def test_a_replys_type_and_body_start_are_what_msgpack_reads_at_any_integer_width(code):
    body = msgpack.packb({0x30: [[b"k", b"f", b"v"]]})
    for header in (_full_width_header(code, 7, 80), msgpack.packb({0x00: code, 0x01: 70_000, 0x05: 300}),
                   msgpack.packb({0x00: code, 0x01: 200, 0x05: 1 << 40})):
        data = b"\x00\x00" + header + body
        u = msgpack.Unpacker(io.BytesIO(data[2:]), strict_map_key=False)
        assert iproto.reply_code(data, 2) == next(u)[0x00] == code
        assert iproto.body_start(data, 2) == 2 + u.tell() == 2 + len(header)


def test_the_tuple_count_is_msgpacks_array_length_at_every_width_and_minus_one_for_another_shape():
    for n in COUNTS:
        tuples = [[b"k"]] * n
        for body in (msgpack.packb({0x30: tuples}), b"\x81\x30\xdd" + n.to_bytes(4, "big") + b"\x91\xa1k" * n):
            assert (
                iproto.data_count(b"zz" + body, 2, 2 + len(body))
                == len(msgpack.unpackb(body, strict_map_key=False)[0x30])
                == n
            )
    one = msgpack.packb({0x30: [[b"k"]]})
    assert iproto.data_count(one, 0, 2) == -1  # shorter than a map, its key and an array's first byte
    assert iproto.data_count(one, 0, 3) == 1
    for other in (msgpack.packb({0x31: "no"}), msgpack.packb({0x30: [1], 0x31: "x"}), msgpack.packb({0x30: 5}),
                  msgpack.packb({0x30: None}), msgpack.packb({0x31: [1]})):
        assert iproto.data_count(other, 0, len(other)) == -1, other


def test_an_error_replys_message_is_msgpacks_reading_of_its_body_or_said_missing_or_broken():
    text = "Duplicate key exists in unique index 'primary' in space 'ycsb'"
    assert iproto.error_message(msgpack.packb({0x31: text})) == text
    assert iproto.error_message(msgpack.packb({0x31: ""})) == "an error reply without a message"
    assert iproto.error_message(msgpack.packb({0x30: []})) == "an error reply without a message"
    assert iproto.error_message(msgpack.packb([1])) == "an error reply without a message"
    assert iproto.error_message(b"\x81\x31\xa5ab") == "an error reply ycsbctl could not decode"
    assert iproto.decode_body(msgpack.packb({0x30: [[b"k", "v"]]})) == {0x30: [[b"k", b"v"]]}


def test_a_tuple_of_ycsbs_layout_is_its_name_value_pairs_after_the_key_only_the_wanted_ones():
    tup = [b"user1", b"field0", b"a", "field1", "b", b"field2", 3]
    assert iproto.record_fields(tup) == {b"field0": b"a", b"field1": b"b", b"field2": b"3"}
    assert iproto.record_fields(tup, {b"field1", b"field9"}) == {b"field1": b"b"}
    assert iproto.record_fields([b"user1"]) == {} == iproto.record_fields(tup[:2])
    assert iproto.record_fields(tup[:3]) == {b"field0": b"a"}


# -- the binding's requests and reply framing (stores/tarantool/binding.py) ---------------------------------

def _binding():
    from ycsbctl.stores.tarantool.binding import TarantoolBinding, field_positions

    positions = field_positions({"fieldcount": "12", "fieldnameprefix": "f"})
    assert positions == {b"f%d" % i: i for i in range(12)}
    return TarantoolBinding("tarantool://127.0.0.1:3301", 1.0, positions, space=600)


def test_the_bindings_requests_decode_to_ycsbs_tuple_layout():
    b = _binding()
    for key in (b"", b"u", b"user1", b"k" * 31, b"k" * 32, b"k" * 300) * 2:  # str widths; heads cached the 2nd time
        head, body = _request(b.read_request(key))
        assert head == {0x00: iproto.SELECT, 0x01: 0} and body == {0x10: 600, 0x11: 0, 0x12: 1, 0x13: 0, 0x14: 0,
                                                                   0x20: [key]}, key
    names, values = [b"f10", b"f2", b"zz", b"f0"], [b"a", b"b", b"c", b"d"]
    head, body = _request(b.insert_request(b"user1", names, values))
    assert head[0x00] == iproto.INSERT
    assert body == {0x10: 600, 0x21: [b"user1", b"f0", b"d", b"f2", b"b", b"f10", b"a", b"zz", b"c"]}  # field order
    head, body = _request(b.update_request(b"user1", [b"f11", b"f0"], [b"x", b"y"]))
    assert head[0x00] == iproto.UPDATE and body[0x20] == [b"user1"]
    assert body[0x21] == [[b"=", 23, b"f11"], [b"=", 24, b"x"], [b"=", 1, b"f0"], [b"=", 2, b"y"]]
    with pytest.raises(ValueError, match="not one of the workload's fields"):
        b.update_request(b"user1", [b"field0"], [b"x"])


def _reply(code: int, sync: int, body: dict) -> bytes:
    payload = _full_width_header(code, sync, 80) + msgpack.packb(body)
    return b"\xce" + len(payload).to_bytes(4, "big") + payload


def test_replies_after_the_greeting_go_to_their_requests_however_the_bytes_are_cut():
    from ycsbctl.stores.binding import Status
    from ycsbctl.stores.tarantool.binding import _IProto, status_of
    from ycsbctl.workload.core import INSERT, READ, UPDATE

    greeting = b"Tarantool 2.11.1 (Binary) 5b3e0e52-1c2d-4c7b-8f8b-2c7e3d4f5a6b".ljust(63) + b"\n" + b"salt" * 11
    greeting = greeting.ljust(iproto.GREETING_BYTES)
    found = _reply(0, 1, {0x30: [[b"user1", b"f0", b"v"]]})
    none = _reply(0, 2, {0x30: []})
    dup = _reply(0x8000 | iproto.ERR_TUPLE_FOUND, 3, {0x31: "Duplicate key exists in unique index 'primary'"})
    stream = greeting + found + none + dup
    for cut in (1, 5, 64, 127, 128, 129, 133, 200, len(stream)):
        p = _IProto()
        waiters = [Waiter(), Waiter(), Waiter()]
        p.waiters.extend(waiters)
        for i in range(0, len(stream), cut):
            p.data_received(stream[i:i + cut])
        assert p.greeting == greeting and not p.waiters and not p.buf, cut
        r1, r2, r3 = (w.result for w in waiters)
        assert (r1.code, r1.count(), r1.tuples()) == (0, 1, [[b"user1", b"f0", b"v"]])
        assert (r2.code, r2.count(), r3.code) == (0, 0, 0x8000 | iproto.ERR_TUPLE_FOUND)
        b = _binding()
        assert [status_of(READ, r1, b), status_of(UPDATE, r2, b), status_of(INSERT, r2, b)] == \
            [Status.OK, Status.NOT_FOUND, Status.OK]
        assert status_of(INSERT, r3, b) == Status.ERROR
        assert b.last_error == "Tarantool: Duplicate key exists in unique index 'primary'"
    big = _reply(0, 4, {0x30: [[b"user1", b"f0", b"v" * (17 << 20)]]})  # a frame over 16 MiB: a length's 4 bytes
    p = _IProto()
    w = Waiter()
    p.waiters.append(w)
    p.data_received(greeting + big[:1000])
    p.data_received(big[1000:])
    assert w.result.count() == 1 and len(w.result.tuples()[0][2]) == 17 << 20 and not p.buf
    p = _IProto()
    p.data_received(greeting)
    gone = Waiter(done=True)
    p.waiters.append(gone)
    p.data_received(found + dup)  # the first to a request that timed out, the second to nothing
    assert (p.late, p.stray, p.said) == (1, 1, "Duplicate key exists in unique index 'primary'")


def _mysql_greeting(version: bytes) -> bytes:
    # MySQL's Protocol::HandshakeV10: 3-byte length, sequence 0, then protocol version 10 and the NUL-ended version
    payload = b"\x0a" + version + b"\0" + b"\x01\0\0\0" + b"abcdefgh\0"
    return len(payload).to_bytes(3, "little") + b"\0" + payload


@pytest.mark.parametrize(("data", "said"), [
    (_mysql_greeting(b"10.11.6-MariaDB"),
     "a MySQL-protocol handshake (MySQL, MariaDB or SphinxQL), version '10.11.6-MariaDB'"),
    (_mysql_greeting(b""), "a MySQL-protocol handshake (MySQL, MariaDB or SphinxQL), version ''"),
    (b"\x01\0\0\0\x0a\0", "a MySQL-protocol handshake (MySQL, MariaDB or SphinxQL), version ''"),  # the shortest
    (b"\x01\0\0\0\x0a", "5 bytes that are not a Tarantool greeting (b'\\x01\\x00\\x00\\x00\\n')"),  # no NUL: no version
    (b"\x01\0\0\x01\x0a\0", "6 bytes that are not a Tarantool greeting (b'\\x01\\x00\\x00\\x01\\n\\x00')"),  # seq 1
    (b"\x01\0\0\0\x09\0", "6 bytes that are not a Tarantool greeting (b'\\x01\\x00\\x00\\x00\\t\\x00')"),  # protocol 9
    (b"\0\0\0\x01", "4 bytes, a protocol version (1), as Sphinx searchd's API port does"),
    (b"\0\0\0\0", "4 bytes that are not a Tarantool greeting (b'\\x00\\x00\\x00\\x00')"),
    (b"HTTP/1.1 400 Bad Request\r\nx", "an HTTP reply ('HTTP/1.1 400 Bad Request')"),
    (b"-ERR unknown command\r\n", "a RESP reply, as Redis speaks ('-ERR unknown command')"),
    (b"+OK", "3 bytes that are not a Tarantool greeting (b'+OK')"),
    (b"x", "1 byte that is not a Tarantool greeting (b'x')"),
    # its first 40
    (bytes(range(100, 150)), f"50 bytes that are not a Tarantool greeting ({bytes(range(100, 140))!r})"),
    (_mysql_greeting(b"v" * 50), f"a MySQL-protocol handshake (MySQL, MariaDB or SphinxQL), version {'v' * 40!r}"),
    (b"HTTP/1.1 200 " + b"k" * 60 + b"\r\n", f"an HTTP reply ({'HTTP/1.1 200 ' + 'k' * 47!r})"),  # its first 60
])
def test_a_server_that_is_not_tarantool_is_named_by_what_its_first_bytes_say(data: bytes, said: str):
    from ycsbctl.stores.tarantool.iproto import what_greeted

    assert what_greeted(data) == said


def test_a_tarantool_bodys_data_is_counted_only_when_it_is_an_array_as_msgpack_reads_it():
    import msgpack

    from ycsbctl.stores.tarantool import iproto

    for data in ([], [[b"k"]] * 15, {i: i for i in range(15)}, {}, "s" * 15, "", 15, -1, b"x" * 3):
        body = msgpack.packb({0x30: data})
        want = len(data) if isinstance(data, list) else -1
        assert iproto.data_count(body, 0, len(body)) == want, data
