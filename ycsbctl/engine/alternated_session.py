"""The controller's side of an alternated session (:mod:`ycsbctl.engine.alternation`): the workers' slice reports
kept as they came (sparse) and merged exactly (HDR counts add) once the session is over, into one aggregate per
slice, and one :class:`PhaseResult` per target. A report costs the controller (on the clients' CPU) an append and
a count while the session runs; the progress line merges a second's slices once a second.

Each target's result holds its own slices only: ``ops`` and ``operations`` over its non-warm-up slices (a slice is
warm-up when it starts before ``warmup_s`` ends), ``runtime_ms`` their summed nominal length less their settle
windows (``Alternation.settle_s``: what started in one is counted apart, in the slices table only; cut at the
session's end when it stopped early) and less its *held* slices (:mod:`ycsbctl.results.held_slices`: another
target's late operations kept every client past their start, and no operation began in them; ``held`` and
``held_by`` in its slices table, the holder named by its ``Alternation.labels``), so ``throughput_ops`` is its
operations per second of its own slices that it could serve;
``client_cpu_s`` the workers' CPU during its slices (each slice carries the CPU from the previous slice's close to
its own); ``client_lag`` the same way; ``series`` one row per second per measurement from its slices that start in
that second (``operations`` counts its operations in those slices: about 1/n of the second's time, not a rate);
``slices`` one row per slice of it (:data:`SLICE_COLUMNS`). A target whose connection was lost for good is
``failed`` (its later slices idle); the others keep their status. A worker lost, or Ctrl-C, applies to all."""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ycsbctl.engine.aggregate import SecondAggregate, operations, series_frame, summaries
from ycsbctl.engine.alternation import schedule, slice_count, slice_edges
from ycsbctl.engine.collector import Collector
from ycsbctl.engine.messages import SecondCounts, SliceReport, TargetEnd
from ycsbctl.engine.spec import ERRORS_SHOWN, Tick
from ycsbctl.results import histogram as hdr
from ycsbctl.results.hdr_log import IntervalHistograms
from ycsbctl.results.held_slices import held_slices
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.names import SCHEDULE_LAG, RunStatus
from ycsbctl.results.slice_table import SLICE_COLUMNS  # PhaseResult.slices: s since the start, µs, s

if TYPE_CHECKING:
    from collections.abc import Callable

    import pandas as pd
    from hdrh.histogram import HdrHistogram

    from ycsbctl.engine.runner import PhaseRunner



@dataclass
class SliceAggregate:
    """One slice: every worker's report of it, as sent (:meth:`agg` adds them)."""

    target: int
    names: tuple[str, ...]  # the workload's measurement names by op code
    measurement: str  # measurement.interval (how the intended series are named)
    parts: list[SecondCounts] = field(default_factory=list)  # one per worker that reported it
    count: int = 0  # its operations, over the workers
    last_end_ns: int = 0  # the latest end of its operations over the workers (perf_counter ns; 0: none)
    settle_parts: list[SecondCounts] = field(default_factory=list)  # what started in its settle window
    _agg: SecondAggregate | None = field(default=None, repr=False)  # agg(), once made

    @property
    def reports(self) -> int:
        """Workers that reported it."""
        return len(self.parts)

    def take(self, msg: SliceReport) -> int:
        """Keep one worker's report of this slice; its operations."""
        if msg.settle:  # kept apart: in the slices table only
            self.settle_parts.append(msg.counts)
            return 0
        n = operations(msg.counts, self.names)
        self.parts.append(msg.counts)
        self.count += n
        self.last_end_ns = max(self.last_end_ns, msg.last_end_ns)
        self._agg = None
        return n

    def agg(self) -> SecondAggregate:
        """Every worker's part added (made once, when first asked)."""
        if self._agg is None:
            self._agg = added(self.parts, self.names, self.measurement)
        return self._agg

    def settle(self) -> SecondAggregate | None:
        """Its settle window's operations (Alternation.settle_s), or None without a window."""
        return added(self.settle_parts, self.names, self.measurement) if self.settle_parts else None


def added(parts: Iterable[SecondCounts], names: tuple[str, ...], measurement: str) -> SecondAggregate:
    """Workers' reports (of a slice, or of the slices of a second) added into one aggregate (HDR counts add)."""
    a = SecondAggregate(names=names)
    for part in parts:
        a.add(part, measurement)
    return a


