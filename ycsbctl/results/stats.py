"""How sure is a figure: intervals, verdicts and drift from repetitions (scipy underneath).

Every quantity here is positive and multiplicative (ops/s, µs), so it is analysed on the log
scale: a cell's centre is the geometric mean of its repetitions, its 95 % interval a Student t
interval of the mean log, and a comparison is a ratio (other ÷ baseline) with the t interval of the
mean log ratio. Two samples measured in the same rounds are paired by round (``scipy.stats.ttest_1samp``
on the per-round log ratios: what drifts between rounds cancels); otherwise Welch's t test
(``scipy.stats.ttest_ind(equal_var=False)``). The p values of one comparison's cells are adjusted
together by Benjamini–Hochberg (``scipy.stats.false_discovery_control``) and the intervals restated at
the family's level; then every cell gets one of four verdicts from its interval (:func:`classify`):
``better`` or ``worse`` (the interval leaves 1 out), ``equivalent`` (the interval of the two one-sided tests of
equivalence — 1 − 2α, a claim of each cell on its own — lies inside ±margin) or ``undecided`` (too wide for either;
beside it the smallest difference the test would have detected with 80 % power).

A cell's interval may also be bounded by the host's own noise (:func:`noise_bounded`): what two runs of
one server on this host can differ by (the calibration record, or a stated default), widened by the
share of the host's CPU other programs took during each run. A gap far beyond it is decided from one
round. With ``--repeat auto`` the rounds are looked at as they come: when, and the part of ``alpha`` each
look spends, is :mod:`ycsbctl.results.looks`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

# scipy.stats takes ~1.5 s to import (3× pandas): it is imported where a test is made, not for an interval,
# whose t quantile comes from scipy.special (what scipy.stats.t.ppf itself calls), so that a run with one
# target and one repetition does not pay for it.


def _sps():
    from scipy import stats

    return stats


def t_quantile(q: float, df: float) -> float:
    """Student's t quantile (``scipy.stats.t.ppf``), from ``scipy.special.stdtrit``."""
    from scipy.special import stdtrit

    return float(stdtrit(df, q))

CONFIDENCE = 0.95
ALPHA = 0.05
POWER = 0.80  # the power at which the smallest detectable difference is stated
UNSTABLE_CV = 0.10  # coefficient of variation above which a cell is labelled unstable (Redis's benchmark spec)
BATCHES = 5  # one repetition: the per-second series is cut into this many batches

BETTER, WORSE, EQUIVALENT, UNDECIDED = "better", "worse", "equivalent", "undecided"
VERDICTS = (BETTER, WORSE, EQUIVALENT, UNDECIDED)
# The equivalence margin (a fraction: 0.10 = ±10 %) when the plan names none: a ratio whose interval lies
# within 1/1.1 .. 1.1 is "equivalent". The same as the default host drift between experiments
# (ycsbctl.results.host_drift.DEFAULT_MARGIN): a difference no larger cannot be told from the host anyway.
EQUIVALENCE_MARGIN = 0.10


def classify(low: float, high: float, higher_is_better: bool, margin: float, beyond: float = 0.0) -> str:
    """The verdict of an interval ``low``..``high`` of a ratio (other ÷ baseline): ``equivalent`` when it
    lies inside ±``margin`` (1/(1+margin) .. 1+margin), else ``better``/``worse`` when it lies wholly beyond
    ±``beyond`` (0: it leaves 1 out) on one side, else ``undecided``; ``undecided`` without an interval."""
    if not (low > 0 and high > 0) or math.isnan(low) or math.isnan(high):
        return UNDECIDED
    if margin > 0 and low >= 1 / (1 + margin) and high <= 1 + margin:
        return EQUIVALENT
    edge = 1 + max(beyond, 0.0)
    if low > edge or high < 1 / edge:
        return BETTER if (low > edge) == higher_is_better else WORSE
    return UNDECIDED


@dataclass(frozen=True)
class Interval:
    """Centre (geometric mean) and ``CONFIDENCE`` interval of a positive quantity over ``n`` values.

    ``within_run`` marks an interval made of one run's per-second batches: it cannot see the noise
    between runs. ``cv`` is the coefficient of variation of the values (NaN with one value)."""

    n: int
    centre: float
    low: float
    high: float
    cv: float
    within_run: bool = False

    @property
    def unstable(self) -> bool:
        return not math.isnan(self.cv) and self.cv > UNSTABLE_CV

    @property
    def half_width(self) -> float:
        """Relative half width of the interval on the log scale (0.03: ±3 %); NaN without one."""
        if not (self.low > 0 and self.high > 0):
            return math.nan
        return math.sqrt(self.high / self.low) - 1


