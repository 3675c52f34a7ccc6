"""Latency recording in the workers and exact merging in the parent.

Workers append whole µs to plain lists in the hot loop (~40 ns) and, once a second, turn each
list into an HDR histogram with :func:`record_many` and ship it encoded. The parent merges the
histograms of every worker per second (the per-second series) and over all non-warm-up seconds
(the totals): merging HDR counts is exact, so percentiles are those of one big histogram.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ycsbctl.bindings.base import Status
from ycsbctl.results import histogram as hdr
from ycsbctl.workload.core import OP_NAMES, READ_MODIFY_WRITE, VERIFY

if TYPE_CHECKING:  # pandas and the result model load in the parent only (workers start faster)
    import pandas as pd

    from ycsbctl.results.model import OpSummary

STATUSES = tuple(s.name for s in Status)

N_OPS = len(OP_NAMES)
N_STATUS = len(STATUSES)


COMPONENT = 8  # op code offset marking the READ/UPDATE halves of a read-modify-write
_FIELDS = 5  # op, status, start ns, end ns, due ns


class Recorder:
    """One worker process's measurements for the current second.

    The hot loop only extends one flat list with ``(op, status, t0_ns, t1_ns, due_ns)`` — one
    call per operation (measured: ~60 ns, against ~400 ns for per-op histogram and counter
    updates); :meth:`drain` does the bookkeeping with numpy once a second. ``due_ns`` is the
    intended start (= t0 without a target rate). Op codes ≥ :data:`COMPONENT` are the halves of
    a read-modify-write: measured and status-counted as READ/UPDATE, not counted as operations.
    """

    def __init__(self) -> None:
        self.log: list[int] = []
        self.cpu_mark = time.process_time()

    def drain(self, measurement: str) -> dict:
        """The second's data, picklable: ``{"count", "hist": {name: encoded}, "returns": {op: {status: n}}}``.

        ``measurement`` is YCSB's ``measurement.interval``: ``op`` keeps actual latencies,
        ``intended`` records intended latencies under the operation's own name, ``both`` keeps
        actual ones and adds ``Intended-<OP>``.
        """
        log = self.log
        a = np.array(log, dtype=np.int64).reshape(-1, _FIELDS)
        log.clear()  # in place: the clients hold a bound ``extend`` of this list
        ops, sts = a[:, 0], a[:, 1]
        lat = (a[:, 3] - a[:, 2]) // 1000
        parts: dict[str, list[np.ndarray]] = {}
        returns: dict[str, dict[str, int]] = {}
        prefix = "" if measurement == "intended" else "Intended-"
        for code in np.unique(ops).tolist():
            m = ops == code
            op = code % COMPONENT
            name = OP_NAMES[op]
            st = sts[m]
            # As YCSB's DBWrapper: <OP> when OK, <OP>-FAILED otherwise; a read-modify-write is
            # timed whole by the workload, whatever its halves returned.
            ok = np.ones(st.shape, dtype=bool) if op in (READ_MODIFY_WRITE, VERIFY) else st == 0
            if measurement in ("op", "both"):
                la = lat[m]
                _collect(parts, name, la[ok])
                _collect(parts, f"{name}-FAILED", la[~ok])
            if measurement != "op":
                # end − intended start; both halves of a read-modify-write share the whole's start.
                intended = (a[m, 3] - a[m, 4]) // 1000
                _collect(parts, prefix + name, intended[ok])
                _collect(parts, f"{prefix}{name}-FAILED", intended[~ok])
            if op != READ_MODIFY_WRITE:  # YCSB reports RMW's statuses under READ and UPDATE
                counts = np.bincount(st, minlength=N_STATUS)
                r = returns.setdefault(name, {})
                for s_i, n in enumerate(counts.tolist()):
                    if n:
                        r[STATUSES[s_i]] = r.get(STATUSES[s_i], 0) + n
        hists = {name: _encode(values) for name, values in parts.items()}
        cpu, self.cpu_mark = self.cpu_mark, time.process_time()
        return {"count": int((ops < VERIFY).sum()), "hist": hists, "returns": returns, "cpu_s": self.cpu_mark - cpu}


def _collect(parts: dict[str, list[np.ndarray]], name: str, values: np.ndarray) -> None:
    """Keep ``values`` (µs) for ``name``: a READ and the READ half of an RMW share one histogram."""
    if values.size:
        parts.setdefault(name, []).append(values)


def _encode(values: list[np.ndarray]) -> str:
    h = hdr.new_histogram()
    hdr.record_many(h, np.concatenate(values))
    return hdr.encode(h)


@dataclass
class SecondAggregate:
    """Everything every worker measured in one second of the phase."""

    count: int = 0
    cpu_s: float = 0.0  # client CPU of all workers in this second
    hist: dict[str, object] = field(default_factory=dict)  # name -> HdrHistogram
    returns: dict[str, dict[str, int]] = field(default_factory=lambda: defaultdict(lambda: defaultdict(int)))
    reports: int = 0

    def add(self, part: dict) -> None:
        self.count += part["count"]
        self.cpu_s += part.get("cpu_s", 0.0)
        self.reports += 1
        for name, enc in part["hist"].items():
            h = hdr.decode(enc)
            if name in self.hist:
                self.hist[name].add(h)  # type: ignore[attr-defined]
            else:
                self.hist[name] = h
        for op, counts in part["returns"].items():
            for st, n in counts.items():
                self.returns[op][st] += n

    def errors(self) -> int:
        return sum(c.get("ERROR", 0) + c.get("TIMEOUT", 0) for c in self.returns.values())

    def p99_us(self) -> float:
        base = [h for n, h in self.hist.items() if not n.startswith("Intended-")]
        if not base:
            return float("nan")
        return float(hdr.percentiles_us(hdr.merge(base), [99.0])[99.0])  # type: ignore[arg-type]


def series_frame(seconds: dict[int, SecondAggregate], warmup_seconds: int) -> pd.DataFrame:
    """Per-second rows per measurement name, plus ``OVERALL`` (all operations, actual latency)."""
    import pandas as pd

    from ycsbctl.results.model import SERIES_COLUMNS
    rows = []
    for k in sorted(seconds):
        agg = seconds[k]
        overall = hdr.merge(h for n, h in agg.hist.items() if not n.startswith("Intended-"))  # type: ignore[misc]
        entries = [("OVERALL", overall, agg.count)] + [(n, h, h.get_total_count()) for n, h in sorted(agg.hist.items())]  # type: ignore[attr-defined]
        for name, h, ops in entries:
            n = h.get_total_count()
            pct = hdr.percentiles_us(h, (50.0, 95.0, 99.0)) if n else {}
            rows.append(
                {
                    "second": k,
                    "op": name,
                    "operations": int(ops),
                    "mean_us": hdr.mean_us(h),
                    "p50_us": float(pct.get(50.0, math.nan)),
                    "p95_us": float(pct.get(95.0, math.nan)),
                    "p99_us": float(pct.get(99.0, math.nan)),
                    "max_us": float(h.get_max_value()) if n else math.nan,
                    "warmup": k < warmup_seconds,
                }
            )
    return pd.DataFrame(rows, columns=list(SERIES_COLUMNS))


def summaries(seconds: dict[int, SecondAggregate], warmup_seconds: int) -> tuple[dict[str, OpSummary], int, float]:
    """Totals over the non-warm-up seconds: one :class:`OpSummary` per name, the operation count
    and the client CPU seconds."""
    from ycsbctl.results.model import OpSummary
    merged: dict[str, object] = {}
    returns: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    count = 0
    cpu_s = 0.0
    for k, agg in seconds.items():
        if k < warmup_seconds:
            continue
        count += agg.count
        cpu_s += agg.cpu_s
        for name, h in agg.hist.items():
            if name in merged:
                merged[name].add(h)  # type: ignore[attr-defined]
            else:
                merged[name] = hdr.merge([h])  # type: ignore[list-item]
        for op, counts in agg.returns.items():
            for st, n in counts.items():
                returns[op][st] += n
    out: dict[str, OpSummary] = {}
    names = list(merged) + [op for op in returns if op not in merged]
    order = {n: i for i, n in enumerate(OP_NAMES)}

    def sort_key(n: str) -> tuple:
        base = n.removeprefix("Intended-").removesuffix("-FAILED")
        return (order.get(base, 99), n.startswith("Intended-"), n.endswith("-FAILED"))

    for name in sorted(names, key=sort_key):
        h = merged.get(name) or hdr.new_histogram()
        out[name] = OpSummary.from_histogram(name, h, dict(returns.get(name, {})))  # type: ignore[arg-type]
    return out, count, cpu_s
