"""The four verdicts, the sequential looks and the host's noise bound, against independent computations
(scipy's t intervals and one-sided tests, hand arithmetic, simulation under optional stopping)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from ycsbctl.results import looks, noise, spending, stats
from ycsbctl.results import verdicts as vd
from ycsbctl.results.host_drift import Margins


def test_an_interval_is_equivalent_inside_the_margin_else_better_or_worse_beside_1_else_undecided():
    c = stats.classify
    assert c(0.95, 1.04, True, 0.10) == stats.EQUIVALENT
    assert c(1.02, 1.08, True, 0.10) == stats.EQUIVALENT  # leaves 1 out, but no difference that matters
    assert c(1.05, 1.30, True, 0.10) == stats.BETTER and c(1.05, 1.30, False, 0.10) == stats.WORSE
    assert c(0.02, 0.04, True, 0.10) == stats.WORSE and c(0.02, 0.04, False, 0.10) == stats.BETTER
    assert c(0.80, 1.30, True, 0.10) == stats.UNDECIDED
    assert c(math.nan, math.nan, True, 0.10) == stats.UNDECIDED
    # a minimum-effect test (between folders): better only beyond the host's drift
    assert c(1.05, 1.30, True, 0.10, beyond=0.10) == stats.UNDECIDED
    assert c(1.12, 1.30, True, 0.10, beyond=0.10) == stats.BETTER


def test_the_looks_spend_at_most_alpha_whatever_round_the_run_stops_at():
    assert looks.spent_alpha(0.05, 7, sequential=False) == 0.05  # one look: all of it
    weights = [looks.spent_alpha(1.0, r, True) for r in looks.LOOK_ROUNDS]
    assert sum(weights) < 1 and weights == sorted(weights, reverse=True)
    # an analysis between two looks (a budget spent at round 4) spends the next look's part, never one already spent
    assert looks.look_index(4) == looks.look_index(5) == 4 and looks.look_index(3) == 3
    indexes = [looks.look_index(r) for r in range(1, 200)]
    assert indexes == sorted(indexes) and sum(k ** -1.5 for k in range(1, 10**6)) / looks._ZETA <= 1


@pytest.mark.parametrize("planned", [1, 2, 4, 12, 18, 30, 200])
def test_planned_rounds_spread_what_follows_look_1_over_their_looks_and_keep_a_part_for_looks_past_them(planned):
    last = looks.look_index(planned)
    weights = [looks.look_weight(k, planned) for k in range(1, 10**5)]
    assert weights[0] == looks.look_weight(1) == pytest.approx(1 / looks._ZETA)  # look 1 comes before the plan
    # look 1, the planned looks' 95 % of the rest (none with one planned round: the run stops there) and the 5 %
    # past them — but for their k^-1.5 tail past 10^5 looks (~2/√10^5 of that series)
    rest = 1 - 1 / looks._ZETA
    whole = 1 / looks._ZETA + rest * (0.95 if last >= 2 else 0.0) + rest * 0.05
    assert math.fsum(weights) <= whole <= 1.0 and math.fsum(weights) == pytest.approx(whole, abs=2e-3)
    planned_part = weights[1:last]  # looks 2…K: ∝ 1/k, 95 % of what follows look 1 (hand arithmetic)
    if planned_part:
        h = sum(1 / j for j in range(2, last + 1))
        assert planned_part == pytest.approx([(1 - 1 / looks._ZETA) * 0.95 / k / h for k in range(2, last + 1)])
    assert all(w > 0 for w in weights) and weights[last:] == sorted(weights[last:], reverse=True)
    # up to --repeat auto's 30 rounds, every planned look spends more than the endless series would have (what the
    # plan buys); a plan of many more looks spreads thinner at first
    more = all(weights[k - 1] > looks.look_weight(k) for k in range(2, last + 1))
    assert more == (planned <= 30), planned
    # the level of an analysis: alpha times the weight of the look it is
    assert looks.spent_alpha(0.05, planned, True, planned) == pytest.approx(0.05 * weights[last - 1])


def test_the_rounds_a_budget_holds_are_its_seconds_over_a_rounds_at_most_max_repeat():
    assert looks.planned_rounds(600.0, 40.0, 30) == 15
    assert looks.planned_rounds(600.0, 41.0, 30) == 14  # a round that would end past the budget is not planned
    assert looks.planned_rounds(600.0, 10.0, 30) == 30  # --max-repeat caps it
    assert looks.planned_rounds(30.0, 40.0, 30) == 1  # one round is always planned (it ran)
    assert looks.planned_rounds(float("inf"), 40.0, 30) == 30 and looks.planned_rounds(600.0, 0.0, 30) == 30


def _sequential_false_calls(spend: bool, runs: int = 200, rounds: int = 18, seed: int = 11, sd: float = 0.2,
                            planned: int | None = None) -> float:
    """Share of A/A experiments (paired log ratios ~ N(0, ``sd``): too noisy to be equivalent soon) called better or
    worse at some look, stopping at the first look where the cell is decided."""
    rng = np.random.default_rng(seed)
    scheduled = [r for r in looks.LOOK_ROUNDS if 2 <= r <= rounds]
    called = 0
    for _ in range(runs):
        d = rng.normal(0.0, sd, rounds)
        base = {r + 1: 1000.0 for r in range(rounds)}
        other = {r + 1: 1000.0 * math.exp(x) for r, x in enumerate(d)}
        for r in scheduled:
            c = stats.compare({k: base[k] for k in range(1, r + 1)}, {k: other[k] for k in range(1, r + 1)},
                              paired=True)
            v = stats.decide([c], [True], alpha=looks.spent_alpha(0.05, r, spend, planned))[0].verdict
            if v in (stats.BETTER, stats.WORSE):
                called += 1
                break
            if v == stats.EQUIVALENT:
                break
    return called / runs


def test_stopping_on_the_data_keeps_the_false_calls_within_alpha_where_testing_each_look_at_alpha_does_not():
    spent = _sequential_false_calls(spend=True)
    planned = _sequential_false_calls(spend=True, planned=18)  # the looks of 18 planned rounds spend more each
    naive = _sequential_false_calls(spend=False)
    # the union bound over the looks (200 A/A runs: ±1.5 % of simulation error)
    assert spent <= 0.05 and planned <= 0.05
    # every look at the full alpha: the error rate grows with the looks
    assert naive > planned >= spent and naive > 0.05


@pytest.mark.parametrize("fractions", [(0.2, 0.4, 0.6, 0.8, 1.0), tuple(r / 11 for r in (1, 2, 3, 5, 8, 11)),
                                       tuple(r / 30 for r in (1, 2, 3, 5, 8, 12, 18, 27, 30)), (1.0,)])
def test_the_boundaries_spend_alpha_look_by_look_as_a_simulated_brownian_motion_crosses_them(fractions):
    """Lan–DeMets by numerical integration, against 300,000 simulated Brownian paths observed at the looks: the share
    first crossing at each look is that look's part of alpha, f(t_k) − f(t_{k−1}), and the whole is alpha."""
    alpha = 0.05
    c = np.asarray(spending.boundaries(alpha, fractions))
    # the first look has no earlier one: its boundary is the normal quantile of its part (scipy's norm)
    assert c[0] == pytest.approx(sps.norm.isf(spending.obf_spent(alpha, fractions[0]) / 2), rel=1e-9)
    if fractions == (1.0,):
        assert c[0] == pytest.approx(sps.norm.isf(alpha / 2))  # one look at the end: the plain test
    rng = np.random.default_rng(20261127)
    t = np.asarray(fractions)
    paths = np.cumsum(rng.normal(size=(300_000, len(t))) * np.sqrt(np.diff(t, prepend=0.0)), axis=1) / np.sqrt(t)
    crossed = np.abs(paths) >= c
    first = np.where(crossed.any(axis=1), crossed.argmax(axis=1), -1)
    parts = np.diff([spending.obf_spent(alpha, x) for x in (0.0, *fractions)])
    for k, part in enumerate(parts):
        share = float(np.mean(first == k))
        se = math.sqrt(part * (1 - part) / len(first))
        assert abs(share - part) <= 4 * se + 1e-5, (k, share, part)
    whole = float(np.mean(first >= 0))
    assert abs(whole - alpha) <= 4 * math.sqrt(alpha * (1 - alpha) / len(first))
    # early looks ask far more than the last, which tests at nearly alpha (O'Brien–Fleming's shape)
    levels = spending.nominal_levels(alpha, fractions)
    assert list(levels) == sorted(levels) and alpha * 0.7 < levels[-1] <= alpha


