"""The effect of a disturbance (results/disturbance.py) on hand-built 100 ms series whose stall,
lost operations and percentiles are worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.fixtures.fine_series import fine_series as _series
from ycsbctl.results import histogram as hdr
from ycsbctl.results.disturbance import effect, longest_run_below, reference_rate
from ycsbctl.results.fine import FineSeries, sparse_of

pytestmark = pytest.mark.truth


def test_longest_run_below_finds_the_longest_not_the_first():
    assert longest_run_below([5, 0, 9, 0, 0, 0, 7, 0], 1) == (3, 3)
    assert longest_run_below([5, 6], 1) == (0, 0)


def test_a_300_ms_stall_with_two_half_stalled_edges():
    ops = [1000] * 30  # 10,000 ops/s
    ops[19], ops[20], ops[21], ops[22], ops[23] = 500, 0, 0, 0, 300
    f = _series(ops, slow={23: 350_000}, lag={21: 2_000})
    e = effect(f, start_s=1.95, end_s=2.35)
    assert e.pre_ops_per_s == 10_000  # seconds 0 and 1
    assert e.stall_s == pytest.approx(0.3) and e.stall_start_s == pytest.approx(2.0)
    # the edges missed half and 70 % of their interval's operations
    assert e.stall_est_s == pytest.approx(0.3 + 0.05 + 0.07)
    assert e.during_s == pytest.approx(0.5)  # intervals 19..23
    assert e.ops_lost == pytest.approx(10_000 * 0.5 - 800)
    assert e.max_latency_us == pytest.approx(350_000, rel=1e-3)  # HDR keeps 3 digits
    assert e.p99_during_us == pytest.approx(350_000, rel=1e-3)  # 300 of the 800 during are slow
    assert e.p99_before_us == 100 and e.p99_after_us == 100
    assert e.client_lag_max_us == 2_000


def test_no_interval_below_a_tenth_of_the_rate_is_no_stall():
    ops = [1000, 800, 1200, 900] * 8
    ops[20] = 150  # 15 % of the reference: slow, not stalled
    e = effect(_series(ops), start_s=2.0, end_s=2.05)
    assert e.stall_s == 0 and e.stall_start_s is None
    per = e.pre_ops_per_s * 0.1  # the finer estimate: what intervals 20 and 21 (800 ops) missed
    assert e.pre_ops_per_s == 9_750  # the median of seconds 0 (9,600) and 1 (9,900)
    assert e.stall_est_s == pytest.approx(0.1 * (1 - 150 / per) + 0.1 * (1 - 800 / per), abs=1e-6)
    assert e.stall_est_s == round(0.1 * (1 - 150 / per) + 0.1 * (1 - 800 / per), 6) == 0.102564  # µs, as written
    assert e.during_s == pytest.approx(0.1)
    assert e.ops_lost == pytest.approx(e.pre_ops_per_s * 0.1 - 150)


def test_the_reference_rate_leaves_the_warm_up_out():
    ops = [5000] * 10 + [1000] * 30  # a fast warm-up second, then 10,000 ops/s
    f = _series(ops, warmup_s=1.0)
    assert reference_rate(f, 3.5) == 10_000  # seconds 1 and 2 (0 is the warm-up; 3 is not whole before 3.5)
    assert effect(f, 3.5, 3.6).p99_before_us == 100


def test_an_event_in_the_first_second_takes_the_intervals_before_it():
    f = _series([800, 1000, 1200, 0, 0, 1000, 1000])
    assert reference_rate(f, 0.3) == 10_000  # the median of 8k, 10k and 12k ops/s
    e = effect(f, 0.3, 0.45)
    assert e.stall_s == pytest.approx(0.2)
    assert math.isnan(effect(f, 0.0, 0.1).pre_ops_per_s)  # nothing measured before it


def test_the_part_interval_after_the_window_is_no_stall():
    """The run's last report holds the few operations that ended after the planned end: not a stall."""
    ops = [1000] * 30 + [8]
    f = _series(ops)
    f.end_s = 3.0
    e = effect(f, 2.5, 2.501)
    assert e.stall_s == 0 and e.during_s == pytest.approx(0.1)
    f.end_s = None  # without the end, that interval looks stalled
    assert effect(f, 2.5, 2.501).stall_s == pytest.approx(0.1)


