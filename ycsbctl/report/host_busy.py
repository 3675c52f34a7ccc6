"""The findings' host-busy sentence: said once per cause for every point measured on a busy host, with how many
points and which — never one sentence per point, each with its own percentage; and how busy the host was over them
(:func:`how_busy`: the mean and largest foreign CPU, or steal, % of one core), which the folder's first finding says
once (:mod:`ycsbctl.report.folder_status`)."""

from __future__ import annotations

import pandas as pd

from ycsbctl.results.causes import HOST_BUSY, cause
from ycsbctl.results.frames import sweep_phase


def _who(runs: pd.DataFrame) -> str:
    """``redis and basic at 1 and 2 threads`` (targets and thread counts of ``runs``, in their order)."""
    def words(xs: list[str]) -> str:
        return xs[0] if len(xs) == 1 else f"{', '.join(xs[:-1])} and {xs[-1]}"
    threads = sorted({int(t) for t in runs["threads"]})
    return (f"{words([str(t) for t in dict.fromkeys(runs['target'])])} at "
            f"{words([str(t) for t in threads])} thread{'s' if threads != [1] else ''}")


def host_busy_runs(runs: pd.DataFrame) -> pd.Series:
    """Which runs are degraded only by a busy host (label ``host-busy``)."""
    if not len(runs) or "bottleneck" not in runs:
        return pd.Series(False, index=runs.index, dtype=bool)
    return runs["status"].eq("degraded") & runs["bottleneck"].eq(HOST_BUSY)


def how_busy(busy: pd.DataFrame, cores: float | None = None) -> str:
    """``other programs used on average 80% of a core, at most 150%, on a host of 2 cores``: the foreign CPU
    runs.parquet holds for the runs ``busy`` (% of one core over each run: their mean and largest), else the
    hypervisor's steal, else "another benchmark measured on this host"; empty for no runs."""
    if not len(busy):
        return ""
    scale = f", on a host of {cores:g} cores" if cores else ""
    for column, who in (("host_foreign_pct", "other programs used"), ("host_steal_pct", "the hypervisor's steal took")):
        v = pd.to_numeric(busy[column], errors="coerce").dropna() if column in busy else pd.Series(dtype=float)
        if len(v) and v.max() > 0:
            if round(float(v.mean())) == round(float(v.max())):
                return f"{who} {v.max():.0f}% of a core{scale}"
            return f"{who} on average {v.mean():.0f}% of a core, at most {v.max():.0f}%{scale}"
    return "another benchmark measured on this host"


def host_busy_findings(runs: pd.DataFrame) -> list[str]:
    """One sentence per host-busy cause (:func:`ycsbctl.results.causes.cause`) of the runs degraded by a busy
    host: how many points of the workloads' sweeps (a load's status is its table's), which, and what that means
    for them. How busy the host was is the folder's first finding's to say, once
    (:func:`ycsbctl.report.folder_status.status_findings`, with :func:`how_busy`)."""
    if not len(runs) or not {"workload", "phase", "status", "bottleneck", "target", "threads"} <= set(runs.columns):
        return []  # not a sweep's runs table (a frame made by hand): nothing to say
    runs = runs[runs["phase"] == runs["workload"].map({w: sweep_phase(runs, w) for w in runs["workload"].unique()})]
    busy = runs[host_busy_runs(runs)]
    if not len(busy):
        return []
    errors = busy["error"] if "error" in busy else pd.Series(None, index=busy.index, dtype=object)
    causes = pd.Series([cause("degraded", HOST_BUSY, e) for e in errors], index=busy.index)
    out = []
    of = f" of the {len(runs)}" if len(busy) < len(runs) else ""
    for name, g in busy.groupby(causes, sort=False):
        one = len(g) == 1
        n = f"{len(g)}{of} point{'' if one and not of else 's'} ({_who(g)})"  # 1 of the 2 points
        how = name.removeprefix("host busy: ") if name.startswith("host busy: ") else "the host was busy"
        out.append(f"{n} {'was' if one else 'were'} measured while the host was busy ({how}). "
                   f"{'It is' if one else 'They are'} degraded, not failed: {'its' if one else 'their'} figures are "
                   f"shown, marked, and {'it is' if one else 'each is'} compared like an ok point only in rounds "
                   "that interleave the targets.")
    return out
