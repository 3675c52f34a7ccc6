"""Survivors of the round-6 mutation draws in the stores (issue 43): each test pins one function's whole
contract against a value computed another way."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.fixtures.wire_waiter import Written
from ycsbctl.stores.binding import Status


def test_an_elasticsearch_chain_writes_each_operation_as_the_bindings_own_request_for_it_field_for_field():
    # a chained READ, an UPDATE of each one field, an INSERT: the bytes the chain writes are those read_request /
    # update_request / insert_request build for that operation (an update of field f writes field f, not f-1)
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.elasticsearch.binding import ElasticsearchBinding, _Rest
    from ycsbctl.workload.core import INSERT, READ, UPDATE

    names = [b"field%d" % i for i in range(10)]
    values = {-1: [b"v%d" % i for i in range(10)], **{i: [b"new%d" % i] for i in range(10)}}

    async def chained(b: ElasticsearchBinding, op: int, wf: int) -> bytes:
        b.loop, b.proto = asyncio.get_running_loop(), _Rest()
        b.proto.transport = Written()
        ctx = ChainContext(record=lambda *_: None, names=[tuple(names)] + [(n,) for n in names], values=values.__getitem__,
                           ack=None, deadline_ns=time.perf_counter_ns() + 10**10, stop_on_error=False, table="t")
        run = asyncio.ensure_future(b.chain(ctx, ([op], [b"user7"], [7], [-1], [wf]), 0, 1))
        await asyncio.sleep(0)
        (sent,) = b.proto.transport.sent
        b.proto.data_received(b"HTTP/1.1 404 Not Found\r\ncontent-length: 2\r\n\r\n{}")
        await run
        return sent

    async def go() -> None:
        b = ElasticsearchBinding("127.0.0.1", 1, "es.ycsb", 1.0)
        assert await chained(b, READ, -1) == b.read_request("t", b"user7")
        for f in range(10):
            sent = await chained(b, UPDATE, f)
            assert sent == b.update_request("t", b"user7", (names[f],), [b"new%d" % f]), f
            assert sent.endswith(b'{"doc":{"field%d":"new%d"}}' % (f, f)), sent
        assert await chained(b, INSERT, -1) == b.insert_request("t", b"user7", tuple(names), values[-1])

    asyncio.run(go())


def _cluster_node(monkeypatch, command: tuple[str, ...], reply: object) -> list:
    """redis-py's connection to a cluster node (``info.connect``) answering ``command`` with the list's first item
    (raised when it is an exception); the list is returned for the test to change."""
    import contextlib

    from ycsbctl.stores.redis import info

    answer = [reply]

    class Client:
        def execute_command(self, *args: str) -> object:
            assert args == command
            if isinstance(answer[0], Exception):
                raise answer[0]
            return answer[0]

    monkeypatch.setattr(info, "connect", lambda url, *_: contextlib.nullcontext(Client()))
    return answer


def test_a_clusters_node_urls_are_its_primaries_in_slot_order_or_with_replicas_every_node_once(monkeypatch):
    # CLUSTER SLOTS as Redis lays it out (start, end, the primary, then its replicas: host, port, id), the ranges
    # out of order, one primary serving two ranges, an empty host (the node we asked), an IPv6 one
    import redis

    from ycsbctl.stores.redis.cluster import node_urls

    reply = [[10923, 16383, [b"10.0.0.3", 7002, b"c"], [b"::1", 7005, b"f"]],
             [0, 5460, [b"", 7000, b"a"], [b"10.0.0.4", 7003, b"d"], [b"10.0.0.5", 7006, b"g"]],
             [5461, 10922, [b"10.0.0.2", 7001, b"b"], [b"10.0.0.4", 7003, b"d"]],
             [16000, 16000, [b"10.0.0.3", 7002, b"c"]]]
    answer = _cluster_node(monkeypatch, ("CLUSTER", "SLOTS"), reply)
    url = "rediss://u:pw@seed.example:7000/0?ssl_cert_reqs=none"
    assert node_urls(url) == ["rediss://u:pw@seed.example:7000/0?ssl_cert_reqs=none",
                              "rediss://u:pw@10.0.0.2:7001/0?ssl_cert_reqs=none",
                              "rediss://u:pw@10.0.0.3:7002/0?ssl_cert_reqs=none"]
    assert node_urls(url, replicas=True) == [
        "rediss://u:pw@seed.example:7000/0?ssl_cert_reqs=none", "rediss://u:pw@10.0.0.4:7003/0?ssl_cert_reqs=none",
        "rediss://u:pw@10.0.0.5:7006/0?ssl_cert_reqs=none", "rediss://u:pw@10.0.0.2:7001/0?ssl_cert_reqs=none",
        "rediss://u:pw@10.0.0.3:7002/0?ssl_cert_reqs=none", "rediss://u:pw@[::1]:7005/0?ssl_cert_reqs=none"]
    # no credentials; an empty host is the one asked, 127.0.0.1 when the URL names none (its port the reply's)
    assert node_urls("redis://") == ["redis://127.0.0.1:7000", "redis://10.0.0.2:7001", "redis://10.0.0.3:7002"]
    for failure in (redis.ResponseError("ERR This instance has cluster support disabled"), redis.ConnectionError("x")):
        answer[0] = failure
        assert node_urls(url) == [] and node_urls(url, replicas=True) == []


class _PgAnswers:
    """A PgSession that answers each statement the stats module sends with the rows given for it."""

    def __init__(self, rows: dict[str, list[tuple]]) -> None:
        self.rows = rows

    def fetch(self, sql: str, *args: object) -> list[tuple]:
        return self.rows[sql]


def test_postgresql_replication_is_the_slowest_standbys_lag_0_ms_once_caught_up_and_none_without_one():
    # pg_stat_replication's max()es: a row of NULLs (count 0) without a standby; a NULL replay_lag with bytes
    # known is a standby that caught up (0 ms); asyncpg hands numeric as Decimal, double as float
    from decimal import Decimal

    from ycsbctl.stores.postgresql.stats import REPLICATION, replication

    def said(*row) -> dict:
        return replication(_PgAnswers({REPLICATION: [row] if row else []}))  # type: ignore[arg-type]

    assert said(None, None, 0) == {"repl_lag_bytes": None, "repl_lag_ms": None, "replicas": None}
    assert said() == {"repl_lag_bytes": None, "repl_lag_ms": None, "replicas": None}
    assert said(Decimal(0), None, 1) == {"repl_lag_bytes": 0.0, "repl_lag_ms": 0.0, "replicas": 1}
    assert said(Decimal(16384), 12.5, 2) == {"repl_lag_bytes": 16384.0, "repl_lag_ms": 12.5, "replicas": 2}
    assert said(Decimal(0), Decimal("0.25"), 1)["repl_lag_ms"] == 0.25  # replay_lag kept though no byte is behind
    assert said(None, 3.0, 0)["repl_lag_ms"] == 3.0  # (never together in PostgreSQL: each figure kept as said)


def test_postgresql_database_bytes_are_the_sum_the_server_gives_and_0_for_a_database_without_tables():
    # coalesce(sum(pg_total_relation_size(...)), 0): a bigint 0 without a table, else a numeric (asyncpg's Decimal)
    from decimal import Decimal

    from ycsbctl.stores.postgresql.stats import database_bytes

    class Sums:
        def __init__(self, total: object) -> None:
            self.total = total

        def fetch(self, sql: str, *args: object) -> list[tuple]:
            assert "pg_total_relation_size" in sql
            return [(self.total,)]

    assert [database_bytes(Sums(v)) for v in (0, Decimal(0), Decimal(24576), None)] == [0.0, 0.0, 24576.0, 0.0]


def test_postgresql_sampler_rates_are_counter_differences_over_the_interval_and_the_mean_statement_time(monkeypatch):
    # two readings 2 s apart of pg_stat_database and pg_stat_statements, each figure hand-computed: commits +
    # rollbacks per second, rows fetched (not returned), rows inserted + updated + deleted, the mean execution
    # time of the interval's statements (µs: ms over calls), a counter reset read as 0, not negative
    from types import SimpleNamespace

    from ycsbctl.stores.postgresql import stats

    first = (3, 100, 4, 9999, 50, 10, 20, 5, 0, 0)
    second = (7, 160, 6, 99999, 80, 14, 30, 6, 0, 0)
    clock = iter([10.0, 12.0])
    monkeypatch.setattr(stats, "time", SimpleNamespace(monotonic=lambda: next(clock)))
    s = stats.PgStatSampler("postgresql://127.0.0.1:1/x")
    session = _PgAnswers({stats.DATABASE: [first], stats.STATEMENTS: [(1000, 500.0)], stats.REPLICATION: [(None, None, 0)]})
    s.session, s.statements = session, True  # type: ignore[assignment]
    s.prev, s.t_prev = s._read(), stats.time.monotonic()
    session.rows.update({stats.DATABASE: [second], stats.STATEMENTS: [(1400, 700.0)]})
    out = s.sample()
    assert out == {"connections": 7, "ops_per_s": (60 + 2) / 2, "db_rows_read_per_s": 30 / 2,
                   "db_rows_written_per_s": (4 + 10 + 1) / 2, "repl_lag_bytes": None, "repl_lag_ms": None,
                   "replicas": None, "db_statements_per_s": 400 / 2, "db_statement_mean_us": 1000.0 * 200.0 / 400}
    # the counters reset (a server restarted): rates of 0, no negative figure; no statement in the interval: no mean
    clock = iter([13.0])
    session.rows.update({stats.DATABASE: [first], stats.STATEMENTS: [(1400, 700.0)]})
    out = s.sample()
    assert (out["ops_per_s"], out["db_rows_read_per_s"], out["db_rows_written_per_s"]) == (0.0, 0.0, 0.0)
    assert out["db_statements_per_s"] == 0.0 and out["db_statement_mean_us"] is None


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


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_a_redis_write_waits_for_each_reply_it_wrote_and_a_chains_reply_after_its_expiry_is_late(pure):
    """RESP bytes as the Redis manual lays them out: an awaited INSERT writes HMSET and ZADD (and WAIT with
    ``redis.wait``) and is judged on its last reply, an UPDATE on HMSET's (or WAIT's), a DELETE on DEL and ZREM's
    — none taken for another's, none left over (``stray``); a chain whose operation the watchdog expired counts
    the reply that comes next as late (even before the chain's own coroutine has run again); a chained error
    reply's words are the binding's last error whole."""
    from tests.fixtures.bindings import redis_chain_context
    from ycsbctl.native import core
    from ycsbctl.stores.redis.binding import RedisBinding, _Resp
    from ycsbctl.stores.redis.options import RedisOptions
    from ycsbctl.workload.core import READ, UPDATE

    if core is None and not pure:
        pytest.skip("the compiled core is not built")

    async def go() -> dict:
        b = RedisBinding(RedisOptions("redis://127.0.0.1:1/0"), 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _Resp()
        b.proto.transport = Written()
        feed = b.proto.parsed if pure else b.proto.skimmed

        async def awaited(call, replies: bytes) -> Status:
            task = asyncio.ensure_future(call)
            await asyncio.sleep(0)
            feed(replies)
            for _ in range(3):
                await asyncio.sleep(0)
            assert task.done(), replies  # not waiting for a reply never asked for
            return task.result()

        out: dict = {}
        values = [(b"field0", b"x")]
        out["plain"] = [await awaited(b.insert("t", b"k", values), b"+OK\r\n:1\r\n"),
                        await awaited(b.update("t", b"k", values), b"+OK\r\n"),
                        await awaited(b.delete("t", b"k"), b":1\r\n:0\r\n"),
                        await awaited(b.delete("t", b"k"), b":0\r\n:0\r\n")]
        b.wait_for, b.wait_command, b.o.wait_ms = 1, b"*3\r\n$4\r\nWAIT\r\n$1\r\n1\r\n$3\r\n500\r\n", 500
        out["waited"] = [await awaited(b.insert("t", b"k", values), b"+OK\r\n:1\r\n:0\r\n"),
                         await awaited(b.insert("t", b"k", values), b"+OK\r\n:1\r\n:1\r\n"),
                         await awaited(b.update("t", b"k", values), b"+OK\r\n:0\r\n"),
                         await awaited(b.update("t", b"k", values), b"+OK\r\n:1\r\n")]
        b.wait_for, b.wait_command = 0, b""
        out["stray"] = b.proto.stray

        log: list = []
        run = asyncio.ensure_future(b.chain(redis_chain_context(log, []), ([READ, READ], [b"user1"] * 2, [1] * 2,
                                                                         [-1] * 2, [4] * 2), 0, 2))
        await asyncio.sleep(0)
        b.expire()  # the watchdog: the read in flight timed out
        feed(b"*2\r\n$6\r\nfield0\r\n$1\r\nx\r\n")  # its reply, in the same turn of the loop
        out["expired"] = (await asyncio.wait_for(run, 5), [tuple(log[i:i + 2]) for i in range(0, len(log), 5)], b.proto.late)
        log.clear()
        run = asyncio.ensure_future(b.chain(redis_chain_context(log, []), ([UPDATE], [b"user1"], [1], [-1], [4]), 0, 1))
        await asyncio.sleep(0)
        feed(b"-WRONGTYPE Operation against a key holding the wrong kind of value\r\n")
        out["refused"] = (await asyncio.wait_for(run, 5), log[:2], b.last_error)
        return out

    out = asyncio.run(go())
    assert out["plain"] == [Status.OK, Status.OK, Status.OK, Status.OK] and out["stray"] == 0
    assert out["waited"] == [Status.TIMEOUT, Status.OK, Status.TIMEOUT, Status.OK]
    assert out["expired"] == ((1, 1), [(READ, Status.TIMEOUT)], 1)
    assert out["refused"] == ((1, 1), [UPDATE, Status.ERROR],
                              "WRONGTYPE Operation against a key holding the wrong kind of value")


def test_a_cluster_is_ready_when_its_node_says_state_ok_and_knows_as_many_primaries_as_asked(monkeypatch):
    # CLUSTER INFO as Redis writes it (``field:value`` lines, CRLF); a node not answering yet is not ready
    from ycsbctl.stores.redis.cluster import cluster_ready

    said = _cluster_node(monkeypatch, ("CLUSTER", "INFO"), b"")

    def ready(text: bytes | Exception, shards: int = 3) -> bool:
        said[:] = [text]
        return cluster_ready("redis://127.0.0.1:7000", shards)

    head = b"cluster_enabled:1\r\ncluster_slots_assigned:16384\r\n"
    assert ready(head + b"cluster_state:ok\r\ncluster_size:3\r\ncluster_known_nodes:6\r\n")
    assert ready(head + b"cluster_state:ok\r\ncluster_size:4\r\n")  # at least as many as asked
    assert not ready(head + b"cluster_state:fail\r\ncluster_size:3\r\n")  # slots not all served yet
    assert not ready(head + b"cluster_state:ok\r\ncluster_size:2\r\n")  # a primary not joined yet
    assert not ready(head + b"cluster_state:ok\r\n")
    assert not ready(ConnectionRefusedError(111, "Connection refused"))


def test_memcached_replies_cut_at_any_byte_reach_their_own_waiters_whole_as_memcached_frames_them():
    # a get hit (VALUE <key> <flags> <bytes>, the data, END), a set's STORED and a miss's END in one stream, read
    # in pieces of every size: each waiter gets its own reply whole, none waits for bytes already there
    from tests.fixtures.wire_waiter import fed
    from ycsbctl.stores.memcached.binding import _Text

    stream = b"VALUE user1 0 11\r\n{\"f\":\"a b\"}\r\nEND\r\n" + b"STORED\r\n" + b"END\r\n"
    for cut in range(1, len(stream) + 1):
        got = [w.result for w in fed(_Text(), stream, cut, waiting=3)]
        assert got == [(b"VALUE", b"{\"f\":\"a b\"}"), (b"STORED", None), (b"END", None)], cut


def test_a_memcached_chain_writes_field_f_for_an_update_of_f_and_a_reply_right_after_its_expiry_is_late():
    # a chained UPDATE of field f is a replace of the record's JSON with field f (the binding's own encoding); the
    # watchdog expiring the operation in flight and its reply coming in the same turn of the loop: counted late
    # (whichever path reads it: a miss's END is parsed, a hit's frame is checked), the operation TIMEOUT
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.memcached.binding import MemcachedBinding, _Text, store_command
    from ycsbctl.workload.core import READ, UPDATE

    names = [b"field%d" % i for i in range(10)]
    body = b'{"field0":"a"}'
    hit = b"VALUE usertable-user1 0 %d\r\n%b\r\nEND\r\n" % (len(body), body)

    async def go() -> tuple:
        b = MemcachedBinding("memcached://127.0.0.1:1", 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _Text()
        b.proto.transport = Written()
        statuses: list[int] = []
        ctx = ChainContext(record=lambda op, st, *_: statuses.append(st), names=[tuple(names)] + [(n,) for n in names],
                           values=lambda f: [b"new%d" % f], ack=None, deadline_ns=time.perf_counter_ns() + 10**10,
                           stop_on_error=False)
        written = []
        for f in range(10):
            run = asyncio.ensure_future(b.chain(ctx, ([UPDATE], [b"user1"], [1], [-1], [f]), 0, 1))
            await asyncio.sleep(0)
            b.proto.data_received(b"STORED\r\n")
            await asyncio.wait_for(run, 5)
            written.append(b.proto.transport.sent[-1] == store_command(
                b"replace", b"usertable-user1", b.json.encode((names[f],), [b"new%d" % f])))
        late = []
        for reply in (b"END\r\n", hit):
            statuses.clear()
            run = asyncio.ensure_future(b.chain(ctx, ([READ], [b"user1"], [1], [-1], [-1]), 0, 1))
            await asyncio.sleep(0)
            b.expire()
            b.proto.data_received(reply)  # in the same turn
            await asyncio.wait_for(run, 5)
            late.append((list(statuses), b.proto.late))
        return written, late

    written, late = asyncio.run(go())
    assert written == [True] * 10
    assert late == [([Status.TIMEOUT], 1), ([Status.TIMEOUT], 2)]


def test_a_redis_expire_is_armed_to_the_ms_at_least_1_ms_waited_for_then_polled_and_timed_from_the_whole_slowlog(
        monkeypatch):
    # on a clock of the test's own (time.sleep moves it): PEXPIRE of the ms left to the action's second (1 ms
    # when that second has passed), the action sleeps until the expiry and then polls EXISTS every POLL_S until
    # the key is gone; a command's server time is looked for in the whole SLOWLOG (Redis keeps 128 by default)
    from types import SimpleNamespace

    from ycsbctl.stores.disturb import DisturbSpec
    from ycsbctl.stores.redis import disturb

    clock = [100.0]
    monkeypatch.setattr(disturb, "time", SimpleNamespace(perf_counter=lambda: clock[0], time=lambda: 1e9 + clock[0],
                                                          sleep=lambda s: clock.__setitem__(0, clock[0] + s)))

    class Server:
        def __init__(self) -> None:
            self.pexpired: list[int] = []
            self.gone_at = 0.0
            self.log: list[dict] = []

        def pexpire(self, key: str, ms: int) -> None:
            self.pexpired.append(ms)

        def exists(self, key: str) -> int:
            return int(clock[0] < self.gone_at)

        def slowlog_get(self, n: int) -> list[dict]:
            return self.log[:n]

    d = disturb.RedisDisturber.__new__(disturb.RedisDisturber)
    d.spec, d.key, d.r = DisturbSpec("expire on a set", "expire", "set", 10, 1.0), "ycsbctl:big:x", Server()
    d.saved_threshold, d.expires_at, d.mark = None, 0.0, -1
    d.arm(101.0)
    d.arm(99.5)  # the action's second has passed: at once
    assert d.r.pexpired == [1000, 1] and d.expires_at == 100.001
    d.arm(100.5)
    d.r.gone_at = 100.5035  # the server reclaims the key 3.5 ms after it expired
    timing = d.act()
    assert timing.note == "gone 0.004 s after it expired (5 EXISTS polls)" and timing.start_s == 100.5, timing
    mine = {"id": 1, "client_name": disturb.CLIENT_NAME, "command": b"DEL ycsbctl:big:x", "duration": 2500}
    d.r.log = [{"id": 200 - i, "client_name": b"other", "command": b"HGETALL user1", "duration": 150}
               for i in range(127)] + [mine]  # newest first: this connection's DEL the oldest of 128
    assert d._slowlog_duration(0, "DEL") == 0.0025


def test_a_tarantool_chain_numbers_each_request_it_issues_so_the_watchdog_times_each_one_alone():
    # the watchdog expires a future seen in flight with the same request number for a whole timeout: a chain
    # of quick requests must number each (binding.seq), else their sum would be taken for one slow request
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.tarantool.binding import TarantoolBinding, _IProto
    from ycsbctl.workload.core import READ

    async def go() -> list[int]:
        b = TarantoolBinding("tarantool://127.0.0.1:3301", 1.0, {b"field0": 1}, space=600)
        b.loop, b.proto = asyncio.get_running_loop(), _IProto()
        b.proto.transport = Written()
        ctx = ChainContext(record=lambda *_: None, names=[(b"field0",), (b"field0",)], values=lambda f: [b"v"],
                           ack=None, deadline_ns=time.perf_counter_ns() + 10**10, stop_on_error=False)
        seqs = []
        for _ in range(3):
            run = asyncio.ensure_future(b.chain(ctx, ([READ], [b"user1"], [1], [-1], [-1]), 0, 1))
            await asyncio.sleep(0)
            seqs.append(b.seq)
            b.expire()
            await asyncio.wait_for(run, 5)
        return seqs

    assert asyncio.run(go()) == [1, 2, 3]


def test_a_cluster_delete_is_del_s_status_then_zrem_s_and_a_failed_del_stops_before_the_index():
    from ycsbctl.stores.redis.cluster import ClusterBinding

    class Shard:  # replies as RedisBinding.resp gives them: (status, the replies or None)
        def __init__(self, *replies: tuple[Status, object]) -> None:
            self.replies, self.sent = list(replies), []

        async def resp(self, *commands):
            self.sent.append(commands[0][0])
            return self.replies.pop(0)

    async def delete(shard: Shard) -> Status:
        c = object.__new__(ClusterBinding)
        c._routed = lambda slot, call: call(shard)  # type: ignore[method-assign]
        return await c.delete("usertable", b"user1")

    ok, failed = Shard((Status.OK, [1]), (Status.OK, [1])), Shard((Status.ERROR, None))
    assert asyncio.run(delete(ok)) is Status.OK and ok.sent == [b"DEL", b"ZREM"]
    assert asyncio.run(delete(failed)) is Status.ERROR and failed.sent == [b"DEL"]


def test_a_mariadb_reply_read_by_its_head_measures_a_64_kib_row_by_all_three_length_bytes():
    # two rows of over 64 KiB (scan-sized): the head's short cut must see the first row end where its three length
    # bytes say and so walk on to the second. Where a length read one bit off would end it (byte 3 as << 15 or
    # << 17), a packet that looks like the end of the rows is planted, so a misread would say one row.
    from tests.fixtures.mysql_packets import lenenc_int as lenenc
    from tests.stores.test_mariadb_wire import HEAD, Waiter, _parse
    from ycsbctl.stores.mariadb.wire import _MyProtocol
    from ycsbctl.stores.mysql41 import packet

    h, eof = len(HEAD), packet(b"\xfe\x00\x00\x02\x00\x00\x00", 6)
    one, two = bytearray(b"\x05user1" + lenenc(70_000) + b"a" * 70_000), bytearray(b"\x05user2" + lenenc(70_000) + b"b" * 70_000)
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
    hello = (b"\x0a5.5.5-10.1.48\x00" + (7).to_bytes(4, "little") + b"a" * 8 + b"\x00" + (caps & 0xFFFF).to_bytes(2, "little")
             + b"\x21" + b"\x02\x00" + (caps >> 16).to_bytes(2, "little") + b"\x15" + b"\x00" * 10 + b"b" * 12 + b"\x00")
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


def test_a_cluster_follows_a_moved_reply_to_the_node_it_names_and_counts_it():
    from ycsbctl.stores.redis.cluster import ClusterBinding

    class Node:
        def __init__(self, st: Status, error: str | None) -> None:
            self.st, self.last_error = st, error

    moved: list[tuple[int, tuple[str, int]]] = []
    nodes = {("127.0.0.1", 7000): Node(Status.ERROR, "MOVED 3999 127.0.0.1:7001"), ("127.0.0.1", 7001): Node(Status.OK, None)}
    c = object.__new__(ClusterBinding)
    c.counts = {"redirections": 0, "moved": 0, "ask": 0}
    c.slots = type("Slots", (), {"moved": lambda self, slot, addr: moved.append((slot, addr))})()

    async def node(addr: tuple[str, int]) -> Node:
        return nodes[addr]

    async def call(b: Node) -> Status:
        return b.st

    c._node = node  # type: ignore[method-assign]
    st = asyncio.run(c._follow(3999, ("127.0.0.1", 7000), call))  # type: ignore[arg-type]
    assert (st, c.counts, moved) == (Status.OK, {"redirections": 1, "moved": 1, "ask": 0}, [(3999, ("127.0.0.1", 7001))])


def test_a_cluster_forgets_the_shard_connection_that_failed_and_not_a_newer_one_to_the_same_node():
    from ycsbctl.stores.redis.cluster import ClusterBinding

    class Shard:  # a RedisBinding as drop reads it: its options' host and port
        def __init__(self, port: int) -> None:
            self.o = type("Options", (), {"host": "127.0.0.1", "port": port})()

    failed, newer, other = Shard(7000), Shard(7000), Shard(7001)
    c = object.__new__(ClusterBinding)
    c.nodes = {("127.0.0.1", 7000): failed, ("127.0.0.1", 7001): other}  # type: ignore[dict-item]
    c.drop(failed, ConnectionRefusedError("refused"))  # type: ignore[arg-type]
    assert c.nodes == {("127.0.0.1", 7001): other} and c.last_error == "shard 127.0.0.1:7000 unreachable: refused"
    c.nodes[("127.0.0.1", 7000)] = newer  # type: ignore[assignment]  # reconnected meanwhile: the failure was the old one's
    c.drop(failed, ConnectionResetError("reset"))  # type: ignore[arg-type]
    assert c.nodes == {("127.0.0.1", 7000): newer, ("127.0.0.1", 7001): other}


def test_a_cluster_insert_connects_the_index_slots_shard_first_and_fails_alone_when_it_is_unreachable():
    """An INSERT writes its record's shard and the index's (ZADD on the index slot's): both are connected before
    the chain runs; the index's shard unreachable, the insert is one ERROR naming it (acknowledged as issued)."""
    from ycsbctl.stores.binding import ConnectionLost
    from ycsbctl.stores.redis.cluster import INDEX_SLOT, ClusterBinding, key_slot
    from ycsbctl.workload.core import INSERT

    record_shard, index_shard = ("127.0.0.1", 7000), ("127.0.0.1", 7001)
    owner = [record_shard] * 16384
    owner[INDEX_SLOT] = index_shard
    assert key_slot(b"user1") != INDEX_SLOT
    up = type("Up", (), {"proto": type("Proto", (), {"transport": object()})()})()  # a live connection
    tried, recorded, acked = [], [], []

    async def node(addr):
        tried.append(addr)
        raise ConnectionLost("connection refused")

    c = object.__new__(ClusterBinding)
    c.slots = type("Slots", (), {"owner": owner})()
    c.nodes, c.wanted, c._node = {record_shard: up}, set(), node  # type: ignore[assignment,method-assign]
    ctx = type("Ctx", (), {"record": lambda self, *a: recorded.append(a[:2]), "ack": acked.append})()
    done = asyncio.run(c.chain(ctx, ([INSERT], [b"user1"], [7], [0], [0]), 0, 1))  # type: ignore[arg-type]
    assert (done, tried, recorded, acked) == ((1, 1), [index_shard], [(INSERT, int(Status.ERROR))], [7])
    assert c.last_error == "shard 127.0.0.1:7001 unreachable: connection refused"


def test_a_clusters_failed_call_keeps_its_shards_error_and_a_found_or_missing_record_keeps_the_last_one():
    from ycsbctl.stores.redis.cluster import ClusterBinding

    class Node:
        def __init__(self, st: Status, error: str | None) -> None:
            self.st, self.last_error = st, error

    async def call(b: Node) -> Status:
        return b.st

    def follow(node: Node) -> tuple[Status, str | None]:
        c = object.__new__(ClusterBinding)
        c.counts, c.last_error = {"redirections": 0, "moved": 0, "ask": 0}, "an earlier error"

        async def shard(addr: tuple[str, int]) -> Node:
            return node

        c._node = shard  # type: ignore[method-assign]
        st = asyncio.run(c._follow(1, ("127.0.0.1", 7000), call))  # type: ignore[arg-type]
        return st, c.last_error

    assert follow(Node(Status.ERROR, "WRONGTYPE Operation against a key holding the wrong kind of value")) == \
        (Status.ERROR, "WRONGTYPE Operation against a key holding the wrong kind of value")
    assert follow(Node(Status.NOT_FOUND, None)) == (Status.NOT_FOUND, "an earlier error")
    assert follow(Node(Status.OK, None)) == (Status.OK, "an earlier error")


def test_cluster_slots_is_a_nodes_non_empty_slot_list_and_none_for_an_error_or_a_node_serving_no_slot():
    from ycsbctl.stores.redis.cluster import cluster_slots

    class Seed:  # RedisBinding.resp's (status, reply) for CLUSTER SLOTS
        def __init__(self, st: Status, reply: object) -> None:
            self.answer = st, reply

        async def resp(self, *commands):
            assert commands == ((b"CLUSTER", b"SLOTS"),)
            return self.answer

    slots = [[0, 16383, [b"127.0.0.1", 7000, b"id"]]]
    got = [asyncio.run(cluster_slots(Seed(st, reply)))  # type: ignore[arg-type]
           for st, reply in ((Status.OK, slots), (Status.OK, []), (Status.OK, b"OK"), (Status.ERROR, None))]
    assert got == [slots, None, None, None]