def _positive(values: Sequence[float]) -> np.ndarray:
    a = np.asarray([float(v) for v in values], dtype=float)
    return a[np.isfinite(a) & (a > 0)]


def interval(values: Sequence[float], within_run: bool = False) -> Interval:
    """The t interval of the mean log of ``values`` (non-positive and NaN values left out)."""
    a = _positive(values)
    n = len(a)
    if n == 0:
        return Interval(0, math.nan, math.nan, math.nan, math.nan, within_run)
    logs = np.log(a)
    centre = float(np.exp(logs.mean()))
    if n == 1:
        return Interval(1, centre, math.nan, math.nan, math.nan, within_run)
    cv = float(a.std(ddof=1) / a.mean())
    se = float(logs.std(ddof=1) / math.sqrt(n))
    if se == 0:
        return Interval(n, centre, centre, centre, cv, within_run)
    half = t_quantile(0.5 + CONFIDENCE / 2, n - 1) * se
    return Interval(n, centre, float(np.exp(logs.mean() - half)), float(np.exp(logs.mean() + half)), cv, within_run)


def batch_interval(series: Sequence[float], batches: int = BATCHES) -> Interval:
    """One run's interval from the means of ``batches`` consecutive slices of its per-second series
    (batch means); ``within_run`` — it says nothing of the noise between runs."""
    a = _positive(series)
    k = min(batches, len(a))
    if k < 2:
        return Interval(min(len(a), 1), float(a.mean()) if len(a) else math.nan, math.nan, math.nan, math.nan, True)
    means = [float(part.mean()) for part in np.array_split(a, k)]
    return interval(means, within_run=True)


@dataclass(frozen=True)
class Comparison:
    """``other`` against ``base``: ratio of geometric means with its interval, the test and its verdict.

    ``p_adjusted`` is set by :func:`decide` over all the cells of one comparison; ``detectable`` is the
    smallest relative difference (0.05 = 5 %) the test had an 80 % chance to call."""

    ratio: float
    low: float
    high: float
    p_value: float
    test: str
    n: int  # pairs (paired) or the smaller side (Welch)
    detectable: float
    # sd of a log difference (paired) or pooled sd of log values (Welch): for over_rounds.repetitions_needed
    sd_log: float
    p_adjusted: float = math.nan
    verdict: str = UNDECIDED
    se_log: float = math.nan  # standard error of the mean log ratio, and its degrees of freedom
    df: float = math.nan
    level: float = CONFIDENCE  # the confidence level of ``low``..``high`` (:func:`decide` sets the family's)
    margin: float = 0.0  # a minimum-effect test's margin (0.10: the ratio must lie beyond ±10 %, :func:`beyond_margin`)
    equivalence: float = EQUIVALENCE_MARGIN  # the equivalence margin (0.10: inside 1/1.1 .. 1.1 is "equivalent")
    noise_low: float = math.nan  # the host's noise bound on the ratio (:func:`noise_bounded`), NaN: none
    noise_high: float = math.nan
    decided_by: str = ""  # what decided the verdict: the test, the noise bound, or both


def _detectable(se: float, df: float, alpha: float = ALPHA, margin: float = 0.0) -> float:
    """The relative difference a two-sided t test at ``alpha`` would call with :data:`POWER` (beyond
    ``margin``, for a minimum-effect test: :func:`beyond_margin`)."""
    if not min(se, df) > 0:  # no spread or no degree of freedom (a NaN either way: t has no quantile at df <= 0)
        return math.nan
    t = t_quantile(1 - alpha / 2, df) + t_quantile(POWER, df)
    # capped where it would overflow (two rounds among many cells: t of df 1 in the hundreds): "huge" either way
    return float(math.expm1(min(math.log1p(margin) + t * se, 700.0)))


detectable = _detectable  # the public name, for another test's comparison (ycsbctl.results.slice_pairs)


def beyond_margin(c: Comparison, margin: float) -> Comparison:
    """``c`` as a minimum-effect test: is the ratio beyond ``margin`` either way (0.10: below 1/1.1 or
    above 1.1)? The null is abs(log ratio) ≤ log(1 + ``margin``); its p value is twice the t tail beyond
    the margin (``scipy.stats.t.sf``), so that, like the plain test's, it is below a level exactly when
    the two-sided interval at 1 − that level lies wholly beyond the margin. A comparison without a test
    keeps its p (NaN); one without spread is 0 beyond the margin, else 1."""
    if margin <= 0 or math.isnan(c.p_value) or not c.ratio > 0:
        return replace(c, equivalence=max(margin, 0.0))  # no drift: no margin to be equivalent within
    excess = abs(math.log(c.ratio)) - math.log1p(margin)
    if not (c.se_log > 0 and c.df > 0):
        p = 0.0 if excess > 0 else 1.0
    else:
        p = min(1.0, 2 * float(_sps().t.sf(excess / c.se_log, c.df)))
    return replace(c, p_value=p, margin=margin, equivalence=margin,
                   detectable=_detectable(c.se_log, c.df, ALPHA, margin)
                   if c.se_log == c.se_log else c.detectable)


