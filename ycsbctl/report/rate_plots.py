"""The rate figure of a workload swept over offered rates (``--target-rate`` ladder or ``--slo``):
latency percentiles against the *achieved* throughput — the "hockey stick" — one curve per target
(and thread count). Past the knee, offered rates the server cannot take pile up at its capacity while
latency climbs, so the curve bends up (and back) where the server saturates.

With an SLO search, the latency each tried rate was judged on (the intended one, see
:mod:`ycsbctl.results.slo`) is overlaid — passed ●, failed ✕ — with the objective as a horizontal
line and the rate found as a vertical one.

Where a point was repeated, bars give the 95 % interval of its repetitions
(:func:`ycsbctl.results.stats.interval`): of each latency percentile (vertical) and of the achieved
throughput (horizontal); a point measured once has none, and the figure says so.
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
from ycsbctl.results.stats import interval

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
    repeated = False
    for target in [t for t in colors if t in set(runs["target"])]:
        c = colors[target]
        for threads, g in runs[runs["target"] == target].groupby("threads"):
            rep = g.groupby("_rate")["throughput_ops"].count()
            repeated = repeated or bool((rep > 1).any())
            g = g.groupby("_rate", as_index=False)[["throughput_ops", p50, p99]].mean().sort_values("_rate")
            name = f"{target}, {threads} threads" if several else target
            ax.plot(g["throughput_ops"], g[p99] / div, "-o", color=c, lw=2, ms=5)
            bars = _bars(runs[(runs["target"] == target) & (runs["threads"] == threads)], g["_rate"], div)
            _draw_bars(ax, g["throughput_ops"], g[p99] / div, bars["throughput_ops"], bars[p99], c,
                       f"ci-{target}-{threads}-p99")
            if p50 in g:
                ax.plot(g["throughput_ops"], g[p50] / div, "--s", color=c, lw=1.3, ms=4, mfc="white")
                _draw_bars(ax, g["throughput_ops"], g[p50] / div, bars["throughput_ops"], bars.get(p50), c,
                           f"ci-{target}-{threads}-p50")
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
            ax.annotate(f"{s['target']}: {s['found_rate']:,.0f} ops/s", (s["found_rate"], 1),
                        xycoords=("data", "axes fraction"),
                        xytext=(3, -12), textcoords="offset points", fontsize=7.5, color=c, rotation=90, va="top")
    if searches:
        limit = _limit_us(searches[0]["slo"])
        if limit is not None:
            ax.axhline(limit / div, color="#555", lw=1, ls="-.")
        handles += [Line2D([], [], color="#555", lw=1, ls="-.", label=f"SLO {searches[0]['slo']}"),
                    Line2D([], [], ls="", marker="o", mfc="none", mec=PASS_COLOR, ms=8,
                           label="tried: met (judged latency)"),
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
    ax.text(0.99, 0.01, "bars: 95 % interval of the repetitions" if repeated else
            "one repetition per point: no interval (--repeat 2 or more draws one)", transform=ax.transAxes,
            ha="right", va="bottom", fontsize=7.5, color="#555", gid="interval-note")
    titles(fig, f"{workload}: latency ({what}) vs achieved throughput, per offered rate", subtitle)
    legend_below(fig, handles, min(len(handles), 4))
    fig.subplots_adjust(top=0.86, bottom=0.16 + 0.035 * math.ceil(len(handles) / 4), left=0.09, right=0.96)
    return fig


def _bars(runs: pd.DataFrame, rates: pd.Series, div: float) -> dict[str, list[tuple[float, float]]]:
    """Per column (throughput, the latency percentiles), per offered rate in ``rates``' order: the (low,
    high) of the 95 % interval of that point's repetitions (latency divided by ``div``); NaN with one."""
    out: dict[str, list[tuple[float, float]]] = {}
    for col in [c for c in runs.columns if c == "throughput_ops" or c.endswith("_us")]:
        scale = 1.0 if col == "throughput_ops" else div
        out[col] = []
        for rate in rates:
            i = interval(list(runs.loc[runs["_rate"] == rate, col]))
            out[col].append((i.low / scale, i.high / scale))
    return out


def _draw_bars(ax: Any, x: pd.Series, y: pd.Series, xci: list[tuple[float, float]] | None,
               yci: list[tuple[float, float]] | None, color: str, gid: str) -> None:
    """Interval bars around the points (x, y) where an interval exists (the ``gid`` names them in the SVG)."""
    if not yci or not xci:
        return
    keep = [i for i, (lo, hi) in enumerate(yci) if lo == lo and hi == hi]
    if not keep:
        return
    xs, ys = x.to_numpy()[keep], y.to_numpy()[keep]
    yerr = [[max(ys[k] - yci[i][0], 0) for k, i in enumerate(keep)],
            [max(yci[i][1] - ys[k], 0) for k, i in enumerate(keep)]]
    xerr = [[max(xs[k] - xci[i][0], 0) if xci[i][0] == xci[i][0] else 0 for k, i in enumerate(keep)],
            [max(xci[i][1] - xs[k], 0) if xci[i][1] == xci[i][1] else 0 for k, i in enumerate(keep)]]
    bars = ax.errorbar(xs, ys, xerr=xerr, yerr=yerr, fmt="none", ecolor=color, elinewidth=1, capsize=2.5, alpha=0.8)
    for n, col in enumerate(bars.lines[2]):
        col.set_gid(f"{gid}-{'xy'[n]}")


def _limit_us(slo: str) -> float | None:
    from ycsbctl.errors import UserError
    from ycsbctl.results.slo import parse_slo

    try:
        return parse_slo(slo).limit_us
    except UserError:
        return None
