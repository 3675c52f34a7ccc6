"""The client series at 100 ms of a point with disturbances (:class:`FineSeries`) and its table.

The engine merges the workers' HDR counts of each 100 ms interval exactly, as it merges them per
second; this holds the result: per interval, the operations completed and the HDR counts (sparse:
index, count) of every operation's latency and of the client's own loop lag (``CLIENT-LAG``), in µs.
Interval ``k`` covers ``[k·interval_s, (k+1)·interval_s)`` seconds since the operations began (the
warm-up included, as in the per-second series).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ycsbctl.results import histogram as hdr
from ycsbctl.results.names import CLIENT_LAG

Sparse = tuple[np.ndarray, np.ndarray]  # (HDR counts index int32, count int64), indices distinct

# Columns of series_100ms.parquet (one row per run, interval and measure: OVERALL, CLIENT-LAG).
FINE_COLUMNS = ("interval", "t_s", "op", "operations", "ops_per_s", "p50_us", "p99_us", "max_us", "warmup")
OVERALL = "OVERALL"


def sparse_of(dense: np.ndarray) -> Sparse:
    """The non-zero counts of a dense HDR counts array."""
    nz = np.flatnonzero(dense)
    return nz.astype(np.int32), np.asarray(dense)[nz].astype(np.int64)


def merge_sparse(parts: Iterable[Sparse]) -> Sparse:
    """The exact sum of sparse HDR counts."""
    parts = [p for p in parts if p[0].size]
    if not parts:
        return np.zeros(0, np.int32), np.zeros(0, np.int64)
    idx = np.concatenate([p[0] for p in parts]).astype(np.int64)
    cnt = np.concatenate([p[1] for p in parts])
    keys, inverse = np.unique(idx, return_inverse=True)
    return keys.astype(np.int32), np.bincount(inverse, weights=cnt, minlength=keys.size).astype(np.int64)


def histogram_of(parts: Iterable[Sparse]):
    """An HdrHistogram (µs) of the sum of sparse counts."""
    idx, cnt = merge_sparse(parts)
    dense = np.zeros(hdr.COUNTS_LEN, np.int64)
    dense[idx] = cnt
    return hdr.from_counts(dense)


@dataclass
class FineSeries:
    """A phase's 100 ms series (see the module): ``operations``, ``latency`` (all operations, actual
    latency) and ``client_lag`` by interval index; ``warmup_s`` seconds at the start are the warm-up,
    ``end_s`` the planned end (the last report's interval after it holds the few operations that
    ended late: :meth:`last_full` leaves it out)."""

    interval_s: float = 0.1
    warmup_s: float = 0.0
    end_s: float | None = None  # the planned end (warm-up + duration): later intervals are a part one
    operations: dict[int, int] = field(default_factory=dict)
    latency: dict[int, Sparse] = field(default_factory=dict)
    client_lag: dict[int, Sparse] = field(default_factory=dict)

    def intervals(self) -> list[int]:
        """Interval indices from the first to the last one measured, gaps (no operation) included."""
        ks = set(self.operations) | set(self.latency)
        return list(range(min(ks), max(ks) + 1)) if ks else []

    def last_full(self) -> int | None:
        """The last interval that ends by the planned end (the last measured one without an end)."""
        ks = self.intervals()
        if not ks:
            return None
        if self.end_s is None:
            return ks[-1]
        return min(ks[-1], math.floor(self.end_s / self.interval_s + 1e-9) - 1)

    def rate(self, k: int) -> float:
        """Throughput (ops/s) of interval ``k`` (0 where it measured no operation)."""
        return self.operations.get(k, 0) / self.interval_s

    def ops_per_s(self) -> np.ndarray:
        """Throughput (ops/s) of each interval of :meth:`intervals`."""
        return np.array([self.rate(k) for k in self.intervals()], dtype=float)

    def latency_of(self, ks: Iterable[int]):
        """The merged latency histogram (µs) over intervals ``ks``."""
        return histogram_of(self.latency[k] for k in ks if k in self.latency)

    def lag_of(self, ks: Iterable[int]):
        """The merged CLIENT-LAG histogram (µs) over intervals ``ks``."""
        return histogram_of(self.client_lag[k] for k in ks if k in self.client_lag)

    def frame(self) -> pd.DataFrame:
        """Rows of series_100ms.parquet: per interval, ``OVERALL`` and ``CLIENT-LAG`` (:data:`FINE_COLUMNS`)."""
        rows = []
        for k in self.intervals():
            t = round(k * self.interval_s, 6)
            for name, counts in ((OVERALL, self.latency.get(k)), (CLIENT_LAG, self.client_lag.get(k))):
                h = histogram_of([counts] if counts is not None else [])
                n = h.get_total_count()
                pct = hdr.percentiles_us(h, (50.0, 99.0)) if n else {}
                ops = self.operations.get(k, 0) if name == OVERALL else n
                rows.append({"interval": k, "t_s": t, "op": name, "operations": int(ops),
                             "ops_per_s": ops / self.interval_s if name == OVERALL else math.nan,
                             "p50_us": float(pct.get(50.0, math.nan)), "p99_us": float(pct.get(99.0, math.nan)),
                             "max_us": float(h.get_max_value()) if n else math.nan,
                             "warmup": t < self.warmup_s - 1e-9})
        return pd.DataFrame(rows, columns=list(FINE_COLUMNS))