def test_a_slowdown_without_a_stall_is_counted_over_its_whole_window():
    ops = [1000] * 80
    for k in range(31, 73):  # after a command at 3.0 s, 4.2 s at a fifth of the rate, one interval at 60 % inside
        ops[k] = 600 if k == 50 else 200
    f = _series(ops)
    e = effect(f, 3.0, 3.01)
    assert e.stall_s == 0 and e.slow_s == pytest.approx(4.1)  # 42 intervals, one of them above half the rate
    assert e.during_s == pytest.approx(4.3) and e.affected_end_s == pytest.approx(7.3)  # intervals 30..72
    assert e.ops_lost == pytest.approx(41 * 800 + 400)
    # a slowdown that begins more than a second after the command returned is not this event's
    late = [1000] * 80
    for k in range(42, 60):
        late[k] = 200
    e = effect(_series(late), 3.0, 3.01)
    assert e.slow_s == 0 and e.during_s == pytest.approx(0.1) and e.ops_lost == 0
    # the window goes on until the series is back for three intervals in a row: gaps of one and two go on with it
    gap = [1000] * 80
    for k in (31, 32, 34, 37):
        gap[k] = 200
    e = effect(_series(gap), 3.0, 3.01)
    assert e.slow_s == pytest.approx(0.4) and e.slow_run_s == pytest.approx(0.2)
    assert e.affected_end_s == pytest.approx(3.8) and e.ops_lost == pytest.approx(4 * 800)
    # a slowdown that begins after three intervals back (another event's, an UNLINK's lazyfree) is not this one's
    gap[31] = gap[32] = gap[37] = 1000
    assert effect(_series(gap), 3.0, 3.01).slow_s == 0


def test_a_slowdown_to_the_end_of_the_series_ends_with_its_last_interval():
    f = _series([1000] * 30 + [100] * 5)
    e = effect(f, 3.0, 3.01)
    assert (
        e.slow_s == pytest.approx(0.5) and e.during_s == pytest.approx(0.5) and e.affected_end_s == pytest.approx(3.5)
    )
    f.end_s = 3.4  # the planned end: the interval after it is a part one, not the slowdown's
    assert effect(f, 3.0, 3.01).affected_end_s == pytest.approx(3.4)


def test_the_slow_line_is_half_the_reference_below_not_at_it():
    ops = [1000] * 40
    ops[21] = 500
    e = effect(_series(ops), 2.0, 2.01)
    # below the band of the seconds before (a steady 10,000 ops/s): in the window, its 500 operations short counted,
    # but not below half: not slowed
    assert e.slow_s == 0 and e.during_s == pytest.approx(0.2) and e.ops_lost == pytest.approx(500)
    ops[21] = 499
    assert effect(_series(ops), 2.0, 2.01).slow_s == pytest.approx(0.1)


def test_without_a_whole_second_before_the_event_the_rate_is_the_median_of_its_intervals():
    # an event 0.5 s into the window: intervals 0..4 before it, 200, 300, 400, 500, 600 ops each
    f = _series([200, 300, 400, 500, 600] + [1000] * 10)
    assert reference_rate(f, start_s=0.5) == pytest.approx(4000.0)  # median 400 ops per 0.1 s
    assert math.isnan(reference_rate(f, start_s=0.0))  # nothing measured before it
    assert longest_run_below([0, 0, 5, 0], 1) == (0, 2)  # a run from the first value


