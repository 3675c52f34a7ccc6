"""The scaling model in the report: one finding per target and workload whose ladder has at least two
thread counts (:mod:`ycsbctl.results.scaling`), and the fitted curve drawn on the throughput plot where
the law fits."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from ycsbctl.results import scaling


def scaling_findings(points: pd.DataFrame, targets: list[str]) -> list[str]:
    """``workload: target: scaling model …`` for each ladder of two or more thread counts, targets in the
    order given (a single thread count is not a ladder: nothing is said); ladders the law says the same
    of (``too few thread counts (3; …)``) share one line: ``workloada, workloadb: redis, valkey: …``."""
    table = scaling.scaling_table(points)
    rank = {t: i for i, t in enumerate(targets)}
    table = table.assign(_rank=table["target"].map(lambda t: rank.get(t, len(rank)))).sort_values(
        ["workload", "_rank"], kind="stable")
    said: dict[tuple[str, str], list[str]] = {}
    for r in table.itertuples():
        if r.n >= 2:
            said.setdefault((str(r.workload), str(r.text)), []).append(str(r.target))
    # … and workloads whose ladders it says the same of, one line too (a structure study's variants)
    merged: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for (workload, text), who in said.items():
        merged.setdefault((text, tuple(who)), []).append(workload)
    return [f"{', '.join(workloads)}: {', '.join(who)}: {text}." for (text, who), workloads in merged.items()]


def draw_fit(ax: Axes, g: pd.DataFrame, color: str) -> bool:
    """Draw the law fitted to one target's points (``threads``, ``throughput_mean``; only its ``ok``
    unpaced ones where the frame says) as a thin dotted curve over the measured thread range, when it
    fits; whether it was drawn."""
    ok = g[g["status"] == "ok"] if "status" in g else g
    ok = ok[ok["target_rate"].isna()] if "target_rate" in ok else ok
    f = scaling.fit(list(ok["threads"]), list(ok["throughput_mean"]))
    if not f.fits:
        return False
    n = np.geomspace(float(ok["threads"].min()), float(ok["threads"].max()), 100)
    ax.plot(n, scaling.usl(n, f.lam, f.sigma, f.kappa), ls="-.", lw=1.0, color=color, alpha=0.8, zorder=2)
    return True
