"""The report's figures (matplotlib object API, PNG via Agg, no pyplot state), saved as PNG and SVG.

Each ``*_figure`` function returns a :class:`matplotlib.figure.Figure` (or None when the data
is absent) so the notebook can show the same figures; :func:`render_plots` saves them all.
Colours are the Okabe–Ito palette (colour-blind safe); legends sit below the axes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

# Figures are built with the object API and never touch pyplot, so no GUI backend is ever loaded:
# savefig renders PNG through Agg and SVG through the SVG backend, and a notebook keeps its own backend.
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, NullFormatter

from ycsbctl.report.plot_style import (
    FAILED_COLOR,
    MIB,
    OP_STYLES,
    PlotFile,
    duration,
    far_apart,
    kilo,
    latency_unit,
    legend_below,
    save,
    target_colors,
    threads_axis,
    titles,
)
from ycsbctl.report.rate_plots import rate_latency_figure, rate_swept
from ycsbctl.results import histogram as hdr
from ycsbctl.results.frames import Experiment, latency_label, sweep_phase
from ycsbctl.results.model import OPERATIONS
from ycsbctl.results.schema import Manifest

# Telemetry sources and columns (ycsbctl.telemetry), in order of preference: the server process or
# container first, then what the database reports about itself.
SERVER_SOURCES = ("server-process", "server-container")
DB_SOURCES = ("redis-info", "mongo-status")
CPU_METRICS = ((SERVER_SOURCES, "cpu_pct"), (DB_SOURCES, "db_cpu_pct"))
MEMORY_METRICS = ((SERVER_SOURCES, "rss_bytes"), (DB_SOURCES, "db_rss_bytes"), (DB_SOURCES, "db_used_memory_bytes"))


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
        parts.append(f"{manifest.repeat} repetitions (mean, min–max bars)")
    machine = ", ".join(x for x in (str(host.get("cpu_model") or ""), f"{host['cores']} cores" if host.get("cores") else "") if x)
    if machine:
        parts.append(machine)
    return " · ".join(parts)


def throughput_latency_figure(points: pd.DataFrame, workload: str, latency: str, colors: dict[str, str],
                              subtitle: str = "") -> Figure | None:
    """The study's figure: throughput (solid, left) and latency (dashed, right) vs threads, per target."""
    pts = points[(points["workload"] == workload) & (points["status"] != "skipped")]
    if pts.empty:
        return None
    label = latency_label(latency)
    fig = Figure(figsize=(9, 5.6))
    ax = fig.add_subplot()
    ax2 = ax.twinx()
    handles = []
    top = 0.0
    div, unit = latency_unit(float(pts["latency_max"].max()))
    for target in [t for t in colors if t in set(pts["target"])]:
        g = pts[pts["target"] == target]
        c = colors.get(target, "#000")
        ok = g[g["throughput_mean"].notna()]
        if len(ok):
            yerr = [ok["throughput_mean"] - ok["throughput_min"], ok["throughput_max"] - ok["throughput_mean"]]
            ax.errorbar(ok["threads"], ok["throughput_mean"], yerr=yerr, fmt="-o", color=c, capsize=3, lw=2, ms=5)
            top = max(top, float(ok["throughput_max"].max()))
            lat = ok[ok["latency_mean"].notna()]
            if len(lat):
                lerr = [(lat["latency_mean"] - lat["latency_min"]) / div, (lat["latency_max"] - lat["latency_mean"]) / div]
                ax2.errorbar(lat["threads"], lat["latency_mean"] / div, yerr=lerr, fmt="--s", color=c, mfc="white", capsize=3,
                             lw=1.5, ms=5)
        handles += [Line2D([], [], color=c, lw=2, marker="o", label=f"{target} throughput"),
                    Line2D([], [], color=c, lw=1.5, ls="--", marker="s", mfc="white", label=f"{target} {label} latency")]
    top = top or 1.0
    by_target = pts.groupby("target")
    log_tp = far_apart(by_target["throughput_mean"].max())
    log_lat = far_apart(by_target["latency_mean"].median())
    floor = float(pts["throughput_mean"][pts["throughput_mean"] > 0].min()) / 2 if log_tp else 0.02 * top
    for _, p in pts.iterrows():
        c = colors.get(p["target"], "#000")
        has_tp = not math.isnan(p["throughput_mean"])
        y = p["throughput_mean"] if has_tp else floor
        if p["status"] in ("failed", "interrupted", "degraded"):
            ax.scatter([p["threads"]], [y], marker="X", s=110, color=FAILED_COLOR, edgecolors="black", zorder=6)
            note = p["status"] if not has_tp else f"{p['status']} {p['reps'] - p['ok']}/{p['reps']}"
            ax.annotate(f"{p['target']}: {note}", (p["threads"], y), xytext=(0, 9), textcoords="offset points",
                        ha="center", fontsize=7.5, color=FAILED_COLOR, fontweight="bold")
        elif p["bottleneck"] == "client-cpu" and has_tp:
            ax.scatter([p["threads"]], [y], s=260, facecolors="none", edgecolors=c, linewidths=1.2, linestyle=":", zorder=5)
            ax.annotate("client-bound", (p["threads"], y), xytext=(0, 11), textcoords="offset points", ha="center",
                        fontsize=7.5, color="#333")
    if pts["status"].isin(["failed", "interrupted", "degraded"]).any():
        handles.append(Line2D([], [], ls="", marker="X", color=FAILED_COLOR, mec="black", ms=8, label="failed or degraded point"))
    if (pts["bottleneck"] == "client-cpu").any():
        handles.append(Line2D([], [], ls="", marker="o", mfc="none", mec="#333", ms=12, label="client-CPU-bound (lower bound)"))
    threads_axis(ax, sorted(int(t) for t in pts["threads"].unique()))
    if log_tp:
        ax.set_yscale("log")
        ax.set_ylim(floor / 1.5, top * 2)
        ax.yaxis.set_minor_formatter(NullFormatter())
    else:
        ax.set_ylim(0, _top(top))
    if log_lat:
        ax2.set_yscale("log")
        ax2.set_ylim(top=ax2.get_ylim()[1] * 2)
        ax2.yaxis.set_major_formatter(FuncFormatter(lambda v, _p: f"{v:g}"))
        ax2.yaxis.set_minor_formatter(NullFormatter())
    else:
        ax2.set_ylim(bottom=0)
        ax2.set_ylim(0, ax2.get_ylim()[1] * 1.1)
    ax.yaxis.set_major_formatter(FuncFormatter(kilo))
    ax.set_ylabel(f"throughput (ops/s{', log scale' if log_tp else ''}), solid")
    ax2.set_ylabel(f"{label} latency ({unit}{', log scale' if log_lat else ''}), dashed")
    ax.grid(axis="y", alpha=0.3)
    titles(fig, f"{workload}: throughput and {label} latency vs client threads", subtitle)
    legend_below(fig, handles, len(handles))
    fig.subplots_adjust(top=0.86, bottom=0.16 + 0.035 * math.ceil(len(handles) / 4), left=0.09, right=0.9)
    return fig


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
    legend_below(fig, handles, 3)
    fig.subplots_adjust(top=0.86, bottom=0.14 + 0.035 * math.ceil(len(handles) / 3), left=0.1, right=0.97)
    return fig


