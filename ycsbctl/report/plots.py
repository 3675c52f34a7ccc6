"""The report's figures (matplotlib object API, PNG via Agg, no pyplot state), saved as PNG and SVG.

Here: throughput and latency against threads, the latency percentile spectrum, and
:func:`render_plots`, which saves every figure of a result folder — these, the rate figure
(:mod:`~ycsbctl.report.rate_plots`) and the resource figures (:mod:`~ycsbctl.report.resource_plots`).
Each ``*_figure`` function returns a :class:`matplotlib.figure.Figure` (or None when the data
is absent) so the notebook can show the same figures; how they look is
:mod:`~ycsbctl.report.plot_style` (the Okabe–Ito palette, legends below the axes).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import numpy as np
import pandas as pd

# Figures are built with the object API and never touch pyplot, so no GUI backend is ever loaded:
# savefig renders PNG through Agg and SVG through the SVG backend, and a notebook keeps its own backend.
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, NullFormatter

from ycsbctl.report.many_store import store_study
from ycsbctl.report.many_store_figure import store_study_figure
from ycsbctl.report.plot_style import (
    FAILED_COLOR,
    OP_STYLES,
    PlotFile,
    axis_top,
    duration,
    experiment_colors,
    far_apart,
    kilo,
    latency_unit,
    legend_below,
    save,
    spread_labels,
    threads_axis,
    titles,
)
from ycsbctl.report.rate_plots import rate_latency_figure, rate_swept
from ycsbctl.report.resource_plots import cpu_figure, footprint_figure, timeseries_figure
from ycsbctl.report.scaling_report import draw_fit
from ycsbctl.report.variant_study import study_figure, study_rows
from ycsbctl.results import histogram as hdr
from ycsbctl.results.frames import Experiment, latency_label, sweep_phase
from ycsbctl.results.names import OPERATIONS
from ycsbctl.results.schema import Manifest


def context_line(manifest: Manifest) -> str:
    """``10,000 records · 10 s per point · 3 repetitions · Xeon …, 8 cores`` from what the manifest has
    (the plan's resolved scale: a default run names the profile's record count and duration too)."""
    host = manifest.host
    parts = []
    if manifest.record_count:
        parts.append(f"{manifest.record_count:,} records")
    if manifest.point_duration_s:
        parts.append(f"{manifest.point_duration_s:g} s per point")
    elif manifest.point_operations:
        parts.append(f"{manifest.point_operations:,} operations per point")
    if manifest.repeat > 1:
        parts.append(f"{manifest.repeat} repetitions (mean, bars: 95 % interval)")
    machine = ", ".join(x for x in (str(host.get("cpu_model") or ""),
                                    f"{host['cores']} cores" if host.get("cores") else "") if x)
    if machine:
        parts.append(machine)
    return " · ".join(parts)


def _bars(g: pd.DataFrame, what: str, div: float) -> list:
    """Error bars of ``what`` (throughput or latency) divided by ``div``: the 95 % interval of the
    repetitions where there is one, else their min–max range (zero with one run)."""
    mean = g[f"{what}_mean"]
    lo = g[f"{what}_ci_low"].fillna(g[f"{what}_min"]) if f"{what}_ci_low" in g else g[f"{what}_min"]
    hi = g[f"{what}_ci_high"].fillna(g[f"{what}_max"]) if f"{what}_ci_high" in g else g[f"{what}_max"]
    return [((mean - lo) / div).clip(lower=0), ((hi - mean) / div).clip(lower=0)]


def throughput_latency_figure(points: pd.DataFrame, workload: str, latency: str, colors: dict[str, str],
                              subtitle: str = "") -> Figure | None:
    """The study's figure: throughput (solid, left) and latency (dashed, right) vs threads, per target."""
    pts = points[(points["workload"] == workload) & (points["status"] != "skipped")]
    if pts.empty:
        return None
    if "throughput_seen" not in pts:  # points of an older frame: nothing measured beside the ok runs
        pts = pts.assign(throughput_seen=math.nan)
    label = latency_label(latency)
    fig = Figure(figsize=(9, 5.6))
    ax = fig.add_subplot()
    ax2 = ax.twinx()
    handles = []
    top = 0.0
    fitted = False
    if "latency_seen" not in pts:
        pts = pts.assign(latency_seen=math.nan)
    pts = pts.assign(latency_drawn=pts["latency_mean"].fillna(pts["latency_seen"].where(_measured_degraded(pts))))
    div, unit = latency_unit(float(pd.concat([pts["latency_max"], pts["latency_drawn"]]).max()))
    for target in [t for t in colors if t in set(pts["target"])]:
        g = pts[pts["target"] == target]
        c = colors.get(target, "#000")
        ok = g[g["throughput_mean"].notna()]
        curve = g.assign(y=g["throughput_mean"].fillna(g["throughput_seen"])).dropna(subset=["y"])
        if len(curve) > len(ok):  # degraded and failed points that measured something stay on the curve
            ax.plot(curve["threads"], curve["y"], color=c, lw=1.2, ls=":", zorder=2)
            top = max(top, float(curve["y"].max()))
        _draw_degraded(ax, ax2, g, c, div)
        if len(ok):
            yerr = _bars(ok, "throughput", 1.0)
            ax.errorbar(ok["threads"], ok["throughput_mean"], yerr=yerr, fmt="-o", color=c, capsize=3, lw=2, ms=5)
            fitted = draw_fit(ax, ok, c) or fitted
            top = max(top, float(ok["throughput_max"].max()))
            lat = ok[ok["latency_mean"].notna()]
            if len(lat):
                lerr = _bars(lat, "latency", div)
                ax2.errorbar(lat["threads"], lat["latency_mean"] / div, yerr=lerr, fmt="--s", color=c, mfc="white",
                             capsize=3,
                             lw=1.5, ms=5)
        handles += [Line2D([], [], color=c, lw=2, marker="o", label=f"{target} throughput"),
                    Line2D([], [], color=c, lw=1.5, ls="--", marker="s", mfc="white",
                           label=f"{target} {label} latency")]
    top = top or 1.0
    by_target = pts.groupby("target")
    measured = pts["throughput_mean"].fillna(pts["throughput_seen"].where(_measured_degraded(pts)))
    log_tp = far_apart(measured.groupby(pts["target"]).max())
    log_lat = far_apart(by_target["latency_drawn"].median())
    measured = pts["throughput_mean"].fillna(pts["throughput_seen"])
    # a log axis (far_apart) needs two targets with a positive mean: some throughput is positive then
    floor = float(measured[measured > 0].min()) / 2 if log_tp else 0.02 * top
    # degraded points among mostly ok ones are each named; when most are degraded, the legend says it once
    labels = _mark_points(ax, pts, colors, floor, 2 * int(_measured_degraded(pts).sum()) < int(measured.notna().sum()))
    handles += _legend_marks(pts, fitted)
    threads_axis(ax, sorted(int(t) for t in pts["threads"].unique()))
    if log_tp:
        ax.set_yscale("log")
        ax.set_ylim(floor / 1.5, top * 2)
        ax.yaxis.set_minor_formatter(NullFormatter())
    else:
        ax.set_ylim(0, axis_top(top))
    if log_lat:
        ax2.set_yscale("log")
        ax2.set_ylim(top=ax2.get_ylim()[1] * 2)
        ax2.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g}"))
        ax2.yaxis.set_minor_formatter(NullFormatter())
    else:
        ax2.set_ylim(0, ax2.get_ylim()[1] * 1.1)
    ax.yaxis.set_major_formatter(FuncFormatter(kilo))
    ax.set_ylabel(f"throughput (ops/s{', log scale' if log_tp else ''}), solid")
    ax2.set_ylabel(f"{label} latency ({unit}{', log scale' if log_lat else ''}), dashed")
    ax.grid(axis="y", alpha=0.3)
    titles(fig, f"{workload}: throughput and {label} latency vs client threads", subtitle)
    rows = legend_below(fig, handles, len(handles))
    fig.subplots_adjust(top=0.86, bottom=0.16 + 0.035 * rows, left=0.09, right=0.9)
    spread_labels(fig, labels)
    return fig


