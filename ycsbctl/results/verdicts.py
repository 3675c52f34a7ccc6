"""Verdicts between cells, from the runs table: the one place the report, the console, ``compare``
and the JSON read "how sure is this" from (statistics: :mod:`ycsbctl.results.stats`).

A *cell* is target × workload × threads × offered rate (:mod:`ycsbctl.results.cells`: each cell's centre,
interval, CV and drift over its rounds). :func:`target_verdicts` compares every target with a
baseline target inside one experiment (paired by round when the rounds interleaved the targets);
:func:`ycsbctl.results.folder_verdicts.folder_verdicts` compares two experiments. Each comparison adjusts
its cells' p values together.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import pandas as pd

from ycsbctl.results import host_drift, looks, noise, slice_pairs, stats
from ycsbctl.results.cells import (
    Metric,
    by_round,
    cell_groups,
    cell_rate,
    cell_table,
    compared_mask,
    metrics,
    percentile_cells,
    percentile_metrics,
    sweep_rows,
)

# the words of a verdict (ycsbctl.results.verdict_words), importable from here as before
from ycsbctl.results.verdict_words import BOUND_HIGH as BOUND_HIGH
from ycsbctl.results.verdict_words import BOUND_LOW as BOUND_LOW
from ycsbctl.results.verdict_words import interval_text as interval_text
from ycsbctl.results.verdict_words import verdict_text as verdict_text

# Run orders whose rounds pair: repetition r of every target measured in round r (interleaved, or target
# blocks alternating A B B A), so a verdict tests the per-round log ratios.
PAIRED_ORDERS = ("alternate", "interleaved", "blocks")  # as ycsbctl.experiment.rounds.PAIRED_ORDERS
VERDICT_COLUMNS = ["workload", "target", "threads", "target_rate", "metric", "baseline", "base_value", "value",
                   "ratio", "ci_low", "ci_high", "ci_level", "p_value", "p_adjusted", "verdict", "detectable_pct", "n",
                   "test",
                   "caveat", "at_peak", "drift_margin_pct", "margin_pct", "margin_source", "decided_by", "busy_rounds",
                   "host_busy_max_pct"]


def percentile_verdicts(runs: pd.DataFrame, baseline: str, paired: bool = True, alpha: float = stats.ALPHA,
                        how: Judging | None = None, slices: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every other target against ``baseline`` at every latency percentile of every operation
    (:func:`percentile_metrics`), cell by cell, by the tests of :func:`target_verdicts` — ratio other ÷
    baseline with its interval and verdict, :data:`VERDICT_COLUMNS` plus ``op``. They are a family of their
    own (Benjamini–Hochberg over these cells), so that adding them leaves the headline verdicts (throughput
    and the chosen latency) as they were. ``slices``: the folder's slices table (:func:`judged`)."""
    how = how or judging(paired, alpha)
    which = percentile_metrics(runs) if len(runs) else []
    cells = {k: g for k, g in cell_groups(runs, how.paired)}
    rows, ops = [], []
    for (workload, target, threads, rate), g in cells.items():
        b = cells.get((workload, baseline, threads, rate))
        if target == baseline or b is None:
            continue
        for op, m in which:
            base, other, c = judged(b, g, m, how, slices)
            if not base or not other:
                continue
            rows.append(verdict_row({"workload": workload, "target": target, "threads": int(threads),
                                     "target_rate": cell_rate(rate)},
                             m, baseline, base, other, c, groups=(b, g), how=how))
            ops.append(op)
    df = decided(rows, how.alpha, how.equivalence_alpha)
    return df.assign(op=ops) if len(df) else df.assign(op=pd.Series(dtype=str))



@dataclass(frozen=True)
class Judging:
    """How one comparison's cells are judged: the rounds pair (``paired``), the equivalence margin (a
    fraction) and where it came from, the host's noise bound per metric (None: no bound) and the level."""

    paired: bool = True
    margin: float = stats.EQUIVALENCE_MARGIN
    margin_source: str = "the default"
    noise: noise.NoiseModel | None = None
    alpha: float = stats.ALPHA
    equivalence_alpha: float | None = None  # the two one-sided tests' interval is at 1 − this (None: 2 × alpha)


