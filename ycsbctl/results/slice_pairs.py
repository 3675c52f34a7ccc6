"""Slice-paired comparisons: two targets measured in alternation inside one engine session, compared block by block.

In an alternated session of n targets every client thread switches target each slice, in blocks of 2·n slices
(two targets: A B B A or B A A B), so block b is slices [2·n·b, 2·n·(b+1)) and holds two slices of each target
(:mod:`ycsbctl.results.slice_table`). What the host does at any time scale longer than a block hits both sides of
it; so a pair is compared by the log ratio of its two targets' figures per block:

* throughput: a target's rate in a block is its operations there ÷ its nominal seconds there (ops/s);
* a latency statistic (p99, p50, mean, µs): the geometric mean of the target's two slices' figure. The slices
  carry that figure and no histogram, so a block's exact p99 cannot be merged; the geometric mean weighs the two
  slices of an A B B A quartet alike, so a trend that is linear in log latency across the block cancels, as it
  does for the rate, and a block's log ratio is the mean of its two slice-pair log ratios.

Warm-up blocks (a slice of either side in the warm-up) are left out; so is a block where either side has no
figure, a zero (no operation), a held slice (another target's late operations kept every client past its start:
:mod:`ycsbctl.results.held_slices`) or not both its slices (a session that ended inside it) — those are counted.

The blocks of one session may be correlated in time (a target's own slow state: its memory, its background work),
and a t test over blocks would then read them as independent. So the interval is Student's t over the blocks with
the standard error of a mean of AR(1) blocks: their lag-one autocorrelation ρ is pooled over the sessions (never a
pair across two) and taken in [0, 0.9], and the blocks count as ``B·(1 − ρ)/(1 + ρ)`` effective ones, less one for
the degrees of freedom (:func:`mean_of`; the same estimate reads a folder's blocks against its reference,
:mod:`ycsbctl.results.reference_pairs`). Where the blocks do not correlate — the host's noise common to both sides
pairs away — every block keeps its degree of freedom. Batch means (consecutive blocks averaged until the batches'
means no longer correlated, at most √B a batch, Flegal & Jones 2010) were the rule until 29 Nov 2026: their
batch size was chosen on a noisy lag-one of few batches, and a cell whose blocks barely correlated (ρ 0.02–0.10)
was cut into 6 batches about one in five times, its interval 1.6–2× the AR(1) one (docs/benchmarks.md, "The
interval over blocks"). Over 400 synthetic sessions each (tests/results/test_slice_pairs.py): the host's noise
alone, 30 blocks: 97 % coverage; each target's own slow noise (block ratios correlated at lag one by about 0.4),
120 blocks: 94 %, where a naive t over blocks covers about 80 %; at a lag-one of 0.55 with 60 blocks about 88 %
(batch means: 90 %). Several rounds (sessions, independent of each other) are what holds coverage under a
correlation that lasts a good part of a session.

The result is a :class:`ycsbctl.results.stats.Comparison` (``n``: the blocks), so
:func:`ycsbctl.results.stats.decide` (its family, equivalence, detectable size) takes it as it takes the rounds'
paired t.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ycsbctl.results import stats

TEST = "slice-paired t (AR(1) blocks)"
RATE = "rate"  # a block's operations ÷ its nominal seconds (ops/s)
# the runs column a verdict compares -> what the slices hold of the same quantity (every base operation merged)
SLICE_METRICS = {"throughput_ops": RATE, "all_p99_us": "p99_us", "all_p50_us": "p50_us", "all_mean_us": "mean_us"}
RHO_MAX = 0.9  # the largest lag-one correlation a standard error is inflated for (×√19)


@dataclass(frozen=True)
class BlockPairs:
    """The blocks both sides measured: each one's session and log ratio (other ÷ baseline), in time order within
    a session; ``left_out``: blocks (past the warm-up) with a side zero, missing or short of its two slices;
    ``warmup``: blocks left out as warm-up."""

    sessions: tuple[str, ...]
    log_ratios: np.ndarray
    left_out: int = 0
    warmup: int = 0

    @property
    def blocks(self) -> int:
        return len(self.log_ratios)

    def caveat(self) -> str | None:
        """A sentence on the blocks left out, None when none was."""
        if not self.left_out:
            return None
        return (f"{self.left_out} of {self.left_out + self.blocks} blocks left out (a side with no operation, "
                "a slice held by another target's late operations, no figure or a block cut short)")


def targets_per_session(slices: pd.DataFrame) -> dict[str, int]:
    """session -> the targets it alternated: its points (run ids), one per target."""
    s = slices[slices["session"].notna()]
    return {str(k): int(v) for k, v in s.groupby("session")["run_id"].nunique().items()}


def block_values(rows: pd.DataFrame, column: str, targets: dict[str, int]) -> dict[tuple[str, int], tuple]:
    """One target's blocks, (session, block) -> (value, warm-up, slices): the value ``column`` = :data:`RATE`: ops/s;
    else the geometric mean of that latency column over the block's slices (µs), NaN unless each has one; warm-up:
    a slice of it in the warm-up; slices: how many of its slices it holds (2 when whole), a held one not counted."""
    sessions = rows["session"].astype(str).to_numpy()
    per_block = 2 * np.asarray([targets.get(x, 0) for x in sessions], dtype=np.int64)
    keep = per_block > 0
    names, code = np.unique(sessions[keep], return_inverse=True)
    block = rows["slice"].to_numpy(np.int64)[keep] // per_block[keep]
    span = int(block.max()) + 1 if len(block) else 1
    keys, at = np.unique(code.ravel() * span + block, return_inverse=True)  # sorted by session, then block
    at = at.ravel()

    def total(x: np.ndarray) -> np.ndarray:
        return np.bincount(at, weights=x, minlength=len(keys))

    # a held slice (no client free to start an operation: ycsbctl.results.held_slices) is not one of its block's
    held = rows["held"].to_numpy(bool)[keep] if "held" in rows else np.zeros(len(at), dtype=bool)
    count = np.bincount(at, weights=(~held).astype(float), minlength=len(keys)).astype(np.int64)
    if column == RATE:
        seconds = total((rows["t_end_s"] - rows["t_start_s"]).to_numpy(float)[keep])
        ops = total(rows["operations"].to_numpy(float)[keep])
        value = np.where(seconds > 0, ops / np.where(seconds > 0, seconds, 1.0), np.nan)
    else:  # the geometric mean; a slice without a figure (or a zero) leaves its block without one
        v = pd.to_numeric(rows[column], errors="coerce").to_numpy(float)[keep]
        good = np.isfinite(v) & (v > 0)
        logs = total(np.log(np.where(good, v, 1.0)))
        value = np.where(total(good.astype(float)) == count, np.exp(logs / np.maximum(count, 1)), np.nan)
    warm = total(rows["warmup"].to_numpy(bool)[keep].astype(float)) > 0
    return {(str(names[key // span]), int(key % span)): (float(x), bool(w), int(n))
            for key, x, w, n in zip(keys, value, warm, count)}


def block_pairs(base: pd.DataFrame, other: pd.DataFrame, column: str, targets: dict[str, int]) -> BlockPairs:
    """The log ratio (other ÷ baseline) of each block both sides measured whole, from their slice rows
    (:mod:`ycsbctl.results.slice_table`); ``targets``: :func:`targets_per_session` of their sessions."""
    b, o = block_values(base, column, targets), block_values(other, column, targets)
    missing = (math.nan, False, 0)
    sessions, logs, left_out, warmup = [], [], 0, 0
    for key in sorted(b.keys() | o.keys()):
        (vb, wb, nb), (vo, wo, no) = b.get(key, missing), o.get(key, missing)
        if wb or wo:
            warmup += 1
        elif nb == no == 2 and vb > 0 and vo > 0 and math.isfinite(vb) and math.isfinite(vo):
            sessions.append(key[0])
            logs.append(math.log(vo) - math.log(vb))
        else:
            left_out += 1
    return BlockPairs(tuple(sessions), np.asarray(logs, dtype=float), left_out=left_out, warmup=warmup)


@dataclass(frozen=True)
class Mean:
    """A mean of one log quantity over blocks (a folder's, a cell pair's), its standard error (AR(1)-inflated) and
    degrees of freedom (the effective blocks less one), ``n`` the blocks, ``rho`` the lag-one correlation the
    standard error was inflated for."""

    mean: float
    se: float
    df: float
    n: int
    rho: float = 0.0

    @property
    def effective(self) -> float:
        """The blocks the mean counts as (:func:`effective_blocks`)."""
        return effective_blocks(self.n, self.rho)


def effective_blocks(n: int, rho: float) -> float:
    """What ``n`` AR(1) blocks of lag-one correlation ``rho`` count as for the variance of their mean:
    ``n·(1 − ρ)/(1 + ρ)``."""
    return n * (1 - rho) / (1 + rho)


def lag_one(values: np.ndarray, sessions: tuple[str, ...]) -> float:
    """The blocks' lag-one autocorrelation, pooled over sessions (never a pair across two), in [0, :data:`RHO_MAX`];
    0 with fewer than three blocks or no spread."""
    if len(values) < 3:
        return 0.0
    centred = values - values.mean()
    denominator = float((centred ** 2).sum())
    which = np.asarray(sessions, dtype=object)
    same = which[1:] == which[:-1]
    numerator = float((centred[1:] * centred[:-1])[same].sum())
    if denominator <= 0:
        return 0.0
    return float(min(max(numerator / denominator, 0.0), RHO_MAX))


def mean_of(values: np.ndarray, sessions: tuple[str, ...]) -> Mean:
    """:class:`Mean` of ``values`` (one per block, in time order within each session): the standard error of a mean
    of AR(1) blocks, ``sd/√(n·(1 − ρ)/(1 + ρ))`` with ρ their pooled :func:`lag_one`, its degrees of freedom the
    effective blocks less one (at least one; NaN with fewer than two blocks)."""
    n = len(values)
    if n < 2:
        return Mean(float(values.mean()) if n else math.nan, math.nan, math.nan, n)
    rho = lag_one(values, sessions)
    effective = effective_blocks(n, rho)
    return Mean(float(values.mean()), float(values.std(ddof=1)) / math.sqrt(effective), max(effective - 1, 1.0), n,
                rho)


def compare(pairs: BlockPairs) -> stats.Comparison:
    """The slice-paired comparison (:data:`TEST`): ratio other ÷ baseline (the geometric mean of the blocks'
    ratios) with its :data:`~ycsbctl.results.stats.CONFIDENCE` t interval over the blocks, the standard error and
    degrees of freedom those of AR(1) blocks (:func:`mean_of`); ``n`` = blocks; ``sd_log`` the sd of one session's
    mean log ratio (so that :func:`ycsbctl.results.over_rounds.repetitions_needed` counts sessions). No interval
    from fewer than two blocks."""
    n = pairs.blocks
    if n == 0:
        return stats.Comparison(math.nan, math.nan, math.nan, math.nan, TEST, 0, math.nan, math.nan)
    m = mean_of(pairs.log_ratios, pairs.sessions)
    ratio = float(np.exp(m.mean))
    if n < 2:
        return stats.Comparison(ratio, math.nan, math.nan, math.nan, TEST, n, math.nan, math.nan)
    if np.ptp(pairs.log_ratios) == 0:  # no spread: the ratio is what it is
        return stats.Comparison(ratio, ratio, ratio, 1.0 if ratio == 1 else 0.0, TEST, n, 0.0, 0.0)
    # Student's t from scipy.special (what scipy.stats.ttest_1samp computes, at a tenth of its cost: the sequential
    # looks judge every cell at every look)
    from scipy.special import stdtr

    half = stats.t_quantile(0.5 + stats.CONFIDENCE / 2, m.df) * m.se
    p = float(2 * stdtr(m.df, -abs(m.mean) / m.se))
    blocks = f"{TEST} over {n} blocks" + (f" ({m.effective:.0f} effective: lag-one {m.rho:.2f})" if m.rho > 0 else "")
    return stats.Comparison(ratio, math.exp(m.mean - half), math.exp(m.mean + half), p, TEST, n,
                            stats.detectable(m.se, m.df), m.se * math.sqrt(len(set(pairs.sessions))), se_log=m.se,
                            df=m.df, decided_by="; ".join(w for w in (blocks, pairs.caveat()) if w))


def cell_pairs(slices: pd.DataFrame | None, base: pd.DataFrame, other: pd.DataFrame, column: str) -> BlockPairs | None:
    """The block pairs of one cell pair for the runs ``column`` (:data:`SLICE_METRICS`), from ``slices`` (the
    folder's slices table) and the two cells' runs rows, over the sessions both measured in (a round whose point
    of one side was not compared drops out, as it does from the rounds' pairs); None — the rounds' test applies —
    where the column has no slice figure, a point of either side has no session or no slice, or the two cells
    share no session (a peak against another thread count's peak)."""
    which = SLICE_METRICS.get(column)
    if which is None or slices is None or not len(slices) or not len(base) or not len(other):
        return None
    if "session" not in base or "session" not in other or base["session"].isna().any() or other["session"].isna().any():
        return None
    ids = set(base["run_id"]) | set(other["run_id"])
    rows = slices[slices["run_id"].isin(ids)]
    shared = set(base["session"]) & set(other["session"])
    if set(rows["run_id"]) != ids or not shared:
        return None
    rows = rows[rows["session"].isin(shared)]
    targets = targets_per_session(slices[slices["session"].isin(shared)])
    mine = rows["run_id"].isin(set(base["run_id"]))
    return block_pairs(rows[mine], rows[~mine], which, targets)
