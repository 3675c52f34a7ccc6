"""Kernel timers the event loop watches like sockets (Linux ``timerfd`` on CLOCK_MONOTONIC, the
clock of ``time.perf_counter_ns``): wake-ups at a given nanosecond, never early, without the
loop's own timers (millisecond granularity) and without a thread that would take the GIL."""

from __future__ import annotations

import asyncio
import ctypes
import heapq
import os
import time

_TFD_TIMER_ABSTIME = 1


class _Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("it_interval", _Timespec), ("it_value", _Timespec)]


_libc = ctypes.CDLL(None, use_errno=True)


class TimerFd:
    """One non-blocking timerfd. :meth:`arm` sets its first expiry (absolute, perf_counter ns) and
    period (0: once); :meth:`expiries` reads how many expiries passed since the last read."""

    def __init__(self) -> None:
        # O_NONBLOCK | O_CLOEXEC are TFD_NONBLOCK | TFD_CLOEXEC
        fd = _libc.timerfd_create(time.CLOCK_MONOTONIC, os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), "timerfd_create failed")
        self.fd: int = fd
        self._spec = _Itimerspec()

    def arm(self, at_ns: int, interval_ns: int = 0) -> None:
        spec = self._spec
        spec.it_value.tv_sec, spec.it_value.tv_nsec = divmod(max(at_ns, 1), 1_000_000_000)
        spec.it_interval.tv_sec, spec.it_interval.tv_nsec = divmod(interval_ns, 1_000_000_000)
        if _libc.timerfd_settime(self.fd, _TFD_TIMER_ABSTIME, ctypes.byref(spec), None) != 0:
            raise OSError(ctypes.get_errno(), "timerfd_settime failed")

    def expiries(self) -> int:
        try:
            return int.from_bytes(os.read(self.fd, 8), "little")
        except BlockingIOError:
            return 0

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


class Alarm:
    """Wake-ups at exact times on one loop: :meth:`at` returns a future resolved when its time
    (perf_counter ns) has come — never before it, and within a few µs after it.

    A kernel timer wakes an idle loop ~40 µs late on a virtual machine (measured here: timerfd and
    epoll, p50 42 µs, p99 ~150 µs, whatever the timer slack), and the loop's own timers up to ~1 ms
    late or early. So the timer is armed :attr:`EARLY_NS` before the earliest time pending, and from
    then until that time the loop turns without blocking (one ``call_soon`` per iteration): every
    iteration still polls its sockets, so a reply that arrives meanwhile waits one iteration (a few
    µs), never a spin. The cost is CPU, only in that window before each wake-up, and at most
    :attr:`TURN_BUDGET` of each :attr:`WINDOW_NS` (then the timer is armed for the time itself);
    :attr:`turned_total_ns` says how long the loop turned (wall time, what the budget counts) and
    :attr:`idle_total_ns` how much of it was the turning itself, which the worker leaves out of the
    client CPU it reports (the bottleneck judge reads it: waiting for a due time is no load). A reply
    handled during a turning iteration is load, not waiting: each iteration is credited as idle at most
    :attr:`IDLE_SLACK` times the cheapest iteration seen (an empty one: the loop's poll and this call),
    so what else ran in it stays in the client's CPU (crediting the whole wall time hid the replies of
    a Redis paced at many thousand reads/s: ``python -m bench store_clients`` shows its paced figure)."""

    EARLY_NS = 100_000
    WINDOW_NS = 100_000_000
    TURN_BUDGET = 0.5  # the most of each window the loop may turn (see turn_budget)
    IDLE_SLACK = 2.0  # an iteration's idle credit: at most this × the cheapest iteration (jitter)

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.timer = TimerFd()
        self.heap: list[tuple[int, int, asyncio.Future]] = []
        self.armed = 0  # the expiry the timer is set for (0: none)
        self.turning = False  # the loop is turning towards the earliest time (see _turn)
        self.turn_from = 0  # when the current turning began (ns)
        self.turned = 0  # ns turned in the turnings that have ended
        self.idle = 0  # ns of that turning credited as idle (see idle_total_ns)
        self.turn_last = 0  # when the last turning iteration ran (ns)
        self.turn_min = 1 << 62  # the cheapest turning iteration seen (ns): an empty one
        self.window_end = 0  # the end of the current budget window (ns)
        self.window_base = 0  # turned_total_ns() when that window began
        # Share of each window the loop may turn: the worker lowers it as its real load grows (a loop
        # busy with operations wakes on time anyway, and turning would take CPU from them).
        self.turn_budget = self.TURN_BUDGET / 2
        self.seq = 0
        loop.add_reader(self.timer.fd, self._fire)

    def at(self, due_ns: int) -> asyncio.Future:
        fut = self.loop.create_future()
        heapq.heappush(self.heap, (due_ns, self.seq, fut))
        self.seq += 1
        if not self.turning:
            self._arm()
        return fut

    def _arm(self) -> None:
        """Set the timer :attr:`EARLY_NS` before the earliest time pending (at it, when this window's
        turning budget is spent); a time past fires at once."""
        if not self.heap:
            return
        early = self.EARLY_NS if self._spent(time.perf_counter_ns()) < self.turn_budget * self.WINDOW_NS else 0
        wake = self.heap[0][0] - early
        if not self.armed or wake < self.armed:
            self.timer.arm(wake)
            self.armed = wake

    def turned_total_ns(self, now: int = 0) -> int:
        """How long the loop has turned towards due times so far (ns), at ``now`` (default: now)."""
        now = now or time.perf_counter_ns()
        return self.turned + (now - self.turn_from if self.turning else 0)

    def idle_total_ns(self) -> int:
        """How much of the turning so far was the loop turning empty (ns): each turning iteration's
        wall time, at most :attr:`IDLE_SLACK` × the cheapest one seen; the rest ran other callbacks."""
        return self.idle

    def _spent(self, now: int) -> int:
        """ns turned in the current budget window; a new window begins once the last one has ended."""
        total = self.turned_total_ns(now)
        if now >= self.window_end:
            self.window_end, self.window_base = now + self.WINDOW_NS, total
        return total - self.window_base

    def _fire(self) -> None:
        self.timer.expiries()
        self.armed = 0
        self._turn()

    def _turn(self) -> None:
        """Resolve what is due; go on turning the loop while the next time is near (and the window's
        budget lasts), else re-arm."""
        now, heap = time.perf_counter_ns(), self.heap
        if self.turning:  # the iteration since the last call: empty, or other callbacks ran in it
            gap = now - self.turn_last
            if gap < self.turn_min:
                self.turn_min = gap
            self.idle += min(gap, int(self.turn_min * self.IDLE_SLACK))
        self.turn_last = now
        while heap and heap[0][0] <= now:
            fut = heapq.heappop(heap)[2]
            if not fut.done():
                fut.set_result(None)
        if heap and heap[0][0] - now <= self.EARLY_NS and self._spent(now) < self.turn_budget * self.WINDOW_NS:
            if not self.turning:
                self.turning, self.turn_from = True, now
            self.loop.call_soon(self._turn)
        else:
            if self.turning:
                self.turning = False
                self.turned += now - self.turn_from
            self._arm()

    def close(self) -> None:
        if self.timer.fd >= 0:
            self.loop.remove_reader(self.timer.fd)
            self.timer.close()
        for _, _, fut in self.heap:
            fut.cancel()
        self.heap.clear()
