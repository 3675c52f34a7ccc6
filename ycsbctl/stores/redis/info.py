"""What a Redis-protocol server reports about itself (``INFO``), read on our own redis-py connection.

Every field is optional: Redis, Valkey and KeyDB report all of them, Dragonfly fewer; a missing
field is None, never an error.
"""

from __future__ import annotations

import time
from typing import Any

import redis

from ycsbctl.stores.sampler import Sampler, counter_rate, num, rates


def connect(url: str, timeout_s: float = 5.0) -> redis.Redis:
    """A client of its own (never the engine's connections): each command, whole reply included, within
    ``timeout_s`` (:mod:`ycsbctl.stores.redis.admin`)."""
    from ycsbctl.stores.redis.admin import client

    return client(url, timeout_s)


def keys(info: dict[str, Any]) -> int | None:
    """Keys over all databases (``db0:keys=…``)."""
    dbs = [v for k, v in info.items() if k.startswith("db") and k[2:].isdigit() and isinstance(v, dict)]
    if not dbs:  # no keyspace line: no key in a whole INFO reply (it has used_memory), else not known
        return 0 if "used_memory" in info else None
    return int(sum(d.get("keys", 0) for d in dbs))


def gauges(info: dict[str, Any]) -> dict[str, Any]:
    """The point-in-time fields of one INFO reply, named as telemetry columns."""
    return {
        "db_used_memory_bytes": num(info.get("used_memory")),
        "db_rss_bytes": num(info.get("used_memory_rss")),
        "db_fragmentation_ratio": num(info.get("mem_fragmentation_ratio")),
        "connections": num(info.get("connected_clients")),
        "db_instantaneous_ops_per_s": num(info.get("instantaneous_ops_per_sec")),
        "keys": keys(info),
        **replication(info),
    }


def replication(info: dict[str, Any]) -> dict[str, float | None]:
    """A primary's replicas as its ``INFO replication`` says: ``replicas`` online, and
    ``repl_lag_bytes`` — how far the slowest one is behind (``master_repl_offset`` − its ``offset``,
    bytes of the replication stream); None where the server has no replica."""
    online = _listed_replicas(info)
    top = num(info.get("master_repl_offset"))
    if not online or top is None:
        return {"replicas": None, "repl_lag_bytes": None}
    lags = [top - (num(v.get("offset")) or 0) for v in online]
    return {"replicas": float(sum(1 for v in online if v.get("state") == "online")), "repl_lag_bytes": max(lags)}


def _listed_replicas(info: dict[str, Any]) -> list[dict[str, Any]]:
    """The replicas ``INFO replication`` lists (``slave0:ip=…,port=…,state=online,offset=…``), in its order."""
    return [v for k, v in sorted(info.items()) if k.startswith("slave") and k[5:].isdigit() and isinstance(v, dict)]


def online_replicas(info: dict[str, Any]) -> list[str]:
    """The replicas ``INFO replication`` lists online, as ``ip:port``."""
    return [f"{v.get('ip')}:{v.get('port')}" for v in _listed_replicas(info) if v.get("state") == "online"]


def counters(info: dict[str, Any]) -> dict[str, float | None]:
    """Monotonic counters that rates are computed from (commands, bytes, CPU seconds)."""
    cpu = [num(info.get(k)) for k in ("used_cpu_user", "used_cpu_sys")]
    return {
        "ops": num(info.get("total_commands_processed")),
        "net_in": num(info.get("total_net_input_bytes")),
        "net_out": num(info.get("total_net_output_bytes")),
        "cpu_s": None if None in cpu else sum(c for c in cpu if c is not None),
    }


