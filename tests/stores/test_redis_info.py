"""What a Redis server's INFO says, read from INFO text as Redis writes it and redis-py parses it: keys over
every database, replicas online and the slowest one's lag in bytes (the primary's offset less the replica's),
gauges and counters, persistence since the last reading, and the traits that tell servers apart."""

from __future__ import annotations

import pytest
from redis._parsers.helpers import parse_info

from ycsbctl.stores.redis.info import (
    counters,
    gauges,
    io_thread_counters,
    keys,
    online_replicas,
    persistence,
    replication,
    server_traits,
)

pytestmark = pytest.mark.truth


def _info(text: str) -> dict:
    return parse_info(text.replace("\n", "\r\n").encode())


PRIMARY = _info("""# Server
redis_version:7.0.15
mem_allocator:libc
multiplexing_api:epoll
arch_bits:64
io_threads_active:0
# Clients
connected_clients:7
# Memory
used_memory:1048576
used_memory_rss:4194304
mem_fragmentation_ratio:4.00
# Stats
total_commands_processed:12345
instantaneous_ops_per_sec:678
total_net_input_bytes:1000
total_net_output_bytes:2000
io_threaded_reads_processed:11
io_threaded_writes_processed:22
total_forks:3
# Persistence
latest_fork_usec:250
aof_delayed_fsync:4
aof_enabled:1
rdb_bgsave_in_progress:0
# Replication
role:master
connected_slaves:3
slave0:ip=127.0.0.1,port=6380,state=online,offset=1500,lag=0
slave1:ip=127.0.0.1,port=6381,state=online,offset=900,lag=1
slave2:ip=127.0.0.1,port=6382,state=wait_bgsave,offset=0,lag=0
master_repl_offset:1500
# CPU
used_cpu_sys:1.5
used_cpu_user:2.25
# Keyspace
db0:keys=10,expires=0,avg_ttl=0
db3:keys=5,expires=1,avg_ttl=100
""")


def test_the_figures_of_one_info_reply():
    assert keys(PRIMARY) == 15 and keys({"used_memory": 1}) == 0 and keys({}) is None
    assert replication(PRIMARY) == {"replicas": 2.0, "repl_lag_bytes": 1500.0}  # the one still syncing is 0 bytes in
    one = _info("master_repl_offset:1500\nslave0:ip=h,port=1,state=online,offset=1200,lag=0\n")
    assert replication(one) == {"replicas": 1.0, "repl_lag_bytes": 300.0}
    assert replication(_info("master_repl_offset:1500\n")) == {"replicas": None, "repl_lag_bytes": None}
    assert online_replicas(PRIMARY) == ["127.0.0.1:6380", "127.0.0.1:6381"]  # not the one still syncing
    g = gauges(PRIMARY)
    assert (g["db_used_memory_bytes"], g["db_rss_bytes"], g["db_fragmentation_ratio"], g["connections"],
            g["db_instantaneous_ops_per_s"], g["keys"], g["replicas"]) == (1048576, 4194304, 4.0, 7, 678, 15, 2.0)
    assert counters(PRIMARY) == {"ops": 12345, "net_in": 1000, "net_out": 2000, "cpu_s": 3.75}
    assert counters({"used_cpu_user": 1.0})["cpu_s"] is None  # both parts or none
    assert io_thread_counters(PRIMARY) == {"io_threaded_reads": 11, "io_threaded_writes": 22}


def test_persistence_is_what_happened_since_the_last_reading():
    got = persistence({"total_forks": 1.0, "aof_delayed_fsync": 4.0}, PRIMARY)
    assert got == {"forks": 2.0, "fork_pause_us": 250, "aof_delayed_fsyncs": 0.0, "aof_enabled": 1,
                   "rdb_bgsave_in_progress": 0}
    quiet = persistence({"total_forks": 3.0, "aof_delayed_fsync": 1.0}, PRIMARY)
    assert (quiet["forks"], quiet["fork_pause_us"], quiet["aof_delayed_fsyncs"]) == (0.0, None, 3.0)
    assert persistence({}, PRIMARY)["forks"] is None


def test_the_traits_tell_redis_valkey_and_dragonfly_apart():
    assert server_traits(PRIMARY, {"io-threads": "4", "io-threads-do-reads": "yes"}) == {
        "server": "Redis", "version": "7.0.15", "allocator": "libc", "io_threads": 4, "io_threads_do_reads": "yes",
        "io_threads_active": 0, "multiplexing_api": "epoll", "arch_bits": 64}
    valkey = server_traits(_info("redis_version:7.2.4\nvalkey_version:8.0.1\nio_threads:2\nio_threads_active:1\n"))
    assert valkey == {"server": "Valkey", "version": "8.0.1", "redis_compat_version": "7.2.4", "io_threads": 2,
                      "io_threads_active": 1}
    df = server_traits({"redis_version": "7.2.0", "dragonfly_version": "df-v1.21.2"}, {"io-threads": "x"})
    assert df == {"server": "Dragonfly", "version": "1.21.2", "redis_compat_version": "7.2.0"}


