"""The native engine: spreads YCSB's client threads over worker processes and merges what they measure.

``threads`` clients, each with its own connection and one request in flight, run as
coroutines in ``processes`` worker processes (default: one per core, capped by threads), so
the GIL never limits the client. Workers start together on one monotonic clock, report every
second, and their HDR histograms are merged exactly.
"""

from __future__ import annotations

import math
import os
import queue
import socket
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlparse

from ycsbctl.cpus import usable_cpus
from ycsbctl.engine.aggregate import fine_series, series_frame, summaries
from ycsbctl.engine.alternating_plugin_worker import AlternatingPluginWorker
from ycsbctl.engine.alternating_worker import AlternatingWorker
from ycsbctl.engine.alternation import check as check_alternation
from ycsbctl.engine.collector import Collector
from ycsbctl.engine.launch import started_with_worker_environment, worker_context, worker_environment
from ycsbctl.engine.limits import check_workload_memory
from ycsbctl.engine.messages import Done, Message, dispatch
from ycsbctl.engine.plugin_worker import PluginWorker
from ycsbctl.engine.spec import ERRORS_SHOWN, PhaseSpec, Tick
from ycsbctl.engine.start import StartSignal
from ycsbctl.engine.worker import Worker, WorkerPlan
from ycsbctl.engine.worker_exit import PeakWatch, describe
from ycsbctl.engine.worker_process import worker_main
from ycsbctl.errors import UserError
from ycsbctl.processes import children_spared_ctrl_c
from ycsbctl.results.hdr_log import IntervalHistograms
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.names import SCHEDULE_LAG, RunStatus
from ycsbctl.stores.registry import for_url, protocol_of
from ycsbctl.urls import redact_url
from ycsbctl.workload.core import split_count
from ycsbctl.workload.core_plugin import CorePlugin
from ycsbctl.workload.inserts import shared_insert_state
from ycsbctl.workload.plugin import load_workload, op_names, require_executor
from ycsbctl.workload.properties import Properties

READY_TIMEOUT_S = 60.0
# From the start signal to the common start (s): every worker is connected and collected by then (Ready), and
# polls the signal every 0.5 ms; a point's wait between points (python -m bench point_overhead) was 0.05 s
START_LEAD_S = 0.02
SERIES_INTERVALS_MS = (1000, 100)  # per second, or every 100 ms (points with disturbances)


LOCAL_HOSTS = ("127.", "localhost", "::1", "[::1]")
C = TypeVar("C", bound=Collector)
R = TypeVar("R")


def default_processes(url: str, phase: str = "run") -> int:
    """Worker processes when none are asked for: one per core, less one core in the run phase
    when the server runs on this host (it needs a core too). Measured with bench/engine on 2
    cores against a local Redis: 1 worker gave 0.80–0.96× redis-benchmark at 8–128 threads and
    19–24 µs of client CPU per op; 2 workers gave 0.66–0.85× and 25–30 µs/op (client and server
    fighting for the same cores). A load costs the client ~3× what it costs the server (50–65
    µs against 20–40 µs per record), so loads keep a worker per core (0.40–0.49× redis-benchmark
    HSET with 2, 0.33× with 1)."""
    cores = len(usable_cpus())
    host = urlparse(url).hostname or ""
    local = not for_url(url).engine_only and (host.startswith(LOCAL_HOSTS) or host in ("", socket.gethostname()))
    return max(1, cores - 1) if local and phase == "run" else cores