def test_the_boundaries_integrate_by_simpsons_rule_and_take_only_increasing_fractions():
    # Simpson's weights integrate a cubic exactly (hand arithmetic: ∫₀¹ x³ dx = 1/4), which the grid's integrals rely on
    x = np.linspace(0.0, 1.0, 11)
    assert float(np.sum(spending._simpson(11) * x ** 3) * (x[1] - x[0])) == pytest.approx(0.25, rel=1e-12)
    for bad in ((0.5, 0.5, 1.0), (0.6, 0.4), (0.0, 1.0)):
        with pytest.raises(ValueError, match="must increase"):
            spending.boundaries(0.05, bad)


def _paired_levels(rounds_seen: list[int], planned: int | None, scheme: str | None) -> tuple[list[float], list[float]]:
    return ([looks.spent_alpha(0.05, r, True, planned, scheme) for r in rounds_seen],
            [looks.equivalence_alpha(0.05, r, True, planned, scheme) for r in rounds_seen])


def _simulated_looks(shift: float, sd: float, planned: int, scheme: str | None, runs: int = 4000,
                     seed: int = 5) -> dict[str, float]:
    """``runs`` sequential experiments of one cell (paired log ratios ~ N(``shift``, ``sd``)), looked at after the
    scheduled rounds up to ``planned``, stopping at the first look that decides: the share ending better/worse,
    equivalent (±10 %) and undecided. The tests are scipy's (one-sample t on the log ratios, its intervals); the
    levels are the looks' (:func:`looks.spent_alpha`, :func:`looks.equivalence_alpha`)."""
    rng = np.random.default_rng(seed)
    d = rng.normal(shift, sd, size=(runs, planned))
    seen = [r for r in looks.looks_until(planned) if r >= 2]
    levels, eq_levels = _paired_levels(seen, planned, scheme)
    edge = math.log(1.1)
    verdict = np.full(runs, "undecided", dtype=object)
    for r, a, e in zip(seen, levels, eq_levels):
        open_ = verdict == "undecided"
        res = sps.ttest_1samp(d[:, :r], 0.0, axis=1)
        lo, hi = res.confidence_interval(1 - e)
        same = open_ & (lo >= -edge) & (hi <= edge)
        called = open_ & ~same & (res.pvalue < a)
        verdict[same], verdict[called] = "equivalent", "called"
    return {v: float(np.mean(verdict == v)) for v in ("called", "equivalent", "undecided")}


