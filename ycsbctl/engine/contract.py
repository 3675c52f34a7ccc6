"""The engine seam: what the experiment asks of an engine, and nothing more.

An :class:`Engine` turns one :class:`~ycsbctl.engine.spec.PhaseSpec` (a phase of a workload
against an endpoint, with threads, duration or operation count, target rate, warm-up, timeout)
into a :class:`PhaseRun`; running it returns the :class:`~ycsbctl.results.model.PhaseResult`
(per-operation HDR histograms in µs, per-second series, throughput in ops/s, client CPU s) and
calls ``progress`` once a second with a :class:`~ycsbctl.engine.spec.Tick` while it runs — and, before
its start, with ticks whose ``starting`` says what it waits for (processes starting, clients connecting:
seconds no second measures; a callback that reads figures skips them).

The two steps are apart so that telemetry can start around the run and ask :meth:`PhaseRun.pids`
for the client processes on this host while it goes (an engine whose clients run elsewhere
returns none). Bad input is a :class:`~ycsbctl.errors.UserError` from :meth:`Engine.prepare`;
Ctrl-C ends the run early with status ``interrupted`` (or propagates ``KeyboardInterrupt``).

An alternated session (``PhaseSpec.alternation``, :mod:`ycsbctl.engine.alternation`) measures several targets
in one session, all clients switching target together every slice (A B B A blocks, an operation belonging to the
slice it started in); only the native engine runs one, through ``PhaseRunner.run_alternated`` (one result per
target, each with its ``slices`` frame; ``run`` returns the first target's). The Java YCSB engine and the cluster
engine refuse it (UserError), as the native one refuses a load, a run that inserts, a target rate, a plug-in
workload that does not say its operations can alternate (``Workload.alternates``), ``dataintegrity`` or a slice
outside 0.05–10 s.

Engines today: :class:`NativeEngine` (ycsbctl's own worker processes on this host) and
:class:`ycsbctl.engine.ycsb_java.YcsbEngine` (the real Java YCSB). The experiment gets one passed in
(:func:`ycsbctl.experiment.measure.engine_for` picks one from the plan), so another engine — clients on
several hosts, or a stand-in in a test — plugs in here without touching the sweep.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from ycsbctl.engine.spec import PhaseSpec, Tick
    from ycsbctl.results.model import PhaseResult

Progress = Callable[["Tick"], None]
# The engines a plan may name: ycsbctl's own (native) or the real Java YCSB (ycsb).
EngineName = Literal["native", "ycsb"]


class PhaseRun(Protocol):
    """One prepared phase: run it once."""

    def pids(self) -> list[int]:
        """PIDs of the client processes on this host (telemetry samples them), empty before they start."""
        ...

    def run(self, progress: Progress | None) -> PhaseResult:
        """Run the phase to its end (duration, operation count, or Ctrl-C) and return what it measured."""
        ...


class Engine(Protocol):
    """Makes :class:`PhaseRun` objects; ``name`` is what results record as their engine."""

    name: str

    def prepare(self, spec: PhaseSpec) -> PhaseRun:
        """Check ``spec`` (UserError for bad input) and return its run, not started."""
        ...


def alternates(engine: Engine) -> bool:
    """Whether ``engine`` runs a spec with an :class:`~ycsbctl.engine.alternation.Alternation` (its runs then have
    ``run_alternated``): an engine says so with ``alternates = True``; one that does not (the real YCSB, the Dask
    cluster's, a stand-in in a test) measures one target per run."""
    return bool(getattr(engine, "alternates", False))


class NativeEngine:
    """ycsbctl's own engine: worker processes on this host (:class:`ycsbctl.engine.runner.PhaseRunner`); it
    alternates targets inside one session (:func:`alternates`)."""

    name = "native"
    alternates = True

    def warm_up(self, stores: Iterable[Any]) -> None:
        """Start the workers' fork server now, with what the workers of ``stores`` (registry stores) import
        (:func:`ycsbctl.engine.launch.start_worker_server`): its imports then overlap the servers' start."""
        from ycsbctl.engine.launch import start_worker_server

        start_worker_server(stores)

    def prepare(self, spec: PhaseSpec) -> PhaseRun:
        from ycsbctl.engine.runner import PhaseRunner

        return PhaseRunner(spec)