def _server_metric(tel: pd.DataFrame, metrics: tuple) -> tuple[pd.DataFrame, str] | None:
    """Samples of the first (sources, column) in ``metrics`` that has values: frame with ``value``, and its name."""
    if tel.empty or "source" not in tel:
        return None
    for sources, col in metrics:
        if col not in tel:
            continue
        g = tel[tel["source"].isin(sources)]
        v = pd.to_numeric(g[col], errors="coerce")
        if v.notna().any():
            return g.assign(value=v)[v.notna()], f"{g['source'].iloc[0]} {col}"
    return None


def peak_run(points: pd.DataFrame, workload: str, target: str) -> str | None:
    """The first run of the target's highest-throughput point in a workload."""
    g = points[(points["workload"] == workload) & (points["target"] == target) & points["throughput_mean"].notna()]
    if g.empty:
        return None
    return g.loc[g["throughput_mean"].idxmax(), "run_ids"][0]


def _whole_seconds(exp: Experiment, run_id: str, overall: pd.DataFrame) -> pd.DataFrame:
    """Drop the run's last second when the run ended inside it: its rate is that of a fraction of a second."""
    r = (exp.run_doc(run_id).get("result") or {})
    end_s = float(r.get("warmup_s") or 0.0) + float(r.get("runtime_ms") or 0.0) / 1000.0
    if end_s <= 0:
        return overall
    return overall[overall["second"] + 1 <= end_s + 0.05]


