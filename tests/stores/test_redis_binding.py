"""The Redis binding against a real redis-server: data stored exactly as YCSB's Redis binding stores it.
Without a server, a chain's replies (``WAIT``'s included) judged as RESP lays them out, each written request
waiting for its own reply, a reply after its operation expired counted late, and a connect given at least a
second whatever the operations' timeout."""

from __future__ import annotations

import asyncio
import socket
import threading
from pathlib import Path

import pytest
import redis

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.bindings import redis_chain_context as _chain_context
from tests.fixtures.servers import free_port, start_redis
from tests.fixtures.wire_waiter import Written
from ycsbctl.stores.binding import ConnectionLost, Status
from ycsbctl.stores.redis.options import RedisOptions
from ycsbctl.stores.redis.reply_chain import java_hash
from ycsbctl.workload.keys import build_key_name

KEY0 = b"user6284781860667377211"  # key number 0, hashed (ycsb-semantics.md §2)
TABLE = "usertable"


def _run(coro_fn, url: str, clients: int = 1, props: dict[str, str] | None = None, timeout_s: float = 5.0):
    return run_bindings(coro_fn, url, clients, props, timeout_s)


def test_index_score_is_java_string_hashcode():
    assert java_hash(KEY0) == -594971599
    assert java_hash(b"") == 0
    assert java_hash(b"a") == 97
    # "polygenelubricants".hashCode() == Integer.MIN_VALUE: the signed 32-bit wrap is Java's.
    assert java_hash(b"polygenelubricants") == -(2**31)


def test_the_chains_index_score_is_the_compiled_hash_where_built_and_the_python_one_where_not():
    """An insert's ``_indices`` score as the chain computes it: the compiled core's hash where it is built (~0.05 µs
    a key, not ~1), the Python twin's where it is not (``YCSBCTL_PURE_PYTHON=1``, a process of its own) — Java's
    ``String.hashCode`` either way: ``s[0]·31^(n-1) + … + s[n-1]`` wrapped to a signed 32-bit int, here by hand."""
    import os
    import subprocess
    import sys

    from ycsbctl.native import FORCE_PURE_ENV, core
    from ycsbctl.stores.redis import reply_chain

    h = 0
    for byte in KEY0:
        h = (31 * h + byte) % 2**32
    java = h - 2**32 if h >= 2**31 else h
    if core is not None:
        assert reply_chain._java_hash is core.java_hash
    root = Path(__file__).resolve().parents[2]
    pure = subprocess.run(
        [sys.executable, "-c", "from ycsbctl.stores.redis import reply_chain as r; "
                               f"print(r._java_hash({KEY0!r}), r._java_hash is r.java_hash)"],
        capture_output=True, text=True, timeout=60, cwd=root,
        env={**os.environ, FORCE_PURE_ENV: "1", "PYTHONPATH": str(root)})
    assert pure.stdout.split() == [str(java), "True"], pure.stderr
    assert reply_chain._java_hash(KEY0) == java == -594971599


def test_insert_writes_a_hash_of_ten_printable_100_byte_fields_and_indexes_it(redis_server, rds):
    values = field_values()
    st = _run(lambda b: b[0].insert(TABLE, KEY0, values), redis_server.url)
    assert st is Status.OK
    stored = rds.hgetall(KEY0)
    assert sorted(stored) == [b"field%d" % i for i in range(10)]
    for v in stored.values():
        assert len(v) == 100 and min(v) >= 0x20 and max(v) <= 0x7F
    assert stored == dict(values)
    assert rds.zscore("_indices", KEY0) == -594971599.0
    assert rds.type(KEY0) == b"hash" and rds.dbsize() == 2  # the record and _indices, nothing else


def test_read_returns_ok_for_a_record_and_not_found_for_a_missing_one(redis_server, rds):
    rds.hset(KEY0, mapping=dict(field_values()))

    async def reads(b):
        return [
            await b[0].read(TABLE, KEY0, None),  # HGETALL
            await b[0].read(TABLE, KEY0, [b"field3"]),  # HMGET
            await b[0].read(TABLE, b"user1", None),
            await b[0].read(TABLE, b"user1", [b"field3"]),
        ]

    assert _run(reads, redis_server.url) == [Status.OK, Status.OK, Status.NOT_FOUND, Status.NOT_FOUND]


