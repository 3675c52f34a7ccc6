"""The rate figure of a workload swept over offered rates (``--target-rate`` ladder or ``--slo``):
latency percentiles against the *achieved* throughput — the "hockey stick" — one curve per target
(and thread count). Past the knee, offered rates the server cannot take pile up at its capacity while
latency climbs, so the curve bends up (and back) where the server saturates.

With an SLO search, the latency each tried rate was judged on (the intended one, see
:mod:`ycsbctl.results.slo`) is overlaid — passed ●, failed ✕ — with the objective as a horizontal
line and the rate found as a vertical one.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, NullFormatter

from ycsbctl.report.plot_style import FAILED_COLOR, kilo, latency_unit, legend_below, titles
from ycsbctl.results.frames import Experiment, sweep_phase
from ycsbctl.results.run_columns import op_key

PASS_COLOR = "#1B7837"


def rate_swept(exp: Experiment, workload: str) -> bool:
    """Whether ``workload``'s points ran at more than one offered rate (a ladder or an SLO search)."""
    runs = exp.runs[(exp.runs["workload"] == workload) & (exp.runs["phase"] == sweep_phase(exp.runs, workload))]
    rates = pd.to_numeric(runs.get("target_rate", pd.Series(dtype=float)), errors="coerce")
    return bool(rates.notna().any()) and len(set(rates.fillna(0.0))) > 1


def rate_latency_figure(exp: Experiment, workload: str, colors: dict[str, str], op: str = "all",
                        subtitle: str = "") -> Figure | None:
    """p50 (dashed) and p99 (solid) latency of ``op`` (``all``: every operation merged) vs achieved
    ops/s, one curve per target × thread count, ordered by offered rate (unpaced last)."""
    runs = exp.runs[(exp.runs["workload"] == workload) & (exp.runs["phase"] == sweep_phase(exp.runs, workload))
                    & exp.runs["throughput_ops"].notna()]
    p50, p99 = f"{op_key(op)}_p50_us", f"{op_key(op)}_p99_us"
    if runs.empty or p99 not in runs:
        return None
    runs = runs.assign(_rate=pd.to_numeric(runs["target_rate"], errors="coerce").fillna(math.inf))
    searches = [s for s in exp.manifest.slo_searches if s.get("workload") == workload]
    judged = [t for s in searches for t in s.get("tried", []) if t.get("latency_us") is not None]
    top = max([float(runs[p99].max())] + [float(t["latency_us"]) for t in judged if math.isfinite(t["latency_us"])])
    div, unit = latency_unit(top)
    fig = Figure(figsize=(9, 5.6))
    ax = fig.add_subplot()
    handles: list[Any] = []
    several = runs["threads"].nunique() > 1
    for target in [t for t in colors if t in set(runs["target"])]:
        c = colors[target]
        for threads, g in runs[runs["target"] == target].groupby("threads"):
            g = g.groupby("_rate", as_index=False)[["throughput_ops", p50, p99]].mean().sort_values("_rate")
            name = f"{target}, {threads} threads" if several else target
            ax.plot(g["throughput_ops"], g[p99] / div, "-o", color=c, lw=2, ms=5)
            if p50 in g:
                ax.plot(g["throughput_ops"], g[p50] / div, "--s", color=c, lw=1.3, ms=4, mfc="white")
            handles += [Line2D([], [], color=c, lw=2, marker="o", label=f"{name} p99"),
                        Line2D([], [], color=c, lw=1.3, ls="--", marker="s", mfc="white", label=f"{name} p50")]
    for s in searches:
        c = colors.get(s["target"], "#000")
        for t in s.get("tried", []):
            if t.get("achieved_ops") is None or t.get("latency_us") is None or not math.isfinite(t["latency_us"]):
                continue
            ax.scatter([t["achieved_ops"]], [t["latency_us"] / div], s=70, zorder=6,
                       marker="o" if t["passed"] else "X", facecolors="none" if t["passed"] else FAILED_COLOR,
                       edgecolors=PASS_COLOR if t["passed"] else "black")
        if s.get("found_rate"):
            ax.axvline(s["found_rate"], color=c, lw=1, ls=":")
            ax.annotate(f"{s['target']}: {s['found_rate']:,.0f} ops/s", (s["found_rate"], 1), xycoords=("data", "axes fraction"),
                        xytext=(3, -12), textcoords="offset points", fontsize=7.5, color=c, rotation=90, va="top")
    if searches:
        limit = _limit_us(searches[0]["slo"])
        if limit is not None:
            ax.axhline(limit / div, color="#555", lw=1, ls="-.")
        handles += [Line2D([], [], color="#555", lw=1, ls="-.", label=f"SLO {searches[0]['slo']}"),
                    Line2D([], [], ls="", marker="o", mfc="none", mec=PASS_COLOR, ms=8, label="tried: met (judged latency)"),
                    Line2D([], [], ls="", marker="X", color=FAILED_COLOR, mec="black", ms=8, label="tried: missed")]
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g}"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.xaxis.set_major_formatter(FuncFormatter(kilo))
    ax.set_xlim(left=0)
    ax.set_xlabel("achieved throughput (ops/s)")
    ax.set_ylabel(f"latency ({unit}, log scale)")
    ax.grid(alpha=0.3)
    what = "all operations" if op == "all" else op
    titles(fig, f"{workload}: latency ({what}) vs achieved throughput, per offered rate", subtitle)
    legend_below(fig, handles, min(len(handles), 4))
    fig.subplots_adjust(top=0.86, bottom=0.16 + 0.035 * math.ceil(len(handles) / 4), left=0.09, right=0.96)
    return fig


def _limit_us(slo: str) -> float | None:
    from ycsbctl.errors import UserError
    from ycsbctl.results.slo import parse_slo

    try:
        return parse_slo(slo).limit_us
    except UserError:
        return None