def server_traits(info: dict[str, Any], config: dict[str, Any] | None = None) -> dict[str, Any]:
    """What tells servers of the Redis protocol apart, from their own ``INFO`` (and ``CONFIG GET``):
    ``server`` (Redis, Valkey, Dragonfly, KeyDB), ``version`` (``valkey_version`` before
    ``redis_version``, which Valkey pins at 7.2.4), ``redis_compat_version``, ``allocator``
    (``mem_allocator``: jemalloc-5.3.0, libc …), ``io_threads`` (the ``io-threads`` setting: threads
    that may serve clients, the main one included), ``io_threads_active`` (0/1 when sampled),
    ``multiplexing_api`` and ``arch_bits``. A field the server does not report is left out."""
    config = config or {}
    out: dict[str, Any] = {}
    for key, name in (("valkey_version", "Valkey"), ("dragonfly_version", "Dragonfly"), ("keydb_version", "KeyDB")):
        if key in info:
            out["server"], out["version"] = name, str(info[key]).lstrip("v").removeprefix("df-").lstrip("v")
            break
    else:
        if "redis_version" in info:
            out["server"], out["version"] = "Redis", str(info["redis_version"])
    if "redis_version" in info and out.get("server") != "Redis":
        out["redis_compat_version"] = str(info["redis_version"])
    if info.get("mem_allocator"):
        out["allocator"] = str(info["mem_allocator"])
    threads = config.get("io-threads", info.get("io_threads"))
    try:
        if threads is not None:
            out["io_threads"] = int(threads)
    except (TypeError, ValueError):
        pass
    if config.get("io-threads-do-reads") in ("yes", "no"):  # Redis 6/7: reads on the I/O threads too
        out["io_threads_do_reads"] = config["io-threads-do-reads"]
    if "io_threads_active" in info:
        out["io_threads_active"] = int(num(info["io_threads_active"]) or 0)
    for key in ("multiplexing_api", "arch_bits"):
        if key in info:
            out[key] = info[key]
    return out


IO_THREAD_COUNTERS = ("io_threaded_reads", "io_threaded_writes")


def io_thread_counters(info: dict[str, Any]) -> dict[str, float | None]:
    """Reads and writes the I/O threads handled so far (``io_threaded_reads_processed``, …: Redis 6+,
    Valkey); None where the server does not count them. Their per-second rates show whether a
    server's ``io-threads`` did any work during a point."""
    return {key: num(info.get(f"{key}_processed")) for key in IO_THREAD_COUNTERS}


PERSISTENCE_COUNTERS = ("total_forks", "aof_delayed_fsync")


def persistence(prev: dict[str, float | None], info: dict[str, Any]) -> dict[str, float | None]:
    """What persistence did since ``prev`` (the previous reading of :data:`PERSISTENCE_COUNTERS`):
    ``forks`` (RDB snapshots and AOF rewrites started: ``total_forks``, Redis 6.2+), ``fork_pause_us``
    (``latest_fork_usec``: how long the latest fork stopped the server, µs — only when one happened
    in this interval), ``aof_delayed_fsyncs`` (writes that waited for an fsync under ``appendfsync
    everysec``) and ``aof_enabled`` / ``rdb_bgsave_in_progress`` as the server says."""
    def delta(key: str) -> float | None:
        a, b = prev.get(key), num(info.get(key))
        return None if a is None or b is None else max(0.0, b - a)

    forks = delta("total_forks")
    return {"forks": forks, "fork_pause_us": num(info.get("latest_fork_usec")) if forks else None,
            "aof_delayed_fsyncs": delta("aof_delayed_fsync"), "aof_enabled": num(info.get("aof_enabled")),
            "rdb_bgsave_in_progress": num(info.get("rdb_bgsave_in_progress"))}


def reported_pid(url: str) -> int | None:
    """The server's own PID (``process_id``), None when it does not say or does not answer."""
    try:
        with connect(url) as r:
            pid = r.info("server").get("process_id")
        return int(pid) if pid is not None else None
    except (redis.RedisError, OSError, ValueError):
        return None