def _mark_points(ax: Axes, pts: pd.DataFrame, colors: dict[str, str], floor: float, few_degraded: bool) -> list:
    """The points that are not plain ok ones, marked on the throughput axis (their labels returned, to spread): a
    degraded one that measured is drawn hollow (:func:`_draw_degraded`) and named where ``few_degraded`` (or some of its
    runs were ok); a failed one, or one that measured nothing (at ``floor``), crossed; a client-bound one ringed."""
    labels = []
    for _, p in pts.iterrows():
        c = colors.get(p["target"], "#000")
        y = p["throughput_mean"] if not math.isnan(p["throughput_mean"]) else p["throughput_seen"]
        has_tp = not math.isnan(y)
        y = y if has_tp else floor
        if p["status"] == "degraded" and has_tp:
            if p["ok"] or few_degraded:
                labels.append(ax.annotate(f"{p['target']}: degraded {p['reps'] - p['ok']}/{p['reps']}",
                                          (p["threads"], y),
                                          xytext=(0, 9), textcoords="offset points", ha="center", fontsize=7.5,
                                          color="#8a4b00", zorder=7))
        elif p["status"] in ("failed", "interrupted", "degraded"):
            ax.scatter([p["threads"]], [y], marker="X", s=110, color=FAILED_COLOR, edgecolors="black", zorder=6)
            note = f"{p['status']} {p['reps'] - p['ok']}/{p['reps']}" + ("" if has_tp else ", nothing measured")
            labels.append(ax.annotate(f"{p['target']}: {note}", (p["threads"], y), xytext=(0, 9),
                                      textcoords="offset points",
                                      ha="center", fontsize=7.5, color=FAILED_COLOR, fontweight="bold", zorder=7))
        elif p["bottleneck"] == "client-cpu" and has_tp:
            ax.scatter([p["threads"]], [y], s=260, facecolors="none", edgecolors=c, linewidths=1.2, linestyle=":",
                       zorder=5)
            labels.append(ax.annotate("client-bound", (p["threads"], y), xytext=(0, 11), textcoords="offset points",
                                      ha="center", fontsize=7.5, color="#333"))
    return labels


