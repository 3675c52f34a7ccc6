"""A cell of two folders compared through each folder's reference server (``compare A B`` across folders).

Every alternated session of a folder holds the reference server as one more target
(:mod:`ycsbctl.experiment.reference`; its slices are the rows of role ``reference`` in slices.parquet). Per block of
a session (:mod:`ycsbctl.results.slice_pairs`: 2·(n + 1) slices, two of each target and two of the reference), a
target's *relative rate* is the log of its rate in the block minus the log of the reference's rate in the same
block: what the host did to both within the block cancels. The cross-folder ratio of a cell is
``exp(mean_B − mean_A)`` of those relative rates over each folder's blocks, and its interval is Welch's t of the
two means (:func:`welch`). What the reference leaves of the host's noise is nearly independent from block to block,
but a target's own slow state is not: each folder's standard error is inflated by its blocks' lag-one
autocorrelation ρ (pooled over its sessions, never across two, taken in [0, 0.9]), the effective number of blocks
being ``n·(1 − ρ)/(1 + ρ)`` (the AR(1) variance of a mean, :func:`ycsbctl.results.slice_pairs.mean_of`, as inside
a folder), with Welch–Satterthwaite's degrees of freedom over the two. One round per folder gives an interval.

The reference divides out what hits it and the target alike; what it cannot divide out is said, and such a cell is
``undecided`` whatever its interval (:func:`reference_check`): the reference itself read the host differently
(its own ratio B/A beyond the margin), the points of one folder were degraded and the other's not (unless a control
the other folder measured alike the target reads it: :mod:`ycsbctl.results.reference_cells`), the CPUs this run could
use changed between the folders, or this cell's reference reading lies far from the folder pair's others (its first
reading, a burst).

The relation between a target and the reference also moves between runs (each server is a new process), which the
blocks of one run cannot see: so a cell is ``better``/``worse`` only beyond a between-run bound
(:func:`ycsbctl.results.stats.beyond_margin`), this host's calibration record of reference-paired A/A cells
(:data:`METRIC`, written by ``compare --calibrate``) or :data:`DEFAULT_MARGIN`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ycsbctl.results import slice_pairs, slice_table, stats
from ycsbctl.results.slice_pairs import Mean, mean_of

TEST = "Welch t of reference-paired block rates"
CONTROL_TEST = "Welch t of control-paired block rates"
METRIC = "throughput_vs_reference"  # the calibration record's key for reference-paired A/A cells
# The between-run bound without a calibration record (a fraction): see docs/benchmarks.md (reference A/A pairs).
DEFAULT_MARGIN = 0.05


@dataclass(frozen=True)
class Reading:
    """One folder's side of a cell: per block both the target and what it is read against (the reference server,
    or a control target of :func:`reading`'s ``against``) measured whole (past the warm-up), in time order within
    each session: its session, the target's log rate minus the other's (``relative``) and the other's own log rate
    (``against``, log ops/s); ``first``: the cell holds the folder's first reference session."""

    sessions: tuple[str, ...]
    relative: np.ndarray
    against: np.ndarray
    first: bool = False

    @property
    def blocks(self) -> int:
        return len(self.relative)


def first_session(runs: pd.DataFrame, slices: pd.DataFrame | None) -> str | None:
    """The session of a folder's first reference reading: of the sessions its reference measured in (the slices'
    rows of role ``reference``), the one whose points ran first (runs.parquet's ``order_index``, the sweep's order).
    Neither a session's round nor its name says so: a round's sessions run in a shuffled order
    (:mod:`ycsbctl.experiment.rounds`), and ``…t16…`` sorts before ``…t2…``. None where no point says its place."""
    sessions = set() if slices is None else set(slice_table.reference_only(slices)["session"].dropna())
    mine = runs[runs["session"].isin(sessions)]
    order = pd.to_numeric(mine["order_index"], errors="coerce")
    return str(mine.loc[order.idxmin(), "session"]) if order.notna().any() else None