def _series_of(ops: list[int], latencies: dict[int, list[int]], warmup_s: float = 0.0) -> FineSeries:
    """``ops[k]`` operations in interval k whose latencies (µs) are ``latencies[k]`` (100 µs each when absent)."""
    f = FineSeries(interval_s=0.1, warmup_s=warmup_s)
    for k, n in enumerate(ops):
        f.operations[k] = n
        h = hdr.new_histogram()
        hdr.record_many(h, latencies.get(k, [100] * n))
        f.latency[k] = sparse_of(hdr.counts_of(h))
    return f


def test_the_reference_rate_is_the_median_of_the_three_whole_seconds_before_not_their_mean():
    """Seconds 1, 2, 3 before an event at 4.0 s run at 8k, 9k and 16k ops/s (median 9k, mean 11k); second
    0, outside the 3 s before, at 30k: neither the mean, nor a 4th second, nor a 2nd one alone gives 9k."""
    ops = [3000] * 10 + [800] * 10 + [900] * 10 + [1600] * 10 + [900] * 10
    f = _series(ops)
    assert reference_rate(f, 4.0) == 9_000
    assert effect(f, 4.0, 4.05).pre_ops_per_s == 9_000
    # mid-second (3.5 s): the whole seconds in [0.5, 3.5) are 1 and 2 only
    assert reference_rate(f, 3.5) == 8_500


def test_the_p99_windows_hold_their_own_intervals_and_are_the_99th_percentile_not_the_99_9th():
    """Intervals 0..79 of 1,000 operations each, an event at 4.0 s whose command returns in interval 41.
    Before (intervals 10..39, 3 s): 150 of 30,000 (0.5 %) take 5 ms: p99 100 µs, p99.9 5 ms; interval 9,
    outside the 3 s, is all 80 ms. During (40..41): 15 + 1,000 of 2,000 take 20 ms: p99 20 ms. After
    (42..71, 3 s): 350 of 30,000 (1.17 %) take 5 ms, 200 in its first interval and 150 in its last, so that
    its p99 is 5 ms only with both ends (200 µs without either, 20 ms with interval 41); intervals 72.. of
    90 ms are beyond the 3 s after."""
    n = 80
    lat: dict[int, list[int]] = {9: [80_000] * 1000}
    for k in range(10, 40):
        lat[k] = [100] * 995 + [5_000] * 5
    lat[40] = [100] * 985 + [20_000] * 15
    lat[41] = [20_000] * 1000
    for k in range(42, 72):
        lat[k] = [200] * 1000
    lat[42] = [200] * 800 + [5_000] * 200
    lat[71] = [200] * 850 + [5_000] * 150
    for k in range(72, n):
        lat[k] = [90_000] * 1000
    f = _series_of([1000] * n, lat)
    e = effect(f, 4.0, 4.15)
    assert e.during_s == pytest.approx(0.2) and e.stall_s == 0
    assert e.p99_before_us == 100
    assert e.p99_during_us == pytest.approx(20_000, rel=1e-3)
    assert e.p99_after_us == pytest.approx(5_000, rel=1e-3)
    assert e.max_latency_us == pytest.approx(20_000, rel=1e-3)
    # the truths computed another way: numpy's percentiles of the same latencies, window by window
    before = [x for k in range(10, 40) for x in lat[k]]
    after = [x for k in range(42, 72) for x in lat[k]]
    assert np.percentile(before, 99) == 100 and np.percentile(before, 99.9) == 5_000
    assert np.percentile(after, 99) == 5_000 and np.percentile(after[1000:], 99) == 200
    assert np.percentile(after[:-1000], 99) == 200


