"""The data model every engine (native or Java YCSB) produces and every report reads.

Latencies are in µs, throughput in ops/s, times in ms or s as the field name says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import pandas as pd
from hdrh.histogram import HdrHistogram

from ycsbctl.results import histogram as hdr
from ycsbctl.results.fine import FineSeries
from ycsbctl.results.hdr_log import IntervalHistograms
from ycsbctl.results.names import ALL_OPS, CLIENT_LAG, SCHEDULE_LAG, RunStatus, is_base_operation

__all__ = ["SERIES_COLUMNS", "SUMMARY_PERCENTILES", "OpSummary", "PhaseResult", "YcsbFacts"]

# Percentiles kept in summaries (µs); YCSB master prints 50/95/99, we add 99.9 and 99.99.
SUMMARY_PERCENTILES = (50.0, 95.0, 99.0, 99.9, 99.99)

# Columns of the per-second series (one row per run, second and measurement name).
# ``timeouts``: operations of the row that ended in TIMEOUT in that second (the series of the engine;
# NaN where unknown: YCSB's status lines and folders written before it existed).
SERIES_COLUMNS = ("second", "op", "operations", "mean_us", "p50_us", "p95_us", "p99_us", "max_us", "warmup",
                  "timeouts")


@dataclass
class OpSummary:
    """One measurement series (``READ``, ``READ-FAILED``, ``Intended-READ``…).

    ``returns`` counts statuses (``{"OK": 503, "NOT_FOUND": 2}``) and is filled on the
    base operation only, as YCSB prints ``[READ], Return=NOT_FOUND, 2`` under READ.
    ``histogram`` is None for results imported from text without one.
    """

    name: str
    operations: int
    mean_us: float
    min_us: float
    max_us: float
    percentiles_us: dict[float, float] = field(default_factory=dict)
    returns: dict[str, int] = field(default_factory=dict)
    histogram: HdrHistogram | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_histogram(cls, name: str, hist: HdrHistogram, returns: dict[str, int] | None = None) -> OpSummary:
        """Summary of a latency histogram (µs)."""
        n = hist.get_total_count()
        return cls(
            name=name,
            operations=int(n),
            mean_us=hdr.mean_us(hist),
            min_us=float(hist.get_min_value()) if n else float("nan"),
            max_us=float(hist.get_max_value()) if n else float("nan"),
            percentiles_us={p: float(v) for p, v in hdr.percentiles_us(hist, SUMMARY_PERCENTILES).items()},
            returns=dict(returns or {}),
            histogram=hist,
        )

    def percentile(self, p: float) -> float:
        """Latency (µs) at percentile ``p``, from the histogram when there is one."""
        if self.histogram is not None and self.histogram.get_total_count():
            return float(hdr.percentiles_us(self.histogram, [p])[p])
        return float(self.percentiles_us.get(float(p), float("nan")))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("histogram")
        d["percentiles_us"] = {str(k): v for k, v in self.percentiles_us.items()}
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], hist: HdrHistogram | None = None) -> OpSummary:
        d = dict(d)
        d["percentiles_us"] = {float(k): v for k, v in d.get("percentiles_us", {}).items()}
        return cls(histogram=hist, **d)


@dataclass
class YcsbFacts:
    """What the real YCSB (``--engine ycsb``, or an imported log) said besides its measurements."""

    text: str = ""  # its raw output (stderr, then stdout); empty for an imported log
    command: list[str] = field(default_factory=list)  # the command ycsbctl ran
    home: str | None = None  # the YCSB install it ran from
    exit_code: int | None = None
    version: str | None = None  # as YCSB printed it (``YCSB Client 0.17.0``)
    percentiles: list[float] = field(default_factory=list)  # the percentile lines it printed, in order
    gc: dict[str, dict[str, float]] = field(default_factory=dict)  # [TOTAL_GC…] blocks
    jvm: dict[str, dict[str, float]] = field(default_factory=dict)  # other non-operation blocks
    measurementtype: str | None = None
    latency_variance_us: dict[str, float] = field(default_factory=dict)  # per operation
    points: dict[str, list[list[Any]]] = field(default_factory=dict)  # per operation: [bucket/time, value] lines
    unknown: list[str] = field(default_factory=list)  # lines of an operation block not understood
    warmup_not_excluded_s: float | None = None  # YCSB has no warm-up: its totals include these seconds

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> YcsbFacts:
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})

    @classmethod
    def from_extra(cls, extra: dict[str, Any]) -> YcsbFacts | None:
        """The ``extra`` dict of a result written before the schema (``ycsb_text``, ``gc`` …)."""
        keys = {"ycsb_text": "text", "ycsb_command": "command", "ycsb_home": "home", "ycsb_exit_code": "exit_code",
                "ycsb_version": "version", "ycsb_percentiles": "percentiles", "gc": "gc", "ycsb_jvm": "jvm",
                "ycsb_measurementtype": "measurementtype", "latency_variance_us": "latency_variance_us",
                "ycsb_points": "points", "ycsb_unknown": "unknown", "warmup_not_excluded_s": "warmup_not_excluded_s"}
        found = {new: extra[old] for old, new in keys.items() if extra.get(old) is not None}
        return cls(**found) if found else None


def cut_short(status: str | None) -> bool:
    """Whether the engine's status of a phase (``PhaseResult.status``, or its JSON's) says its clients stopped
    before the window's end: ``failed``."""
    return status == RunStatus.FAILED


