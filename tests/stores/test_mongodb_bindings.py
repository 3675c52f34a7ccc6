"""The MongoDB binding against the mongo-wire server (FerretDB over SQLite: slow, so few records)."""

from __future__ import annotations

import asyncio

import pytest
from pymongo import MongoClient

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.servers import free_port
from ycsbctl.errors import UserError
from ycsbctl.stores.binding import ConnectionLost, Status
from ycsbctl.stores.mongodb.pymongo_binding import database_name
from ycsbctl.stores.mongodb.store import MongoProtocol

KEY0 = b"user6284781860667377211"
TABLE = "usertable"


DRIVER = {"name": "auto"}  # set per test by the ``driver`` fixture


@pytest.fixture(params=["auto", "pymongo"], autouse=True)
def driver(request):
    """Every test runs twice: with the default driver (the wire protocol for plain URLs, pymongo for
    batches and upserts) and with pymongo for everything."""
    DRIVER["name"] = request.param
    yield request.param
    DRIVER["name"] = "auto"


def _run(coro_fn, url: str, clients: int = 1, props: dict[str, str] | None = None, timeout_s: float = 10.0):
    return run_bindings(coro_fn, url, clients, {"mongodb.driver": DRIVER["name"], **(props or {})}, timeout_s)




def test_database_comes_from_the_url_path_with_ycsb_by_default():
    assert database_name("mongodb://127.0.0.1:27017/bench?w=1") == "bench"
    assert database_name("mongodb://127.0.0.1:27017") == "ycsb"
    assert database_name("mongodb://127.0.0.1:27017/?w=1") == "ycsb"
    with pytest.raises(UserError, match="not a MongoDB URL"):
        database_name("redis://127.0.0.1:6379")



def test_the_pymongo_pool_is_set_up_as_pymongo_reads_its_options_back():
    # the client's own reading of what MongoPool gave it (no connection is made: connect=False)
    from ycsbctl.stores.mongodb.pymongo_binding import MongoPool

    short = MongoPool("mongodb://127.0.0.1:1/bench", 3, 0.5, {"batchsize": "7", "mongodb.upsert": "TRUE"})
    assert MongoPool("mongodb://127.0.0.1:1/bench", 1, 0.5, {"batchsize": "0"}).batchsize == 1  # at least one
    o = short.client.options
    assert (o.timeout, o.server_selection_timeout, o.pool_options.max_pool_size) == (0.5, 2.0, 3)
    assert (short.db.name, short.batchsize, short.upsert) == ("bench", 7, True)
    long = MongoPool("mongodb://127.0.0.1:1/", 0, 5.0, {"batchsize": ""})
    o = long.client.options
    assert (o.timeout, o.server_selection_timeout, o.pool_options.max_pool_size) == (5.0, 5.0, 1)
    assert (long.db.name, long.batchsize, long.upsert) == ("ycsb", 1, False)


def test_a_pymongo_failure_is_its_reason_without_the_timeouts_pymongo_appends():
    # pymongo's own wording of a socket timeout and of a refused connection (its _raise_connection_failure)
    from pymongo.errors import ServerSelectionTimeoutError
    from pymongo.pool_shared import _raise_connection_failure

    from ycsbctl.stores.mongodb.pymongo_binding import MongoBinding, MongoPool

    b = MongoBinding(MongoPool("mongodb://127.0.0.1:1/ycsb", 1, 0.5, {}))
    details = {"socketTimeoutMS": 500.0, "connectTimeoutMS": 20000.0}
    said = []
    for error in (TimeoutError("timed out"), ConnectionRefusedError(111, "Connection refused")):
        try:
            _raise_connection_failure(("127.0.0.1", 1), error, timeout_details=details)
        except Exception as exc:  # noqa: BLE001 - NetworkTimeout, AutoReconnect
            said.append((b._fail(exc), b.last_error))
    assert said == [(Status.TIMEOUT, "127.0.0.1:1: timed out"),
                    (Status.ERROR, "127.0.0.1:1: [Errno 111] Connection refused")]
    with pytest.raises(ConnectionLost, match="^lost the MongoDB server: No servers found$"):
        b._fail(ServerSelectionTimeoutError("No servers found (configured timeouts: socketTimeoutMS: 500.0ms)"))

def test_insert_stores_id_and_ten_binary_fields_in_usertable(mongo_db):
    url, db = mongo_db
    values = field_values()
    assert _run(lambda b: b[0].insert(TABLE, KEY0, values), url) is Status.OK
    doc = db[TABLE].find_one({"_id": KEY0.decode()})
    assert doc is not None and sorted(doc) == ["_id"] + [f"field{i}" for i in range(10)]
    for i in range(10):
        v = doc[f"field{i}"]
        assert isinstance(v, bytes) and len(v) == 100 and min(v) >= 0x20 and max(v) <= 0x7F
    assert {k.encode(): v for k, v in doc.items() if k != "_id"} == dict(values)
    # BinData (subtype 0), not strings: the server itself says so.
    assert db[TABLE].count_documents({"field0": {"$type": "binData"}}) == 1