def _top(x: float) -> float:
    """An upper axis limit 15% above ``x`` (1 when there is nothing to show)."""
    x = float(x)
    return x * 1.15 if math.isfinite(x) and x > 0 else 1.0


def timeseries_figure(exp: Experiment, peaks: dict[str, str | None], colors: dict[str, str], title: str,
                      subtitle: str = "") -> Figure | None:
    """Per-second throughput and p99 (top) with server CPU and memory (bottom) per run (target → run id,
    None for a target without one); warm-up shaded."""
    run_ids = {t: r for t, r in peaks.items() if r and len(exp.series_of(r))}
    if not run_ids:
        return None
    n = len(run_ids)
    fig = Figure(figsize=(max(6.0, 4.6 * n), 6.2))
    axes = fig.subplots(2, n, sharex="col", squeeze=False)
    for i, (target, run_id) in enumerate(run_ids.items()):
        c = colors.get(target, "#000")
        s = exp.series_of(run_id)
        overall = s[s["op"] == "OVERALL"] if (s["op"] == "OVERALL").any() else s.groupby("second", as_index=False).agg(
            operations=("operations", "sum"), p99_us=("p99_us", "max"), warmup=("warmup", "max"))
        whole = _whole_seconds(exp, run_id, overall)
        overall = whole if len(whole) else overall  # a point shorter than a second keeps its one row
        div, unit = latency_unit(float(overall["p99_us"].max()))
        top, bottom = axes[0][i], axes[1][i]
        warm = overall.loc[overall["warmup"].astype(bool), "second"]
        for ax in (top, bottom):
            if len(warm):
                ax.axvspan(0, float(warm.max()) + 1, color="#999", alpha=0.18, lw=0)
            ax.grid(alpha=0.3)
        top.plot(overall["second"] + 0.5, overall["operations"], color=c, lw=2, marker=".")
        top.set_ylim(0, _top(overall["operations"].max()))
        top.yaxis.set_major_formatter(FuncFormatter(kilo))
        top.set_title(f"{target}: {run_id}", fontsize=8.5)
        t2 = top.twinx()
        t2.plot(overall["second"] + 0.5, overall["p99_us"] / div, color=c, ls="--", lw=1.3)
        t2.set_ylim(0, _top(overall["p99_us"].max() / div))
        if i == 0:
            top.set_ylabel("ops/s (solid)")
        t2.set_ylabel(f"p99 latency ({unit}, dashed)")
        tel = exp.telemetry_of(run_id)
        cpu = _server_metric(tel, CPU_METRICS)
        mem = _server_metric(tel, MEMORY_METRICS)
        if cpu is not None:
            bottom.plot(cpu[0]["t_s"], cpu[0]["value"], color=c, lw=1.8)
        bottom.set_ylim(bottom=0)
        b2 = bottom.twinx()
        if mem is not None:
            b2.plot(mem[0]["t_s"], mem[0]["value"] / MIB, color="#555", ls="--", lw=1.3)
        b2.set_ylim(bottom=0)
        if i == 0:
            bottom.set_ylabel("server CPU (% of one core, solid)")
        if i == n - 1:
            b2.set_ylabel("server memory (MiB, dashed)")
        if cpu is None and mem is None:
            bottom.text(0.5, 0.5, "no server telemetry", transform=bottom.transAxes, ha="center", color="#777")
        bottom.set_xlabel("seconds since the run started (grey: warm-up)")
    titles(fig, title, subtitle)
    fig.subplots_adjust(top=0.84, bottom=0.1, left=0.08, right=0.9, wspace=0.45, hspace=0.25)
    return fig