def test_read_sends_hgetall_for_all_fields_and_hmget_for_named_ones(redis_server, rds):
    rds.hset(KEY0, mapping=dict(field_values()))
    rds.config_resetstat()

    async def reads(b):
        await b[0].read(TABLE, KEY0, None)
        await b[0].read(TABLE, KEY0, [b"field1", b"field2"])

    _run(reads, redis_server.url)
    stats = rds.info("commandstats")
    assert stats["cmdstat_hgetall"]["calls"] == 1
    assert stats["cmdstat_hmget"]["calls"] == 1


def test_update_sets_only_the_given_field(redis_server, rds):
    before = dict(field_values())
    rds.hset(KEY0, mapping=before)
    st = _run(lambda b: b[0].update(TABLE, KEY0, [(b"field4", b"x" * 100)]), redis_server.url)
    assert st is Status.OK
    after = rds.hgetall(KEY0)
    assert after[b"field4"] == b"x" * 100
    assert {k: v for k, v in after.items() if k != b"field4"} == {k: v for k, v in before.items() if k != b"field4"}


def test_scan_is_one_zrangebyscore_then_one_read_per_key(redis_server, rds):
    keys = [build_key_name(n).encode() for n in range(20)]

    async def load(b):
        return [await b[0].insert(TABLE, k, field_values(2)) for k in keys]

    assert set(_run(load, redis_server.url)) == {Status.OK}
    start = min(keys, key=java_hash)  # the lowest score: at least 5 keys follow it
    rds.config_resetstat()
    st = _run(lambda b: b[0].scan(TABLE, start, 5, None), redis_server.url)
    assert st is Status.OK
    stats = rds.info("commandstats")
    assert stats["cmdstat_zrangebyscore"]["calls"] == 1
    assert stats["cmdstat_hgetall"]["calls"] == 5
    # The keys it reads are the next ones by score, as YCSB's binding orders them.
    assert rds.zrangebyscore("_indices", java_hash(start), "+inf", start=0, num=5)[0] == start


def test_delete_removes_the_record_and_its_index_entry(redis_server, rds):
    async def insert_then_delete(b):
        await b[0].insert(TABLE, KEY0, field_values())
        return [await b[0].delete(TABLE, KEY0), await b[0].read(TABLE, KEY0, None)]

    assert _run(insert_then_delete, redis_server.url) == [Status.OK, Status.NOT_FOUND]
    assert rds.exists(KEY0) == 0 and rds.zscore("_indices", KEY0) is None


def test_db_number_in_the_url_selects_the_database(redis_server, rds):
    url = f"redis://127.0.0.1:{redis_server.port}/3"
    assert _run(lambda b: b[0].insert(TABLE, KEY0, field_values()), url) is Status.OK
    db3 = redis.Redis(port=redis_server.port, db=3)
    try:
        assert db3.hlen(KEY0) == 10 and db3.zscore("_indices", KEY0) == -594971599.0
    finally:
        db3.close()
    assert rds.dbsize() == 0


def test_password_from_url_or_property_authenticates_and_a_wrong_one_is_refused(tmp_path: Path):
    server = start_redis(tmp_path / "auth", extra=("--requirepass", "s3cret"))
    try:
        base = f"redis://127.0.0.1:{server.port}"
        assert _run(lambda b: b[0].insert(TABLE, KEY0, field_values()),
                    f"redis://:s3cret@127.0.0.1:{server.port}/0") is Status.OK
        assert _run(lambda b: b[0].read(TABLE, KEY0, None), base, props={"redis.password": "s3cret"}) is Status.OK
        with pytest.raises(ConnectionLost, match="authentication failed"):
            _run(lambda b: b[0].read(TABLE, KEY0, None), f"redis://:wrong@127.0.0.1:{server.port}")
        # No password at all: refused at connect (one PING), in one line saying how to give it.
        with pytest.raises(ConnectionLost, match="NOAUTH.*redis.password"):
            _run(lambda b: b[0].read(TABLE, KEY0, None), base)
    finally:
        server.stop()


def test_options_read_host_port_db_and_credentials_from_the_url():
    o = RedisOptions("redis://alice:p%40ss@10.0.0.5:6380/2")
    assert (o.host, o.port, o.db, o.username, o.password, o.tls) == ("10.0.0.5", 6380, 2, "alice", "p@ss", False)
    o = RedisOptions("rediss://127.0.0.1", {"redis.password": "fromprop"})
    assert (o.port, o.db, o.password, o.tls) == (6379, 0, "fromprop", True)


