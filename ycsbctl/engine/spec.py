"""What one engine run is asked to do, and what it reports while it runs."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ycsbctl.engine.alternation import Alternation
    from ycsbctl.workload.plugin import Workload


# a point's distinct error messages kept in its result (the first: why clients stopped; the report shows errors[0])
ERRORS_SHOWN = 10


@dataclass
class PhaseSpec:
    """One phase (``load`` or ``run``) of one workload against one endpoint.

    ``properties`` are the merged YCSB properties (workload files, then ``-p`` overrides).
    ``target_rate`` is the total ops/s over all threads (YCSB ``-target``); ``duration_s`` is
    YCSB's ``maxexecutiontime``; ``warmup_s`` seconds are excluded from the statistics but kept
    in the per-second series; ``timeout_s`` is the per-operation timeout (counted, never fatal).
    """

    phase: str  # "load" | "run"
    url: str  # redis://host:port[/db] | mongodb://… | basic://
    properties: dict[str, str] = field(default_factory=dict)
    threads: int = 1
    duration_s: float | None = None
    target_rate: float | None = None
    warmup_s: float = 0.0
    timeout_s: float = 10.0
    processes: int | None = None  # worker processes; None = one per core, capped by threads
    # The CPUs the worker processes run on (their affinity, set as each starts: ycsbctl.experiment.placement);
    # (): wherever the scheduler puts them. With a set and no ``processes``: one worker per CPU of it.
    cpus: tuple[int, ...] = ()
    seed: int | None = None
    measurement: str = "op"  # YCSB measurement.interval: "op" | "intended" | "both"
    workload_name: str = ""
    # How often workers ship their counts (ms): 1000, or 100 for a point with disturbances, whose
    # 100 ms series (PhaseResult.fine) is merged exactly as the per-second one is.
    series_interval_ms: int = 1000
    # Several targets measured in one session, switching every slice (engine.alternation; native engine only):
    # ``url`` is then ``alternation.urls[0]`` and PhaseRunner.run_alternated gives one result per URL.
    alternation: Alternation | None = None
    # The workload ``properties`` build, already built by the controller (the experiment builds each once
    # per case); None: the engine builds it. Never sent to a worker process or host (each builds its own).
    built_workload: Workload | None = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "built_workload": None}


@dataclass
class Tick:
    """Progress once a second: totals so far and the last second's rate and p99 (µs); or, before the
    start, what the point waits for (``starting``: "2 engine processes connect their clients (1 ready)"),
    its figures then meaning nothing (:meth:`waiting`)."""

    second: int
    operations: int
    ops_per_s: float
    p99_us: float
    errors: int
    warmup: bool = False
    starting: str = ""

    @classmethod
    def waiting(cls, what: str) -> Tick:
        """A tick before the start: no second measured yet, ``what`` the point waits for."""
        return cls(-1, 0, 0.0, float("nan"), 0, starting=what)
