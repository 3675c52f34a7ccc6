"""``--format json``: the points a command measured as one :class:`~ycsbctl.results.schema.RunSummary`
document (latencies in µs, throughput in ops/s; a number not measured is ``null``, never NaN)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from ycsbctl.results.documents import to_doc
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.model import OpSummary
from ycsbctl.results.schema import LatencySummary, PointSummary, RunSummary, SkippedTarget

PERCENTILES = {"p50_us": 50.0, "p95_us": 95.0, "p99_us": 99.0, "p999_us": 99.9}


def _number(v: float | None) -> float | None:
    return None if v is None or not math.isfinite(v) else float(v)


def latency_summary(s: OpSummary) -> LatencySummary:
    """One measurement's count, mean, p50/p95/p99/p99.9 and max (µs, from its histogram when it has one)."""
    measured = s.operations > 0
    pcts = {k: _number(s.percentile(p)) if measured else None for k, p in PERCENTILES.items()}
    return LatencySummary(operations=int(s.operations), mean_us=_number(s.mean_us) if measured else None,
                          max_us=_number(s.max_us) if measured else None, returns=dict(s.returns), **pcts)


EVIDENCE_KEYS = ("server", "server_threads", "client", "client_threads", "wire", "host", "throughput_ops",
                 "server_cpu_pct", "server_cores", "client_cpu_pct", "client_cores", "host_cores", "server_events")


def point_evidence(bottleneck: dict | None) -> dict[str, Any] | None:
    """The evidence behind a point's why line (JSON-safe: NaN as null), or None."""
    ev = (bottleneck or {}).get("evidence") or {}
    kept = {k: ev[k] for k in EVIDENCE_KEYS if ev.get(k) is not None}
    return json.loads(json.dumps(kept, default=_plain).replace("NaN", "null")) if kept else None


def point_summary(record: RunRecord) -> PointSummary:
    """A point's record as its JSON summary."""
    r = record.result
    point = PointSummary(
        run_id=record.run_id, target=record.target, workload=record.workload, phase=record.phase,
        threads=int(record.threads), repetition=int(record.repetition), status=str(record.status),
        bottleneck=(record.bottleneck or {}).get("label"), why=(record.bottleneck or {}).get("why"),
        evidence=point_evidence(record.bottleneck), error=record.error)
    if record.events is not None:
        point.events = [{k: _plain(v) for k, v in row.items()} for row in record.events.to_dict("records")]
    if r is None:
        return point
    point.target_rate_ops = _number(r.target_rate)
    point.throughput_ops = _number(r.throughput_ops)
    point.runtime_ms = _number(r.runtime_ms)
    point.operations = int(r.operations)
    point.ops = {name: latency_summary(s) for name, s in r.ops.items()}
    point.client_lag = latency_summary(r.client_lag) if r.client_lag is not None else None
    point.schedule_lag = latency_summary(r.schedule_lag) if r.schedule_lag is not None else None
    return point


def _plain(v: Any) -> Any:
    """A table cell as JSON: numbers as int/float (NaN: null), text as it is."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        return float(v) if math.isfinite(v) else None
    return str(v)


def run_summary(experiment_id: str, folder: Path | None, records: Iterable[RunRecord], exit_code: int,
                skipped: Iterable[SkippedTarget] = ()) -> RunSummary:
    """The document ``--format json`` prints for one command."""
    verdicts: list[dict] = []
    if folder is not None and (Path(folder) / "verdicts.parquet").exists():
        import pandas as pd

        table = pd.read_parquet(Path(folder) / "verdicts.parquet")
        verdicts = [{k: _plain(v) for k, v in row.items()} for row in table.to_dict("records")]
    return RunSummary(experiment_id=experiment_id, folder=str(folder) if folder is not None else None,
                      exit_code=exit_code, points=[point_summary(r) for r in records], skipped_targets=list(skipped),
                      verdicts=verdicts)


def to_json(summary: RunSummary) -> str:
    """Strict JSON (no NaN), one document, ending in a newline."""
    return json.dumps(to_doc(summary), indent=2, allow_nan=False) + "\n"