# A paired comparison is adjusted for a covariate (the host's share each side had: ycsbctl.results.noise.covariate)
# from this many rounds on, where the covariate itself varies by at least ADJUST_MIN_SD (its own spread, never the
# outcome's, decides: a rule that looks at the outcome to choose would bias the test).
ADJUST_MIN_ROUNDS = 5
ADJUST_MIN_SD = 0.02
ADJUSTED = "paired t (log ratio per round), adjusted for the host's share each side had (ANCOVA)"


def compare(base: Sequence[float] | Mapping[int, float], other: Sequence[float] | Mapping[int, float],
            paired: bool = False, covariate: Mapping[int, float] | None = None) -> Comparison:
    """Compare two samples of a positive quantity. With ``paired`` both are mappings round -> value and
    only rounds present in both count (a paired t test of the log ratios); else Welch's t test on logs.
    ``covariate`` (paired only; round -> a value known for every paired round) adjusts the paired test where
    it applies (:func:`adjusted`)."""
    if paired:
        if not isinstance(base, Mapping) or not isinstance(other, Mapping):
            raise TypeError("a paired comparison takes round -> value mappings")
        c = adjusted(base, other, covariate) if covariate is not None else None
        if c is not None:
            return c
        _, d = _log_ratios(base, other)
        n = len(d)
        if n < 2:
            return _undecided(float(np.exp(d.mean())) if n else math.nan, "paired t (log ratio per round)", n)
        sd = float(d.std(ddof=1))
        if np.ptp(d) == 0:  # identical log ratios (their sd may be 1e-16 rather than 0: the mean's rounding)
            return _exact(float(np.exp(d.mean())), "paired t (log ratio per round)", n)
        res = _sps().ttest_1samp(d, 0.0)
        ci = res.confidence_interval(CONFIDENCE)
        return Comparison(float(np.exp(d.mean())), float(np.exp(ci.low)), float(np.exp(ci.high)), float(res.pvalue),
                          "paired t (log ratio per round)", n, _detectable(sd / math.sqrt(n), n - 1), sd,
                          se_log=sd / math.sqrt(n), df=n - 1)
    a = np.log(_positive(list(base.values()) if isinstance(base, Mapping) else base))
    b = np.log(_positive(list(other.values()) if isinstance(other, Mapping) else other))
    ratio = float(np.exp(b.mean() - a.mean())) if len(a) and len(b) else math.nan
    if len(a) < 2 or len(b) < 2:
        return _undecided(ratio, "Welch t (log values)", min(len(a), len(b)))
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    se = math.sqrt(va + vb)
    if np.ptp(a) == 0 and np.ptp(b) == 0:
        return _exact(ratio, "Welch t (log values)", min(len(a), len(b)))
    res = _sps().ttest_ind(b, a, equal_var=False)
    ci = res.confidence_interval(CONFIDENCE)
    df = float(res.df)
    pooled = math.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 2)
    return Comparison(ratio, float(np.exp(ci.low)), float(np.exp(ci.high)), float(res.pvalue), "Welch t (log values)",
                      min(len(a), len(b)), _detectable(se, df), pooled, se_log=se, df=df)


def _log_ratios(base: Mapping[int, float], other: Mapping[int, float]) -> tuple[list[int], np.ndarray]:
    """(the rounds both sides measured with positive values, log(other ÷ base) in each of them)."""
    rounds = sorted(r for r in base if r in other and _positive([base[r], other[r]]).size == 2)
    return rounds, np.log([float(other[r]) for r in rounds]) - np.log([float(base[r]) for r in rounds])


