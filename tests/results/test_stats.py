"""ycsbctl.results.stats against scipy's own results and textbook formulas, on fixed data."""

from __future__ import annotations

import math
import warnings
from dataclasses import replace

import numpy as np
import pytest
from scipy import stats as sps

from ycsbctl.results import over_rounds, stats

# Five rounds of two targets: B is A × ~1.08 with its own noise; values unlike each other (mean ≠ median).
A = {1: 50_210.0, 2: 47_930.0, 3: 52_880.0, 4: 44_150.0, 5: 51_020.0}
B = {1: 54_900.0, 2: 51_300.0, 3: 57_700.0, 4: 48_600.0, 5: 54_100.0}


def test_interval_is_the_t_interval_of_the_mean_log():
    logs = np.log(list(A.values()))
    m, s, n = logs.mean(), logs.std(ddof=1), len(logs)
    half = sps.t.ppf(0.975, n - 1) * s / math.sqrt(n)  # the textbook interval, by hand
    i = stats.interval(list(A.values()))
    assert i.n == 5 and not i.within_run
    assert i.centre == pytest.approx(sps.gmean(list(A.values())), rel=1e-12)
    assert i.low == pytest.approx(math.exp(m - half),
                                  rel=1e-12) and i.high == pytest.approx(math.exp(m + half), rel=1e-12)
    assert i.cv == pytest.approx(np.std(list(A.values()), ddof=1) / np.mean(list(A.values())), rel=1e-12)
    assert i.half_width == pytest.approx(math.sqrt(i.high / i.low) - 1)
    assert not i.unstable  # CV 7 %
    noisy = stats.interval([10.0, 14.0, 9.0, 15.0])
    assert noisy.cv > stats.UNSTABLE_CV and noisy.unstable


def test_interval_of_one_value_has_no_width_and_nothing_positive_is_nothing():
    one = stats.interval([42.0])
    assert one.n == 1 and one.centre == pytest.approx(42.0) and math.isnan(one.low) and math.isnan(one.cv)
    assert stats.interval([0.0, float("nan"), -3.0]).n == 0


def test_batch_interval_is_the_interval_of_the_batch_means():
    series = [100.0, 140.0, 90.0, 120.0, 80.0, 150.0, 110.0, 95.0, 130.0, 105.0]
    means = [np.mean(series[i:i + 2]) for i in range(0, 10, 2)]  # five batches of two seconds
    got = stats.batch_interval(series)
    want = stats.interval(means)
    assert got.within_run and (got.low, got.high, got.centre) == pytest.approx((want.low, want.high, want.centre))
    assert math.isnan(stats.batch_interval([100.0]).low)


def test_paired_comparison_is_scipys_paired_t_test_on_the_logs():
    c = stats.compare(A, B, paired=True)
    la, lb = np.log(list(A.values())), np.log(list(B.values()))
    ref = sps.ttest_rel(lb, la)  # another scipy function than the one used
    d = lb - la
    half = sps.t.ppf(0.975, 4) * d.std(ddof=1) / math.sqrt(5)
    assert c.p_value == pytest.approx(ref.pvalue, rel=1e-9)
    assert c.ratio == pytest.approx(math.exp(d.mean()), rel=1e-12)
    assert (c.low, c.high) == pytest.approx((math.exp(d.mean() - half), math.exp(d.mean() + half)), rel=1e-9)
    assert c.n == 5 and c.test.startswith("paired")


def test_a_round_missing_on_one_side_leaves_its_pair_out():
    b = dict(B)
    del b[3]
    c = stats.compare(A, b, paired=True)
    la = np.log([A[r] for r in (1, 2, 4, 5)])
    lb = np.log([B[r] for r in (1, 2, 4, 5)])
    assert c.n == 4 and c.p_value == pytest.approx(sps.ttest_rel(lb, la).pvalue, rel=1e-9)


def test_an_unpaired_comparison_tests_from_two_values_a_side_and_not_with_one():
    """Two values on each side are Welch's test (scipy's p on the logs); one value on either side, even against
    two alike ones, is no test (no interval, no p), whichever side it is on."""
    for base, other in (([100.0, 110.0], [120.0, 135.0]), ([120.0, 135.0], [100.0, 110.0])):
        c = stats.compare(base, other)
        assert c.n == 2 and c.p_value == pytest.approx(
            sps.ttest_ind(np.log(other), np.log(base), equal_var=False).pvalue, rel=1e-9)
        assert c.low < c.ratio < c.high
    for base, other in (([100.0], [120.0, 120.0]), ([120.0, 120.0], [100.0]), ([100.0], [120.0, 135.0])):
        c = stats.compare(base, other)
        assert c.n == 1 and math.isnan(c.p_value) and math.isnan(c.low) and math.isnan(c.high)
        assert c.ratio == pytest.approx(math.exp(np.log(other).mean() - np.log(base).mean()))