def test_the_planned_looks_keep_the_error_rates_and_decide_more_than_a_union_bound():
    """Simulated sequential runs (4,000 each, 11 planned rounds, this host's per-round spread of ~0.15): the
    Lan–DeMets looks call an A/A pair different in at most alpha of runs and call a 12 % gap (beyond the ±10 %
    margin) equivalent in at most alpha; they call equivalent and different more often than the union bound did."""
    se = math.sqrt(0.05 * 0.95 / 4000)
    aa = _simulated_looks(0.0, 0.15, 11, looks.SPENDING)
    aa_union = _simulated_looks(0.0, 0.15, 11, None)
    assert aa["called"] <= 0.05 + 3 * se
    assert aa["equivalent"] > aa_union["equivalent"] + 0.1  # what the plan buys: the same answer, more often
    beyond = _simulated_looks(math.log(1.12), 0.15, 11, looks.SPENDING)
    assert beyond["equivalent"] <= 0.05 + 3 * se
    gap = _simulated_looks(math.log(0.85), 0.15, 11, looks.SPENDING)
    assert gap["called"] > _simulated_looks(math.log(0.85), 0.15, 11, None)["called"]


def test_the_looks_past_the_plan_and_folders_written_before_spend_as_they_did():
    planned = 11
    within = [looks.spent_alpha(0.05, r, True, planned, looks.SPENDING) for r in looks.looks_until(planned)]
    assert within == sorted(within) and within[-1] <= 0.05 * (1 - looks.BEYOND_PLAN)
    past = [looks.spent_alpha(0.05, r, True, planned, looks.SPENDING) for r in (12, 18, 27, 40)]
    assert sum(past) <= 0.05 * looks.BEYOND_PLAN and past == sorted(past, reverse=True)
    # a folder without the scheme in its plan: the union bound it was judged by
    assert looks.spent_alpha(0.05, 8, True, planned) == 0.05 * looks.look_weight(looks.look_index(8), planned)
    assert looks.spent_alpha(0.05, 8, True) == 0.05 * looks.look_weight(looks.look_index(8))
    # one look, no sequence: alpha, and the two one-sided tests each at alpha (a 90 % interval)
    assert looks.spent_alpha(0.05, 8, False) == 0.05 and looks.equivalence_alpha(0.05, 8, False) == 0.10
    # the analysis of a run stopped between two looks is made where it stopped
    assert looks.looks_until(10) == (1, 2, 3, 5, 8, 10) and looks.looks_until(8) == (1, 2, 3, 5, 8)