@dataclass
class PhaseResult:
    """What one engine run of one phase produced (YCSB's final block, and more).

    ``runtime_ms`` and ``operations`` exclude the warm-up; ``operations`` counts every
    operation issued, failed ones included, as YCSB's ``[OVERALL]`` does.
    ``series`` has :data:`SERIES_COLUMNS` (warm-up seconds included, flagged).
    """

    phase: str  # "load" | "run"
    threads: int
    runtime_ms: float
    operations: int
    ops: dict[str, OpSummary] = field(default_factory=dict)
    series: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=list(SERIES_COLUMNS)), repr=False)
    client_cpu_s: float = float("nan")
    warmup_s: float = 0.0
    target_rate: float | None = None
    status: RunStatus = RunStatus.OK  # OK, FAILED or INTERRUPTED: judging the point comes later
    errors: list[str] = field(default_factory=list)  # first error messages, for the report
    engine: str = "native"  # "native" | "ycsb"
    client_lag: OpSummary | None = None  # the engine's own event-loop lag (µs), native engine only
    schedule_lag: OpSummary | None = None  # paced runs: how late the client started operations (µs), native only
    # How the engine ran it (None when it does not say, e.g. a result imported from YCSB text):
    processes: int | None = None  # engine worker processes
    measurement: str | None = None  # measurement.interval: op, intended or both
    t_start_mono: float | None = None  # time.monotonic() (s) when the operations began; aligns telemetry
    duration_s: float | None = None  # the planned seconds after the warm-up (None: an operation count)
    timeout_s: float | None = None  # per-operation timeout
    threads_stopped: int = 0  # client threads that ended early (connection lost, load incomplete)
    late_replies: int = 0  # replies that came after their operation had timed out (counted, not dropped)
    stray_replies: int = 0  # replies to nothing asked (e.g. a refusal a server sends as it closes)
    # what the bindings counted besides operations (Redis Cluster: ``redirections`` = ``moved`` + ``ask``)
    binding_counts: dict[str, int] | None = None
    cluster: dict[str, Any] | None = None  # --cluster: shards, their hosts and CPU, the start skew
    ycsb: YcsbFacts | None = None  # what the real YCSB said, with --engine ycsb or an imported log
    # each measured second's histograms, for the HdrHistogram interval logs (native engine; not in to_dict)
    intervals: IntervalHistograms | None = field(default=None, repr=False, compare=False)
    # the 100 ms series of a point with disturbances (native engine; stored as series_100ms, not in to_dict)
    fine: FineSeries | None = field(default=None, repr=False, compare=False)
    # an alternated session's slices of this target (ycsbctl.results.slice_table: stored as slices.parquet, not in
    # to_dict); None when the targets were measured apart
    slices: pd.DataFrame | None = field(default=None, repr=False, compare=False)

    def own_measures(self) -> dict[str, OpSummary]:
        """The engine's measures of itself that this result holds (CLIENT-LAG, SCHEDULE-LAG), by name."""
        mine = {CLIENT_LAG: self.client_lag, SCHEDULE_LAG: self.schedule_lag}
        return {name: m for name, m in mine.items() if m is not None}

    @property
    def cut_short(self) -> bool:
        """Its clients stopped before the window's end (a lost server, a worker gone): the operations it
        measured are kept, but their rate over the part measured is not the point's rate."""
        return cut_short(self.status)

    @property
    def throughput_ops(self) -> float:
        """YCSB's ``[OVERALL], Throughput(ops/sec)``: 1000 · operations / RunTime(ms)."""
        return 1000.0 * self.operations / self.runtime_ms if self.runtime_ms > 0 else float("nan")

    def returns(self, status: str) -> int:
        """Total operations with the given status over all base operations."""
        return sum(s.returns.get(status, 0) for s in self.ops.values())

    @property
    def failed_operations(self) -> int:
        """Operations that did not return OK (NOT_FOUND included, as YCSB counts it a failure)."""
        return sum(n for s in self.ops.values() for st, n in s.returns.items() if st != "OK")

    @property
    def error_rate(self) -> float:
        """Share of operations that ended in ERROR or TIMEOUT (NOT_FOUND is not an error)."""
        bad = self.returns("ERROR") + self.returns("TIMEOUT")
        return bad / self.operations if self.operations else 0.0

    def records_per_s(self, per_op: Mapping[str, int]) -> float:
        """Records (users, …) stored per second of the measured window where an operation stores several
        (``per_op``: records one OK operation of each kind stores): :func:`records_per_second`."""
        return records_per_second({n: s.returns.get("OK", 0) for n, s in self.ops.items()}, per_op,
                                  self.runtime_ms / 1000)

    def client_us_per_op(self) -> float:
        """Client CPU µs spent per operation (all engine processes)."""
        return 1e6 * self.client_cpu_s / self.operations if self.operations else float("nan")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready summary (histograms and series are stored beside it)."""
        return {
            "phase": self.phase,
            "threads": self.threads,
            "runtime_ms": self.runtime_ms,
            "operations": self.operations,
            "throughput_ops": self.throughput_ops,
            "client_cpu_s": self.client_cpu_s,
            "warmup_s": self.warmup_s,
            "target_rate": self.target_rate,
            "status": str(self.status),
            "errors": self.errors,
            "engine": self.engine,
            "processes": self.processes,
            "measurement": self.measurement,
            "t_start_mono": self.t_start_mono,
            "duration_s": self.duration_s,
            "timeout_s": self.timeout_s,
            "threads_stopped": self.threads_stopped,
            "cluster": self.cluster,
            "late_replies": self.late_replies,
            "stray_replies": self.stray_replies,
            "binding_counts": self.binding_counts,
            "ycsb": self.ycsb.to_dict() if self.ycsb is not None else None,
            "ops": {k: v.to_dict() for k, v in self.ops.items()},
            "client_lag": self.client_lag.to_dict() if self.client_lag is not None else None,
            "schedule_lag": self.schedule_lag.to_dict() if self.schedule_lag is not None else None,
        }

    @staticmethod
    def doc_fact(d: dict[str, Any] | None, name: str) -> Any:
        """One engine fact (``t_start_mono``, ``processes`` …) of a stored result, this version's or an
        older one's (which kept them in an ``extra`` dict); None when it is not there."""
        if not d:
            return None
        return d[name] if name in d else (d.get("extra") or {}).get(name)

    @classmethod
    def from_dict(
        cls,
        d: dict[str, Any],
        histograms: dict[str, HdrHistogram] | None = None,
        series: pd.DataFrame | None = None,
    ) -> PhaseResult:
        histograms = histograms or {}
        ops = {k: OpSummary.from_dict(v, histograms.get(k)) for k, v in d.get("ops", {}).items()}
        facts = {k: cls.doc_fact(d, k) for k in
                 ("processes", "measurement", "t_start_mono", "duration_s", "timeout_s", "threads_stopped",
                  "late_replies", "stray_replies", "cluster", "binding_counts")}
        ycsb = YcsbFacts.from_dict(d["ycsb"]) if d.get("ycsb") else YcsbFacts.from_extra(d.get("extra") or {})
        r = cls(
            phase=d["phase"],
            threads=int(d["threads"]),
            runtime_ms=float(d["runtime_ms"]),
            operations=int(d["operations"]),
            ops=ops,
            client_cpu_s=float(d.get("client_cpu_s", float("nan"))),
            warmup_s=float(d.get("warmup_s", 0.0)),
            target_rate=d.get("target_rate"),
            status=RunStatus(d.get("status", "ok")),
            errors=list(d.get("errors", [])),
            engine=d.get("engine", "native"),
            processes=facts["processes"],
            measurement=facts["measurement"],
            t_start_mono=facts["t_start_mono"],
            duration_s=facts["duration_s"],
            timeout_s=facts["timeout_s"],
            threads_stopped=int(facts["threads_stopped"] or 0),
            late_replies=int(facts["late_replies"] or 0),
            stray_replies=int(facts["stray_replies"] or 0),
            cluster=facts["cluster"],
            binding_counts=facts["binding_counts"],
            ycsb=ycsb,
            client_lag=OpSummary.from_dict(d["client_lag"],
                                           histograms.get(CLIENT_LAG)) if d.get("client_lag") else None,
            schedule_lag=(OpSummary.from_dict(d["schedule_lag"], histograms.get(SCHEDULE_LAG))
                          if d.get("schedule_lag") else None),
        )
        if series is not None:
            r.series = series
        return r


