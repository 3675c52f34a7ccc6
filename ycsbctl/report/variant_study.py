"""A sweep axis's study (``-p online.structure=hash,set,zset``): each variant against each target —
the peak throughput (ops/s), the latency at that point (µs, every operation merged) and the bytes
each record takes (each variant loads its own dataset: ``manifest.workload_footprints``) — as a
table and a grouped bar figure. Reads the result folder only."""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ycsbctl.results.frames import Experiment
from ycsbctl.results.model import records_per_second as per_second
from ycsbctl.results.names import RunStatus
from ycsbctl.results.variants import split_variant, test_of, variant_label, variant_name

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MEASURED = (RunStatus.OK, RunStatus.DEGRADED)


def variants(exp: Experiment) -> list[tuple[str, str, str]]:
    """(base workload, variant name as run ids say it, its values) of each variant in the plan."""
    out = []
    for w in exp.manifest.workloads:
        base, settings = split_variant(w)
        if settings and test_of(settings) is None:  # a study's tests are compared across stores (many_store)
            out.append((base, variant_name(os.path.basename(base), settings), variant_label(settings)))
    return out


def _num(v: Any) -> float:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else math.nan


def records_per_second(exp: Experiment, run_id: str, per_op: dict[str, int]) -> float:
    """Records (users, for online-status) the OK operations of run ``run_id`` stored per second of its
    measured window: each operation kind's OK count × the records one such operation stores
    (``per_op``, from the manifest's ``record_units``), over the run's runtime; NaN without them."""
    ops = exp.ops[exp.ops["run_id"] == run_id] if len(exp.ops) else exp.ops
    runtime_s = pd.to_numeric(exp.runs.loc[exp.runs["run_id"] == run_id, "runtime_ms"], errors="coerce").max() / 1000
    if not len(ops):
        return math.nan
    ok = pd.to_numeric(ops["return_OK"], errors="coerce").fillna(0)
    return per_second(dict(zip(ops["op"], ok)), per_op, runtime_s)


def study_rows(exp: Experiment) -> list[dict[str, Any]]:
    """One row per variant × target: its run-phase peak (ops/s, threads, p50/p99 µs, status, and the
    records it stored per second where its operations do not each store one: ``records_per_s`` in
    ``unit``) and the bytes per record of its load (with what they were computed from: used_memory,
    RSS, dbStats)."""
    runs = exp.runs
    rows = []
    for base, name, label in variants(exp):
        per = (exp.manifest.workload_footprints or {}).get(name, {})
        units = (exp.manifest.record_units or {}).get(name, {})
        for target in exp.targets:
            g = runs[(runs["workload"] == name) & (runs["target"] == target) & (runs["phase"] == "run")
                     & runs["status"].isin(MEASURED)] if len(runs) else runs
            fp = per.get(target) or {}
            row: dict[str, Any] = {"workload": base, "variant": label, "name": name, "target": target,
                                   "bytes_per_record": _num(fp.get("bytes_per_record")), "basis": fp.get("basis"),
                                   "records": fp.get("records"), "unit": units.get("unit") or "records"}
            if len(g):
                g = g.assign(t=pd.to_numeric(g["throughput_ops"], errors="coerce"))
                best = g.loc[g["t"].idxmax()]
                row.update(throughput=_num(best["t"]), threads=int(best["threads"]), status=best["status"],
                           p50=_num(best.get("all_p50_us")), p99=_num(best.get("all_p99_us")), run_id=best["run_id"],
                           records_per_s=records_per_second(exp, best["run_id"], units.get("per_op") or {}))
            else:
                row.update(throughput=math.nan, threads=None, status="not measured", p50=math.nan, p99=math.nan,
                           run_id=None, records_per_s=math.nan)
            if fp or len(g):
                rows.append(row)
    return rows


def study_figure(rows: list[dict[str, Any]], colors: dict[str, str], subtitle: str = "") -> Figure | None:
    """Grouped bars, one group per variant and one bar per target: peak throughput, p99 at the peak,
    bytes per record."""
    # matplotlib (~0.3 s of CPU) only here: every `ycsbctl run` prints the study's headline rows
    # (study_rows, through study_headlines) and most draw no figure
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    from ycsbctl.report.plot_style import legend_below, titles

    if not rows:
        return None
    df = pd.DataFrame(rows)
    labels = list(dict.fromkeys(df["variant"]))
    targets = list(dict.fromkeys(df["target"]))
    panels = [("peak throughput", "ops/s", "throughput"), ("p99 latency at the peak", "µs", "p99"),
              ("memory per record after load", "bytes / record", "bytes_per_record")]
    fig = Figure(figsize=(13, 4.8))
    axes = fig.subplots(1, len(panels))
    width = 0.8 / max(len(targets), 1)
    x = np.arange(len(labels))
    for ax, (title, unit, col) in zip(axes, panels):
        for i, t in enumerate(targets):
            sub = df[df["target"] == t].set_index("variant")
            vals = [_num(sub[col].get(v)) if v in sub.index else math.nan for v in labels]
            bars = ax.bar(x + (i - (len(targets) - 1) / 2) * width, vals, width, color=colors.get(t, "#777"))
            ax.bar_label(bars, fmt="{:,.0f}", fontsize=7)
        ax.set_xticks(x, labels)
        ax.set_title(title, fontsize=10)
        ax.set_ylabel(unit)
    titles(fig, "each variant of the sweep axis on each target", subtitle)
    legend_below(fig, [Patch(color=colors.get(t, "#777"), label=t) for t in targets], len(targets))
    fig.subplots_adjust(top=0.8, bottom=0.2, wspace=0.3)
    return fig