def test_unpaired_comparison_is_welchs_t_test_on_the_logs():
    a, b = list(A.values()), list(B.values())[:4]
    c = stats.compare(a, b)
    la, lb = np.log(a), np.log(b)
    va, vb = la.var(ddof=1) / len(la), lb.var(ddof=1) / len(lb)
    df = (va + vb) ** 2 / (va ** 2 / (len(la) - 1) + vb ** 2 / (len(lb) - 1))  # Welch–Satterthwaite, by hand
    t = (lb.mean() - la.mean()) / math.sqrt(va + vb)
    assert c.p_value == pytest.approx(2 * sps.t.sf(abs(t), df), rel=1e-9)
    assert c.n == 4 and c.df == pytest.approx(df)  # the smaller side
    half = sps.t.ppf(0.975, df) * math.sqrt(va + vb)
    assert (c.low, c.high) == pytest.approx((math.exp(lb.mean() - la.mean() - half),
                                             math.exp(lb.mean() - la.mean() + half)), rel=1e-9)


def test_too_few_repetitions_give_a_ratio_and_no_test():
    c = stats.compare({1: 10.0}, {1: 12.0}, paired=True)
    assert c.ratio == pytest.approx(1.2) and math.isnan(c.p_value) and math.isnan(c.low)
    assert stats.decide([c], [True])[0].verdict == stats.UNDECIDED


def test_benjamini_hochberg_by_hand_decides_the_verdicts():
    ps = [0.001, 0.012, 0.030, 0.040, 0.300]
    cells = [stats.Comparison(1.1 if i % 2 else 0.9, 0.0, 0.0, p, "t", 5, 0.0, 0.0) for i, p in enumerate(ps)]
    done = stats.decide(cells, [True, True, True, False, True])
    m = len(ps)  # step-up by hand: p_(i) · m / i, then the running minimum from the top
    adj = [min(1.0, min(ps[j] * m / (j + 1) for j in range(i, m))) for i in range(m)]
    assert [c.p_adjusted for c in done] == pytest.approx(adj)
    # cells with a p value and no interval: the called ones better/worse, the rest undecided (never "equivalent":
    # equivalence needs an interval inside the margin)
    assert [c.verdict for c in done] == ["worse", "better", "undecided", "undecided", "undecided"]
    # lower is better for the fourth (a latency): its ratio 1.1 would be worse, were it significant
    strict = stats.decide(cells, [True] * 5, alpha=0.01)
    assert [c.verdict for c in strict] == ["worse", "undecided", "undecided", "undecided", "undecided"]


def test_the_smallest_detectable_difference_has_the_stated_power():
    """At the detectable difference a paired t test at alpha 0.05 has ~80 % power: checked with the
    noncentral t distribution (the exact power), not with the formula used."""
    c = stats.compare(A, B, paired=True)
    n, sd = c.n, c.sd_log
    delta = math.log1p(c.detectable)
    nc = delta / (sd / math.sqrt(n))
    crit = sps.t.ppf(0.975, n - 1)
    power = sps.nct.sf(crit, n - 1, nc) + sps.nct.cdf(-crit, n - 1, nc)
    assert 0.75 <= power <= 0.85


def test_after_the_adjustment_the_detectable_difference_is_stated_at_the_level_a_cell_must_reach():
    """Four cells judged together: a cell's detectable difference is the one a test at alpha/4 (BH's first
    step, all others null) calls with ~80 % power — checked with the noncentral t distribution — and so
    larger than the same cell's alone."""
    cells = [stats.compare(A, {r: v * (1 + k / 100) + 37 * r * k for r, v in B.items()}, paired=True) for k in range(4)]
    done = stats.decide(cells, [True] * 4)
    for alone, c in zip(cells, done):
        n, sd = c.n, c.sd_log
        nc = math.log1p(c.detectable) / (sd / math.sqrt(n))
        crit = sps.t.ppf(1 - 0.05 / 4 / 2, n - 1)
        power = sps.nct.sf(crit, n - 1, nc) + sps.nct.cdf(-crit, n - 1, nc)
        assert 0.75 <= power <= 0.85
        assert c.detectable > alone.detectable


