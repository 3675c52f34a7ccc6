"""Run-phase insert key numbers: YCSB's ``AcknowledgedCounterGenerator``, shared by processes.

YCSB's CoreWorkload hands every run-phase insert the next number of one counter that starts at
``recordcount`` (``transactioninsertkeysequence.nextValue()``, taken when the insert is issued)
and acknowledges it when the insert returns, whatever its status. The *limit* ``L`` (its
``lastValue()``) is the highest key number such that every number up to it is acknowledged;
reads, updates, scans and read-modify-writes never choose a key above ``L``, and ``latest`` and
``exponential`` count back from it.

What "latest" means across worker processes: ycsbctl's ``--threads N`` is *one* YCSB client with
N threads, wherever the threads run. So all worker processes share one counter and one
acknowledgement window (shared memory, see :func:`shared_insert_state`): ``L`` is the highest
key every one of whose predecessors was acknowledged by *any* process, exactly as YCSB's single
``Client`` with N threads; it lags the newest issued insert only by the inserts still in
flight. (Several separate YCSB client instances would each count from ``recordcount`` on their
own and insert the same keys; a ycsbctl run never does.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

WINDOW = 1 << 20  # acknowledgements in flight at most (YCSB's AcknowledgedCounterGenerator: 2^20)
_NEXT, _ACKED = 0, 1  # counters: next number to hand out, count of contiguously acknowledged


@dataclass
class InsertState:
    """The counter and its acknowledgement window: plain Python objects in one process, shared
    memory (:func:`shared_insert_state`) across worker processes. Numbers are relative to the
    counter's start: ``counters = [next j, contiguous acknowledged count]``, ``ring[j % WINDOW]``
    is 1 once insert j is acknowledged and not yet folded into the count."""

    counters: Any
    ring: Any
    alloc_lock: Any = None
    ack_lock: Any = None


def local_insert_state() -> InsertState:
    return InsertState([0, 0], bytearray(WINDOW))


def shared_insert_state(ctx: Any) -> InsertState:
    """The state in shared memory, for the worker processes of one phase (``ctx``: a
    ``multiprocessing`` context; pass the result to the processes when starting them)."""
    return InsertState(ctx.Array("q", 2, lock=False), ctx.Array("b", WINDOW, lock=False), ctx.Lock(), ctx.Lock())


class InsertSequence:
    """Key numbers ``start, start+1, …`` for run-phase inserts, handed out one at a time when the
    insert is issued (:meth:`next`), with YCSB's acknowledged limit (:meth:`limit`)."""

    def __init__(self, start: int, state: InsertState | None = None) -> None:
        self.start = start
        self.state = state if state is not None else local_insert_state()
        self.counters, self.ring = self.state.counters, self.state.ring
        self.alloc_lock, self.ack_lock = self.state.alloc_lock, self.state.ack_lock

    def next(self) -> int:
        """The next key number (one insert about to be issued)."""
        c = self.counters
        if self.alloc_lock is None:
            j = c[_NEXT]
            c[_NEXT] = j + 1
        else:
            with self.alloc_lock:
                j = c[_NEXT]
                c[_NEXT] = j + 1
        if j - c[_ACKED] >= WINDOW:
            raise RuntimeError(f"more than {WINDOW} run-phase inserts unacknowledged (YCSB fails the same way)")
        return self.start + j

    def allocate(self, n: int) -> np.ndarray:
        """``n`` numbers from :meth:`next` (for tests and tools that issue them in order)."""
        return np.array([self.next() for _ in range(n)], dtype=np.int64)

    def acknowledge(self, keynum: int) -> None:
        """Insert ``keynum`` returned: fold every contiguous acknowledgement into the limit. Like
        YCSB's, one that finds another process folding leaves its mark for the next one."""
        ring, c = self.ring, self.counters
        ring[(keynum - self.start) % WINDOW] = 1
        lock = self.ack_lock
        if lock is not None and not lock.acquire(False):
            return
        try:
            n = c[_ACKED]
            while ring[n % WINDOW]:
                ring[n % WINDOW] = 0
                n += 1
            c[_ACKED] = n
        finally:
            if lock is not None:
                lock.release()

    def limit(self) -> int:
        """``L``: the highest key number with every number up to it acknowledged
        (``recordcount − 1`` before any run-phase insert)."""
        return self.start - 1 + self.counters[_ACKED]
