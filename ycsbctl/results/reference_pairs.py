"""A cell of two folders compared through each folder's reference server (``compare A B`` across folders).

Every alternated session of a folder holds the reference server as one more target
(:mod:`ycsbctl.experiment.reference`; its slices are the rows of role ``reference`` in slices.parquet). Per block of
a session (:mod:`ycsbctl.results.slice_pairs`: 2·(n + 1) slices, two of each target and two of the reference), a
target's *relative rate* is the log of its rate in the block minus the log of the reference's rate in the same
block: what the host did to both within the block cancels. The cross-folder ratio of a cell is
``exp(mean_B − mean_A)`` of those relative rates, each folder's mean taken over its *batch means*
(:func:`ycsbctl.results.slice_pairs.batch_means`: batches of about √B consecutive blocks, never across sessions, two
at least from one session), and its interval is Welch's t over the two folders' batch means (``scipy.stats``), so
one round per folder gives an interval.

The reference divides out what hits it and the target alike; what it cannot divide out is said, and such a cell is
``undecided`` whatever its interval (:func:`reference_check`): the reference itself read the host differently
(its own ratio B/A beyond the margin), the points of one folder were host-busy and the other's not, the CPUs this
run could use changed between the folders, or this cell's reference reading lies far from the folder pair's others
(its first reading, a burst).

The relation between a target and the reference also moves between runs (each server is a new process), which the
blocks of one run cannot see: so a cell is ``better``/``worse`` only beyond a between-run bound
(:func:`ycsbctl.results.stats.beyond_margin`), this host's calibration record of reference-paired A/A cells
(:data:`METRIC`, written by ``compare --calibrate``) or :data:`DEFAULT_MARGIN`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ycsbctl.results import slice_pairs, slice_table, stats

TEST = "Welch t of reference-paired block rates (batch means)"
METRIC = "throughput_vs_reference"  # the calibration record's key for reference-paired A/A cells
# The between-run bound without a calibration record (a fraction): see docs/benchmarks.md (reference A/A pairs).
DEFAULT_MARGIN = 0.05


@dataclass(frozen=True)
class Reading:
    """One folder's side of a cell: per block both the target and the reference measured whole (past the
    warm-up), its session, the target's log rate minus the reference's (``relative``) and the reference's own log
    rate (``reference``, log ops/s); ``first``: the cell holds the folder's first reference session."""

    sessions: tuple[str, ...]
    relative: np.ndarray
    reference: np.ndarray
    first: bool = False

    @property
    def blocks(self) -> int:
        return len(self.relative)

    def batches(self, of: np.ndarray) -> np.ndarray:
        """The batch means of ``of`` (one value per block, in this reading's order)."""
        return slice_pairs.batch_means(slice_pairs.BlockPairs(self.sessions, of))


def reading(slices: pd.DataFrame | None, run_ids: set[str]) -> Reading | None:
    """The reference-paired reading of the cell whose points are ``run_ids`` (its compared runs), from a folder's
    slices table; None where a point has no slice, or its sessions held no reference."""
    if slices is None or not len(slices) or not run_ids:
        return None
    mine = slices[slices["run_id"].isin(run_ids)]
    if set(mine["run_id"]) != set(run_ids) or mine["session"].isna().any():
        return None
    sessions = set(mine["session"])
    ref = slice_table.reference_only(slices)
    ref = ref[ref["session"].isin(sessions)]
    if not len(ref):
        return None
    targets = slice_pairs.targets_per_session(slices[slices["session"].isin(sessions)])
    t = slice_pairs.block_values(slice_table.targets_only(mine), slice_pairs.RATE, targets)
    r = slice_pairs.block_values(ref, slice_pairs.RATE, targets)
    keep: list[tuple[str, float, float]] = []
    for key in sorted(t.keys() & r.keys()):
        (vt, wt, nt), (vr, wr, nr) = t[key], r[key]
        if not (wt or wr) and nt == nr == 2 and vt > 0 and vr > 0 and math.isfinite(vt) and math.isfinite(vr):
            keep.append((key[0], math.log(vt) - math.log(vr), math.log(vr)))
    if not keep:
        return None
    all_ref = slice_table.reference_only(slices)
    first_session = str(all_ref.sort_values(["repetition", "session"])["session"].iloc[0]) if len(all_ref) else ""
    return Reading(tuple(k[0] for k in keep), np.asarray([k[1] for k in keep]), np.asarray([k[2] for k in keep]),
                   first=first_session in sessions)


def welch(base: np.ndarray, other: np.ndarray, test: str = TEST) -> stats.Comparison:
    """Welch's t of two folders' batch means of a log quantity: the ratio ``exp(mean other − mean base)`` with
    its :data:`~ycsbctl.results.stats.CONFIDENCE` interval (``scipy.stats.ttest_ind``); no interval with fewer
    than two batches a side."""
    ratio = float(np.exp(other.mean() - base.mean())) if len(base) and len(other) else math.nan
    n = min(len(base), len(other))
    if n < slice_pairs.MIN_BATCHES:
        return stats.Comparison(ratio, math.nan, math.nan, math.nan, test, n, math.nan, math.nan)
    va, vb = base.var(ddof=1) / len(base), other.var(ddof=1) / len(other)
    se = math.sqrt(va + vb)
    if se == 0:
        return stats.Comparison(ratio, ratio, ratio, 1.0 if ratio == 1 else 0.0, test, n, 0.0, 0.0)
    from scipy.stats import ttest_ind

    res = ttest_ind(other, base, equal_var=False)
    ci = res.confidence_interval(stats.CONFIDENCE)
    df = float(res.df)
    return stats.Comparison(ratio, float(np.exp(ci.low)), float(np.exp(ci.high)), float(res.pvalue), test, n,
                            stats.detectable(se, df), math.sqrt((base.var(ddof=1) + other.var(ddof=1)) / 2),
                            se_log=se, df=df)


def compare(base: Reading, other: Reading) -> stats.Comparison:
    """The cell's ratio other ÷ base read against each folder's reference (:data:`TEST`), ``n`` the batches of
    the smaller side; ``decided_by`` counts the blocks and batches."""
    a, b = base.batches(base.relative), other.batches(other.relative)
    c = welch(a, b)
    from dataclasses import replace

    return replace(c, decided_by=f"{TEST}: {base.blocks} and {other.blocks} blocks in {len(a)} and {len(b)} batches")


def reference_ratio(base: Reading, other: Reading) -> float:
    """The reference's own rate in the other folder over the base folder's, in this cell (the batch means'
    geometric means)."""
    return float(np.exp(other.batches(other.reference).mean() - base.batches(base.reference).mean()))


def drift(ratio: float) -> float:
    """A ratio's distance from 1 either way, as a fraction (1.05 and 1/1.05: 0.05); NaN without a ratio."""
    return math.expm1(abs(math.log(ratio))) if ratio > 0 else math.nan