def _legend_marks(pts: pd.DataFrame, fitted: bool) -> list[Line2D]:
    """The legend entries of the marks the figure holds: crosses, hollow degraded points, the fit, client-bound
    rings."""
    handles = []
    crossed = pts["status"].isin(["failed",
                                  "interrupted"]) | (pts["status"].eq("degraded") & pts["throughput_seen"].isna()
                                                                & pts["throughput_mean"].isna())
    if crossed.any():
        handles.append(Line2D([], [], ls="", marker="X", color=FAILED_COLOR, mec="black", ms=8,
                              label="failed or degraded point (dotted: what it measured; at the bottom: nothing)"))
    if _measured_degraded(pts).any():
        handles.append(Line2D([], [], ls=":", marker="o", color="#555", mfc="white", ms=7, label=DEGRADED_NOTE))
    if fitted:
        handles.append(Line2D([], [], color="#555", ls="-.", lw=1.0, label="Universal Scalability Law fit"))
    if (pts["bottleneck"] == "client-cpu").any():
        handles.append(Line2D([], [], ls="", marker="o", mfc="none", mec="#333", ms=12,
                              label="client-CPU-bound (lower bound)"))
    return handles


DEGRADED_NOTE = "hollow, dotted: degraded point (measured, not under the conditions asked for: see its status)"


def _measured_degraded(pts: pd.DataFrame) -> pd.Series:
    """The points with no ok run whose degraded runs measured operations: drawn hollow, from what they measured."""
    return pts["status"].eq("degraded") & pts["throughput_mean"].isna() & (pts["throughput_seen"] > 0)


def _draw_degraded(ax: Axes, ax2: Axes, g: pd.DataFrame, color: str, div: float) -> None:
    """One target's degraded points (no ok run) hollow on both axes — throughput ○, latency ◇ — at what their runs
    measured, with the latency of every point joined by a dotted line where one of them is degraded."""
    deg = g[_measured_degraded(g)]
    if not len(deg):
        return
    ax.plot(deg["threads"], deg["throughput_seen"], ls="", marker="o", mfc="white", mec=color, mew=1.6, ms=8, zorder=5)
    lat = g[g["latency_drawn"].notna()]
    if len(lat):
        ax2.plot(lat["threads"], lat["latency_drawn"] / div, color=color, ls=":", lw=1.2, zorder=2)
        shown = deg[deg["latency_drawn"].notna()]
        ax2.plot(shown["threads"], shown["latency_drawn"] / div, ls="", marker="D", mfc="white", mec=color, mew=1.4,
                 ms=6, zorder=5)


# Percentile spectrum on a "nines" axis: x = -log10(1 - p/100); 90% -> 1, 99% -> 2 …
_NINES = np.linspace(math.log10(2), 4, 48)