@dataclass
class SessionShape:
    """The session's slices as the controller plans them (the workers compute the same)."""

    slice_s: float
    session_s: float  # warm-up included
    warmup_s: float
    order: list[int] = field(default_factory=list)
    settle_s: float = 0.0  # s at each slice's start counted apart (Alternation.settle_s)

    def edges(self, k: int) -> tuple[float, float]:
        return slice_edges(k, self.slice_s, self.session_s)

    def warmup(self, k: int) -> bool:
        return k * self.slice_s < self.warmup_s - 1e-9

    def settle(self, k: int) -> float:
        """Slice ``k``'s settle window (s): its first ``settle_s``, or all of it when cut shorter."""
        lo, hi = self.edges(k)
        return min(self.settle_s, hi - lo)

    def measured(self, k: int, stop_s: float | None = None) -> float:
        """Slice ``k``'s measured time (s): after its settle window, cut at ``stop_s`` (s since the start)."""
        lo, hi = self.edges(k)
        return max(0.0, min(hi, self.session_s if stop_s is None else stop_s) - lo - self.settle_s)


class AlternationCollector(Collector):
    """:class:`Collector` for an alternated session: slice reports in, per-slice and per-target-second aggregates
    out; progress once a second (over all targets) once every slice starting before that second's end is in."""

    def __init__(self, runner: PhaseRunner, progress: Callable[[Tick], None] | None) -> None:
        spec, alt = runner.spec, runner.spec.alternation
        assert alt is not None and spec.duration_s is not None
        super().__init__(runner.processes, spec.measurement, math.ceil(spec.warmup_s), progress, runner.names)
        session_s = spec.warmup_s + spec.duration_s
        n = slice_count(alt.slice_s, session_s)
        self.names = runner.names
        self.shape = SessionShape(alt.slice_s, session_s, spec.warmup_s, schedule(len(alt.urls), alt.seed, n),
                                  alt.settle_s)
        self.slices: dict[int, SliceAggregate] = {}
        self.covered: dict[int, float] = defaultdict(float)  # second -> length of the slices starting in it (s)
        self.complete = -1  # every slice up to this one is in from every live worker

    def on_slice(self, msg: SliceReport) -> None:
        """Keep the report (merged after the session: :meth:`target_seconds`, :func:`slice_frame`)."""
        s = self.slices.get(msg.slice)
        if s is None:
            s = self.slices[msg.slice] = SliceAggregate(msg.target, self.names, self.measurement)
        self.total_ops += s.take(msg)
        if msg.settle:
            return
        if s.reports == 1:
            self.covered[self.second_of(msg.slice)] += self.shape.measured(msg.slice)
        self._ticks()

    def second_of(self, k: int) -> int:
        """The second (since the session's start) slice ``k`` starts in."""
        return int(self.shape.edges(k)[0] + 1e-9)

    def target_seconds(self, target: int) -> dict[int, SecondAggregate]:
        """``target``'s reports added by the second its slices start in (its series)."""
        parts: dict[int, list[SecondCounts]] = defaultdict(list)
        for k in sorted(self.slices):
            if self.slices[k].target == target:
                parts[self.second_of(k)] += self.slices[k].parts
        return {second: added(p, self.names, self.measurement) for second, p in parts.items()}

    def _ticks(self) -> None:
        """Progress for every second whose slices are all in (one tick over every target's operations)."""
        live = self.workers - len(self.finals)
        while self.complete + 1 in self.slices and self.slices[self.complete + 1].reports >= live:
            self.complete += 1
        while self.progress is not None:
            s = self.emitted + 1
            if s >= self.shape.session_s:
                return
            first_after = min(len(self.shape.order), math.ceil((s + 1) / self.shape.slice_s - 1e-9))
            if self.complete < first_after - 1:
                return
            self.emitted = s
            if self.covered[s] > 0:
                mine = [self.slices[k] for k in range(math.ceil(s / self.shape.slice_s - 1e-9), first_after)
                        if k in self.slices]
                a = added((p for sl in mine for p in sl.parts), self.names, self.measurement)
                self.progress(Tick(s, self.total_ops, a.count / self.covered[s], a.p99_us(), a.errors(),
                                   s < self.warmup_seconds))


def slice_frame(c: AlternationCollector, target: int, t0: float) -> pd.DataFrame:
    """The :data:`SLICE_COLUMNS` rows of ``target``'s slices that were measured (reported), in order."""
    import pandas as pd

    rows = []
    for k in sorted(k for k, s in c.slices.items() if s.target == target):
        s = c.slices[k]
        lo, hi = c.shape.edges(k)
        agg, settle_agg = s.agg(), s.settle()
        h = _histogram(agg)
        pct = hdr.percentiles_us(h, (50.0, 99.0)) if h is not None else {}
        settle = _histogram(settle_agg) if settle_agg is not None else None
        rows.append({"slice": k, "t_start_s": lo, "t_end_s": hi, "warmup": c.shape.warmup(k),
                     "operations": int(agg.count), "errors": int(agg.errors()),
                     "mean_us": hdr.mean_us(h) if h is not None else math.nan,
                     "p50_us": float(pct.get(50.0, math.nan)), "p99_us": float(pct.get(99.0, math.nan)),
                     "switch_s": max(0.0, s.last_end_ns / 1e9 - t0 - hi) if s.last_end_ns else math.nan,
                     "settle_s": c.shape.settle(k),
                     "settle_operations": int(settle_agg.count) if settle_agg is not None else 0,
                     "settle_p99_us": hdr.percentiles_us(settle, (99.0,))[99.0] if settle is not None else math.nan,
                     "held": False, "held_by": None})  # set once every target's slices are in (alternated_results)
    return pd.DataFrame(rows, columns=list(SLICE_COLUMNS))