def overall_summary(result: PhaseResult) -> OpSummary | None:
    """Latency over every database operation (µs): READ, UPDATE, INSERT, SCAN, DELETE merged exactly."""
    base = [s for n, s in result.ops.items() if is_base_operation(n) and s.operations]
    if not base:
        return None
    total = sum(s.operations for s in base)
    # The mean of a merged histogram is the count-weighted mean of its parts.
    mean = sum(s.mean_us * s.operations for s in base) / total
    lo, hi = min(s.min_us for s in base), max(s.max_us for s in base)
    hists = [s.histogram for s in base if s.histogram is not None]
    if len(hists) == len(base):
        merged = hdr.merge(hists)
        pct = {p: float(v) for p, v in hdr.percentiles_us(merged, SUMMARY_PERCENTILES).items()}
        return OpSummary(ALL_OPS, total, mean, lo, hi, pct)
    main = max(base, key=lambda s: s.operations)  # no histograms (imported text): the main operation stands in
    return OpSummary(ALL_OPS, total, mean, lo, hi, dict(main.percentiles_us))


def records_per_second(ok: Mapping[str, float], per_op: Mapping[str, int], runtime_s: float) -> float:
    """Records stored per second: each operation kind's OK count × the records one such operation stores,
    over ``runtime_s``; NaN without ``per_op`` or a runtime (the console and the report both say it so)."""
    if not per_op or not runtime_s > 0:
        return float("nan")
    return sum(float(n) * per_op.get(op, 0) for op, n in ok.items()) / runtime_s