def judging(paired: bool = True, alpha: float = stats.ALPHA, margin: float | None = None,
            margin_source: str | None = None, margins: host_drift.Margins | None = None,
            equivalence_alpha: float | None = None) -> Judging:
    """How to judge a comparison: the equivalence ``margin`` (None: :data:`~ycsbctl.results.stats.EQUIVALENCE_MARGIN`),
    the host's noise bound from the calibration record (``margins``; None: read it), the level of a difference
    (``alpha``) and of the two one-sided tests' interval (1 − ``equivalence_alpha``; None: 1 − 2 × ``alpha``)."""
    return Judging(paired, margin if margin is not None else stats.EQUIVALENCE_MARGIN,
                   margin_source or ("--margin" if margin is not None else "the default"),
                   noise.noise_model(margins), alpha, equivalence_alpha)


def judged(b: pd.DataFrame, g: pd.DataFrame, m: Metric, how: Judging,
           slices: pd.DataFrame | None = None) -> tuple[dict, dict, stats.Comparison]:
    """(baseline's and other's values by round, their comparison) of one cell pair for ``m``: where both cells'
    points were measured in alternated sessions and ``slices`` (the folder's slices table) holds theirs, the
    slice-paired test (:mod:`ycsbctl.results.slice_pairs`: one round gives an interval, from two blocks on); else
    the rounds' test
    (paired: adjusted for the share of the host each side's point had, where it varied:
    :func:`ycsbctl.results.stats.adjusted`) with, given a noise model, the host's noise bound
    (:mod:`ycsbctl.results.noise`: between-run noise, which the alternation pairs away). Either way the equivalence
    margin."""
    base, other = by_round(b, m.column), by_round(g, m.column)
    pairs = slice_pairs.cell_pairs(slices, b, g, m.column)
    sliced = slice_pairs.compare(pairs) if pairs is not None else None
    if sliced is not None and sliced.low == sliced.low:  # fewer than two blocks give no interval: the rounds judge
        return base, other, replace(sliced, equivalence=how.margin)
    base_share, other_share = noise.shares_by_round(b), noise.shares_by_round(g)
    c = stats.compare(base, other, paired=how.paired,
                      covariate=noise.covariate(base_share, other_share) if how.paired else None)
    c = replace(c, equivalence=how.margin)
    if how.noise is not None:
        bounds = noise.bound(base, other, base_share, other_share, how.noise.of(m.name), m.higher_is_better, how.paired)
        if bounds is not None:
            c = stats.noise_bounded(c, *bounds)
    return base, other, c


def _busy(*groups: pd.DataFrame) -> tuple[int, float]:
    """(rounds in which a point of these cells was degraded by a busy host, the largest share of the host
    other programs took in any of their points, %: NaN where unknown)."""
    rounds: set[int] = set()
    top = math.nan
    for g in groups:
        if "status" in g:
            rounds |= {int(r) for r in g.loc[g["status"] == "degraded", "repetition"]}
        if noise.SHARE_COLUMN in g:
            v = pd.to_numeric(g[noise.SHARE_COLUMN], errors="coerce").max()
            if v == v:
                top = max(v, top) if top == top else float(v)
    return len(rounds), 100 * top if top == top else math.nan


def verdict_row(key: dict, metric: Metric, baseline: str, base: dict, other: dict, c: stats.Comparison,
                caveat: str | None = None, at_peak: bool = False, groups: tuple[pd.DataFrame, ...] = (),
                how: Judging | None = None) -> dict:
    """One cell pair's row of :data:`VERDICT_COLUMNS` before :func:`decided` writes its verdict."""
    busy_rounds, busy_pct = _busy(*groups)
    how = how or Judging()
    return {**key, "metric": metric.name, "baseline": baseline, "margin_pct": 100 * c.equivalence,
            "margin_source": how.margin_source, "busy_rounds": busy_rounds, "host_busy_max_pct": busy_pct,
            "base_value": stats.interval(list(base.values())).centre,
            "value": stats.interval(list(other.values())).centre,
            "ratio": c.ratio, "ci_low": c.low, "ci_high": c.high, "ci_level": c.level, "p_value": c.p_value,
            # the rounds compared (the slice-paired test's own n is its blocks)
            "n": len(base.keys() & other.keys()) if c.test == slice_pairs.TEST else c.n,
            "test": c.test,
            "detectable_pct": _pct(c.detectable),
            "caveat": caveat, "at_peak": at_peak, "_c": c, "_hib": metric.higher_is_better}


