"""The effect of a disturbance (results/disturbance.py) on hand-built 100 ms series whose stall,
lost operations and percentiles are worked out by hand."""

from __future__ import annotations

import math

import pytest

from ycsbctl.results import histogram as hdr
from ycsbctl.results.disturbance import effect, longest_run_below, reference_rate
from ycsbctl.results.fine import FineSeries, sparse_of

pytestmark = pytest.mark.truth


def _series(ops: list[int], slow: dict[int, int] | None = None, lag: dict[int, int] | None = None,
            warmup_s: float = 0.0) -> FineSeries:
    """``ops[k]`` operations in interval k, each of 100 µs, or of ``slow[k]`` µs; 10 CLIENT-LAG probes
    of 50 µs per interval, one of them ``lag[k]`` µs."""
    f = FineSeries(interval_s=0.1, warmup_s=warmup_s)
    for k, n in enumerate(ops):
        f.operations[k] = n
        h = hdr.new_histogram()
        hdr.record_many(h, [(slow or {}).get(k, 100)] * n)
        f.latency[k] = sparse_of(hdr.counts_of(h))
        g = hdr.new_histogram()
        hdr.record_many(g, [50] * 9 + [(lag or {}).get(k, 50)])
        f.client_lag[k] = sparse_of(hdr.counts_of(g))
    return f


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


def test_the_stall_of_the_next_event_is_that_events_not_this_ones():
    ops = [1000] * 40
    ops[25], ops[26] = 0, 0  # a stall at 2.5 s, after a harmless event at 2.0 s and the next one at 2.45 s
    f = _series(ops)
    assert effect(f, 2.0, 2.01).stall_s == pytest.approx(0.2)  # alone, it would take the stall for its own
    assert effect(f, 2.0, 2.01, next_s=2.45).stall_s == 0
    assert effect(f, 2.45, 2.7).stall_s == pytest.approx(0.2)


def test_without_a_whole_second_before_the_event_the_rate_is_the_median_of_its_intervals():
    # an event 0.5 s into the window: intervals 0..4 before it, 200, 300, 400, 500, 600 ops each
    f = _series([200, 300, 400, 500, 600] + [1000] * 10)
    assert reference_rate(f, start_s=0.5) == pytest.approx(4000.0)  # median 400 ops per 0.1 s
    assert math.isnan(reference_rate(f, start_s=0.0))  # nothing measured before it
    assert longest_run_below([0, 0, 5, 0], 1) == (0, 2)  # a run from the first value
