"""Redis Cluster's routing pieces without a cluster: a key's hash slot against redis-py's own ``key_slot``,
the slot table built from a ``CLUSTER SLOTS`` reply as the Redis manual lays it out, a ``MOVED``/``ASK`` error
read back, and ``ASKING`` as hiredis packs it. The cluster binding's routing without a cluster: MOVED
followed, a failed shard connection forgotten, inserts and deletes across shards, the node URLs and when a
cluster is ready."""

from __future__ import annotations

import asyncio
import random

import hiredis
import pytest
import redis.crc

from ycsbctl.stores.binding import Status
from ycsbctl.stores.redis.cluster import INDEX_SLOT, SLOTS, SlotMap, key_slot
from ycsbctl.stores.redis.cluster_chain import ASKING, redirect


def test_a_keys_slot_is_redis_pys_for_plain_keys_and_every_shape_of_hash_tag():
    rng = random.Random(43)
    keys = [b"user%d" % rng.getrandbits(63) for _ in range(500)]
    keys += [b"{user}1", b"{user}2", b"a{b}c", b"a{b}c{d}", b"{}", b"{}a", b"a{}b{c}", b"{", b"}", b"}{", b"{a",
             b"a}b{", b"ab}c", b"{{a}}", b"", b"_indices", b"foo{bar}{zap}", b"{a}" * 3]
    for key in keys:
        assert key_slot(key) == redis.crc.key_slot(key), key
    assert SLOTS == redis.crc.REDIS_CLUSTER_HASH_SLOTS == 16384
    assert redis.crc.key_slot(b"_indices") == INDEX_SLOT
    assert key_slot(b"123456789") == 0x31C3 % SLOTS  # CRC16/XMODEM's check value, the cluster spec's example


def _node(host: bytes, port: int, node_id: bytes) -> list:
    return [host, port, node_id, {}]  # Redis 7: ip, port, id, a map of hostname and the like


def test_the_slot_table_gives_each_slot_its_primary_and_lists_each_primary_once():
    seed = ("10.0.0.9", 7000)
    reply = [  # as CLUSTER SLOTS replies: start, end, primary, replicas… (ranges in any order)
        [10923, 16383, _node(b"10.0.0.3", 7002, b"c" * 40), _node(b"10.0.0.6", 7005, b"f" * 40)],
        [0, 5460, _node(b"10.0.0.1", 7000, b"a" * 40), _node(b"10.0.0.4", 7003, b"d" * 40)],
        [5461, 10921, _node(b"", 7001, b"b" * 40)],  # an empty host: the node the client asked
        [10922, 10922, _node(b"10.0.0.1", 7000, b"a" * 40)],
    ]
    slots = SlotMap(reply, seed)
    expect = {0: ("10.0.0.1", 7000), 5460: ("10.0.0.1", 7000), 5461: ("10.0.0.9", 7001),
              10921: ("10.0.0.9", 7001), 10922: ("10.0.0.1", 7000), 10923: ("10.0.0.3", 7002),
              16383: ("10.0.0.3", 7002)}
    for slot, owner in expect.items():
        assert slots.owner[slot] == owner, slot
    assert len(slots.owner) == SLOTS
    assert slots.primaries == [("10.0.0.3", 7002), ("10.0.0.1", 7000), ("10.0.0.9", 7001)]
    assert sum(o == ("10.0.0.1", 7000) for o in slots.owner) == 5461 + 1
    assert SlotMap([[0, 99, ["h", "7"]]], seed).owner[99:101] == [("h", 7), seed]  # str host, port as text
    slots.moved(7, ("10.0.0.7", 7006))
    slots.moved(8, ("10.0.0.3", 7002))
    assert slots.owner[6:9] == [("10.0.0.1", 7000), ("10.0.0.7", 7006), ("10.0.0.3", 7002)]
    assert slots.primaries[-1] == ("10.0.0.7", 7006) and len(slots.primaries) == 4