def spectrum_figure(exp: Experiment, workload: str, threads: int, colors: dict[str, str],
                    subtitle: str = "") -> Figure | None:
    """Latency percentile spectrum (p50 → p99.99) per target and operation at ``threads``, from merged HDR."""
    runs = exp.runs
    sel = runs[(runs["workload"] == workload) & (runs["phase"] == sweep_phase(runs, workload))
               & (runs["threads"] == threads) & (runs["status"] == "ok")]
    if sel.empty:
        return None
    fig = Figure(figsize=(9, 5.2))
    ax = fig.add_subplot()
    pcts = [100.0 * (1 - 10 ** -x) for x in _NINES]
    handles = []
    for target in [t for t in exp.targets if t in set(sel["target"])]:
        ids = sel.loc[sel["target"] == target, "run_id"].tolist()
        ops = [op for op in OPERATIONS if op != "READ-MODIFY-WRITE"
               and any(op in exp.run_doc(r).get("histograms", {}) for r in ids)]
        for op in ops:
            h = exp.merged_histogram(ids, op)
            if not h.get_total_count():
                continue
            values = hdr.percentiles_us(h, pcts)
            ax.plot(_NINES, [max(1, values[p]) for p in pcts], color=colors.get(target, "#000"),
                    ls=OP_STYLES.get(op, "-"), lw=1.8)
            handles.append(Line2D([], [], color=colors.get(target, "#000"), ls=OP_STYLES.get(op, "-"),
                                  label=f"{target} {op} ({h.get_total_count():,} ops)"))
    if not handles:
        return None
    ax.set_yscale("log")
    ax.set_xticks([math.log10(2), 1, 2, 3, 4])
    ax.set_xticklabels(["p50", "p90", "p99", "p99.9", "p99.99"])
    ax.set_xlabel("percentile")
    ax.set_ylabel("latency (log scale)")
    ax.yaxis.set_major_formatter(FuncFormatter(duration))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _p: duration(v) if f"{v:g}"[0] in "25" else ""))
    ax.tick_params(axis="y", which="minor", labelsize=7.5)
    ax.grid(True, which="major", alpha=0.3)
    reps = "all repetitions merged" if sel.groupby("target").size().max() > 1 else "one run"
    titles(fig, f"{workload}: latency percentile spectrum at {threads} threads ({reps})", subtitle)
    rows = legend_below(fig, handles, 3)
    fig.subplots_adjust(top=0.86, bottom=0.14 + 0.035 * rows, left=0.1, right=0.97)
    return fig


def peak_run(points: pd.DataFrame, workload: str, target: str) -> str | None:
    """The first run of the target's highest-throughput point in a workload."""
    g = points[(points["workload"] == workload) & (points["target"] == target) & points["throughput_mean"].notna()]
    if g.empty:
        return None
    return g.loc[g["throughput_mean"].idxmax(), "run_ids"][0]


def spectrum_threads_default(points: pd.DataFrame, workload: str, targets: list[str]) -> int | None:
    """Where the first target (in plan order) peaks; the spectrum compares every target there."""
    for t in targets:
        g = points[(points["workload"] == workload) & (points["target"] == t) & points["throughput_mean"].notna()]
        if len(g):
            return int(g.loc[g["throughput_mean"].idxmax(), "threads"])
    return None


def render_plots(exp: Experiment, latency: str, spectrum_threads: int | None = None,
                 points: pd.DataFrame | None = None) -> dict[str, list[PlotFile]]:
    """Every figure of the report, saved under ``<folder>/plots``; keyed by workload, plus ``""`` for the
    experiment-wide ones."""
    plots_dir = exp.path / "plots"
    points = exp.points(latency) if points is None else points
    colors = experiment_colors(exp)
    sub = context_line(exp.manifest)
    cores = exp.manifest.host.get("cores")
    out: dict[str, list[PlotFile]] = {}
    for w in exp.workloads:
        files = out.setdefault(w, [])
        threads = spectrum_threads or spectrum_threads_default(points, w, exp.targets)
        peaks = {t: peak_run(points, w, t) for t in exp.targets}
        figures: list[tuple[str, str, Callable[[], Figure | None]]] = [
            ("throughput-latency", f"{w}: throughput and {latency_label(latency)} latency vs threads",
             partial(throughput_latency_figure, points, w, latency, colors, sub)),
            ("cpu", f"{w}: server and client CPU vs threads", partial(cpu_figure, points, w, cores, colors, sub)),
            ("spectrum", f"{w}: latency percentile spectrum at {threads} threads",
             partial(spectrum_figure, exp, w, threads, colors, sub) if threads else _no_figure),
        ]
        if rate_swept(exp, w):  # points at several offered rates: the hockey stick, not the per-thread figures
            figures = [("rates", f"{w}: latency vs achieved throughput per offered rate",
                        partial(rate_latency_figure, exp, w, colors, "all", sub))]
        figures += [
            ("timeseries", f"{w}: per-second behaviour of each target's peak point",
             partial(timeseries_figure, exp, peaks, colors, f"{w}: per-second behaviour at each target's peak", sub)),
        ]
        for kind, title, make in figures:
            fig = make()
            if fig is not None:
                files.append(save(fig, plots_dir, f"{w}.{kind}", title))
    fig = footprint_figure(exp, colors, sub)
    if fig is not None:
        out[""] = [save(fig, plots_dir, "footprint-network", "Footprint after load and network")]
    fig = store_study_figure(store_study(exp, latency), colors, sub)
    if fig is not None:
        out["store_study"] = [save(fig, plots_dir, "store-study", "Each test of the many-store study on each store")]
    fig = study_figure(study_rows(exp), colors, sub)
    if fig is not None:
        out["variants"] = [save(fig, plots_dir, "variants", "Each variant of the sweep axis on each target")]
    return out


def _no_figure() -> None:
    """No figure to draw (e.g. no thread count for the spectrum)."""
    return None
