"""A worker process for a workload plug-in other than CoreWorkload (see :mod:`ycsbctl.workload.plugin`).

Everything but the client loop is :class:`~ycsbctl.engine.worker.Worker`'s: the common start, the
per-second ticker, the lag probe, pacing, the batch prepared a slice at a time between operations,
and the one timing call per operation (:attr:`Recorder.record`). Each operation is one ``await`` of the
workload's executor for the URL's store, timed around that await exactly as the awaited YCSB path is.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine, Sequence
from typing import Any

from ycsbctl.engine.batches import take_size
from ycsbctl.engine.measurements import Recorder
from ycsbctl.engine.throttle import Pacer
from ycsbctl.engine.worker import (
    NO_DEADLINE,
    TURN_NS,
    Worker,
    WorkerPlan,
    worker_rng,
)
from ycsbctl.errors import short_error
from ycsbctl.stores.binding import Binding, ConnectionLost
from ycsbctl.stores.binding_set import BindingSet
from ycsbctl.stores.registry import protocol_of
from ycsbctl.workload.plugin import OK, TIMEOUT, Executor, PluginBatch, load_workload
from ycsbctl.workload.properties import Properties

# Why a client stopped when a plug-in broke its contract (the runner fails the point on it).
PLUGIN_FAILED = "the workload plug-in {}: its executor {} call {}"
SOURCE_FAILED = "the workload plug-in {}: its source {}"
HUNG = ("the workload plug-in {}: an operation of its executor had not returned {:g} s (--timeout) after the point's "
        "end; its clients were stopped")


class _SourceBroke(Exception):
    """The plug-in's operation source broke its contract (raised, or gave what is no batch of its op codes)."""