def test_an_analysis_before_the_first_round_ended_is_made_as_at_look_1():
    """A run stopped before its first round ended (0 rounds done) is analysed as at round 1, its first look: the same
    looks, and the same level, as after one round."""
    assert looks.looks_until(0) == looks.looks_until(-1) == looks.looks_until(1) == (1,)
    assert looks.spent_alpha(0.05, 0, True, 8, looks.SPENDING) == looks.spent_alpha(0.05, 1, True, 8, looks.SPENDING)


def test_the_looks_past_the_plan_keep_five_percent_of_alpha_split_by_the_tail_of_zeta_one_and_a_half():
    """The share of alpha kept for looks past the planned rounds, against the docs' 5 % and the Hurwitz zeta function
    (scipy): 8 planned rounds are looked at after rounds 1, 2, 3, 5 and 8 (look 5 the plan's last); look k > 5 spends
    alpha × 5 % × k^-1.5 / ζ(1.5, 6), so that all of them together spend exactly 5 % of alpha. Within the plan the
    looks spend the other 95 %: a plan of one round tests its only look at 0.95 × alpha."""
    from scipy.special import zeta

    rest = 0.05 * 0.05 / zeta(1.5, 6)
    for rounds, look in ((12, 6), (18, 7), (27, 8), (40, 9), (90, 11), (91, 12), (95, 16)):
        assert looks.spent_alpha(0.05, rounds, True, 8, looks.SPENDING) == pytest.approx(rest * look ** -1.5, rel=1e-9)
    assert looks.spent_alpha(0.05, 1, True, 1, looks.SPENDING) == pytest.approx(0.95 * 0.05, rel=1e-6)
    assert looks.plan_spent_alpha({"sequential": True, "planned_rounds": 8, "spending": "obf"}, 0.05, 12) == \
        pytest.approx(rest * 6 ** -1.5, rel=1e-9)
    # a folder written before (the union bound): what follows look 1, (1 − 1/ζ(1.5)), keeps the same 5 % past the plan
    union = (1 - 1 / zeta(1.5)) * 0.05 / zeta(1.5, 6)
    assert [looks.look_weight(k, 8) for k in (6, 7, 20)] == pytest.approx([union * k ** -1.5 for k in (6, 7, 20)])


def test_the_adjusted_comparison_is_least_squares_at_an_equal_share_with_its_t_interval():
    """Analysis of covariance by hand (numpy's least squares, scipy's t): the log ratio of each round on the
    difference of the host each side had; the ratio is the fit at 0, its interval the intercept's t interval."""
    rng = np.random.default_rng(8)
    rounds = range(1, 13)
    share_a = {r: float(rng.uniform(0, 0.5)) for r in rounds}
    share_b = {r: float(rng.uniform(0, 0.5)) for r in rounds}
    base = {r: 1000.0 * (1 - share_a[r]) * math.exp(rng.normal(0, 0.02)) for r in rounds}
    other = {r: 900.0 * (1 - share_b[r]) * math.exp(rng.normal(0, 0.02)) for r in rounds}  # 10 % slower at equal shares
    x = noise.covariate(share_a, share_b)
    c = stats.compare(base, other, paired=True, covariate=x)
    d = np.log([other[r] / base[r] for r in rounds])
    design = np.column_stack([np.ones(len(d)), [x[r] for r in rounds]])
    coef, residual, *_ = np.linalg.lstsq(design, d, rcond=None)
    s2 = float(residual[0]) / (len(d) - 2)
    se = math.sqrt(s2 * np.linalg.inv(design.T @ design)[0, 0])
    t = sps.t.ppf(0.975, len(d) - 2)
    assert c.test == stats.ADJUSTED and c.df == len(d) - 2
    assert (c.ratio, c.low, c.high) == pytest.approx((math.exp(coef[0]), math.exp(coef[0] - t * se),
                                                      math.exp(coef[0] + t * se)))
    assert c.p_value == pytest.approx(2 * sps.t.sf(abs(coef[0]) / se, len(d) - 2))
    assert c.sd_log == pytest.approx(math.sqrt(s2))  # the residuals' sd: what repetitions_needed plans from
    plain = stats.compare(base, other, paired=True)
    # far narrower, and it holds the truth
    assert c.high / c.low < (plain.high / plain.low) ** 0.5 and c.low < 0.9 < c.high
    # the rule looks at the covariate alone: too few rounds, a round without it, or too little spread → the plain test
    assert stats.compare({r: base[r] for r in range(1, 5)}, {r: other[r] for r in range(1, 5)}, paired=True,
                         covariate=x).test != stats.ADJUSTED
    assert stats.compare(base, other, paired=True,
                         covariate={r: v for r, v in x.items() if r != 3}).test != stats.ADJUSTED
    flat = {r: 0.01 * (r % 2) for r in rounds}  # sd 0.005 < ADJUST_MIN_SD
    assert stats.compare(base, other, paired=True, covariate=flat) == plain


