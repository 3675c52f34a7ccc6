"""What the user reads while a plan runs: notes, each point's start, and its one-line summary
(plus YCSB's own output block for a single point, as YCSB's ``exporter`` writes it)."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.progress import Progress
from ycsbctl.results.client_lag import client_lag_warning, schedule_lag_warning
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.names import Operation
from ycsbctl.results.store import RunRecord

MAIN_OPERATIONS = (Operation.READ, Operation.INSERT, Operation.UPDATE, Operation.SCAN)  # the one whose p99 is said


def point_summary(record: RunRecord) -> str:
    """``12,345 ops/s, p99 1.20 ms (READ), 3 NOT_FOUND, server-cpu, ok — why`` (+ client-lag lines)."""
    r = record.result
    if r is None or not r.operations:
        return f"{record.status}: {record.error or 'stopped before any operation was measured'}"
    main = next((s for n, s in r.ops.items() if n in MAIN_OPERATIONS), None)
    p99 = f", p99 {main.percentile(99) / 1000:.2f} ms ({main.name})" if main and main.operations else ""
    bn = f", {record.bottleneck['label']}" if record.bottleneck else ""
    counts = "".join(f", {n:,} {st}" for st in ("NOT_FOUND", "ERROR", "TIMEOUT") if (n := r.returns(st)))
    err = f" — {record.error}" if record.error else ""
    notes = "".join(f"\n  {w}" for w in (client_lag_warning(r), schedule_lag_warning(r)) if w)
    return f"{r.throughput_ops:,.0f} ops/s{p99}{counts}{bn}, {record.status}{err}{notes}"


@dataclass(frozen=True)
class YcsbBlock:
    """How a single point's final block is printed: YCSB's ``exporter`` (text, json, jsonarray), its
    ``hdrhistogram.percentiles`` (None: YCSB's), and ``exportfile`` (None: stdout)."""

    exporter: str = "text"
    percentiles: tuple[float, ...] | None = None
    exportfile: str | None = None

    @classmethod
    def of(cls, plan: Plan) -> YcsbBlock:
        return cls(plan.exporter, tuple(plan.percentiles) if plan.percentiles else None, plan.exportfile)

    def write(self, result: PhaseResult) -> None:
        from ycsbctl.results.ycsb_text import export_block

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

    def start_point(self, label: str) -> None:
        self.progress.start_point(label)

    def point_done(self, record: RunRecord) -> None:
        self.progress.end_point(point_summary(record))
        r = record.result
        if self.ycsb_block is not None and r is not None and r.runtime_ms > 0:  # nothing measured: the summary says why
            self.ycsb_block.write(r)

    def close(self) -> None:
        self.progress.close()