def test_a_familys_intervals_leave_out_1_exactly_where_a_difference_was_called():
    """Many families of noisy cells, some with a real difference: after :func:`stats.decide` each tested
    interval is scipy's own t interval at ``1 - max(called, 1) · alpha / tested`` (Benjamini–Yekutieli's
    false-coverage-statement level), and it excludes 1.0 exactly where the cell was called."""
    rng = np.random.default_rng(7)
    disagreements_at_95 = 0
    for family in range(60):
        m = int(rng.integers(2, 17))
        base = [{r: float(np.exp(rng.normal(10, 0.1))) for r in range(1, 4 + family % 4)} for _ in range(m)]
        shift = [0.0 if rng.random() < 0.7 else float(rng.choice([-0.3, 0.3])) for _ in range(m)]
        cells = [stats.compare(b, {r: v * math.exp(s + rng.normal(0, 0.08)) for r, v in b.items()},
                               paired=bool(family % 2)) for b, s in zip(base, shift)]
        done = stats.decide(cells, [True] * m)
        called = sum(c.p_adjusted < 0.05 and c.ratio != 1 for c in done)
        level = 1 - max(called, 1) * 0.05 / m
        for alone, c in zip(cells, done):
            # equivalent where the two one-sided tests' interval (90 %: each side at α) lies inside ±10 %; that cell
            # shows it, the others the family's interval
            tost = stats.at_level(alone, 0.90)
            if tost.low >= 1 / 1.1 and tost.high <= 1.1:
                assert c.verdict == stats.EQUIVALENT and c.level == pytest.approx(0.90), (family, c)
                assert (c.low, c.high) == pytest.approx((tost.low, tost.high))
                continue
            assert c.level == pytest.approx(level)
            excludes = c.low > 1 or c.high < 1
            assert excludes == (c.p_adjusted < 0.05), (family, c)
            assert not (c.low >= 1 / 1.1 and c.high <= 1.1)  # the family's interval is wider than the 90 % one
            assert c.verdict == ((stats.BETTER if c.low > 1 else stats.WORSE) if excludes else stats.UNDECIDED)
            assert c.ratio == alone.ratio and c.p_value == alone.p_value
            disagreements_at_95 += (alone.low > 1 or alone.high < 1) != excludes
    assert disagreements_at_95 > 0  # the plain 95 % interval would have contradicted some verdicts


def test_the_familys_level_is_scipys_interval_at_that_level():
    cells = [stats.compare(A, B, paired=True), stats.compare(list(A.values()), list(B.values())[:4])]
    done = stats.decide(cells, [True, True], alpha=0.01)
    la, lb = np.log(list(A.values())), np.log(list(B.values()))
    called = sum(c.p_adjusted < 0.01 for c in done)
    level = 1 - max(called, 1) * 0.01 / 2
    paired = sps.ttest_1samp(lb - la, 0.0).confidence_interval(level)
    welch = sps.ttest_ind(lb[:4], la, equal_var=False).confidence_interval(level)
    assert (done[0].low, done[0].high) == pytest.approx((math.exp(paired.low), math.exp(paired.high)), rel=1e-9)
    assert (done[1].low, done[1].high) == pytest.approx((math.exp(welch.low), math.exp(welch.high)), rel=1e-9)
    assert done[0].level == done[1].level == pytest.approx(level) and level > stats.CONFIDENCE  # wider than 95 %


def test_repetitions_needed_reach_the_power_and_one_fewer_does_not():
    sd = 0.04
    n = over_rounds.repetitions_needed(sd, 0.05)
    assert n is not None

    def power(k: int) -> float:
        nc = math.log(1.05) / (sd / math.sqrt(k))
        crit = sps.t.ppf(0.975, k - 1)
        return sps.nct.sf(crit, k - 1, nc)
    assert power(n) >= 0.78 and power(n - 1) < 0.82
    assert over_rounds.repetitions_needed(0.08, 0.05) > n  # more noise, more rounds
    assert over_rounds.repetitions_needed(math.nan) is None


