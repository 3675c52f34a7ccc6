"""How a thread ladder scales: the Universal Scalability Law fitted to each target's throughput over
client threads (``scipy.optimize.curve_fit``), its contention σ and coherency κ, the peak it predicts,
and whether it fits at all.

Gunther's law for ``N`` concurrent clients::

    X(N) = λ·N / (1 + σ·(N − 1) + κ·N·(N − 1))

λ is the throughput of one client (ops/s), σ the share of the work that serialises (queueing on a
shared resource), κ the cost of keeping clients coherent (crosstalk, which makes throughput *fall*
past the peak ``N* = √((1 − σ)/κ)``). It is fitted to the ladder as measured — client and server
together: where the client is the limit, the law describes the client. Three parameters need more
than three thread counts; a fit is only reported as one when it explains the points (R² and the
largest relative residual) and when, fitted without the top thread count, it predicts that count's
throughput within :data:`HOLDOUT_TOLERANCE` — the check a user would do by hand before trusting an
extrapolation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

MIN_POINTS = 4  # three parameters: at least one thread count more, so that the fit can miss
MIN_R2 = 0.9
MAX_RESIDUAL = 0.15  # the largest |measured − fitted| / measured of a point a fit may leave
HOLDOUT_TOLERANCE = 0.15  # the top point predicted from the others within this relative error
SIGMA_BOUND = 0.9995  # σ fitted at (or within rounding of) its upper bound 1: the law's most serial case
PEAK_REACH = 4.0  # a predicted peak past this many times the top thread count is not stated (an extrapolation)

FITS, TOO_FEW, NO_FIT = "fits", "too few points", "does not fit"


def usl(n: np.ndarray | float, lam: float, sigma: float, kappa: float) -> np.ndarray | float:
    """Throughput (ops/s) at ``n`` clients under the Universal Scalability Law."""
    return lam * n / (1 + sigma * (n - 1) + kappa * n * (n - 1))


@dataclass(frozen=True)
class UslFit:
    """The law fitted to one ladder: λ (ops/s of one client), σ, κ; the peak it predicts (threads and
    ops/s; None when κ is 0 — the curve levels off at λ/σ instead of falling — or when the peak lies
    past :data:`PEAK_REACH` times the top thread count measured); R², the largest relative
    residual; the relative error of the top point predicted from the others (NaN when there are too few
    for that check) and the verdict: :data:`FITS`, :data:`TOO_FEW` or :data:`NO_FIT`. ``falls_from`` is the
    fewest threads measured when the law puts the peak below them (throughput falls from the first point
    on: the ladder holds no peak to predict, and none is stated), else None."""

    n: int
    lam: float
    sigma: float
    kappa: float
    r2: float
    max_residual: float
    holdout_error: float
    verdict: str
    peak_threads: float | None = None
    peak_ops: float | None = None
    falls_from: float | None = None

    @property
    def fits(self) -> bool:
        return self.verdict == FITS

    def text(self) -> str:
        """One sentence for people: what the law says, or why it says nothing."""
        if self.verdict == TOO_FEW:
            return f"scaling model: too few thread counts ({self.n}; the law needs {MIN_POINTS})"
        if self.verdict == NO_FIT:
            why = (f"R² {self.r2:.2f}, a point off by {100 * self.max_residual:.0f} %"
                   if not explains(self.r2, self.max_residual)
                   else f"fitted without its top thread count it misses that point by {100 * self.holdout_error:.0f} %")
            return f"scaling model: the Universal Scalability Law does not fit this ladder ({why})"
        if self.falls_from is not None:
            where = (f"throughput falls from the fewest threads measured ({self.falls_from:.0f}) on: the peak lies at "
                     f"or below {self.falls_from:.0f} threads, outside the ladder, so none is predicted")
        elif self.peak_threads is not None and self.peak_ops is not None:
            where = f"predicted peak {_fmt(self.peak_ops)} ops/s at {self.peak_threads:.0f} threads"
        else:
            reach = f"no peak within {PEAK_REACH:g}× the threads measured"
            where = f"{reach}: throughput levels off towards {_fmt(self.lam / self.sigma)} ops/s" if self.sigma > 1e-6 \
                else f"{reach}: throughput grows in proportion to the threads"
        check = (f"; fitted without its top thread count it predicts that point within {_pct(self.holdout_error)}"
                 if self.holdout_error == self.holdout_error else "")
        bound = " (at its bound, 1: the law's fully serial case)" if self.sigma >= SIGMA_BOUND else ""
        return (f"scaling model (Universal Scalability Law, R² {self.r2:.2f}): contention σ {self.sigma:.3f}{bound}, "
                f"coherency κ {self.kappa:.5f}; {where}{check}")


def _pct(e: float) -> str:
    """A relative error as a percentage a person reads: one decimal under 10 % (0.4 %, never "0 %")."""
    return f"{100 * e:.1f} %" if e < 0.1 else f"{100 * e:.0f} %"


def _fmt(v: float) -> str:
    return f"{v / 1000:.1f}k" if v >= 1000 else f"{v:.0f}"


def explains(r2: float, max_residual: float) -> bool:
    """The curve explains a ladder: an R² of :data:`MIN_R2` or more and no point further from it than
    :data:`MAX_RESIDUAL` (a fraction of the point's throughput); the hold-out is asked besides."""
    return r2 >= MIN_R2 and max_residual <= MAX_RESIDUAL


def _curve(threads: np.ndarray, tp: np.ndarray) -> tuple[float, float, float]:
    """(λ, σ, κ) by least squares on the relative residuals (each point weighs alike, whatever its size)."""
    import warnings

    from scipy.optimize import OptimizeWarning, curve_fit

    lam0 = float((tp / threads)[0])  # λ's starting guess: the first rung's throughput per thread
    with warnings.catch_warnings():  # a covariance it cannot estimate is not used here
        warnings.simplefilter("ignore", OptimizeWarning)
        popt, _ = curve_fit(usl, threads, tp, p0=(lam0, 0.05, 0.0005), sigma=tp,
                            bounds=([0.0, 0.0, 0.0], [np.inf, 1.0, 1.0]), maxfev=20_000)
    return float(popt[0]), float(popt[1]), float(popt[2])


def fit(threads: Sequence[float], throughput: Sequence[float]) -> UslFit:
    """Fit the law to one ladder (thread count → mean ops/s; NaN and non-positive points left out)."""
    pairs = sorted((float(n), float(x)) for n, x in zip(threads, throughput) if x == x and x > 0 and n >= 1)
    n = len(pairs)
    if n < MIN_POINTS:
        return UslFit(n, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, TOO_FEW)
    t = np.array([p[0] for p in pairs])
    x = np.array([p[1] for p in pairs])
    try:
        lam, sigma, kappa = _curve(t, x)
    except (RuntimeError, ValueError):
        return UslFit(n, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan, NO_FIT)
    fitted = np.asarray(usl(t, lam, sigma, kappa))
    ss_res = float(((x - fitted) ** 2).sum())
    ss_tot = float(((x - x.mean()) ** 2).sum())
    r2 = 1 - ss_res / ss_tot if ss_tot > 0 else 1.0
    worst = float((abs(x - fitted) / x).max())
    holdout = _holdout(t, x)
    ok = explains(r2, worst) and not (holdout > HOLDOUT_TOLERANCE)
    # σ ≤ 1 (the fit's bounds): at σ = 1 the peak is 0 threads, which the next lines take as a curve that only falls
    peak_n = math.sqrt((1 - sigma) / kappa) if kappa > 0 else None
    falls_from = None
    lowest = float(t[0])  # the ladder's fewest threads
    if peak_n is not None and peak_n < lowest:  # the curve only falls over the ladder
        peak_n, falls_from = None, lowest
    if peak_n is not None and peak_n > PEAK_REACH * float(t[-1]):
        peak_n = None
    peak_x = float(usl(peak_n, lam, sigma, kappa)) if peak_n is not None else None
    return UslFit(n, lam, sigma, kappa, r2, worst, holdout, FITS if ok else NO_FIT, peak_n, peak_x, falls_from)


def _holdout(t: np.ndarray, x: np.ndarray) -> float:
    """Relative error of the top point's throughput predicted by the law fitted to the others (NaN when
    the others are too few to fit)."""
    if len(t) - 1 < MIN_POINTS:
        return math.nan
    try:
        lam, sigma, kappa = _curve(t[:-1], x[:-1])
    except (RuntimeError, ValueError):
        return math.inf
    return float(abs(float(usl(t[-1], lam, sigma, kappa)) - x[-1]) / x[-1])


SCALING_COLUMNS = ["workload", "target", "n", "lam", "sigma", "kappa", "r2", "max_residual", "holdout_error",
                   "peak_threads", "peak_ops", "verdict", "text"]


def scaling_table(points: pd.DataFrame) -> pd.DataFrame:
    """One fit per workload × target over its unpaced ``ok`` points (:func:`ycsbctl.results.frames.points`:
    ``throughput_mean`` over ``threads``)."""
    rows = []
    if len(points):
        unpaced = points[points["target_rate"].isna()] if "target_rate" in points else points
        ok = unpaced[(unpaced["status"] == "ok") & unpaced["throughput_mean"].notna()]
        for (workload, target), g in ok.groupby(["workload", "target"], sort=False):
            f = fit(list(g["threads"]), list(g["throughput_mean"]))
            rows.append({"workload": workload, "target": target, "n": f.n, "lam": f.lam, "sigma": f.sigma,
                         "kappa": f.kappa, "r2": f.r2, "max_residual": f.max_residual, "holdout_error": f.holdout_error,
                         "peak_threads": f.peak_threads, "peak_ops": f.peak_ops, "verdict": f.verdict,
                         "text": f.text()})
    return pd.DataFrame(rows, columns=SCALING_COLUMNS)
