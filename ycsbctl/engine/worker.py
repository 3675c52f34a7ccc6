"""One worker process: its share of YCSB's client threads as coroutines on one event loop (the process's
entry point: :mod:`ycsbctl.engine.worker_process`).

Each client has its own binding (connection) and one request in flight, as a YCSB thread.
All clients of the process draw operations from one pre-generated batch (the workload model
makes them 1,024 at a time with numpy: :mod:`ycsbctl.engine.batches`), so the loop below does no random
number work.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections.abc import Coroutine, Generator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ycsbctl.engine.batches import CHAINED, BatchCursor, ChainTake, chained_end, take_size
from ycsbctl.engine.measurements import COMPONENT, LagProbe, Recorder
from ycsbctl.engine.messages import Done, Failed, Ready, SecondReport
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.engine.throttle import Pacer
from ycsbctl.engine.timerfd import Alarm
from ycsbctl.engine.verifying_binding import VerifyingBinding
from ycsbctl.errors import UserError, short_error
from ycsbctl.stores.binding import Binding, ChainContext, ChainRunner, ConnectionLost, Status
from ycsbctl.stores.binding_set import BindingSet
from ycsbctl.stores.chain import ChainRun, WriteBatch
from ycsbctl.stores.registry import open_bindings
from ycsbctl.workload.core import INSERT, READ, READ_MODIFY_WRITE, SCAN, UPDATE, VERIFY
from ycsbctl.workload.core_plugin import CorePlugin
from ycsbctl.workload.generators import LoadGenerator, OpBatch, RunGenerator
from ycsbctl.workload.properties import Properties

TURN_LOAD_CEILING = 0.9  # pacing turns the loop only while its load (share of a core) stays below this
BATCHED_WRITES_FROM = 32  # clients in one worker (bench engine: see WriteBatch)
# A client whose binding never suspends (Binding.blocking: SQLite runs each call on the loop's thread)
# hands the loop on after this long (ns), not every 128 operations: 128 of SQLite's 2 ms FULLTEXT-PREFIX
# queries × 50 clients held it 13 s, the ticker never ran, and the whole point fell into its warm-up
TURN_NS = 2_000_000
NO_DEADLINE = 2**63 - 1  # perf_counter ns: a phase that ends at its quota only (a load without --duration)
BATCH = 1024  # operations drawn at once: see BatchCursor.refill
MAX_ERRORS_KEPT = 5
LOAD_STOPPED = "an insert failed ({}); this thread stopped loading, as YCSB does"


def turn_budget(load: float) -> float:
    """The share of each pacing window the loop may turn (:attr:`Alarm.turn_budget`) after an interval in
    which it used ``load`` of a core: what :data:`TURN_LOAD_CEILING` leaves, at most
    :attr:`Alarm.TURN_BUDGET`, none once the load is at the ceiling."""
    return max(0.0, min(Alarm.TURN_BUDGET, TURN_LOAD_CEILING - load))


@dataclass
class WorkerPlan:
    """What the parent hands one worker process."""

    spec: PhaseSpec
    index: int
    processes: int
    quotas: list[int]  # operations per client thread; 0 = until the deadline
    load_block: tuple[int, int] | None  # (first key number, count) in the load phase
    thread_offset: int  # global index of this worker's first thread (for pacing offsets)
    worker: Any = None  # the Worker class that runs a plug-in workload (engine.plugin_worker); None: Worker
    cpus: tuple[int, ...] | None = None  # the CPU set it runs on (the client's if placed, else the parent's)
    controller: int | None = None  # pid of the process that runs the phase: the worker ends when it does
    environ: dict[str, str] | None = None  # the controller's, taken before anything else (launch.take_environment)


def worker_rng(plan: WorkerPlan) -> np.random.Generator:
    """The random stream of one worker process: ``[seed, process index]`` when the phase has a seed."""
    seed = None if plan.spec.seed is None else [plan.spec.seed, plan.index]
    return np.random.default_rng(seed)


class Worker(BatchCursor):
    """State shared by the client coroutines of one process (YCSB's CoreWorkload: the stores' YCSB
    bindings and their chains; another workload plug-in runs in ``engine.plugin_worker.PluginWorker``)."""

    def __init__(self, plan: WorkerPlan, acked: Any, stop_flag: Any, out: Any) -> None:
        self._loop_state(plan, stop_flag, out)
        spec = plan.spec
        self.workload = CorePlugin.from_properties(Properties(spec.properties))
        self.w = self.workload.core
        self.gen: LoadGenerator | RunGenerator = self.workload.source(
            spec.phase, worker_rng(plan), plan.index, plan.processes, acked, plan.load_block)
        # Indexed by field index + 1: [None (= all fields, ALL_FIELDS), [field0], [field1], …].
        self.read_fields = [None] + [[n] for n in self.w.field_names]
        # The same for chains (see ChainContext): every name, then each name alone.
        self.chain_names = [tuple(self.w.field_names)] + [(n,) for n in self.w.field_names]
        codes = [INSERT] if spec.phase == "load" else [op for op, _ in self.w.proportions]
        if self.w.dataintegrity:
            codes.append(VERIFY)
        self.rec = Recorder(spec.measurement, codes)
        self.writes: WriteBatch | None = None  # the chains' requests, written once per turn of the loop

    def _loop_state(self, plan: WorkerPlan, stop_flag: Any, out: Any) -> None:
        """What every worker's loop keeps, whatever its workload (see PluginWorker)."""
        self.plan = plan
        # In a run that inserts, keys[j] chooses operation j's key when first read (at issue, in
        # this loop or in a binding's chain): see ycsbctl.workload.live. Batches may stay large.
        self.batch_size = BATCH
        self.stop_flag = stop_flag
        self.out = out
        self.stopping = False
        self.errors: list[str] = []
        self.ended: list[str] = []
        self.ops: list[int] = []
        self.cursor = 0
        self.batch: OpBatch | None = None
        self.step_ns = int(plan.spec.series_interval_ms) * 1_000_000  # the ticker's interval (1 s, or 100 ms)
        self.next_tick = 0  # the interval the ticker will ship next
        self.next_steps: Generator[None, None, OpBatch] | None = None  # the next batch, in preparation
        self.prepared: OpBatch | None = None  # … and once it is ready
        self.slices = 64  # slices the last batch took to prepare (see take)
        self.sliced = 0  # … and those of the next batch run so far

    def timeout_s(self) -> float:
        """Each operation's timeout, s (``--timeout``)."""
        return self.plan.spec.timeout_s

    async def before_start(self, bs: BindingSet) -> str | None:
        """Once the bindings are connected, before :class:`Ready`: why this worker cannot run the point
        (a workload plug-in's :meth:`~ycsbctl.workload.plugin.Workload.prepare`), or None."""
        return None

    def clients(self, bs: BindingSet) -> list[Binding]:
        """The client threads' bindings: with ``dataintegrity=true``, wrapped to write YCSB's
        deterministic values and check every read (no chains then: each read is handed back)."""
        if not self.w.dataintegrity:
            return bs.bindings
        return [VerifyingBinding(b, self.w.field_names, self.w.fieldlength, self.rec.record) for b in bs.bindings]

    def note_error(self, binding: Binding) -> None:
        msg = binding.last_error
        if msg and len(self.errors) < MAX_ERRORS_KEPT and msg not in self.errors:
            self.errors.append(msg)

    def settle(self, b: Binding, op: int, st: int, t0: int, t1: int, due: int, pacer: Pacer | None,
               is_load: bool) -> bool:
        """An awaited operation ended at ``t1`` (ns) with ``st``: time it, tell the pacer, keep its error.
        True when the client must stop: a failed insert ends a load (YCSB's load stops at one)."""
        self.rec.record(op, st, t0, t1, due)
        if pacer is not None:
            pacer.ended(t0, t1)
        if st:
            return self.failed(b, is_load)
        return False

    def failed(self, b: Binding, is_load: bool) -> bool:
        """An operation (or a chain of them) failed: keep its error. True when the client must stop: a
        failed insert ends a load (YCSB's load stops at one)."""
        self.note_error(b)
        if is_load:
            self.ended.append(LOAD_STOPPED.format(b.last_error))
            return True
        return False

    async def insert_again(self, b: Binding, table: str, key: Any, st: Status) -> Status:
        """A load's insert that failed with ``st``, tried again as YCSB does (at most ``insertionretrylimit``
        times, ``insertionretryinterval`` s apart, until one succeeds): the last try's status."""
        for _ in range(self.w.insertion_retry_limit):
            await asyncio.sleep(self.w.insertion_retry_interval_s)
            st = await b.insert(table, key, self.gen.field_values())
            if not st:
                break
        return st

    def chain_context(self, quota: int, took: ChainTake, deadline_ns: int, pacer: Pacer | None,
                      is_load: bool) -> ChainContext:
        """What a client's chains are handed (see :class:`ChainContext`), with ``more``: the chain ``run``
        did its operations; hand it the client's next take if it did the whole of its take, the quota
        allows and the next take starts with chained operations. The take is kept in ``took`` for the
        client's loop, which sets ``took.done`` (its operations done before the chain) at each chain."""

        def more(run: ChainRun) -> bool:
            if run.end < len(run.ops):  # its take goes on with an operation it does not do
                return False
            ran = run.before + run.i - run.first
            want = take_size(quota, took.done + ran)
            if not want or self.stopping:
                return False
            took.part = part = self.take(want)
            took.before = ran
            k = chained_end(part[0], 0)
            if k:
                run.carry_on(part[:5], k)
            return k > 0

        gen = self.gen
        ack = None if is_load else gen.inserts.acknowledge  # type: ignore[union-attr]
        return ChainContext(self.rec.record, self.chain_names, gen.values_only, ack, deadline_ns, is_load,
                            self.w.table, pacer, self.writes, more)

    async def run_clients(self, clients: list[Coroutine[Any, Any, None]], deadline_ns: int) -> None:
        """The client threads, run to their end (each bounds its own operations by ``--timeout``)."""
        await asyncio.gather(*clients)

    def lost(self, exc: ConnectionLost) -> None:
        """A client's connection is gone for good: its reason ends the client and is kept once."""
        msg = str(exc)
        self.ended.append(msg)
        if msg not in self.errors and len(self.errors) < MAX_ERRORS_KEPT:
            self.errors.append(msg)

    def client(self, b: Binding, quota: int, pacer: Pacer | None, deadline_ns: int) -> Coroutine[Any, Any, None]:
        """One YCSB client thread, to await: its set-up here, its loop the coroutine returned (:meth:`issue`,
        not wrapped in another: a coroutine that only awaits another costs each resumption a frame). It takes
        TAKE (32) operations at a time from the shared batch so that other clients interleave."""
        is_load = self.plan.spec.phase == "load"
        retry_limit = self.w.insertion_retry_limit
        # Load-phase retries need the awaited path; a chain paces itself with the thread's pacer.
        chain = b.chain if not (is_load and retry_limit) else None
        took = ChainTake()  # the take the chain in flight went on into, if any (see chain_context)
        ctx = self.chain_context(quota, took, deadline_ns, pacer, is_load) if chain is not None else None
        return self.issue(b, quota, pacer, deadline_ns, is_load, retry_limit, chain, ctx, took)

    async def issue(self, b: Binding, quota: int, pacer: Pacer | None, deadline_ns: int, is_load: bool,
                    retry_limit: int, chain: ChainRunner | None, ctx: Any, took: ChainTake) -> None:
        """The client's operations, awaited or run by ``chain``, until the quota, the deadline, a stop or a lost
        connection (:meth:`lost`). Hot loop: locals only, one :attr:`Recorder.record` call per operation."""
        record = self.rec.record
        table = self.w.table
        read_fields = self.read_fields  # by field index + 1
        gen = self.gen
        perf = time.perf_counter_ns
        done = j = n = 0
        blocking = b.blocking
        turn_end = perf() + TURN_NS
        try:
            while not self.stopping:
                if j >= n:
                    want = take_size(quota, done)
                    if not want:
                        break
                    ops, keys, keynums, rfs, wfs, sls = self.take(want)
                    n, j = len(ops), 0
                    if n == 0:
                        break
                op = ops[j]
                if chain is not None and op in CHAINED:
                    # READ/UPDATE/INSERT runs: the binding chains them from its reply callback
                    # without a coroutine switch per operation (see RedisBinding.chain), on into
                    # the client's later takes while they start with such operations (see chain_context).
                    took.part, took.done = None, done
                    m, bad = await chain(ctx, (ops, keys, keynums, rfs, wfs), j, chained_end(ops, j))
                    if took.part is None:
                        j += m
                    else:  # it went on into later takes: go on where it stopped in the last
                        ops, keys, keynums, rfs, wfs, sls = took.part
                        n, j = len(ops), m - took.before
                    done += m
                    if bad and self.failed(b, is_load):
                        break
                    if perf() >= deadline_ns or (pacer is not None and pacer.due() >= deadline_ns):
                        break
                    continue
                key = keys[j]
                due, t0 = await pacer.start(deadline_ns) if pacer is not None else (0, perf())
                if due >= deadline_ns:
                    break
                if op == 0:  # READ
                    st = await b.read(table, key, read_fields[rfs[j] + 1])
                elif op == UPDATE:
                    st = await b.update(table, key, gen.field_values(wfs[j]))
                elif op == INSERT:
                    st = await b.insert(table, key, gen.field_values())
                    if is_load and st and retry_limit:
                        st = await self.insert_again(b, table, key, st)
                    if not is_load:
                        gen.inserts.acknowledge(keynums[j])  # type: ignore[union-attr]
                elif op == SCAN:
                    st = await b.scan(table, key, sls[j], read_fields[rfs[j] + 1])
                elif op == READ_MODIFY_WRITE:
                    st = await b.read(table, key, read_fields[rfs[j] + 1])
                    t_mid = perf()
                    # Each half's intended latency runs from the whole operation's intended start (YCSB).
                    record(COMPONENT + READ, st, t0, t_mid, due or t0)
                    st2 = await b.update(table, key, gen.field_values(wfs[j]))
                    t_end = perf()
                    record(COMPONENT + UPDATE, st2, t_mid, t_end, due or t0)
                    st = st or st2
                else:  # DELETE: not generated by CoreWorkload, kept for completeness
                    st = await b.delete(table, key)
                t1 = perf()
                j += 1
                done += 1
                if self.settle(b, op, st, t0, t1, due, pacer, is_load) or t1 >= deadline_ns:
                    break
                if blocking:
                    if t1 >= turn_end:
                        await asyncio.sleep(0)  # a binding that never suspends (SQLite) would starve the ticker
                        turn_end = perf() + TURN_NS
                elif not done & 127:
                    await asyncio.sleep(0)  # nor would one that seldom does (basic://)
        except ConnectionLost as exc:
            self.lost(exc)

    async def ticker(self, t_start_ns: int, probe: LagProbe, alarm: Alarm | None = None) -> None:
        """Once a second (every 100 ms for a phase with a fine series, on the phase's clock): swap the
        interval's counts for zeroed ones and send them through ``probe``, a slice per turn of the loop
        (see :meth:`LagProbe.ship_steps`)."""
        step_ns = self.step_ns
        per_second = 1_000_000_000 // step_ns
        fine = per_second > 1
        k = 1
        while True:
            delay = (t_start_ns + k * step_ns - time.perf_counter_ns()) / 1e9
            if delay > 0:
                await asyncio.sleep(delay)
            counts = self.rec.roll()
            self.next_tick = k
            if alarm is not None:  # pacing may turn the loop in what the last interval left idle
                load = counts.cpu_s * per_second
                alarm.turn_budget = turn_budget(load)
            if self.stop_flag.value:
                self.stopping = True
            second, tenth = divmod(k - 1, per_second)
            report = SecondReport(self.plan.index, second, counts, tenth=tenth if fine else None)
            for _ in probe.ship_steps(report):
                await asyncio.sleep(0)  # the clients run between two slices
            k += 1

    async def run(self, start_event: Any, t_start: Any) -> Done | Failed:
        """Connect, say :class:`Ready`, wait for the common start, run the clients; the last message."""
        spec, index = self.plan.spec, self.plan.index
        clients = len(self.plan.quotas)
        try:
            bs: BindingSet = await open_bindings(spec.url, clients, spec.properties, self.timeout_s())
        except (ConnectionLost, UserError) as exc:  # the store's own line (UserError: a property it refuses here)
            return Failed(index, str(exc))
        except Exception as exc:  # noqa: BLE001 - reported to the parent as one line
            return Failed(index, short_error(exc))
        why = await self.before_start(bs)
        if why is not None:
            await bs.close()
            return Failed(index, why)
        self.refill()
        # No cyclic GC while operations are in flight: a collection is a pause of the loop, and the
        # hot path makes no cycles (reference counting frees everything it allocates); what error
        # paths leave is collected once the phase is over. The collection runs before Ready, not after
        # the start: the start is only START_LEAD_S away when it is signalled (runner.py).
        gc.collect()
        gc.freeze()
        self.out.put(Ready(index, os.getpid()))
        loop = asyncio.get_running_loop()
        started = await loop.run_in_executor(None, start_event.wait, 120)
        if not started or self.stop_flag.value:
            await bs.close()
            return Done(index)
        t0 = int(t_start.value * 1e9)
        deadline = (
            t0 + int((spec.warmup_s + spec.duration_s) * 1e9) if spec.duration_s else NO_DEADLINE
        )
        gc.disable()
        # Many clients: write the turn's requests together (see WriteBatch); few: each from its reply's
        # callback (a turn then holds a few replies, and deferring cost up to 28 % of the throughput).
        self.writes = WriteBatch(loop) if clients >= BATCHED_WRITES_FROM else None
        probe = LagProbe(loop, self.rec, self.out)
        alarm = Alarm(loop)  # the common start, then the pacers' wake-ups
        try:
            await alarm.at(t0)
            self.rec.cpu_mark = time.process_time()
            if spec.target_rate:
                self.rec.idle_ns, self.rec.idle_mark = alarm.idle_total_ns, alarm.idle_total_ns()
            probe.start()
            tick_task = loop.create_task(self.ticker(t0, probe, alarm if spec.target_rate else None))
            pacers = [
                Pacer.for_thread(spec.target_rate, spec.threads, t0, self.plan.thread_offset + c, alarm,
                                 self.rec.record_schedule_lag) if spec.target_rate else None
                for c in range(clients)
            ]
            await self.run_clients([self.client(b, q, p, deadline)
                                    for b, q, p in zip(self.clients(bs), self.plan.quotas, pacers)], deadline)
            end = time.perf_counter_ns()
            tick_task.cancel()
        finally:
            probe.stop()  # sends the seconds it still holds
            alarm.close()
            gc.enable()
        # What was measured since the last tick belongs to the ticker's next interval, unless the
        # run ended later than that interval (a late ticker must not shift data by an interval).
        k_last = int(min((end - t0) // self.step_ns, self.next_tick))
        per_second = 1_000_000_000 // self.step_ns
        second, tenth = divmod(k_last, per_second)
        self.out.put(SecondReport(index, second, self.rec.roll().compact(), tenth=tenth if per_second > 1 else None))
        protos = [p for p in (getattr(b, "proto", None) for b in bs.bindings) if p is not None]  # read once, at the end
        late, stray = sum(getattr(p, "late", 0) for p in protos), sum(getattr(p, "stray", 0) for p in protos)
        counts: dict[str, int] = {}
        for b in bs.bindings:  # a binding's own counters (Redis Cluster: redirections), summed
            for k, v in (getattr(b, "counts", None) or {}).items():
                counts[k] = counts.get(k, 0) + int(v)
        await bs.close()
        for b in bs.bindings:
            self.note_error(b)
        return Done(index, end, self.errors, self.ended, late=late, stray=stray, counts=counts)