def test_drift_is_the_fitted_change_over_the_rounds():
    falling = {r: 100.0 * 0.97 ** r * (1.0 + 0.002 * (-1) ** r) for r in range(1, 7)}
    d = over_rounds.drift(falling)
    slope = np.polyfit(list(falling), np.log(list(falling.values())), 1)[0]
    assert d is not None and d.change == pytest.approx(math.expm1(slope * 5), rel=1e-9) and d.drifting
    assert over_rounds.drift_text("throughput",
                                  d) == f"throughput fell {abs(d.change):.0%} from the first round to the last"
    flat = {1: 100.0, 2: 104.0, 3: 97.0, 4: 101.0, 5: 99.0}
    assert over_rounds.drift_text("throughput", over_rounds.drift(flat)) is None
    # a significant drift smaller than half a percent keeps its digits: never "rose 0%"
    creeping = {r: 100.0 * 1.0006 ** r * (1.0 + 0.00001 * (-1) ** r) for r in range(1, 7)}
    small = over_rounds.drift(creeping)
    assert small is not None and small.drifting and 0 < small.change < 0.005
    assert over_rounds.drift_text("throughput", small) == (
        f"throughput rose {small.change * 100:.1f}% from the first round to the last") != (
        "throughput rose 0% from the first round to the last")
    # just under half a percent still has its digit (it would round to "0%" whole): the boundary is 0.5 %
    assert over_rounds.drift_text("throughput", over_rounds.Drift(-0.00497, 0.001)) == (
        "throughput fell 0.5% from the first round to the last")
    assert over_rounds.drift_text("throughput", over_rounds.Drift(0.0051, 0.001)) == (
        "throughput rose 1% from the first round to the last")
    # and under a twentieth of a percent, two digits (0.05 % would read "0.0%" or "0.1%" with one)
    assert over_rounds.drift_text("throughput", over_rounds.Drift(0.000502, 0.001)) == (
        "throughput rose 0.1% from the first round to the last")
    assert over_rounds.drift_text("throughput", over_rounds.Drift(-0.000497, 0.001)) == (
        "throughput fell 0.05% from the first round to the last")
    assert over_rounds.drift({1: 1.0, 2: 2.0, 3: 3.0}) is None  # fewer than four rounds: no trend test


def _cv_of(values: list[float]) -> float:
    return float(np.std(values, ddof=1) / np.mean(values))  # numpy's, not the module's


def test_unstable_means_a_cv_above_10_percent_not_at_it():
    just_over = [1 - 0.1005 / math.sqrt(2), 1 + 0.1005 / math.sqrt(2)]  # CV 10.05 %
    just_under = [1 - 0.0995 / math.sqrt(2), 1 + 0.0995 / math.sqrt(2)]  # CV 9.95 %
    assert _cv_of(just_over) == pytest.approx(0.1005) and stats.interval(just_over).unstable
    assert _cv_of(just_under) == pytest.approx(0.0995) and not stats.interval(just_under).unstable


def test_a_cv_exactly_at_the_threshold_is_not_unstable(monkeypatch):
    i = stats.interval([10.0, 14.0, 9.0, 15.0])
    monkeypatch.setattr(stats, "UNSTABLE_CV", i.cv)  # "more than 10 %": the threshold itself is stable
    assert not i.unstable
    monkeypatch.setattr(stats, "UNSTABLE_CV", i.cv * 0.999)
    assert i.unstable


def test_intervals_of_no_value_and_one_value_say_nothing_of_width_or_stability():
    none = stats.interval([])
    assert none.n == 0 and math.isnan(none.centre) and math.isnan(none.half_width) and not none.unstable
    one = stats.interval([42.0])
    assert math.isnan(one.half_width) and not one.unstable
    small = stats.interval([0.2, 0.3, 0.25])  # values below 1: the half width is still there
    assert small.half_width == pytest.approx(math.sqrt(small.high / small.low) - 1) and small.low < 1


def test_a_batch_interval_of_one_batch_is_the_series_mean_over_one_value():
    series = [1.0, 2.0, 6.0]  # mean 3 ≠ median 2 ≠ max 6
    one = stats.batch_interval(series, batches=1)
    # the series' mean itself, not a round trip through logs (exp(log(3.0)) is 3.0000000000000004)
    assert one.n == 1 and one.centre == 3.0 and math.isnan(one.low) and one.within_run
    single = stats.batch_interval([100.0])
    assert single.n == 1 and single.centre == pytest.approx(100.0)
    empty = stats.batch_interval([0.0, -1.0])
    assert empty.n == 0 and math.isnan(empty.centre)
    two = stats.batch_interval([1.0, 2.0, 6.0, 7.0], batches=2)  # two batches: means 1.5 and 6.5
    assert two.n == 2 and two.centre == pytest.approx(math.sqrt(1.5 * 6.5))