def cpu_figure(points: pd.DataFrame, workload: str, cores: int | None, colors: dict[str, str],
               subtitle: str = "") -> Figure | None:
    """Server CPU (solid) and client CPU (dashed) in % of one core vs threads, per target."""
    pts = points[(points["workload"] == workload) & (points["status"] != "skipped")]
    if pts.empty or (pts["server_cpu_pct"].isna().all() and pts["client_cpu_pct"].isna().all()):
        return None
    fig = Figure(figsize=(9, 5.2))
    ax = fig.add_subplot()
    handles = []
    for target in [t for t in colors if t in set(pts["target"])]:
        g = pts[pts["target"] == target]
        c = colors.get(target, "#000")
        if g["server_cpu_pct"].notna().any():
            ax.plot(g["threads"], g["server_cpu_pct"], "-o", color=c, lw=2)
            handles.append(Line2D([], [], color=c, lw=2, marker="o", label=f"{target} server CPU"))
        if g["client_cpu_pct"].notna().any():
            ax.plot(g["threads"], g["client_cpu_pct"], "--s", color=c, mfc="white", lw=1.5)
            handles.append(Line2D([], [], color=c, ls="--", marker="s", mfc="white", label=f"{target} client CPU"))
    ax.axhline(100, color="#777", ls=":", lw=1)
    ax.annotate("one core", (0.01, 100), xycoords=("axes fraction", "data"), xytext=(0, 3), textcoords="offset points",
                fontsize=7.5, color="#555")
    if cores:
        ax.axhline(100 * cores, color="#333", ls=":", lw=1)
        ax.annotate(f"all {cores} cores", (0.01, 100 * cores), xycoords=("axes fraction", "data"), xytext=(0, 3),
                    textcoords="offset points", fontsize=7.5, color="#333")
    threads_axis(ax, sorted(int(t) for t in pts["threads"].unique()))
    top = max(float(np.nanmax(pts[["server_cpu_pct", "client_cpu_pct"]].to_numpy(dtype=float))), 100 * (cores or 1))
    ax.set_ylim(0, top * 1.12)
    ax.set_ylabel("CPU (% of one core)")
    ax.grid(axis="y", alpha=0.3)
    titles(fig, f"{workload}: server and client CPU vs client threads", subtitle)
    legend_below(fig, handles, 4)
    fig.subplots_adjust(top=0.86, bottom=0.24, left=0.09, right=0.97)
    return fig


def fp_value(f: dict | None, key: str) -> float | None:
    """A footprint figure by name, with or without the ``_bytes`` suffix (``db_memory_after[_bytes]``)."""
    f = f or {}
    v = f.get(f"{key}_bytes", f.get(key))
    return float(v) if isinstance(v, (int, float)) else None


def network_used_gbit(exp: Experiment) -> dict[str, float]:
    """Per target, the highest mean network rate of an ok run (Gbit/s, busier direction)."""
    r = exp.runs[exp.runs["status"] == "ok"]
    if "net_gbit_s_mean" in r:
        v = pd.to_numeric(r["net_gbit_s_mean"], errors="coerce")
    elif "net_bytes_per_s_mean" in r:
        v = pd.to_numeric(r["net_bytes_per_s_mean"], errors="coerce") * 8 / 1e9
    else:
        return {}
    return {t: float(x) for t, x in v.groupby(r["target"]).max().dropna().items()}


def network_baseline_gbit(exp: Experiment) -> dict[str, float]:
    """Per target, the iperf3 baseline (Gbit/s) from the manifest, else from the runs' telemetry summary."""
    out = {t: float(n["gbit_s"]) for t, n in exp.manifest.network.items()
           if isinstance(n, dict) and isinstance(n.get("gbit_s"), (int, float))}
    if "baseline_gbit_s" in exp.runs:
        for t, v in pd.to_numeric(exp.runs["baseline_gbit_s"], errors="coerce").groupby(exp.runs["target"]).max().items():
            if t not in out and not math.isnan(v):
                out[t] = float(v)
    return out


