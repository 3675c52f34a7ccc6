"""What the Redis and MongoDB chains share: a run of READ / UPDATE / INSERT operations of one client
driven from the protocol's reply callback (no coroutine switch per operation), each completed
through the engine's one timing call (:class:`~ycsbctl.stores.binding.ChainContext`)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from ycsbctl.stores.binding import ChainContext, Status
from ycsbctl.workload.core import INSERT

_now = time.perf_counter_ns
ERROR = int(Status.ERROR)  # a plain int named after the status: compared once per reply
TIMEOUT = int(Status.TIMEOUT)


class WriteBatch:
    """The requests the chains of one worker issue during one turn of its loop, written together
    once the turn's reply callbacks have run (one ``call_soon``), as redis-benchmark writes in the
    turn after its reads. Writing each request from its reply's callback instead charged every
    operation with the rest of that turn (up to ~1 ms at 128 connections) while its request was
    already on the wire: measured with bench engine at 128 threads, READ p99 ~1.9-2.0 ms against
    ~1.5 ms. An operation's latency runs from its write, as redis-benchmark's does."""

    __slots__ = ("loop", "chains")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.chains: list[ChainRun] = []

    def add(self, chain: ChainRun) -> None:
        chains = self.chains
        if not chains:
            self.loop.call_soon(self.flush)
        chains.append(chain)

    def flush(self) -> None:
        chains, self.chains = self.chains, []
        for c in chains:
            proto = c.b.proto
            # lost meanwhile: its chain is told so
            if c.dead or proto is None or (transport := proto.transport) is None:
                continue
            if c.ctx.pacer is None:  # (put, inlined: once per operation)
                c.t0 = _now()
                transport.write(c.payload)
            else:
                c.put(transport, c.payload)


class ChainRun:
    """Operations ``start:end`` of one batch. A subclass builds a request in :meth:`issue` and hands
    it to :meth:`write`, and calls :meth:`complete` with each reply's status; ``fut`` resolves when
    the run ends (None), or with the connection's error."""

    __slots__ = ("b", "ctx", "ops", "keys", "keynums", "rfs", "wfs", "first", "i", "end", "fut", "t0", "op",
                 "errors", "dead", "due", "payload", "before")

    def __init__(self, b: Any, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int,
                 fut: asyncio.Future) -> None:
        self.b, self.ctx, self.fut = b, ctx, fut
        self.ops, self.keys, self.keynums, self.rfs, self.wfs = batch
        self.first = self.i = start
        self.end = end
        self.before = 0  # operations done in earlier takes (see carry_on)
        self.t0 = self.op = self.errors = self.due = 0
        self.payload = b""
        self.dead = False

    def issue(self) -> None:
        raise NotImplementedError

    def late(self) -> bool:
        """Whether a reply that just came is too late for this chain (it timed out or failed): it is
        counted on the connection (``late``) and dropped."""
        if self.dead or self.fut.done():  # the watchdog resolved fut, or the connection failed
            self.dead = True
            self.b.proto.late += 1
            return True
        return False

    def write(self, payload: bytes) -> None:
        """Write the request of the operation just issued: with the worker's :class:`WriteBatch`
        at the end of this turn of the loop, else at once. ``t0`` is when it is written."""
        ctx = self.ctx
        writes = ctx.writes
        if writes is not None:
            self.t0 = 0  # set when written (an operation that ends before then is timed from its end)
            self.payload = payload
            writes.add(self)
        elif ctx.pacer is None:  # (put, inlined: once per operation)
            self.t0 = _now()
            self.b.proto.transport.write(payload)
        else:
            self.put(self.b.proto.transport, payload)

    def put(self, transport: Any, payload: bytes) -> None:
        """Write ``payload`` now: ``t0`` is this moment, and a paced operation has started."""
        self.t0 = t0 = _now()
        transport.write(payload)
        pacer = self.ctx.pacer
        if pacer is not None:
            pacer.started(self.due, t0)

    async def run(self) -> tuple[int, int]:
        """Issue the first operation and wait for the run's end: (done, failed). A lost connection
        or the watchdog's expiry ends the operation in flight (ERROR, TIMEOUT); after a lost one
        the binding reconnects (or raises :class:`~ycsbctl.stores.binding.ConnectionLost`)."""
        self.b.pending = self.fut
        self.next()
        try:
            r = await self.fut
        except ConnectionError:
            self.b.pending = None
            done, failed = self.end_in_flight(ERROR)
            await self.lost()
            return self.before + done - self.first, failed
        b = self.b  # (the connection of the operation in flight: a cluster's chain moves between shards)
        b.pending = None
        if r is b.EXPIRED:  # the watchdog expired the request in flight
            done, failed = self.end_in_flight(TIMEOUT)
            self.note(f"timed out after {b.timeout_s:g} s")
            return self.before + done - self.first, failed
        return self.before + self.i - self.first, self.errors

    async def lost(self) -> None:
        """The connection of the operation in flight was lost: open it again (or raise
        :class:`~ycsbctl.stores.binding.ConnectionLost`, which ends the client)."""
        await self.b._reconnect_or_raise()

    def note(self, error: str) -> None:
        """Why an operation failed, where the engine reads it (the binding's ``last_error``)."""
        self.b.last_error = error

    def complete(self, st: int, t1: int) -> None:
        """The operation in flight ended at ``t1`` (ns) with ``st``: time it, then issue the next or finish."""
        ctx = self.ctx
        op = self.op
        ctx.record(op, st, self.t0, t1, self.due or self.t0)
        if ctx.pacer is not None:
            ctx.pacer.ended(self.t0, t1)
        if op == INSERT and ctx.ack is not None:  # (acknowledge, inlined: once per reply)
            ctx.ack(self.keynums[self.i])
        self.i += 1
        if st >= ERROR:  # (NOT_FOUND is an answer, not a failure)
            self.errors += 1
            if ctx.stop_on_error:
                self.finish()
                return
        if t1 < ctx.deadline_ns and (
            self.i < self.end or (ctx.more is not None and not self.errors and ctx.more(self))
        ):
            if ctx.pacer is None:  # (next, inlined)
                self.issue()
            else:
                self.next()
        else:
            self.finish()

    def carry_on(self, batch: tuple[Any, ...], end: int) -> None:
        """Go on with operations ``0:end`` of another ``batch`` (the client's next take, handed over
        by ``ctx.more``) instead of ending: neither is the client's coroutine woken nor a new chain
        made for each take of 32 operations (that round trip left the client with nothing in flight
        until the next turn of the loop)."""
        self.before += self.i - self.first
        self.ops, self.keys, self.keynums, self.rfs, self.wfs = batch
        self.first = self.i = 0
        self.end = end

    def next(self) -> None:
        """Issue the next operation: at once, or (with a target rate) when it is due, from the
        worker's alarm — nothing is in flight meanwhile, so the watchdog is told so."""
        pacer = self.ctx.pacer
        if pacer is None:
            self.issue()
            return
        due = pacer.due()
        if due >= self.ctx.deadline_ns:
            self.finish()
        elif due > time.perf_counter_ns():
            self.due = due
            self.b.pending = None
            pacer.alarm.at(due).add_done_callback(self._when_due)
        else:
            self.due = due
            self.issue()

    def _when_due(self, waited: asyncio.Future) -> None:
        if self.dead or self.fut.done():
            return
        if waited.cancelled():  # the worker is closing its alarm
            self.finish()
            return
        b = self.b
        if b.proto is None or b.proto.transport is None:  # lost while waiting: the operation fails
            self.fail(ConnectionError(getattr(b.proto, "lost", None) or "connection lost"))
            return
        b.pending = self.fut
        self.issue()

    def acknowledge(self) -> None:
        """A run-phase insert ended (whatever its status, as YCSB): its key may now be read."""
        if self.op == INSERT and self.ctx.ack is not None:
            self.ctx.ack(self.keynums[self.i])

    def finish(self) -> None:
        self.dead = True
        if not self.fut.done():  # the watchdog may have expired it in the same loop iteration
            self.fut.set_result(None)

    def fail(self, err: BaseException) -> None:
        """The connection is gone (see WireProtocol.connection_lost)."""
        if not self.dead:
            self.dead = True
            if not self.fut.done():
                self.fut.set_exception(err)

    def end_in_flight(self, st: int) -> tuple[int, int]:
        """The operation in flight ends with ``st`` (timeout, lost connection): (done, failed) so far."""
        self.dead = True
        t1 = time.perf_counter_ns()
        t0 = self.t0 or t1
        self.ctx.record(self.op, st, t0, t1, self.due or t0)
        self.acknowledge()
        return self.i + 1, self.errors + 1


async def run_chain(kind: type[ChainRun], b: Any, ctx: ChainContext, batch: tuple[list, ...], start: int,
                    end: int) -> tuple[int, int]:
    """Operations ``start:end`` of ``batch`` on ``b``'s connection as a chain of ``kind``: (done, failed).
    Not connected: as on the awaited path, the first operation fails (ERROR) and the connection is
    opened again (or :class:`~ycsbctl.stores.binding.ConnectionLost` is raised)."""
    proto = b.proto
    if proto is None or proto.transport is None:
        now = _now()
        op = batch[0][start]
        ctx.record(op, ERROR, now, now, now)
        if op == INSERT and ctx.ack is not None:
            ctx.ack(batch[2][start])
        await b._reconnect_or_raise()
        return 1, 1
    return await kind(b, ctx, batch, start, end, b.loop.create_future()).run()