def test_identical_repetitions_compare_exactly_without_a_test():
    for paired in (False, True):
        a = {1: 5.0, 2: 5.0, 3: 5.0}
        up = stats.compare(a, {r: 6.0 for r in a}, paired=paired)
        assert (up.ratio, up.low, up.high, up.p_value) == pytest.approx((1.2, 1.2, 1.2, 0.0)) and up.detectable == 0
        assert up.sd_log == 0 and over_rounds.repetitions_needed(up.sd_log) == 2  # no noise: two rounds would do
        same = stats.compare(a, dict(a), paired=paired)
        assert (same.ratio, same.p_value) == (1.0, 1.0)
        done = stats.decide([up, same], [True, True])
        # 1.2 exactly: beyond the ±10 % margin, better; 1.0 exactly: inside it, equivalent
        assert [c.verdict for c in done] == [stats.BETTER, stats.EQUIVALENT]
        assert (done[0].low, done[0].high) == pytest.approx((1.2, 1.2))  # no spread: no interval to widen
    # unpaired samples of 3 and 2 identical values: the repetitions counted are the fewer side's, as a test's would be
    uneven = stats.compare([5.0] * 3, [10.0] * 2)
    assert (uneven.ratio, uneven.n) == (pytest.approx(2.0), 2)


def test_a_called_cell_of_any_size_is_better_or_worse():
    cells = [stats.Comparison(r, 0.0, 0.0, 0.001, "t", 5, 0.0, 0.0) for r in (2.0, 0.5, 1.0)]
    done = stats.decide(cells, [True, True, True])
    assert [c.verdict for c in done] == [stats.BETTER, stats.WORSE, stats.UNDECIDED]  # ratio 1: nothing to call


def test_family_level_and_at_level_by_hand():
    assert stats.family_level(0.05, 10, 0) == pytest.approx(0.995)  # none called: as if one were
    assert stats.family_level(0.05, 10, 1) == pytest.approx(0.995)
    assert stats.family_level(0.05, 10, 3) == pytest.approx(0.985)
    assert stats.family_level(0.01, 4, 4) == pytest.approx(0.99)
    c = stats.compare(A, B, paired=True)
    d = np.log(list(B.values())) - np.log(list(A.values()))
    ci = sps.ttest_1samp(d, 0.0).confidence_interval(0.99)
    wide = stats.at_level(c, 0.99)
    assert (wide.low, wide.high) == pytest.approx((math.exp(ci.low), math.exp(ci.high)),
                                                  rel=1e-9) and wide.level == 0.99
    assert wide.ratio == c.ratio and wide.p_value == c.p_value
    exact = stats.compare([5.0, 5.0], [6.0, 6.0])
    assert stats.at_level(exact, 0.99) == exact  # no spread: kept as it is
    few = stats.compare({1: 10.0}, {1: 12.0}, paired=True)
    assert stats.at_level(few, 0.99) == few or (math.isnan(few.low) and math.isnan(stats.at_level(few, 0.99).low))


def test_bounds_past_e_700_are_capped_at_e_700_on_either_side():
    """Two wild rounds at a level of 1 - 1e-12: t · se is far past 700 (computed here with scipy), so both bounds
    stop at e^±700 (a float, not an overflow: math.exp(710) raises); a plain 95 % interval is untouched."""
    c = stats.compare({1: 100.0, 2: 100.0}, {1: 100.0, 2: 1e6}, paired=True)
    level = 1 - 1e-12
    assert sps.t.ppf(1 - (1 - level) / 2, c.df) * c.se_log - abs(math.log(c.ratio)) > 710
    wide = stats.at_level(c, level)
    assert (wide.low, wide.high) == (math.exp(-700.0), math.exp(700.0))
    assert stats.at_level(c, 0.95).high == pytest.approx(
        math.exp(math.log(c.ratio) + sps.t.ppf(0.975, c.df) * c.se_log), rel=1e-9)


def test_repetitions_needed_is_the_first_count_with_80_percent_power():
    def power(sd: float, k: int) -> float:  # a paired t test's exact power, from the noncentral t
        nc = math.log(1.05) / (sd / math.sqrt(k))
        crit = sps.t.ppf(0.975, k - 1)
        return sps.nct.sf(crit, k - 1, nc) + sps.nct.cdf(-crit, k - 1, nc)

    for sd in (0.02, 0.04, 0.08):
        n = over_rounds.repetitions_needed(sd, 0.05)
        assert n is not None and power(sd, n) >= 0.80 > power(sd, n - 1), (sd, n)
        assert over_rounds.repetitions_needed(sd, 0.05, cap=n) == n  # the cap itself is reachable
        assert over_rounds.repetitions_needed(sd, 0.05, cap=n - 1) == n - 1  # not enough: the cap is said
    assert over_rounds.repetitions_needed(0.001, 0.05) == 2  # a t test needs two
    assert over_rounds.repetitions_needed(0.04, 0.05,
                                          paired=False) == over_rounds.repetitions_needed(0.04 * math.sqrt(2), 0.05)
    assert over_rounds.repetitions_needed(-0.1) is None
    # past a thousand repetitions the default cap is said: sd 3 needs ~(2.8 × 3 / ln 1.05)² ≈ 30,000
    assert over_rounds.repetitions_needed(3.0, 0.05) == 1000