class RedisInfoSampler(Sampler):
    """INFO once per interval: memory (``used_memory``, RSS, fragmentation), ``connected_clients``
    (our own connection included), keys, and rates from counters: ``ops_per_s`` (commands,
    our one INFO per second included), ``net_in/out_bytes_per_s``, ``db_cpu_pct`` (the server's
    own user+sys CPU, % of one core: the server CPU of an external target we have no PID for),
    ``io_threaded_reads_per_s`` and ``io_threaded_writes_per_s`` (work done by its I/O threads), and
    what persistence did in the interval (:func:`persistence`: forks and their pause, delayed fsyncs)."""

    source = "redis-info"

    def __init__(self, url: str, interval_s: float = 1.0) -> None:
        super().__init__(interval_s)
        self.url = url
        self.timeout_s = 5.0  # each INFO, its whole reply included, within this (s)
        self._r: redis.Redis | None = None
        self._prev: dict[str, float | None] = {}
        self._t = 0.0

    def prime(self) -> None:
        self._r = connect(self.url, self.timeout_s)
        info = self._r.info()
        self._prev = {**counters(info), **io_thread_counters(info),
                      **{k: num(info.get(k)) for k in PERSISTENCE_COUNTERS}}
        self._t = time.monotonic()

    def sample(self) -> dict[str, Any]:
        assert self._r is not None, "prime() first"
        info = self._r.info()
        now = time.monotonic()
        cur = {**counters(info), **io_thread_counters(info), **{k: num(info.get(k)) for k in PERSISTENCE_COUNTERS}}
        out = {**gauges(info), **rates(self._prev, cur, now - self._t), **persistence(self._prev, info)}
        for key in IO_THREAD_COUNTERS:
            out[f"{key}_per_s"] = counter_rate(self._prev.get(key), cur.get(key), now - self._t)
        self._prev, self._t = cur, now
        return out

    def close(self) -> None:
        if self._r is not None:
            self._r.close()


SUMMED = ("db_used_memory_bytes", "db_rss_bytes", "connections", "db_instantaneous_ops_per_s", "keys", "ops_per_s",
          "net_in_bytes_per_s", "net_out_bytes_per_s", "db_cpu_pct", "io_threaded_reads_per_s",
          "io_threaded_writes_per_s", "forks", "aof_delayed_fsyncs")


class RedisNodesSampler(Sampler):
    """INFO of every node of a several-process target (a cluster's primaries) once per interval: one
    ``redis-info`` row with the nodes' figures summed (memory, keys, commands, bytes, CPU, forks; the
    longest fork pause; the mean fragmentation), and one ``redis-shard`` row per node with its own
    figures and ``node`` (host:port) — the per-shard load balance."""

    source = "redis-info"

    def __init__(self, urls: list[str], interval_s: float = 1.0) -> None:
        super().__init__(interval_s)
        self.nodes = [RedisInfoSampler(u, interval_s) for u in urls]
        self.names = [u.split("@")[-1].split("://")[-1].split("/")[0] for u in urls]

    def prime(self) -> None:
        for n in self.nodes:
            n.prime()

    def sample(self) -> dict[str, Any]:
        rows = [n.sample() for n in self.nodes]
        self._shards = rows
        out: dict[str, Any] = {}
        for key in SUMMED:
            vals = [r.get(key) for r in rows if r.get(key) is not None]
            out[key] = sum(vals) if vals else None
        frag = [r["db_fragmentation_ratio"] for r in rows if r.get("db_fragmentation_ratio") is not None]
        out["db_fragmentation_ratio"] = sum(frag) / len(frag) if frag else None
        pauses = [r["fork_pause_us"] for r in rows if r.get("fork_pause_us") is not None]
        out["fork_pause_us"] = max(pauses) if pauses else None
        out["nodes"] = len(rows)
        return out

    def _record(self) -> None:
        super()._record()
        t_mono, t_wall = self.rows[-1]["t_mono"], self.rows[-1]["t_wall"]
        for name, row in zip(self.names, self._shards):
            self.rows.append({"t_mono": t_mono, "t_wall": t_wall, "source": "redis-shard", "node": name, **row})

    def close(self) -> None:
        for n in self.nodes:
            n.close()