class PluginWorker(Worker):
    """One worker process of a plug-in workload: its clients execute the workload's operations."""

    def __init__(self, plan: WorkerPlan, acked: Any, stop_flag: Any, out: Any) -> None:  # noqa: D107
        self._loop_state(plan, stop_flag, out)
        spec = plan.spec
        self.plugin = load_workload(Properties(spec.properties))
        self.gen = self.plugin.source(spec.phase, worker_rng(plan), plan.index, plan.processes,
                                      acked,  # type: ignore[assignment]
                                        plan.load_block)
        protocol = protocol_of(spec.url)
        executor = self.plugin.executor(protocol)
        if executor is None:  # the runner refuses this before any worker starts
            raise ValueError(f"{type(self.plugin).__name__} cannot run on {protocol}")
        self.execute = executor
        self.codes = frozenset(self.plugin.op_codes(spec.phase))  # load_workload checked they are op codes
        self.rec = Recorder(spec.measurement, sorted(self.codes))
        self.args: list[Any] = []
        self.writes = None  # no chains: each request is written by its own await

    def timeout_s(self) -> float:
        """``--timeout``, or the plug-in's :attr:`~ycsbctl.workload.plugin.Workload.load_timeout_s` for a load
        it does not measure, when longer."""
        spec = self.plan.spec
        if spec.phase == "load" and not self.plugin.insert_only:
            return max(spec.timeout_s, self.plugin.load_timeout_s)
        return spec.timeout_s

    async def before_start(self, bs: BindingSet) -> str | None:
        """The plug-in's :meth:`~ycsbctl.workload.plugin.Workload.prepare` on the first binding (a table
        created, answers checked), outside the measurement; a raise is said in one line."""
        return await self.prepare_with(self.execute, bs)

    async def prepare_with(self, execute: Executor[Any], bs: BindingSet) -> str | None:
        """:meth:`before_start` with executor ``execute`` (an alternated session's: one per target)."""
        if not bs.bindings:
            return None
        try:
            why = await self.plugin.prepare(execute, bs.bindings[0], self.plan.spec.phase)
        except ConnectionLost as exc:
            return str(exc)
        except Exception as exc:  # noqa: BLE001 - a plug-in's bug is one line, never a traceback
            why = f"raised {short_error(exc)}"
        if why is not None and not isinstance(why, str):  # "…: 42" said nothing (fault43g)
            why = (f"its prepare() returned {why!r}, a {type(why).__name__}; it must return None (ready) or a "
                   "str saying why the point cannot be measured")
        return None if why is None else f"the workload plug-in {type(self.plugin).__name__}: {why}"

    async def run_clients(self, clients: list[Coroutine[Any, Any, None]], deadline_ns: int) -> None:
        """The client threads; those still running ``--timeout`` after the deadline are cancelled and the point fails
        naming the plug-in: an executor's await with no timeout of its own (a binding's operations have theirs) held
        the point, and the run, forever (fault43g). A phase without a deadline waits, as the engine's own clients."""
        if deadline_ns >= NO_DEADLINE:
            await asyncio.gather(*clients)
            return
        tasks = [asyncio.ensure_future(c) for c in clients]
        left_s = max(0.0, (deadline_ns - time.perf_counter_ns()) / 1e9) + self.timeout_s()
        _, pending = await asyncio.wait(tasks, timeout=left_s)
        if pending:
            for t in pending:
                t.cancel()
            await asyncio.wait(pending)
            self.fails_all(HUNG.format(type(self.plugin).__name__, self.timeout_s()))
        for t in tasks:  # a client's own raise, as gather would have raised it
            if not t.cancelled() and t.exception() is not None:
                raise t.exception()  # type: ignore[misc]

    def refill(self) -> None:
        b = self.batch = self.switch_batch()
        if not isinstance(b, PluginBatch):
            raise _SourceBroke(f"gave a {type(b).__name__} where a PluginBatch was due")
        if not self.codes.issuperset(b.ops):
            bad = next(op for op in b.ops if op not in self.codes)
            raise _SourceBroke(f"gave op code {bad!r}, none of its op_codes({self.plan.spec.phase!r}): "
                               f"{sorted(self.codes)}")
        self.ops, self.args = b.ops, b.args
        self.cursor = 0

    def take(self, n: int) -> tuple[Sequence, ...]:
        try:
            w = self.next_window(n)
        except _SourceBroke:
            raise
        except Exception as exc:  # noqa: BLE001 - the source's own raise, said as its and not the executor's
            raise _SourceBroke(f"raised {short_error(exc)}") from None
        return self.ops[w], self.args[w]

    def clients(self, bs: BindingSet) -> list[Binding]:
        return bs.bindings

    async def client(self, b: Binding, quota: int, pacer: Pacer | None, deadline_ns: int) -> None:
        """One client thread: execute operations until the quota, the deadline or a stop."""
        await self.execute_until(b, self.execute, quota, pacer, deadline_ns)

    async def execute_until(self, b: Binding, execute: Executor[Any], quota: int, pacer: Pacer | None,
                            deadline_ns: int) -> None:
        """The client's operations through ``execute`` on ``b`` until the quota (0: none), the deadline (perf_counter
        ns), a stop or a failure (an alternated session's client runs one slice so, against that slice's target)."""
        perf = time.perf_counter_ns
        is_load = self.plan.spec.phase == "load"
        done = 0
        op = 0
        blocking = b.blocking
        turn_end = perf() + TURN_NS
        try:
            while not self.stopping:
                want = take_size(quota, done)
                if not want:
                    break
                ops, args = self.take(want)
                if not ops:
                    break
                for op, arg in zip(ops, args):
                    due, t0 = await pacer.start(deadline_ns) if pacer is not None else (0, perf())
                    if due >= deadline_ns:
                        return
                    st = await execute(b, op, arg)
                    t1 = perf()
                    if not (isinstance(st, int) and OK <= st <= TIMEOUT):
                        self.plugin_failed(op, f"returned {st!r}, no status (0 OK, 1 NOT_FOUND, 2 ERROR, 3 TIMEOUT)")
                        return
                    done += 1
                    if self.settle(b, op, st, t0, t1, due, pacer, is_load) or t1 >= deadline_ns or self.stopping:
                        return
                    if blocking:
                        if t1 >= turn_end:  # see worker.TURN_NS
                            await asyncio.sleep(0)
                            turn_end = perf() + TURN_NS
                    elif not done & 127:
                        await asyncio.sleep(0)
        except ConnectionLost as exc:
            self.lost(exc)
        except _SourceBroke as exc:
            self.fails_all(SOURCE_FAILED.format(type(self.plugin).__name__, exc))
        except Exception as exc:  # noqa: BLE001 - a plug-in's bug fails the point in one line, never a traceback
            self.plugin_failed(op, f"raised {short_error(exc)}")

    def plugin_failed(self, op: int, what: str) -> None:
        """The plug-in's executor broke its contract on operation ``op``: this worker's clients stop and
        the point fails with one line naming the plug-in and the call (:data:`PLUGIN_FAILED`)."""
        names = self.plugin.operation_names
        name = names[op] if 0 <= op < len(names) else f"op {op}"
        self.executor_failed(PLUGIN_FAILED.format(type(self.plugin).__name__, name, what))

    def executor_failed(self, why: str) -> None:
        """The executor of the store a client runs broke its contract (``why``): every client stops."""
        self.fails_all(why)

    def fails_all(self, why: str) -> None:
        """The workload (its source, or a hung client) cannot go on (``why``): every client stops and the point
        fails."""
        self.stopping = True
        self.lost(ConnectionLost(why))
