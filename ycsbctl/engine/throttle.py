"""Target-rate pacing with intended start times (YCSB ``-target``)."""

from __future__ import annotations

import random
import time

from ycsbctl.engine.timerfd import Alarm


class Pacer:
    """One client thread's schedule: operation k is due at ``start + k·tick`` with
    tick = threads / target (s). A late thread issues back to back (nothing is skipped), and the
    intended latency (end − due) keeps the delay that coordinated omission would hide. A thread
    that is early waits on the worker's :class:`~ycsbctl.engine.timerfd.Alarm` (a kernel timer:
    never early, late by the loop's wake-up only), not on the loop's millisecond timers."""

    def __init__(self, start_ns: int, tick_ns: int, alarm: Alarm) -> None:
        self.start_ns = start_ns
        self.tick_ns = tick_ns
        self.alarm = alarm

    @classmethod
    def for_thread(cls, target_ops_s: float, threads: int, t0_ns: int, thread_index: int, alarm: Alarm) -> Pacer:
        tick = int(threads / target_ops_s * 1e9)
        # As YCSB does for slow per-thread rates, start each thread at a random point of its
        # first tick so that threads do not fire in lock-step.
        offset = random.Random(thread_index).randrange(tick) if tick >= 1_000_000 else 0
        return cls(t0_ns + offset, tick, alarm)

    async def wait(self, k: int) -> int:
        """Wait until operation ``k`` is due; return its due time (ns, perf_counter clock)."""
        due = self.start_ns + k * self.tick_ns
        if due > time.perf_counter_ns():
            await self.alarm.at(due)
        return due
