"""The host's own noise as a bound on a ratio: what a gap between two targets must exceed before one
round can decide it.

Two runs of one server on one host differ by the host's noise between runs: the calibration record says
how far (:mod:`ycsbctl.results.host_drift`: the drift that A/A pairs of experiments stayed within, per
metric); without one, :data:`ONE_RUN_NOISE`. A run's figure is bounded by a factor ``1 + noise`` either
way, taken twice over the record's margin (that margin is the 95th percentile of A/A drifts, so 5 % of
cells pass it: the bound must not). Other programs' CPU during a run can only make its figure worse —
lower throughput, higher latency and CPU per operation — by at most the share of the host they took
(``host_other_share``, a fraction of the host's cores; capped at :data:`BUSY_CAP`): a run where others
took half the host may have run at half speed, never faster. So the true log ratio of other ÷ baseline
lies within

    [d + log(1 - s_base) - L, d - log(1 - s_other) + L]  (higher is better: throughput)
    [d + log(1 - s_other) - L, d - log(1 - s_base) + L]  (lower is better: latency, CPU per operation)

where ``d`` is the measured log ratio and ``L = log(1 + noise)``; over several rounds, the mean of each
round's bounds (each holds, so their mean does). A point whose host share is unknown (no telemetry) gives
no bound. :func:`ycsbctl.results.stats.decide` intersects the bound with the test's interval.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from ycsbctl.results import host_drift

THROUGHPUT = "throughput"
# Between two runs of one server on a quiet host, when no calibration record says otherwise (fractions):
# throughput twice the default host drift between experiments (ycsbctl.results.host_drift.DEFAULT_MARGIN);
# a latency percentile or a CPU figure three-fold either way (tails move much more than rates).
ONE_RUN_NOISE = {THROUGHPUT: 2 * host_drift.DEFAULT_MARGIN}
OTHER_NOISE = 2.0
RECORD_FACTOR = 2.0  # the record's margin (a 95th percentile of A/A drifts) counts twice in the bound
BUSY_CAP = 0.9  # a share of the host other programs took is counted up to this (a 10-fold slowdown)
SHARE_COLUMN = "host_other_share"


@dataclass(frozen=True)
class NoiseModel:
    """Per metric, how far (a fraction either way) one run's figure may stray on this host; and from where."""

    by_metric: Mapping[str, float]
    source: str

    def of(self, metric: str) -> float:
        """The noise of ``metric`` (``throughput``, ``p99``, ``client CPU/op`` …)."""
        return float(self.by_metric.get(metric, ONE_RUN_NOISE.get(metric, OTHER_NOISE)))


def noise_model(margins: host_drift.Margins | None = None) -> NoiseModel:
    """The noise of each metric: :data:`RECORD_FACTOR` × the calibration record's margin where the record
    has the metric and that is wider than the default, else the default (:data:`ONE_RUN_NOISE`)."""
    margins = margins if margins is not None else host_drift.read()
    by = {m: max(RECORD_FACTOR * v, ONE_RUN_NOISE.get(m, OTHER_NOISE)) for m, v in margins.by_metric.items()}
    tp = by.get(THROUGHPUT, ONE_RUN_NOISE[THROUGHPUT])
    recorded = "the calibration record" if margins.by_metric else "the default"
    return NoiseModel(by, f"±{100 * tp:.0f} % throughput between runs ({recorded}), widened by other programs' CPU")


def shares_by_round(g: pd.DataFrame) -> dict[int, float]:
    """round (repetition) -> the share of the host's cores other programs took during that point (NaN where
    unknown) of one cell's rows."""
    if SHARE_COLUMN not in g:
        return {int(r): math.nan for r in g["repetition"]}
    vals = pd.to_numeric(g[SHARE_COLUMN], errors="coerce")
    return {int(r): float(v) for r, v in zip(g["repetition"], vals)}


def covariate(base_share: Mapping[int, float], other_share: Mapping[int, float]) -> dict[int, float]:
    """round -> log((1 − other's share) ÷ (1 − baseline's share)) of the host (each capped at :data:`BUSY_CAP`): how
    much more of the host the other target's point had than the baseline's in that round, on the log scale a
    ratio is tested on (:func:`ycsbctl.results.stats.compare` adjusts for it); rounds where a share is unknown are
    left out."""
    return {r: _slow(other_share[r]) - _slow(base_share[r]) for r in base_share
            if r in other_share and not (math.isnan(base_share[r]) or math.isnan(other_share[r]))}


def _slow(share: float) -> float:
    """log(1 - share), the share capped at :data:`BUSY_CAP` (≤ 0)."""
    return math.log1p(-min(max(share, 0.0), BUSY_CAP))


def bound(base: Mapping[int, float], other: Mapping[int, float], base_share: Mapping[int, float],
          other_share: Mapping[int, float], noise: float, higher_is_better: bool,
          paired: bool) -> tuple[float, float] | None:
    """The range of the ratio other ÷ baseline that the host's noise cannot carry the measured one beyond
    (see the module's text), or None: a value or a host share is missing, or nothing was measured."""
    slack = math.log1p(noise)
    if paired:
        rounds = [r for r in base if r in other and base[r] > 0 and other[r] > 0]
        pairs = [(math.log(other[r] / base[r]), base_share.get(r, math.nan), other_share.get(r, math.nan))
                 for r in rounds]
    else:
        b = [v for v in base.values() if v > 0]
        o = [v for v in other.values() if v > 0]
        if not b or not o:
            return None
        d = sum(map(math.log, o)) / len(o) - sum(map(math.log, b)) / len(b)
        sb = sum(base_share.get(r, math.nan) for r in base) / max(len(base), 1)
        so = sum(other_share.get(r, math.nan) for r in other) / max(len(other), 1)
        pairs = [(d, sb, so)]
    if not pairs or any(math.isnan(sb) or math.isnan(so) for _, sb, so in pairs):
        return None
    lows, highs = [], []
    for d, sb, so in pairs:
        if higher_is_better:
            lows.append(d + _slow(sb) - slack)
            highs.append(d - _slow(so) + slack)
        else:
            lows.append(d + _slow(so) - slack)
            highs.append(d - _slow(sb) + slack)
    low, high = sum(lows) / len(lows), sum(highs) / len(highs)
    return math.exp(max(low, -700.0)), math.exp(min(high, 700.0))
