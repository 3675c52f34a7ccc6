"""Chains of READ / UPDATE / INSERT for the SQL wire bindings (PostgreSQL, MariaDB): each reply
completes its operation and the next request is written from the protocol's callback, as the Redis
and MongoDB chains do (:mod:`ycsbctl.stores.chain`). A binding says how to write an operation
(``read_request``, ``update_request``, ``insert_request``) and what its reply means (``status``)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ycsbctl.stores.binding import ChainContext
from ycsbctl.stores.chain import ChainRun
from ycsbctl.workload.core import ALL_FIELDS, INSERT, READ


class SqlChain(ChainRun):
    """Consecutive operations of one client: it waits in the protocol's queue as a future would
    (``done``, ``set_result``, ``set_exception``)."""

    __slots__ = ("table",)

    def __init__(self, b: Any, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int,
                 fut: asyncio.Future) -> None:
        super().__init__(b, ctx, batch, start, end, fut)
        self.table = ctx.table

    def issue(self) -> None:
        i = self.i
        op = self.ops[i]
        ctx, b = self.ctx, self.b
        if op == READ:
            rf = self.rfs[i]
            data = b.read_request(self.table, self.keys[i], None if rf == ALL_FIELDS else ctx.names[rf + 1])
        elif op == INSERT:
            data = b.insert_request(self.table, self.keys[i], ctx.names[0], ctx.values(ALL_FIELDS))
        else:
            wf = self.wfs[i]
            data = b.update_request(self.table, self.keys[i], ctx.names[wf + 1], ctx.values(wf))
        self.op = op
        b.proto.waiters.append(self)
        b.seq += 1
        self.write(data)

    def done(self) -> bool:
        """True once the chain has ended: a late reply (after a timeout) is then dropped."""
        return self.dead or self.fut.done()

    def set_result(self, reply: Any) -> None:
        t1 = time.perf_counter_ns()
        self.complete(self.b.status(self.op, reply), t1)

    set_exception = ChainRun.fail