def test_a_folders_verdict_adjusts_for_the_host_share_each_side_had_in_its_runs():
    """Through :func:`ycsbctl.results.verdicts.target_verdicts`, as a folder is judged: eight interleaved rounds whose
    points lost what other programs took of the host (``host_other_share``, unequal between the sides and from round
    to round), b 10 % slower than a at equal shares. Each cell is the adjusted comparison — least squares by hand
    (numpy) of the per-round log ratio on log((1 − b's share) ÷ (1 − a's share)), the ratio its fit at 0 with the
    intercept's t interval — and so reads worse; without the shares the same runs are the plain paired test, whose
    ratio is the mean log ratio's and whose interval is too wide to call it."""
    from tests.fixtures.verdict_runs import runs_table

    share_a = [0.0, 0.3, 0.0, 0.2, 0.0, 0.2, 0.0, 0.1]
    share_b = [0.3, 0.1, 0.4, 0.0, 0.2, 0.1, 0.5, 0.0]
    wobble = [1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.01]
    a = [1000.0 * (1 - s) * w for s, w in zip(share_a, wobble)]
    b = [900.0 * (1 - s) * w for s, w in zip(share_b, reversed(wobble))]
    runs = runs_table({("a", 8): a, ("b", 8): b}).assign(host_other_share=share_a + share_b)
    v = vd.target_verdicts(runs, "a")
    cell = v[(v["metric"] == "throughput") & ~v["at_peak"]].iloc[0]
    d = np.log(b) - np.log(a)
    x = np.log1p(-np.asarray(share_b)) - np.log1p(-np.asarray(share_a))
    design = np.column_stack([np.ones(len(d)), x])
    coef, residual, *_ = np.linalg.lstsq(design, d, rcond=None)
    se = math.sqrt(float(residual[0]) / (len(d) - 2) * np.linalg.inv(design.T @ design)[0, 0])
    half = sps.t.ppf(1 - (1 - cell["ci_level"]) / 2, len(d) - 2) * se
    assert cell["test"] == stats.ADJUSTED and cell["ratio"] == pytest.approx(math.exp(coef[0]), rel=1e-9)
    assert (cell["ci_low"], cell["ci_high"]) == pytest.approx((math.exp(coef[0] - half), math.exp(coef[0] + half)))
    assert cell["verdict"] == stats.WORSE and cell["ci_high"] < 1 and cell["ci_level"] == pytest.approx(0.95)
    plain = vd.target_verdicts(runs.drop(columns="host_other_share"), "a")
    p = plain[(plain["metric"] == "throughput") & ~plain["at_peak"]].iloc[0]
    assert p["test"] == "paired t (log ratio per round)" and p["ratio"] == pytest.approx(math.exp(d.mean()))
    assert p["verdict"] == stats.UNDECIDED and abs(math.log(p["ratio"] / cell["ratio"])) > 0.05