def adjusted(base: Mapping[int, float], other: Mapping[int, float], covariate: Mapping[int,
                                                                                       float]) -> Comparison | None:
    """The paired comparison of ``base`` and ``other`` adjusted for ``covariate`` (analysis of covariance): the log
    ratio of each round regressed on the round's covariate (``scipy.stats.linregress``), the ratio being the fit
    at a covariate of 0 — both sides with an equal share of the host — with the intercept's t interval and test
    (n − 2 degrees of freedom). What the host took from one side and not the other in a round is then no longer
    noise around the ratio. None (the plain paired test applies) with fewer than :data:`ADJUST_MIN_ROUNDS` paired
    rounds, a round without a covariate, or a covariate that varies by less than :data:`ADJUST_MIN_SD`."""
    rounds, d = _log_ratios(base, other)
    if len(rounds) < ADJUST_MIN_ROUNDS or any(r not in covariate or not math.isfinite(covariate[r]) for r in rounds):
        return None
    x = np.asarray([float(covariate[r]) for r in rounds])
    if float(x.std(ddof=1)) < ADJUST_MIN_SD:
        return None
    n = len(d)
    fit = _sps().linregress(x, d)
    centre, se, df = float(fit.intercept), float(fit.intercept_stderr), n - 2
    if not se > 0:
        return _exact(float(np.exp(centre)), ADJUSTED, n)
    half = t_quantile(0.5 + CONFIDENCE / 2, df) * se
    p = min(1.0, 2 * float(_sps().t.sf(abs(centre) / se, df)))
    # for over_rounds.repetitions_needed
    residual_sd = float(np.sqrt(np.sum((d - fit.intercept - fit.slope * x) ** 2) / df))
    return Comparison(float(np.exp(centre)), float(np.exp(centre - half)), float(np.exp(centre + half)), p, ADJUSTED, n,
                      _detectable(se, df), residual_sd, se_log=se, df=df)


def with_added_error(c: Comparison, se: float, df: float) -> Comparison:
    """``c`` with an independent error of standard error ``se`` (on the log scale, ``df`` degrees of freedom)
    added to its log ratio — a correction's own uncertainty, such as the yardstick's host factor divided out
    of one side: the standard errors add in quadrature, the degrees of freedom by Welch–Satterthwaite, and
    the interval, the p value and the detectable difference follow. ``c`` as it is where ``se`` is not a
    positive number or ``c`` has no test."""
    if not se > 0 or not df > 0 or not (c.se_log > 0 and c.df > 0) or not c.ratio > 0:
        return c
    total = math.hypot(c.se_log, se)
    dof = total ** 4 / (c.se_log ** 4 / c.df + se ** 4 / df)
    half = t_quantile(1 - (1 - c.level) / 2, dof) * total
    centre = math.log(c.ratio)
    p = min(1.0, 2 * float(_sps().t.sf(abs(centre) / total, dof)))
    return replace(c, low=math.exp(centre - half), high=math.exp(centre + half), p_value=p, se_log=total, df=dof,
                   detectable=_detectable(total, dof))


def _undecided(ratio: float, test: str, n: int) -> Comparison:
    return Comparison(ratio, math.nan, math.nan, math.nan, test, n, math.nan, math.nan)


def _exact(ratio: float, test: str, n: int) -> Comparison:
    """Samples without any spread (identical values): the ratio is what it is, with no noise to test."""
    return Comparison(ratio, ratio, ratio, 1.0 if ratio == 1 else 0.0, test, n, 0.0, 0.0)


def decide(comparisons: Sequence[Comparison], higher_is_better: Sequence[bool], alpha: float = ALPHA,
           equivalence_alpha: float | None = None) -> list[Comparison]:
    """Adjust the p values of one comparison's cells together (Benjamini–Hochberg), restate the tested
    cells' intervals at the family's level (:func:`family_level`), narrow each by its noise bound where it
    has one (:func:`noise_bounded`) and give it its verdict (:func:`classify`): ``equivalent`` when its interval
    at ``1 − equivalence_alpha`` (the two one-sided tests, each at half of it: None is ``2 × alpha``, the 90 %
    interval of TOST at α = 0.05) lies inside ±its ``equivalence`` margin, else better, worse or undecided from
    the family's interval. Equivalence is a claim of each cell on its own (the intersection–union test: it
    errs only in a cell whose true difference lies beyond the margin, and there at most at its level), a
    difference a claim of the family. A cell without a test (one round) is decided by its noise bound alone, or
    undecided. The detectable difference is restated for the level a cell must reach when the others are all
    null (``alpha`` over the cells tested: BH's first step), so that no cell reads "±1 % detectable" beside a 2 %
    difference it did not call."""
    equivalence_level = 1 - (2 * alpha if equivalence_alpha is None else equivalence_alpha)
    same = [at_level(c, equivalence_level) for c in comparisons]  # the two one-sided tests' intervals
    tested = [i for i, c in enumerate(comparisons) if not math.isnan(c.p_value)]
    adjusted = _sps().false_discovery_control([comparisons[i].p_value for i in tested]) if tested else []
    out = list(comparisons)
    for i, p in zip(tested, adjusted):
        c = comparisons[i]
        out[i] = replace(c, p_adjusted=float(p),
                         detectable=_detectable(c.se_log, c.df, alpha / len(tested), c.margin)
                         if c.se_log == c.se_log else c.detectable)
    if tested:
        called = sum(out[i].p_adjusted < alpha and out[i].ratio != 1 for i in tested)
        level = family_level(alpha, len(tested), called)
        for i in tested:
            out[i] = at_level(out[i], level)
    return [_verdict_of(c, hib, c.p_adjusted < alpha, e) for c, hib, e in zip(out, higher_is_better, same)]