def test_the_p99_before_leaves_the_warm_up_out_and_so_does_the_reference_of_an_event_just_after_it():
    """Warm-up 1.0 s of fast, slow operations; an event at 1.5 s has no whole second before it: its
    reference is the median of intervals 10..14 (2k, 3k, 4k, 9k, 9k ops/s: median 4k, mean 5.4k)."""
    ops = [5000] * 10 + [200, 300, 400, 900, 900] + [1000] * 20
    f = _series_of(ops, {k: [50_000] * ops[k] for k in range(10)}, warmup_s=1.0)
    assert reference_rate(f, 1.5) == pytest.approx(4_000)
    e = effect(f, 1.5, 1.55)
    assert e.pre_ops_per_s == pytest.approx(4_000) and e.p99_before_us == 100


def test_intervals_with_no_operation_count_as_none_done():
    """The engine leaves an interval where nothing completed out of ``operations``: it did 0 operations."""
    f = _series([1000] * 10 + [1200] * 10 + [800] * 10 + [1000] * 10)
    for k in (5, 33, 34):
        del f.operations[k], f.latency[k]
    # seconds 0 (9,000 with its gap), 1 (12,000), 2 (8,000): median 9,000
    assert reference_rate(f, 3.0) == 9_000
    e = effect(f, 3.3, 3.35)
    assert e.stall_s == pytest.approx(0.2) and e.stall_start_s == pytest.approx(3.3)
    assert e.ops_lost == pytest.approx(e.pre_ops_per_s * e.during_s)


def test_the_stall_limit_is_a_tenth_of_the_reference_below_not_at_it():
    ops = [10_000] * 30  # 100,000 ops/s: the limit is 10,000 ops/s, 1,000 operations an interval
    ops[22] = 1000  # at the limit: not stalled
    f = _series(ops)
    assert effect(f, 2.2, 2.21).stall_s == 0
    ops[22] = 999
    assert effect(_series(ops), 2.2, 2.21).stall_s == pytest.approx(0.1)
    assert longest_run_below([0], 1) == (0, 1)
    assert longest_run_below([5, 0, 5, 0, 5], 1) == (1, 1)  # of two runs as long, the first


def test_more_operations_during_than_the_reference_lose_none_and_a_later_dip_is_not_this_events():
    ops = [1000] * 40
    ops[20], ops[21], ops[22] = 1500, 1500, 500  # interval 22 is beyond the command's and the next one
    e = effect(_series(ops), 2.0, 2.05)
    assert e.ops_lost == 0 and e.stall_s == 0
    assert e.stall_est_s == 0  # intervals 20 and 21 missed nothing; 22 is not looked at
    assert math.isnan(effect(_series(ops), 0.0, 0.1).stall_est_s)
    assert effect(_series([0] * 5 + [1000] * 5), 0.0, 0.1).stall_s == 0  # no reference: no stall


def test_the_reference_takes_the_seconds_whose_start_is_within_3_s():
    ops = [800] * 10 + [800] * 10 + [900] * 10 + [1600] * 10 + [900] * 10
    f = _series(ops)
    assert reference_rate(f, 4.01) == 12_500  # seconds 2 and 3 (second 1 began 3.01 s before)


def test_the_series_100ms_table_counts_operations_per_second_and_its_percentiles_per_interval():
    """``ops_per_s`` in series_100ms is operations per second (ten times the interval's count), p50 ≠ p99,
    the first interval ≠ the second; CLIENT-LAG rows count the probes and carry no rate."""
    f = _series_of([100, 300, 200], {0: [100] * 98 + [7_000] * 2, 1: [50] * 250 + [400] * 50}, warmup_s=0.1)
    g = hdr.new_histogram()
    hdr.record_many(g, [30] * 4 + [900])
    f.client_lag[0] = sparse_of(hdr.counts_of(g))
    frame = f.frame()
    overall = frame[frame.op == "OVERALL"].set_index("interval")
    assert list(overall.operations) == [100, 300, 200]
    assert list(overall.ops_per_s) == [1_000.0, 3_000.0, 2_000.0]
    assert list(overall.t_s) == [0.0, 0.1, 0.2]
    assert list(overall.warmup) == [True, False, False]
    assert overall.p50_us[0] == 100 and overall.p99_us[0] == pytest.approx(7_000, rel=1e-3)
    assert overall.p50_us[1] == 50 and overall.p99_us[1] == 400 and overall.max_us[1] == 400
    assert np.percentile([50] * 250 + [400] * 50, 99) == 400 and np.percentile([50] * 250 + [400] * 50, 50) == 50
    lag = frame[frame.op == "CLIENT-LAG"].set_index("interval")
    assert lag.operations[0] == 5 and lag.max_us[0] == 900 and lag.p50_us[0] == 30
    assert lag.operations[1] == 0 and math.isnan(lag.ops_per_s[0]) and math.isnan(lag.p99_us[1])
    assert list(f.ops_per_s()) == [1_000.0, 3_000.0, 2_000.0]