def _pct(fraction: float) -> float:
    """0.05 -> 5.0 (%); NaN stays NaN."""
    return 100 * fraction if fraction == fraction else math.nan


def decided(rows: list[dict], alpha: float, equivalence_alpha: float | None = None) -> pd.DataFrame:
    """Adjust the cells' p values together and write the verdicts (rows marked ``_fixed`` keep theirs);
    ``equivalence_alpha``: :func:`ycsbctl.results.stats.decide`'s."""
    family = [r for r in rows if not r.get("_fixed")]
    done = stats.decide([r["_c"] for r in family], [r["_hib"] for r in family], alpha, equivalence_alpha)
    for r, c in zip(family, done):
        r.update(p_adjusted=c.p_adjusted, verdict=c.verdict, ci_low=c.low, ci_high=c.high, ci_level=c.level,
                 detectable_pct=_pct(c.detectable), decided_by=c.decided_by)  # the family's: what a cell must reach
    for r in rows:  # a row that repeats another's test takes its adjusted p, verdict, interval and detectable
        if "_same_as" in r:
            r.update({k: rows[r["_same_as"]][k]
                      for k in ("p_adjusted", "verdict", "ci_low", "ci_high", "ci_level", "detectable_pct",
                                "decided_by")})
    df = pd.DataFrame(rows)
    if not len(df):
        return pd.DataFrame(columns=VERDICT_COLUMNS)
    return df.reindex(columns=VERDICT_COLUMNS)


def _peak_key(cells: dict[tuple, pd.DataFrame], target: str, workload: str) -> tuple | None:
    """The cell of ``target``'s highest mean throughput in ``workload`` (unpaced points)."""
    best, key = -math.inf, None
    for k, g in cells.items():
        if k[0] == workload and k[1] == target and not k[3]:
            v = pd.to_numeric(g["throughput_ops"], errors="coerce").mean()
            if v == v and v > best:
                best, key = float(v), k
    return key


