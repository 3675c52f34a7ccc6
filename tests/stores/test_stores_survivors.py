"""Survivors of the whole-map mutation samples in ``ycsbctl/stores`` (``make mutation``), each killed by a value
worked out here: a frame decoded by the reference library (``json``), a greeting's bytes laid out by hand from the
protocol's spec, a reply of a real redis-server. Each store module's map in scripts/mutation.py lists this file
first; the tests take milliseconds, save the Redis chain (0.45 s, several timeouts long)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.fixtures.wire_waiter import Written
from ycsbctl.stores.binding import ConnectionLost, Status, WireProtocol


def test_a_connection_counts_each_reply_nothing_waits_for_and_each_that_came_after_its_timeout():
    p = WireProtocol()
    assert (p.late, p.stray, p.said) == (0, 0, None)
    gone = asyncio.new_event_loop()
    try:
        timed_out = gone.create_future()
        timed_out.set_result("expired")
        p.waiters.append(timed_out)
        p.answer("late reply", None)
        p.answer("refusal", "ERR max number of clients reached")
        p.answer("another", "ERR second")
    finally:
        gone.close()
    assert (p.late, p.stray, p.said) == (1, 2, "ERR max number of clients reached")
    p.connection_lost(None)
    assert p.lost == "closed by the server: ERR max number of clients reached"


def test_every_byte_of_a_memcached_value_reads_back_through_json_as_the_same_latin_1_text():
    from ycsbctl.stores.memcached.record import JsonRecords, decode

    enc = JsonRecords()
    for b in range(1, 256):
        val = b"ab" + bytes((b,)) + b"cd"
        got = enc.encode([b"field0", b"field1"], [val, b"plain"])
        # json.loads refuses a raw control character or a byte that is no UTF-8; YCSB's Jackson reads it as text
        assert json.loads(got) == {"field0": val.decode("latin-1"), "field1": "plain"}, b
        assert decode(got) == {b"field0": val, b"field1": b"plain"}, b


def _mysql_greeting(version: bytes) -> bytes:
    # MySQL's Protocol::HandshakeV10: 3-byte length, sequence 0, then protocol version 10 and the NUL-ended version
    payload = b"\x0a" + version + b"\0" + b"\x01\0\0\0" + b"abcdefgh\0"
    return len(payload).to_bytes(3, "little") + b"\0" + payload


@pytest.mark.parametrize(("data", "said"), [
    (_mysql_greeting(b"10.11.6-MariaDB"), "a MySQL-protocol handshake (MySQL, MariaDB or SphinxQL), version '10.11.6-MariaDB'"),
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
    (bytes(range(100, 150)), f"50 bytes that are not a Tarantool greeting ({bytes(range(100, 140))!r})"),  # its first 40
    (_mysql_greeting(b"v" * 50), f"a MySQL-protocol handshake (MySQL, MariaDB or SphinxQL), version {'v' * 40!r}"),
    (b"HTTP/1.1 200 " + b"k" * 60 + b"\r\n", f"an HTTP reply ({'HTTP/1.1 200 ' + 'k' * 47!r})"),  # its first 60
])
def test_a_server_that_is_not_tarantool_is_named_by_what_its_first_bytes_say(data: bytes, said: str):
    from ycsbctl.stores.tarantool.iproto import what_greeted

    assert what_greeted(data) == said


def test_a_postgresql_servers_answer_to_the_ssl_request_is_its_first_byte_and_only_the_first_reply_counts():
    from ycsbctl.stores.postgresql.wire import _SslAnswer

    async def answers(*chunks: bytes) -> bytes:
        p = _SslAnswer()
        for c in chunks:
            p.data_received(c)
        return await p.answer

    assert asyncio.run(answers(b"S")) == b"S"
    assert asyncio.run(answers(b"NE", b"S")) == b"N"  # "N", then whatever follows is not the answer


def test_ycsbs_jdbc_binding_gets_the_postgresql_urls_user_and_password_unquoted_else_postgres_and_none():
    from ycsbctl.stores import registry

    proto = registry.for_url("postgresql://x@h:1/d")
    _, props = proto.ycsb_binding("postgresql://al%40ce:p%40ss@db.example:5433/shop", 1.0)
    assert (props["db.url"], props["db.user"], props["db.passwd"]) == \
        ("jdbc:postgresql://db.example:5433/shop", "al@ce", "p@ss")
    _, props = proto.ycsb_binding("postgresql://db.example/shop", 1.0)
    assert (props["db.url"], props["db.user"], props["db.passwd"]) == ("jdbc:postgresql://db.example:5432/shop", "postgres", "")


def test_the_workloads_field_names_are_its_prefix_and_0_to_fieldcount_less_1_ten_when_unset_or_empty():
    from ycsbctl.stores.sql.layout import field_names, workload_fields

    assert workload_fields({}) == [f"field{i}" for i in range(10)]
    assert workload_fields({"fieldcount": ""}) == [f"field{i}" for i in range(10)]
    assert workload_fields({"fieldcount": "3", "fieldnameprefix": "f_"}) == ["f_0", "f_1", "f_2"]
    assert field_names({"fieldcount": "2"}) == ("FIELD0", "FIELD1")


def test_a_mariadb_ping_that_fails_without_a_server_error_code_raises_that_failure_itself(monkeypatch):
    from ycsbctl.stores import registry

    proto = registry.for_url("mariadb://u@h:1/d")

    def no_answer(url: str, sql: str, timeout_s: float):
        raise TimeoutError()  # no args: no MySQL error number to read

    monkeypatch.setattr(proto, "query", no_answer)
    with pytest.raises(TimeoutError):
        proto.ping("mariadb://u@127.0.0.1:1/d", 0.1)


def test_a_postgresql_ping_says_a_role_is_missing_only_for_28000_saying_so_else_raises_the_failure_itself(monkeypatch):
    """SQLSTATE 28000 is also a pg_hba.conf refusal (the role exists); "does not exist" is also another SQLSTATE's
    words: each of those is raised as itself, only both together say the URL's role is missing."""
    from ycsbctl.errors import UserError
    from ycsbctl.stores import registry

    class PgError(Exception):  # asyncpg's: the SQLSTATE in .sqlstate, the server's message as str()
        def __init__(self, sqlstate: str, message: str) -> None:
            super().__init__(message)
            self.sqlstate = sqlstate

    def refusing(e: PgError):
        def query(url: str, sql: str, timeout_s: float):
            raise e
        return query

    proto = registry.for_url("postgresql://u@h:1/d")
    url = "postgresql://nosuchrole@127.0.0.1:1/d"
    for refusal in (PgError("28000", 'no pg_hba.conf entry for host "127.0.0.1", user "nosuchrole"'),
                    PgError("42704", 'type "nosuchrole" does not exist')):
        monkeypatch.setattr(proto, "query", refusing(refusal))
        with pytest.raises(PgError) as raised:
            proto.ping(url, 0.1)
        assert raised.value is refusal
    monkeypatch.setattr(proto, "query", refusing(PgError("28000", 'role "nosuchrole" does not exist')))
    with pytest.raises(UserError, match="the server has no role 'nosuchrole'"):
        proto.ping(url, 0.1)


