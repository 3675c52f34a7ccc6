"""Group-sequential boundaries: the nominal level each look of a sequential run tests at (Lan–DeMets alpha spending).

A run that looks at its rounds as they come and stops once its cells are decided must not test every look at
``alpha``: the chance that some look crosses by luck grows with the looks. A union bound (split ``alpha`` over the
looks, each tested at its part) keeps the error rate but wastes most of it, because the looks are not independent:
the mean log ratio after 8 rounds is mostly the one after 5. Lan and DeMets (1983) spend ``alpha`` by the
*information* each look has (here its rounds over the planned rounds, ``t``) with a spending function ``f(t)``, and
find each look's boundary ``c_k`` so that the chance of crossing first at look k, with the looks' true
correlation (a Brownian motion observed at ``t_1 < t_2 < …``), is exactly ``f(t_k) − f(t_{k−1})``.

The spending function is the O'Brien–Fleming-like one, ``f(t) = 2 − 2Φ(z_{1−α/2} / √t)``: early looks spend
almost nothing (they decide only gaps far beyond the noise), the last planned look tests at nearly ``alpha``.
The boundaries are found by numerical integration of the Brownian motion's density over the region where no
look has crossed (Armitage, McPherson & Rowe 1969; Jennison & Turnbull 2000, ch. 19), on a grid, with scipy's
normal distribution; the t test of a look is then made at the boundary's two-sided nominal level (its p value
against ``2Φ(−c_k)``), the usual approximation for a look with few degrees of freedom.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

GRID = 801  # points of the density grid per look (odd: Simpson's rule); the boundaries agree with a finer one to ~1e-5


def _ndtr(x: Any) -> Any:
    from scipy.special import ndtr

    return ndtr(x)


def obf_spent(alpha: float, t: float) -> float:
    """The part of ``alpha`` spent by information fraction ``t`` (0..1): ``2 − 2Φ(z_{1−α/2} / √t)``, 0 at
    ``t`` = 0, ``alpha`` from ``t`` = 1 on (computed as ``2Φ(−z/√t)``, which keeps its precision far out)."""
    from scipy.special import ndtri

    if t <= 0:
        return 0.0
    if t >= 1:
        return alpha
    return float(2 * _ndtr(-ndtri(1 - alpha / 2) / math.sqrt(t)))


def _simpson(n: int) -> np.ndarray:
    w = np.ones(n)
    w[1:-1:2], w[2:-1:2] = 4.0, 2.0
    return w / 3.0


def _phi(x: np.ndarray) -> np.ndarray:
    return np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def _crossing(grid: np.ndarray, dens: np.ndarray, step: float, sd: float, bound: float) -> float:
    """P(no earlier crossing and |S| ≥ ``bound`` now): the density ``dens`` of the score S on ``grid`` (the region
    not crossed before), moved on by a normal step of sd ``sd``."""
    below = _ndtr((-bound - grid) / sd)  # the step's chance of ending below -bound, from each grid point
    above = _ndtr((grid - bound) / sd)  # and above bound
    return float(np.sum(dens * (below + above)) * step)


def _boundary(grid: np.ndarray, dens: np.ndarray, step: float, sd: float, root_t: float, part: float) -> float:
    """The z boundary at which the chance of crossing first at this look (:func:`_crossing`) is ``part``."""
    from scipy.optimize import brentq

    def excess(c: float) -> float:
        return _crossing(grid, dens, step, sd, c * root_t) - part

    if not excess(40.0) < 0 < excess(1e-6):
        return math.inf
    return float(brentq(excess, 1e-6, 40.0, xtol=1e-10))


@lru_cache(maxsize=512)
def boundaries(alpha: float, fractions: tuple[float, ...]) -> tuple[float, ...]:
    """The two-sided boundaries ``c_k`` (z values) of looks at information ``fractions`` (increasing, in (0, 1]),
    spending ``alpha`` by :func:`obf_spent`; ``inf`` for a look that spends nothing (too early for a float)."""
    from scipy.special import ndtri

    out: list[float] = []
    grid: np.ndarray | None = None  # the region not crossed at the last look, and the density of S on it
    dens = np.empty(0)
    step = 0.0
    prev_t, spent = 0.0, 0.0
    for t in fractions:
        if not (t > prev_t):
            raise ValueError(f"information fractions must increase: {fractions}")
        part = obf_spent(alpha, t) - spent
        sd = math.sqrt(t - prev_t)
        if grid is None:  # the first look: S ~ N(0, t)
            c = float(-ndtri(part / 2)) if part > 0 else math.inf
        elif part <= 0:
            c = math.inf
        else:
            c = _boundary(grid, dens, step, sd, math.sqrt(t), part)
        out.append(c)
        spent += part if part > 0 else 0.0
        # the density of S at t over the region not crossed: |S| < c √t
        edge = min(c, 40.0) * math.sqrt(t)
        new = np.linspace(-edge, edge, GRID)
        if grid is None:
            dens = _phi(new / sd) / sd
        else:
            kernel = _phi((new[:, None] - grid[None, :]) / sd) / sd
            dens = kernel @ (dens * step)
        grid, step = new, float(new[1] - new[0])
        dens = dens * _simpson(GRID)  # Simpson's weights folded in: sum(dens · f) · step is the integral of f
        prev_t = t
    return tuple(out)


def nominal_levels(alpha: float, fractions: tuple[float, ...]) -> tuple[float, ...]:
    """The two-sided nominal level of each look (``2Φ(−c_k)``, :func:`boundaries`): a look's test calls a
    difference where its p value is below it; 0 for a look that spends nothing."""
    return tuple(float(2 * _ndtr(-c)) if math.isfinite(c) else 0.0 for c in boundaries(alpha, fractions))
