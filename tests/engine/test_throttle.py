"""The pacer (engine/throttle.py): where a thread starts in its first tick, and which operations it starts
before a deadline."""

from __future__ import annotations

import random

from ycsbctl.engine.throttle import Pacer


def test_a_pacer_starts_a_thread_at_a_random_point_of_its_first_tick_from_a_millisecond_tick_up():
    # 1,000 ops/s on one thread: a 1,000,000 ns tick, started at the thread's own random point of it (as YCSB);
    # 1,000.001 ops/s: a 999,999 ns tick, started at once
    assert Pacer.for_thread(1000.0, 1, 5_000, 3, None).start_ns == 5_000 + random.Random(3).randrange(1_000_000)
    fast = Pacer.for_thread(1000.001, 1, 5_000, 3, None)
    assert (fast.tick_ns, fast.start_ns) == (999_999, 5_000)


def test_an_operation_due_at_the_deadline_is_not_started_and_one_due_before_it_is_with_its_lag():
    import asyncio
    import time

    lags: list[int] = []
    past = time.perf_counter_ns() - 10_000_000  # every operation already due: no alarm is awaited
    pacer = Pacer(past, 1_000, None, lags.append)  # type: ignore[arg-type]
    assert asyncio.run(pacer.start(deadline_ns=past)) == (past, 0)  # due at the deadline: not started, t0 0
    assert pacer.k == 0 and lags == []
    due, t0 = asyncio.run(pacer.start(deadline_ns=past + 1))
    assert due == past and t0 >= past + 10_000_000 and pacer.k == 1 and lags == [t0 - past]
