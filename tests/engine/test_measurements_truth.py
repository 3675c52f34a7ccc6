"""The controller's per-second rows and totals, and the workers' own lag counts, against truths
computed another way: HdrHistogram itself recording the raw values one ``record_value`` at a time,
numpy on the raw samples (below 2,048 µs HDR keeps every µs, so a mean or maximum there is exact),
the number of operations actually recorded, and the kernel timer's own clock.

Everything goes through the real recording path (:class:`Recorder`, :class:`LagProbe`, the
compacted :class:`SecondCounts` a worker ships) and the real merging (:class:`SecondAggregate`,
:func:`series_frame`, :func:`summaries`); nothing is mocked.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import queue
import time
from collections import defaultdict
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from hdrh.histogram import HdrHistogram

from ycsbctl.engine.aggregate import SecondAggregate, series_frame, summaries
from ycsbctl.engine.measurements import LagProbe, Recorder
from ycsbctl.engine.messages import SecondReport, SparseCounts, dispatch
from ycsbctl.engine.runner import Collector
from ycsbctl.engine.spec import Tick
from ycsbctl.results import histogram as hdr
from ycsbctl.results.names import CLIENT_LAG, SCHEDULE_LAG
from ycsbctl.stores.binding import Status
from ycsbctl.workload.core import READ, UPDATE

pytestmark = pytest.mark.truth

ONE_HOUR_US = 3_600_000_000


def _reference(values) -> HdrHistogram:
    """HdrHistogram's own histogram of ``values`` (µs) with YCSB's settings, a value at a time."""
    h = HdrHistogram(1, ONE_HOUR_US, 3)
    for v in values:
        assert h.record_value(min(int(v), ONE_HOUR_US))
    return h


# What each simulated worker does in a second: (op, status, measurement name, how many, value range).
# READ stays below 2,048 µs (exact µs in HDR: numpy's mean and max are exact truths there); UPDATE
# spans six decades (HdrHistogram's own percentiles, mean and max are the truth).
PLAN = ((READ, Status.OK, "READ", 600, "small"), (UPDATE, Status.OK, "UPDATE", 250, "wide"),
        (READ, Status.ERROR, "READ-FAILED", 30, "small"), (UPDATE, Status.TIMEOUT, "UPDATE-FAILED", 5, "wide"))


def _draw(rng: np.random.Generator, n: int, kind: str) -> np.ndarray:
    if kind == "small":
        return rng.integers(0, 2048, n)
    return np.minimum(rng.lognormal(7.0, 2.5, n).astype(np.int64), 10 * ONE_HOUR_US)


def _seconds(n_seconds: int = 4, workers: int = 2, seed: int = 5, measurement: str = "op"):
    """``n_seconds`` seconds of ``workers`` workers recording :data:`PLAN` through the real Recorder,
    each worker's second shipped compacted (as SparseCounts) and added by the controller; plus the
    raw values (µs) by second and measurement name, and each second's CPU seconds as reported."""
    rng = np.random.default_rng(seed)
    seconds: dict[int, SecondAggregate] = {}
    raw: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    cpu: dict[int, float] = {}
    for k in range(n_seconds):
        agg = seconds[k] = SecondAggregate()
        cpu[k] = 0.0
        for w in range(workers):
            rec = Recorder(measurement, [READ, UPDATE])
            for op, st, name, n, kind in PLAN:
                for v in _draw(rng, n + k + w, kind):  # a different count in every second and worker
                    t0 = int(rng.integers(1, 10**12))
                    rec.record(op, st, t0, t0 + int(v) * 1000 + int(rng.integers(0, 1000)), 0)  # sub-µs dropped
                    raw[k][name].append(int(v))
            for late_us in rng.integers(0, 50_000, 20 + k):
                rec.record_schedule_lag(int(late_us) * 1000 + 999)
                raw[k][SCHEDULE_LAG].append(int(late_us))
            part = rec.roll().compact()  # what a worker's SecondReport carries
            part.cpu_s = 0.125 * (w + 1) + k  # input, as the worker's kernel count would say
            cpu[k] += part.cpu_s
            agg.add(part, measurement)
    return seconds, raw, cpu


def _all(raw: dict[str, list[int]], names) -> list[int]:
    return [v for n in names for v in raw[n]]