def test_an_event_after_two_empty_intervals_has_a_reference_of_none():
    f = _series([0, 0, 1000, 1000, 1000])
    del f.operations[0], f.operations[1]
    assert reference_rate(f, 0.3) == 0  # the median of 0, 0 and 10,000 ops/s


def test_the_last_full_interval_is_the_one_ending_at_the_planned_end_and_gaps_are_intervals():
    f = _series([1000] * 30 + [8])
    assert f.last_full() == 30  # no planned end: the last measured
    f.end_s = 3.0
    assert f.last_full() == 29  # [2.9, 3.0) ends at the end; [3.0, 3.1) holds the late few
    f.end_s = 2.95
    assert f.last_full() == 28
    f.end_s = 9.0
    assert f.last_full() == 30  # a planned end after the last measured interval: that one (ks[-1], not ks[-2])
    g = _series([1000, 1000, 1000])
    del g.operations[1]  # nothing completed in interval 1, its latency counts kept
    g.latency[5] = g.latency[0]  # and an interval of latency alone
    assert g.intervals() == [0, 1, 2, 3, 4, 5]
    assert list(g.ops_per_s()) == [10_000.0, 0.0, 10_000.0, 0.0, 0.0, 0.0]


def test_the_reference_rate_of_a_short_window_is_the_median_of_its_own_intervals():
    """No whole second in a 0.5 s window before an event at 0.8 s: the median of the intervals from 0.3 s
    to 0.8 s (400 to 800 operations per 100 ms: 600, so 6,000 ops/s), not from 0.2 s (5,500) nor 0.4 s (6,500)."""
    f = _series([100 * (k + 1) for k in range(10)])
    assert reference_rate(f, 0.8, before_s=0.5) == pytest.approx(6000.0)


def test_an_empty_merge_holds_no_count_and_a_series_without_a_warm_up_has_none():
    """The engine merges each interval's counts; an interval with none merges to two empty arrays (an index 0 of
    count 0 would still be a stored entry); a FineSeries made without a warm-up marks no interval as one."""
    from ycsbctl.results.fine import merge_sparse

    idx, cnt = merge_sparse([])
    assert (idx.size, cnt.size) == (0, 0)
    idx, cnt = merge_sparse([(np.zeros(0, np.int32), np.zeros(0, np.int64))])
    assert (idx.size, cnt.size) == (0, 0)
    f = FineSeries()
    f.operations[0] = 5
    assert f.warmup_s == 0.0 and list(f.frame().warmup) == [False, False]  # its OVERALL and CLIENT-LAG rows
    f.latency[2] = f.latency.get(0, (np.zeros(0, np.int32), np.zeros(0, np.int64)))  # latency alone: 0 operations
    overall = f.frame()
    overall = overall[overall.op == "OVERALL"].set_index("interval")
    assert list(overall.operations) == [5, 0, 0] and list(overall.ops_per_s) == [50.0, 0.0, 0.0]