def test_read_finds_by_id_with_or_without_a_projection(mongo_db):
    url, db = mongo_db
    db[TABLE].insert_one({"_id": KEY0.decode(), **{n.decode(): v for n, v in field_values()}})

    async def reads(b):
        return [
            await b[0].read(TABLE, KEY0, None),
            await b[0].read(TABLE, KEY0, [b"field3"]),
            await b[0].read(TABLE, b"user1", None),
            await b[0].read_values(TABLE, KEY0, [b"field3", b"field7"]),  # the fields asked, as stored, no _id
            await b[0].read_values(TABLE, b"user1", [b"field3"]),
        ]

    values = dict(field_values())
    assert _run(reads, url) == [Status.OK, Status.OK, Status.NOT_FOUND,
                                (Status.OK, {b"field3": values[b"field3"], b"field7": values[b"field7"]}),
                                (Status.NOT_FOUND, {})]


def test_update_sets_one_field_and_is_not_found_when_nothing_matched(mongo_db):
    url, db = mongo_db
    before = {n.decode(): v for n, v in field_values()}
    db[TABLE].insert_one({"_id": KEY0.decode(), **before})

    async def updates(b):
        return [await b[0].update(TABLE, KEY0, [(b"field4", b"x" * 100)]), await b[0].update(TABLE, b"user1",
                                                                                             [(b"field4", b"y")])]

    assert _run(updates, url) == [Status.OK, Status.NOT_FOUND]
    after = db[TABLE].find_one({"_id": KEY0.decode()})
    assert after["field4"] == b"x" * 100
    assert {k: v for k, v in after.items() if k not in ("_id",
                                                        "field4")} == {k: v for k, v in before.items() if k != "field4"}
    assert db[TABLE].count_documents({}) == 1  # no upsert on update


def test_batched_inserts_write_unordered_bulks_and_flush_the_final_partial_batch_on_close(mongo_db):
    url, db = mongo_db
    keys = [b"user%d" % i for i in range(7)]

    async def insert_all(b):
        statuses = [await b[0].insert(TABLE, k, field_values(2)) for k in keys]
        return statuses, db[TABLE].count_documents({})

    statuses, before_close = _run(insert_all, url, props={"batchsize": "3"})
    assert statuses == [Status.OK] * 7
    assert before_close == 6  # two full batches of 3 went out; the 7th waits for close
    assert sorted(d["_id"] for d in db[TABLE].find({}, {"_id": 1})) == sorted(k.decode() for k in keys)


def test_a_batch_is_unordered_so_one_duplicate_does_not_drop_the_rest(mongo_db):
    url, db = mongo_db
    db[TABLE].insert_one({"_id": "user1", "field0": b"old"})

    async def batch_with_a_duplicate_first(b):
        return [await b[0].insert(TABLE, k, [(b"field0", b"new")]) for k in (b"user1", b"user2", b"user3")]

    statuses = _run(batch_with_a_duplicate_first, url, props={"batchsize": "3"})
    assert statuses == [Status.OK, Status.OK, Status.ERROR]  # the batch fails when it is written, with the 3rd
    assert sorted(d["_id"] for d in db[TABLE].find({}, {"_id": 1})) == ["user1", "user2", "user3"]
    assert db[TABLE].find_one({"_id": "user1"})["field0"] == b"old"


def test_a_duplicate_insert_is_an_error_unless_upsert_is_on(mongo_db):
    url, db = mongo_db

    said: list[str | None] = []

    async def twice(b):
        done = [await b[0].insert(TABLE, KEY0, [(b"field0", b"a")]),
                await b[0].insert(TABLE, KEY0, [(b"field0", b"b")])]
        said.append(b[0].last_error)
        return done

    assert _run(twice, url) == [Status.OK, Status.ERROR]
    assert str(said[0]).startswith(MongoProtocol.duplicate_insert[0])  # the words a duplicate insert is told by
    assert db[TABLE].find_one({"_id": KEY0.decode()})["field0"] == b"a"
    assert _run(twice, url, props={"mongodb.upsert": "true"}) == [Status.OK, Status.OK]
    assert db[TABLE].find_one({"_id": KEY0.decode()})["field0"] == b"b"
    assert db[TABLE].count_documents({}) == 1


def test_scan_reads_ids_from_the_start_key_in_order(mongo_db):
    url, db = mongo_db
    db[TABLE].insert_many([{"_id": f"user{i}", "field0": b"v"} for i in range(10, 20)])

    async def scans(b):
        return [
            await b[0].scan(TABLE, b"user15", 3, None),
            await b[0].scan(TABLE, b"user10", 100, [b"field0"]),
            await b[0].scan(TABLE, b"user99", 3, None),  # nothing at or after it
        ]

    assert _run(scans, url) == [Status.OK, Status.OK, Status.NOT_FOUND]


