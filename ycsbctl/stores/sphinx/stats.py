"""What a Sphinx server reports about itself (``SHOW STATUS``), as telemetry columns and a sampler."""

from __future__ import annotations

import time
from typing import Any

from ycsbctl.stores.sampler import Sampler, counter_rate
from ycsbctl.stores.sphinx.admin import number, status

# SHOW STATUS counters whose per-second rates are columns of their own (``command_search_per_s`` …): searchd
# 2.2 counts searches (every SphinxQL SELECT) and deletes, not inserts
RATE_COUNTERS = ("queries", "command_search", "command_delete", "connections")


class SphinxStatusSampler(Sampler):
    """``SHOW STATUS`` once per interval: ``ops_per_s`` (searches + deletes: searchd counts no inserts),
    ``queries_per_s``, ``command_search_per_s``, ``command_delete_per_s``, ``connections_per_s`` (new ones).
    Its own SHOW STATUS is a status command, not a search. searchd does not report its CPU unless started with
    ``--cpustats``: the process sampler does."""

    source = "sphinx-status"

    def __init__(self, url: str, interval_s: float = 1.0) -> None:
        super().__init__(interval_s)
        self.url = url
        self._prev: dict[str, float | None] = {}
        self._t = 0.0

    def _read(self) -> dict[str, float | None]:
        s = status(self.url)
        return {k: number(s, k) for k in RATE_COUNTERS}

    def prime(self) -> None:
        self._prev, self._t = self._read(), time.monotonic()

    def sample(self) -> dict[str, Any]:
        cur, now = self._read(), time.monotonic()
        elapsed = now - self._t
        out: dict[str, Any] = {}
        for k in RATE_COUNTERS:
            out[f"{k}_per_s"] = counter_rate(self._prev.get(k), cur.get(k), elapsed)
        s, d = out["command_search_per_s"], out["command_delete_per_s"]
        out["ops_per_s"] = None if s is None or d is None else s + d
        self._prev, self._t = cur, now
        return out
