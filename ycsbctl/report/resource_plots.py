"""The report's figures of what the servers and clients used: per-second behaviour of each target's
peak point (throughput and p99 with server CPU and memory), CPU against threads, and the footprint
after the load with the network used against its iperf3 baseline. Each returns a
:class:`matplotlib.figure.Figure`, or None when the data is absent."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter

from ycsbctl.report.plot_style import MIB, axis_top, kilo, latency_unit, legend_below, threads_axis, titles
from ycsbctl.report.unlike import UNLIKE_MARK, unlike_bases
from ycsbctl.results.frames import Experiment
from ycsbctl.results.names import DB_SOURCES, SERVER_SOURCES

# Telemetry columns of the server, in order of preference (see the sources in results/names.py).
CPU_METRICS = ((SERVER_SOURCES, "cpu_pct"), (DB_SOURCES, "db_cpu_pct"))
MEMORY_METRICS = ((SERVER_SOURCES, "rss_bytes"), (DB_SOURCES, "db_rss_bytes"), (DB_SOURCES, "db_used_memory_bytes"))


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


def _whole_seconds(exp: Experiment, run_id: str, overall: pd.DataFrame) -> pd.DataFrame:
    """Drop the run's last second when the run ended inside it: its rate is that of a fraction of a second."""
    r = (exp.run_doc(run_id).get("result") or {})
    end_s = float(r.get("warmup_s") or 0.0) + float(r.get("runtime_ms") or 0.0) / 1000.0
    if end_s <= 0:
        return overall
    return overall[overall["second"] + 1 <= end_s + 0.05]


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
        top.set_ylim(0, axis_top(overall["operations"].max()))
        top.yaxis.set_major_formatter(FuncFormatter(kilo))
        top.set_title(f"{target}: {run_id}", fontsize=8.5)
        t2 = top.twinx()
        t2.plot(overall["second"] + 0.5, overall["p99_us"] / div, color=c, ls="--", lw=1.3)
        t2.set_ylim(0, axis_top(overall["p99_us"].max() / div))
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


DEGRADED_CPU_NOTE = "hollow, dotted: degraded point (measured, not under the conditions asked for)"


def _with_degraded_cpu(pts: pd.DataFrame) -> pd.DataFrame:
    """``pts`` with ``server_cpu``/``client_cpu`` (% of one core): each point's ok runs' CPU, else — a point with
    no ok run whose degraded runs measured (``degraded_only``) — what those runs used."""
    def col(name: str, default: Any = math.nan) -> pd.Series:  # a points frame made by hand may lack a column
        return pts[name] if name in pts else pd.Series(default, index=pts.index)
    only = col("status", "ok").eq("degraded") & col("throughput_mean").isna() & (col("throughput_seen") > 0)
    return pts.assign(degraded_only=only, server_cpu=col("server_cpu_pct").fillna(col("server_cpu_seen").where(only)),
                      client_cpu=col("client_cpu_pct").fillna(col("client_cpu_seen").where(only)))


def cpu_figure(points: pd.DataFrame, workload: str, cores: int | None, colors: dict[str, str],
               subtitle: str = "") -> Figure | None:
    """Server CPU (solid) and client CPU (dashed) in % of one core vs threads, per target."""
    pts = _with_degraded_cpu(points[(points["workload"] == workload) & (points["status"] != "skipped")])
    if pts.empty or (pts["server_cpu"].isna().all() and pts["client_cpu"].isna().all()):
        return None
    fig = Figure(figsize=(9, 5.2))
    ax = fig.add_subplot()
    handles = []
    for target in [t for t in colors if t in set(pts["target"])]:
        g = pts[pts["target"] == target]
        c = colors.get(target, "#000")
        hollow = g[g["degraded_only"]]
        if g["server_cpu"].notna().any():
            if len(hollow):  # joined dotted; the ok points filled, the degraded ones hollow
                ax.plot(g["threads"], g["server_cpu"], ":", color=c, lw=1.2)
                ax.plot(hollow["threads"], hollow["server_cpu"], "o", mfc="white", mec=c, mew=1.6, ms=8)
            ax.plot(g["threads"], g["server_cpu_pct"], "-o" if hollow.empty else "o", color=c, lw=2)
            handles.append(Line2D([], [], color=c, lw=2, marker="o", label=f"{target} server CPU"))
        if g["client_cpu"].notna().any():
            if len(hollow):
                ax.plot(g["threads"], g["client_cpu"], ":", color=c, lw=1.2)
                ax.plot(hollow["threads"], hollow["client_cpu"], "D", mfc="white", mec=c, mew=1.4, ms=6)
            ax.plot(g["threads"], g["client_cpu_pct"], "--s" if hollow.empty else "s", color=c, mfc="white", lw=1.5)
            handles.append(Line2D([], [], color=c, ls="--", marker="s", mfc="white", label=f"{target} client CPU"))
    if pts["degraded_only"].any():
        handles.append(Line2D([], [], ls=":", marker="o", color="#555", mfc="white", ms=7, label=DEGRADED_CPU_NOTE))
    ax.axhline(100, color="#777", ls=":", lw=1)
    ax.annotate("one core", (0.01, 100), xycoords=("axes fraction", "data"), xytext=(0, 3), textcoords="offset points",
                fontsize=7.5, color="#555")
    if cores:
        ax.axhline(100 * cores, color="#333", ls=":", lw=1)
        ax.annotate(f"all {cores} cores", (0.01, 100 * cores), xycoords=("axes fraction", "data"), xytext=(0, 3),
                    textcoords="offset points", fontsize=7.5, color="#333")
    threads_axis(ax, sorted(int(t) for t in pts["threads"].unique()))
    top = max(float(np.nanmax(pts[["server_cpu", "client_cpu"]].to_numpy(dtype=float))), 100 * (cores or 1))
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
        for t, v in pd.to_numeric(exp.runs["baseline_gbit_s"],
                                  errors="coerce").groupby(exp.runs["target"]).max().items():
            if t not in out and not math.isnan(v):
                out[t] = float(v)
    return out


def footprint_figure(exp: Experiment, colors: dict[str, str], subtitle: str = "") -> Figure | None:
    """Memory after load (bytes per record, MiB) and network used vs the iperf3 baseline, per target."""
    fp = exp.manifest.footprints
    panels: list[tuple[str, str, dict[str, Any], tuple[str, str] | None]] = []
    bpr = {t: fp_value(f, "bytes_per_record") for t, f in fp.items()}
    bpr = {t: v for t, v in bpr.items() if v is not None}
    # what the stores report (bytes per record comes from it too): unlike things said on each panel and the figure
    unlike = unlike_bases(fp, list(fp))
    mark = UNLIKE_MARK if unlike else ""
    if bpr:
        panels.append(("bytes per record after load" + mark, "bytes / record", bpr, None))
    mem = {t: (fp_value(f, "db_memory_after"), fp_value(f, "rss_after")) for t, f in fp.items()}
    mem = {t: v for t, v in mem.items() if any(x is not None for x in v)}
    if mem:
        panels.append(("memory after load" + mark, "MiB", mem, ("reported by the store", "process RSS")))
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
    if unlike:
        fig.text(0.5, 0.012, unlike, ha="center", va="bottom", fontsize=8.5, color="#9a3b00")
    fig.subplots_adjust(top=0.8, bottom=0.26 if unlike else 0.2, left=0.08, right=0.98, wspace=0.35)
    return fig
