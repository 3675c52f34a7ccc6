"""Kernel-timer wake-ups (engine/timerfd.py): never before their time, in time order, re-armed for
an earlier time, cancelled on close — on a real uvloop with a real timerfd."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
import uvloop

from ycsbctl.engine.throttle import Pacer
from ycsbctl.engine.timerfd import Alarm, TimerFd

pytestmark = pytest.mark.speed


def test_alarm_wakes_each_waiter_at_or_after_its_time_and_in_time_order():
    async def main():
        alarm = Alarm(asyncio.get_running_loop())
        rng = random.Random(7)
        now = time.perf_counter_ns()
        # later times first, then earlier ones: each earlier one must re-arm the timer
        dues = sorted((now + rng.randrange(2_000_000, 40_000_000) for _ in range(200)), reverse=True)
        woke: list[tuple[int, int]] = []

        async def wait(due: int) -> None:
            await alarm.at(due)
            woke.append((due, time.perf_counter_ns()))

        await asyncio.gather(*(wait(d) for d in dues))
        alarm.close()
        return dues, woke

    dues, woke = uvloop.run(main())
    assert len(woke) == len(dues)
    assert all(t >= due for due, t in woke)  # never early (the loop's own timers wake up to ~1 ms early)
    assert [d for d, _ in woke] == sorted(dues)  # served in time order


def test_closing_an_alarm_cancels_its_waiters_and_releases_its_timer():
    async def main():
        alarm = Alarm(asyncio.get_running_loop())
        fut = alarm.at(time.perf_counter_ns() + 10_000_000_000)
        fd = alarm.timer.fd
        alarm.close()
        return fut, fd, alarm.timer.fd

    fut, fd, after = uvloop.run(main())
    assert fut.cancelled() and fd >= 0 and after == -1


def test_a_periodic_timer_counts_the_expiries_missed_while_nobody_read_it():
    t = TimerFd()
    try:
        start = time.perf_counter_ns()
        t.arm(start + 1_000_000, 1_000_000)  # every 1 ms from 1 ms on
        assert t.expiries() == 0  # nothing yet (non-blocking read)
        time.sleep(0.05)
        n = t.expiries()
        elapsed_ms = (time.perf_counter_ns() - start) // 1_000_000
        assert 1 <= n <= elapsed_ms  # one per ms passed, at most
    finally:
        t.close()


def test_a_timer_refuses_a_bad_setting_with_the_kernels_reason():
    t = TimerFd()
    t.close()
    with pytest.raises(OSError, match="timerfd_settime"):
        t.arm(time.perf_counter_ns() + 1_000_000)


@pytest.mark.parametrize("budget", [0.0, 0.3])
def test_the_alarm_turns_the_loop_only_within_its_budget_and_never_wakes_early(budget):
    """Dues every 50 µs for ~100 ms: without budget the loop never turns (kernel timer only); with 30 %
    it turns, for at most 30 % of each 100 ms window, and every waiter still wakes at or after its time."""
    async def main():
        alarm = Alarm(asyncio.get_running_loop())
        alarm.turn_budget = budget
        start = time.perf_counter_ns()
        dues = [start + 2_000_000 + i * 50_000 for i in range(2000)]
        woke: list[tuple[int, int]] = []

        async def wait(due: int) -> None:
            await alarm.at(due)
            woke.append((due, time.perf_counter_ns()))

        await asyncio.gather(*(wait(d) for d in dues))
        elapsed = time.perf_counter_ns() - start
        turned = alarm.turned_total_ns()
        alarm.close()
        return woke, turned, elapsed

    woke, turned, elapsed = uvloop.run(main())
    assert len(woke) == 2000 and all(t >= due for due, t in woke)
    if budget == 0.0:
        assert turned == 0
    else:
        windows = elapsed // Alarm.WINDOW_NS + 1
        assert 0 < turned <= budget * Alarm.WINDOW_NS * windows


def test_a_pacer_schedules_as_ycsb_does_with_a_tick_of_threads_over_target():
    """YCSB's -target: each of ``threads`` threads issues every threads/target s; operation k of a thread
    is due at its start + k·tick. Below a 1 ms tick every thread starts at t0; from 1 ms on, each starts
    at a point of its first tick of its own (so that threads do not fire in lock-step)."""
    t0 = 10_000_000_000
    p = Pacer.for_thread(1000.0, 4, t0, 0, None)  # type: ignore[arg-type]
    assert p.tick_ns == 4_000_000 and t0 <= p.start_ns < t0 + 4_000_000
    assert {Pacer.for_thread(1000.0, 1, t0, i, None).start_ns for i in range(8)} != {t0}  # type: ignore[arg-type]
    fast = Pacer.for_thread(100_000.0, 8, t0, 3, None)  # type: ignore[arg-type]
    assert fast.tick_ns == 80_000 and fast.start_ns == t0
    seen: list[int] = []
    q = Pacer(t0, 1_000, None, seen.append)  # type: ignore[arg-type]
    dues = []
    for _ in range(3):
        due = q.due()
        dues.append(due)
        q.started(due, due + 5)
        q.ended(due + 5, due + 10)
    assert dues == [t0, t0 + 1_000, t0 + 2_000] and seen == [5, 5, 5]


def test_schedule_lag_counts_from_when_the_previous_operation_would_have_ended():
    """An operation due while its thread's previous one still ran (the server's time) is not late by the
    wait for that one: its lag runs from the ideal end of the previous operation."""
    seen: list[int] = []
    p = Pacer(0, 1_000, None, seen.append)  # type: ignore[arg-type]
    p.started(p.due(), 0)
    p.ended(0, 3_000)  # the server took 3 µs, three ticks
    p.started(p.due(), 3_200)  # due at 1 µs, written at 3.2 µs: 0.2 µs after the previous one's ideal end
    assert seen == [0, 200]


def test_work_done_while_the_loop_turns_is_not_credited_as_idle():
    """The worker leaves the turning's idle credit out of the client CPU it reports: replies handled in a
    turning iteration are load. Dues every 50 µs keep the loop turning; a callback every ~1 ms spins
    for 200 µs (a reply's work, exaggerated). The wall time turned holds those spins; the idle credit
    must not (before, the whole wall time was credited and the spins vanished from the client's CPU)."""
    async def main():
        loop = asyncio.get_running_loop()
        alarm = Alarm(loop)
        alarm.turn_budget = 0.9
        start = time.perf_counter_ns()
        dues = [start + 2_000_000 + i * 50_000 for i in range(3000)]
        spun_while_turning = 0
        done = False

        def spin() -> None:
            nonlocal spun_while_turning
            if done:
                return
            t = time.perf_counter_ns()
            turning = alarm.turning
            while time.perf_counter_ns() - t < 200_000:
                pass
            if turning:
                spun_while_turning += time.perf_counter_ns() - t
            loop.call_later(0.001, spin)

        loop.call_soon(spin)
        await asyncio.gather(*(alarm.at(d) for d in dues))
        done = True
        turned, idle = alarm.turned_total_ns(), alarm.idle_total_ns()
        alarm.close()
        return turned, idle, spun_while_turning

    turned, idle, spun = uvloop.run(main())
    assert spun > 0 and 0 < idle <= turned  # some spins fell inside a turning; the loop also turned empty
    assert idle <= turned - spun // 2  # the spins' time (less one empty iteration each) is not idle
