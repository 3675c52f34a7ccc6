"""What a Tarantool server reports about itself (``box.stat()``, ``box.stat.net()``, ``box.info.memory()``)
as telemetry columns and a sampler."""

from __future__ import annotations

import time
from typing import Any

from ycsbctl.stores.sampler import Sampler, counter_rate, rates
from ycsbctl.stores.tarantool.admin import AdminConnection, memory, stat_totals

# box.stat() kinds that are data operations (the sampler's own EVALs are not)
DATA_REQUESTS = ("SELECT", "INSERT", "REPLACE", "UPDATE", "DELETE", "UPSERT")
# kinds whose per-second rates are columns of their own (``select_per_s`` …)
RATE_KINDS = ("SELECT", "INSERT", "REPLACE", "UPDATE", "DELETE", "ERROR")


def counters(totals: dict[str, float]) -> dict[str, float | None]:
    """``ops`` (the data requests of :data:`DATA_REQUESTS`), ``net_in``/``net_out`` (bytes received, sent)
    and each of :data:`RATE_KINDS`."""
    parts = [totals.get(k) for k in DATA_REQUESTS]
    out: dict[str, float | None] = {"ops": None if None in parts else sum(p or 0.0 for p in parts),
                                    "net_in": totals.get("NET_RECEIVED"), "net_out": totals.get("NET_SENT")}
    out.update({k: totals.get(k) for k in RATE_KINDS})
    return out


class TarantoolStatSampler(Sampler):
    """``box.stat()`` once per interval: ``ops_per_s`` (SELECT + INSERT + REPLACE + UPDATE + DELETE + UPSERT),
    ``net_in/out_bytes_per_s``, ``select_per_s`` … ``error_per_s``, ``db_used_memory_bytes`` (``box.info.memory()``
    data + index) and ``keys`` (tuples in space ``ycsb``). Tarantool does not report its CPU time: the process
    sampler does."""

    source = "tarantool-stat"

    def __init__(self, url: str, interval_s: float = 1.0) -> None:
        super().__init__(interval_s)
        self.url = url
        self._c: AdminConnection | None = None
        self._prev: dict[str, float | None] = {}
        self._t = 0.0

    def prime(self) -> None:
        self._c = AdminConnection(self.url)
        self._prev = counters(stat_totals(self._c))
        self._t = time.monotonic()

    def sample(self) -> dict[str, Any]:
        assert self._c is not None, "prime() first"
        cur = counters(stat_totals(self._c))
        now = time.monotonic()
        elapsed = now - self._t
        out = rates(self._prev, cur, elapsed)
        out.pop("db_cpu_pct", None)
        for k in RATE_KINDS:
            out[f"{k.lower()}_per_s"] = counter_rate(self._prev.get(k), cur.get(k), elapsed)
        m = memory(self._c)
        out["db_used_memory_bytes"] = ((m["space_bytes"] or 0) + (m["index_bytes"] or 0)
                                       if m["space_bytes"] is not None else None)
        out["keys"] = m["tuples"]
        self._prev, self._t = cur, now
        return out

    def close(self) -> None:
        if self._c is not None:
            self._c.close()