def test_delete_removes_the_document(mongo_db):
    url, db = mongo_db
    db[TABLE].insert_one({"_id": KEY0.decode(), "field0": b"v"})

    async def deletes(b):
        return [await b[0].delete(TABLE, KEY0), await b[0].delete(TABLE, KEY0)]

    assert _run(deletes, url) == [Status.OK, Status.NOT_FOUND]
    assert db[TABLE].count_documents({}) == 0


def test_clients_share_one_pool_and_each_can_work_at_once(mongo_db):
    url, db = mongo_db
    keys = [b"user%d" % i for i in range(8)]

    async def concurrent(b):
        return await asyncio.gather(*(c.insert(TABLE, k, field_values(2)) for c, k in zip(b, keys)))

    assert _run(concurrent, url, clients=8) == [Status.OK] * 8
    assert db[TABLE].count_documents({}) == 8


def test_closed_port_is_a_connection_lost():
    with pytest.raises(ConnectionLost, match="cannot reach the MongoDB server"):
        _run(lambda b: b[0].read(TABLE, KEY0, None), f"mongodb://127.0.0.1:{free_port()}/ycsb", timeout_s=0.5)


def test_the_wire_protocol_serves_plain_urls_and_pymongo_the_rest():
    from ycsbctl.stores.mongodb.wire import wire_eligible, write_concern

    assert wire_eligible("mongodb://127.0.0.1:27017/ycsb?w=1&journal=false", {})
    assert wire_eligible("mongodb://h/ycsb?tls=true&tlsCAFile=/ca.crt&tlsAllowInvalidHostnames=true", {})  # TLS too
    every = ("w=1&journal=false&j=false&wtimeoutMS=100&directConnection=true&connectTimeoutMS=1000&socketTimeoutMS=1000"
             "&serverTimeoutMS=1000&serverSelectionTimeoutMS=1000&appName=x&maxPoolSize=1&readPreference=primary&tls=true"
             "&ssl=true&tlsCAFile=/ca.crt&tlsAllowInvalidCertificates=false&tlsAllowInvalidHostnames=false&tlsInsecure=false")
    assert wire_eligible(f"mongodb://h/ycsb?{every}", {})  # every option the wire path knows, at once
    for url in ("mongodb://u:pw@127.0.0.1/ycsb", "mongodb://a:1,b:2/ycsb", "mongodb+srv://c.example/ycsb",
                "mongodb://h/ycsb?replicaSet=rs0", "mongodb://h/ycsb?tls=true&tlsCertificateKeyFile=/me.pem",
                "mongodb://h/?readPreference=secondary"):
        assert not wire_eligible(url, {}), url
    assert not wire_eligible("mongodb://h/ycsb", {"batchsize": "100"})
    assert not wire_eligible("mongodb://h/ycsb", {"mongodb.upsert": "true"})
    assert not wire_eligible("mongodb://h/ycsb", {"mongodb.driver": "pymongo"})
    with pytest.raises(UserError, match="mongodb.driver=wire needs a plain"):
        wire_eligible("mongodb://h/ycsb", {"mongodb.driver": "wire", "batchsize": "10"})
    with pytest.raises(UserError, match="use auto, wire or pymongo"):
        wire_eligible("mongodb://h/ycsb", {"mongodb.driver": "motor"})
    assert write_concern("mongodb://h/ycsb?w=majority&journal=true&wtimeoutMS=500") == {
        "w": "majority", "j": True, "wtimeout": 500}
    assert write_concern("mongodb://h/ycsb") is None


def test_the_urls_tls_and_write_concern_are_read_as_pymongo_reads_them():
    """``wants_tls`` and ``write_concern`` against pymongo's own URI parser and client (not connected);
    ``1`` and ``yes``, which pymongo refuses, ask for TLS too."""
    from pymongo.uri_parser import parse_uri

    from ycsbctl.stores.mongodb.wire import wants_tls, write_concern

    for query in ("tls=true", "TLS=true", "ssl=true", "tls=false", "ssl=false", "tls=false&ssl=false", "", "w=1"):
        url = f"mongodb://127.0.0.1:27017/ycsb?{query}"
        assert wants_tls(url) is bool(parse_uri(url)["options"].get("tls")), query
    for query, tls in (("tls=1", True), ("ssl=yes", True), ("tls=TRUE", True), ("tls=0", False), ("ssl=no", False)):
        assert wants_tls(f"mongodb://h/ycsb?{query}") is tls, query
    for query in ("w=2", "w=majority&journal=true", "journal=false", "journal=true&wtimeoutMS=500", "w=0", ""):
        url = f"mongodb://127.0.0.1:27017/ycsb?{query}"
        assert write_concern(url) == (MongoClient(url, connect=False).write_concern.document or None), query
    assert write_concern("mongodb://h/ycsb?j=false") == {"j": False}  # j, which pymongo's URIs do not take