def _histogram(agg: SecondAggregate) -> HdrHistogram | None:
    """Every operation of ``agg`` in one histogram (µs), or None without one."""
    overall = agg.overall()
    h = hdr.from_counts(overall) if overall is not None else None
    return h if h is not None and h.get_total_count() else None


def target_status(c: AlternationCollector, parts: list[TargetEnd]) -> tuple[RunStatus, list[str], int]:
    """A target's status, errors (why clients stopped first) and client threads stopped, from the session's
    status and its part of each worker's :class:`Done`."""
    ended = [e for p in parts for e in p.ended]
    errors = list(dict.fromkeys(ended + [e for p in parts for e in p.errors]))
    late, stray = sum(p.late for p in parts), sum(p.stray for p in parts)
    if late or stray:
        errors.append(f"{late:,} late replies (after their operation timed out) and {stray:,} stray replies "
                      "(to nothing asked) were discarded")
    status = c.status
    if ended and status == "ok":
        status = "failed"
    if c.status == "failed":  # a worker lost: its reasons apply to every target
        errors += [e for f in c.finals.values() if not f.targets for e in f.errors if e not in errors]
    return RunStatus(status), errors[:ERRORS_SHOWN], len(ended)


def alternated_results(runner: PhaseRunner, c: AlternationCollector, t0: float) -> list[PhaseResult]:
    """One :class:`PhaseResult` per URL of the alternation (in its order) from what ``c`` collected, ``t0`` the
    session's start (perf_counter s)."""
    spec, alt = runner.spec, runner.spec.alternation
    assert alt is not None
    ends = [f.end_ns for f in c.finals.values() if f.end_ns]
    stop_s = (max(ends) / 1e9 - t0) if ends and t0 else c.shape.session_s
    frames = {t: slice_frame(c, t, t0) for t in range(len(alt.urls))}
    unique = len(set(alt.labels)) == len(alt.urls)  # labels name the holders (else their positions)
    names = alt.labels if unique else tuple(str(t) for t in range(len(alt.urls)))
    held = held_slices({names[t]: f for t, f in frames.items()})
    out = []
    for t, _url in enumerate(alt.urls):
        mine = [k for k, s in c.slices.items() if s.target == t and not c.shape.warmup(k)]
        totals = summaries({k: c.slices[k].agg() for k in mine}, 0, runner.names)
        holders = {h.slice: h.holder for h in held.get(names[t], [])}  # no client was free to start one in them
        frames[t]["held"] = frames[t]["slice"].isin(holders)
        frames[t]["held_by"] = frames[t]["slice"].map(holders).astype(object).where(frames[t]["held"], None)
        run_s = sum(c.shape.measured(k, stop_s) for k in mine if k not in holders)
        planned_s = sum(c.shape.measured(k) for k, o in enumerate(c.shape.order) if o == t and not c.shape.warmup(k))
        status, errors, stopped = target_status(c, [f.targets[t] for f in c.finals.values() if f.targets])
        seconds = c.target_seconds(t)
        out.append(PhaseResult(
            phase=spec.phase, threads=spec.threads, runtime_ms=1000.0 * run_s, operations=totals.operations,
            ops=totals.ops, series=series_frame(seconds, c.warmup_seconds), client_cpu_s=totals.cpu_s,
            warmup_s=float(spec.warmup_s), target_rate=None, status=status, errors=errors, engine="native",
            client_lag=totals.client_lag, schedule_lag=totals.own.get(SCHEDULE_LAG), processes=runner.processes,
            measurement=spec.measurement, t_start_mono=t0, threads_stopped=stopped,
            late_replies=sum(f.targets[t].late for f in c.finals.values() if f.targets),
            stray_replies=sum(f.targets[t].stray for f in c.finals.values() if f.targets),
            duration_s=planned_s, timeout_s=spec.timeout_s,
            intervals=IntervalHistograms.from_counts(
                {k: a.counts for k, a in seconds.items()}, c.warmup_seconds,
                start_epoch_s=time.time() - (time.perf_counter() - t0), end_s=stop_s) if t0 else None,
            slices=frames[t]))
    return out