def test_the_requests_answered_just_after_a_command_that_returned_at_an_intervals_end_are_its_max_latency():
    """A DEL from 2.0003 to 2.4999 s (seen on CI): the 8 requests that waited behind it were answered at 2.5001 s,
    in interval 25, after "during" (20..24) ends; they are its largest latency, not the 1.8 ms of interval 24's
    last replies. A command that returned earlier in its interval leaves the next interval out."""
    ops = [1000] * 40
    for k in range(20, 25):
        ops[k] = 0
    ops[20] = 5  # answered in the 0.3 ms before the DEL began
    lat = {k: [100] * ops[k] for k in range(40)}
    lat[20] = [1_815] * 5
    lat[25] = [499_000] * 8 + [100] * 992
    lat[26] = [900_000] + [100] * 999  # a later interval: not the event's
    f = _series_of(ops, lat)
    e = effect(f, 2.0003, 2.4999)
    assert e.during_s == pytest.approx(0.5) and e.stall_s == pytest.approx(0.5)
    assert e.max_latency_us == pytest.approx(499_000, rel=1e-3)
    assert e.p99_during_us == pytest.approx(1_815, rel=1e-3)  # the p99 during stays the intervals of "during"
    lat[24], ops[24] = [2_000] * 10, 10  # returned in interval 23 (during ends with the stall's 24): 25 is after
    e = effect(_series_of(ops, lat), 2.0003, 2.3999)
    assert e.max_latency_us == pytest.approx(2_000, rel=1e-3)


def test_the_slowest_reply_counts_the_interval_after_the_command_returned_in_for_its_waiting_requests():
    """A command at 4.00 s that returned at 4.05 s (interval 40): the requests that waited behind it are answered
    in interval 41 too, 30 ms each; interval 39 before it held 50 ms replies, no part of it."""
    f = _series([1000] * 80, slow={39: 50_000, 41: 30_000})
    e = effect(f, 4.0, 4.05)
    assert e.during_s == pytest.approx(0.1) and e.stall_s == 0
    assert e.max_latency_us == pytest.approx(30_000, rel=1e-3)
    # the same command in a point planned to end at 4.1 s: interval 41 is past its end, and not read
    f.end_s = 4.1
    assert effect(f, 4.0, 4.05).max_latency_us == pytest.approx(100, rel=1e-2)
    # … and planned to end at 4.2 s: interval 41 is its last whole one, and read
    f.end_s = 4.2
    assert effect(f, 4.0, 4.05).max_latency_us == pytest.approx(30_000, rel=1e-3)


def test_the_p99_before_ends_where_the_event_begins():
    """3 s before an event at 4.0 s: 0.9 % of 30,000 operations take 5 ms (p99 100 µs); the event's own first
    interval (40), all 20 ms, is "during", never "before": with it the window's p99 would be 20 ms."""
    lat: dict[int, list[int]] = {k: [100] * 991 + [5_000] * 9 for k in range(10, 40)}
    lat[40] = [20_000] * 1000
    f = _series_of([1000] * 50, lat)
    e = effect(f, 4.0, 4.05)
    assert e.p99_before_us == 100 and e.p99_during_us == pytest.approx(20_000, rel=1e-3)
    with_event = [x for k in range(10, 41) for x in lat[k]]  # the truth the other way: numpy, the interval in
    assert np.percentile(with_event, 99) == 20_000