class PhaseRunner:
    """Runs one :class:`PhaseSpec`; :meth:`pids` gives the worker PIDs to telemetry while it runs."""

    def __init__(self, spec: PhaseSpec, start_at: Callable[[], float] | None = None,
                 on_message: Callable[[Message], None] | None = None) -> None:
        """``start_at`` (an engine shard's hook) is called once every worker is connected and returns
        the start time (``perf_counter`` s) instead of "now + 50 ms"; ``on_message`` sees every
        message of the workers before it is merged here."""
        if spec.threads < 1:
            raise UserError(f"threads must be ≥ 1 (got {spec.threads})")
        if spec.phase not in ("load", "run"):
            raise UserError(f"unknown phase {spec.phase!r}: use load or run")
        if spec.target_rate is not None and spec.target_rate <= 0:
            raise UserError("the target rate must be > 0 ops/s")
        protocol_of(spec.url)  # an unsupported URL is bad input (exit 2), found before any worker starts
        if spec.measurement not in ("op", "intended", "both"):
            raise UserError(f"measurement.interval={spec.measurement!r}: use op, intended or both")
        if spec.series_interval_ms not in SERIES_INTERVALS_MS:
            raise UserError(f"series interval {spec.series_interval_ms} ms: use one of {SERIES_INTERVALS_MS}")
        self.spec = spec
        self.start_at, self.on_message = start_at, on_message
        props = Properties(spec.properties)
        # workload=package.module:Class (CoreWorkload by default), as the controller built it or built here
        self.workload = spec.built_workload if spec.built_workload is not None else load_workload(props)
        self.names = op_names(props)
        if isinstance(self.workload, CorePlugin):
            check_workload_memory(self.workload.core, spec.threads)  # before any worker allocates a value
        else:
            require_executor(self.workload, for_url(spec.url), props)
            self.workload.check_memory(spec.threads)
        if spec.alternation is not None:  # every URL supported, and an alternation the engine measures fairly
            for t, url in enumerate(spec.alternation.urls):
                protocol_of(url)
                if not isinstance(self.workload, CorePlugin):  # a plug-in: an executor for every target's store
                    require_executor(self.workload, for_url(url),
                                     Properties(spec.alternation.properties_of(t, spec.properties)))
            check_alternation(spec.alternation, spec.phase, spec.duration_s, spec.target_rate, self.workload)
            if spec.url != spec.alternation.urls[0]:
                raise UserError("an alternated phase's url must be its alternation's first URL")
        if spec.phase == "run" and not self.workload.operationcount and not spec.duration_s:
            raise UserError("the run phase needs operationcount > 0 or a duration (--duration S)")
        # placed on CPUs of its own (spec.cpus), the client has them all: the server runs elsewhere
        wanted = spec.processes or (len(spec.cpus) if spec.cpus else default_processes(spec.url, spec.phase))
        self.processes = max(1, min(wanted, spec.threads))
        self._pids: list[int] = []
        self.stop_requested = False
        self.started = threading.Event()  # set once the start time is given (t0: perf_counter s)
        self.t0 = 0.0

    def pids(self) -> list[int]:
        """PIDs of the worker processes (empty before they start)."""
        return list(self._pids)

    def stop(self) -> None:
        """Ask the workers to finish their current operation and stop (Ctrl-C)."""
        self.stop_requested = True

    def _plans(self) -> list[WorkerPlan]:
        spec, w = self.spec, self.workload
        per_process = split_count(spec.threads, self.processes)
        # an alternated session runs its slices to the duration, whatever operationcount says
        total = w.load_operations if spec.phase == "load" else 0 if spec.alternation else (w.operationcount or 0)
        per_thread = split_count(total, spec.threads) if total else [0] * spec.threads
        blocks = w.load_blocks(per_process) if spec.phase == "load" else [None] * self.processes
        if spec.alternation:
            worker: type[Worker] | None = AlternatingWorker if w.builtin_ycsb else AlternatingPluginWorker
        else:
            worker = None if w.builtin_ycsb else PluginWorker
        # the client's own CPUs if placed, else this process's: never those of the process a worker forks from
        cpus = tuple(spec.cpus) if spec.cpus else tuple(sorted(os.sched_getaffinity(0))) \
            if hasattr(os, "sched_getaffinity") else None
        plans, t = [], 0
        environ = worker_environment()  # what a spawned worker inherits; a forked one takes it (engine.launch)
        for p, n in enumerate(per_process):
            quotas = per_thread[t : t + n]
            if total:
                quotas = [q if q else -1 for q in quotas]  # a thread with no operations does nothing
            plans.append(WorkerPlan(spec, p, self.processes, quotas, blocks[p], t, worker, cpus, os.getpid(),
                                    environ))
            t += n
        return plans

    def run(self, progress: Callable[[Tick], None] | None = None) -> PhaseResult:
        """Run the phase to its end (operation count, duration, stop or failure); with an alternation, the
        first target's result (:meth:`run_alternated` gives every target's)."""
        if self.spec.alternation is not None:
            return self.run_alternated(progress)[0]
        c = Collector(self.processes, self.spec.measurement, math.ceil(self.spec.warmup_s), progress, self.names)
        return self._session(c, progress, self.result)

    def run_alternated(self, progress: Callable[[Tick], None] | None = None) -> list[PhaseResult]:
        """Run an alternated session (``spec.alternation``: :mod:`ycsbctl.engine.alternated_session`) to its end:
        one result per URL of the alternation, in its order."""
        from ycsbctl.engine.alternated_session import AlternationCollector, alternated_results

        if self.spec.alternation is None:
            raise ValueError("run_alternated needs a spec with an alternation")
        c = AlternationCollector(self, progress)
        return self._session(c, progress, lambda c_, t0: alternated_results(self, c_, t0))

    def _session(self, c: C, progress: Callable[[Tick], None] | None, finish: Callable[[C, float], R]) -> R:
        """Start the workers, merge their messages into ``c`` until each is done; ``finish(c, t0)``'s result."""
        spec = self.spec
        ctx = worker_context()
        out = ctx.Queue()
        acked = shared_insert_state(ctx)  # one run-phase insert counter for all processes (YCSB's)
        stop_flag = ctx.Value("b", 0, lock=False)
        start_event = StartSignal(ctx)
        t_start = ctx.Value("d", 0.0, lock=False)
        plans = self._plans()
        procs = [
            ctx.Process(target=worker_main, args=(pl, acked, stop_flag, start_event, t_start, out), daemon=True)
            for pl in plans
        ]
        watch = PeakWatch()  # each worker's peak RSS: named if the kernel kills it
        result: R | None = None
        try:
            # a Ctrl-C inside a start (the fork server forked, the pid not yet kept) left a worker nobody stopped,
            # holding the terminal's pipes: it comes once every worker asked for has started, and stops them all
            if progress is not None:  # the first point's start also starts the fork server (its imports)
                progress(Tick.waiting(f"{_processes(len(procs))} start{'s' if len(procs) == 1 else ''}"))
            # and a worker (or the fork server its start makes) begins with SIGINT blocked: no traceback of its start-up
            with started_with_worker_environment(), children_spared_ctrl_c():
                for p in procs:
                    p.start()
            # 1. every worker connects its clients, then all start at once
            self._wait_ready(procs, out, c, watch)
            self._pids.extend(c.pids)
            watch.read([p.pid for p in procs], force=True)
            if c.setup_errors:
                stop_flag.value = 1
                start_event.set()
                against = redact_url(spec.url) if spec.alternation is None else "an alternated target"
                raise UserError(f"cannot run against {against}: {c.setup_errors[0]}", exit_code=1)
            t0 = self.start_at() if self.start_at is not None else time.perf_counter() + START_LEAD_S
            t_start.value = t0
            c.started = True
            start_event.set()
            self.t0 = t0
            self.started.set()
            # 2. merge per-second reports until every worker is done
            while len(c.finals) < len(procs):
                if self.stop_requested and not stop_flag.value:
                    stop_flag.value = 1
                    c.status = "interrupted"
                watch.read([p.pid for p in procs])
                try:
                    msg = out.get(timeout=0.5)
                except queue.Empty:
                    dead = [i for i, p in enumerate(procs) if not p.is_alive() and i not in c.finals]
                    if dead and out.empty():
                        for i in dead:
                            c.finals[i] = Done(i, errors=[describe(i, procs[i].exitcode, watch.peaks.get(i))])
                        c.status = "failed"
                    continue
                self._dispatch(msg, c)
            # every worker said its last word: the result is made while they exit (joined below), not after
            result = finish(c, t_start.value)
        except KeyboardInterrupt:
            stop_flag.value = 1
            start_event.set()  # workers still connecting wait for it: they must see the stop, not wait 15 s
            c.status = "interrupted"
            self._drain_after_interrupt(out, procs, c)
        finally:
            stop_flag.value = 1
            start_event.set()
            for p in procs:
                if p.pid is None:  # never started (a start that raised)
                    continue
                p.join(timeout=10)
                if p.is_alive():
                    p.terminate()
                    p.join(timeout=5)
            self._pids.clear()
        return result if result is not None else finish(c, t_start.value)

    def _wait_ready(self, procs: list, out: Any, c: Collector, watch: PeakWatch) -> None:
        """Until every worker said it is connected (or could not connect); a worker that died silently, or
        workers that do not connect in time, are one line (UserError)."""
        # a plug-in's prepare (an index build) comes first: on each target of an alternation, one after another
        targets = len(self.spec.alternation.urls) if self.spec.alternation is not None else 1
        ready_s = READY_TIMEOUT_S + self.workload.prepare_s * targets
        deadline = time.monotonic() + ready_s
        n = len(procs)
        while c.ready + len(c.setup_errors) < n:
            if c.progress is not None:  # the live line says what the start waits for, not "0 ops/s"
                c.progress(Tick.waiting(f"{_processes(n)} connect{'s' if n == 1 else ''} {self.spec.threads} "
                                        f"client{'s' if self.spec.threads > 1 else ''} ({c.ready} of {n} ready)"))
            watch.read([p.pid for p in procs])
            try:
                msg = out.get(timeout=0.5)
            except queue.Empty:
                # A worker killed before it could say anything (OOM killer, a crash in C) must not
                # leave the user waiting for the whole timeout.
                silent = [i for i, p in enumerate(procs) if i not in c.heard and p.exitcode is not None]
                if silent and out.empty():
                    i = silent[0]
                    raise UserError(f"an engine {describe(i, procs[i].exitcode, watch.peaks.get(i))} "
                                    "while connecting", exit_code=1) from None
                if time.monotonic() > deadline:
                    raise UserError(
                        f"the engine's workers did not connect within {ready_s:.0f} s", exit_code=1
                    ) from None
                continue
            self._dispatch(msg, c)

    def _dispatch(self, msg: Message, c: Collector) -> None:
        if self.on_message is not None:
            self.on_message(msg)
        dispatch(msg, c)

    def _drain_after_interrupt(self, out, procs, c: Collector) -> None:
        """After Ctrl-C: keep what workers report while they finish their current operation."""
        deadline = time.monotonic() + 15
        c.progress = None
        while len(c.finals) < len(procs) and time.monotonic() < deadline:
            try:
                msg = out.get(timeout=0.5)
            except queue.Empty:
                if all(not p.is_alive() for p in procs):
                    break
                continue
            except KeyboardInterrupt:
                break
            self._dispatch(msg, c)

    def result(self, c: Collector, t0: float) -> PhaseResult:
        """The phase's result from what ``c`` collected, measured from ``t0`` (perf_counter s); the
        cluster engine merges its shards through the same collector and calls this too."""
        spec = self.spec
        totals = summaries(c.seconds, c.warmup_seconds, self.names)
        ends = [f.end_ns for f in c.finals.values() if f.end_ns]
        end_s = max(ends) / 1e9 if ends else time.perf_counter()
        runtime_ms = max(0.0, (end_s - t0 - c.warmup_seconds) * 1000.0) if t0 else 0.0
        errors: list[str] = []
        ended: list[str] = []
        for f in c.finals.values():
            errors += [e for e in f.errors if e not in errors]
            ended += f.ended
        lost = [e for e in ended if e.startswith(STOPPED_FOR_GOOD) or "lost the" in e or "cannot connect" in e]
        if spec.phase == "load":  # a thread that stopped loading left the dataset incomplete
            lost += [e for e in ended if e not in lost]
        status = c.status
        if lost and status == "ok":
            status = "failed"
        late = sum(f.late for f in c.finals.values())
        stray = sum(f.stray for f in c.finals.values())
        counts: dict[str, int] = {}
        for f in c.finals.values():
            for k, v in (getattr(f, "counts", None) or {}).items():
                counts[k] = counts.get(k, 0) + v
        if late or stray:  # never silently dropped: counted into the result and named in its errors
            errors.append(f"{late:,} late replies (after their operation timed out) and {stray:,} stray replies "
                          "(to nothing asked) were discarded")
        # Why clients stopped comes first: it is what the user must fix (the report shows errors[0]).
        errors = list(dict.fromkeys(lost + errors))
        return PhaseResult(
            phase=spec.phase,
            threads=spec.threads,
            runtime_ms=runtime_ms,
            operations=totals.operations,
            ops=totals.ops,
            series=series_frame(c.seconds, c.warmup_seconds),
            client_cpu_s=totals.cpu_s,
            warmup_s=float(c.warmup_seconds),
            target_rate=spec.target_rate,
            status=RunStatus(status),
            errors=errors[:ERRORS_SHOWN],
            engine="native",
            client_lag=totals.client_lag,
            schedule_lag=totals.own.get(SCHEDULE_LAG),
            processes=self.processes,
            measurement=spec.measurement,
            t_start_mono=t0,
            threads_stopped=len(ended),
            late_replies=late,
            stray_replies=stray,
            binding_counts=counts or None,
            duration_s=spec.duration_s,
            timeout_s=spec.timeout_s,
            intervals=IntervalHistograms.from_counts(
                {k: a.counts for k, a in c.seconds.items()}, c.warmup_seconds,
                start_epoch_s=time.time() - (time.perf_counter() - t0), end_s=end_s - t0) if t0 else None,
            fine=fine_series(c.fine, spec.series_interval_ms / 1000, spec.warmup_s,
                             spec.warmup_s + spec.duration_s if spec.duration_s else None) if c.fine else None,
        )


# Why a client stopped that fails its point (besides "lost the …" / "cannot connect" anywhere in the reason):
# a wire binding that could not reconnect, a plug-in that broke its contract (engine.plugin_worker).
STOPPED_FOR_GOOD = ("cannot reach ", "the workload plug-in ")


def _processes(n: int) -> str:
    """``its engine process`` / ``its 2 engine processes`` (the live line before a point's start)."""
    return "its engine process" if n == 1 else f"its {n} engine processes"


def run_phase(spec: PhaseSpec, progress: Callable[[Tick], None] | None = None) -> PhaseResult:
    """Run one phase with the native engine (see :class:`PhaseRunner`)."""
    return PhaseRunner(spec).run(progress)


def unless_interrupted(result: PhaseResult) -> PhaseResult:
    """``result``, or KeyboardInterrupt again when Ctrl-C (or SIGTERM) stopped its phase. The engine catches the
    interrupt to hand back what its workers measured (a point kept as ``interrupted``); a caller that keeps no such
    result — a load that only prepares, calibrate's sides — passes it through this, or the Ctrl-C is lost (the
    reference server's load went on to measure every session; calibrate said "the load failed", exit 1)."""
    if result.status == "interrupted":
        raise KeyboardInterrupt
    return result
