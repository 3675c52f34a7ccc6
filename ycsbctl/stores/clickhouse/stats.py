"""What a ClickHouse server reports about itself (``system.events``), as telemetry columns and a sampler."""

from __future__ import annotations

import time
from typing import Any

from ycsbctl.stores.clickhouse.admin import SYSTEM_LOG_ROWS, counters
from ycsbctl.stores.sampler import Sampler

# Counters whose per-second rates are columns of their own (``selectquery_per_s`` …)
RATE_EVENTS = ("Query", "SelectQuery", "InsertQuery", "InsertedRows")


class ClickHouseEventsSampler(Sampler):
    """``system.events`` once per interval: ``ops_per_s`` (SELECT and INSERT statements, less this sampler's
    own SELECT of system.events), ``query_per_s``, ``selectquery_per_s``, ``insertquery_per_s``,
    ``insertedrows_per_s`` (less the rows the server wrote to its own log tables: the clients' rows).
    ClickHouse's own CPU counters are per query: the process sampler gives the server's.

    A log flush that lands inside the sampler's own query (a millisecond) can move its rows from one interval
    to the next."""

    source = "clickhouse-events"

    def __init__(self, url: str, interval_s: float = 1.0) -> None:
        super().__init__(interval_s)
        self.url = url
        self._prev: dict[str, float] = {}
        self._t = 0.0

    def prime(self) -> None:
        self._prev, self._t = counters(self.url), time.monotonic()

    def sample(self) -> dict[str, Any]:
        cur, now = counters(self.url), time.monotonic()
        elapsed = now - self._t
        out: dict[str, Any] = {}
        for k in RATE_EVENTS:
            d = cur.get(k, 0.0) - self._prev.get(k, 0.0)
            if k == "Query" or k == "SelectQuery":
                d -= 1  # the SELECT from system.events that read these counters
            elif k == "InsertedRows":
                d -= cur.get(SYSTEM_LOG_ROWS, 0.0) - self._prev.get(SYSTEM_LOG_ROWS, 0.0)
            out[f"{k.lower()}_per_s"] = max(0.0, d) / elapsed if elapsed > 0 else None
        sel, ins = out["selectquery_per_s"], out["insertquery_per_s"]
        out["ops_per_s"] = None if sel is None or ins is None else sel + ins
        self._prev, self._t = cur, now
        return out
