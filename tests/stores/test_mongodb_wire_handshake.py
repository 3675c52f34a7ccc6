"""The MongoDB wire binding against a loopback server that answers OP_MSG as the wire protocol defines it
(header, flag bits, a kind-0 section, documents by ``bson``), each reply chosen by the test: the handshake
of a server older than 4.4.2 (``isMaster``), of one that refuses it, of one older than 3.6; a command's
error and write errors; a read that hands back its values."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Callable

import bson
import pytest

from ycsbctl.stores.binding import ConnectionLost, Status
from ycsbctl.stores.mongodb.wire import MongoWireBinding

HEADER = struct.Struct("<iiiiI")
Answer = Callable[[dict], dict]


async def _serve(answer: Answer, asked: list[dict]) -> asyncio.Server:
    async def one(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readexactly(20)
                length, request_id, _, opcode, _ = HEADER.unpack(head)
                rest = await reader.readexactly(length - 20)
                assert opcode == 2013 and rest[0] == 0  # OP_MSG, one kind-0 section
                command = bson.decode(rest[1:])
                asked.append(command)
                body = bson.encode(answer(command))
                writer.write(HEADER.pack(21 + len(body), 1000 + request_id, request_id, 2013, 0) + b"\x00" + body)
                await writer.drain()
        except asyncio.IncompleteReadError:
            writer.close()

    return await asyncio.start_server(one, "127.0.0.1", 0)


def _run(answer: Answer, work):
    asked: list[dict] = []

    async def main():
        server = await _serve(answer, asked)
        b = MongoWireBinding(f"mongodb://127.0.0.1:{server.sockets[0].getsockname()[1]}/db1?w=2", 2.0)
        try:
            await b.connect()
            return await work(b), b
        finally:
            await b.close()
            server.close()

    result, b = asyncio.run(main())
    return result, b, asked


def _modern(command: dict) -> dict:
    if "hello" in command or "isMaster" in command:
        return {"ok": 1.0, "isWritablePrimary": True, "maxWireVersion": 21}
    return {"ok": 1.0}


async def _nothing(b):
    return None


def test_a_server_that_knows_only_ismaster_is_asked_that_after_hello():
    def old(command: dict) -> dict:
        if "hello" in command:
            return {"ok": 0.0, "errmsg": "no such command: 'hello'", "code": 59, "codeName": "CommandNotFound"}
        return {"ok": 1.0, "ismaster": True, "maxWireVersion": 8}

    _, _, asked = _run(old, _nothing)
    # the handshake spec's commands whole, as bson decodes them: {hello: 1}, then {isMaster: 1}, on admin
    assert asked == [{"hello": 1, "$db": "admin"}, {"isMaster": 1, "$db": "admin"}]
    _, _, asked = _run(_modern, _nothing)
    assert [next(iter(c)) for c in asked] == ["hello"]  # a server that knows hello is asked once


@pytest.mark.parametrize(("hello", "said"), [
    ({"ok": 0.0, "errmsg": "unauthorized"}, "did not answer the MongoDB handshake: unauthorized"),
    ({"ok": 1.0, "maxWireVersion": 5}, "is older than MongoDB 3.6 (no OP_MSG): use -p mongodb.driver=pymongo"),
    ({"ok": 1.0}, "is older than MongoDB 3.6"),
])
def test_a_handshake_refused_or_too_old_is_said_with_what_to_do(hello, said):
    with pytest.raises(ConnectionLost, match=said.replace("(", r"\(").replace(")", r"\)")):
        _run(lambda command: hello, _nothing)


def test_wire_version_6_is_enough():
    _run(lambda command: {"ok": 1.0, "maxWireVersion": 6}, _nothing)


def test_a_commands_error_and_a_write_error_are_errors_that_say_the_servers_words():
    def answer(command: dict) -> dict:
        if "find" in command:
            return {"ok": 0.0, "errmsg": "collection scan refused", "code": 2, "codeName": "BadValue"}
        if "insert" in command:
            return {"ok": 1.0, "n": 0, "writeErrors": [{"index": 0, "code": 11000, "errmsg": "E11000 duplicate key"}]}
        if "update" in command:
            return {"ok": 1.0, "n": 1, "writeConcernError": {"code": 64, "errmsg": "waiting for replication timed out"}}
        return _modern(command)

    async def work(b):
        out = []
        for call in (lambda: b.read_values("usertable", b"user1", [b"field0"]),
                     lambda: b.insert("usertable", b"user1", [(b"field0", b"v")]),
                     lambda: b.update("usertable", b"user1", [(b"field0", b"v")])):
            r = await call()
            out.append((r, b.last_error))
        return out

    got, _, asked = _run(answer, work)
    assert got == [((Status.ERROR, {}), "BadValue: collection scan refused"),
                   (Status.ERROR, "E11000 duplicate key"), (Status.ERROR, "waiting for replication timed out")]
    writes = [c for c in asked if "insert" in c or "update" in c]
    assert all(c["writeConcern"] == {"w": 2} and c["$db"] == "db1" for c in writes)


def test_a_read_hands_back_the_fields_found_and_a_missing_record_none():
    doc = {"_id": "user1", "field0": bson.Binary(b"a" * 100), "field3": bson.Binary(b"d")}

    def answer(command: dict) -> dict:
        if "find" in command:
            batch = [doc] if command["filter"] == {"_id": "user1"} else []
            return {"ok": 1.0, "cursor": {"id": 0, "ns": "db1.usertable", "firstBatch": batch}}
        return _modern(command)

    async def work(b):
        return [await b.read_values("usertable", key, [b"field0", b"field3"]) for key in (b"user1", b"user2")]

    got, _, asked = _run(answer, work)
    assert got == [(Status.OK, {b"field0": b"a" * 100, b"field3": b"d"}), (Status.NOT_FOUND, {})]
    finds = [c for c in asked if "find" in c]
    assert finds[0]["projection"] == {"field0": 1, "field3": 1}
    assert (finds[0]["limit"], finds[0]["singleBatch"], finds[0]["$db"]) == (1, True, "db1")


def test_the_wire_binding_connects_where_pymongo_would_its_default_port_without_one():
    from pymongo.uri_parser import parse_uri

    from ycsbctl.stores.mongodb.wire import MongoWireBinding

    for url in ("mongodb://db.example/ycsb", "mongodb://10.0.0.5:27999/bench?w=1"):
        b = MongoWireBinding(url, 1.0)
        assert [(b.host, b.port)] == parse_uri(url)["nodelist"], url
    assert MongoWireBinding("mongodb://db.example/ycsb", 1.0).address() == "the MongoDB server at db.example:27017"



def test_a_batchsize_left_empty_is_one_and_keeps_the_wire_binding():
    from ycsbctl.stores.mongodb.wire import wire_eligible

    url = "mongodb://127.0.0.1:27017/ycsb"
    assert wire_eligible(url, {"batchsize": ""}) and wire_eligible(url, {"batchsize": "1"}) and wire_eligible(url, {})
    assert not wire_eligible(url, {"batchsize": "2"})
