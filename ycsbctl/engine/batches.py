"""The worker's shared batch of operations (:class:`BatchCursor`): its clients take a few operations of it
at a time, and the batch after it is prepared a slice at a time between their operations.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from ycsbctl.slices import drain
from ycsbctl.workload.core import INSERT, READ, UPDATE
from ycsbctl.workload.generators import LoadGenerator, OpBatch, RunGenerator

CHAINED = frozenset((READ, UPDATE, INSERT))  # operations a binding may run as a chain


TAKE = 32  # operations a client takes from the worker's batch at a time, so that clients interleave


def take_size(quota: int, done: int) -> int:
    """How many operations a client with ``quota`` (0: none, until the deadline; < 0: nothing to do)
    that did ``done`` takes next: :data:`TAKE`, fewer near its quota, 0 when it is through."""
    if quota < 0:
        return 0
    return TAKE if quota == 0 else max(0, min(TAKE, quota - done))


def chained_end(ops: Sequence[int], j: int) -> int:
    """Where the run of chained operations that starts at ``j`` of ``ops`` ends (``j``: none)."""
    k = j
    while k < len(ops) and ops[k] in CHAINED:
        k += 1
    return k


class ChainTake:
    """The take a client's chain went on into (see ``Worker.chain_context``'s ``more``): its operations,
    and the chain's operations done before it; and the client's operations done before the chain."""

    __slots__ = ("part", "before", "done")

    def __init__(self) -> None:
        self.part: tuple[Sequence, ...] | None = None
        self.before = 0
        self.done = 0


class BatchCursor:
    """Where a worker's clients stand in its current batch of operations, and the next batch in preparation
    (the state :meth:`ycsbctl.engine.worker.Worker._loop_state` sets; :class:`~ycsbctl.engine.worker.Worker`
    is one)."""

    gen: LoadGenerator | RunGenerator
    batch_size: int  # operations drawn at once
    stopping: bool  # an empty batch stops the clients
    ops: list[int]
    keys: Any
    keynums: Any
    rf: Any
    wf: Any
    sl: Any
    cursor: int  # the next operation of the batch to take
    batch: OpBatch | None
    next_steps: Generator[None, None, OpBatch] | None  # the next batch, in preparation
    prepared: OpBatch | None  # … and once it is ready
    slices: int  # slices the last batch took to prepare (see take)
    sliced: int  # … and those of the next batch run so far

    def refill(self) -> None:
        """Switch to the next batch and start preparing the one after it. The loop runs this while
        other clients' operations are in flight: drawing 1,024 operations at once costs ~0.25 ms
        (more under load), which every operation in flight would carry (at 130k ops/s, ~1.5 % of
        operations: their p99). So :meth:`take` prepares the next batch a slice (≤ ~12 µs) or two
        per call, spread over the first 7/8 of the current batch; here only what is left of it is
        finished (nothing, unless the clients outran it)."""
        b = self.batch = self.switch_batch()
        self.ops, self.keys, self.keynums = b.ops, b.keys, b.keynums
        self.rf, self.wf, self.sl = b.read_field, b.write_field, b.scan_length
        self.cursor = 0

    def switch_batch(self) -> Any:
        """The next batch (what is left of its preparation finished here), and the one after it
        started; an empty batch stops the clients."""
        if self.prepared is not None:
            b = self.prepared
        else:
            b = drain(self.next_steps) if self.next_steps is not None else self.gen.next_batch(self.batch_size)
        self.prepared, self.next_steps, self.sliced = None, self.gen.batch_steps(self.batch_size), 0
        if len(b) == 0:
            self.stopping = True
        return b

    def next_window(self, n: int) -> slice:
        """Where the next ``n`` operations stand in the current batch (a fresh one once this one is
        used up), with the batch after it prepared meanwhile; the cursor moves past them."""
        i = self.cursor
        if i >= len(self.ops):
            self.refill()
            i = 0
        self.prepare_next(i + n)
        self.cursor = i + n
        return slice(i, i + n)

    def take(self, n: int) -> tuple[Sequence, ...]:
        """The next ``n`` operations (fewer at the end of a load block) as list slices."""
        w = self.next_window(n)
        return self.ops[w], self.keys[w], self.keynums[w], self.rf[w], self.wf[w], self.sl[w]

    def prepare_next(self, upto: int) -> None:
        """Run the next batch's preparation a slice or two (see :meth:`refill`) as the clients take
        this batch up to operation ``upto``."""
        if self.next_steps is not None and self.ops:
            # Spread the slices over the first 7/8 of this batch (as many as the last batch took).
            goal = self.slices * 8 * upto // (7 * len(self.ops)) + 1
            try:
                while self.sliced < goal:
                    self.sliced += 1
                    next(self.next_steps)
            except StopIteration as made:
                self.prepared, self.next_steps, self.slices = made.value, None, self.sliced
