"""The compiled OP_MSG reader against the pure-Python path: the same messages framed (responseTo,
body) however the bytes are cut, and every reply judged as ``wire_chain.reply_status`` judges it —
in place for the plainly successful ones (a found or missing record, an update that matched or
not, an insert), by ``bson.decode`` for the rest (write errors, ``ok: 0``)."""

from __future__ import annotations

import struct
from types import SimpleNamespace

import bson
import pytest

from tests.fixtures.wire_waiter import Waiter
from ycsbctl.native import core
from ycsbctl.stores.mongodb.wire_chain import reply_status
from ycsbctl.workload.core import INSERT, READ, UPDATE

pytestmark = pytest.mark.skipif(core is None,
                                reason="the compiled core (ycsbctl._native) is not built: run scripts/setup.sh")

DOC = {"_id": "user1", **{f"field{i}": bson.Binary(bytes([65 + i]) * 100) for i in range(10)}}
PLAIN = [  # (body, op, status): replies a standalone server sends, judged in place
    ({"cursor": {"firstBatch": [DOC], "id": 0, "ns": "ycsb.usertable"}, "ok": 1.0}, READ, 0),
    ({"cursor": {"firstBatch": [], "id": 0, "ns": "ycsb.usertable"}, "ok": 1.0}, READ, 1),
    ({"n": 1, "nModified": 1, "ok": 1.0}, UPDATE, 0),
    ({"n": 0, "nModified": 0, "ok": 1.0}, UPDATE, 1),
    ({"n": 1, "ok": 1.0}, INSERT, 0),
]
DECODED = [  # judged by bson.decode, in both paths
    ({"n": 0, "writeErrors": [{"index": 0, "code": 11000, "errmsg": "E11000 duplicate key"}], "ok": 1.0}, INSERT),
    ({"ok": 0.0, "errmsg": "no such command", "code": 59, "codeName": "CommandNotFound"}, READ),
    ({"ok": 0.0, "errmsg": "boom", "code": 1}, UPDATE),
    ({"cursor": {"id": 0, "firstBatch": [DOC]}, "ok": 1}, READ),  # other field order, int ok
]


def _message(response_to: int, body: bytes, opcode: int = 2013, kind: int = 0) -> bytes:
    return struct.pack("<iiiiI", 21 + len(body), 99, response_to, opcode, 0) + bytes([kind]) + body


def test_the_reader_judges_each_reply_as_reply_status_does():
    for doc, op, status in PLAIN:
        r = core.OpMsgReader()
        body = bson.encode(doc)
        r.feed(_message(5, body))
        assert r.next() == 5 and r.body() == body
        assert r.status(op) == status == reply_status(SimpleNamespace(last_error=None), op, body)
    for doc, op in DECODED:
        r = core.OpMsgReader()
        body = bson.encode(doc)
        r.feed(_message(6, body))
        assert r.next() == 6
        st = r.status(op)
        pure = SimpleNamespace(last_error=None)
        want = reply_status(pure, op, body)
        if st < 0:  # decoded, as the chain does then
            mine = SimpleNamespace(last_error=None)
            st = reply_status(mine, op, r.body())
            assert mine.last_error == pure.last_error
        assert st == want


def test_messages_are_framed_however_the_bytes_are_cut():
    bodies = [bson.encode(doc) for doc, _, _ in PLAIN]
    stream = b"".join(_message(i + 1, b) for i, b in enumerate(bodies))
    stream += _message(77, b"\x05\x00\x00\x00", kind=1) + _message(78, b"", opcode=1)  # no kind-0 body; not OP_MSG
    for cut in (1, 5, 16, 21, 100, len(stream)):
        r = core.OpMsgReader()
        got = []
        for i in range(0, len(stream), cut):
            r.feed(stream[i : i + cut])
            while (rt := r.next()) is not None:
                got.append((rt, r.body() if rt >= 0 else None))
        assert got == [(i + 1, b) for i, b in enumerate(bodies)] + [(-(2**40), None)] * 2, cut


class _Transport:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("length", [0, 5, -1, 15])
@pytest.mark.parametrize("path", ["framed", "parsed"])
def test_a_length_below_the_header_is_out_of_step_on_both_paths(path, length):
    """A reply whose length field is below the 16-byte header (garbage, a server out of step) moves
    the buffer on by a header and ends the connection: it never frames nothing forever, and never
    answers the operation waiting for it."""
    from ycsbctl.stores.mongodb.wire import _OpMsgProtocol

    proto = _OpMsgProtocol()
    proto.transport = _Transport()
    answered: list[bytes] = []
    waiter = SimpleNamespace(done=lambda: False, set_result=answered.append)
    proto.waiters.append((7, waiter))
    garbage = struct.pack("<iiii", length, 1, 7, 2013) + b"\x00" * 40
    getattr(proto, path)(garbage)
    assert proto.transport.closed and not answered


@pytest.mark.parametrize("path", ["framed", "parsed"])
def test_each_reply_reaches_its_own_request_on_both_paths_however_the_bytes_are_cut(path):
    """Replies go in order to the requests whose ids they answer, with their kind-0 body as ``bson``
    encoded it; one to a request that timed out is counted late and answers no other; a reply to an
    id nothing waits for, a body of another kind or another opcode ends the connection."""
    from ycsbctl.stores.mongodb.wire import OP_MSG, _OpMsgProtocol

    assert OP_MSG == 2013  # the wire protocol's OP_MSG opcode
    assert _OpMsgProtocol.data_received is _OpMsgProtocol.framed  # built: the compiled reader frames every read
    bodies = [bson.encode(doc) for doc, _, _ in PLAIN]
    stream = b"".join(_message(i + 1, b) for i, b in enumerate(bodies))
    for cut in (1, 7, 16, 20, 21, 22, 333, len(stream)):
        proto = _OpMsgProtocol()
        proto.transport = _Transport()
        waiters = [Waiter(done=(i == 2)) for i in range(len(bodies))]
        proto.waiters.extend((i + 1, w) for i, w in enumerate(waiters))
        for i in range(0, len(stream), cut):
            getattr(proto, path)(stream[i:i + cut])
        got = [w.result for w in waiters]
        assert got == [b if i != 2 else None for i, b in enumerate(bodies)], cut
        assert proto.late == 1 and not proto.waiters and not proto.transport.closed, cut
    for bad in (_message(8, bodies[0]), _message(7, b"\x05\x00\x00\x00", kind=1), _message(7, bodies[0], opcode=1),
                struct.pack("<iiiiI", 20, 99, 7, 2013, 0)):  # another id, a kind-1 section, OP_REPLY, no section
        proto = _OpMsgProtocol()
        proto.transport = _Transport()
        w = Waiter()
        proto.waiters.append((7, w))
        getattr(proto, path)(bad)
        assert proto.transport.closed and w.result is None, bad
    proto = _OpMsgProtocol()
    proto.transport = _Transport()
    getattr(proto, path)(_message(1, bodies[0]))  # nothing asked
    assert proto.transport.closed
    big = bson.encode({"_id": "user1", "field0": bson.Binary(b"a" * (17 << 20))})  # a length with a 4th byte
    for body in (big, b""):  # and a kind-0 section with nothing in it: framed as the compiled reader frames it
        proto = _OpMsgProtocol()
        proto.transport = _Transport()
        w = Waiter()
        proto.waiters.append((9, w))
        message = _message(9, body)
        getattr(proto, path)(message[:len(message) // 2])
        getattr(proto, path)(message[len(message) // 2:])
        assert w.result == body and not proto.transport.closed and not proto.buf
