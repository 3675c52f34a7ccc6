"""What the user reads while a plan runs: notes, each point's start, and its one-line summary
(plus YCSB's own output block for a single point)."""

from __future__ import annotations

import sys
from pathlib import Path

from ycsbctl.plan import Plan
from ycsbctl.progress import Progress
from ycsbctl.results.client_lag import client_lag_warning, schedule_lag_warning
from ycsbctl.results.names import Operation
from ycsbctl.results.store import RunRecord

MAIN_OPERATIONS = (Operation.READ, Operation.INSERT, Operation.UPDATE, Operation.SCAN)  # the one whose p99 is said


def point_summary(record: RunRecord) -> str:
    """``12,345 ops/s, p99 1.20 ms (READ), 3 NOT_FOUND, server-cpu, ok — why`` (+ client/schedule-lag lines)."""
    r = record.result
    if r is None or not r.operations:
        return f"{record.status}: {record.error}"
    main = next((s for n, s in r.ops.items() if n in MAIN_OPERATIONS), None)
    p99 = f", p99 {main.percentile(99) / 1000:.2f} ms ({main.name})" if main and main.operations else ""
    bn = f", {record.bottleneck['label']}" if record.bottleneck else ""
    counts = "".join(f", {n:,} {st}" for st in ("NOT_FOUND", "ERROR", "TIMEOUT") if (n := r.returns(st)))
    err = f" — {record.error}" if record.error else ""
    notes = "".join(f"\n  {w}" for w in (client_lag_warning(r), schedule_lag_warning(r)) if w)
    return f"{r.throughput_ops:,.0f} ops/s{p99}{counts}{bn}, {record.status}{err}{notes}"


class Console:
    """The progress display plus, for a single point, YCSB's output block on stdout (or in
    ``exportfile``, with the plan's exporter and percentiles)."""

    def __init__(self, progress: Progress, print_ycsb: bool = False, plan: Plan | None = None) -> None:
        self.progress = progress
        self.print_ycsb = print_ycsb
        self.plan = plan

    def note(self, message: str) -> None:
        self.progress.note(message)

    def start_point(self, label: str) -> None:
        self.progress.start_point(label)

    def point_done(self, record: RunRecord) -> None:
        self.progress.end_point(point_summary(record))
        r = record.result
        if self.print_ycsb and r is not None and r.runtime_ms > 0:  # nothing measured: the summary says why
            from ycsbctl.results.ycsb_text import export_block

            plan = self.plan
            percentiles = tuple(plan.percentiles) if plan is not None and plan.percentiles else None
            text = export_block(r, plan.exporter if plan is not None else "text", percentiles)
            if plan is not None and plan.exportfile:
                Path(plan.exportfile).expanduser().write_text(text)
            else:
                sys.stdout.write(text)
                sys.stdout.flush()

    def close(self) -> None:
        self.progress.close()