def reading(slices: pd.DataFrame | None, run_ids: set[str], against: set[str] | None = None,
            first: str | None = None) -> Reading | None:
    """The reference-paired reading of the cell whose points are ``run_ids`` (its compared runs), from a folder's
    slices table; None where a point has no slice, or its sessions held no reference. ``against``: the run ids of a
    control target's points in the same sessions, read in the reference's place (:data:`CONTROL_TEST`: a target of
    the same kind shares more of a target's slow states than the small reference does). ``first``: the session of
    the folder's first reference reading (:func:`first_session`; None: unknown)."""
    if slices is None or not len(slices) or not run_ids:
        return None
    mine = slices[slices["run_id"].isin(run_ids)]
    if set(mine["run_id"]) != set(run_ids) or mine["session"].isna().any():
        return None
    sessions = set(mine["session"])
    ref = slice_table.reference_only(slices) if against is None else \
        slice_table.targets_only(slices[slices["run_id"].isin(against)])
    ref = ref[ref["session"].isin(sessions)]
    if not len(ref):
        return None
    targets = slice_pairs.targets_per_session(slices[slices["session"].isin(sessions)])
    t = slice_pairs.block_values(slice_table.targets_only(mine), slice_pairs.RATE, targets)
    r = slice_pairs.block_values(ref, slice_pairs.RATE, targets)
    keep: list[tuple[str, float, float]] = []
    for key in sorted(t.keys() & r.keys()):  # by session, then block: time order within a session
        (vt, wt, nt), (vr, wr, nr) = t[key], r[key]
        if not (wt or wr) and nt == nr == 2 and vt > 0 and vr > 0 and math.isfinite(vt) and math.isfinite(vr):
            keep.append((key[0], math.log(vt) - math.log(vr), math.log(vr)))
    if not keep:
        return None
    return Reading(tuple(k[0] for k in keep), np.asarray([k[1] for k in keep]), np.asarray([k[2] for k in keep]),
                   first=first in sessions)


def welch(base: Mean, other: Mean, test: str = TEST) -> stats.Comparison:
    """Welch's t of two folders' means of a log quantity: the ratio ``exp(other − base)`` with its
    :data:`~ycsbctl.results.stats.CONFIDENCE` interval (Welch–Satterthwaite degrees of freedom, ``scipy``'s t);
    no interval with fewer than two blocks a side."""
    ratio = float(np.exp(other.mean - base.mean)) if base.n and other.n else math.nan
    n = min(base.n, other.n)
    if n < 2:
        return stats.Comparison(ratio, math.nan, math.nan, math.nan, test, n, math.nan, math.nan)
    va, vb = base.se ** 2, other.se ** 2
    se = math.sqrt(va + vb)
    if se == 0:
        return stats.Comparison(ratio, ratio, ratio, 1.0 if ratio == 1 else 0.0, test, n, 0.0, 0.0)
    from scipy.special import stdtr

    df = (va + vb) ** 2 / (va ** 2 / base.df + vb ** 2 / other.df)
    centre = other.mean - base.mean
    half = stats.t_quantile(0.5 + stats.CONFIDENCE / 2, df) * se
    p = float(2 * stdtr(df, -abs(centre) / se))
    return stats.Comparison(ratio, math.exp(centre - half), math.exp(centre + half), p, test, n,
                            stats.detectable(se, df), se * math.sqrt(n), se_log=se, df=df)


def compare(base: Reading, other: Reading, test: str = TEST) -> stats.Comparison:
    """The cell's ratio other ÷ base read against each folder's reference (:data:`TEST`; or a control target's,
    :data:`CONTROL_TEST`), ``n`` the blocks of the smaller side; ``decided_by`` counts the blocks."""
    c = welch(mean_of(base.relative, base.sessions), mean_of(other.relative, other.sessions), test)
    return replace(c, decided_by=f"{test}: {base.blocks} and {other.blocks} blocks")


def reference_ratio(base: Reading, other: Reading) -> stats.Comparison:
    """The reference's own rate in the other folder over the base folder's, in this cell, with its interval (two
    readings against the reference, never a control's)."""
    return welch(mean_of(base.against, base.sessions), mean_of(other.against, other.sessions),
                 "Welch t of the reference's block rates")


def drift(ratio: float) -> float:
    """A ratio's distance from 1 either way, as a fraction (1.05 and 1/1.05: 0.05); NaN without a ratio."""
    return math.expm1(abs(math.log(ratio))) if ratio > 0 else math.nan
