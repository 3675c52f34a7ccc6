"""One measured point: an engine run wrapped in telemetry, and the load that precedes a sweep."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pandas as pd

from ycsbctl.engine.contract import Engine, NativeEngine
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.errors import UserError, first_line
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.progress import Progress
from ycsbctl.provision.base import Endpoint
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.schema import TelemetrySummary
from ycsbctl.stores.admin import clear_dataset
from ycsbctl.workload.plugin import load_workload
from ycsbctl.workload.properties import Properties

T = TypeVar("T")


@dataclass
class PointOutcome:
    """An engine result with what telemetry saw around it."""

    result: PhaseResult | None
    telemetry: pd.DataFrame | None = None
    telemetry_summary: TelemetrySummary = field(default_factory=TelemetrySummary)
    bottleneck: dict[str, Any] | None = None
    footprint: dict[str, Any] | None = None
    error: str | None = None
    events: pd.DataFrame | None = None  # the disturbances' events table (ycsbctl.results.events)


def make_spec(ep: Endpoint, props: dict[str, str], phase: str, threads: int, plan: Plan,
              rate: float | None = None) -> PhaseSpec:
    """The engine's instructions for one point of ``plan`` (``rate``: its offered ops/s; None: unpaced)."""
    rate = rate if phase == "run" else None
    measurement = props.get("measurement.interval") or ("both" if rate else "op")
    return PhaseSpec(
        phase=phase,
        url=ep.url,
        properties=dict(props),
        threads=threads,
        duration_s=plan.point_duration_s if phase == "run" else None,
        target_rate=rate,
        warmup_s=plan.point_warmup_s if phase == "run" else 0.0,
        timeout_s=plan.timeout_s,
        processes=plan.processes,
        seed=plan.seed,
        measurement=measurement,
        series_interval_ms=100 if plan.disturb and phase == "run" else 1000,
    )


def engine_for(plan: Plan) -> Engine:
    """The engine the plan names: the real YCSB (``--engine ycsb``), ycsbctl's over a Dask cluster
    (``--cluster``), or ycsbctl's own on this host."""
    if plan.engine == "ycsb":
        from ycsbctl.engine.ycsb_java import YcsbEngine

        return YcsbEngine(plan.ycsb_home)
    if plan.cluster:
        from ycsbctl.engine.cluster import ClusterEngine

        return ClusterEngine(plan.cluster)
    return NativeEngine()


def measure(ep: Endpoint, spec: PhaseSpec, plan: Plan, progress: Progress | None, baseline: Any = None,
            engine: Engine | None = None) -> PointOutcome:
    """Run the engine once, sampling server, client, DB and network at 1 Hz when asked
    (``baseline``: the target's iperf3 :class:`~ycsbctl.telemetry.NetworkBaseline`), with the plan's
    disturbances around a run-phase point (:mod:`ycsbctl.experiment.disturb`)."""
    runner = (engine or engine_for(plan)).prepare(spec)
    if not (plan.disturb and spec.phase == "run"):
        return _measure(ep, runner, plan, progress, baseline)
    from ycsbctl.experiment.disturb import PointDisturbances

    assert spec.duration_s is not None  # the plan refuses --disturb without a duration
    disturbances = PointDisturbances(plan.disturb, ep.url, spec.warmup_s, spec.duration_s,
                                     progress.note if progress is not None else None)
    out: PointOutcome | None = None
    try:
        disturbances.build()
        disturbances.start(runner)
        out = _measure(ep, runner, plan, progress, baseline)
    finally:
        events = disturbances.finish(out.result.fine if out is not None and out.result is not None else None)
    assert out is not None
    out.events = events
    return out


def _measure(ep: Endpoint, runner: Any, plan: Plan, progress: Progress | None, baseline: Any) -> PointOutcome:
    tick = progress.tick if progress is not None else None
    if not plan.telemetry:
        return PointOutcome(result=runner.run(tick))
    from ycsbctl import telemetry

    with telemetry.sampling(ep, client_pids=runner.pids, baseline=baseline) as capture:
        result = runner.run(tick)
    capture.align(result)
    for warning in capture.warnings:
        if progress is not None:
            progress.note(f"telemetry: {warning}")
    if result.cluster is not None:  # the clients ran on other hosts: their CPU comes from the shards
        from ycsbctl.telemetry.client_hosts import cluster_outcome

        return PointOutcome(result, *cluster_outcome(result, capture))
    return PointOutcome(result, capture.frame, capture.summary(), capture.bottleneck().to_dict())


def run_point(ep: Endpoint, props: dict[str, str], phase: str, threads: int, plan: Plan,
              progress: Progress | None, fresh: bool = False, baseline: Any = None,
              engine: Engine | None = None, rate: float | None = None) -> PointOutcome:
    """One point (``rate``: offered ops/s, None: unpaced). ``fresh`` empties the database first (the
    insert workload measures a load)."""
    try:
        if fresh:
            clear_dataset(ep.url, props.get("table", "usertable"))
        spec = make_spec(ep, props, phase, threads, plan, rate)
        return measure(ep, spec, plan, progress, baseline, engine)
    except UserError as exc:
        if getattr(exc, "stops_sweep", False):  # e.g. no Dask worker left: nothing more can be measured
            raise
        return PointOutcome(result=None, error=str(exc))


def load_dataset(ep: Endpoint, props: dict[str, str], threads: int, plan: Plan, progress: Progress | None,
                 baseline: Any = None, engine: Engine | None = None) -> PointOutcome:
    """Empty the database, load ``recordcount`` records (measured like any point), and record
    the footprint they take (DB-reported memory and RSS before and after, bytes per record)."""
    try:
        clear_dataset(ep.url, props.get("table", "usertable"))
        before = None
        if plan.telemetry:
            from ycsbctl import telemetry

            before = guarded("memory before the load", lambda: telemetry.footprint_before(ep), progress)
        out = measure(ep, make_spec(ep, props, "load", threads, plan), plan, progress, baseline, engine)
        if before is not None and out.result is not None:
            from ycsbctl import telemetry

            insert = out.result.ops.get("INSERT")
            ok = insert.returns.get("OK", 0) if insert is not None else 0
            records = load_workload(Properties(props)).loaded_records(ok)  # online-status: N users per INSERT
            fp = guarded("memory after the load", lambda: telemetry.footprint_after(ep, before, records), progress)
            out.footprint = fp.to_dict() if fp is not None else None
        return out
    except UserError as exc:
        if getattr(exc, "stops_sweep", False):
            raise
        return PointOutcome(result=None, error=str(exc))


def guarded(what: str, query: Callable[[], T], progress: Progress | None) -> T | None:
    """An admin or telemetry query around a point: a server that died or froze meanwhile costs one
    line (``telemetry: could not read …``), never the measured point."""
    from ycsbctl.processes import deferred_signals

    try:
        with deferred_signals():  # bounded queries; a Ctrl-C inside a client's finaliser would be lost
            return query()
    except Exception as exc:  # noqa: BLE001 - the point's own result says what happened to the server
        first = first_line(exc)
        if progress is not None:
            progress.note(f"telemetry: could not read the {what} ({type(exc).__name__}: {first}); the point is kept")
        return None