def test_a_redirection_is_its_kind_slot_and_node_and_anything_else_none():
    assert redirect("MOVED 3999 127.0.0.1:6381") == ("MOVED", 3999, ("127.0.0.1", 6381))
    assert redirect("ASK 16383 10.0.0.2:7001") == ("ASK", 16383, ("10.0.0.2", 7001))
    assert redirect("MOVED 0 ::1:30001") == ("MOVED", 0, ("::1", 30001))  # IPv6: the port after the last colon
    for other in (None, "", "ERR unknown command", "MOVEDX 1 h:1", "CLUSTERDOWN The cluster is down",
                  "TRYAGAIN Multiple keys request during rehashing of slot", "ASKING"):
        assert redirect(other) is None, other
    assert hiredis.pack_command(("ASKING",)) == ASKING



A, B = ("10.0.0.1", 7000), ("10.0.0.2", 7001)  # A serves slots 0-8000 (the index's, 6052), B the rest


def _two_shards(pure: bool) -> tuple:
    """A ClusterBinding over shards A and B whose connections keep what is written to them (addr -> requests), and
    how a reply reaches a shard's connection: the compiled skimmer's path, or hiredis's (pure)."""
    import asyncio
    from types import SimpleNamespace

    from ycsbctl.native import core
    from ycsbctl.stores.redis.binding import RedisBinding, _Resp
    from ycsbctl.stores.redis.cluster import ClusterBinding
    from ycsbctl.stores.redis.options import RedisOptions

    if core is None and not pure:
        pytest.skip("the compiled core is not built")
    cb = ClusterBinding(RedisOptions("redis://10.0.0.1:7000/0"), 1.0,
                        SlotMap([[0, 8000, [A[0], A[1]]], [8001, SLOTS - 1, [B[0], B[1]]]], A), [])
    sent: dict[tuple, list[bytes]] = {}
    for addr in (A, B):
        node = cb.nodes[addr] = RedisBinding(RedisOptions(f"redis://{addr[0]}:{addr[1]}/0"), 1.0)
        node.loop, node.proto = asyncio.get_running_loop(), _Resp()
        node.proto.transport = SimpleNamespace(write=sent.setdefault(addr, []).append)

    async def feed(addr: tuple, reply: bytes) -> None:
        proto = cb.nodes[addr].proto
        (proto.parsed if pure else proto.skimmed)(reply)
        await asyncio.sleep(0)

    return cb, sent, feed


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_a_cluster_chain_follows_moved_and_ask_waits_for_replicas_and_indexes_an_insert_on_its_shard(pure):
    """ClusterChain over two shards, the replies RESP bytes as the cluster spec lays them out, read by the compiled
    skimmer or by hiredis (pure): an UPDATE whose WAIT counts no replica is TIMEOUT with its words; a MOVED to a
    connected shard is followed (the slot learnt, counted once); an INSERT's HMSET goes to its key's shard, its ZADD
    to the index's; an ASK is followed with ASKING and counted; an error is ERROR, said."""
    import asyncio

    from tests.fixtures.bindings import redis_chain_context
    from ycsbctl.stores.binding import Status
    from ycsbctl.workload.core import INSERT, READ, UPDATE

    keys = [b"user%d" % i for i in range(40)]
    on_a = next(k for k in keys if key_slot(k) <= 8000)
    on_b = [k for k in keys if key_slot(k) > 8000][:4]
    assert len({key_slot(k) for k in on_b}) == 4

    async def go() -> tuple:
        cb, sent, feed = _two_shards(pure)
        node_a = cb.nodes[A]
        node_a.wait_for, node_a.o.wait_ms = 1, 500
        node_a.wait_command = b"*3\r\n$4\r\nWAIT\r\n$1\r\n1\r\n$3\r\n500\r\n"
        log: list[int] = []
        acked: list[int] = []
        ops = [UPDATE, READ, INSERT, READ, READ]
        run = asyncio.ensure_future(cb.chain(redis_chain_context(log, acked), (ops, [on_a, *on_b], [0, 1, 2, 3, 4],
                                                                               [-1] * 5, [4] * 5), 0, 5))
        await asyncio.sleep(0)
        for addr, reply in ((A, b"+OK\r\n:0\r\n"),  # UPDATE's HMSET and WAIT: no replica had it
                            (B, b"-MOVED %d 10.0.0.1:7000\r\n" % key_slot(on_b[0])), (A, b"*0\r\n"),  # READ, moved
                            (B, b"+OK\r\n"), (A, b":1\r\n"),  # INSERT: HMSET on B, ZADD on A (the index's shard)
                            (B, b"-ASK %d 10.0.0.1:7000\r\n" % key_slot(on_b[2])),
                            (A, b"+OK\r\n*2\r\n$6\r\nfield0\r\n$1\r\nx\r\n"),  # ASKING's OK, then the HGETALL's
                            (B, b"-ERR unknown command\r\n")):
            await feed(addr, reply)
        return await run, log, acked, cb, sent

    done, log, acked, cb, sent = asyncio.run(go())
    assert done == (5, 2)  # the TIMEOUT and the ERROR failed
    assert [tuple(log[i:i + 2]) for i in range(0, len(log), 5)] == [
        (UPDATE, int(Status.TIMEOUT)), (READ, int(Status.NOT_FOUND)), (INSERT, int(Status.OK)), (READ, int(Status.OK)),
        (READ, int(Status.ERROR))]
    assert cb.counts == {"redirections": 2, "moved": 1, "ask": 1} and acked == [2]
    assert cb.slots.owner[key_slot(on_b[0])] == A and cb.slots.owner[key_slot(on_b[2])] == B  # ASK: once only
    assert [p[:15] for p in sent[A]] == [b"*4\r\n$5\r\nHMSET\r\n", b"*2\r\n$7\r\nHGETALL", b"*4\r\n$4\r\nZADD\r\n$",
                                         b"*1\r\n$6\r\nASKING\r"]
    asked = b"$%d\r\n%b\r\n" % (len(on_b[2]), on_b[2])
    assert sent[A][3].startswith(b"*1\r\n$6\r\nASKING\r\n*2\r\n$7\r\nHGETALL\r\n") and sent[A][3].endswith(asked)
    assert cb.last_error == "ERR unknown command"


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_a_slot_that_moves_more_than_max_redirects_times_fails_its_operation_with_the_last_reply(pure):
    import asyncio

    from tests.fixtures.bindings import redis_chain_context
    from ycsbctl.stores.binding import Status
    from ycsbctl.stores.redis.cluster_chain import MAX_REDIRECTS
    from ycsbctl.workload.core import READ

    key = next(k for k in (b"user%d" % i for i in range(40)) if key_slot(k) > 8000)

    async def go(moves: int) -> tuple:
        cb, _, feed = _two_shards(pure)
        log: list[int] = []
        run = asyncio.ensure_future(cb.chain(redis_chain_context(log, []), ([READ], [key], [0], [-1], [-1]), 0, 1))
        await asyncio.sleep(0)
        at = B
        for _ in range(moves):  # to the other shard each time, both connected
            there = A if at == B else B
            await feed(at, b"-MOVED %d %s:%d\r\n" % (key_slot(key), there[0].encode(), there[1]))
            at = there
        if moves <= MAX_REDIRECTS:
            await feed(at, b"*0\r\n")
        return await run, log[1], cb.counts["moved"], cb.last_error

    assert MAX_REDIRECTS == 5
    assert asyncio.run(go(5)) == ((1, 0), int(Status.NOT_FOUND), 5, None)
    done, st, moved, said = asyncio.run(go(6))
    # the sixth is not followed (nor counted): the operation fails with it
    assert (done, st, moved) == ((1, 1), int(Status.ERROR), 5) and said == f"MOVED {key_slot(key)} 10.0.0.2:7001"


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_a_cluster_chains_reply_after_the_watchdog_expired_it_is_late_even_before_the_chain_ran_again(pure):
    import asyncio

    from tests.fixtures.bindings import redis_chain_context
    from ycsbctl.stores.binding import Status
    from ycsbctl.workload.core import READ

    key = next(k for k in (b"user%d" % i for i in range(40)) if key_slot(k) <= 8000)

    async def go() -> tuple:
        cb, _, _ = _two_shards(pure)
        node = cb.nodes[A]
        log: list[int] = []
        run = asyncio.ensure_future(cb.chain(redis_chain_context(log, []), ([READ, READ], [key] * 2, [0, 1], [-1] * 2,
                                                                            [-1] * 2), 0, 2))
        await asyncio.sleep(0)
        node.expire()  # the watchdog: the read in flight timed out
        (node.proto.parsed if pure else node.proto.skimmed)(b"*2\r\n$6\r\nfield0\r\n$1\r\nx\r\n")  # same turn
        return await asyncio.wait_for(run, 5), [tuple(log[i:i + 2]) for i in range(0, len(log), 5)], node.proto.late

    assert asyncio.run(go()) == ((1, 1), [(READ, int(Status.TIMEOUT))], 1)


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_an_inserts_zadd_may_move_as_many_times_as_any_request_its_count_begun_again(pure):
    # the INSERT's HMSET, then its ZADD at the index's shard moved MAX_REDIRECTS times (followed each time, the
    # ZADD's own count from 0), then done: OK, acknowledged
    import asyncio

    from tests.fixtures.bindings import redis_chain_context
    from ycsbctl.stores.binding import Status
    from ycsbctl.stores.redis.cluster import INDEX_SLOT
    from ycsbctl.stores.redis.cluster_chain import MAX_REDIRECTS
    from ycsbctl.workload.core import INSERT

    key = next(k for k in (b"user%d" % i for i in range(40)) if key_slot(k) > 8000)

    async def go() -> tuple:
        cb, _, feed = _two_shards(pure)
        log: list[int] = []
        acked: list[int] = []
        run = asyncio.ensure_future(cb.chain(redis_chain_context(log, acked), ([INSERT], [key], [7], [-1], [-1]), 0, 1))
        await asyncio.sleep(0)
        await feed(B, b"+OK\r\n")  # the HMSET at the key's shard
        at = cb.slots.owner[INDEX_SLOT]
        for _ in range(MAX_REDIRECTS):
            there = A if at == B else B
            await feed(at, b"-MOVED %d %s:%d\r\n" % (INDEX_SLOT, there[0].encode(), there[1]))
            at = there
        await feed(at, b":1\r\n")
        return await asyncio.wait_for(run, 5), log[1], acked, cb.counts

    # moves only: each counted a redirection and a move, none an ask
    assert asyncio.run(go()) == ((1, 0), int(Status.OK), [7],
                                 {"redirections": MAX_REDIRECTS, "moved": MAX_REDIRECTS, "ask": 0})


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