def test_each_client_has_its_own_connection(redis_server, rds):
    before = rds.info("clients")["connected_clients"]

    async def count(b):
        # One round trip per client first: a connect completes in the kernel before redis accepts it.
        for binding in b:
            assert await binding.read(TABLE, b"user1", None) is Status.NOT_FOUND
        return rds.info("clients")["connected_clients"]

    assert _run(count, redis_server.url, clients=7) == before + 7


def test_closed_port_is_a_connection_lost_naming_the_address():
    port = free_port()
    with pytest.raises(ConnectionLost, match=f"cannot connect to 127.0.0.1:{port}"):
        _run(lambda b: b[0].read(TABLE, KEY0, None), f"redis://127.0.0.1:{port}")


@pytest.mark.speed
def test_a_stalled_server_gives_timeout_and_late_replies_never_answer_later_requests(redis_server, rds):
    rds.hset(KEY0, mapping=dict(field_values()))
    pauser = redis.Redis.from_url(redis_server.url)

    async def stalled(b):
        pauser.execute_command("CLIENT", "PAUSE", "600", "ALL")
        statuses = [await b[0].read(TABLE, KEY0, None)]
        # Keep asking until the pause ends: every answer must be the one to its own request.
        while statuses[-1] is Status.TIMEOUT and len(statuses) < 50:
            statuses.append(await b[0].read(TABLE, KEY0, None))
        return statuses, [await b[0].read(TABLE, b"user1", None), await b[0].read(TABLE, KEY0, None)]

    try:
        statuses, after = _run(stalled, redis_server.url, timeout_s=0.2)
    finally:
        pauser.execute_command("CLIENT", "UNPAUSE")
        pauser.close()
    assert statuses[0] is Status.TIMEOUT and statuses[-1] is Status.OK
    assert after == [Status.NOT_FOUND, Status.OK]


def test_a_killed_server_ends_the_client_with_connection_lost(tmp_path: Path):
    server = start_redis(tmp_path / "killed")
    done = threading.Event()

    async def read_until_lost(b):
        assert await b[0].read(TABLE, KEY0, None) is Status.NOT_FOUND
        server.proc.kill()
        server.proc.wait()
        done.set()
        for _ in range(10):
            await b[0].read(TABLE, KEY0, None)

    try:
        with pytest.raises(ConnectionLost, match="reconnecting failed"):
            _run(read_until_lost, server.url)
        assert done.is_set()
    finally:
        server.stop()


def test_a_server_that_accepts_but_never_answers_fails_the_handshake_instead_of_hanging():
    with socket.socket() as mute:
        mute.bind(("127.0.0.1", 0))
        mute.listen(8)
        url = f"redis://:pw@127.0.0.1:{mute.getsockname()[1]}"
        with pytest.raises(ConnectionLost, match="no answer to AUTH"):
            _run(lambda b: b[0].read(TABLE, KEY0, None), url, timeout_s=0.2)


@pytest.fixture(params=["compiled", "pure"])
def reply_path(request, monkeypatch) -> str:
    """A chain's replies read by the compiled core's skimmer (the default after set-up), or built by hiredis
    and handed to the chain's ``__call__`` (the pure-Python path, without the compiled core)."""
    from ycsbctl.stores.redis import binding

    if request.param == "pure":
        monkeypatch.setattr(binding._Resp, "data_received", binding._Resp.parsed)
    return request.param


def test_a_chain_stores_and_reads_exactly_as_the_awaited_calls_and_logs_each_operation(redis_server, rds, reply_path):
    # ops: READ all, READ field2 (missing key), UPDATE field4, INSERT, READ all (missing key)
    from ycsbctl.workload.core import INSERT, READ, UPDATE

    rds.hset(KEY0, mapping=dict(field_values()))
    new = build_key_name(7, ordered=False, zeropadding=1).encode()
    batch = ([READ, READ, UPDATE, INSERT, READ], [KEY0, b"user1", KEY0, new, b"user2"], [0, 1, 0, 7, 2],
             [-1, 2, -1, -1, -1], [-1, -1, 4, -1, -1])
    log: list[int] = []
    acked: list[int] = []
    done = _run(lambda b: b[0].chain(_chain_context(log, acked), batch, 0, 5), redis_server.url)
    assert done == (5, 0)  # NOT_FOUND is not an error
    rows = [tuple(log[i : i + 5]) for i in range(0, len(log), 5)]
    assert [(op, st) for op, st, *_ in rows] == [(READ, 0), (READ, 1), (UPDATE, 0), (INSERT, 0), (READ, 1)]
    assert all(t0 <= t1 and due == t0 for _, _, t0, t1, due in rows)
    assert all(rows[i][3] <= rows[i + 1][2] for i in range(4))  # one request in flight at a time
    assert acked == [7]  # the run-phase insert's key number, once it completed
    assert rds.hget(KEY0, "field4") == b"x" * 7 and rds.hget(KEY0, "field3") == dict(field_values())[b"field3"]
    assert rds.hgetall(new) == dict(field_values()) and rds.zscore("_indices", new) == java_hash(new)


