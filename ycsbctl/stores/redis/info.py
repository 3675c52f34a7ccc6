"""What a Redis-protocol server reports about itself (``INFO``), read on our own redis-py connection.

Every field is optional: Redis, Valkey and KeyDB report all of them, Dragonfly fewer; a missing
field is None, never an error.
"""

from __future__ import annotations

import time
from typing import Any

import redis

from ycsbctl.stores.sampler import Sampler, num, rates


def connect(url: str) -> redis.Redis:
    """A short-timeout client of its own (never the engine's connections)."""
    return redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)


def keys(info: dict[str, Any]) -> int | None:
    """Keys over all databases (``db0:keys=…``)."""
    dbs = [v for k, v in info.items() if k.startswith("db") and k[2:].isdigit() and isinstance(v, dict)]
    return int(sum(d.get("keys", 0) for d in dbs)) if dbs else (0 if "used_memory" in info else None)


def gauges(info: dict[str, Any]) -> dict[str, Any]:
    """The point-in-time fields of one INFO reply, named as telemetry columns."""
    return {
        "db_used_memory_bytes": num(info.get("used_memory")),
        "db_rss_bytes": num(info.get("used_memory_rss")),
        "db_fragmentation_ratio": num(info.get("mem_fragmentation_ratio")),
        "connections": num(info.get("connected_clients")),
        "db_instantaneous_ops_per_s": num(info.get("instantaneous_ops_per_sec")),
        "keys": keys(info),
    }


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
    ``io_threaded_reads_per_s`` and ``io_threaded_writes_per_s`` (work done by its I/O threads)."""

    source = "redis-info"

    def __init__(self, url: str, interval_s: float = 1.0) -> None:
        super().__init__(interval_s)
        self.url = url
        self._r: redis.Redis | None = None
        self._prev: dict[str, float | None] = {}
        self._t = 0.0

    def prime(self) -> None:
        self._r = connect(self.url)
        info = self._r.info()
        self._prev = {**counters(info), **io_thread_counters(info)}
        self._t = time.monotonic()

    def sample(self) -> dict[str, Any]:
        assert self._r is not None, "prime() first"
        info = self._r.info()
        now = time.monotonic()
        cur = {**counters(info), **io_thread_counters(info)}
        out = {**gauges(info), **rates(self._prev, cur, now - self._t)}
        for key in IO_THREAD_COUNTERS:
            a, b = self._prev.get(key), cur.get(key)
            out[f"{key}_per_s"] = None if a is None or b is None or now <= self._t else max(0.0, b - a) / (now - self._t)
        self._prev, self._t = cur, now
        return out

    def close(self) -> None:
        if self._r is not None:
            self._r.close()
