"""Target-rate pacing with intended start times (YCSB ``-target``)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ycsbctl.engine.timerfd import Alarm


class Pacer:
    """One client thread's schedule: operation k is due at ``start + k·tick`` with
    tick = threads / target (s). A late thread issues back to back (nothing is skipped), and the
    intended latency (end − due) keeps the delay that coordinated omission would hide. A thread
    that is early waits on the worker's :class:`~ycsbctl.engine.timerfd.Alarm` (a kernel timer:
    never early, a few µs late), not on the loop's millisecond timers.

    The awaited path and a binding's chain use it alike: :meth:`due` (the next operation's time),
    :meth:`started` when its request is written, :meth:`ended` when its reply is in. ``lag``
    receives each operation's schedule lag (ns, see :meth:`started`)."""

    __slots__ = ("start_ns", "tick_ns", "alarm", "lag", "k", "ideal", "ideal_end")

    def __init__(self, start_ns: int, tick_ns: int, alarm: Alarm, lag: Callable[[int], None] | None = None) -> None:
        self.start_ns = start_ns
        self.tick_ns = tick_ns
        self.alarm = alarm
        self.lag = lag
        self.k = 0  # operations started
        self.ideal = self.ideal_end = 0

    @classmethod
    def for_thread(cls, target_ops_s: float, threads: int, t0_ns: int, thread_index: int, alarm: Alarm,
                   lag: Callable[[int], None] | None = None) -> Pacer:
        tick = int(threads / target_ops_s * 1e9)
        # As YCSB does for slow per-thread rates, start each thread at a random point of its
        # first tick so that threads do not fire in lock-step.
        offset = random.Random(thread_index).randrange(tick) if tick >= 1_000_000 else 0
        return cls(t0_ns + offset, tick, alarm, lag)

    def due(self) -> int:
        """When the next operation is due (ns, perf_counter clock)."""
        return self.start_ns + self.k * self.tick_ns

    async def wait(self) -> int:
        """Wait until the next operation is due; return its due time."""
        due = self.due()
        if due > time.perf_counter_ns():
            await self.alarm.at(due)
        return due

    async def start(self, deadline_ns: int) -> tuple[int, int]:
        """The awaited path's start of an operation: wait until it is due, then mark it started now.
        Returns (due, t0) in ns; an operation due at or after ``deadline_ns`` is not started (its
        t0 is 0) and the caller stops."""
        due = await self.wait()
        if due >= deadline_ns:
            return due, 0
        t0 = time.perf_counter_ns()
        self.started(due, t0)
        return due, t0

    def started(self, due: int, t0: int) -> None:
        """The operation due at ``due`` was written at ``t0``. Its schedule lag is how much later it
        started than with an instantaneous client: at its due time, or when this thread's previous
        operation would have ended (the server's time for it, from its own ideal start) if that is
        later. A backlog the server made is not counted; one the client made (a pause, too slow a
        loop) is."""
        ideal = due if due > self.ideal_end else self.ideal_end
        self.ideal = ideal
        self.k += 1
        if self.lag is not None:
            self.lag(t0 - ideal)

    def ended(self, t0: int, t1: int) -> None:
        """The operation started at ``t0`` ended at ``t1``."""
        self.ideal_end = self.ideal + (t1 - t0)