def test_each_seconds_row_is_hdrhistograms_own_for_the_values_recorded_in_that_second():
    seconds, raw, _ = _seconds()
    seconds[4] = SecondAggregate()  # a second in which no operation ended
    seconds[4].add(Recorder("op", [READ]).roll().compact())
    frame = series_frame(seconds, warmup_seconds=2)
    op_names = [p[2] for p in PLAN]
    for k in range(4):
        rows = frame[frame.second == k].set_index("op")
        assert set(rows.index) == {"OVERALL", *op_names, SCHEDULE_LAG}
        for name, values in [*((n, raw[k][n]) for n in (*op_names, SCHEDULE_LAG)),
                             ("OVERALL", _all(raw[k], op_names))]:
            row, ref = rows.loc[name], _reference(values)
            assert row.operations == len(values), (k, name)
            assert row.p50_us == ref.get_value_at_percentile(50.0), (k, name)
            assert row.p95_us == ref.get_value_at_percentile(95.0), (k, name)
            assert row.p99_us == ref.get_value_at_percentile(99.0), (k, name)
            assert row.max_us == ref.get_max_value(), (k, name)
            assert row.mean_us == pytest.approx(ref.get_mean_value(), rel=1e-12), (k, name)
            assert row.warmup == (k < 2), (k, name)
            # the operations that timed out: UPDATE's (its FAILED row and OVERALL), none of READ's errors
            timed_out = len(raw[k]["UPDATE-FAILED"]) if name in ("UPDATE-FAILED", "OVERALL") else 0
            assert row.timeouts == timed_out, (k, name)
        # below 2,048 µs HDR keeps every µs: the raw samples' own mean and maximum
        for name in ("READ", "READ-FAILED"):
            assert rows.loc[name].mean_us == pytest.approx(np.mean(raw[k][name]), rel=1e-12)
            assert rows.loc[name].max_us == max(raw[k][name])
    empty = frame[frame.second == 4].set_index("op")
    assert list(empty.index) == ["OVERALL"] and empty.loc["OVERALL"].operations == 0
    assert all(math.isnan(empty.loc["OVERALL"][c]) for c in ("mean_us", "p50_us", "p95_us", "p99_us", "max_us"))


@pytest.mark.parametrize("warmup", [0, 1, 3])
def test_totals_are_one_hdrhistogram_of_every_value_after_the_warm_up(warmup):
    seconds, raw, cpu = _seconds()
    totals = summaries(seconds, warmup)
    kept = [k for k in sorted(seconds) if k >= warmup]
    op_names = [p[2] for p in PLAN]
    assert totals.operations == sum(len(raw[k][n]) for k in kept for n in op_names)
    assert totals.cpu_s == pytest.approx(sum(cpu[k] for k in kept), abs=1e-9)
    assert set(totals.ops) == set(op_names) and set(totals.own) == {SCHEDULE_LAG}
    for name, summary in [*totals.ops.items(), (SCHEDULE_LAG, totals.own[SCHEDULE_LAG])]:
        values = [v for k in kept for v in raw[k][name]]
        ref = _reference(values)
        assert summary.operations == len(values), name
        assert summary.max_us == ref.get_max_value() and summary.min_us == ref.get_min_value(), name
        assert summary.mean_us == pytest.approx(ref.get_mean_value(), rel=1e-12), name
        for p in (50.0, 90.0, 95.0, 99.0, 99.9, 99.99):
            assert summary.percentile(p) == ref.get_value_at_percentile(p), (name, p)
        assert summary.percentiles_us and all(v == ref.get_value_at_percentile(p)  # the ones YCSB prints
                                              for p, v in summary.percentiles_us.items()), name
    # YCSB prints the statuses under the base operation: how many of each were recorded
    n = {name: sum(len(raw[k][name]) for k in kept) for name in op_names}
    assert totals.ops["READ"].returns == {"OK": n["READ"], "ERROR": n["READ-FAILED"]}
    assert totals.ops["UPDATE"].returns == {"OK": n["UPDATE"], "TIMEOUT": n["UPDATE-FAILED"]}
    assert totals.ops["READ-FAILED"].returns == {} and totals.client_lag is None
    # errors of each second: the failed operations recorded in it
    for k in seconds:
        assert seconds[k].errors() == len(raw[k]["READ-FAILED"]) + len(raw[k]["UPDATE-FAILED"])
        assert seconds[k].count == sum(len(raw[k][name]) for name in op_names)


def test_the_progress_p99_of_a_second_is_that_of_every_operation_in_it_not_of_the_intended_series():
    seconds, raw, _ = _seconds(n_seconds=2, measurement="both")
    op_names = [p[2] for p in PLAN]
    for k, agg in seconds.items():
        values = _all(raw[k], op_names)
        assert agg.p99_us() == _reference(values).get_value_at_percentile(99.0)
        # unpaced (due 0): each intended series is the actual one, counted again
        assert {n for n in agg.counts if n.startswith("Intended-")} == {f"Intended-{n}" for n in op_names}
    assert math.isnan(SecondAggregate().p99_us())


