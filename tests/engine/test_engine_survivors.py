"""Survivors of the per-module mutation runs of engine/ (issue 43), each killed by a value worked out by hand;
pure and millisecond-quick, listed first in each module's map in scripts/mutation.py."""

from __future__ import annotations

import random

from ycsbctl.engine.throttle import Pacer


def test_a_pacer_starts_a_thread_at_a_random_point_of_its_first_tick_from_a_millisecond_tick_up():
    # 1,000 ops/s on one thread: a 1,000,000 ns tick, started at the thread's own random point of it (as YCSB);
    # 1,000.001 ops/s: a 999,999 ns tick, started at once
    assert Pacer.for_thread(1000.0, 1, 5_000, 3, None).start_ns == 5_000 + random.Random(3).randrange(1_000_000)
    fast = Pacer.for_thread(1000.001, 1, 5_000, 3, None)
    assert (fast.tick_ns, fast.start_ns) == (999_999, 5_000)


def test_a_100ms_interval_keeps_its_operations_and_its_client_lag_from_every_part():
    from ycsbctl.engine.aggregate import FineAggregate, fine_series
    from ycsbctl.engine.measurements import COMPONENT, Recorder
    from ycsbctl.results.names import VERIFY_NAME
    from ycsbctl.stores.binding import Status
    from ycsbctl.workload.core import OP_NAMES, READ, READ_MODIFY_WRITE, UPDATE

    verify = OP_NAMES.index(VERIFY_NAME)
    rec = Recorder("op", [READ, UPDATE, READ_MODIFY_WRITE, verify])
    record = rec.pure_record()
    record(READ, Status.OK, 0, 50_000, 0)
    # a read-modify-write is one operation: its halves (READ, UPDATE) and YCSB's VERIFY of a read are none
    record(COMPONENT + READ, Status.OK, 0, 30_000, 0)
    record(COMPONENT + UPDATE, Status.OK, 30_000, 70_000, 0)
    record(READ_MODIFY_WRITE, Status.OK, 0, 70_000, 0)
    record(verify, Status.OK, 0, 1_000, 0)
    rec.lag[7] += 2  # two loop-lag samples of 7 µs
    agg = FineAggregate()
    agg.add(rec.roll())
    record(READ, Status.OK, 0, 90_000, 0)
    agg.add(rec.roll())  # a part without loop lag
    fine = fine_series({3: agg}, 0.1, 0.0, None)
    assert fine.operations[3] == 3
    index, count = fine.client_lag[3]
    assert (list(index), list(count)) == ([7], [2])


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