def test_drift_of_rising_and_of_constant_rounds():
    rising = {r: 100.0 * 1.05 ** r * (1.0 + 0.003 * (-1) ** r) for r in range(1, 7)}
    d = over_rounds.drift(rising)
    assert d is not None and d.change > 0
    assert over_rounds.drift_text("p99 latency",
                                  d) == f"p99 latency rose {d.change:.0%} from the first round to the last"
    assert over_rounds.drift({1: 5.0, 2: 5.0, 3: 5.0, 4: 5.0}) is None  # no spread: no trend
    assert over_rounds.drift({1: 5.0, 2: 0.0, 3: 5.0, 4: 6.0}) is None  # three usable rounds


def test_a_half_width_needs_both_bounds_positive():
    """Survivors of a sampled mutation run (``and`` → ``or``, ``> 0`` → ``> -1``): one bound at 0 or below, no
    half width (NaN), never a division by zero or a root of a negative."""
    from ycsbctl.results.stats import Interval

    assert math.isnan(Interval(3, 1.0, 0.0, 2.0, 0.1).half_width)
    assert math.isnan(Interval(3, 1.0, 2.0, 0.0, 0.1).half_width)
    assert math.isnan(Interval(3, 1.0, -0.5, 2.0, 0.1).half_width)
    assert Interval(3, 1.0, 0.5, 2.0, 0.1).half_width == pytest.approx(1.0)


def test_no_spread_or_no_degree_of_freedom_detects_nothing_rather_than_every_difference() -> None:
    """A standard error of 0 (identical values) or no degree of freedom gives no detectable difference (NaN), not
    0 % (which would read "any difference is detectable")."""
    from ycsbctl.results.stats import _detectable

    assert math.isnan(_detectable(0.0,
                                  5.0)) and math.isnan(_detectable(0.05, 0.0)) and math.isnan(_detectable(-0.1, 5.0))
    assert 0 < _detectable(0.05, 5.0) < 1


def test_one_value_is_its_own_centre_with_no_interval_and_no_numpy_warning_on_the_users_terminal():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a sample sd of one value would warn "Degrees of freedom <= 0"
        one = stats.interval([42.0])
    assert one.n == 1 and one.centre == pytest.approx(42.0)
    assert math.isnan(one.low) and math.isnan(one.high) and math.isnan(one.cv)


def test_a_margin_of_zero_is_the_plain_test_and_a_ratio_inside_the_margin_has_a_p_of_one_at_most():
    c = stats.compare(A, B, paired=True)
    # scipy's p value kept, not recomputed; with no drift there is no margin to be equivalent within either
    assert stats.beyond_margin(c, 0.0) == replace(c, equivalence=0.0)
    # a ratio of ~1.08 inside ±50 %: twice the t tail beyond a negative excess is above one; p is capped at 1
    inside = stats.beyond_margin(c, 0.5)
    assert inside.p_value == 1.0 and inside.margin == 0.5
    # what it could detect is restated beyond the margin: 1.5 · e^((t(0.975) + t(0.8)) · se) − 1
    t = sps.t.ppf(0.975, c.df) + sps.t.ppf(0.8, c.df)
    assert inside.detectable == pytest.approx(1.5 * math.exp(t * c.se_log) - 1) and inside.detectable > c.detectable
    exact = stats.compare([5.0, 5.0], [6.0, 6.0])  # no spread: nothing to restate, its 0 kept; 1.2 is beyond ±10 %
    assert (stats.beyond_margin(exact, 0.1).detectable, stats.beyond_margin(exact, 0.1).p_value) == (0.0, 0.0)
    excess = abs(math.log(c.ratio)) - math.log1p(0.02)  # beyond ±2 %: the tail of scipy's t, twice
    assert stats.beyond_margin(c, 0.02).p_value == pytest.approx(2 * sps.t.sf(excess / c.se_log, c.df), rel=1e-12)