def _narrowed(c: Comparison, low: float, high: float) -> tuple[float, float, str]:
    """``low``..``high`` narrowed by ``c``'s noise bound where it has one (or the bound alone, where there is no
    interval), and what decided it."""
    by = c.decided_by or c.test
    if c.noise_low > 0 and c.noise_high > 0:
        if not (low > 0 and high > 0):
            return c.noise_low, c.noise_high, NOISE_ONLY
        if max(low, c.noise_low) <= min(high, c.noise_high):
            narrowed = (max(low, c.noise_low), min(high, c.noise_high))
            if narrowed != (low, high):
                by = f"{c.test}, within the host's noise bound"
            return *narrowed, by
        return low, high, f"{c.test} (the rounds differ by more than the host's noise bound)"
    return low, high, by


def _verdict_of(c: Comparison, higher_is_better: bool, called: bool = False,
                same: Comparison | None = None) -> Comparison:
    """``c`` with its interval narrowed by its noise bound (where it has one) and its verdict: ``equivalent`` with
    the two one-sided tests' interval ``same`` (``c`` restated at their level) where that lies inside the margin;
    a cell with a test but no interval (a p value alone) is ``better``/``worse`` when the family ``called`` it."""
    if not (c.low > 0 and c.high > 0) and not (c.noise_low > 0 and c.noise_high > 0):
        verdict = UNDECIDED
        if called and c.ratio > 0 and c.ratio != 1:
            verdict = BETTER if (c.ratio > 1) == higher_is_better else WORSE
        return replace(c, verdict=verdict, decided_by=c.decided_by or c.test)
    if same is not None and same.low > 0 and same.high > 0:
        low, high, by = _narrowed(c, same.low, same.high)
        if classify(low, high, higher_is_better, c.equivalence, c.margin) == EQUIVALENT:
            return replace(c, low=low, high=high, level=same.level, verdict=EQUIVALENT, decided_by=by)
    low, high, by = _narrowed(c, c.low, c.high)
    verdict = classify(low, high, higher_is_better, c.equivalence, c.margin)
    return replace(c, low=low, high=high, verdict=verdict, decided_by=by)


NOISE_ONLY = "one round against the host's noise bound"


def noise_bounded(c: Comparison, low: float, high: float) -> Comparison:
    """``c`` with a noise bound: ``low``..``high`` is the range of the ratio that the host's own noise
    (between runs of one server, and what other programs took) cannot carry the measured ratio beyond."""
    return replace(c, noise_low=low, noise_high=high)


def family_level(alpha: float, tested: int, called: int) -> float:
    """The confidence level of a family's intervals that agrees with its Benjamini–Hochberg verdicts:
    ``1 - max(called, 1) · alpha / tested`` (Benjamini & Yekutieli 2005, false-coverage-statement
    intervals). BH calls exactly the cells whose p value is below ``called · alpha / tested``, so at
    this level an interval leaves out 1.0 exactly when its cell was called ``better`` or ``worse``:
    no ``no difference`` beside an interval that excludes 1, which a 95 % interval does by chance in
    one cell of twenty."""
    return 1 - max(called, 1) * alpha / tested


def at_level(c: Comparison, level: float) -> Comparison:
    """``c`` with its t interval of the mean log ratio restated at ``level`` (same standard error and
    degrees of freedom); an exact comparison (no spread) or one without a test keeps its interval."""
    if not (c.se_log > 0 and c.df > 0 and c.ratio > 0):
        return c
    t = t_quantile(1 - (1 - level) / 2, c.df)
    centre = math.log(c.ratio)
    # bounds past e^±700 (two rounds among many cells) are capped there: past any figure printed anyway
    return replace(c, low=math.exp(max(centre - t * c.se_log, -700.0)),
                   high=math.exp(min(centre + t * c.se_log, 700.0)),
                   level=level)