class _Slow(BaseHTTPRequestHandler):
    """A ClickHouse HTTP interface that takes ``DELAY_S`` over every statement and answers it with no rows."""

    DELAY_S = 0.1

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        time.sleep(self.DELAY_S)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def test_clickhouses_create_table_or_a_plugins_first_select_may_take_10_s_whatever_the_operations_timeout():
    from ycsbctl.stores import registry

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Slow)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    url = f"clickhouse://127.0.0.1:{server.server_address[1]}/default"

    async def opened(properties: dict[str, str]) -> int:
        bs = await registry.for_url(url).open_bindings(url, 1, properties, 0.05)
        try:
            return len(bs.bindings)
        finally:
            await bs.close()

    try:
        # YCSB's CoreWorkload: the CREATE TABLE took 0.1 s, two operations' timeouts; a workload plug-in (which
        # creates its own tables): the SELECT 1 that checks the server took as long
        assert asyncio.run(opened({})) == 1
        assert asyncio.run(opened({"workload": "tests.no_such:Plugin"})) == 1
    finally:
        server.shutdown()
        server.server_close()


def test_a_rest_call_whose_connection_was_lost_is_error_with_no_http_status_and_the_binding_reconnects():
    """A server that answers the binding's opening ``GET /`` and closes the connection at the next request."""
    from ycsbctl.stores.elasticsearch.binding import ElasticsearchBinding

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}")
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
        writer.close()

    async def go() -> tuple:
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        b = ElasticsearchBinding("127.0.0.1", port, "es.ycsb", 1.0)
        try:
            await b.connect()
            got = await b.rest(b"GET", b"/es.ycsb/_search")
            return got, b.last_error, b.proto is not None
        finally:
            await b.close()
            server.close()

    (st, http, body), why, reconnected = asyncio.run(go())
    assert (st, http, body) == (Status.ERROR, 0, None) and why.startswith("connection lost") and reconnected


def test_a_redis_chain_of_quick_reads_longer_than_the_timeout_never_times_out(redis_server):
    # the watchdog tells each request of a chain from the last by the binding's request number
    from tests.fixtures.bindings import chain_outlasting_the_timeout

    (done, failed), statuses = chain_outlasting_the_timeout(redis_server.url)
    assert failed == 0 and done > 0 and statuses == {Status.NOT_FOUND: done}


def test_redis_cluster_true_at_a_standalone_server_says_what_cluster_slots_answered(redis_server):
    from tests.fixtures.bindings import run_bindings

    with pytest.raises(ConnectionLost, match=r"is no Redis Cluster node \(CLUSTER SLOTS: ERR This instance has "
                                             r"cluster support disabled\): drop -p redis.cluster=true"):
        run_bindings(lambda bs: asyncio.sleep(0), redis_server.url, 1, {"redis.cluster": "true"}, 1.0)



def test_ycsbs_redis_binding_is_given_the_servers_host_port_and_its_timeout_in_milliseconds(redis_server):
    # YCSB's RedisClient reads redis.timeout in ms (Jedis's timeout); a standalone server: no redis.cluster
    from ycsbctl.stores import registry

    url = f"redis://127.0.0.1:{redis_server.port}/0"
    db_class, props = registry.for_url(url).ycsb_binding(url, 1.5)
    assert (db_class, props) == ("redis", {"redis.host": "127.0.0.1", "redis.port": str(redis_server.port),
                                           "redis.timeout": "1500"})


def test_a_server_whose_info_counts_no_evictions_or_expiries_is_not_said_short(monkeypatch):
    # INFO text as redis-py parses it; a server that leaves the counters out (Dragonfly-like) or counts none
    from contextlib import contextmanager
    from types import SimpleNamespace

    from redis._parsers.helpers import parse_info

    from ycsbctl.stores import registry
    from ycsbctl.stores.redis import store

    said: dict[str, str] = {}

    @contextmanager
    def client(url, timeout_s):
        sections = {s.split("\n", 1)[0]: s for s in said["info"].split("# ")[1:]}
        yield SimpleNamespace(info=lambda name: parse_info(sections.get(name.capitalize(), "").encode()))

    monkeypatch.setattr(store, "client", client)
    proto = registry.get("redis")
    said["info"] = "# Stats\ntotal_connections_received:3\n# Memory\nused_memory:100\n"
    assert proto.why_short("redis://127.0.0.1:1/0") is None
    said["info"] = "# Stats\nevicted_keys:0\nexpired_keys:0\n# Memory\nmaxmemory:0\n"
    assert proto.why_short("redis://127.0.0.1:1/0") is None
    # evictions counted by a server whose INFO memory says no maxmemory (nor policy): no limit is made up
    said["info"] = "# Stats\nevicted_keys:5810\nexpired_keys:0\n# Memory\nused_memory:100\n"
    assert proto.why_short("redis://127.0.0.1:1/0") == "the server counts 5,810 keys evicted (INFO evicted_keys)"

