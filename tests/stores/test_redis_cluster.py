"""Redis Cluster as a target kind: ``redis-cluster`` is three shard processes made with ``redis-cli
--cluster create``; the engine routes each key to its slot's shard. Checked against the cluster's own
figures: the shards' commandstats summed equal the operations the engine reports, per type; every
key sits on the shard its CRC16 slot names (CLUSTER KEYSLOT, each node's DBSIZE); a live resharding
during a point completes with no error and the redirections counted; ``down`` leaves no process.
One cluster for the module (CI time)."""

from __future__ import annotations

import subprocess
import threading

import psutil
import pytest
import redis

from tests.fixtures.servers import ROOT
from tests.fixtures.waiting import wait_until
from tests.fixtures.ycsb_twin import run_client, twin_or_real
from ycsbctl.engine.runner import PhaseRunner, run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.engine.ycsb_java import binding_properties
from ycsbctl.errors import UserError
from ycsbctl.provision.auto import provision, server_alive, teardown
from ycsbctl.stores.redis.cluster import INDEX_SLOT, key_slot, node_urls
from ycsbctl.workload.properties import load_properties

RECORDS = 600
REDIS_LIB = ROOT / ".cache" / "ycsb-redis" / "lib"
TWIN = ROOT / "tests" / "data" / "redis" / "JedisClusterDB.java"


@pytest.fixture(scope="module")
def cluster():
    ep = provision("redis-cluster", "local", experiment_id="tests", say=lambda _: None)
    try:
        props = {**load_properties("workload-a"), "recordcount": str(RECORDS), "operationcount": "0"}
        # dataintegrity: YCSB's own values (a function of key and field), so YCSB can check every one it reads
        load = run_phase(PhaseSpec("load", ep.url, {**props, "dataintegrity": "true"}, threads=4, processes=1))
        assert load.ops["INSERT"].returns == {"OK": RECORDS}
        yield ep, props
    finally:
        teardown(ep)
    assert not any(psutil.pid_exists(p["pid"]) and psutil.Process(p["pid"]).status() != psutil.STATUS_ZOMBIE
                   for p in ep.processes)


def _clients(ep) -> list[redis.Redis]:
    return [redis.Redis.from_url(u) for u in node_urls(ep.url)]


def _calls(nodes: list[redis.Redis], command: str) -> int:
    return sum(int(n.info("commandstats").get(f"cmdstat_{command}", {}).get("calls", 0)) for n in nodes)


def test_three_shard_processes_one_label(cluster) -> None:
    ep, _ = cluster
    assert len(ep.processes) == 3 and len(node_urls(ep.url)) == 3 and ep.traits["cluster_shards"] == 3
    assert len({p["pid"] for p in ep.processes}) == 3 and server_alive(ep)


def test_keys_land_on_the_shard_their_crc16_slot_names(cluster) -> None:
    ep, _ = cluster
    nodes = _clients(ep)
    owner: dict[int, int] = {}
    for i, entry in enumerate(sorted(nodes[0].execute_command("CLUSTER", "SLOTS"), key=lambda e: int(e[0]))):
        owner.update({s: i for s in range(int(entry[0]), int(entry[1]) + 1)})
    index_node = nodes[owner[INDEX_SLOT]]
    keys = index_node.zrange("_indices", 0, -1)
    assert len(keys) == RECORDS
    for k in keys[:20]:
        assert nodes[0].execute_command("CLUSTER", "KEYSLOT", k) == key_slot(k)
    assert key_slot(b"{user1}.a") == key_slot(b"user1") == nodes[0].execute_command("CLUSTER", "KEYSLOT", "{user1}.a")
    expected = [0] * len(nodes)
    for k in keys:
        expected[owner[key_slot(k)]] += 1
    expected[owner[INDEX_SLOT]] += 1  # the one _indices sorted set
    assert [n.dbsize() for n in nodes] == expected
    assert min(expected) > RECORDS / 6  # the keys spread over every shard


def test_a_cluster_node_url_of_another_database_is_one_line_naming_database_0(cluster) -> None:
    """redis-py SELECTs the URL's database when it connects, and a cluster node refuses SELECT: the line said
    "something answers there, but not as a redis server … check that the port is a redis server's" (fault43e)."""
    from ycsbctl.stores.registry import get

    ep, _ = cluster
    url = ep.url.rsplit("/", 1)[0] + "/1"
    with pytest.raises(UserError) as caught:
        get("redis").ping(url)
    assert str(caught.value) == (f"{url} is a Redis Cluster node, which has database 0 only (SELECT is not allowed "
                                 f"in cluster mode): use database 0: {ep.url}")