def footprint_figure(exp: Experiment, colors: dict[str, str], subtitle: str = "") -> Figure | None:
    """Memory after load (bytes per record, MiB) and network used vs the iperf3 baseline, per target."""
    fp = exp.manifest.footprints
    panels: list[tuple[str, str, dict[str, Any], tuple[str, str] | None]] = []
    bpr = {t: fp_value(f, "bytes_per_record") for t, f in fp.items()}
    bpr = {t: v for t, v in bpr.items() if v is not None}
    if bpr:
        panels.append(("bytes per record after load", "bytes / record", bpr, None))
    mem = {t: (fp_value(f, "db_memory_after"), fp_value(f, "rss_after")) for t, f in fp.items()}
    mem = {t: v for t, v in mem.items() if any(x is not None for x in v)}
    if mem:
        panels.append(("memory after load", "MiB", mem, ("reported by the server", "process RSS")))
    used, base = network_used_gbit(exp), network_baseline_gbit(exp)
    if used or base:
        targets = [t for t in exp.targets if t in used or t in base] + [t for t in base if t not in exp.targets]
        panels.append(("network: peak used vs iperf3 baseline", "Gbit/s",
                       {t: (used.get(t), base.get(t)) for t in targets}, ("used (busiest point)", "iperf3 baseline")))
    if not panels:
        return None
    fig = Figure(figsize=(4.2 * len(panels) + 0.6, 4.6))
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, (title, unit, data, pair) in zip(axes, panels):
        names = list(data)
        x = np.arange(len(names))
        if pair is None:
            bars = ax.bar(x, [data[t] for t in names], color=[colors.get(t, "#777") for t in names])
            ax.bar_label(bars, fmt="{:,.0f}", fontsize=7.5)
        else:
            scale = MIB if unit == "MiB" else 1
            a = [np.nan if data[t][0] is None else data[t][0] / scale for t in names]
            b = [np.nan if data[t][1] is None else data[t][1] / scale for t in names]
            for bars in (ax.bar(x - 0.2, a, 0.4, color=[colors.get(t, "#777") for t in names], label=pair[0]),
                         ax.bar(x + 0.2, b, 0.4, color="white", edgecolor=[colors.get(t, "#777") for t in names],
                                hatch="//", label=pair[1])):
                ax.bar_label(bars, fmt="{:,.3g}", fontsize=7.5)
            ax.legend(fontsize=7.5, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2)
        ax.set_xticks(x)
        ax.set_xticklabels(names, fontsize=8.5)
        ax.set_title(title, fontsize=9.5)
        ax.set_ylabel(unit)
        ax.grid(axis="y", alpha=0.3)
    titles(fig, "Footprint after load and network", subtitle)
    fig.subplots_adjust(top=0.8, bottom=0.2, left=0.08, right=0.98, wspace=0.35)
    return fig


def spectrum_threads_default(points: pd.DataFrame, workload: str, targets: list[str]) -> int | None:
    """Where the first target (in plan order) peaks; the spectrum compares every target there."""
    for t in targets:
        g = points[(points["workload"] == workload) & (points["target"] == t) & points["throughput_mean"].notna()]
        if len(g):
            return int(g.loc[g["throughput_mean"].idxmax(), "threads"])
    return None


def render_plots(exp: Experiment, latency: str = "p99", spectrum_threads: int | None = None,
                 points: pd.DataFrame | None = None) -> dict[str, list[PlotFile]]:
    """Every figure of the report, saved under ``<folder>/plots``; keyed by workload, plus ``""`` for the
    experiment-wide ones."""
    plots_dir = exp.path / "plots"
    points = exp.points(latency) if points is None else points
    colors = target_colors(exp.targets)
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
    return out


def _no_figure() -> None:
    """No figure to draw (e.g. no thread count for the spectrum)."""
    return None
