"""The controller's side of the measurements: every worker's counts added per second
(:class:`SecondAggregate`, the per-second series) and per 100 ms (:class:`FineAggregate`), and over all
non-warm-up seconds (:func:`summaries`). Adding HDR counts is exact, so percentiles are those of one big
histogram. The workers' side (recording) is :mod:`ycsbctl.engine.measurements`.
"""

from __future__ import annotations

import math
from array import array
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ycsbctl.engine.measurements import COMPONENT, READ_MODIFY_WRITE_NAME
from ycsbctl.engine.messages import SecondCounts, SparseCounts
from ycsbctl.results import histogram as hdr
from ycsbctl.results.names import CLIENT_LAG, SCHEDULE_LAG, STATUSES, VERIFY_NAME
from ycsbctl.stores.binding import Status
from ycsbctl.workload.core import OP_NAMES

if TYPE_CHECKING:  # pandas and the result model load in the controller only
    import pandas as pd

    from ycsbctl.results.model import OpSummary


def _sparse(a: array | SparseCounts) -> SparseCounts:
    return a if isinstance(a, SparseCounts) else SparseCounts.of(a)


_WHOLE = (READ_MODIFY_WRITE_NAME, VERIFY_NAME)  # measured whole, whatever their status


def measurement_name(op: int, status: int, names: tuple[str, ...] = OP_NAMES) -> str:
    """YCSB's DBWrapper name for one slot: ``<OP>`` when OK, ``<OP>-FAILED`` otherwise; a
    read-modify-write is timed whole by the workload, whatever its halves returned, and VERIFY
    (dataintegrity's check) is one measurement whatever its verdict. ``names``: the workload's
    measurement names by op code (YCSB's by default; see ``workload.plugin.op_names``)."""
    base = names[op % COMPONENT]
    return base if status == Status.OK or (op < COMPONENT and base in _WHOLE) else f"{base}-FAILED"


def is_operation(op: int, names: tuple[str, ...] = OP_NAMES) -> bool:
    """Whether op code ``op``'s latencies count as operations (not the halves of a read-modify-write, nor the
    data-integrity checks)."""
    return op < COMPONENT and names[op] != VERIFY_NAME


def operations(part: SecondCounts, names: tuple[str, ...] = OP_NAMES) -> int:
    """The operations in one worker's counts (what :meth:`SecondAggregate.add` adds to ``count``)."""
    return sum(_sparse(a).total() for (op, _st), a in part.latency.items() if is_operation(op, names))


@dataclass
class SecondAggregate:
    """Everything every worker measured in one second of the phase (dense HDR counts by name)."""

    count: int = 0
    cpu_s: float = 0.0  # client CPU of all workers in this second
    counts: dict[str, np.ndarray] = field(default_factory=dict)  # measurement name -> HDR counts
    own: dict[str, np.ndarray] = field(default_factory=dict)  # the engine's measures of itself, by name
    returns: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    names: tuple[str, ...] = OP_NAMES  # measurement names by op code (the workload's)

    def add(self, part: SecondCounts, measurement: str = "op") -> None:
        """Add one worker's second (``measurement`` names the ``intended`` series as YCSB does)."""
        self.cpu_s += part.cpu_s
        prefix = "" if measurement == "intended" else "Intended-"
        names = self.names
        for (op, st), a in part.latency.items():
            c = _sparse(a)
            n = c.total()
            if not n:
                continue
            base = names[op % COMPONENT]
            self._add(measurement_name(op, st, names), c)
            if is_operation(op, names):  # the halves of an RMW and the checks are no operations
                self.count += n
            if op >= COMPONENT or base != READ_MODIFY_WRITE_NAME:  # YCSB reports RMW's statuses under READ and UPDATE
                self.returns[base][STATUSES[st]] += n
        for (op, st), a in part.intended.items():
            self._add(prefix + measurement_name(op, st, names), _sparse(a))
        for name, a in part.own.items():
            self._add(name, _sparse(a), self.own)

    def _add(self, name: str, c: SparseCounts, into: dict[str, np.ndarray] | None = None) -> None:
        if not c.index.size:
            return
        into = self.counts if into is None else into
        if name not in into:
            into[name] = np.zeros(hdr.COUNTS_LEN, dtype=np.int64)
        c.add_to(into[name])

    def overall(self) -> np.ndarray | None:
        """Counts of every operation's actual latency (``Intended-`` series left out)."""
        base = [c for n, c in self.counts.items() if not n.startswith("Intended-")]
        return np.sum(base, axis=0) if base else None

    def errors(self) -> int:
        return sum(c.get("ERROR", 0) + c.get("TIMEOUT", 0) for c in self.returns.values())

    def p99_us(self) -> float:
        c = self.overall()
        if c is None:
            return float("nan")
        return float(hdr.percentiles_us(hdr.from_counts(c), [99.0])[99.0])