def test_a_cluster_node_asked_as_one_server_moves_keys_and_the_error_says_drop_redis_cluster_false(cluster) -> None:
    import socket

    from ycsbctl.stores.redis.store import RedisProtocol

    ep, _ = cluster
    node = redis.Redis.from_url(ep.url)
    elsewhere = next(f"user{i}" for i in range(1000) if node.cluster("keyslot", f"user{i}") not in _own_slots(node))
    kw = node.connection_pool.connection_kwargs
    node.close()
    with socket.create_connection((kw["host"], kw["port"]), timeout=5) as s:  # the server's own words, unparsed
        s.sendall(f"HGETALL {elsewhere}\r\n".encode())
        moved = s.recv(200).decode().strip().lstrip("-")
    assert moved.startswith("MOVED ")
    hint = RedisProtocol().error_hint(f"a read failed ({moved})", {"redis.cluster": "false"})
    assert hint is not None and "drop -p redis.cluster=false" in hint
    assert RedisProtocol().error_hint(f"a read failed ({moved})", {}) is None  # the engine follows MOVED itself
    assert RedisProtocol().error_hint("a read failed (WRONGTYPE …)", {"redis.cluster": "false"}) is None


def _own_slots(node: redis.Redis) -> set[int]:
    """The slots the node ``node`` serves (CLUSTER SLOTS: ranges with their primary's port)."""
    port = node.connection_pool.connection_kwargs["port"]
    return {s for lo, hi, primary, *_ in node.execute_command("CLUSTER SLOTS") if int(primary[1]) == port
            for s in range(int(lo), int(hi) + 1)}


def test_reads_from_replicas_at_a_cluster_are_refused_in_the_stores_own_words(cluster) -> None:
    """The worker passed the store's refusal on as ``UserError: redis.readfrom=…`` (its class name in the line)."""
    ep, props = cluster
    with pytest.raises(UserError) as caught:
        run_phase(PhaseSpec("run", ep.url, {**props, "operationcount": "10", "redis.readfrom": "replica"}, threads=1,
                            processes=1))
    assert str(caught.value) == (f"cannot run against {ep.url}: redis.readfrom=replica is not offered for a Redis "
                                 "Cluster (every read goes to its slot's primary): drop -p redis.readfrom")