def test_an_interval_without_spread_degree_of_freedom_or_positive_ratio_keeps_its_bounds_at_any_level():
    def comparison(ratio: float, se: float, df: float) -> stats.Comparison:
        return stats.Comparison(ratio, 1.1, 1.3, 0.01, "paired t (log ratio per round)", 3, 0.1, 0.1, se_log=se, df=df)

    for c in (comparison(1.2, 0.0, 2.0), comparison(1.2, 0.05, 0.0), comparison(0.0, 0.05, 2.0)):
        assert stats.at_level(c, 0.99) == c
    restated = stats.at_level(comparison(1.2, 0.05, 2.0), 0.99)
    t = sps.t.ppf(0.995, 2.0)
    assert (restated.low, restated.high, restated.level) == (
        pytest.approx(1.2 * math.exp(-t * 0.05)), pytest.approx(1.2 * math.exp(t * 0.05)), 0.99)


def test_an_added_error_widens_the_interval_as_scipys_t_interval_of_the_summed_variances():
    """The yardstick's factor divided out of one side carries its own error: the standard errors add in
    quadrature, the degrees of freedom by Welch–Satterthwaite (by hand here), the interval is scipy's t interval."""
    c = stats.compare(A, B)
    se, df = 0.05, 6.0
    wide = stats.with_added_error(c, se, df)
    total = math.sqrt(c.se_log ** 2 + se ** 2)
    dof = total ** 4 / (c.se_log ** 4 / c.df + se ** 4 / df)
    low, high = sps.t.interval(0.95, dof, loc=math.log(c.ratio), scale=total)
    assert (wide.low, wide.high) == pytest.approx((math.exp(low), math.exp(high)))
    assert wide.p_value == pytest.approx(2 * sps.t.sf(abs(math.log(c.ratio)) / total, dof))
    assert wide.ratio == c.ratio and wide.low < c.low and wide.high > c.high and wide.p_value > c.p_value
    assert wide.detectable > c.detectable
    # no known error (too few readings), a zero one, or a comparison without a test: unchanged
    assert stats.with_added_error(c, math.nan, math.nan) == c and stats.with_added_error(c, 0.0, 5.0) == c
    one = stats.compare({1: 1.0}, {1: 2.0})
    assert stats.with_added_error(one, se, df) == one


def test_a_comparison_without_spread_is_beyond_a_margin_exactly_when_its_ratio_is():
    from dataclasses import replace

    from ycsbctl.results import stats

    c = stats.compare({1: 100.0, 2: 200.0, 3: 400.0}, {1: 150.0, 2: 300.0, 3: 600.0}, paired=True)
    flat = replace(c, se_log=0.0)  # every round's ratio 1.5 exactly: no spread to test with
    assert (stats.beyond_margin(flat, 0.1).p_value, stats.beyond_margin(flat, 0.6).p_value) == (0.0, 1.0)
    no_df = replace(c, df=0)
    assert (stats.beyond_margin(no_df, 0.1).p_value, stats.beyond_margin(no_df, 0.6).p_value) == (0.0, 1.0)


def test_an_interval_whose_log_standard_error_is_exactly_one_is_a_real_interval():
    from ycsbctl.results import stats

    # logs 0 and 2: centre e, standard error sqrt(2) / sqrt(2) = 1, t(0.975, 1) = 12.706: e^(1 ± 12.706)
    iv = stats.interval([1.0, math.exp(2)])
    t = stats.t_quantile(0.975, 1)
    assert iv.centre == pytest.approx(math.e) and t == pytest.approx(12.7062, abs=1e-4)
    assert (iv.low, iv.high) == pytest.approx((math.exp(1 - t), math.exp(1 + t)))


def test_a_drift_is_read_from_four_rounds_on_as_the_log_values_straight_line_says():
    """docs/studies/comparison.md: a cell's drift is read from four rounds or more. Four rounds falling 2 % a round: the
    total change is the least-squares line of the logs (numpy's polyfit) over first to last, and three rounds read
    none."""
    import math

    import numpy as np

    from ycsbctl.results.over_rounds import drift

    values = {1: 100.0, 2: 98.0, 3: 96.5, 4: 94.0}
    slope = np.polyfit(list(values), np.log(list(values.values())), 1)[0]
    d = drift(values)
    assert d is not None and math.isclose(d.change, math.expm1(slope * 3), rel_tol=1e-9), d
    assert drift({r: v for r, v in values.items() if r < 4}) is None


