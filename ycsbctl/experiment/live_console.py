"""What the user reads while a plan runs: notes, each point's start, and its one-line summary
(plus YCSB's own output block for a single point, as YCSB's ``exporter`` writes it)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from ycsbctl.experiment.progress import PointLength, Progress
from ycsbctl.experiment.study import Study
from ycsbctl.results.client_lag import client_lag_warning, schedule_lag_warning
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.names import main_operation


@dataclass(frozen=True)
class RecordUnits:
    """A workload whose operations store several records each: its unit (``users``) and how many one OK
    operation of each kind stores (online-status's BATCH-STORE: ``online.batchsize``)."""

    unit: str
    per_op: dict[str, int]


def point_summary(record: RunRecord, units: RecordUnits | None = None) -> str:
    """``12,345 ops/s, p99 1.20 ms (READ), 3 NOT_FOUND, server-cpu, ok — why`` (+ client-lag lines); with
    ``units``, the records stored per second beside the operations: ``79 ops/s (790 users/s)``."""
    r = record.result
    if r is None or not r.operations:
        return f"{record.status}: {record.error or 'stopped before any operation was measured'}"
    if r.cut_short:
        return f"{record.status} — {record.error or 'its clients stopped'}; {_measured_before(r)}"
    # only a point that ran an operation storing records says how many (a GET-BY-ID point's "0 items/s" misled)
    stores = units is not None and any(n in units.per_op for n in r.ops)
    stored = r.records_per_s(units.per_op) if units is not None and stores else float("nan")
    rate = f"{r.throughput_ops:,.0f} ops/s" + (f" ({stored:,.0f} {units.unit}/s)" if units and stored == stored else "")
    name = main_operation({n: s.operations for n, s in r.ops.items()})  # the report's peak sentence names the same
    main = r.ops[name] if name is not None else None
    p99 = f", p99 {main.percentile(99) / 1000:.2f} ms ({main.name})" if main else ""
    bn = f", {record.bottleneck['label']}" if record.bottleneck else ""
    counts = "".join(f", {n:,} {st}" for st in ("NOT_FOUND", "ERROR", "TIMEOUT") if (n := r.returns(st)))
    err = f" — {record.error}" if record.error else ""
    why = (record.bottleneck or {}).get("why")
    in_client = not (record.endpoint or {}).get("has_server", True)  # the store said it has no server: SQLite
    notes = "".join(f"\n  {w}" for w in (f"why: {why}" if why else None, client_lag_warning(r, in_client),
                                         schedule_lag_warning(r)) if w)
    return f"{rate}{p99}{counts}{bn}, {record.status}{err}{notes}"


def _measured_before(r: PhaseResult) -> str:
    """What a point cut short measured, without a rate: ``stopped 1.4 s into the 4 s window after 18,779
    operations (2 ERROR); no rate for a point cut short`` (clients that gave up only after the window's end, waiting
    on a dying server: ``its clients stopped 6.0 s after the 5 s window ended (waiting on the server) after …``)."""
    window = f"the {r.duration_s:g} s window" if r.duration_s else "its window"
    counts = ", ".join(f"{n:,} {st}" for st in ("NOT_FOUND", "ERROR", "TIMEOUT") if (n := r.returns(st)))
    ran = r.runtime_ms / 1000
    # clients that waited on a dying server past the window's end (a reconnect's timeout): never "11 s into 5 s"
    when = (f"its clients stopped {ran - r.duration_s:.1f} s after {window} ended (waiting on the server)"
            if r.duration_s and ran > r.duration_s + 0.5 else f"stopped {ran:.1f} s into {window}")
    return (f"{when} after {r.operations:,} "
            f"operation{'' if r.operations == 1 else 's'}"
            f"{f' ({counts})' if counts else ''}; no rate for a point cut short")


@dataclass(frozen=True)
class YcsbBlock:
    """How a single point's final block is printed: YCSB's ``exporter`` (text, json, jsonarray), its
    ``hdrhistogram.percentiles`` (None: YCSB's), and ``exportfile`` (None: stdout)."""

    exporter: str = "text"
    percentiles: tuple[float, ...] | None = None
    exportfile: str | None = None

    @classmethod
    def of(cls, study: Study) -> YcsbBlock:
        """The block ``study``'s plan asks for (``-p exporter``, ``hdrhistogram.percentiles``, ``exportfile``)."""
        plan = study.plan
        return cls(plan.exporter, tuple(plan.percentiles) if plan.percentiles else None, plan.exportfile)

    def write(self, result: PhaseResult) -> None:
        from ycsbctl.results.ycsb_format import export_block

        text = export_block(result, self.exporter, self.percentiles)
        if self.exportfile:
            Path(self.exportfile).expanduser().write_text(text)
        else:
            sys.stdout.write(text)
            sys.stdout.flush()


class Console:
    """The progress display plus, for a single point, YCSB's output block (``ycsb_block``)."""

    def __init__(self, progress: Progress, ycsb_block: YcsbBlock | None = None) -> None:
        self.progress = progress
        self.ycsb_block = ycsb_block

    def note(self, message: str) -> None:
        self.progress.note(message)

    def waiting(self, what: str) -> None:
        """A live line, between points, of what the plan waits for (:meth:`Progress.waiting`)."""
        self.progress.waiting(what)

    def start_point(self, label: str, length: PointLength | None = None) -> None:
        self.progress.start_point(label, length)

    def point_done(self, record: RunRecord, units: RecordUnits | None = None) -> None:
        self.progress.end_point(point_summary(record, units))
        r = record.result
        if self.ycsb_block is not None and r is not None and r.runtime_ms > 0:  # nothing measured: the summary says why
            self.ycsb_block.write(r)

    def close(self) -> None:
        self.progress.close()
