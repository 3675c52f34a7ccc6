"""A worker process of an alternated session (:mod:`ycsbctl.engine.alternation`): one connection set per target,
all its clients switching target together every slice.

Each client loops over the session's slices: slice ``k`` (``[t0 + k·slice, t0 + (k+1)·slice)``) belongs to the
target the schedule names, and the client runs :meth:`Worker.issue` (chains included) against that target's binding
with the slice's end as its deadline: an operation in flight at the switch finishes, and belongs to the slice it
started in. Every slice records into a recorder of its own (a ring of :data:`RING`, reused once the slice RING
before it is shipped), so a straggler of slice ``k`` never mixes with slice ``k+1``'s operations even when both go
to the same target (the B B of A B B A). With a settle window (``Alternation.settle_s``) a client runs each slice in
two parts, the first until ``start + settle_s`` into a second ring of recorders, the rest into the slice's own: an
operation belongs to the part it started in, and the settle part ships first, flagged. Once every client left a
slice, its counts are rolled (a swap for zeroed counts prepared before the start: the close itself is cheap), and
shipped as one :class:`~ycsbctl.engine.messages.SliceReport` at a fixed point of the next slice (:data:`SHIP_AT`),
a slot that counted per turn of the loop: the shipping's cost (compacting, the queue's pickling, the controller's
merging) lands at the same place in every slice, whatever target runs it, and away from the slice's start, where a
variable close landed before.

The slice loop is :class:`SliceLoop`'s, whatever the workload: :class:`AlternatingWorker` runs YCSB's CoreWorkload
in it (the bindings' YCSB operations and their chains), :class:`~ycsbctl.engine.alternating_plugin_worker.
AlternatingPluginWorker` a workload plug-in (each target through its own store's executor). Each says only how a
client runs one slice against one target (:meth:`SliceLoop.slice_runner`) and what it measures.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import time
from array import array
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any

from ycsbctl.engine.alternation import schedule, slice_count
from ycsbctl.engine.batches import ChainTake
from ycsbctl.engine.measurements import LagProbe, Recorder, ship
from ycsbctl.engine.messages import Done, Failed, Ready, SliceReport, TargetEnd
from ycsbctl.engine.throttle import Pacer
from ycsbctl.engine.timerfd import Alarm
from ycsbctl.engine.worker import BATCHED_WRITES_FROM, MAX_ERRORS_KEPT, Worker, WorkerPlan
from ycsbctl.errors import UserError, short_error
from ycsbctl.results.names import CLIENT_LAG
from ycsbctl.stores.binding import Binding, ChainContext, ConnectionLost
from ycsbctl.stores.binding_set import BindingSet
from ycsbctl.stores.chain import WriteBatch
from ycsbctl.stores.registry import open_bindings
from ycsbctl.urls import redact_url

# Slices whose recorders are in use at once: a client waits before slice k + RING until slice k is shipped
# (only an operation longer than RING − 1 slices makes it wait). Each recorder is ~184 KB per slot in use.
RING = 4
STOP_POLL_S = 0.05  # s between two reads of the stop flag (Ctrl-C)
# Where a closed slice ships: this share of a slice into the next one (0.5: its middle). A slice's first
# milliseconds ran at a fraction of the rest's rate while the previous slice shipped there, at a place that varied
# from slice to slice; at a fixed point it costs every slice alike (`python -m bench alternation --settle 0.02`
# prints the share of a slice's operations, and their p99, in its first 20 ms).
SHIP_AT = 0.5
# The target the client (its asyncio task) is running: where a lost connection (Worker.lost) belongs.
_TARGET: ContextVar[int] = ContextVar("alternated_target", default=-1)


# How one client runs one slice: ``await run(target, recorder, end_ns)`` (see SliceLoop.slice_runner)
SliceRun = Callable[[int, Recorder, int], Awaitable[None]]


class SliceLoop(Worker):
    """The slice loop of one worker process in an alternated session (``PhaseSpec.alternation``), for any workload:
    a subclass (before the workload's worker class in its bases) says how a client runs a slice
    (:meth:`slice_runner`) and which op codes a slice measures (:meth:`slice_codes`)."""

    def __init__(self, plan: WorkerPlan, acked: Any, stop_flag: Any, out: Any) -> None:
        super().__init__(plan, acked, stop_flag, out)
        alt = plan.spec.alternation
        if alt is None or plan.spec.duration_s is None:
            raise ValueError(f"an {type(self).__name__} needs a spec with an alternation and a duration")
        self.alt = alt
        codes = self.slice_codes()
        self.session_rec = self.rec  # the lag probe counts CLIENT-LAG here; operations go to the ring
        self.ring = [Recorder(plan.spec.measurement, codes) for _ in range(RING)]
        self.settle_ns = int(alt.settle_s * 1e9)  # each slice's first settle_ns record into a ring of their own
        self.settle_ring = [Recorder(plan.spec.measurement, codes) for _ in range(RING if self.settle_ns else 0)]
        n = len(alt.urls)
        self.session_ns = int((plan.spec.warmup_s + plan.spec.duration_s) * 1e9)
        self.slice_ns = int(alt.slice_s * 1e9)
        self.n_slices = slice_count(alt.slice_s, plan.spec.warmup_s + plan.spec.duration_s)
        self.order = schedule(n, alt.seed, self.n_slices)
        self.left = [0] * self.n_slices  # clients that left each slice
        self.last_end = [0] * self.n_slices  # when each slice's last operation ended (perf_counter ns)
        self.closed = -1  # the last slice rolled (slices close in order: a client leaves k before k + 1)
        self.waiting: dict[int, asyncio.Future] = {}  # slice -> clients waiting for its close (the ring)
        self.rec_of: dict[int, Recorder] = {}  # id(binding) -> the recorder of the slice it runs
        self.target_of: dict[int, int] = {}  # id(binding) -> its target
        self.ends = [TargetEnd() for _ in range(n)]
        self.dead: set[int] = set()  # targets whose connection is lost for good: their slices idle
        self.cpu_mark = 0.0
        self.shipments: asyncio.Queue | None = None
        self.hurry: asyncio.Event | None = None  # set once the clients are through (or stopping): ship at once

    def slice_codes(self) -> list[int]:
        """The op codes each slice's recorder measures (the run phase's)."""
        raise NotImplementedError

    def slice_runner(self, binds: list[Binding], t0: int) -> SliceRun:
        """How the client holding ``binds`` (one binding per target, in the alternation's order) runs one slice:
        ``run(target, recorder, end_ns)`` issues operations against ``binds[target]`` until ``end_ns``
        (perf_counter ns), each timed through :meth:`settle` (or ``recorder.record``); ``t0``: the session's start."""
        raise NotImplementedError

    async def before_target(self, t: int, bs: BindingSet) -> str | None:
        """Once target ``t``'s bindings are connected, before :class:`Ready`: why the session cannot run (a
        plug-in's prepare on that target), or None."""
        return await self.before_start(bs)

    def settle(self, b: Binding, op: int, st: int, t0: int, t1: int, due: int, pacer: Pacer | None,
               is_load: bool) -> bool:
        """An awaited operation ended: timed into the recorder of the slice it started in."""
        self.rec_of[id(b)].record(op, st, t0, t1, due)
        return self.failed(b, is_load) if st else False

    def note_error(self, binding: Binding) -> None:
        super().note_error(binding)
        msg, errors = binding.last_error, self.ends[self.target_of[id(binding)]].errors
        if msg and len(errors) < MAX_ERRORS_KEPT and msg not in errors:
            errors.append(msg)

    def lost(self, exc: ConnectionLost) -> None:
        """A client's connection to the target it runs is gone for good: that target's slices stop (in this
        worker); the other targets go on."""
        super().lost(exc)
        t = _TARGET.get()
        if t >= 0:
            self.end_target(t, str(exc))

    def end_target(self, t: int, why: str) -> None:
        """Target ``t``'s clients stop for good (``why``): its later slices idle, its result fails."""
        self.dead.add(t)
        self.ends[t].ended.append(why)
        if why not in self.ends[t].errors:
            self.ends[t].errors.append(why)

    async def client_slices(self, binds: list[Binding], t0: int, alarm: Alarm) -> None:
        """One client thread over the session's slices, each against its target's binding (see the module)."""
        run_slice = self.slice_runner(binds, t0)
        perf = time.perf_counter_ns
        for k in range(self.n_slices):
            if self.stopping:
                break
            if k >= RING and self.closed < k - RING:
                await self._closed(k - RING)
            start = t0 + k * self.slice_ns
            end = t0 + min((k + 1) * self.slice_ns, self.session_ns)
            if perf() < start:
                await alarm.at(start)
            t = self.order[k]
            if perf() < end and t not in self.dead and not self.stopping:
                _TARGET.set(t)  # (this client's task only)
                if self.settle_ns:  # the settle window: what starts before start + settle_ns is counted apart
                    settle = self.settle_ring[k % RING]
                    self.rec_of[id(binds[t])] = settle
                    await run_slice(t, settle, min(start + self.settle_ns, end))
                rec = self.ring[k % RING]
                self.rec_of[id(binds[t])] = rec
                if perf() < end and t not in self.dead and not self.stopping:
                    await run_slice(t, rec, end)
                self.last_end[k] = max(self.last_end[k], perf())
            self.left[k] += 1
            if self.left[k] == len(self.plan.quotas):
                self._close(k)

    async def _closed(self, k: int) -> None:
        """Until slice ``k`` is rolled (its recorder free again)."""
        fut = self.waiting.get(k)
        if fut is None:
            fut = self.waiting[k] = asyncio.get_running_loop().create_future()
        await fut

    def _close(self, k: int) -> None:
        """Every client left slice ``k``: roll its counts (with the worker's CPU and CLIENT-LAG since the last
        close) and queue them for shipping."""
        rec = self.ring[k % RING]
        counts = rec.roll()
        # the ring's own lag counts are never counted into: they take the place of the session's
        zeros = counts.own[CLIENT_LAG]
        assert isinstance(zeros, array)  # (a fresh roll's counts are dense)
        counts.own[CLIENT_LAG], self.session_rec.lag = self.session_rec.lag, zeros
        counts.spans["own", CLIENT_LAG] = self.session_rec.take_lag_span()
        cpu = time.process_time()
        counts.cpu_s, self.cpu_mark = cpu - self.cpu_mark, cpu
        self.closed = k
        assert self.shipments is not None
        if self.settle_ns:  # before the slice's own report: the controller has both once the slice is in
            settle = self.settle_ring[k % RING]
            part = settle.roll()
            part.cpu_s = 0.0  # (the slice's report carries the CPU and CLIENT-LAG of both)
            self.shipments.put_nowait((settle, SliceReport(self.plan.index, k, self.order[k], part, 0, settle=True)))
        self.shipments.put_nowait((rec, SliceReport(self.plan.index, k, self.order[k], counts, self.last_end[k])))
        fut = self.waiting.pop(k, None)
        if fut is not None:
            fut.set_result(None)

    async def watch_stop(self) -> None:
        """The stop flag (Ctrl-C), read every :data:`STOP_POLL_S` (no per-second ticker runs here)."""
        while not self.stop_flag.value:
            await asyncio.sleep(STOP_POLL_S)
        self.stopping = True
        assert self.hurry is not None
        self.hurry.set()

    async def shipper(self, t0: int) -> None:
        """Ship the closed slices in order, each at :data:`SHIP_AT` into the slice after it (``t0``: the session's
        start, perf_counter ns), a slot per turn of the loop, until told to end (None)."""
        assert self.shipments is not None
        while (item := await self.shipments.get()) is not None:
            rec, report = item
            await self._until(t0 + int((report.slice + 1 + SHIP_AT) * self.slice_ns))
            for _ in ship(rec, self.out, report):
                await asyncio.sleep(0)

    async def _until(self, due_ns: int) -> None:
        """Until ``due_ns`` (perf_counter ns), or at once when the clients are through or stopping (:attr:`hurry`).
        The loop's own timer, not the Alarm's exact wake-up: a point in the middle of a slice needs no better, and
        turning the loop towards it would cost CPU."""
        assert self.hurry is not None
        while not self.hurry.is_set() and (wait_s := (due_ns - time.perf_counter_ns()) / 1e9) > 0:
            with contextlib.suppress(TimeoutError):  # (a timer may fire a few ns early: the loop checks again)
                await asyncio.wait_for(self.hurry.wait(), wait_s)

    async def open_all(self, clients: int) -> list[BindingSet] | Failed:
        """One binding set per target (each client one connection to each), each made ready
        (:meth:`before_target`), or why not."""
        spec, index, sets = self.plan.spec, self.plan.index, []
        for t, url in enumerate(self.alt.urls):
            try:
                sets.append(await open_bindings(url, clients, self.alt.properties_of(t, spec.properties),
                                                self.timeout_s()))
            except Exception as exc:  # noqa: BLE001 - reported to the parent as one line
                for s in sets:
                    await s.close()
                why = str(exc) if isinstance(exc, (ConnectionLost, UserError)) else short_error(exc)
                return Failed(index, f"{why} (alternated target {t + 1}: {redact_url(url)})")
        for t, s in enumerate(sets):
            self.target_of.update({id(b): t for b in s.bindings})
        for t, s in enumerate(sets):
            refused = await self.before_target(t, s)
            if refused is not None:
                for s_ in sets:
                    await s_.close()
                return Failed(index, f"{refused} (alternated target {t + 1}: {redact_url(self.alt.urls[t])})")
        return sets

    async def run(self, start_event: Any, t_start: Any) -> Done | Failed:
        """Connect to every target, say :class:`Ready`, wait for the common start, run the slices; the last message."""
        index, clients = self.plan.index, len(self.plan.quotas)
        sets = await self.open_all(clients)
        if isinstance(sets, Failed):
            return sets
        self.refill()
        for rec in self.ring + self.settle_ring:  # each recorder's first roll swaps in zeroed counts made now
            rec.spares.put(rec.spare_set())
        gc.collect()  # before Ready, as Worker.run does: no collection while operations are in flight
        gc.freeze()
        self.out.put(Ready(index, os.getpid()))
        loop = asyncio.get_running_loop()
        started = await loop.run_in_executor(None, start_event.wait, 120)
        if not started or self.stop_flag.value:
            for s in sets:
                await s.close()
            return Done(index)
        t0 = int(t_start.value * 1e9)
        gc.disable()
        self.writes = WriteBatch(loop) if clients >= BATCHED_WRITES_FROM else None
        self.shipments, self.hurry = asyncio.Queue(), asyncio.Event()
        probe = LagProbe(loop, self.session_rec, self.out)
        alarm = Alarm(loop)
        try:
            await alarm.at(t0)
            self.cpu_mark = time.process_time()
            probe.start()
            ship_task = loop.create_task(self.shipper(t0))
            stop_task = loop.create_task(self.watch_stop())
            await self.run_clients([self.client_slices([s.bindings[c] for s in sets], t0, alarm)
                                    for c in range(clients)], t0 + self.session_ns)
            end = time.perf_counter_ns()
            stop_task.cancel()
            self.hurry.set()
            for k in range(self.closed + 1, self.n_slices):  # slices a stop left before every client was through
                if self.left[k]:
                    self._close(k)
            self.shipments.put_nowait(None)
            await ship_task
        finally:
            probe.stop()
            alarm.close()
            gc.enable()
        return await self.finish(sets, end)

    async def finish(self, sets: list[BindingSet], end: int) -> Done:
        """Close every target's bindings; the :class:`Done` with each target's part."""
        for t, s in enumerate(sets):
            protos = [p for p in (getattr(b, "proto", None) for b in s.bindings) if p is not None]
            self.ends[t].late = sum(getattr(p, "late", 0) for p in protos)
            self.ends[t].stray = sum(getattr(p, "stray", 0) for p in protos)
            await s.close()
            for b in s.bindings:
                self.note_error(b)
        late, stray = sum(e.late for e in self.ends), sum(e.stray for e in self.ends)
        return Done(self.plan.index, end, self.errors, self.ended, late=late, stray=stray, targets=self.ends)


class AlternatingWorker(SliceLoop):
    """YCSB's CoreWorkload in an alternated session: each slice through the target's YCSB binding, chains included."""

    def slice_codes(self) -> list[int]:
        return [op for op, _ in self.w.proportions]

    def slice_runner(self, binds: list[Binding], t0: int) -> SliceRun:
        chains = [b.chain for b in binds]
        tooks = [ChainTake() for _ in binds]
        ctxs: list[ChainContext | None] = [
            self.chain_context(0, took, t0, None, False) if chain is not None else None
            for chain, took in zip(chains, tooks)]

        async def run(t: int, rec: Recorder, end: int) -> None:
            ctx = ctxs[t]
            if ctx is not None:
                ctx.record, ctx.deadline_ns = rec.record, end
            self.rec = rec  # issue reads it once, before its first await (a read-modify-write's halves)
            await self.issue(binds[t], 0, None, end, False, 0, chains[t], ctx, tooks[t])

        return run