def test_adjusting_for_the_hosts_share_keeps_an_a_a_pairs_error_rate():
    """1,000 simulated A/A cells of 8 rounds whose points lose what the host took (shares up to 80 %): the adjusted
    95 % interval holds 1 in 95 % of them (± simulation error), and is narrower than the plain test's."""
    rng = np.random.default_rng(12)
    held, widths, plain_widths = 0, [], []
    for _ in range(1000):
        sa, sb = rng.uniform(0, 0.8, 8) ** 2, rng.uniform(0, 0.8, 8) ** 2
        base = {r + 1: 1000.0 * (1 - sa[r]) * math.exp(rng.normal(0, 0.05)) for r in range(8)}
        other = {r + 1: 1000.0 * (1 - sb[r]) * math.exp(rng.normal(0, 0.05)) for r in range(8)}
        c = stats.compare(base, other, paired=True,
                          covariate=noise.covariate(dict(enumerate(sa, 1)), dict(enumerate(sb, 1))))
        held += c.low <= 1 <= c.high
        widths.append(math.log(c.high / c.low))
        plain = stats.compare(base, other, paired=True)
        plain_widths.append(math.log(plain.high / plain.low))
    assert abs(held / 1000 - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / 1000)
    assert np.median(widths) < 0.7 * np.median(plain_widths)


def test_a_looks_interval_is_scipys_t_interval_at_the_level_it_spends():
    rng = np.random.default_rng(3)
    base = {r: 1000.0 * math.exp(rng.normal(0, 0.03)) for r in range(1, 6)}
    other = {r: v * 1.3 * math.exp(rng.normal(0, 0.03)) for r, v in base.items()}
    alpha = looks.spent_alpha(0.05, 5, True)
    (c,) = stats.decide([stats.compare(base, other, paired=True)], [True], alpha=alpha)
    d = np.log(list(other.values())) - np.log(list(base.values()))
    ci = sps.ttest_1samp(d, 0.0).confidence_interval(1 - alpha)
    assert (c.low, c.high) == pytest.approx((math.exp(ci.low), math.exp(ci.high)), rel=1e-9)
    assert c.verdict == stats.BETTER and c.level == pytest.approx(1 - alpha)


@pytest.mark.parametrize("shift", [0.0, 0.02, 0.06, 0.09, 0.15])
def test_equivalent_is_exactly_scipys_two_one_sided_tests_at_alpha(shift):
    """TOST: equivalent within ±10 % exactly when both one-sided t tests (ratio above 1/1.1, below 1.1) reject
    at alpha, computed by scipy on the log ratios."""
    rng = np.random.default_rng(int(shift * 100) + 5)
    base = {r: 500.0 for r in range(1, 9)}
    other = {r: 500.0 * math.exp(shift + rng.normal(0, 0.03)) for r in base}
    (c,) = stats.decide([stats.compare(base, other, paired=True)], [True])
    d = np.log(list(other.values())) - np.log(list(base.values()))
    edge = math.log(1.1)
    p_low = sps.ttest_1samp(d, -edge, alternative="greater").pvalue
    p_high = sps.ttest_1samp(d, edge, alternative="less").pvalue
    tost = max(p_low, p_high) < 0.05  # each one-sided test at alpha
    assert (c.verdict == stats.EQUIVALENT) == tost, (c, p_low, p_high)
    if tost:  # shown with the two one-sided tests' interval: 1 − 2α
        assert c.level == pytest.approx(0.90)


def test_the_noise_bound_by_hand_for_a_rate_and_a_latency():
    # one round, no other program: the measured ratio widened by the host's noise either way
    lo, hi = noise.bound({1: 1000.0}, {1: 30.0}, {1: 0.0}, {1: 0.0}, 0.20, True, paired=True)
    assert (lo, hi) == pytest.approx((0.03 / 1.2, 0.03 * 1.2))
    # other programs took 60 % of the host during the other target's point: it may have run 2.5× too slow
    lo, hi = noise.bound({1: 1000.0}, {1: 30.0}, {1: 0.0}, {1: 0.6}, 0.20, True, paired=True)
    assert (lo, hi) == pytest.approx((0.03 / 1.2, 0.03 * 1.2 / 0.4))
    # a latency: busy makes it higher, so the busy side's figure may be too high
    lo, hi = noise.bound({1: 100.0}, {1: 5000.0}, {1: 0.0}, {1: 0.6}, 2.0, False, paired=True)
    assert (lo, hi) == pytest.approx((50 * 0.4 / 3, 50 * 3))
    # two rounds: the mean of each round's bounds
    lo, hi = noise.bound({1: 100.0, 2: 100.0}, {1: 200.0, 2: 400.0}, {1: 0.0, 2: 0.0}, {1: 0.0, 2: 0.0}, 0.2, True,
                         True)
    assert (lo, hi) == pytest.approx((math.sqrt(2 * 4) / 1.2, math.sqrt(2 * 4) * 1.2))
    # a share nobody measured (telemetry off): no bound at all
    assert noise.bound({1: 1.0}, {1: 2.0}, {1: math.nan}, {1: 0.0}, 0.2, True, True) is None


