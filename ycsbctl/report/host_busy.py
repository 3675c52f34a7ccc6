"""The findings' host-busy sentence: said once per cause for every point measured on a busy host, with how
many points and how busy the host was (the range of foreign CPU, or of steal, over those points, % of one
core) — never one sentence per point, each with its own percentage."""

from __future__ import annotations

import pandas as pd

from ycsbctl.results.causes import HOST_BUSY, cause
from ycsbctl.results.frames import sweep_phase


def _range(values: pd.Series) -> str:
    """``44–172%`` (rounded, % of one core), ``about 44%`` when the ends round alike; empty without a value."""
    v = pd.to_numeric(values, errors="coerce").dropna()
    if not len(v):
        return ""
    low, high = round(float(v.min())), round(float(v.max()))
    return f"about {low}%" if low == high else f"{low}–{high}%"


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


def host_busy_findings(runs: pd.DataFrame, cores: float | None = None) -> list[str]:
    """One sentence per host-busy cause (:func:`ycsbctl.results.causes.cause`) of the runs degraded by a busy
    host: how many points of the workloads' sweeps (a load's status is its table's), which, and how busy the host
    was during them (``cores``: the host's, for scale)."""
    if not len(runs) or not {"workload", "phase", "status", "bottleneck", "target", "threads"} <= set(runs.columns):
        return []  # not a sweep's runs table (a frame made by hand): nothing to say
    if len(runs):
        runs = runs[runs["phase"] == runs["workload"].map({w: sweep_phase(runs, w) for w in runs["workload"].unique()})]
    busy = runs[host_busy_runs(runs)]
    if not len(busy):
        return []
    errors = busy["error"] if "error" in busy else pd.Series(None, index=busy.index, dtype=object)
    causes = pd.Series([cause("degraded", HOST_BUSY, e) for e in errors], index=busy.index)
    out = []
    of = f" of the {len(runs)}" if len(busy) < len(runs) else ""
    scale = f" (the host has {cores:g} cores)" if cores else ""
    for name, g in busy.groupby(causes, sort=False):
        n = f"{len(g)}{of} point{'s' if len(g) != 1 else ''} ({_who(g)})"
        foreign = _range(g["host_foreign_pct"]) if "host_foreign_pct" in g else ""
        steal = _range(g["host_steal_pct"]) if "host_steal_pct" in g else ""
        if name.endswith("other programs used CPU") and foreign:
            how = f"other programs used {foreign} of a core{scale} during them"
        elif "steal" in name and steal:
            how = f"the hypervisor gave {steal} of a core to other machines (steal){scale} during them"
        else:
            how = name.removeprefix("host busy: ") if name.startswith("host busy: ") else "the host was busy"
        out.append(f"{n} {'were' if len(g) != 1 else 'was'} measured while the host was busy: {how}. They are "
                   "degraded, not failed: their figures "
                   "are shown, marked, and each is compared like an ok point only in rounds that interleave the "
                   "targets.")
    return out