def test_a_silent_interval_of_a_slow_point_is_a_stall_and_an_event_with_nothing_before_it_has_none():
    """50 ops/s (5 an interval): the limit is 5 ops/s, and an interval the engine left out (nothing completed) did 0,
    not 1 (10 ops/s would be above it). An event at 0 s has no reference (NaN), one after nothing done a reference of
    0 ops/s: no stall in either, whatever follows."""
    f = _series([5] * 40)
    for k in (33, 34):
        del f.operations[k], f.latency[k]
    e = effect(f, 3.3, 3.35)
    assert e.pre_ops_per_s == 50 and e.stall_s == pytest.approx(0.2) and e.stall_start_s == pytest.approx(3.3)
    g = _series([0, 0] + [5] * 20)
    first = effect(g, 0.0, 0.05)
    assert math.isnan(first.pre_ops_per_s) and first.stall_s == 0 and first.stall_start_s is None
    # a point that did nothing before the event (reference 0 ops/s) has nothing below it to stall, gaps or not
    idle = _series([0] * 40)
    for k in range(20, 40):
        del idle.operations[k]
    none = effect(idle, 3.0, 3.05)
    assert none.pre_ops_per_s == 0 and none.stall_s == 0 and none.stall_start_s is None


def test_the_stall_is_looked_for_up_to_one_second_after_the_command_returned():
    """10 ms intervals at 10,000 ops/s, the command at 3 s: intervals 4.00 s and 4.01 s are silent. The search ends
    1 s (100 intervals) after the command's: it holds 4.00 s, a 10 ms stall, and not 4.01 s."""
    f = FineSeries(interval_s=0.01, warmup_s=0.0)
    for k in range(600):
        f.operations[k] = 0 if k in (400, 401) else 100
    e = effect(f, 3.0, 3.0)
    assert e.pre_ops_per_s == pytest.approx(10_000)
    assert e.stall_s == pytest.approx(0.01) and e.stall_start_s == pytest.approx(4.0)


def test_a_stall_edge_past_the_series_missed_nothing_a_gap_missed_all_and_a_reference_of_none_misses_nothing():
    # a stall up to the last measured interval: the phase ended there, the interval after it missed nothing
    assert effect(_series([1000] * 30 + [0] * 5), 3.0, 3.05).stall_est_s == pytest.approx(0.5)
    # ... and the last one measured, half done after a stall, is an edge like any (0.4 s + half of 0.1 s)
    assert effect(_series([1000] * 30 + [0] * 4 + [500]), 3.0, 3.05).stall_est_s == pytest.approx(0.45)
    # the interval before the stall did nothing: as an explicit 0 or as the gap the engine leaves, all of it missed
    ops = [1000] * 29 + [0] * 4 + [1000] * 5
    zero, gap = _series(ops), _series(ops)
    del gap.operations[29], gap.latency[29]
    for f in (zero, gap):
        e = effect(f, 3.0, 3.05)  # reference 10,000 ops/s (seconds 0-2: 10,000, 10,000, 9,000)
        assert (e.stall_s, e.stall_est_s) == (pytest.approx(0.3), pytest.approx(0.3 + 0.1))
    # nothing completed in the reference's intervals: a reference of 0 ops/s expects, and misses, nothing
    f = _series([0, 0, 1000, 1000, 1000])
    del f.operations[0], f.operations[1]
    e = effect(f, 0.25, 0.28)
    assert (e.pre_ops_per_s, e.stall_s, e.stall_est_s, e.ops_lost) == (0.0, 0.0, 0.0, 0.0)


def test_the_series_100ms_p99_is_the_99th_percentile_not_the_99_9th_nor_the_median():
    """An interval of 1,000 operations: 985 of 100 µs, 10 of 3 ms, 5 of 9 ms — p50 100 µs, p99 3 ms, p99.9
    9 ms (numpy says so of the same latencies); the series' p99 column is the 3 ms, its max the 9 ms."""
    lat = [100] * 985 + [3_000] * 10 + [9_000] * 5
    frame = _series_of([1000], {0: lat}).frame()
    overall = frame[frame.op == "OVERALL"].set_index("interval")
    assert (np.percentile(lat, 50), np.percentile(lat, 99), np.percentile(lat, 99.9)) == (100, 3_000, 9_000)
    assert overall.p50_us[0] == 100
    assert overall.p99_us[0] == pytest.approx(3_000, rel=1e-3)
    assert overall.max_us[0] == pytest.approx(9_000, rel=1e-3)
