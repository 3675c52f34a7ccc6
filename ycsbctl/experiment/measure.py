"""One measured point: an engine run wrapped in telemetry, and the load that precedes a sweep."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd

from ycsbctl.engine.contract import Engine, NativeEngine
from ycsbctl.engine.spec import PhaseSpec, Tick
from ycsbctl.errors import UserError, first_line
from ycsbctl.experiment.progress import PointLength, Progress
from ycsbctl.experiment.study import Point, Study
from ycsbctl.provision.base import Endpoint
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.schema import TelemetrySummary
from ycsbctl.stores.admin import clear_dataset

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
    profile: Any = None  # --cpu-profile: the point's ycsbctl.telemetry.profiler.Profile


def make_spec(ep: Endpoint, point: Point, study: Study) -> PhaseSpec:
    """The engine's instructions for ``point`` of ``study`` against ``ep`` (its case's properties and the
    workload built from them, its threads and offered rate: None unpaced, a load always). A dataset's load
    (``point.dataset_load``: every record) runs its workers on every usable CPU, not on the client's set of
    a placed plan. Its length: :func:`point_bounds`."""
    run = point.phase == "run"
    rate = point.rate if run else None
    plan = study.plan
    duration_s, warmup_s, props = point_bounds(study, point)
    measurement = props.get("measurement.interval") or ("both" if rate else "op")
    return PhaseSpec(
        phase=point.phase,
        url=ep.url,
        properties=props,
        threads=point.threads,
        duration_s=duration_s,
        target_rate=rate,
        warmup_s=warmup_s,
        timeout_s=plan.timeout_s,
        processes=plan.processes,
        seed=plan.seed,
        measurement=measurement,
        series_interval_ms=100 if plan.disturb and run else 1000,
        cpus=_client_cpus(study, not point.dataset_load),
        # the case's workload, unless this point's bounds changed its properties (its insertcount)
        built_workload=point.case.built if props == dict(point.case.properties) else None,
    )


def point_bounds(study: Study, point: Point) -> tuple[float | None, float, dict[str, str]]:
    """(seconds after the warm-up or None, warm-up s, the properties) of ``point``. A run-phase point
    takes the plan's length; a dataset's load loads every record; a measured load (``ycsbctl run
    insert``, ``ycsbctl load``) ends at ``--duration`` when the user gave one (YCSB's maxexecutiontime
    bounds its load too) with ``--warmup`` only when given, and an insert-only workload's point makes
    ``--operations`` inserts (YCSB's insertcount: at most the records from insertstart; a user's own
    ``-p insertcount`` stands)."""
    plan, props = study.plan, dict(point.case.properties)
    if point.phase == "run":
        return plan.point_duration_s, plan.point_warmup_s, props
    if point.dataset_load:
        return None, 0.0, props
    w = point.case.built
    if plan.operations is not None and not props.get("insertcount") and w.insert_only and w.builtin_ycsb:
        first = int(props.get("insertstart") or 0)
        props["insertcount"] = str(max(0, min(plan.operations, int(props.get("recordcount") or 0) - first)))
    return plan.duration_s, plan.warmup_s or 0.0, props


def point_length(study: Study, point: Point) -> PointLength:
    """How long ``point`` is planned to be (for the ETA): its seconds, warm-up included, and its operations
    (the inserts of a load, the run's operation count), each None where nothing bounds it."""
    duration_s, warmup_s, props = point_bounds(study, point)
    if point.phase == "run":
        operations = study.plan.point_operations
    elif props.get("insertcount") and props != dict(point.case.properties):
        operations = int(props["insertcount"])  # this point's own bound (--operations)
    else:
        operations = point.case.built.load_operations
    return PointLength(warmup_s + duration_s if duration_s else None, operations or None)


def _client_cpus(study: Study, placed: bool) -> tuple[int, ...]:
    """The CPUs of a point's workers: the client's set for a placed point, every usable CPU for a study's
    dataset load (named, so that the workers need not inherit the controller's affinity), else ()."""
    if not study.placement.split:
        return ()
    if placed:
        return study.placement.client_cpus
    from ycsbctl.cpus import usable_cpus

    return tuple(usable_cpus())


def engine_for(study: Study) -> Engine:
    """The engine the study's plan names: the real YCSB (``--engine ycsb``), ycsbctl's over a Dask cluster
    (``--cluster``), or ycsbctl's own on this host."""
    plan = study.plan
    if plan.engine == "ycsb":
        from ycsbctl.engine.ycsb_java import YcsbEngine

        return YcsbEngine(plan.ycsb_home)
    if plan.cluster:
        from ycsbctl.engine.cluster import ClusterEngine

        return ClusterEngine(plan.cluster)
    return NativeEngine()


def measure(ep: Endpoint, point: Point, study: Study, progress: Progress | None, baseline: Any = None,
            engine: Engine | None = None, profile_dir: Path | None = None) -> PointOutcome:
    """Run the engine once on ``point`` (:func:`make_spec`), sampling server, client, DB and network at 1 Hz when
    asked (``baseline``: the target's iperf3 :class:`~ycsbctl.telemetry.NetworkBaseline`), with the study's
    disturbances around a run-phase point (:mod:`ycsbctl.experiment.disturb`); ``profile_dir``: record
    its on-CPU stacks there (:mod:`ycsbctl.experiment.profiled`)."""
    spec = make_spec(ep, point, study)
    if spec.cpus:  # a placed point: the controller waits on the servers' CPUs meanwhile
        from ycsbctl.experiment.placement import controller_placed

        with controller_placed(study.placement):
            return _disturbed_or_not(ep, spec, point, study, progress, baseline, engine, profile_dir)
    return _disturbed_or_not(ep, spec, point, study, progress, baseline, engine, profile_dir)


def _disturbed_or_not(ep: Endpoint, spec: PhaseSpec, point: Point, study: Study, progress: Progress | None,
                      baseline: Any, engine: Engine | None, profile_dir: Path | None = None) -> PointOutcome:
    runner = (engine or engine_for(study)).prepare(spec)
    sampled = study.plan.telemetry
    if not (study.plan.disturb and spec.phase == "run"):
        return _measure(ep, runner, sampled, progress, baseline, profile_dir, spec.cpus)
    from ycsbctl.experiment.disturb import PointDisturbances

    assert spec.duration_s is not None  # the plan refuses --disturb without a duration
    disturbances = PointDisturbances(study.plan.disturb, ep.store, ep.url, spec.warmup_s, spec.duration_s,
                                     progress.note if progress is not None else None)
    out: PointOutcome | None = None
    try:
        disturbances.build()
        disturbances.start(runner)
        out = _measure(ep, runner, sampled, progress, baseline, client_cpus=spec.cpus)
    finally:
        events = disturbances.finish(out.result.fine if out is not None and out.result is not None else None)
    assert out is not None
    out.events = events
    return out


def _measure(ep: Endpoint, runner: Any, sampled: bool, progress: Progress | None, baseline: Any,
             profile_dir: Path | None = None, client_cpus: tuple[int, ...] | None = None) -> PointOutcome:
    """The engine's run of ``runner``, inside the telemetry's sampling when ``sampled`` (the plan's ``--telemetry``);
    ``client_cpus``: the workers' CPU set of a placed point."""
    tick = progress.tick if progress is not None else None
    if not sampled:
        return PointOutcome(result=runner.run(tick))
    from ycsbctl import telemetry
    from ycsbctl.telemetry.profiler import profiling

    if tick is not None:  # the samplers start before the engine: the live line says so (not "clients connect")
        tick(Tick.waiting("its telemetry samplers start"))
    with telemetry.sampling(ep, client_pids=runner.pids, baseline=baseline, client_cpus=client_cpus) as capture, \
            profiling(profile_dir, telemetry.target_pids(ep, capture.server_pid()), runner.pids) as profile:
        result = runner.run(tick)
    capture.align(result)
    for warning in capture.warnings:
        if progress is not None:
            progress.note(f"telemetry: {warning}")
    if result.cluster is not None:  # the clients ran on other hosts: their CPU comes from the shards
        from ycsbctl.telemetry.client_hosts import cluster_outcome

        return PointOutcome(result, *cluster_outcome(result, capture), profile=profile.value)
    summary = capture.summary()
    return PointOutcome(result, capture.frame, summary, capture.bottleneck(summary).to_dict(), profile=profile.value)


def run_point(ep: Endpoint, point: Point, study: Study, progress: Progress | None, baseline: Any = None,
              engine: Engine | None = None, profile_dir: Path | None = None) -> PointOutcome:
    """One point (a ``fresh`` one empties the database first: the insert workload measures a load);
    ``profile_dir``: record its on-CPU stacks there (:mod:`ycsbctl.experiment.profiled`)."""
    try:
        if point.fresh:
            clear_dataset(ep.url, point.case.table, ep.store)
        return measure(ep, point, study, progress, baseline, engine, profile_dir)
    except UserError as exc:
        if getattr(exc, "stops_sweep", False):  # e.g. no Dask worker left: nothing more can be measured
            raise
        return PointOutcome(result=None, error=str(exc))


def load_dataset(ep: Endpoint, point: Point, study: Study, progress: Progress | None, baseline: Any = None,
                 engine: Engine | None = None) -> PointOutcome:
    """Empty the database, load the case's ``recordcount`` records (``point``: the load, measured like any
    point), and record the footprint they take (DB-reported memory and RSS before and after, bytes per
    record)."""
    try:
        clear_dataset(ep.url, point.case.table, ep.store)
        before = None
        if study.plan.telemetry:
            from ycsbctl import telemetry

            before = guarded("memory before the load", lambda: telemetry.footprint_before(ep), progress)
        out = measure(ep, point, study, progress, baseline, engine)
        if before is not None and out.result is not None:
            from ycsbctl import telemetry

            insert = out.result.ops.get("INSERT")
            ok = insert.returns.get("OK", 0) if insert is not None else 0
            records = point.case.built.loaded_records(ok)  # online-status: N users per INSERT
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