def test_welchs_pooled_sd_is_the_root_of_the_mean_of_both_sides_sample_variances_of_log_values():
    import statistics

    from ycsbctl.results import stats

    a, b = [100.0, 110.0, 95.0, 102.0], [150.0, 140.0, 171.0]
    c = stats.compare(dict(enumerate(a)), dict(enumerate(b)), paired=False)
    logs = [[math.log(v) for v in side] for side in (a, b)]
    assert c.sd_log == pytest.approx(math.sqrt((statistics.variance(logs[0]) + statistics.variance(logs[1])) / 2),
                                     rel=1e-12)


def test_two_paired_rounds_one_degree_of_freedom_get_a_real_margin_test_and_interval():
    from scipy.stats import t as student_t

    from ycsbctl.results import stats

    c = stats.compare({1: 100.0, 2: 110.0}, {1: 150.0, 2: 180.0}, paired=True)
    assert c.df == 1 and c.se_log > 0
    excess = abs(math.log(c.ratio)) - math.log1p(0.1)
    p = stats.beyond_margin(c, 0.1).p_value
    assert p == pytest.approx(2 * student_t.sf(excess / c.se_log, 1), rel=1e-9) and 0 < p < 1
    at90 = stats.at_level(c, 0.9)
    half = student_t.ppf(0.95, 1) * c.se_log
    assert (at90.low, at90.high) == pytest.approx((c.ratio * math.exp(-half), c.ratio * math.exp(half)), rel=1e-9)


def test_two_repetitions_whose_logs_are_2_apart_have_the_t_interval_of_a_standard_error_of_1():
    """ln 1 = 0 and ln e² = 2: the mean log 1, sd √2, standard error exactly 1: the interval is e^(1 ± t)
    with t scipy's 97.5th percentile of Student's t with 1 degree of freedom (12.706), not a point."""
    import math

    from scipy import stats as sps

    from ycsbctl.results.stats import interval
    i = interval([1.0, math.exp(2)])
    t = float(sps.t.ppf(0.975, 1))
    assert (i.n, i.centre) == (2, math.e)
    assert math.isclose(i.low, math.exp(1 - t), rel_tol=1e-9) and math.isclose(i.high, math.exp(1 + t), rel_tol=1e-9)
    same = interval([5.0, 5.0, 5.0])
    assert same.low == same.centre == same.high and math.isclose(same.centre, 5.0) and same.cv == 0.0


def test_an_equivalence_is_judged_at_the_two_one_sided_tests_level_not_at_the_differences():
    """Eight paired rounds whose log ratios' t interval (scipy) lies inside ±10 % at 90 % — the two one-sided tests at
    α = 0.05 each — and not at 95 %: ``equivalent``, stated at 90 % with scipy's 90 % interval. Beside a cell called
    different (a family of two: its level 97.5 %) the equivalent cell keeps its own 90 %; with a sequential look's
    equivalence α (0.02: a 98 % interval, not inside) it is undecided at the family's level."""

    d = [0.13, -0.07, 0.10, 0.02, -0.05, 0.16, -0.02, 0.01]
    base = {r: 1000.0 for r in range(1, 9)}
    other = {r: 1000.0 * math.exp(x) for r, x in zip(base, d)}
    t = sps.ttest_1samp(d, 0.0)
    edge = math.log(1.1)
    tost, two_sided = t.confidence_interval(0.90), t.confidence_interval(0.95)
    assert -edge <= tost.low and tost.high <= edge and two_sided.high > edge  # the case: inside at 90 %, not at 95 %
    (c,) = stats.decide([stats.compare(base, other, paired=True)], [True])
    assert c.verdict == stats.EQUIVALENT and c.level == pytest.approx(0.90)
    assert (c.low, c.high) == pytest.approx((math.exp(tost.low), math.exp(tost.high)), rel=1e-9)
    far = {r: 500.0 * math.exp(0.01 * (r % 3)) for r in base}  # a cell called worse: the family's level is 97.5 %
    same, worse = stats.decide([stats.compare(base, other, paired=True), stats.compare(base, far, paired=True)],
                               [True, True])
    assert worse.verdict == stats.WORSE and worse.level == pytest.approx(1 - 0.05 / 2)
    assert same.verdict == stats.EQUIVALENT and same.level == pytest.approx(0.90)
    (look,) = stats.decide([stats.compare(base, other, paired=True)], [True], alpha=0.01, equivalence_alpha=0.02)
    assert look.verdict == stats.UNDECIDED and look.level == pytest.approx(0.99)
