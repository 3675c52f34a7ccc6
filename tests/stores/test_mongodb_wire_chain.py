"""The MongoDB wire binding's chains (operations driven from the reply callback) against the
mongo-wire server (FerretDB), and a protocol smoke test of infra/bin/mongo-echo."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time

import bson
import pytest
from pymongo import MongoClient

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.servers import start_mongo_echo, start_mongo_wire, wait_stopped
from tests.fixtures.wire_waiter import Written
from ycsbctl.stores.binding import ChainContext, ConnectionLost, Status
from ycsbctl.stores.mongodb.pymongo_binding import projection, record_document
from ycsbctl.stores.mongodb.wire import MongoWireBinding
from ycsbctl.stores.mongodb.wire_chain import MongoRequests, reply_status
from ycsbctl.workload.core import INSERT, READ, UPDATE

KEY0 = b"user6284781860667377211"
TABLE = "usertable"
NAMES = [b"field%d" % i for i in range(10)]
WIRE = {"mongodb.driver": "wire"}


def _context(log: list, acked: list, *, deadline_ns: int = 2**63 - 1, stop_on_error: bool = False,
             update_value: bytes = b"x" * 7, table: str = TABLE) -> ChainContext:
    values = dict(field_values())
    return ChainContext(
        record=lambda *timed: log.append(timed),
        names=[tuple(NAMES)] + [(n,) for n in NAMES],
        values=lambda f: [values[n] for n in NAMES] if f == -1 else [update_value],
        ack=acked.append,
        deadline_ns=deadline_ns,
        stop_on_error=stop_on_error,
        table=table,
    )




def _message(request_id: int, command: dict) -> bytes:
    doc = bson.encode(command)
    return (21 + len(doc)).to_bytes(4, "little") + request_id.to_bytes(4, "little") + bytes(4) \
        + (2013).to_bytes(4, "little") + bytes(5) + doc


@pytest.mark.parametrize("query", ["", "?w=majority&journal=true&wtimeoutMS=500"])
@pytest.mark.parametrize("templates", [256, 0])
def test_a_chain_sends_the_very_bytes_of_the_awaited_commands(query, templates, monkeypatch):
    monkeypatch.setattr("ycsbctl.stores.mongodb.wire_chain._MAX_SHAPES", templates)  # 0: every request by bson
    b = MongoWireBinding("mongodb://127.0.0.1:1/bench" + query, 1.0)
    req = MongoRequests(b.db, b.wc)
    # '%' (0x25) in names, values, keys and packed lengths must not disturb the templates
    names = (b"field0", b"f%d", b"field2")
    for key, lengths in ((KEY0, (100, 100, 100)), (b"user%s1", (37, 0, 1)), (b"u" * 37, (3, 37 * 256, 5))):
        values = [bytes([0x25]) * n for n in lengths]
        pairs = list(zip(names, values))
        find = {"find": TABLE, "filter": {"_id": key.decode()}, "limit": 1, "singleBatch": True, "$db": "bench"}
        assert req.find(7, TABLE, key, None) == _message(7, find)
        assert req.find(0x25252525, TABLE, key, (b"f%d",)) == _message(0x25252525,
                                                                       find | {"projection": projection([b"f%d"])})
        update = {"q": {"_id": key.decode()}, "u": {"$set": {n.decode(): v for n, v in pairs}}}
        assert req.update(8, TABLE, key, names, values) == _message(
            8, b._write({"update": TABLE, "updates": [update], "ordered": True}))
        assert req.insert(9, "other", key, names, values) == _message(
            9, b._write({"insert": "other", "documents": [record_document(key.decode(), pairs)], "ordered": True}))


def test_reply_statuses_are_the_awaited_paths():
    b = MongoWireBinding("mongodb://127.0.0.1:1/ycsb", 1.0)
    doc = record_document(KEY0.decode(), field_values())
    cursor = {"cursor": {"firstBatch": [doc], "id": bson.Int64(0), "ns": "ycsb.usertable"}, "ok": 1.0}
    assert reply_status(b, READ, bson.encode(cursor)) is Status.OK
    cursor["cursor"]["firstBatch"] = []
    assert reply_status(b, READ, bson.encode(cursor)) is Status.NOT_FOUND
    cursor["$clusterTime"] = {"clusterTime": bson.Timestamp(1, 1)}  # a replica set's reply: decoded
    assert reply_status(b, READ, bson.encode(cursor)) is Status.NOT_FOUND
    assert reply_status(b, UPDATE, bson.encode({"n": 1, "nModified": 0, "ok": 1.0})) is Status.OK
    assert reply_status(b, UPDATE, bson.encode({"n": 0, "nModified": 0, "ok": 1.0})) is Status.NOT_FOUND
    assert reply_status(b, UPDATE, bson.encode({"n": 0, "ok": 1})) is Status.NOT_FOUND  # int ok: decoded
    assert reply_status(b, INSERT, bson.encode({"n": 1, "ok": 1.0})) is Status.OK
    dup = {"n": 0, "writeErrors": [{"index": 0, "code": 11000, "errmsg": "E11000 duplicate key"}], "ok": 1.0}
    assert reply_status(b, INSERT, bson.encode(dup)) is Status.ERROR and b.last_error == "E11000 duplicate key"
    wc = {"n": 1, "writeConcernError": {"code": 64, "errmsg": "waiting for replication timed out"}, "ok": 1.0}
    assert reply_status(b, UPDATE, bson.encode(wc)) is Status.ERROR and "replication" in b.last_error
    bad = {"ok": 0.0, "errmsg": "not primary", "code": 10107, "codeName": "NotWritablePrimary"}
    assert reply_status(b, READ, bson.encode(bad)) is Status.ERROR
    assert b.last_error == "NotWritablePrimary: not primary"



def test_a_standalone_servers_plain_replies_are_judged_in_place_without_decoding(monkeypatch):
    # MongoDB's own reply shapes (find: {cursor: {firstBatch, id, ns}, ok: 1.0}; update: {n, nModified, ok};
    # insert: {n, ok}) are read where the bytes lie, no bson.decode per operation (reply_status's fast path)
    from ycsbctl.stores.mongodb import wire_chain

    b = MongoWireBinding("mongodb://127.0.0.1:1/ycsb", 1.0)
    doc = record_document(KEY0.decode(), field_values())
    found, none = ({"cursor": {"firstBatch": batch, "id": bson.Int64(0), "ns": "ycsb.usertable"}, "ok": 1.0}
                   for batch in ([doc], []))
    plain = [(READ, found, Status.OK), (READ, none, Status.NOT_FOUND),
             (UPDATE, {"n": 1, "nModified": 1, "ok": 1.0}, Status.OK),
             (UPDATE, {"n": 0, "nModified": 0, "ok": 1.0}, Status.NOT_FOUND),
             (UPDATE, {"n": 256, "nModified": 256, "ok": 1.0}, Status.OK), (INSERT, {"n": 1, "ok": 1.0}, Status.OK)]
    bodies = [(op, bson.encode(reply), st) for op, reply, st in plain]

    def decoded(*_):
        raise AssertionError("a plain reply was decoded")

    monkeypatch.setattr(wire_chain.bson, "decode", decoded)
    assert [reply_status(b, op, body) for op, body, _ in bodies] == [st for *_, st in bodies]


class _Wire:
    """A connection's transport that keeps the bytes written to it."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.sent.append(data)