def test_a_cluster_follows_a_moved_reply_to_the_node_it_names_and_counts_it():
    from ycsbctl.stores.redis.cluster import ClusterBinding

    class Node:
        def __init__(self, st: Status, error: str | None) -> None:
            self.st, self.last_error = st, error

    moved: list[tuple[int, tuple[str, int]]] = []
    nodes = {("127.0.0.1", 7000): Node(Status.ERROR, "MOVED 3999 127.0.0.1:7001"),
             ("127.0.0.1", 7001): Node(Status.OK, None)}
    c = object.__new__(ClusterBinding)
    c.counts = {"redirections": 0, "moved": 0, "ask": 0}
    c.slots = type("Slots", (), {"moved": lambda self, slot, addr: moved.append((slot, addr))})()

    async def node(addr: tuple[str, int]) -> Node:
        return nodes[addr]

    async def call(b: Node) -> Status:
        return b.st

    c._node = node  # type: ignore[method-assign]
    st = asyncio.run(c._follow(3999, ("127.0.0.1", 7000), call))  # type: ignore[arg-type]
    assert (st, c.counts, moved) == (Status.OK, {"redirections": 1, "moved": 1, "ask": 0},
                                     [(3999, ("127.0.0.1", 7001))])


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
    c.nodes[("127.0.0.1",
             7000)] = newer  # type: ignore[assignment]  # reconnected meanwhile: the failure was the old one's
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
