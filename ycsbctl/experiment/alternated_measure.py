"""One alternated session: a cell's targets measured by one engine session that switches every client from target
to target every slice (:class:`~ycsbctl.engine.alternation.Alternation`), wrapped in each target's telemetry.

The session is as long as the targets' points together: each target gets the plan's point length of slices, in
whole blocks of ``2 · targets`` slices (A B B A …), its warm-up rounded up to whole blocks as well, so that every
measured block holds both sides of every pair. Each target's server is sampled by its own telemetry for the whole
session; its server-side rates (CPU, the DB's operations and bytes) are read over its own slices: the session's
mean divided by its share of the session's time (a server idles while the others are measured), so its why line,
bottleneck label and figures stay its own. The client's figures are the session's: it is busy throughout.
"""

from __future__ import annotations

import math
import zlib
from contextlib import ExitStack
from dataclasses import replace
from typing import Any

from ycsbctl.engine.alternation import Alternation
from ycsbctl.engine.contract import Engine
from ycsbctl.engine.spec import PhaseSpec, Tick
from ycsbctl.errors import UserError
from ycsbctl.experiment.measure import PointOutcome, engine_for, make_spec
from ycsbctl.experiment.plan import SLICE_RANGE_S
from ycsbctl.experiment.progress import PointLength, Progress
from ycsbctl.experiment.study import Point, Study
from ycsbctl.provision.base import Endpoint
from ycsbctl.results.model import PhaseResult
from ycsbctl.workload.plugin import why_not_alternated

MIN_BLOCKS = 4  # blocks a target's point holds at least (its slice shortened for a short point: slice_of)


def why_not_together(points: list[Point], study: Study) -> str | None:
    """Why these points (one cell's targets in a round) cannot share one alternated session, or None."""
    if len(points) < 2:
        return "one target left in the cell"
    case = points[0].case
    if points[0].phase != "run":
        return "a load is measured into one target at a time"
    if study.plan.point_duration_s is None:
        return "an alternated session needs a duration (--duration), not an operation count"
    for p in points:
        if p.case.name != case.name:
            return "the targets run different workloads"
    return why_not_alternated(case.built)  # a plug-in alternates when it says so (not a run that inserts)


def slice_of(study: Study, targets: int, compared: int | None = None) -> float:
    """The slice (s) of an alternated session: the plan's ``--slice``, shortened (to 0.05 s at least) where a
    target's point would hold fewer than :data:`MIN_BLOCKS` blocks — a block is one slice pair of each target, and
    an interval needs a few of them (one round of 1 s points at 0.5 s slices would hold a single block)."""
    plan = study.plan
    per_target = (plan.point_duration_s or 0.0) * (compared or targets) / targets
    return max(min(plan.slice_s, per_target / (2 * MIN_BLOCKS)), SLICE_RANGE_S[0])


def session_length(study: Study, targets: int, compared: int | None = None) -> tuple[float, float]:
    """(measured s, warm-up s) of an alternated session of ``targets``: each target's point length (the plan's)
    in whole blocks of ``2 · targets`` slices (:func:`slice_of`), and the warm-up rounded up to whole blocks. With the
    reference server among them (``compared``: the targets besides it), the session keeps the length the
    ``compared`` targets alone would have: each of the ``targets`` gets ``compared / targets`` of its point length,
    so the reference costs no session time (:mod:`ycsbctl.experiment.reference`)."""
    plan = study.plan
    slice_s = slice_of(study, targets, compared)
    block_s = 2 * targets * slice_s
    per_target = (plan.point_duration_s or 0.0) * (compared or targets) / targets
    blocks = max(1, math.ceil(per_target / (2 * slice_s) - 1e-9))
    warm_blocks = math.ceil(plan.point_warmup_s / block_s - 1e-9) if plan.point_warmup_s else 0
    return blocks * block_s, warm_blocks * block_s


