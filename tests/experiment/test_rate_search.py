"""Rate specs, SLO specs and the SLO search's logic, in process.

The search is driven by a synthetic server whose knee is known exactly: an M/M/1-like queue of
capacity ``cap`` ops/s whose p99 at offered rate λ is ``base / (1 − λ/cap)`` (µs), achieving
min(λ, cap). Its highest rate meeting ``p99 ≤ L`` is ``cap·(1 − base/L)`` in closed form, and a fine
ladder (0.1 % steps) finds the same; the search must come within 4 % of the fine ladder's answer in
at most 8 points from an unpaced ceiling (the module docstring's claim), within 5 % from a start
rate, wherever the knee lies.
"""

from __future__ import annotations

import math

import pytest

from ycsbctl.errors import UserError
from ycsbctl.experiment.axes import parse_rates
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.rate_search import RateSearch
from ycsbctl.results.slo import MIN_ACHIEVED, Slo, Trial, parse_slo

BASE_US = 100.0  # the synthetic server's p99 when idle


def synthetic(cap: float, rate: float, limit_us: float) -> Trial:
    """The verdict the search would get from the synthetic server at offered ``rate``."""
    achieved = min(rate, cap)
    p99 = BASE_US / (1 - rate / cap) if rate < cap else math.inf
    passed = achieved >= MIN_ACHIEVED * rate and p99 <= limit_us
    return Trial(rate, passed, "synthetic", achieved_ops=achieved, latency_us=p99)


def fine_ladder(cap: float, limit_us: float, top: float) -> float:
    """The highest rate meeting the SLO on a ladder of 0.1 % steps up to ``top``."""
    best = 0.0
    for i in range(1, 1001):
        rate = top * i / 1000
        if synthetic(cap, rate, limit_us).passed:
            best = rate
    return best


def run_search(search: RateSearch, cap: float, limit_us: float) -> RateSearch:
    while (rate := search.next_rate()) is not None:
        search.record(synthetic(cap, rate, limit_us))
    return search


@pytest.mark.parametrize("knee_share", [0.007, 0.01, 0.02, 0.05, 0.07, 0.1, 0.126, 0.2, 0.33, 0.5, 0.61, 0.75, 0.9,
                                        0.97, 0.995])
def test_from_an_unpaced_ceiling_the_knee_is_found_within_4_percent_in_8_points(knee_share):
    """Within 4 % (as slo.py documents) wherever the knee lies from 1/140 of the unpaced maximum up (bisection under the
    ceiling)."""
    within = 0.04
    cap = 50_000.0
    limit = BASE_US / (1 - knee_share)  # the knee lies at knee_share · cap exactly
    exact = cap * knee_share
    fine = fine_ladder(cap, limit, cap)
    assert fine == pytest.approx(exact, rel=0.002)
    # the unpaced point is one of the 8: 7 paced points remain; the server's unpaced maximum is cap
    search = run_search(RateSearch(points=7, ceiling=cap), cap, limit)
    assert search.found is not None and len(search.tried) <= 7
    assert search.found <= fine * 1.001  # never claims a rate the fine ladder saw fail
    assert (fine - search.found) / fine <= within, [(t.rate, t.passed) for t in search.tried]


@pytest.mark.parametrize("start,knee", [(1000, 900), (1000, 1000 * 3.3), (1000, 1000 * 12), (5000, 400),
                                        (20_000, 1500)])
def test_from_a_start_rate_the_ladder_brackets_the_knee_then_bisects(start, knee):
    cap = 200_000.0
    limit = BASE_US / (1 - knee / cap)
    fine = fine_ladder(cap, limit, knee * 2)
    search = run_search(RateSearch(points=8, start=start), cap, limit)
    rates = [t.rate for t in search.tried]
    assert rates[0] == start and len(rates) <= 8
    assert search.found is not None and (fine - search.found) / fine <= 0.05, rates
    assert search.ended in ("converged", "budget")


def test_a_saturated_point_fails_even_when_its_latency_would_pass():
    """A server whose latency never grows (it sheds what it cannot take): only the achieved rate, below
    99 % of the offered one, can fail a point, and the search still stops at its capacity."""
    cap = 10_000.0
    search = RateSearch(points=8, start=2500)
    while (rate := search.next_rate()) is not None:
        search.record(Trial(rate, min(rate, cap) >= MIN_ACHIEVED * rate, "flat", achieved_ops=min(rate, cap)))
    assert search.found is not None and 0.95 * cap <= search.found <= cap / MIN_ACHIEVED
    assert any(not t.passed and t.rate > cap for t in search.tried)


def test_no_passing_rate_and_every_rate_passing_are_said():
    none = run_search(RateSearch(points=4, start=1000), 50_000.0, BASE_US / 2)  # below the idle latency
    assert none.found is None and none.ended == "none-passed"
    assert [t.rate for t in none.tried] == [1000, 250, 62, 16]
    every = run_search(RateSearch(points=3, start=10), 1e9, 1e9)
    assert every.ended == "all-passed" and every.found == 160


