"""What a memcached server reports about itself (``stats``), as telemetry columns and a sampler."""

from __future__ import annotations

import time
from typing import Any

from ycsbctl.stores.memcached.admin import AdminConnection, number
from ycsbctl.stores.sampler import Sampler, counter_rate, rates

# Counters whose per-second rates are columns of their own (``cmd_get_per_s`` …): requests by kind
# and how reads ended, as the server counts them.
RATE_COUNTERS = ("cmd_get", "cmd_set", "get_hits", "get_misses", "delete_hits", "delete_misses")


def gauges(stats: dict[str, Any]) -> dict[str, Any]:
    """The point-in-time fields of one ``stats`` reply, named as telemetry columns: ``bytes`` (memory
    the items take, the counterpart of Redis ``used_memory``), ``limit_maxbytes``, connections, items."""
    items = number(stats, "curr_items")
    return {
        "db_used_memory_bytes": number(stats, "bytes"),
        "db_limit_bytes": number(stats, "limit_maxbytes"),
        "connections": number(stats, "curr_connections"),
        "keys": int(items) if items is not None else None,
    }


def counters(stats: dict[str, Any]) -> dict[str, float | None]:
    """Monotonic counters that rates are computed from: ``ops`` (gets, storage commands, deletes,
    touches), ``net_in``/``net_out`` (``bytes_read``/``bytes_written``), ``cpu_s`` (rusage user +
    system), and each of :data:`RATE_COUNTERS`."""
    parts = [number(stats, k) for k in ("cmd_get", "cmd_set", "cmd_touch", "delete_hits", "delete_misses")]
    cpu = [number(stats, k) for k in ("rusage_user", "rusage_system")]
    out: dict[str, float | None] = {
        "ops": None if None in parts[:2] else sum(p or 0.0 for p in parts),
        "net_in": number(stats, "bytes_read"),
        "net_out": number(stats, "bytes_written"),
        "cpu_s": None if None in cpu else sum(c or 0.0 for c in cpu),
    }
    out.update({k: number(stats, k) for k in RATE_COUNTERS})
    return out


def reported_pid(url: str) -> int | None:
    """The server's own PID (``stats`` ``pid``); None when it does not answer."""
    try:
        with AdminConnection(url) as c:
            pid = number(c.stats(), "pid")
        return int(pid) if pid is not None else None
    except (OSError, ConnectionError):
        return None


class MemcachedStatsSampler(Sampler):
    """``stats`` once per interval: ``db_used_memory_bytes`` (``bytes``), ``db_limit_bytes``,
    ``connections`` (our own included), ``keys`` (``curr_items``), and rates: ``ops_per_s``,
    ``net_in/out_bytes_per_s``, ``db_cpu_pct`` (the server's rusage, % of one core) and
    ``cmd_get_per_s``, ``cmd_set_per_s``, ``get_hits_per_s``, ``get_misses_per_s``,
    ``delete_hits_per_s``, ``delete_misses_per_s``."""

    source = "memcached-stats"

    def __init__(self, url: str, interval_s: float = 1.0) -> None:
        super().__init__(interval_s)
        self.url = url
        self._c: AdminConnection | None = None
        self._prev: dict[str, float | None] = {}
        self._t = 0.0

    def prime(self) -> None:
        self._c = AdminConnection(self.url)
        self._prev = counters(self._c.stats())
        self._t = time.monotonic()

    def sample(self) -> dict[str, Any]:
        assert self._c is not None, "prime() first"
        stats = self._c.stats()
        now = time.monotonic()
        cur = counters(stats)
        elapsed = now - self._t
        out = {**gauges(stats), **rates(self._prev, cur, elapsed)}
        for key in RATE_COUNTERS:
            out[f"{key}_per_s"] = counter_rate(self._prev.get(key), cur.get(key), elapsed)
        self._prev, self._t = cur, now
        return out

    def close(self) -> None:
        if self._c is not None:
            self._c.close()
