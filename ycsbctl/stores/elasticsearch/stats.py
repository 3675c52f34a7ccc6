"""What an Elasticsearch node reports about itself (``_stats`` of YCSB's index, ``_nodes/stats``), as telemetry
columns and a sampler."""

from __future__ import annotations

import time
from typing import Any

from ycsbctl.stores.elasticsearch.admin import INDEX, index_stats, node_stats
from ycsbctl.stores.sampler import Sampler, counter_rate


def counters(stats: dict[str, Any], node: dict[str, Any]) -> dict[str, float | None]:
    """Document gets (``get.total``: reads, and the get inside each update), documents indexed
    (``indexing.index_total``: inserts and updates), deletes, searches, and the node's CPU seconds."""
    get, indexing, search = stats.get("get", {}), stats.get("indexing", {}), stats.get("search", {})
    cpu = node.get("process", {}).get("cpu", {}).get("total_in_millis")
    return {"get": get.get("total"), "index": indexing.get("index_total"), "delete": indexing.get("delete_total"),
            "search": search.get("query_total"), "cpu_s": None if cpu is None else cpu / 1000.0}


class ElasticsearchStatsSampler(Sampler):
    """``_stats`` and ``_nodes/stats`` once per interval: ``get_per_s``, ``index_per_s``, ``delete_per_s``,
    ``search_per_s`` (YCSB's index; an update is one get and one index), ``db_cpu_pct`` (the node's process CPU,
    % of one core), ``db_used_memory_bytes`` (JVM heap used) and ``keys`` (documents of the last refresh)."""

    source = "elasticsearch-stats"

    def __init__(self, url: str, interval_s: float = 1.0, index: str = INDEX) -> None:
        super().__init__(interval_s)
        self.url, self.index = url, index
        self._prev: dict[str, float | None] = {}
        self._t = 0.0

    def prime(self) -> None:
        self._prev, self._t = counters(index_stats(self.url, self.index), node_stats(self.url)), time.monotonic()

    def sample(self) -> dict[str, Any]:
        stats, node = index_stats(self.url, self.index), node_stats(self.url)
        cur, now = counters(stats, node), time.monotonic()
        elapsed = now - self._t
        out: dict[str, Any] = {}
        for k in ("get", "index", "delete", "search", "cpu_s"):
            rate = counter_rate(self._prev.get(k), cur.get(k), elapsed)
            out["db_cpu_pct" if k == "cpu_s" else f"{k}_per_s"] = None if rate is None else (
                rate * 100.0 if k == "cpu_s" else rate)
        out["db_used_memory_bytes"] = node.get("jvm", {}).get("mem", {}).get("heap_used_in_bytes")
        out["keys"] = stats.get("docs", {}).get("count")
        self._prev, self._t = cur, now
        return out