@pytest.fixture(scope="module")
def ycsb_redis(ycsb_classpath: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """(classpath, DB class): a DB making the calls of YCSB's redis binding through Jedis 2.9.0 (the
    library the binding declares; the binding is not on Maven Central), compiled here, then YCSB core.
    With ``YCSB_REDIS_CLASSES`` (YCSB's own redis binding compiled from its 0.17.0 source against these
    libraries) the test runs the real ``site.ycsb.db.RedisClient``."""
    libs = sorted(REDIS_LIB.glob("*.jar"))
    if not any(j.name.startswith("jedis-") for j in libs):
        pytest.skip(f"Jedis missing in {REDIS_LIB} "
                    "(mvn -f infra/ycsb-redis/pom.xml dependency:copy-dependencies, or scripts/setup.sh --for-tests)")
    return twin_or_real("YCSB_REDIS_CLASSES", "site.ycsb.db.RedisClient", TWIN, "ycsbctl.interop.JedisClusterDB",
                        libs, ycsb_classpath, tmp_path_factory.mktemp("ycsb-redis-db"))


def test_ycsbs_redis_binding_in_cluster_mode_reads_and_verifies_every_record_ycsbctl_loaded(cluster,
                                                                                            ycsb_redis) -> None:
    """Before the module's points that update records (with values that are not YCSB's)."""
    ep, props = cluster
    _, connection = binding_properties(PhaseSpec("run", ep.url, props))
    assert connection["redis.cluster"] == "true"  # what --engine ycsb passes for a cluster node's URL
    got = run_client(*ycsb_redis, "run", {**connection, "recordcount": str(RECORDS), "operationcount": str(RECORDS),
                                         "requestdistribution": "sequential", "dataintegrity": "true"})
    assert got["READ"] == {"OK": RECORDS}  # every record, each read once (a missing one is ERROR in the binding)
    assert got["VERIFY"] == {"OK": RECORDS}  # and every field of it the value YCSB would have written
    nodes = _clients(ep)
    for n in nodes:  # a cluster that wants a password: the binding sends none in cluster mode
        n.config_set("requirepass", "s3cret")
    try:
        with pytest.raises(UserError, match="cannot authenticate to a Redis Cluster"):
            binding_properties(PhaseSpec("run", ep.url.replace("redis://", "redis://:s3cret@"), props))
    finally:
        for url in node_urls(ep.url.replace("redis://", "redis://:s3cret@")):
            redis.Redis.from_url(url).config_set("requirepass", "")


def test_the_shards_commandstats_sum_to_the_operations_reported_per_type(cluster) -> None:
    ep, props = cluster
    nodes = _clients(ep)
    for n in nodes:
        n.config_resetstat()
    # paced (the chain's pacer path; the load and the resharding point run unpaced)
    r = run_phase(PhaseSpec("run", ep.url, {**props, "operationcount": "1200"}, threads=4, processes=1,
                            target_rate=3000))
    assert r.ops["READ"].returns.get("OK") == r.ops["READ"].operations
    assert _calls(nodes, "hgetall") == r.ops["READ"].operations
    assert _calls(nodes, "hmset") == r.ops["UPDATE"].operations
    assert (r.binding_counts or {}).get("redirections") == 0  # a stable cluster redirects nothing


def test_a_cluster_scan_reads_the_start_key_and_the_keys_after_it_that_the_index_holds(cluster) -> None:
    """Scans from the index's last and third-to-last keys (by score, as ZRANGEBYSCORE orders them), of 5 keys: the
    shards' HGETALL calls count the keys redis-py's own ZRANGEBYSCORE from that score lists (1, then 3: the start key
    included, as YCSB's binding), and the scan reads no other."""
    from tests.fixtures.bindings import run_bindings
    from ycsbctl.stores.binding import Status

    ep, _ = cluster
    nodes = _clients(ep)
    index = next(n for n in nodes if n.execute_command("CLUSTER", "COUNTKEYSINSLOT", INDEX_SLOT))  # its owner
    tail = index.zrange("_indices", -3, -1, withscores=True)
    got = []
    for key, score in (tail[-1], tail[0]):
        truth = index.zrangebyscore("_indices", score, "+inf", start=0, num=5)
        before = _calls(nodes, "hgetall")
        assert run_bindings(lambda bs, k=key: bs[0].scan("usertable", k, 5, None), ep.url) == Status.OK
        got.append((_calls(nodes, "hgetall") - before, len(truth), truth[0] == key))
    assert got == [(1, 1, True), (3, 3, True)], got


def test_a_live_resharding_during_a_point_completes_with_no_error_and_counts_redirections(cluster) -> None:
    ep, props = cluster
    nodes = _clients(ep)
    ids = [n.execute_command("CLUSTER", "MYID") for n in nodes]
    ids = [i.decode() if isinstance(i, bytes) else i for i in ids]
    for n in nodes:
        n.config_resetstat()
    point = PhaseRunner(PhaseSpec("run", ep.url, props, threads=4, processes=1, duration_s=120.0))
    result = {}
    t = threading.Thread(target=lambda: result.update(r=point.run()))
    t.start()
    wait_until(lambda: any(int(n.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0)) for n in nodes),
               what="the point's first reads")
    port = ep.processes[0]["port"]
    try:
        done = subprocess.run(["redis-cli", "--cluster", "reshard", f"127.0.0.1:{port}", "--cluster-from", ids[0],
                               "--cluster-to", ids[1], "--cluster-slots", "1000", "--cluster-yes",
                               "--cluster-pipeline", "10"], capture_output=True, text=True, timeout=120)
    finally:
        point.stop()  # the point lasts as long as the resharding
        t.join()
    assert done.returncode == 0, done.stderr[-500:]
    r = result["r"]
    assert sum(o.operations for o in r.ops.values()) > 0
    assert sum(o.returns.get("ERROR", 0) + o.returns.get("TIMEOUT", 0) for o in r.ops.values()) == 0, r.errors
    assert r.binding_counts["redirections"] > 0
    assert r.binding_counts["redirections"] == r.binding_counts["moved"] + r.binding_counts["ask"]
    assert sum(n.dbsize() for n in nodes) == RECORDS + 1  # every record still there, once


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "pure"])
def test_a_cluster_chain_answers_each_operation_as_the_awaited_calls_and_stores_what_they_store(
        cluster, monkeypatch, pure) -> None:
    """ClusterChain over the shards, its replies read by the compiled core's skimmer or (pure) built by hiredis and
    handed to its ``__call__``: a whole record and one field of a stored and of a missing key (HGETALL's empty
    list, HMGET's ``[nil]``), an update, an insert (its HMSET on the key's shard, its ZADD on the index's), each
    with the status of the same call awaited; the inserted record and its index entry read back by redis-py."""
    from tests.fixtures.bindings import field_values, redis_chain_context, run_bindings
    from ycsbctl.stores.redis import binding
    from ycsbctl.stores.redis.reply_chain import java_hash
    from ycsbctl.workload.core import INSERT, READ, UPDATE
    from ycsbctl.workload.keys import build_key_name

    if pure:
        monkeypatch.setattr(binding._Resp, "data_received", binding._Resp.parsed)
    ep, _ = cluster
    key0, new = (build_key_name(n, ordered=False, zeropadding=1).encode() for n in (0, RECORDS + 7))
    missing = b"user-not-loaded"
    ops = [READ, READ, READ, READ, UPDATE, INSERT, READ]
    keys = [key0, key0, missing, missing, key0, new, new]
    batch = (ops, keys, [0, 0, 0, 0, 0, RECORDS + 7, 0], [-1, 2, 2, -1, -1, -1, -1], [-1, -1, -1, -1, 4, -1, -1])
    log: list[int] = []
    acked: list[int] = []

    async def chained(bs):
        i = 0
        while i < len(ops):  # a chain stops before a shard it has not connected yet; the next one connects it
            done, failed = await bs[0].chain(redis_chain_context(log, acked), batch, i, len(ops))
            assert failed == 0 and done > 0
            i += done
        return [await bs[0].read("usertable", key0, None), await bs[0].read("usertable", key0, [b"field2"]),
                await bs[0].read("usertable", missing, [b"field2"]), await bs[0].read("usertable", missing, None)]

    try:
        awaited = run_bindings(chained, ep.url)
        rows = [tuple(log[i:i + 5]) for i in range(0, len(log), 5)]
        assert [(op, st) for op, st, *_ in rows] == list(zip(ops, [0, 0, 1, 1, 0, 0, 0]))
        assert awaited == [binding.Status.OK, binding.Status.OK, binding.Status.NOT_FOUND, binding.Status.NOT_FOUND]
        assert acked == [RECORDS + 7]
        cluster_client = redis.RedisCluster.from_url(ep.url)
        try:
            assert cluster_client.hgetall(new) == dict(field_values())
            assert cluster_client.hget(key0, "field4") == b"x" * 7
            assert cluster_client.zscore("_indices", new) == java_hash(new)
        finally:
            cluster_client.close()
    finally:  # the module's other points count the records loaded
        cleanup = redis.RedisCluster.from_url(ep.url)
        cleanup.delete(new)
        cleanup.zrem("_indices", new)
        cleanup.close()