def session_spec(eps: list[Endpoint], points: list[Point], study: Study, reference: bool = False) -> PhaseSpec:
    """The engine's instructions for one alternated session of ``points`` (one per target, the same cell) against
    ``eps``: the first point's spec with the session's length and the :class:`Alternation` (its schedule's seed
    drawn from the plan's seed and the first point's run id: each round's sessions switch in their own order);
    ``reference``: the last of them is the reference server's (the session keeps the others' length)."""
    spec = make_spec(eps[0], points[0], study)
    duration_s, warmup_s = session_length(study, len(points), len(points) - 1 if reference else None)
    seed = zlib.crc32(f"{study.plan.seed or 0}:{points[0].run_id}".encode())
    alternation = Alternation(urls=tuple(ep.url for ep in eps),
                              properties=tuple(dict(p.case.properties) for p in points),
                              slice_s=slice_of(study, len(points), len(points) - 1 if reference else None),
                              seed=seed, labels=tuple(p.target.label for p in points))
    return replace(spec, duration_s=duration_s, warmup_s=warmup_s, alternation=alternation)


def session_point_length(study: Study, targets: int, reference: bool = False) -> PointLength:
    """The session's planned length, warm-up included (the live line's ETA); ``reference``: one of the
    ``targets`` is the reference server."""
    duration_s, warmup_s = session_length(study, targets, targets - 1 if reference else None)
    return PointLength(duration_s + warmup_s, None)


def session_view(result: PhaseResult, results: list[PhaseResult], measured_s: float) -> PhaseResult:
    """``result`` as the session's telemetry window sees it: the whole measured session (its runtime), the
    session's operations and client CPU (the client served every target throughout)."""
    return replace(result, runtime_ms=1000.0 * measured_s, operations=sum(r.operations for r in results),
                   client_cpu_s=sum(r.client_cpu_s for r in results if r.client_cpu_s == r.client_cpu_s))


def measure_alternated(eps: list[Endpoint], points: list[Point], study: Study, progress: Progress | None,
                       baselines: list[Any], engine: Engine | None = None,
                       reference: bool = False) -> list[PointOutcome]:
    """One alternated session of ``points`` (one per target of a cell, in plan order) against ``eps``, each
    target's telemetry around it when the plan samples (``baselines``: each target's iperf3 baseline); one
    :class:`PointOutcome` per point, in their order. ``reference``: the last point is the reference server's,
    sampled by no telemetry (its outcome holds its result alone). A session the engine refuses or that fails to
    start is every point's error."""
    try:
        spec = session_spec(eps, points, study, reference)
        runner = (engine or engine_for(study)).prepare(spec)
        if spec.cpus:
            from ycsbctl.experiment.placement import controller_placed

            with controller_placed(study.placement):
                return _sampled(eps, runner, spec, study, progress, baselines)
        return _sampled(eps, runner, spec, study, progress, baselines)
    except UserError as exc:
        if getattr(exc, "stops_sweep", False):
            raise
        return [PointOutcome(result=None, error=str(exc)) for _ in points]


def _sampled(eps: list[Endpoint], runner: Any, spec: PhaseSpec, study: Study, progress: Progress | None,
             baselines: list[Any]) -> list[PointOutcome]:
    tick = progress.tick if progress is not None else None
    if not study.plan.telemetry:
        return [PointOutcome(result=r) for r in runner.run_alternated(tick)]
    from ycsbctl import telemetry

    if tick is not None:
        tick(Tick.waiting("its telemetry samplers start"))
    with ExitStack() as stack:
        # every target's server (the reference's too) is ours in each target's host-busy check
        captures = [stack.enter_context(telemetry.sampling(ep, client_pids=runner.pids, baseline=b,
                                                           peers=[e for e in eps if e is not ep],
                                                           client_cpus=spec.cpus))
                    for ep, b in zip(eps, baselines)]
        results = runner.run_alternated(tick)
    measured_s = spec.duration_s or 0.0
    outs = []
    for capture, result in zip(captures, results):
        capture.align(session_view(result, results, measured_s))
        duty = result.runtime_ms / 1000 / measured_s if measured_s > 0 else 1.0
        # the server's figures over its own slices, and its per-operation costs over its own operations
        capture.duty, capture.throughput_ops = duty, result.throughput_ops
        for warning in capture.warnings:
            if progress is not None:
                progress.note(f"telemetry: {warning}")
        summary = capture.summary()
        outs.append(PointOutcome(result, capture.frame, summary, capture.bottleneck(summary).to_dict()))
    return outs + [PointOutcome(result=r) for r in results[len(captures):]]  # the reference: no telemetry