def test_an_operation_whose_every_call_failed_is_still_listed_with_its_statuses():
    # YCSB prints [READ], Return=ERROR, n even when no READ succeeded (only READ-FAILED has latencies)
    rec = Recorder("op", [READ])
    values = [120, 3_000, 75_000]
    for v in values:
        rec.record(READ, Status.ERROR, 0, v * 1000, 0)
    agg = SecondAggregate()
    agg.add(rec.roll().compact())
    totals = summaries({0: agg}, 0)
    assert list(totals.ops) == ["READ", "READ-FAILED"]
    assert totals.ops["READ"].operations == 0 and totals.ops["READ"].returns == {"ERROR": len(values)}
    ref = _reference(values)
    failed = totals.ops["READ-FAILED"]
    assert failed.operations == 3 and failed.max_us == ref.get_max_value() and failed.min_us == ref.get_min_value()
    assert totals.operations == 3 and agg.errors() == 3


def test_schedule_lag_is_counted_in_the_buckets_hdrhistogram_records_it_in():
    rec = Recorder("op", [READ])
    rng = np.random.default_rng(9)
    late_us = [0, 1, 2047, 2048, 2049, 4095, 4096, 10**6, ONE_HOUR_US - 1, ONE_HOUR_US, ONE_HOUR_US + 7,
               *rng.lognormal(8, 3, 2000).astype(np.int64).tolist()]
    for v in late_us:
        rec.record_schedule_lag(int(v) * 1000 + 999)  # ns late; YCSB keeps whole µs
    got = rec.roll().own[SCHEDULE_LAG]
    ref = _reference(late_us)
    assert np.array_equal(np.frombuffer(got, dtype=np.int64), np.ctypeslib.as_array(ref.counts))


@contextlib.contextmanager
def _probe_behind(step: int, first: int) -> Iterator[tuple[Recorder, LagProbe, Callable[[], tuple[int, int]]]]:
    """A lag probe whose kernel timer has expired every ``step`` ns since ``first`` (ns, in the past);
    ``read()`` serves what expired so far and returns the clock (ns) just before and just after."""
    rec = Recorder("op", [READ])
    loop = asyncio.new_event_loop()
    probe = LagProbe(loop, rec, None, interval_s=step / 1e9)

    def read() -> tuple[int, int]:
        before = time.perf_counter_ns()
        probe._expired()
        return before, time.perf_counter_ns()

    try:
        probe.due_ns = first
        probe.timer.arm(first, step)
        time.sleep(0.001)
        yield rec, probe, read
    finally:
        probe.timer.close()
        loop.close()