def test_a_clusters_nodes_are_named_by_their_host_and_port_only():
    from ycsbctl.stores.redis.info import RedisNodesSampler

    urls = ["redis://:pw@10.0.0.1:7000/0", "rediss://user:pw@[::1]:7001", "redis://10.0.0.2:7002"]
    assert RedisNodesSampler(urls).names == ["10.0.0.1:7000", "[::1]:7001", "10.0.0.2:7002"]



def test_a_clusters_row_sums_its_nodes_figures_averages_their_fragmentation_and_keeps_the_longest_fork_pause():
    from types import SimpleNamespace

    from ycsbctl.stores.redis.info import SUMMED, RedisNodesSampler

    rows = [{"keys": 10, "ops_per_s": 100.0, "db_fragmentation_ratio": 1.2, "fork_pause_us": 900, "forks": 1.0,
             "db_cpu_pct": None},
            {"keys": 5, "ops_per_s": 50.0, "db_fragmentation_ratio": 2.0, "fork_pause_us": 250, "forks": 1.0},
            {"keys": 0, "ops_per_s": 0.0, "db_fragmentation_ratio": None, "fork_pause_us": None, "forks": 0.0}]
    sampler = RedisNodesSampler(["redis://a:1", "redis://b:2", "redis://c:3"])
    sampler.nodes = [SimpleNamespace(sample=lambda r=r: r) for r in rows]  # each node's own row, as read
    out = sampler.sample()
    assert (out["keys"], out["ops_per_s"], out["forks"], out["nodes"]) == (15, 150.0, 2.0, 3)
    assert out["db_fragmentation_ratio"] == pytest.approx(1.6)  # the mean of the nodes that report it
    assert out["fork_pause_us"] == 900 and out["db_cpu_pct"] is None  # the longest pause; none reported: None
    assert set(SUMMED) <= set(out)


def test_the_io_threads_rates_are_their_counters_growth_over_the_time_between_two_readings(monkeypatch):
    # two INFO replies 2 s apart (the sampler's clock and connection stood in for): 200 reads and 50 writes more
    from types import SimpleNamespace

    from ycsbctl.stores.redis import info as info_module
    from ycsbctl.stores.redis.info import RedisInfoSampler

    replies = iter([_info("io_threaded_reads_processed:100\nio_threaded_writes_processed:10\n"),
                    _info("io_threaded_reads_processed:300\nio_threaded_writes_processed:60\n")])
    clock = iter([1000.0, 1002.0])
    monkeypatch.setattr(info_module.time, "monotonic", lambda: next(clock))
    sampler = RedisInfoSampler("redis://127.0.0.1:1/0")
    monkeypatch.setattr(info_module, "connect", lambda url, *_: SimpleNamespace(info=lambda: next(replies)))
    sampler.prime()
    row = sampler.sample()
    assert (row["io_threaded_reads_per_s"], row["io_threaded_writes_per_s"]) == (100.0, 25.0)

def test_each_nodes_row_is_stamped_with_the_time_of_the_summed_row_it_belongs_to(redis_server, rds):
    # the same server twice: two nodes, each row read back against the summed row it follows
    from ycsbctl.stores.redis.info import RedisNodesSampler

    rds.set("k", "v")
    sampler = RedisNodesSampler([redis_server.url, redis_server.url])
    sampler.prime()
    for _ in range(2):
        sampler._record()
    sampler.close()
    summed = [r for r in sampler.rows if r["source"] == "redis-info"]
    shards = [r for r in sampler.rows if r["source"] == "redis-shard"]
    assert [r["source"] for r in sampler.rows] == ["redis-info", "redis-shard", "redis-shard"] * 2
    assert [(r["t_mono"], r["t_wall"]) for r in shards] == [(s["t_mono"], s["t_wall"]) for s in summed for _ in "ab"]
    assert summed[0]["t_mono"] < summed[1]["t_mono"] and all(r["keys"] == summed[0]["keys"] / 2 for r in shards[:2])