def test_the_calibration_record_widens_the_noise_only_beyond_the_default():
    quiet = noise.noise_model(Margins({"throughput": 0.03}, "rec"))
    loud = noise.noise_model(Margins({"throughput": 0.25, "p99": 0.4}, "rec"))
    assert quiet.of("throughput") == pytest.approx(0.20) and "calibration record" in quiet.source
    assert loud.of("throughput") == pytest.approx(0.50) and loud.of("p99") == pytest.approx(2.0)
    assert noise.noise_model(Margins({}, "default")).of("client CPU/op") == noise.OTHER_NOISE
    # the words give the bound in whole per cent of throughput: 2 × 12.2 % = 24.4 %
    assert noise.noise_model(Margins({"throughput": 0.122}, "rec")).source == (
        "±24 % throughput between runs (the calibration record), widened by other programs' CPU")
    assert noise.noise_model(Margins({}, "default")).source.startswith("±20 % throughput between runs (the default)")


def _runs(rows: list[tuple[str, int, int, float, float, str, bool]]) -> pd.DataFrame:
    """(target, threads, round, ops/s, host share, status, compared) rows of one workload's sweep."""
    return pd.DataFrame([{"workload": "workloadb", "target": t, "threads": n, "phase": "run", "repetition": r,
                          "status": st, "compared": cmp, "throughput_ops": ops, "all_p99_us": 1e6 / ops,
                          "target_rate": math.nan, "host_other_share": share}
                         for t, n, r, ops, share, st, cmp in rows])


def test_one_round_decides_a_gap_beyond_the_hosts_noise_and_leaves_a_small_one_undecided():
    runs = _runs([("redis", 8, 1, 40_000.0, 0.02, "ok", True), ("ferretdb", 8, 1, 1_300.0, 0.02, "ok", True),
                  ("redis", 32, 1, 40_000.0, 0.02, "ok", True), ("ferretdb", 32, 1, 36_000.0, 0.02, "ok", True)])
    v = vd.target_verdicts(runs, "redis", how=vd.judging(margins=Margins({}, "default")))
    tp = v[(v["metric"] == "throughput") & ~v["at_peak"]].set_index("threads")
    assert tp.loc[8, "verdict"] == stats.WORSE and tp.loc[8, "decided_by"] == stats.NOISE_ONLY
    assert tp.loc[8, "ci_high"] < 1 and tp.loc[8, "ci_low"] > 0
    assert tp.loc[32, "verdict"] == stats.UNDECIDED  # 0.9×: within what two runs of one server differ by
    lat = v[(v["metric"] == "p99") & (v["threads"] == 8)].iloc[0]
    assert lat["verdict"] == stats.WORSE  # 31× the latency, beyond a three-fold noise


def test_a_busy_host_widens_the_bound_and_its_points_are_compared_in_paired_rounds_only():
    busy = _runs([("redis", 8, 1, 20_000.0, 0.86, "degraded", True), ("ferretdb", 8, 1, 150.0, 0.86, "degraded", True)])
    paired = vd.target_verdicts(busy, "redis", how=vd.judging(True, margins=Margins({}, "default")))
    cell = paired[(paired["metric"] == "throughput") & ~paired["at_peak"]].iloc[0]
    assert (
        cell["verdict"] == stats.WORSE and cell["busy_rounds"] == 1 and cell["host_busy_max_pct"] == pytest.approx(86)
    )
    assert cell["ci_high"] == pytest.approx(150 / 20_000 * 1.2 / (1 - noise.BUSY_CAP * 0 - 0.86))
    # target by target (no pairing), a point degraded by a busy host stays out
    assert vd.target_verdicts(busy, "redis", paired=False).empty
    # a stalled point (degraded, not compared) stays out either way
    stalled = busy.assign(compared=False)
    assert vd.target_verdicts(stalled, "redis", how=vd.judging(True)).empty