def test_the_tls_options_shape_the_context_and_a_failure_is_told_what_to_change():
    import ssl

    from ycsbctl.stores.mongodb.wire import NO_TLS_THERE, TLS_ONLY, UNTRUSTED, tls_context, tls_hint

    base = "mongodb://127.0.0.1:27017/ycsb?tls=true"
    assert tls_context("mongodb://127.0.0.1:27017/ycsb") is None
    for extra, check_hostname, verify in (("", True, ssl.CERT_REQUIRED),
                                          ("&tlsAllowInvalidHostnames=true", False, ssl.CERT_REQUIRED),
                                          ("&tlsAllowInvalidCertificates=yes", False, ssl.CERT_NONE),
                                          ("&tlsInsecure=1", False, ssl.CERT_NONE),
                                          ("&tlsAllowInvalidHostnames=false", True, ssl.CERT_REQUIRED)):
        ctx = tls_context(base + extra)
        assert (ctx.check_hostname, ctx.verify_mode) == (check_hostname, verify), extra
        assert tls_context(base + extra) is ctx  # one per URL
    with pytest.raises(UserError, match="cannot read the CA certificate /nonexistent/ca.crt"):
        tls_context(base + "&tlsCAFile=/nonexistent/ca.crt")
    untrusted = ssl.SSLCertVerificationError("certificate verify failed")
    assert tls_hint(untrusted, True) == tls_hint("[SSL: CERTIFICATE_VERIFY_FAILED] x", False) == UNTRUSTED
    for text in ("[SSL: WRONG_VERSION_NUMBER] wrong version number", "record layer failure"):
        assert (tls_hint(text, True), tls_hint(text, False)) == (NO_TLS_THERE, None), text
    assert (tls_hint(ssl.SSLError("x"), True), tls_hint(ssl.SSLError("x"), False)) == (NO_TLS_THERE, None)
    for text in ("connection closed by the server", "Connection reset by peer", "Connection closed",
                 "connection closed"):
        assert (tls_hint(text, False), tls_hint(text, True)) == (TLS_ONLY, None), text
    assert tls_hint(ConnectionRefusedError("refused"), False) is None


def test_the_urls_write_concern_is_sent_with_every_write(mongo_db, driver):
    url, db = mongo_db

    async def writes(b):
        return [await b[0].insert(TABLE, KEY0, field_values(1)), await b[0].update(TABLE, KEY0, field_values(1)),
                await b[0].delete(TABLE, KEY0)]

    assert _run(writes, url + "?w=1&journal=false") == [Status.OK] * 3
    assert db[TABLE].count_documents({}) == 0
    if driver == "auto":  # the wire binding's commands carry it
        from ycsbctl.stores.mongodb.wire import MongoWireBinding

        cmd = MongoWireBinding(url + "?w=1&journal=false", 1.0)._write({"insert": TABLE})
        assert cmd["writeConcern"] == {"w": 1, "j": False} and cmd["$db"] == url.rsplit("/", 1)[1]


@pytest.mark.speed
def test_a_stalled_server_gives_timeout_and_late_replies_never_answer_later_requests(tmp_path, driver):
    import os
    import signal
    import threading

    from tests.fixtures.servers import start_mongo_wire, wait_stopped

    server = start_mongo_wire(tmp_path / "stall")
    try:
        client = MongoClient(server.url, serverSelectionTimeoutMS=5000)
        client.ycsb[TABLE].insert_one({"_id": KEY0.decode(), "field0": b"v"})
        client.close()

        async def stalled(b):
            assert await b[0].read(TABLE, KEY0, None) is Status.OK
            os.kill(server.proc.pid, signal.SIGSTOP)
            wait_stopped(server.proc.pid)  # the read below must find the server stopped, not stopping
            threading.Timer(0.8, os.kill, (server.proc.pid, signal.SIGCONT)).start()
            statuses = [await b[0].read(TABLE, KEY0, None)]
            while statuses[-1] is Status.TIMEOUT and len(statuses) < 50:
                statuses.append(await b[0].read(TABLE, KEY0, None))
            return statuses, [await b[0].read(TABLE, b"user1", None), await b[0].read(TABLE, KEY0, None)]

        statuses, after = _run(stalled, f"mongodb://127.0.0.1:{server.port}/ycsb", timeout_s=0.2)
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)
        server.stop()
    assert statuses[0] is Status.TIMEOUT and statuses[-1] is Status.OK
    assert after == [Status.NOT_FOUND, Status.OK]  # each answer is its own request's