@pytest.mark.fault
def test_a_shard_killed_mid_point_fails_its_operations_and_says_which_while_the_clients_go_on(cluster) -> None:
    """Last in the module: it kills a shard of the module's cluster."""
    import os
    import signal

    ep, props = cluster
    victim = ep.processes[2]
    nodes = _clients(ep)
    for n in nodes:
        n.config_resetstat()
    result = {}
    t = threading.Thread(target=lambda: result.update(
        r=run_phase(PhaseSpec("run", ep.url, {**props, "redis.timeout": "1000", "updateproportion": "0.3",
                                              "insertproportion": "0.2"},  # an insert's key number acknowledged
                              threads=4, processes=1, duration_s=1.5))))  # when its shard is unreachable too
    t.start()
    wait_until(lambda: all(int(n.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0)) for n in nodes),
               what="the point's first reads on every shard")
    os.kill(victim["pid"], signal.SIGKILL)
    t.join()
    r = result["r"]
    failed = sum(o.returns.get("ERROR", 0) + o.returns.get("TIMEOUT", 0) for o in r.ops.values())
    assert failed > 0 and r.ops["READ"].returns.get("OK", 0) > 0 and r.ops["INSERT"].returns.get("ERROR", 0) > 0
    assert r.threads_stopped == 0  # no client ended: only the dead shard's operations failed
    assert any(f"127.0.0.1:{victim['port']}" in e for e in r.errors), r.errors