def test_the_search_is_deterministic_given_its_verdicts():
    """What makes it reproducible from the manifest: the same verdicts give the same rates."""
    cap, limit = 40_000.0, 400.0
    a = run_search(RateSearch(points=8, ceiling=37_000.0), cap, limit)
    b = RateSearch(points=8, ceiling=37_000.0)
    for t in a.tried:
        assert b.next_rate() == t.rate
        b.record(t)
    assert b.next_rate() is None and b.found == a.found


@pytest.mark.parametrize("text,want", [
    ("p99<1ms", Slo(99.0, 1000.0, None)),
    ("p50<250us", Slo(50.0, 250.0, None)),
    ("p95 < 2 ms", Slo(95.0, 2000.0, None)),
    ("READ:p99.9<500µs", Slo(99.9, 500.0, "READ")),
    ("update:p99<0.5ms", Slo(99.0, 500.0, "UPDATE")),
    ("all:p99.99<1s", Slo(99.99, 1e6, None)),
    ("p99<=800μs", Slo(99.0, 800.0, None)),
])
def test_slo_specs(text, want):
    assert parse_slo(text) == want
    assert parse_slo(str(want)) == want  # the manifest's spelling reads back


@pytest.mark.parametrize("text", ["p99", "p99<1", "p99<1h", "p98<1ms", "FETCH:p99<1ms", "99<1ms", "p99>1ms", "",
                                  "p99<0ms", "p99<" + "9" * 400 + "ms"])  # the last: an infinite limit
def test_malformed_slo_specs_are_one_line_naming_the_fix(text):
    with pytest.raises(UserError) as e:
        parse_slo(text)
    assert "\n" not in e.value.message and "--slo" in e.value.message


@pytest.mark.parametrize("text,want", [
    ("5000", [5000.0]),
    ("5k", [5000.0]),
    ("2.5k", [2500.0]),
    ("1M", [1e6]),
    ("10k,20k,40k", [10_000.0, 20_000.0, 40_000.0]),
    ("10k..80k/10k", [10_000.0 * i for i in range(1, 9)]),
    ("1k..16k", [1000.0, 2000.0, 4000.0, 8000.0, 16_000.0]),
    ("1k..10k", [1000.0, 2000.0, 4000.0, 8000.0]),
    ("500..2k/500", [500.0, 1000.0, 1500.0, 2000.0]),
    (" 100 .. 300 / 100 ", [100.0, 200.0, 300.0]),
])
def test_rate_specs(text, want):
    assert parse_rates(text) == want


@pytest.mark.parametrize("text", ["", "0", "-5k", "5x", "10k..5k", "10k..80k/0", "1k,,2k", "k", "1e3", "1..1M/1"])
def test_malformed_rate_specs_are_one_line_naming_the_fix(text):
    with pytest.raises(UserError) as e:
        parse_rates(text)
    assert "\n" not in e.value.message and "--target-rate" in e.value.message and "10k..80k/10k" in e.value.message


def test_a_rate_ladder_is_a_sweep_axis_and_an_older_plan_reads_back():
    plan = Plan(workloads=["b"], targets=["redis", "mongodb"], threads=[8, 16], target_rates=[1000.0, 2000.0, 4000.0])
    assert plan.points() == 2 * 2 * 3
    assert Plan.from_dict(plan.to_dict()).target_rates == [1000.0, 2000.0, 4000.0]
    assert Plan.from_dict({"workloads": ["b"], "target_rate": 1500.0}).rate_axis == [1500.0]
    assert Plan(workloads=["b"]).rate_axis == [None]
    slo = Plan(workloads=["b"], targets=["redis"], threads=[8], slo="p99<1ms", slo_points=8)
    assert slo.points() == 8  # at most: the unpaced ceiling and 7 paced points


def test_the_search_stops_once_its_bounds_are_within_the_tolerance_not_at_the_budget():
    """With points to spare, bisection ends when the failing rate is within 2 % above the passing one:
    log2(ln(151) / ln(1.02)) ≈ 8 bisections under the ceiling, not one per op/s of resolution."""
    cap = 50_000.0
    limit = BASE_US / (1 - 0.6)
    search = run_search(RateSearch(points=30, ceiling=cap), cap, limit)
    lo, hi = search.bounds
    assert search.ended == "converged" and len(search.tried) <= 10
    assert lo is not None and hi is not None and hi <= lo * 1.02


def test_a_rate_that_passed_above_one_that_failed_is_no_lower_bound():
    # noise: 1,000 passed, 2,000 failed, 3,000 passed; the bracket is (1,000, 2,000), under the 5,000 ceiling too
    search = RateSearch(points=8, ceiling=5_000.0)
    search.tried = [Trial(1_000.0, True, "p99 ok"), Trial(2_000.0, False, "p99 over"), Trial(3_000.0, True, "p99 ok")]
    assert search.bounds == (1_000.0, 2_000.0)
    search.tried = [Trial(1_000.0, True, "p99 ok"), Trial(3_000.0, True, "p99 ok")]
    assert search.bounds == (3_000.0, 5_000.0)
    # nor one at the failing rate itself (the same rate passed once and failed once): the bracket stays open
    search.tried = [Trial(1_000.0, True, "p99 ok"), Trial(2_000.0, True, "p99 ok"), Trial(2_000.0, False, "p99 over")]
    assert search.bounds == (1_000.0, 2_000.0)
