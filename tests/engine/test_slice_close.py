"""A slice's close in a worker (engine.alternating_worker): the compaction that ships a slice's counts keeps exactly
the non-zero HDR counts, steps only over the slots that counted, reads only where they lie, and travels (pickled)
unchanged. (The compiled recorder's spans: tests/engine/test_native_core.py.)"""

from __future__ import annotations

import asyncio
import pickle
import queue
import time
from array import array

import numpy as np
import pytest

from ycsbctl.engine.measurements import LagProbe, Recorder
from ycsbctl.engine.messages import SecondCounts, SparseCounts
from ycsbctl.results import histogram as hdr
from ycsbctl.results.names import CLIENT_LAG
from ycsbctl.workload.core import READ


def _dense(at: dict[int, int]) -> array:
    a = array("q", bytes(8 * hdr.COUNTS_LEN))
    for i, n in at.items():
        a[i] = n
    return a


@pytest.mark.parametrize("at", [{}, {0: 1}, {hdr.COUNTS_LEN - 1: 7}, {3: 2, 2047: 1, 2048: 5, 9000: 1 << 40}])
def test_the_sparse_counts_are_the_dense_ones_non_zero_entries_and_survive_pickling(at: dict[int, int]) -> None:
    sparse = SparseCounts.of(_dense(at))
    assert dict(zip(sparse.index.tolist(), sparse.count.tolist())) == at
    assert sparse.index.dtype == np.int32 and sparse.count.dtype == np.int64
    back = pickle.loads(pickle.dumps(sparse))
    assert back.index.tolist() == sparse.index.tolist() and back.count.tolist() == sparse.count.tolist()
    assert back.index.dtype == np.int32 and back.count.dtype == np.int64
    dense = np.zeros(hdr.COUNTS_LEN, dtype=np.int64)
    back.add_to(dense)
    back.add_to(dense)
    assert dense.sum() == 2 * sum(at.values())


def test_compacting_steps_once_per_slot_that_counted_and_drops_the_empty_ones() -> None:
    counts = SecondCounts(latency={(0, 0): _dense({5: 1}), (0, 1): _dense({}), (1, 0): _dense({4000: 2}),
                                   (1, 4): _dense({})},
                          own={"CLIENT-LAG": _dense({}), "SCHEDULE-LAG": _dense({12: 3})}, cpu_s=0.25)
    steps = counts.compact_steps()
    yields = 0
    while True:
        try:
            next(steps)
            yields += 1
        except StopIteration as done:
            out: SecondCounts = done.value
            break
    assert yields == 3  # the three slots that counted
    assert sorted(out.latency) == [(0, 0), (1, 0)] and list(out.own) == ["SCHEDULE-LAG"] and out.cpu_s == 0.25
    kept = out.latency[(1, 0)]
    assert isinstance(kept, SparseCounts) and kept.index.tolist() == [4000] and kept.count.tolist() == [2]


def test_the_lag_probes_counts_lie_in_the_span_its_recorder_rolls_out() -> None:
    """CLIENT-LAG is counted by the lag probe (Python): its span is kept as well, so compacting reads only there."""

    async def probed() -> SecondCounts:
        rec = Recorder("op", [READ])
        probe = LagProbe(asyncio.get_running_loop(), rec, queue.SimpleQueue())
        probe.start()
        try:
            for _ in range(1000):  # until a few expiries are counted (each 10 ms)
                if np.frombuffer(rec.lag, dtype=np.int64).sum() >= 5:
                    break
                time.sleep(0.002)  # the loop held a little: some expiries come late
                await asyncio.sleep(0.005)
        finally:
            probe.stop()
        return rec.roll()

    counts = asyncio.run(probed())
    nz = np.flatnonzero(np.frombuffer(counts.own[CLIENT_LAG], dtype=np.int64))
    assert nz.size and counts.spans["own", CLIENT_LAG] == (nz[0], nz[-1])
    kept = counts.compact().own[CLIENT_LAG]
    assert isinstance(kept, SparseCounts) and kept.index.tolist() == nz.tolist()


def test_a_shipment_waits_until_its_due_time_and_not_a_turn_past_it_or_at_all_when_hurried(monkeypatch):
    """``SliceLoop._until`` on a clock of its own (no real time asserted): the clock read 1 ms before the due time,
    then 0.3 s further at each read; the wait ends at the first read past due, and reads none once hurried."""
    from types import SimpleNamespace

    from ycsbctl.engine import alternating_worker as aw

    due, reads = 10**12, []

    def clock() -> int:
        reads.append(None)
        return due - 1_000_000 + (len(reads) - 1) * 300_000_000

    monkeypatch.setattr(aw, "time", SimpleNamespace(perf_counter_ns=clock))

    async def wait(hurried: bool) -> None:
        hurry = asyncio.Event()
        if hurried:
            hurry.set()
        await aw.SliceLoop._until(SimpleNamespace(hurry=hurry), due)

    asyncio.run(wait(False))
    assert len(reads) == 2  # a wait of 1 ms, then past due: shipped
    reads.clear()
    asyncio.run(wait(True))
    assert reads == []