def test_a_chain_stops_at_a_failed_insert_when_asked_and_at_the_deadline(redis_server, rds, reply_path):
    from ycsbctl.workload.core import INSERT, READ

    rds.set(b"user5", b"a string, not a hash")  # HMSET on it fails: WRONGTYPE
    batch = ([INSERT] * 3, [b"user4", b"user5", b"user6"], [4, 5, 6], [-1] * 3, [-1] * 3)
    log: list[int] = []
    done = _run(lambda b: b[0].chain(_chain_context(log, [], stop_on_error=True), batch, 0, 3), redis_server.url)
    assert done == (2, 1) and log[5:7] == [INSERT, 2]
    assert rds.exists(b"user4") and not rds.exists(b"user6")  # nothing after the failure

    log.clear()
    reads = ([READ] * 4, [KEY0] * 4, [0] * 4, [-1] * 4, [-1] * 4)
    done = _run(lambda b: b[0].chain(_chain_context(log, [], deadline_ns=0), reads, 0, 4), redis_server.url)
    assert done == (1, 0) and log[:2] == [READ, 1]  # past the deadline: the one in flight ends it (NOT_FOUND)


def test_a_database_the_server_does_not_have_is_refused_at_connect_in_its_words(redis_server):
    with pytest.raises(ConnectionLost, match="SELECT 99 failed: ERR DB index is out of range"):
        _run(lambda b: b[0].read(TABLE, KEY0, None), f"redis://127.0.0.1:{redis_server.port}/99")


@pytest.mark.parametrize("fault", ["kill", "pause"])
def test_a_chain_whose_connection_is_killed_or_stalled_counts_the_operations_done_and_the_one_that_failed(
        redis_server, rds, fault):
    # operations 1:6 of the batch; when the second has ended (the record callback), the server kills the
    # binding's connection (CLIENT KILL) or stops answering for longer than the timeout (CLIENT PAUSE): the
    # third ends ERROR or TIMEOUT, and the chain counts 3 done (from its start), 1 failed
    from ycsbctl.workload.core import READ

    log: list[int] = []
    ctx = _chain_context(log, [])
    record = ctx.record
    pauser = redis.Redis.from_url(redis_server.url)

    def record_and_fault(*timed: int) -> None:
        record(*timed)
        if len(log) == 10 and fault == "kill":
            pauser.client_kill_filter(_type="normal", skipme=True)
        elif len(log) == 10:
            pauser.execute_command("CLIENT", "PAUSE", "600", "ALL")

    ctx.record = record_and_fault
    reads = ([READ] * 6, [KEY0] * 6, [0] * 6, [-1] * 6, [-1] * 6)
    try:
        done = _run(lambda b: b[0].chain(ctx, reads, 1, 6), redis_server.url, timeout_s=0.2)
    finally:
        if fault == "pause":
            pauser.execute_command("CLIENT", "UNPAUSE")
        pauser.close()
    assert done == (3, 1)
    failed = Status.ERROR if fault == "kill" else Status.TIMEOUT
    assert [log[i + 1] for i in range(0, len(log), 5)] == [Status.NOT_FOUND, Status.NOT_FOUND, failed]


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
                                                                             [-1, *(fields or [-1] * n)], [4] * n), 1,
                                                n))
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
    assert (
        said
        == "WAIT 1: 0 of 1 replica(s) had the write within 500 ms — a replica fell behind (the write is on the primary)"
    )
    assert reads == [(READ, 1), (READ, 1), (READ, 0), (READ, 0)]
    assert (first, after, late) == (Status.TIMEOUT, [(READ, 0)], 1)
    assert plugin == (Status.OK, b"v") and refused == (Status.ERROR, None)


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
        out["expired"] = (await asyncio.wait_for(run, 5), [tuple(log[i:i + 2]) for i in range(0, len(log), 5)],
                          b.proto.late)
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
