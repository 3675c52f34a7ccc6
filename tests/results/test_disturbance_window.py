"""Where a disturbance's affected window ends (results/disturbance.py: :func:`window_end`, :func:`back_line`) on
hand-built 100 ms series: the band of the window before the event, worked out here with numpy; the store's own
background work; a window the point ends first said open; the cost as the area between the reference rate and the
series, summed here interval by interval."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.fixtures.fine_series import fine_series as _series
from ycsbctl.results.disturbance import BACK_SAMPLES, BAND_SIGMAS, back_line, effect

pytestmark = pytest.mark.truth


def _area(ops: list[int], first: int, last: int, rate: float) -> float:
    """Operations short of ``rate`` (ops/s) over intervals ``first`` .. ``last - 1`` (100 ms each)."""
    return max(0.0, sum(rate * 0.1 - ops[k] for k in range(first, last)))


def test_the_band_is_the_reference_less_three_scaled_median_absolute_deviations_of_the_samples_before():
    rng = np.random.default_rng(7)  # fixed: the band is worked out here from the very samples
    before = [int(x) for x in rng.normal(1000, 40, 30).round()]
    ops = before + [100] * 5 + [1000] * 20
    f = _series(ops)
    pre = effect(f, 3.0, 3.01).pre_ops_per_s
    x = np.array(before, dtype=float) / 0.1
    sigma = 1.4826 * float(np.median(np.abs(x - np.median(x))))  # the normal-consistent MAD, by hand
    assert back_line(f, 3.0, pre) == pytest.approx(pre - BAND_SIGMAS * sigma)
    # an interval just above the band's edge is back, one just below is not
    edge = math.ceil((pre - BAND_SIGMAS * sigma) * 0.1)
    ops[35] = ops[36] = ops[37] = edge
    assert effect(_series(ops), 3.0, 3.01).affected_end_s == pytest.approx(3.5)
    ops[36] = edge - 1
    assert effect(_series(ops), 3.0, 3.01).affected_end_s == pytest.approx(3.7)


def test_a_steady_rate_has_a_band_of_one_operation_an_interval_and_a_noisy_one_never_below_half():
    steady = _series([1000] * 40)
    assert back_line(steady, 3.0, 10_000.0) == pytest.approx(10_000 - 10)
    wild = _series([200, 1800] * 20)  # a spread so wide that three of it reach below zero
    assert back_line(wild, 3.0, 10_000.0) == pytest.approx(5_000)


def test_the_window_goes_on_until_the_series_is_back_and_counts_the_area_between_the_rate_and_the_series():
    ops = [1000] * 30 + [0] * 2 + [300] * 10 + [800, 1000, 700] + [1000] * 20
    f = _series(ops)
    e = effect(f, 3.0, 3.15)
    # back from interval 45 (three in a row at the rate): 800 and 700 are below the band, in the window
    assert e.affected_end_s == pytest.approx(4.5) and not e.window_open
    assert e.ops_lost == pytest.approx(_area(ops, 30, 45, 10_000)) == 2 * 1000 + 10 * 700 + 200 + 300
    assert e.stall_s == pytest.approx(0.2) and e.slow_s == pytest.approx(1.2) and e.slow_run_s == pytest.approx(1.2)


def test_the_window_reaches_the_stores_own_background_work_though_the_series_looks_back_sooner():
    ops = [1000] * 30 + [400] * 3 + [1000] * 30
    f = _series(ops)
    assert effect(f, 3.0, 3.01).affected_end_s == pytest.approx(3.3)
    e = effect(f, 3.0, 3.01, busy_until_s=4.25)  # the store said at 4.25 s that it was done: interval 42 is its last
    assert e.affected_end_s == pytest.approx(4.3) and not e.window_open
    assert e.ops_lost == pytest.approx(_area(ops, 30, 43, 10_000))
    # … and still busy when it stopped being asked, or done after the point's end: the window is open to the end
    for busy in (math.inf, 7.0):
        e = effect(f, 3.0, 3.01, busy_until_s=busy)
        assert e.window_open and e.affected_end_s == pytest.approx(6.3)


def test_a_series_not_back_when_the_point_ends_leaves_the_window_open_and_its_cost_a_lower_bound():
    ops = [1000] * 30 + [400] * 10 + [1000] * (BACK_SAMPLES - 1)
    f = _series(ops)
    e = effect(f, 3.0, 3.01)
    assert e.window_open and e.affected_end_s == pytest.approx(len(ops) / 10)
    assert e.ops_lost == pytest.approx(_area(ops, 30, len(ops), 10_000)) == 6_000
    ops.append(1000)  # one more interval at the rate: back, closed where the dip ended
    e = effect(_series(ops), 3.0, 3.01)
    assert not e.window_open and e.affected_end_s == pytest.approx(4.0)


def test_back_is_the_first_run_of_back_samples_intervals_at_or_above_the_line_after_the_window_began():
    """``back_at``: an interval exactly at the band's edge is back ("at or above"); a run one short, broken by one
    interval below, does not count; the run found is the first that begins after ``k_from`` and ends by ``k_last``
    (None when none does: the window is open)."""
    from ycsbctl.results.disturbance import back_at

    line = 9_990.0
    at = [line] * (BACK_SAMPLES - 1) + [line - 1] + [line] * BACK_SAMPLES  # from interval 31 on
    rates = dict(enumerate(at, start=31))

    def rate(k: int) -> float:
        return rates.get(k, 0.0)

    first = 31 + BACK_SAMPLES  # the first interval of the whole run
    assert back_at(rate, line, 30, 40) == first
    assert back_at(rate, line, 30, first + BACK_SAMPLES - 2) is None  # the run is not whole by then
    assert back_at(rate, line, first, 40) is None  # after k_from only: the run's first interval is k_from itself
    assert back_at(rate, line - 1, 30, 40) == 31  # at or above the line: the interval at line - 1 is back too


def test_the_band_leaves_an_earlier_events_intervals_out_and_a_busy_store_ends_at_the_interval_before_its_edge():
    """``back_line``'s spread is of the samples before the event less ``skip`` (an earlier event's intervals: its dip
    is not the traffic's noise), by hand with numpy; a store done exactly at an interval's edge (4.0 s) was busy up to
    the interval before it (39), one done inside an interval (4.05 s) in that interval (40); ``busy_until_s`` NaN (an
    events table's empty cell) is no background work, as None; an event with nothing before it (a NaN reference)
    has a window that ends where its own intervals do (or the store's work), not said open."""
    rng = np.random.default_rng(11)  # fixed: the band is worked out here from the very samples
    before = [int(x) for x in rng.normal(1000, 30, 30).round()]
    before[12:15] = [100, 120, 90]  # an earlier event's dip
    f = _series(before + [1000] * 30)
    kept = np.array([v for k, v in enumerate(before) if k not in (12, 13, 14)], dtype=float) / 0.1
    sigma = 1.4826 * float(np.median(np.abs(kept - np.median(kept))))
    assert back_line(f, 3.0, 10_000.0, skip={12, 13, 14}) == pytest.approx(10_000.0 - BAND_SIGMAS * sigma)
    assert back_line(f, 3.0, 10_000.0) != pytest.approx(10_000.0 - BAND_SIGMAS * sigma)

    flat = _series([1000] * 30 + [400] * 3 + [1000] * 30)
    assert effect(flat, 3.0, 3.01, busy_until_s=4.0).affected_end_s == pytest.approx(4.0)
    assert effect(flat, 3.0, 3.01, busy_until_s=4.05).affected_end_s == pytest.approx(4.1)
    nan = effect(flat, 3.0, 3.01, busy_until_s=math.nan)
    assert nan == effect(flat, 3.0, 3.01, busy_until_s=None) and nan.affected_end_s == pytest.approx(3.3)
    first = effect(_series([5] * 20), 0.0, 0.05, busy_until_s=1.0)
    assert math.isnan(first.pre_ops_per_s) and not first.window_open and first.affected_end_s == pytest.approx(1.0)
    # … and busy still when the store stopped being asked: to the end of the last full interval (its 20th)
    busy = effect(_series([5] * 20), 0.0, 0.05, busy_until_s=math.inf)
    assert not busy.window_open and busy.affected_end_s == pytest.approx(20 * 0.1)