def test_a_server_that_evicted_or_expired_says_how_many_keys_its_own_info_counts_and_its_memory_limit(tmp_path):
    """``why_short`` (said after a load that came up short) against the server's own INFO read with redis-py:
    None before anything is dropped; after 3 MB of values into ``maxmemory 2mb`` with allkeys-lru, the keys
    it evicted, its limit and its policy; a key whose TTL ran out, as expired. Was: "(evicted or cut while
    it loaded)", the cause left to guess (memcached's load named its evictions)."""
    import time

    import redis

    from tests.fixtures.servers import start_redis
    from ycsbctl.stores import registry

    server = start_redis(tmp_path / "r", extra=("--maxmemory", "2mb", "--maxmemory-policy", "allkeys-lru"))
    try:
        proto = registry.get("redis")
        assert proto.why_short(server.url) is None
        with redis.Redis(port=server.port) as r:
            r.set("brief", "x", px=1)
            time.sleep(0.01)
            assert r.get("brief") is None  # expired on this read: counted
            for start in range(0, 3000, 500):
                r.mset({f"k{i}": b"v" * 1000 for i in range(start, start + 500)})
            said = proto.why_short(server.url)
            stats = r.info("stats")
        assert stats["evicted_keys"] > 0 and stats["expired_keys"] == 1
        assert said == (f"the server counts {stats['evicted_keys']:,} keys evicted (INFO evicted_keys; maxmemory 2 "
                        "MiB; maxmemory-policy allkeys-lru); 1 key(s) expired (INFO expired_keys: a TTL)"), said
        # the same server evicting nothing: a write past maxmemory is refused (OOM), and the point's line says why
        with redis.Redis(port=server.port) as r:
            r.config_set("maxmemory-policy", "noeviction")
            with pytest.raises(redis.exceptions.OutOfMemoryError) as oom:
                r.mset({f"n{i}": b"v" * 1000 for i in range(3000)})
        hint = proto.error_hint(f"an insert failed (OOM {oom.value})", {})
        assert hint is not None and hint.startswith("the server is full to its maxmemory and its policy evicts nothing")
        assert proto.error_hint("an insert failed (WRONGTYPE …)", {}) is None
    finally:
        server.stop()


def test_an_acl_user_who_may_not_run_info_is_described_as_a_redis_of_unknown_version(tmp_path):
    """A user set up as ``ACL SETUSER u on >pw ~* +@all -@dangerous`` (INFO, CONFIG and FLUSHDB are
    @dangerous) can read and write every key: the target is measured, named "Redis (version unknown …)".
    Was: skipped, 'asking it for its version and settings failed: NoPermissionError'. The server's own
    ACL DRYRUN says which commands that user may run."""
    import redis

    from tests.fixtures.servers import start_redis
    from ycsbctl.provision.probe import describe

    server = start_redis(tmp_path / "acl")
    try:
        with redis.Redis(port=server.port) as r:
            r.execute_command("ACL", "SETUSER", "u", "on", ">pw", "~*", "+@all", "-@dangerous")
            assert r.execute_command("ACL", "DRYRUN", "u", "HSET", "k", "f", "v") == b"OK"
            assert r.execute_command("ACL", "DRYRUN", "u", "INFO") != b"OK"
            version = r.info("server")["redis_version"]
        facts = describe("redis", f"redis://u:pw@127.0.0.1:{server.port}/0")
        assert facts.name == "Redis (version unknown: the URL's user may not run INFO)" and facts.version == ""
        assert "CONFIG GET * failed" in facts.config["error"]
        assert describe("redis", server.url).name == f"Redis {version}"  # the default user: named as before
    finally:
        server.stop()


def test_a_server_whose_snapshot_failed_refuses_even_ping_and_is_told_so(tmp_path):
    """``stop-writes-on-bgsave-error`` (Redis's default) with a save point: after a BGSAVE that could not write
    its file (its dir gone here; a full disk alike) the server answers PING with MISCONF. Was: "something
    answers there, but not as a redis server (ResponseError: MISCONF …): check that the port is a redis
    server's" (fault43e)."""
    import shutil

    import redis

    from tests.fixtures.servers import start_redis
    from tests.fixtures.waiting import wait_until
    from ycsbctl.errors import UserError
    from ycsbctl.stores import registry

    server = start_redis(tmp_path / "r", extra=("--save", "3600 1", "--stop-writes-on-bgsave-error", "yes"))
    try:
        registry.get("redis").ping(server.url)  # answers while its snapshots succeed
        shutil.rmtree(tmp_path / "r")
        with redis.Redis(port=server.port) as r:
            r.bgsave()
            wait_until(lambda: r.info("persistence")["rdb_last_bgsave_status"] == "err", 10, "the BGSAVE failing")
        with pytest.raises(UserError) as told:
            registry.get("redis").ping(server.url)
        said = str(told.value)
        assert said.startswith(f"{server.url} refuses commands: its last RDB snapshot failed and "
                               "stop-writes-on-bgsave-error is on (MISCONF ") and told.value.exit_code == 1, said
        assert said.endswith("CONFIG SET stop-writes-on-bgsave-error no") and "\n" not in said, said
    finally:
        with redis.Redis(port=server.port) as r:
            r.config_set("save", "")  # else its shutdown tries the snapshot again, fails, and the server stays up
        server.stop()
