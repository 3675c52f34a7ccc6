"""Target-rate pacing with intended start times (YCSB ``-target``)."""

from __future__ import annotations

import asyncio
import random
import time


class Pacer:
    """One client thread's schedule: operation k is due at ``start + k·tick`` with
    tick = threads / target (s). A late thread issues back to back (nothing is skipped), and the
    intended latency (end − due) keeps the delay that coordinated omission would hide."""

    def __init__(self, start_ns: int, tick_ns: int) -> None:
        self.start_ns = start_ns
        self.tick_ns = tick_ns

    @classmethod
    def for_thread(cls, target_ops_s: float, threads: int, t0_ns: int, thread_index: int) -> Pacer:
        tick = int(threads / target_ops_s * 1e9)
        # As YCSB does for slow per-thread rates, start each thread at a random point of its
        # first tick so that threads do not fire in lock-step.
        offset = random.Random(thread_index).randrange(tick) if tick >= 1_000_000 else 0
        return cls(t0_ns + offset, tick)

    async def wait(self, k: int) -> int:
        """Sleep until operation ``k`` is due; return its due time (ns, perf_counter clock)."""
        due = self.start_ns + k * self.tick_ns
        # A loop, as YCSB's parkNanos loop: uvloop's millisecond timers wake up to ~0.7 ms early
        # (measured: 7 of 300 sleeps), which would start an operation before its intended time.
        while (delay := due - time.perf_counter_ns()) > 0:
            await asyncio.sleep(delay / 1e9)
        return due