def test_a_lag_probe_counts_one_delay_per_expiry_and_waits_for_the_next_one():
    """An expiry every 10 ms, the first one 1 s ago: the probe reads ~100 expiries at once. The k-th
    was served ``now − due_k`` late, with ``now`` between two clock reads around the call: bounds
    HdrHistogram's own percentiles of those delays; the next expiry to count is the first after the read."""
    step = 10_000_000
    first = time.perf_counter_ns() - 1_000_000_000 + 3_000_000
    with _probe_behind(step, first) as (rec, probe, read):
        before, after = read()
    n = (probe.due_ns - first) // step
    assert (probe.due_ns - first) % step == 0 and 98 <= n <= 110
    # the next expiry not yet counted is the first one after the read: never in the past, at most a step ahead
    assert before < probe.due_ns <= after + step
    h = hdr.from_counts(np.frombuffer(rec.lag, dtype=np.int64))
    low = _reference([(before - first - i * step) // 1000 for i in range(n)])
    high = _reference([(after - first - i * step) // 1000 for i in range(n)])
    assert h.get_total_count() == n
    for p in (0.0, 10.0, 50.0, 90.0, 100.0):
        assert low.get_value_at_percentile(p) <= hdr.percentiles_us(h, [p])[p] <= high.get_value_at_percentile(p), p


def test_a_lag_probe_far_behind_counts_at_most_100000_expiries_and_skips_the_rest():
    """A loop stalled for 150,000 expiries counts the first 100,000 and skips the rest: its next due
    time is then the kernel's next expiry. Checked after a second read: the kernel has delivered
    every expiry up to that read (the clock reads around it say how many), so the probe's due time
    is exactly the one after them — not a step before or after."""
    step = min(1_000_000, time.perf_counter_ns() // 200_000)  # 1 ms, shorter only just after a boot
    first = time.perf_counter_ns() - 150_000 * step
    with _probe_behind(step, first) as (rec, probe, read):
        before, after = read()
        h = hdr.from_counts(np.frombuffer(rec.lag, dtype=np.int64))
        assert h.get_total_count() == 100_000
        assert (probe.due_ns - first) % step == 0 and before < probe.due_ns <= after + step
        # the oldest 100,000 were counted: the first ~150,000 steps late, the last ~50,000 steps late
        low = _reference([(before - first - i * step) // 1000 for i in (0, 99_999)])
        high = _reference([(after - first - i * step) // 1000 for i in (0, 99_999)])
        assert low.get_min_value() <= h.get_min_value() <= high.get_max_value()
        assert low.get_max_value() <= h.get_max_value() <= high.get_max_value()
        due1 = probe.due_ns
        before2, after2 = read()
    # the kernel delivers every expiry (at first + i·step) up to its read, between these two clock reads
    delivered_lo, delivered_hi = (before2 - first) // step + 1, (after2 - first) // step + 1
    assert (probe.due_ns - first) % step == 0
    assert delivered_lo * step <= probe.due_ns - first <= delivered_hi * step
    # and the second read counted each expiry since the first one, once
    total = hdr.from_counts(np.frombuffer(rec.lag, dtype=np.int64)).get_total_count()
    assert total == 100_000 + (probe.due_ns - due1) // step > 100_000


def test_a_report_part_compacted_already_is_shipped_whole_and_the_next_second_starts_from_zero():
    """``ship_steps`` takes any SecondCounts (dense or compacted slots): a report with a compacted slot
    is sent whole, and its dense arrays are not reused as spares (they cannot all be zeroed and
    handed back), so the next second counts only its own operations."""
    rec = Recorder("op", [READ, UPDATE])
    first = list(range(1, 400)) + [5_000, 70_000]
    for v in first:
        rec.record(READ if v % 2 else UPDATE, Status.OK, 0, v * 1000, 0)
    rec.count_lag(3)
    counts = rec.roll()
    counts.latency[(UPDATE, Status.OK)] = SparseCounts.of(counts.latency[(UPDATE, Status.OK)])
    out: queue.Queue = queue.Queue()
    loop = asyncio.new_event_loop()
    try:
        probe = LagProbe(loop, rec, out)
        for _ in probe.ship_steps(SecondReport(0, 0, counts)):
            pass
        probe.stop()
    finally:
        loop.close()
    sent = out.get_nowait().counts
    dense = np.zeros(hdr.COUNTS_LEN, dtype=np.int64)
    for c in sent.latency.values():
        c.add_to(dense)
    assert np.array_equal(dense, np.ctypeslib.as_array(_reference(first).counts))
    second = [7, 7, 300, 9_000]
    for v in second:
        rec.record(READ, Status.OK, 0, v * 1000, 0)
    nxt = rec.roll()
    got = sum(np.frombuffer(a, dtype=np.int64) for a in nxt.latency.values())
    assert np.array_equal(got, np.ctypeslib.as_array(_reference(second).counts))
    assert not np.frombuffer(nxt.own[CLIENT_LAG], dtype=np.int64).any()


def test_a_seconds_progress_tick_comes_once_every_worker_has_reported_it_with_its_own_figures():
    """The controller prints a second's rate, p99 and errors once every live worker has sent that
    second (not before: it would show part of the second), from the operations actually recorded."""
    rng = np.random.default_rng(17)
    ticks: list[Tick] = []
    collector = Collector(2, "op", 1, ticks.append)
    raw: dict[int, list[int]] = defaultdict(list)
    failed: dict[int, int] = defaultdict(int)
    for k in range(3):
        for w in range(2):
            rec = Recorder("op", [READ, UPDATE])
            for i, v in enumerate(rng.lognormal(6, 2, 300 + 50 * w + k).astype(np.int64)):
                st = Status.ERROR if i % 37 == 0 else Status.OK
                rec.record(READ if i % 3 else UPDATE, st, 0, int(v) * 1000, 0)
                raw[k].append(int(v))
                failed[k] += st == Status.ERROR
            dispatch(SecondReport(w, k, rec.roll().compact()), collector)
            # the tick of second k is shown only once both workers have sent it
            assert [t.second for t in ticks] == list(range(k + (w == 1))), (k, w)
    total = 0
    for k, tick in enumerate(ticks):
        total += len(raw[k])
        assert tick.operations == total and tick.ops_per_s == len(raw[k])
        assert tick.p99_us == _reference(raw[k]).get_value_at_percentile(99.0)
        assert tick.errors == failed[k] > 0 and tick.warmup == (k < 1)


def test_a_started_probe_counts_its_first_expiry_one_interval_after_the_start():
    """start(): the first expiry the probe counts is due one interval (10 ms) after it was called, between the
    clock read just before and just after it, not one in the past (that would count an interval of lag nobody had)."""
    loop = asyncio.new_event_loop()
    probe = LagProbe(loop, Recorder("op", [READ]), None, interval_s=0.01)
    try:
        before = time.perf_counter_ns()
        probe.start()
        after = time.perf_counter_ns()
        assert before + 10_000_000 <= probe.due_ns <= after + 10_000_000
    finally:
        probe.stop()
        loop.close()