def series_frame(seconds: dict[int, SecondAggregate], warmup_seconds: int) -> pd.DataFrame:
    """Per-second rows per measurement name, plus ``OVERALL`` (all operations, actual latency)
    and the engine's own measures (``CLIENT-LAG``, ``SCHEDULE-LAG``); ``timeouts`` on ``OVERALL`` and
    ``<OP>-FAILED`` rows counts the operations that timed out in that second (no reply came)."""
    import pandas as pd

    from ycsbctl.results.model import SERIES_COLUMNS
    rows = []
    for k in sorted(seconds):
        agg = seconds[k]
        overall = agg.overall()
        entries = [("OVERALL", overall, agg.count)] + [(n, c, None) for n, c in sorted(agg.counts.items())]
        entries += [(n, c, None) for n, c in agg.own.items()]
        timed_out = {f"{op}-FAILED": st.get("TIMEOUT", 0) for op, st in agg.returns.items()}
        timed_out["OVERALL"] = sum(timed_out.values())
        for name, c, ops in entries:
            h = hdr.from_counts(c) if c is not None else hdr.new_histogram()
            n = h.get_total_count()
            pct = hdr.percentiles_us(h, (50.0, 95.0, 99.0)) if n else {}
            rows.append(
                {
                    "second": k,
                    "op": name,
                    "operations": int(n if ops is None else ops),
                    "mean_us": hdr.mean_us(h),
                    "p50_us": float(pct.get(50.0, math.nan)),
                    "p95_us": float(pct.get(95.0, math.nan)),
                    "p99_us": float(pct.get(99.0, math.nan)),
                    "max_us": float(h.get_max_value()) if n else math.nan,
                    "warmup": k < warmup_seconds,
                    "timeouts": int(timed_out.get(name, 0)),
                }
            )
    return pd.DataFrame(rows, columns=list(SERIES_COLUMNS))


@dataclass
class FineAggregate:
    """What every worker measured in one 100 ms interval: operations, and the sparse HDR counts of
    every operation's latency and of CLIENT-LAG, kept as they came (merged once, at the end)."""

    operations: int = 0
    latency: list[SparseCounts] = field(default_factory=list)
    lag: list[SparseCounts] = field(default_factory=list)
    names: tuple[str, ...] = OP_NAMES  # measurement names by op code (the workload's)

    def add(self, part: SecondCounts) -> None:
        for (op, _st), a in part.latency.items():
            c = _sparse(a)
            n = c.total()
            if not n:
                continue
            self.latency.append(c)
            if op < COMPONENT and self.names[op] != VERIFY_NAME:  # as SecondAggregate counts operations
                self.operations += n
        lag = part.own.get(CLIENT_LAG)
        if lag is not None:
            self.lag.append(_sparse(lag))


def fine_series(intervals: dict[int, FineAggregate], interval_s: float, warmup_s: float, end_s: float | None):
    """The phase's :class:`~ycsbctl.results.fine.FineSeries` from its 100 ms aggregates (``end_s``: the
    planned end, warm-up included; None for a phase bounded by an operation count)."""
    from ycsbctl.results.fine import FineSeries, merge_sparse

    out = FineSeries(interval_s=interval_s, warmup_s=warmup_s, end_s=end_s)
    for k in sorted(intervals):
        agg = intervals[k]
        out.operations[k] = agg.operations
        if agg.latency:
            out.latency[k] = merge_sparse((c.index, c.count) for c in agg.latency)
        if agg.lag:
            out.client_lag[k] = merge_sparse((c.index, c.count) for c in agg.lag)
    return out


@dataclass
class Totals:
    """A phase's totals over its non-warm-up seconds."""

    ops: dict[str, OpSummary]  # by measurement name, in report order
    operations: int
    cpu_s: float
    own: dict[str, OpSummary]  # the engine's measures of itself (CLIENT-LAG, SCHEDULE-LAG), when measured

    @property
    def client_lag(self) -> OpSummary | None:
        return self.own.get(CLIENT_LAG)


def summaries(seconds: dict[int, SecondAggregate], warmup_seconds: int, names: tuple[str, ...] = OP_NAMES) -> Totals:
    """Totals over the non-warm-up seconds: one :class:`OpSummary` per name, the operation count,
    the client CPU seconds and the engine's own measures; ``names`` (by op code) give the report order."""
    from ycsbctl.results.model import OpSummary
    merged: dict[str, np.ndarray] = {}
    own: dict[str, np.ndarray] = {}
    returns: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    count = 0
    cpu_s = 0.0
    for k, agg in seconds.items():
        if k < warmup_seconds:
            continue
        count += agg.count
        cpu_s += agg.cpu_s
        for name, c in agg.counts.items():
            merged[name] = merged[name] + c if name in merged else c.copy()
        for name, c in agg.own.items():
            own[name] = own[name] + c if name in own else c.copy()
        for op, counts in agg.returns.items():
            for st, n in counts.items():
                returns[op][st] += n
    out: dict[str, OpSummary] = {}
    measured = list(merged) + [op for op in returns if op not in merged]
    order = {n: i for i, n in enumerate(names)}

    def sort_key(n: str) -> tuple:
        base = n.removeprefix("Intended-").removesuffix("-FAILED")
        return (order.get(base, 99), n.startswith("Intended-"), n.endswith("-FAILED"))

    for name in sorted(measured, key=sort_key):
        h = hdr.from_counts(merged[name]) if name in merged else hdr.new_histogram()
        out[name] = OpSummary.from_histogram(name, h, dict(returns.get(name, {})))
    mine = {n: OpSummary.from_histogram(n, hdr.from_counts(own[n])) for n in (CLIENT_LAG, SCHEDULE_LAG) if n in own}
    return Totals(out, count, cpu_s, mine)
