"""A cell over its rounds: whether it drifted from the first round to the last (a trend test on the log
values, ``scipy.stats.linregress``), and how many rounds a t test would need to detect a given relative
difference (:data:`~ycsbctl.results.stats.POWER` at :data:`~ycsbctl.results.stats.ALPHA`). What a cell's
rounds say beyond its interval; the intervals and verdicts are :mod:`ycsbctl.results.stats`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ycsbctl.results.stats import ALPHA, POWER, _positive, _sps, t_quantile


def repetitions_needed(sd_log: float, difference: float = 0.05, paired: bool = True, cap: int = 1000) -> int | None:
    """Repetitions for a two-sided t test at :data:`ALPHA` to detect a relative ``difference`` with
    :data:`POWER`, given the sd of a log difference (paired) or of the log values of one side (two
    samples of equal size); None when the sd is unknown, ``cap`` when even that many would not do."""
    if math.isnan(sd_log) or sd_log < 0:
        return None
    effect = math.log1p(difference)
    scale = sd_log if paired else sd_log * math.sqrt(2)
    for n in range(2, cap + 1):
        t = t_quantile(1 - ALPHA / 2, n - 1) + t_quantile(POWER, n - 1)
        if t * scale / math.sqrt(n) <= effect:
            return n
    return cap


@dataclass(frozen=True)
class Drift:
    """A monotone trend of a cell over its rounds: the fitted relative change first→last round, its p."""

    change: float
    p_value: float

    @property
    def drifting(self) -> bool:
        return self.p_value < ALPHA


MIN_DRIFT_ROUNDS = 4


def drift(by_round: Mapping[int, float]) -> Drift | None:
    """Linear trend of the log values over the rounds (``scipy.stats.linregress``); None with fewer than
    :data:`MIN_DRIFT_ROUNDS` rounds or no spread."""
    rounds = sorted(r for r in by_round if _positive([by_round[r]]).size)
    if len(rounds) < MIN_DRIFT_ROUNDS:
        return None
    x = np.asarray(rounds, dtype=float)
    y = np.log([float(by_round[r]) for r in rounds])
    if np.ptp(y) == 0:
        return None
    fit = _sps().linregress(x, y)
    return Drift(float(math.expm1(fit.slope * (x[-1] - x[0]))), float(fit.pvalue))


def drift_text(metric: str, d: Drift | None) -> str | None:
    """``throughput fell 6 % from the first round to the last`` for a drifting cell, else None."""
    if d is None or not d.drifting:
        return None
    size = abs(d.change)  # a significant drift under 0.5 % keeps its digits rather than reading "rose 0%"
    digits = 0 if size >= 0.005 else 1 if size >= 0.0005 else 2
    return f"{metric} {'rose' if d.change > 0 else 'fell'} {size:.{digits}%} from the first round to the last"