def target_verdicts(runs: pd.DataFrame, baseline: str, latency: str = "p99", paired: bool = True,
                    alpha: float = stats.ALPHA, how: Judging | None = None,
                    slices: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every other target against ``baseline`` in each workload × threads × rate cell both measured, and
    at each one's peak (``at_peak``; threads is the target's peak, the baseline's own peak compared):
    ratio other ÷ baseline with its interval (``ci_level``: the family's, see
    :func:`ycsbctl.results.stats.family_level`; narrowed by the host's noise bound) and one of the four
    verdicts (:data:`VERDICT_COLUMNS`). ``paired`` (or ``how.paired``): the rounds interleaved the targets,
    so repetition r of each was measured close in time, and a point degraded only by a busy host is
    compared too. ``slices``: the folder's slices table; a cell pair measured in alternated sessions is judged
    slice by slice (:func:`judged`)."""
    how = how or judging(paired, alpha)
    cells = {k: g for k, g in cell_groups(runs, how.paired)}
    rows = []
    for (workload, target, threads, rate), g in cells.items():
        if target == baseline:
            continue
        b = cells.get((workload, baseline, threads, rate))
        if b is None:
            continue
        for m in metrics(latency):
            base, other, c = judged(b, g, m, how, slices)
            rows.append(verdict_row({"workload": workload, "target": target, "threads": int(threads),
                                     "target_rate": cell_rate(rate)},
                             m, baseline, base, other, c, groups=(b, g), how=how))
    index = {(r["workload"], r["target"], r["threads"], r["metric"]): i for i, r in enumerate(rows)}
    for workload in dict.fromkeys(k[0] for k in cells):
        bk = _peak_key(cells, baseline, workload)
        for target in dict.fromkeys(k[1] for k in cells if k[0] == workload and k[1] != baseline):
            tk = _peak_key(cells, target, workload)
            if bk is None or tk is None:
                continue
            m = metrics(latency)[0]
            base, other, c = judged(cells[bk], cells[tk], m, how, slices)
            row = verdict_row({"workload": workload, "target": target, "threads": int(tk[2]), "target_rate": math.nan},
                       m, baseline, base, other, c, caveat=f"peak against peak: {baseline} at {int(bk[2])} threads",
                       at_peak=True, groups=(cells[bk], cells[tk]), how=how)
            same = index.get((workload, target, int(tk[2]), m.name))
            if bk[2] == tk[2] and same is not None:  # both peak at one thread count: that cell's test, not a second
                row.update(_same_as=same, _fixed=True)
            rows.append(row)
    return decided(rows, how.alpha, how.equivalence_alpha)


# What a deployment costs per operation, besides throughput and latency (lower is better): CPU µs.
CPU_METRICS = (Metric("client CPU/op", "client_us_per_op", False), Metric("server CPU/op", "server_us_per_op", False))


def with_server_us_per_op(runs: pd.DataFrame) -> pd.DataFrame:
    """``runs`` with ``server_us_per_op``: µs of server CPU per operation (its mean CPU, % of one core,
    over the throughput); NaN where either is missing."""
    if not len(runs) or "server_cpu_pct_mean" not in runs:
        return runs.assign(server_us_per_op=math.nan)
    cpu = pd.to_numeric(runs["server_cpu_pct_mean"], errors="coerce")
    ops = pd.to_numeric(runs["throughput_ops"], errors="coerce")
    return runs.assign(server_us_per_op=(cpu / 100 * 1e6 / ops).where(ops > 0))


def cost_verdicts(runs: pd.DataFrame, baseline: str, latency: str = "p99", paired: bool = True,
                  alpha: float = stats.ALPHA, how: Judging | None = None,
                  slices: pd.DataFrame | None = None) -> pd.DataFrame:
    """What every other target costs against ``baseline`` in each workload × threads × rate cell both
    measured: throughput, latency, and client and server CPU per operation (µs), each a ratio other ÷
    baseline with its interval and verdict (:data:`VERDICT_COLUMNS`), decided as one family — the same
    statistics as :func:`target_verdicts`."""
    how = how or judging(paired, alpha)
    runs = with_server_us_per_op(runs)
    cells = {k: g for k, g in cell_groups(runs, how.paired)}
    rows = []
    for (workload, target, threads, rate), g in cells.items():
        b = cells.get((workload, baseline, threads, rate))
        if target == baseline or b is None:
            continue
        for m in (*metrics(latency), *CPU_METRICS):
            base, other, c = judged(b, g, m, how, slices)
            if not base or not other:
                continue
            rows.append(verdict_row({"workload": workload, "target": target, "threads": int(threads),
                                     "target_rate": cell_rate(rate)},
                             m, baseline, base, other, c, groups=(b, g), how=how))
    return decided(rows, how.alpha, how.equivalence_alpha)



def baseline_of(plan: dict, runs: pd.DataFrame) -> str | None:
    """The target a folder's others are compared with: the plan's resolved baseline when it has runs,
    else the first target of the plan (then of the runs) that has runs."""
    have = list(dict.fromkeys(runs["target"])) if len(runs) else []
    ordered = [t for t in plan.get("targets") or [] if t in have] + have
    chosen = plan.get("baseline_target")
    return chosen if chosen in have else (ordered[0] if ordered else None)


def plan_judging(plan: dict, runs: pd.DataFrame) -> Judging:
    """How a folder's verdicts are judged, from its manifest's ``plan``: paired when its rounds interleaved the
    targets (or alternated them in sessions), its ``--margin``, and its levels — in a sequential run (``--repeat
    auto``) those the analysis after its last round tests at (:func:`ycsbctl.results.looks.spent_alpha`,
    :func:`~ycsbctl.results.looks.equivalence_alpha`)."""
    alpha = float(plan.get("alpha") or stats.ALPHA)
    rounds = int(pd.to_numeric(runs["repetition"], errors="coerce").max()) if len(runs) and "repetition" in runs else 1
    given = plan.get("margin")
    paired = plan.get("run_order") in PAIRED_ORDERS or alternated(runs)
    return judging(paired, looks.plan_spent_alpha(plan, alpha, rounds),
                   margin=float(given) if given is not None else None,
                   equivalence_alpha=looks.plan_spent_alpha(plan, alpha, rounds, equivalence=True))


def alternated(runs: pd.DataFrame) -> bool:
    """Whether points of ``runs`` were measured in alternated sessions (their rounds pair: a round is one session
    per cell, every target in it)."""
    return "session" in runs and bool(runs["session"].notna().any())


def plan_verdicts(plan: dict, runs: pd.DataFrame, latency: str = "p99",
                  slices: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every target of a folder (its manifest's ``plan``) against its baseline (:func:`plan_judging`); ``slices``:
    its slices table (:func:`judged`)."""
    base = baseline_of(plan, runs)
    if base is None:
        return pd.DataFrame(columns=VERDICT_COLUMNS)
    return target_verdicts(runs, base, latency, how=plan_judging(plan, runs), slices=slices)


def verdict_tables(plan: dict, runs: pd.DataFrame, series: pd.DataFrame,
                   slices: pd.DataFrame | None = None) -> dict[str, pd.DataFrame]:
    """The ``cells`` and ``verdicts`` tables (p99) of a finished folder whose manifest holds ``plan``, and
    ``percentile_cells``/``percentile_verdicts``: every latency percentile of every operation; ``slices``: its
    slices table (:func:`judged`)."""
    base = baseline_of(plan, runs)
    pv = (percentile_verdicts(runs, base, how=plan_judging(plan, runs), slices=slices)
          if base is not None else pd.DataFrame(columns=[*VERDICT_COLUMNS, "op"]))
    return {"cells": cell_table(runs, series=series), "verdicts": plan_verdicts(plan, runs, slices=slices),
            "percentile_cells": percentile_cells(runs), "percentile_verdicts": pv}


def uncompared(runs: pd.DataFrame, baseline: str | None) -> list[str]:
    """Why a target has no verdict against ``baseline``: one sentence per such target — or one for all
    when none was compared — counting the measured points that were not compared by status and cause
    (:func:`ycsbctl.results.causes.counts_text`: ``12 degraded (host busy: other programs used CPU)``, one
    group per cause, never one per figure). A point is compared where the runs table's ``compared`` says so
    (ok points, and host-busy ones of rounds that interleave the targets), else (an older folder) when ok."""
    from ycsbctl.results.causes import HOST_BUSY, counts_text

    if baseline is None or not {"workload", "target", "threads", "phase", "status"} <= set(runs.columns):
        return []
    sweep = sweep_rows(runs)
    sweep = sweep[sweep["status"] != "skipped"]  # a target never started is said where it was skipped
    used = compared_mask(sweep)
    rate = pd.to_numeric(sweep["target_rate"], errors="coerce").fillna(0.0) if "target_rate" in sweep else 0.0
    keyed = sweep.assign(target_rate=rate)[used]
    cells = {t: set(map(tuple, g[["workload", "threads", "target_rate"]].itertuples(index=False)))
             for t, g in keyed.groupby("target", sort=False)}
    others = [t for t in dict.fromkeys(sweep["target"]) if t != baseline]
    missing = [t for t in others if not cells.get(t, set()) & cells.get(baseline, set())]
    if not missing:
        return []

    def why(targets: list[str]) -> str:
        mine = sweep["target"].isin(targets)
        parts = counts_text(sweep[mine & ~used])
        names = f"{', '.join(targets[:-1])} and {targets[-1]}"  # the baseline and one other target or more
        points = f"the {int(mine.sum())} measured points of {names}"
        return f"of {points}, {parts}" if parts else f"{points} share no cell"
    rule = "only ok points (and host-busy ones of rounds that interleave the targets) are compared"
    busy = ("; run again in rounds that pair the targets (--order alternate, the default with several targets, or "
            "interleaved: host-busy points are compared there), or when the host is quiet"
            if sweep.get("bottleneck", pd.Series(dtype=str)).eq(HOST_BUSY).any() else "")
    if len(missing) == len(others):
        return [f"No target was compared with {baseline}: {why([baseline, *others])}; {rule}, so there is no "
                f"verdict and no cost table{busy}."]
    return [f"{t} was not compared with {baseline}: {why([baseline, t])}; {rule}{busy}." for t in missing]