@pytest.mark.parametrize("path", ["framed", "parsed"])
def test_a_reply_in_the_same_turn_as_the_watchdogs_expiry_is_late_not_a_second_answer(path):
    # the watchdog resolves the chain's future (TIMEOUT) and the reply comes before the chain's coroutine runs
    # again: the chain is done, so the reply is counted late and its operation recorded once, as TIMEOUT
    import struct

    from ycsbctl.stores.mongodb.wire import _OpMsgProtocol

    async def go() -> tuple:
        b = MongoWireBinding("mongodb://127.0.0.1:1/ycsb", 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _OpMsgProtocol()
        b.proto.transport = _Wire()
        log: list[tuple] = []
        run = asyncio.ensure_future(b.chain(_context(log, []), _batch([UPDATE], [KEY0], wfs=[4]), 0, 1))
        await asyncio.sleep(0)
        rid = struct.unpack_from("<i", b.proto.transport.sent[0], 4)[0]
        body = bson.encode({"n": 1, "nModified": 1, "ok": 1.0})
        b.expire()
        getattr(b.proto, path)(struct.pack("<iiiiI", 21 + len(body), 99, rid, 2013, 0) + b"\x00" + body)
        return await run, [st for _, st, *_ in log], b.proto.late

    assert asyncio.run(go()) == ((1, 1), [Status.TIMEOUT], 1)

def _batch(ops, keys, rfs=None, wfs=None):
    n = len(ops)
    return ops, keys, list(range(n)), rfs or [-1] * n, wfs or [-1] * n


@pytest.fixture(params=["compiled", "pure"])
def reply_path(request, monkeypatch) -> str:
    """A chain's replies framed and judged by the compiled core's reader (the default after set-up), or framed
    in Python and handed to the chain as the body's bytes (the pure-Python path, without the compiled core)."""
    from ycsbctl.stores.mongodb import wire

    if request.param == "pure":
        monkeypatch.setattr(wire._OpMsgProtocol, "data_received", wire._OpMsgProtocol.parsed)
    return request.param


def test_a_chain_stores_and_reads_exactly_as_the_awaited_calls_and_records_each_operation_once(mongo_db, reply_path):
    url, mdb = mongo_db
    new = b"user7"
    # READ all, READ field2 of a missing key, UPDATE field4, UPDATE a missing key, INSERT, READ all of a missing key
    batch = _batch([READ, READ, UPDATE, UPDATE, INSERT, READ], [KEY0, b"user1", KEY0, b"user2", new, b"user3"],
                   rfs=[-1, 2, -1, -1, -1, -1], wfs=[-1, -1, 4, 4, -1, -1])
    values = field_values()
    results = {}
    for table in ("chained", "awaited"):
        mdb[table].insert_one(record_document(KEY0.decode(), values))
    log: list[tuple] = []
    acked: list[int] = []

    async def both(b):
        done = await b[0].chain(_context(log, acked, table="chained"), batch, 0, 6)
        awaited = [
            await b[0].read("awaited", KEY0, None),
            await b[0].read("awaited", b"user1", [b"field2"]),
            await b[0].update("awaited", KEY0, [(b"field4", b"x" * 7)]),
            await b[0].update("awaited", b"user2", [(b"field4", b"x" * 7)]),
            await b[0].insert("awaited", new, values),
            await b[0].read("awaited", b"user3", None),
        ]
        return done, awaited

    done, awaited = run_bindings(both, url, 1, WIRE)
    assert done == (6, 0)  # NOT_FOUND is an answer, not a failure
    assert [(op, st) for op, st, *_ in log] == list(zip(batch[0], awaited))
    assert awaited == [Status.OK, Status.NOT_FOUND, Status.OK, Status.NOT_FOUND, Status.OK, Status.NOT_FOUND]
    assert all(t0 <= t1 and due == t0 for _, _, t0, t1, due in log)
    assert all(log[i][3] <= log[i + 1][2] for i in range(5))  # one request in flight at a time
    assert acked == [4]  # the insert's key number, once it completed
    for table in ("chained", "awaited"):
        results[table] = list(mdb[table].find({}, sort=[("_id", 1)]))
    assert results["chained"] == results["awaited"]
    assert [d["_id"] for d in results["chained"]] == [KEY0.decode(), new.decode()]
    assert results["chained"][0]["field4"] == b"x" * 7
    assert results["chained"][0]["field3"] == dict(values)[b"field3"]
    assert mdb["chained"].count_documents({"field0": {"$type": "binData"}}) == 2


def test_a_chain_stops_at_a_failed_insert_when_asked_and_at_the_deadline(mongo_db, reply_path):
    url, mdb = mongo_db
    mdb[TABLE].insert_one({"_id": "user5"})
    inserts = _batch([INSERT] * 3, [b"user4", b"user5", b"user6"])
    log: list[tuple] = []

    async def chain(b, ctx, batch, n):
        return await b[0].chain(ctx, batch, 0, n), b[0].last_error

    (done, err) = run_bindings(lambda b: chain(b, _context(log, [], stop_on_error=True), inserts, 3), url, 1, WIRE)
    assert done == (2, 1) and [(op, st) for op, st, *_ in log] == [(INSERT, Status.OK), (INSERT, Status.ERROR)]
    assert "duplicate key" in err
    assert sorted(d["_id"] for d in mdb[TABLE].find()) == ["user4", "user5"]  # nothing after the failure

    log.clear()
    reads = _batch([READ] * 4, [KEY0] * 4)
    done, _ = run_bindings(lambda b: chain(b, _context(log, [], deadline_ns=0), reads, 4), url, 1, WIRE)
    assert done == (1, 0) and [(op, st) for op, st, *_ in log] == [(READ, Status.NOT_FOUND)]  # past the deadline


@pytest.mark.speed
def test_a_stalled_server_times_out_the_chain_and_its_late_reply_answers_nothing(tmp_path):
    server = start_mongo_wire(tmp_path / "stall")
    try:
        client = MongoClient(server.url, serverSelectionTimeoutMS=5000)
        client.ycsb[TABLE].insert_one({"_id": KEY0.decode(), "field0": b"v"})
        client.close()
        log: list[tuple] = []

        async def stalled(b):
            os.kill(server.proc.pid, signal.SIGSTOP)
            wait_stopped(server.proc.pid)  # the chain's read must find the server stopped, not stopping
            threading.Timer(0.8, os.kill, (server.proc.pid, signal.SIGCONT)).start()
            done = await b[0].chain(_context(log, []), _batch([READ] * 3, [KEY0] * 3), 0, 3)
            after = [await b[0].read(TABLE, b"user1", None)]
            while after[-1] is Status.TIMEOUT and len(after) < 50:  # until the server answers again
                after.append(await b[0].read(TABLE, b"user1", None))
            return done, after, [await b[0].read(TABLE, KEY0, None), await b[0].read(TABLE, b"user2", None)]

        done, after, last = run_bindings(stalled, server.url, 1, WIRE, timeout_s=0.2)
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
        server.stop()
    assert done == (1, 1) and [(op, st) for op, st, *_ in log] == [(READ, Status.TIMEOUT)]
    assert after[-1] is Status.NOT_FOUND  # not the late OK of the chain's read
    assert last == [Status.OK, Status.NOT_FOUND]  # each answer is its own request's


def test_a_connection_lost_mid_chain_is_an_error_then_connection_lost(echo):
    log: list[tuple] = []
    acked: list[int] = []

    async def lose(b):
        assert await b[0].chain(_context(log, acked), _batch([INSERT], [b"user1"]), 0, 1) == (1, 0)
        os.kill(echo.proc.pid, signal.SIGSTOP)  # the next request stays in flight …
        wait_stopped(echo.proc.pid)
        threading.Timer(0.3, echo.proc.kill).start()  # … until the server dies
        await b[0].chain(_context(log, acked), _batch([READ, INSERT], [b"user1", b"user2"]), 0, 2)

    with pytest.raises(ConnectionLost, match="reconnecting failed"):
        run_bindings(lose, echo.url, 1, WIRE)
    assert [(op, st) for op, st, *_ in log] == [(INSERT, Status.OK), (READ, Status.ERROR)]
    assert acked == [0]


def test_a_connection_lost_between_chains_fails_one_operation_then_reconnects(echo):
    log: list[tuple] = []

    async def restart(b):
        assert await b[0].chain(_context(log, []), _batch([INSERT], [b"user1"]), 0, 1) == (1, 0)
        echo.proc.kill()
        echo.proc.wait()
        for _ in range(500):  # until the loop has seen the connection close
            if b[0].proto.transport is None:
                break
            await asyncio.sleep(0.01)
        echo.proc = start_mongo_echo(echo.port)
        first = await b[0].chain(_context(log, []), _batch([READ, READ], [b"user1", b"user1"]), 0, 2)
        return first, b[0].last_error, await b[0].chain(_context(log, []), _batch([INSERT, READ], [b"user1"] * 2), 0, 2)

    first, err, then = run_bindings(restart, echo.url, 1, WIRE)
    assert first == (1, 1) and err.startswith("connection lost")  # as an awaited call: ERROR, then reconnected
    assert then == (2, 0)  # a new server: the record is gone, the insert stores it again
    assert [(op, st) for op, st, *_ in log] == [(INSERT, Status.OK), (READ, Status.ERROR), (INSERT, Status.OK),
                                                (READ, Status.OK)]


def test_mongo_echo_answers_pymongo_and_the_wire_binding_alike(echo):
    client = MongoClient(echo.url, serverSelectionTimeoutMS=5000)
    try:
        t = client.ycsb[TABLE]
        assert client.admin.command("ping")["ok"] == 1
        assert "mongo-echo" in client.admin.command("buildInfo")["version"]
        t.insert_one({"_id": "user2", "field0": b"a", "field1": b"b"})
        t.insert_many([{"_id": "user1", "field0": b"c"}, {"_id": "user3", "field0": b"d"}])
        assert t.find_one({"_id": "user2"}, {"field1": 1}) == {"_id": "user2", "field1": b"b"}
        assert t.update_one({"_id": "user2"}, {"$set": {"field1": b"z"}}).matched_count == 1
        assert t.update_one({"_id": "nope"}, {"$set": {"field1": b"z"}}).matched_count == 0
        assert [d["_id"] for d in t.find({"_id": {"$gte": "user15"}}).sort("_id", 1).limit(5)] == ["user2", "user3"]
        assert t.estimated_document_count() == 3
        assert t.delete_one({"_id": "user3"}).deleted_count == 1
        assert client.ycsb.command("dbStats")["objects"] == 2

        async def wire(b):
            return [await b[0].read(TABLE, b"user2", None), await b[0].read(TABLE, b"user2", [b"field1"]),
                    await b[0].read(TABLE, b"nope", None), await b[0].insert(TABLE, b"user2", field_values(1)),
                    await b[0].update(TABLE, b"nope", field_values(1)), await b[0].scan(TABLE, b"user1", 10, None),
                    await b[0].delete(TABLE, b"user1"), await b[0].delete(TABLE, b"user1")]

        assert run_bindings(wire, echo.url, 1, WIRE) == [Status.OK, Status.OK, Status.NOT_FOUND, Status.ERROR,
                                                          Status.NOT_FOUND, Status.OK, Status.OK, Status.NOT_FOUND]
        assert t.find_one({"_id": "user2"}) == {"_id": "user2", "field0": b"a", "field1": b"z"}
        client.ycsb.drop_collection(TABLE)
        assert t.estimated_document_count() == 0
    finally:
        client.close()


def test_the_engine_chains_a_workload_into_the_workloads_table_on_mongo_echo(echo):
    from ycsbctl.engine.runner import run_phase
    from ycsbctl.engine.spec import PhaseSpec

    props = {"recordcount": "200", "operationcount": "2000", "table": "other", "mongodb.driver": "wire",
             "readproportion": "0.5", "updateproportion": "0.5"}
    load = run_phase(PhaseSpec("load", echo.url, props, threads=4, processes=1))
    run = run_phase(PhaseSpec("run", echo.url, props, threads=4, processes=1))
    assert load.operations == 200 and run.operations == 2000
    returns = {op: dict(s.returns) for op, s in run.ops.items()}
    assert set(returns) == {"READ", "UPDATE"} and all(set(r) == {"OK"} for r in returns.values())
    client = MongoClient(echo.url, serverSelectionTimeoutMS=5000)
    try:
        assert client.ycsb["other"].estimated_document_count() == 200
        assert TABLE not in client.ycsb.list_collection_names()
    finally:
        client.close()


def test_a_mongodb_wire_chain_writes_each_operation_as_the_bindings_own_request_for_it_field_for_field():
    # as the SQL chain's: a chained READ of one field or all, an UPDATE of one field, an INSERT are the bytes
    # MongoRequests builds for that operation (with the request id the chain drew)
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.mongodb.wire import MongoWireBinding, _OpMsgProtocol
    from ycsbctl.workload.core import INSERT, READ, UPDATE

    names = [b"field%d" % i for i in range(10)]
    values = {-1: [b"v%d" % i for i in range(10)], **{i: [b"new%d" % i] for i in range(10)}}

    async def chained(b: MongoWireBinding, op: int, rf: int, wf: int) -> tuple[int, bytes]:
        b.loop, b.proto = asyncio.get_running_loop(), _OpMsgProtocol()
        b.proto.transport = Written()
        ctx = ChainContext(record=lambda *_: None, names=[tuple(names)] + [(n,) for n in names],
                           values=values.__getitem__,
                           ack=None, deadline_ns=time.perf_counter_ns() + 10**10, stop_on_error=False, table="t")
        run = asyncio.ensure_future(b.chain(ctx, ([op], [b"user7"], [7], [rf], [wf]), 0, 1))
        await asyncio.sleep(0)
        (sent,) = b.proto.transport.sent
        b.expire()  # no reply: the chain ends (TIMEOUT)
        await run
        return int.from_bytes(sent[4:8], "little"), sent  # the message header's requestID

    async def go() -> None:
        b = MongoWireBinding("mongodb://127.0.0.1:1/bench", 1.0)
        req = b.requests
        rid, sent = await chained(b, READ, -1, -1)
        assert sent == req.find(rid, "t", b"user7", None)
        for f in range(10):
            rid, sent = await chained(b, READ, f, -1)
            assert sent == req.find(rid, "t", b"user7", (names[f],)), f
            rid, sent = await chained(b, UPDATE, -1, f)
            assert sent == req.update(rid, "t", b"user7", (names[f],), [b"new%d" % f]), f
        rid, sent = await chained(b, INSERT, -1, -1)
        assert sent == req.insert(rid, "t", b"user7", tuple(names), values[-1])

    asyncio.run(go())