def test_a_verdict_row_names_its_margin_and_what_decided_it():
    runs = _runs([(t, 8, r, 1000.0 * (1 + 0.01 * ((r * 7) % 3)), 0.0, "ok", True) for t in ("a",
                                                                                            "b") for r in range(1, 6)])
    v = vd.target_verdicts(runs, "a", how=vd.judging(True, margin=0.05))
    row = v[(v["metric"] == "throughput") & ~v["at_peak"]].iloc[0]
    assert row["margin_pct"] == pytest.approx(5.0) and row["margin_source"] == "--margin"
    assert row["verdict"] == stats.EQUIVALENT and "paired t" in row["decided_by"]
    assert vd.verdict_text(row).endswith("equivalent (margin ±5 %)")


def test_the_noise_bound_unpaired_uses_each_sides_geometric_mean_and_caps_the_busy_share():
    # unpaired: the ratio of the geometric means (300/100 over 40), each side's mean host share
    lo, hi = noise.bound({1: 100.0, 2: 400.0}, {1: 10.0, 2: 160.0}, {1: 0.0, 2: 0.0}, {1: 0.2, 2: 0.4}, 0.2, True,
                         paired=False)
    ratio = math.sqrt(10 * 160) / math.sqrt(100 * 400)
    assert (lo, hi) == pytest.approx((ratio / 1.2, ratio * 1.2 / (1 - 0.3)))
    # a share past the cap counts as the cap (a 10-fold slowdown at most); values below 1 op/s are values too
    lo, hi = noise.bound({1: 0.5}, {1: 0.25}, {1: 0.0}, {1: 0.99}, 0.2, True, paired=True)
    assert (lo, hi) == pytest.approx((0.5 / 1.2, 0.5 * 1.2 / (1 - 0.9)))


def test_what_an_undecided_cell_could_detect_is_said_as_a_factor_past_100_pct_and_capped_past_1000():
    from ycsbctl.results.verdict_words import detectable_words, digits_for

    assert detectable_words(100.0) == "could detect ±100 %"
    assert detectable_words(100.5) == "could detect only beyond 2.0× either way"  # past 100 %: the factor
    assert detectable_words(150.0) == "could detect only beyond 2.5× either way"
    assert detectable_words(1_900.0) == "could detect only beyond 20× either way"
    assert detectable_words(99_900.0) == "could detect only beyond 1,000× either way"  # 1,000× exactly: said as is
    assert detectable_words(1e9) == "could detect only beyond 1,000× either way"  # past it: nothing more to say
    # the digits grow until the interval reads as its verdict, at most four
    assert digits_for(0.999, 0.99996, "worse") == 4 and digits_for(0.94, 0.996, "worse") == 3


def test_an_equivalent_intervals_digits_read_it_inside_its_margin_and_one_no_digits_can_show_inside_gets_four():
    """``digits_for`` of an ``equivalent`` cell (margin ±10 %: 1/1.1 = 0.9091 .. 1.1): an interval inside reads so
    at 2 decimals ([0.91, 1.10]: 0.91 is 1/1.1 printed so, 1.10 is 1.1). One whose bound lies past the margin (a
    row whose interval and margin disagree) reads inside at no digits (1.2 > 1.1; 0.88, 0.880, 0.8800 < 0.91,
    0.909, 0.9091): it gets the most, MAX_DIGITS = 4, as any interval that reads as its verdict at none does."""
    from ycsbctl.results.verdict_words import MAX_DIGITS, digits_for

    assert digits_for(0.9095, 1.0996, "equivalent", 0.10) == 2
    assert MAX_DIGITS == 4
    assert digits_for(0.95, 1.2, "equivalent", 0.10) == 4  # the high bound past 1 + margin
    assert digits_for(0.88, 1.05, "equivalent", 0.10) == 4  # the low bound below 1 / (1 + margin)


def test_the_boundaries_of_the_grid_agree_with_those_of_a_grid_twice_as_fine(monkeypatch):
    """spending.GRID's comment: the boundaries agree with a finer grid's. Against 2 × GRID − 1 points (odd too, as
    Simpson's rule needs) they agree to 1e-8 (1e-11 here); an even grid, Simpson's weights misplaced at its end,
    moved them by ~4e-4."""
    fractions = (0.25, 0.5, 0.75, 1.0)
    boundaries = getattr(spending.boundaries, "__wrapped__", spending.boundaries)  # past its cache
    ours = boundaries(0.05, fractions)
    monkeypatch.setattr(spending, "GRID", 2 * spending.GRID - 1)
    assert boundaries(0.05, fractions) == pytest.approx(ours, abs=1e-8)
