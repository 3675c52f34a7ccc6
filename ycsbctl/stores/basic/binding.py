"""``basic://``: YCSB's BasicDB without output: every call returns OK at once (the engine alone)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence

from ycsbctl.native import core
from ycsbctl.stores.binding import Binding, ChainContext, Fields, Status, Values
from ycsbctl.workload.core import ALL_FIELDS, INSERT, UPDATE

OK = int(Status.OK)


class BasicBinding(Binding):
    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        return Status.OK

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        return Status.OK, {}  # as BasicDB: OK, and no data (so YCSB's VERIFY says ERROR)

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        return Status.OK

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        return Status.OK

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        return Status.OK

    async def delete(self, table: str, key: bytes) -> Status:
        return Status.OK

    async def chain(self, ctx: ChainContext, batch: tuple[Sequence, ...], start: int, end: int) -> tuple[int, int]:
        """READ / UPDATE / INSERT operations ``start:end`` of ``batch`` = (ops, keys, key numbers, read
        fields, write fields), each done at once, without a coroutine per operation: as the awaited
        path, each key is read when its operation is issued (keys of runs that insert are chosen then),
        each write takes its values, each run-phase insert is acknowledged, and each operation is timed
        through ``ctx.record``; a target rate waits for each due time. Returns (done, failed = 0).
        Measured: ~0.45 µs of client CPU per operation here against ~0.85 through awaited calls."""
        ops, keys, keynums, _, wfs = batch
        record, values, ack, pacer, deadline = ctx.record, ctx.values, ctx.ack, ctx.pacer, ctx.deadline_ns
        if core is not None and pacer is None:  # the same loop, compiled: ~0.3 µs per operation
            done = core.run_basic(ops, keys, keynums, wfs, start, end, record, values, ack, deadline)
            await asyncio.sleep(0)
            return done, 0
        now = time.perf_counter_ns
        i = start
        while i < end:
            op = ops[i]
            keys[i]  # noqa: B018 - issues the operation: a key chosen at issue time is chosen now
            if pacer is None:
                t0 = due = now()
            else:
                due = pacer.due()
                if due >= deadline:
                    break
                if due > now():
                    await pacer.alarm.at(due)
                t0 = now()
                pacer.started(due, t0)
            if op == UPDATE:
                values(wfs[i])
            elif op == INSERT:
                values(ALL_FIELDS)
            t1 = now()
            record(op, OK, t0, t1, due)
            if pacer is not None:
                pacer.ended(t0, t1)
            if op == INSERT and ack is not None:
                ack(keynums[i])
            i += 1
            if t1 >= deadline:
                break
        await asyncio.sleep(0)  # a binding that never suspends would starve the ticker and the other clients
        return i - start, 0