def test_a_redis_disturbance_is_timed_by_the_slowest_of_its_commands_the_server_logged(redis_server, rds):
    from ycsbctl.stores.disturb import parse_disturb
    from ycsbctl.stores.redis.disturb import CLIENT_NAME, RedisDisturber

    saved = rds.config_get("slowlog-log-slower-than")["slowlog-log-slower-than"]
    rds.config_set("slowlog-log-slower-than", 0)
    d = RedisDisturber(redis_server.url, parse_disturb("del:zset:1k@1s"), "t")
    try:
        rds.sadd("t:big", *range(50_000))
        mark = d._slowlog_mark()
        for key in ("t:none", "t:big", "t:none"):  # the second frees 50,000 members, the others nothing
            d.r.delete(key)
        rds.delete("t:other")  # another client's DEL: not the disturber's
        mine = [e["duration"] for e in rds.slowlog_get(128)
                if e["id"] > mark and e["client_name"] == CLIENT_NAME.encode() and e["command"].startswith(b"DEL ")]
        assert len(mine) == 3 and max(mine) > 2 * min(mine)
        assert d._slowlog_duration(mark, "DEL") == max(mine) / 1e6
    finally:
        d.close()
        rds.config_set("slowlog-log-slower-than", saved)


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
        ctx = ChainContext(record=lambda *_: None, names=[tuple(names)] + [(n,) for n in names], values=values.__getitem__,
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


def test_a_tarantool_bodys_data_is_counted_only_when_it_is_an_array_as_msgpack_reads_it():
    import msgpack

    from ycsbctl.stores.tarantool import iproto

    for data in ([], [[b"k"]] * 15, {i: i for i in range(15)}, {}, "s" * 15, "", 15, -1, b"x" * 3):
        body = msgpack.packb({0x30: data})
        want = len(data) if isinstance(data, list) else -1
        assert iproto.data_count(body, 0, len(body)) == want, data


def test_a_mariadb_plugins_bytes_parameter_is_escaped_as_pymysql_escapes_a_string_every_byte_kept():
    from pymysql.converters import escape_string

    from ycsbctl.stores.mariadb.wire import literal

    for value in (bytes(range(256)), b"", b"a\tb\nc\r\0\x1a'\"\\z"):
        assert literal(value) == b"_binary'" + escape_string(value.decode("latin-1")).encode("latin-1") + b"'", value
    assert (literal(None), literal(-12), literal("it's")) == (b"NULL", b"-12", b"'it\\'s'")


def test_a_memcached_chain_judges_replies_cut_anywhere_as_whole_ones_and_counts_each_late_reply_once():
    # a hit and STORED that come in two reads go through the general parse, not the one-read frame check:
    # the same statuses; a reply after its operation expired (the watchdog) is counted late once, by either path
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.memcached.binding import MemcachedBinding, _Text
    from ycsbctl.workload.core import READ, UPDATE

    names = [b"field%d" % i for i in range(10)]
    body = b'{"field0":"a"}'
    hit = b"VALUE usertable-user1 0 %d\r\n%b\r\nEND\r\n" % (len(body), body)

    async def chain(b: MemcachedBinding, ops: list[int], replies: list[list[bytes]], expire: bool = False) -> list[int]:
        statuses: list[int] = []
        ctx = ChainContext(record=lambda op, st, *_: statuses.append(st), names=[tuple(names)] + [(n,) for n in names],
                           values=lambda f: [b"v"] * (10 if f < 0 else 1), ack=None,
                           deadline_ns=time.perf_counter_ns() + 10**10, stop_on_error=False)
        n = len(ops)
        run = asyncio.ensure_future(b.chain(ctx, (ops, [b"user1"] * n, [1] * n, [-1] * n, [0] * n), 0, n))
        await asyncio.sleep(0)
        if expire:
            b.expire()
            await asyncio.sleep(0)
        for cuts in replies:
            for part in cuts:
                b.proto.data_received(part)
            await asyncio.sleep(0)
        await run
        return statuses

    async def go() -> tuple:
        b = MemcachedBinding("memcached://127.0.0.1:1", 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _Text()
        b.proto.transport = Written()
        split = await chain(b, [READ, UPDATE, READ], [[hit[:30], hit[30:]], [b"STO", b"RED\r\n"], [b"END\r\n"]])
        whole = await chain(b, [READ, UPDATE], [[hit], [b"STORED\r\n"]])
        late_whole = await chain(b, [READ], [], expire=True)
        b.proto.data_received(hit)
        counted = [b.proto.late]
        await chain(b, [READ], [], expire=True)
        b.proto.data_received(hit[:30])
        b.proto.data_received(hit[30:])
        counted.append(b.proto.late)
        return split, whole, late_whole, counted

    split, whole, late_whole, counted = asyncio.run(go())
    assert split == [Status.OK, Status.OK, Status.NOT_FOUND] and whole == [Status.OK, Status.OK]
    assert late_whole == [Status.TIMEOUT] and counted == [1, 2]



@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_a_redis_chain_judges_each_reply_with_wait_and_after_an_awaited_timeout_as_resp_lays_it_out(pure):
    """RESP bytes as the Redis manual lays them out, read by the compiled core's skimmer or by hiredis (pure):
    with ``redis.wait=1`` an UPDATE's WAIT reply ``:0`` is TIMEOUT (its words say so) and ``:1`` OK, an INSERT's
    third reply the one judged; a READ's empty HGETALL or ``[nil]`` HMGET is NOT_FOUND. An awaited read that timed
    out before a chain: its late reply is counted, never taken for the chain's. A plug-in's ``resp``: the reply
    when OK, else nothing."""
    from tests.fixtures.bindings import redis_chain_context
    from ycsbctl.native import core
    from ycsbctl.stores.redis.binding import RedisBinding, _Resp
    from ycsbctl.stores.redis.options import RedisOptions
    from ycsbctl.workload.core import INSERT, READ, UPDATE

    if core is None and not pure:
        pytest.skip("the compiled core is not built")
    if core is not None:
        assert _Resp.data_received is _Resp.skimmed  # built: the compiled reader takes every reply

    async def go() -> tuple:
        b = RedisBinding(RedisOptions("redis://127.0.0.1:1/0"), 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _Resp()
        b.proto.transport = Written()
        feed = b.proto.parsed if pure else b.proto.skimmed

        async def chain(ops: list[int], replies: list[bytes], fields: list[int] | None = None) -> list[tuple]:
            # operations 1: of a batch whose first (an earlier take's) is not run: (done, failed) count from 1
            log: list[int] = []
            n = len(ops) + 1
            run = asyncio.ensure_future(b.chain(redis_chain_context(log, []), ([READ, *ops], [b"user1"] * n, [1] * n,
                                                                             [-1, *(fields or [-1] * n)], [4] * n), 1, n))
            await asyncio.sleep(0)
            for reply in replies:
                feed(reply)
                await asyncio.sleep(0)
            done = await run
            assert done == (n - 1, sum(log[i + 1] >= 2 for i in range(0, len(log), 5)))
            return [tuple(log[i:i + 2]) for i in range(0, len(log), 5)]

        b.wait_for, b.wait_command, b.o.wait_ms = 1, b"*3\r\n$4\r\nWAIT\r\n$1\r\n1\r\n$3\r\n500\r\n", 500
        waited = await chain([UPDATE, UPDATE, INSERT, INSERT], [b"+OK\r\n:0\r\n", b"+OK\r\n:1\r\n",
                                                                b"+OK\r\n:1\r\n:1\r\n", b"+OK\r\n:1\r\n:0\r\n"])
        said = b.last_error
        reads = await chain([READ, READ, READ, READ], [b"*0\r\n", b"*1\r\n$-1\r\n", b"*1\r\n$1\r\nx\r\n",
                                                      b"*2\r\n$6\r\nfield0\r\n$1\r\nx\r\n"], [-1, 2, 2, -1])
        b.wait_for, b.wait_command = 0, b""
        timed_out = asyncio.ensure_future(b.read("usertable", b"user1", None))
        await asyncio.sleep(0)
        b.expire()
        first = await timed_out
        after = await chain([READ], [b"*0\r\n", b"*2\r\n$6\r\nfield0\r\n$1\r\nx\r\n"])
        plugin = asyncio.ensure_future(b.resp((b"PING",), (b"GET", b"k")))
        await asyncio.sleep(0)
        feed(b"+PONG\r\n$1\r\nv\r\n")
        refused = asyncio.ensure_future(b.resp((b"PING",), (b"GET", b"k")))
        await asyncio.sleep(0)
        feed(b"+PONG\r\n-WRONGTYPE Operation against a key holding the wrong kind of value\r\n")
        return waited, said, reads, first, after, b.proto.late, await plugin, await refused

    waited, said, reads, first, after, late, plugin, refused = asyncio.run(go())
    assert waited == [(UPDATE, 3), (UPDATE, 0), (INSERT, 0), (INSERT, 3)]
    assert said == "WAIT 1: 0 of 1 replica(s) had the write within 500 ms — a replica fell behind (the write is on the primary)"
    assert reads == [(READ, 1), (READ, 1), (READ, 0), (READ, 0)]
    assert (first, after, late) == (Status.TIMEOUT, [(READ, 0)], 1)
    assert plugin == (Status.OK, b"v") and refused == (Status.ERROR, None)


@pytest.mark.parametrize("replicas, asked, waits", [(2, 1, 1), (2, 3, 2), (0, 1, 0)])
def test_redis_wait_waits_for_as_many_replicas_as_asked_and_the_primarys_role_lists(replicas, asked, waits):
    # a primary answering ROLE as the Redis manual lays it out: ["master", offset, [[ip, port, offset], ...]]
    import hiredis

    from ycsbctl.stores.redis.binding import RedisBinding
    from ycsbctl.stores.redis.options import RedisOptions

    role = b"*3\r\n$6\r\nmaster\r\n:42\r\n*%d\r\n" % replicas + b"".join(
        b"*3\r\n$8\r\n10.0.0.%d\r\n$4\r\n6380\r\n$2\r\n42\r\n" % (i + 2) for i in range(replicas))

    async def go() -> tuple:
        async def primary(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            commands = hiredis.Reader()
            while data := await reader.read(4096):
                commands.feed(data)
                while (cmd := commands.gets()) is not False:
                    writer.write(role if cmd[0].upper() == b"ROLE" else b"+PONG\r\n")

        server = await asyncio.start_server(primary, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        b = RedisBinding(RedisOptions(f"redis://127.0.0.1:{port}", {"redis.wait": str(asked)}), 1.0)
        try:
            await b.connect()
            return b.wait_for, b.wait_command
        finally:
            await b.close()
            server.close()

    wait_for, command = asyncio.run(go())
    assert wait_for == waits
    assert command == (b"*3\r\n$4\r\nWAIT\r\n$1\r\n%d\r\n$5\r\n10000\r\n" % waits if waits else b"")

def test_a_memcached_plugin_command_is_ok_with_the_servers_reply_or_the_failure_with_nothing():
    from ycsbctl.stores.memcached.binding import MemcachedBinding, _Text

    async def go() -> tuple:
        b = MemcachedBinding("memcached://127.0.0.1:1", 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _Text()
        b.proto.transport = Written()
        got = []
        for reply in (b"VERSION 1.6.18\r\n", b"VALUE k 0 2\r\nab\r\nEND\r\n", None):
            call = asyncio.ensure_future(b.mc(b"version\r\n" if reply and reply[:1] == b"V" else b"get k\r\n"))
            await asyncio.sleep(0)
            if reply is None:
                b.expire()  # the watchdog: no reply within the timeout
            else:
                b.proto.data_received(reply)
            got.append(await call)
        return got

    assert asyncio.run(go()) == [(Status.OK, (b"VERSION 1.6.18", None)), (Status.OK, (b"VALUE", b"ab")), (Status.TIMEOUT, None)]


def test_mariadb_driver_wire_refuses_the_urls_password_and_a_check_without_a_url_reads_the_loopback_one():
    from ycsbctl.errors import UserError
    from ycsbctl.stores import registry

    proto = registry.for_url("mariadb://u@h:1/d")
    wire = {"mariadb.driver": "wire"}
    with pytest.raises(UserError, match="mariadb.driver=wire needs a mysql://user@host:port/db URL without a password"):
        proto.check_properties("mariadb://u:secret@db.example:3306/ycsb", wire)
    proto.check_properties("mariadb://u@db.example:3306/ycsb", wire)
    proto.check_properties(None, wire)  # the server ycsbctl starts: root, no password


def test_ycsbs_jdbc_binding_gets_the_mariadb_urls_user_password_and_tls_in_connector_js_spelling():
    # MariaDB Connector/J 3: sslMode=trust (no check of the server's certificate) or verify-full; no TLS, no option
    from ycsbctl.stores import registry

    proto = registry.for_url("mariadb://u@h:1/d")
    cases = {"mariadb://al%40ce:p%40ss@db.example:3307/shop": ("jdbc:mariadb://db.example:3307/shop", "al@ce", "p@ss"),
             "mariadb://db.example/shop?ssl=true": ("jdbc:mariadb://db.example:3306/shop?sslMode=verify-full", "root", ""),
             "mariadb://db.example/shop?ssl=true&ssl_verify_cert=false":
                 ("jdbc:mariadb://db.example:3306/shop?sslMode=trust", "root", "")}
    for url, (jdbc, user, password) in cases.items():
        kind, props = proto.ycsb_binding(url, 1.0)
        assert (kind, props) == ("jdbc", {"db.driver": "org.mariadb.jdbc.Driver", "db.url": jdbc, "db.user": user,
                                          "db.passwd": password}), url


def test_memcacheds_counters_add_what_a_stats_reply_has_and_need_its_gets_and_sets():
    # a stats reply's values are text; a server older than cmd_touch (1.4.8) or one without rusage still counts
    from ycsbctl.stores.memcached.stats import counters, gauges

    stats = {"cmd_get": "40", "cmd_set": "7", "cmd_touch": "2", "delete_hits": "3", "delete_misses": "1",
             "bytes_read": "900", "bytes_written": "1200", "rusage_user": "0.25", "rusage_system": "0.5",
             "get_hits": "30", "get_misses": "10", "bytes": "4096", "limit_maxbytes": "67108864",
             "curr_connections": "3", "curr_items": "5"}
    c = counters(stats)
    assert (c["ops"], c["net_in"], c["net_out"], c["cpu_s"]) == (53.0, 900.0, 1200.0, 0.75)
    assert (c["cmd_get"], c["get_hits"], c["get_misses"], c["delete_misses"]) == (40.0, 30.0, 10.0, 1.0)
    assert counters({k: v for k, v in stats.items() if k not in ("cmd_touch", "delete_hits")})["ops"] == 48.0
    for needed in ("cmd_get", "cmd_set"):
        assert counters({k: v for k, v in stats.items() if k != needed})["ops"] is None, needed
    assert counters(stats | {"rusage_user": "0.000000"})["cpu_s"] == 0.5  # a server that has used no user time yet
    for half in ("rusage_user", "rusage_system"):
        assert counters({k: v for k, v in stats.items() if k != half})["cpu_s"] is None, half
    assert gauges(stats) == {"db_used_memory_bytes": 4096.0, "db_limit_bytes": 67108864.0, "connections": 3.0, "keys": 5}
    assert gauges({})["keys"] is None


def test_an_operation_that_expires_before_its_batched_write_went_out_is_timed_from_its_end():
    # the worker's WriteBatch writes a turn's requests at the turn's end; an operation the watchdog expires before
    # then never started: its TIMEOUT is recorded with t0 = t1 (0 µs), not from an unset start
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.chain import WriteBatch
    from ycsbctl.stores.memcached.binding import MemcachedBinding, _Text
    from ycsbctl.workload.core import READ

    class NotYet(WriteBatch):
        def add(self, chain) -> None:  # the turn has not ended yet: nothing written
            self.chains.append(chain)

    names = [b"field%d" % i for i in range(10)]

    async def go() -> list[tuple]:
        b = MemcachedBinding("memcached://127.0.0.1:1", 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _Text()
        b.proto.transport = Written()
        timed: list[tuple] = []
        ctx = ChainContext(record=lambda *t: timed.append(t), names=[tuple(names)] + [(n,) for n in names],
                           values=lambda f: [], ack=None, deadline_ns=time.perf_counter_ns() + 10**10,
                           stop_on_error=False, writes=NotYet(b.loop))
        run = asyncio.ensure_future(b.chain(ctx, ([READ], [b"user1"], [1], [-1], [-1]), 0, 1))
        await asyncio.sleep(0)
        assert b.proto.transport.sent == [] and ctx.writes.chains
        b.expire()
        assert await run == (1, 1)
        return timed

    (op, st, t0, t1, due), = asyncio.run(go())
    assert (op, st) == (READ, Status.TIMEOUT) and t0 == t1 == due > 10**9


@pytest.mark.parametrize(("answer", "said"), [
    (b"S", None), (b"N", None),  # PostgreSQL's one-byte answers to SSLRequest (with TLS, without)
    (b"HTTP/1.1 400 Bad Request\r\n\r\n", "not a PostgreSQL server: it answered PostgreSQL's opening request with "
                                         "b'HTTP/1.1 400 Bad Request\\r\\n\\r\\n'"),
    (b"", "not a PostgreSQL server: it closed the connection at PostgreSQL's opening request"),
    (bytes(range(65, 115)), f"not a PostgreSQL server: it answered PostgreSQL's opening request with "
                            f"{bytes(range(65, 105))!r}"),  # its first 40 bytes
])
def test_what_answers_the_opening_request_tells_whether_it_is_postgresql(answer: bytes, said: str | None):
    import socketserver

    from ycsbctl.stores.postgresql.store import SSL_REQUEST, _not_postgresql

    asked: list[bytes] = []

    class Answer(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            asked.append(self.request.recv(8))
            self.request.sendall(answer)

    with socketserver.TCPServer(("127.0.0.1", 0), Answer) as server:
        threading.Thread(target=server.handle_request, daemon=True).start()
        got = _not_postgresql(f"postgresql://u@127.0.0.1:{server.server_address[1]}/db", 5.0)
    assert (got, asked) == (said, [SSL_REQUEST])


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
        ctx = ChainContext(record=lambda *_: None, names=[tuple(names)] + [(n,) for n in names], values=values.__getitem__,
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


def test_redis_says_its_own_pid_as_the_process_that_listens(redis_server):
    from ycsbctl.stores.redis.info import reported_pid

    assert reported_pid(redis_server.url) == redis_server.proc.pid


def test_a_redis_without_io_threads_says_its_io_threads_did_nothing_not_a_floor_rate(redis_server, rds):
    # io-threads 1 (the default): the main thread does all reads and writes, io_threaded_*_processed stay 0
    from ycsbctl.stores.redis.info import RedisInfoSampler

    info = rds.info()
    assert (info["io_threads_active"], info["io_threaded_reads_processed"], info["io_threaded_writes_processed"]) == (0, 0, 0)
    clients = rds.info("clients")["connected_clients"]
    s = RedisInfoSampler(redis_server.url)
    try:
        s.prime()
        time.sleep(0.01)
        row = s.sample()
        assert rds.info("clients")["connected_clients"] == clients + 1  # the sampler's own connection
    finally:
        s.close()
    assert (row["io_threaded_reads_per_s"], row["io_threaded_writes_per_s"]) == (0.0, 0.0)
    assert rds.info("clients")["connected_clients"] == clients  # closed with the sampler


def test_a_sampler_keeps_its_interval_grid_when_each_sample_takes_half_an_interval():
    # a sample of ~50 ms every 100 ms: rows one interval apart on average (or back to back when a sample outlasts
    # it), not an interval plus a sample (a schedule restarted from each sample's end drifts by its duration).
    # Judged against the samples' own measured durations, whatever this machine's speed.
    from ycsbctl.stores.sampler import Sampler

    took: list[float] = []

    class Slow(Sampler):
        source = "slow"

        def prime(self) -> None:
            pass

        def sample(self) -> dict:
            t = time.monotonic()
            time.sleep(0.05)
            took.append(time.monotonic() - t)
            return {}

    s = Slow(0.1)
    s.start()
    time.sleep(0.75)
    frame = s.stop()
    t = list(frame["t_mono"])[:-1]  # without a tail row stop() may add
    spacing, sample = (t[-1] - t[0]) / (len(t) - 1), sum(took) / len(took)
    assert len(t) >= 3 and spacing < max(0.1, sample) + sample / 2, (t, took)


def test_ycsbs_mongodb_binding_gets_the_url_with_a_database_ycsb_when_it_names_none():
    from ycsbctl.stores import registry

    proto = registry.for_url("mongodb://h:1/d")
    assert proto.ycsb_binding("mongodb://h:27017", 1.0) == ("mongodb", {"mongodb.url": "mongodb://h:27017/ycsb"})
    assert proto.ycsb_binding("mongodb://h:27017/", 1.0) == ("mongodb", {"mongodb.url": "mongodb://h:27017/ycsb"})
    assert proto.ycsb_binding("mongodb://u:p@h:27017/bench?tls=true", 1.0) == \
        ("mongodb", {"mongodb.url": "mongodb://u:p@h:27017/bench?tls=true"})


def test_a_mongodb_wire_server_that_is_ferretdb_is_named_by_its_own_buildinfo(mongo_wire):
    from pymongo import MongoClient

    from ycsbctl.stores import registry

    client = MongoClient(mongo_wire.url, serverSelectionTimeoutMS=5000)
    try:
        build = client.admin.command("buildInfo")
    finally:
        client.close()
    facts = registry.for_url(mongo_wire.url).describe(mongo_wire.url)
    ferret = str(build["ferretdbVersion"]).lstrip("v")
    assert (facts.name, facts.version, facts.config["mongodb_compat_version"]) == (f"FerretDB {ferret}", ferret, build["version"])



def test_a_mongodb_wire_server_is_named_by_its_buildinfo_percona_enterprise_community_or_ferretdb():
    # buildInfo documents shaped as each server sends them (the fields read; the others are left out)
    from ycsbctl.stores.mongodb.store import server_facts

    opts = {"argv": ["mongod"], "parsed": {}}
    community = server_facts({"version": "7.0.2", "modules": [], "gitVersion": "02b3c6"}, opts, "inMemory", None)
    assert (community.name, community.version) == ("MongoDB 7.0.2 (inMemory)", "7.0.2")
    assert community.config == {"getCmdLineOpts": opts, "storageEngine": "inMemory"} and community.traits == {}
    bare = server_facts({"version": "6.0.1"}, opts, "", "TLSv1.3 TLS_AES_256_GCM_SHA384")
    assert (bare.name, bare.version, bare.config) == ("MongoDB 6.0.1", "6.0.1", {"getCmdLineOpts": opts})
    assert bare.traits == {"tls": "TLSv1.3 TLS_AES_256_GCM_SHA384"}
    enterprise = server_facts({"version": "7.0.2", "modules": ["enterprise"]}, opts, "wiredTiger", None)
    assert (enterprise.name, enterprise.version) == ("MongoDB Enterprise 7.0.2 (wiredTiger)", "7.0.2")
    psmdb = server_facts({"version": "7.0.8-5", "psmdbVersion": "7.0.8-5", "modules": []}, opts, "inMemory", None)
    assert (psmdb.name, psmdb.version) == ("Percona Server for MongoDB 7.0.8-5 (inMemory)", "7.0.8-5")
    # an older Percona build says so only in its build environment
    older = server_facts({"version": "3.4.10-2.10", "buildEnvironment": {"distname": "Percona-Server-MongoDB"}},
                         opts, "", None)
    assert (older.name, older.version) == ("Percona Server for MongoDB 3.4.10-2.10", "3.4.10-2.10")
    ferret = server_facts({"version": "7.0.77", "ferretdbVersion": "v1.24.0", "modules": []}, opts, "SQLite", None)
    assert (ferret.name, ferret.version) == ("FerretDB 1.24.0", "1.24.0")
    assert ferret.config == {"getCmdLineOpts": opts, "mongodb_compat_version": "7.0.77"}


def test_a_mongodb_urls_tls_handshake_goes_where_pymongo_connects_its_default_port_without_one(monkeypatch):
    # where the "encrypted" trait's handshake goes (tls_wire.negotiated, its socket left out here) against
    # pymongo's own reading of each URL; a URL of several hosts, or without TLS, makes none
    from pymongo.uri_parser import parse_uri

    from ycsbctl.stores import tls_wire
    from ycsbctl.stores.mongodb.store import tls_session

    went: list[tuple[str, int]] = []
    monkeypatch.setattr(tls_wire, "negotiated", lambda host, port, ctx, timeout_s: went.append((host, port)) or "TLSv1.3")
    for url in ("mongodb://db.example/ycsb?tls=true", "mongodb://db.example:27999/ycsb?ssl=true",
                "mongodb://u:p@10.0.0.5/?tls=true&tlsAllowInvalidCertificates=true"):
        assert tls_session(url) == "TLSv1.3"
        assert went[-1] == parse_uri(url)["nodelist"][0], url
    assert went[0] == ("db.example", 27017)
    for url in ("mongodb://db.example/ycsb", "mongodb://a.example,b.example/ycsb?tls=true"):
        assert tls_session(url) is None
    assert len(went) == 3


def test_a_mongodb_wire_server_is_described_from_its_own_buildinfo_cmdline_and_storage_engine(echo):
    # infra/bin/mongo-echo answers buildInfo, getCmdLineOpts and serverStatus (with a storageEngine) as MongoDB
    # lays them out; read back here by pymongo
    from pymongo import MongoClient

    from ycsbctl.stores import registry

    c = MongoClient(echo.url, serverSelectionTimeoutMS=5000)
    try:
        build, opts = c.admin.command("buildInfo"), c.admin.command("getCmdLineOpts")
        engine = c.admin.command("serverStatus")["storageEngine"]["name"]
    finally:
        c.close()
    facts = registry.for_url(echo.url).describe(echo.url)
    assert (facts.name, facts.version) == (f"MongoDB {build['version']} ({engine})", build["version"])
    assert facts.config == {"getCmdLineOpts": {"argv": opts["argv"], "parsed": {}}, "storageEngine": engine}


def test_a_mongodb_targets_properties_are_checked_against_its_url_before_anything_starts():
    from ycsbctl.errors import UserError
    from ycsbctl.stores import registry

    proto = registry.get("mongodb")
    proto.check_properties("mongodb://h:27017/ycsb", {"mongodb.driver": "wire"})
    for url, props in (("mongodb://u:p@h:27017/ycsb", {"mongodb.driver": "wire"}),  # credentials: pymongo's
                       (None, {"mongodb.driver": "wire", "batchsize": "10"}),  # the target ycsbctl starts
                       ("mongodb://h:27017/ycsb", {"mongodb.driver": "native"})):
        with pytest.raises(UserError, match="mongodb.driver"):
            proto.check_properties(url, props)
    assert "drop -p mongodb.driver=pymongo" in proto.plugin_refusal({"mongodb.driver": " PyMongo "})
    assert proto.plugin_refusal({}) is None and proto.plugin_refusal({"mongodb.driver": "wire"}) is None

def test_a_sqlite_files_file_system_is_the_longest_mount_point_holding_it_the_last_of_those_stacked(tmp_path):
    from ycsbctl.stores.sqlite.store import file_system

    mounts = tmp_path / "mounts"
    mounts.write_text("/dev/root / ext4 rw 0 0\n"
                      "tmpfs /dev/shm tmpfs rw 0 0\n"
                      "/dev/sdb1 /data xfs rw 0 0\n"
                      "tmpfs /data tmpfs rw 0 0\n"  # mounted over /data: it is what /data shows now
                      "/dev/sdc1 /data/deep btrfs rw 0 0\n"
                      "/dev/sdd1 /dat ext3 rw 0 0\n")
    where = {"/data/ycsb.db": "tmpfs", "/data/deep/ycsb.db": "btrfs", "/dev/shm/x.db": "tmpfs",
             "/datum/ycsb.db": "ext4", "/dat/ycsb.db": "ext3", "/home/u/ycsb.db": "ext4"}
    assert {p: file_system(p, str(mounts)) for p in where} == where
    assert file_system("/x.db", str(tmp_path / "none")) == ""


def test_a_redis_server_has_one_core_for_its_data_path_unless_it_is_a_multi_threaded_one():
    from ycsbctl.stores import registry
    from ycsbctl.stores.redis.store import MULTI_THREADED

    proto = registry.for_url("redis://h:1/0")
    assert [proto.server_cores("redis", limit) for limit in (4.0, 1.0, 0.5)] == [1.0, 1.0, 0.5]
    for kind in MULTI_THREADED:
        assert proto.server_cores(f"local-{kind}", 4.0) == 4.0, kind


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


def test_a_server_s_flag_is_no_number_of_a_sampler() -> None:
    """``num`` reads what servers report: a JSON true/false (MongoDB's serverStatus, Elasticsearch's stats) is a
    flag, not 1 or 0 of a figure; numbers and numeric strings (a "12.5%" of some servers) are read as numbers."""
    from ycsbctl.stores.sampler import num

    assert [num(v) for v in (True, False, None, "n/a", "")] == [None] * 5
    assert [num(v) for v in (3, 2.5, "12.5%", "7", 0)] == [3, 2.5, 12.5, 7.0, 0]


def test_a_reply_after_the_watchdog_resolved_a_chain_or_after_it_failed_is_late_once_counted():
    # ChainRun.late, as the Tarantool, Sphinx, ClickHouse and Elasticsearch chains ask it of each reply: the
    # watchdog resolves the chain's future in the same turn of the loop as a reply (not yet dead), or it is dead
    from types import SimpleNamespace

    from ycsbctl.stores.chain import ChainRun

    async def go() -> list[tuple]:
        loop = asyncio.get_running_loop()
        seen = []
        for resolved, dead in ((False, False), (True, False), (False, True)):
            b = SimpleNamespace(proto=SimpleNamespace(late=0))
            fut = loop.create_future()
            if resolved:
                fut.set_result("expired")
            run = ChainRun(b, None, ([], [], [], [], []), 0, 0, fut)  # type: ignore[arg-type]
            run.dead = dead
            seen.append((run.late(), run.dead, b.proto.late))
        return seen

    assert asyncio.run(go()) == [(False, False, 0), (True, True, 1), (True, True, 1)]


def test_the_watchdog_expires_only_a_request_still_in_flight():
    from ycsbctl.stores.memcached.binding import MemcachedBinding

    b = MemcachedBinding("memcached://127.0.0.1:1", 1.0)
    b.expire()  # nothing in flight (between requests): nothing to do, no error
    loop = asyncio.new_event_loop()
    try:
        answered, waiting = loop.create_future(), loop.create_future()
        answered.set_result("reply")
        for b.pending in (answered, waiting):
            b.expire()
    finally:
        loop.close()
    assert (answered.result(), waiting.result()) == ("reply", b.EXPIRED)


def test_a_postgresql_parse_that_failed_is_prepared_again_and_a_failed_bind_of_a_prepared_statement_keeps_it():
    from ycsbctl.stores.postgresql.messages import Result
    from ycsbctl.stores.postgresql.wire import PgWireBinding

    b = PgWireBinding("postgresql://ycsb@127.0.0.1:1/postgres", 1.0)
    b.prepared, b.read_heads = {"SELECT 1": b"s1", "SELECT 2": b"s2"}, {("usertable", None, 4): b"head"}
    b.parsing = None  # a Bind of a statement prepared before fails: it stays prepared
    assert b.failed(Result(0, None, b"", "deadlock detected")) == Status.ERROR
    assert (b.prepared, b.read_heads) == ({"SELECT 1": b"s1", "SELECT 2": b"s2"}, {("usertable", None, 4): b"head"})
    b.parsing = "SELECT 2"  # its Parse went with this request and failed: parsed again next time
    assert b.failed(Result(0, None, b"", "relation does not exist")) == Status.ERROR
    assert (b.prepared, b.read_heads) == ({"SELECT 1": b"s1"}, {})
    assert b.last_error == "PostgreSQL: relation does not exist"


def test_sqlite_names_the_first_holder_of_its_file_and_counts_the_others(monkeypatch):
    import ycsbctl.stores.sqlite.store as sqlite_store

    monkeypatch.setattr(sqlite_store, "_our_tree", lambda: {1})
    monkeypatch.setattr(sqlite_store, "holders", lambda path, ours: [(4242, "backup"), (17, "vim"), (99, "cp")])
    said = sqlite_store.SqliteProtocol().pause_cause("sqlite:///tmp/ycsb.db") or ""
    assert "(backup, pid 4242 and 2 more)" in said


def test_postgresql_describes_a_tls_connection_by_the_servers_own_protocol_and_cipher(monkeypatch):
    from ycsbctl.stores import registry
    from ycsbctl.stores.postgresql import session

    class Session:  # pg_stat_ssl's row for this backend: (ssl, version, cipher), as the server lists it
        def __init__(self, url: str, timeout_s: float) -> None:
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            pass

        def fetch(self, sql: str) -> list[tuple]:
            if "server_version" in sql:
                return [("16.4 (Debian 16.4-1)",)]
            if "pg_settings" in sql:
                return [("fsync", "on"), ("synchronous_commit", "off")]
            return ssl_rows

    monkeypatch.setattr(session, "PgSession", Session)
    pg = registry.get("postgresql")
    ssl_rows = [(True, "TLSv1.3", "TLS_AES_256_GCM_SHA384")]
    encrypted = pg.describe("postgresql://ycsb@127.0.0.1:1/postgres").traits
    ssl_rows = [(False, None, None)]
    plain = pg.describe("postgresql://ycsb@127.0.0.1:1/postgres").traits
    assert encrypted["tls"] == "TLSv1.3 TLS_AES_256_GCM_SHA384" and "tls" not in plain
    assert encrypted["version"] == "16.4"


def test_a_redis_connect_waits_at_least_a_second_whatever_short_timeout_the_operations_have():
    # a connection that takes 0.1 s to be refused, with operations timed out after 0.01 s: the refusal is what is said
    from ycsbctl.stores.redis.binding import RedisBinding
    from ycsbctl.stores.redis.options import RedisOptions

    async def connect() -> str:
        async def slow_refusal(*args, **kwargs):
            await asyncio.sleep(0.1)
            raise ConnectionRefusedError("refused after 0.1 s")

        asyncio.get_running_loop().create_connection = slow_refusal  # type: ignore[method-assign]
        with pytest.raises(ConnectionLost) as lost:
            await RedisBinding(RedisOptions("redis://127.0.0.1:1/0"), 0.01).connect()
        return str(lost.value)

    assert "refused after 0.1 s" in asyncio.run(connect())


def test_a_samplers_stop_reason_is_the_errors_first_line_cut_at_200_characters():
    from ycsbctl.stores.sampler import stopped_because

    long_line = "".join(chr(ord("a") + i % 26) for i in range(300))  # no two neighbours alike: where it is cut shows
    assert stopped_because(OSError(f"{long_line}\nsecond line")) == long_line[:200]
    assert len(stopped_because(OSError(long_line))) == 200 and stopped_because(OSError("short\nmore")) == "short"


def test_an_elasticsearch_server_without_an_index_holds_0_bytes_and_0_documents(monkeypatch):
    # _stats of a node without an index, as Elasticsearch 8 answers it: {"_all": {"primaries": {}, "total": {}}, ...}
    from ycsbctl.stores import registry
    from ycsbctl.stores.base import Reading
    from ycsbctl.stores.elasticsearch import admin

    asked: list[tuple[str, str]] = []

    def answer(url: str, method: str, path: str, *args, **kwargs) -> object:
        asked.append((method, path))
        return {"_shards": {"total": 0}, "_all": {"primaries": {}, "total": {}}, "indices": {}}

    monkeypatch.setattr(admin, "call", answer)
    monkeypatch.setattr(admin, "ok", answer)
    url = "elasticsearch://127.0.0.1:1"
    assert registry.for_url(url).reading(url) == Reading(0.0, None, 0)
    assert asked == [("POST", "/_refresh"), ("GET", "/_stats/docs,store")]


def test_a_wire_call_without_a_connection_or_after_losing_it_reconnects_and_is_error_saying_why():
    from ycsbctl.stores.binding import WireBinding

    class Echo(WireBinding):
        async def _unused(self, *args: object) -> Status:
            raise NotImplementedError  # only call() is tested

        read = insert = update = scan = delete = _unused  # type: ignore[assignment]

        def address(self) -> str:
            return f"127.0.0.1:{self.port}"

        async def open(self) -> None:
            _, self.proto = await asyncio.get_running_loop().create_connection(WireProtocol, "127.0.0.1", self.port)

    async def go() -> list[tuple]:
        accepted: list[asyncio.StreamWriter] = []

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            accepted.append(writer)

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        b = Echo(1.0)
        b.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        said = []
        try:
            said.append((await b.call(b"x"), b.last_error, b.proto is not None and b.proto.transport is not None))
            b.proto.connection_lost(None)  # the server closed it: the protocol keeps why, its transport is gone
            said.append((await b.call(b"x"), b.last_error, b.proto.transport is not None))
            await asyncio.sleep(0)
            said.append(len(accepted))
        finally:
            await b.close()
            for w in accepted:
                w.close()
            server.close()
        return said

    assert asyncio.run(go()) == [(Status.ERROR, "connection lost: not connected", True),
                                 (Status.ERROR, "connection lost: connection closed by the server", True), 2]


def test_a_redis_url_whose_server_closes_at_ping_is_probed_for_tls_at_its_own_host_and_port(monkeypatch):
    import socket

    import redis

    from ycsbctl.stores import registry, tls_wire

    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def close_each() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:  # the listener closed: the test is over
                return
            conn.close()

    threading.Thread(target=close_each, daemon=True).start()
    probed: list[tuple[str, int]] = []

    def answers_tls(host: str, port: int, timeout_s: float = 5.0) -> bool:
        probed.append((host, port))
        return False

    monkeypatch.setattr(tls_wire, "answers_tls", answers_tls)
    url = f"redis://localhost:{port}/0"  # neither the default host (127.0.0.1) nor the default port (6379)
    try:
        with pytest.raises(redis.ConnectionError, match="not a Redis server: it closed the connection at PING"):
            registry.for_url(url).ping(url, 1.0)
    finally:
        with contextlib.suppress(OSError):  # wakes the accept() blocked on it, which else keeps it listening
            listener.shutdown(socket.SHUT_RDWR)
        listener.close()
    assert probed == [("localhost", port)]
    # a URL without a port: the probe goes to redis-py's own default port (a stand-in client closed at PING)
    from types import SimpleNamespace

    from ycsbctl.stores.redis import store

    def closed(*args: object) -> None:
        raise redis.ConnectionError("Connection closed by server.")

    monkeypatch.setattr(store, "client", lambda url, timeout_s: SimpleNamespace(ping=closed, close=lambda: None))
    default = redis.connection.Connection(host="localhost").port  # what from_url leaves to the connection
    with pytest.raises(redis.ConnectionError, match="not a Redis server"):
        registry.for_url("redis://localhost/0").ping("redis://localhost/0", 1.0)
    assert probed[1:] == [("localhost", default)]
