"""The report's disturbances: a timeline per disturbed point (throughput and p99 per 100 ms, each
event marked and labelled, its stall shaded, its slowed window lightly, the client's own loop lag beside) and the events
table comparing targets (from events.parquet and series_100ms.parquet)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from ycsbctl.report.plot_style import PlotFile, axis_top, experiment_colors, kilo, latency_unit, save, titles
from ycsbctl.results.events import charge_role, event_label, is_open
from ycsbctl.results.frames import Experiment
from ycsbctl.results.names import CLIENT_LAG

STALL_COLOR = "#D55E00"


def timeline_figure(exp: Experiment, run_id: str, color: str = "#0072B2", subtitle: str = "") -> Figure | None:
    """Throughput (top) and p99 with the client's loop lag (bottom) per 100 ms of one run, seconds
    into the measured window; each event a vertical line with its label, its stall shaded."""
    fine = exp.fine_series_of(run_id)
    if not len(fine):
        return None
    events = exp.events_of(run_id)
    result = exp.run_doc(run_id).get("result") or {}
    warmup = float(result.get("warmup_s") or 0.0)
    end = warmup + float(result.get("duration_s") or math.inf)
    fine = fine[fine["t_s"].astype(float) < end - 1e-9]  # the part-interval after the window's end
    overall = fine[fine["op"] == "OVERALL"]
    lag = fine[fine["op"] == CLIENT_LAG]
    x = overall["t_s"].astype(float) - warmup + 0.05  # the middle of each interval
    fig = Figure(figsize=(9.0, 5.6))
    top, bottom = fig.subplots(2, 1, sharex=True)
    top.plot(x, overall["ops_per_s"], color=color, lw=1.4, drawstyle="steps-mid")
    top.set_ylim(0, axis_top(overall["ops_per_s"].max()))
    top.yaxis.set_major_formatter(FuncFormatter(kilo))
    top.set_ylabel("ops/s per 100 ms")
    div, unit = latency_unit(float(pd.concat([overall["p99_us"], lag["max_us"]]).max()))
    bottom.plot(x, overall["p99_us"] / div, color=color, lw=1.4, drawstyle="steps-mid", label="p99 of the operations")
    bottom.plot(lag["t_s"].astype(float) - warmup + 0.05, lag["max_us"] / div, color="#777", lw=1.0, ls=":",
                drawstyle="steps-mid", label="client loop lag (max)")
    bottom.set_yscale("log")
    bottom.set_ylabel(f"latency ({unit}, log)")
    bottom.set_xlabel("seconds into the measured window (before 0: warm-up)")
    bottom.legend(loc="upper right", fontsize=8, frameon=False)
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
        if warmup:
            ax.axvspan(float(x.min()) - 0.05, 0, color="#999", alpha=0.18, lw=0)
    for n, (_, e) in enumerate(events.iterrows()):
        start = _float(e.get("started_s"))
        if math.isnan(start):
            continue
        for ax in (top, bottom):
            ax.axvline(start, color="#000", lw=0.9, ls="--")
            until = _float(e.get("affected_end_s")) - warmup  # the affected window (until the store was back)
            lasted = _float(e.get("during_s")) > 0.1 + 1e-9  # longer than its own interval: it slowed the traffic
            if (_float(e.get("slow_s")) > 0 or lasted or is_open(e.get("window_open"))) and until > start:
                ax.axvspan(start, until, color=STALL_COLOR, alpha=0.08, lw=0)
            stall = _float(e.get("stall_s"))
            if stall and not math.isnan(stall):
                s0 = _float(e.get("stall_start_s")) - warmup
                ax.axvspan(s0, s0 + stall, color=STALL_COLOR, alpha=0.25, lw=0)
        top.annotate(_label(e), (start, top.get_ylim()[1]), xytext=(3, -4 - 11 * (n % 3)), textcoords="offset points",
                     fontsize=7.5, va="top", bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none",
                                                   "alpha": 0.8})
    titles(fig, f"{exp.run_doc(run_id)['target']}: {run_id}", subtitle)
    fig.subplots_adjust(top=0.86, bottom=0.1, left=0.1, right=0.97, hspace=0.12)
    return fig


def _float(v: Any) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def _label(e: pd.Series) -> str:
    took = _float(e.get("command_s"))
    stall = _float(e.get("stall_s"))
    parts = [str(e["event"])]
    if not math.isnan(took):
        parts.append(f"command {took * 1000:,.0f} ms")
    if not math.isnan(stall):
        parts.append(f"stall {stall * 1000:,.0f} ms")
    slow = _float(e.get("slow_s"))
    if slow > 0:
        parts.append(f"slowed {slow * 1000:,.0f} ms")
    if is_open(e.get("window_open")):
        parts.append("not back by the end")
    return ", ".join(parts)


def render_timelines(exp: Experiment, plots_dir: Path, subtitle: str = "") -> list[PlotFile]:
    """One timeline per run with events, saved as ``timeline.<run>.png/svg``."""
    out = []
    colors = experiment_colors(exp)
    runs = list(dict.fromkeys(exp.events["run_id"])) if len(exp.events) else []
    for run_id in runs:
        doc = exp.run_doc(run_id)
        fig = timeline_figure(exp, run_id, colors.get(doc["target"], "#0072B2"), subtitle)
        if fig is not None:
            stem = doc.get("file_stem", run_id)
            out.append(save(fig, plots_dir, f"timeline.{stem}", f"{doc['target']}: {run_id} per 100 ms"))
    return out


def event_rows(exp: Experiment) -> list[dict[str, Any]]:
    """The events table of the report: one row per event × run, targets side by side per event; ``charge``
    says what an overlap did to the row's figures (:mod:`ycsbctl.results.overlap`)."""
    if not len(exp.events):
        return []
    order = {t: i for i, t in enumerate(exp.targets)}
    ev = exp.events.assign(_t=exp.events["target"].map(order)).sort_values(["event", "occurrence", "_t"], kind="stable")
    rows = []
    for _, e in ev.iterrows():
        row = {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in e.items() if k != "_t"}
        for name in ("command", "server", "stall", "slow"):  # s -> ms for the table
            v = row.get(f"{name}_s")
            row[f"{name}_ms"] = None if v is None else float(v) * 1000
        row["charge"] = _charge_words(row)
        rows.append(row)
    return rows


def _charge_words(row: dict[str, Any]) -> str:
    """``overlapped B: charged here`` and its kin (empty for an event alone)."""
    label = event_label(str(row["event"]), int(row["occurrence"]))
    role = charge_role(label, row.get("overlaps"), row.get("charged_to"))
    return {"alone": "", "charged": f"overlapped {row.get('overlaps')}: charged here (the server's evidence)",
            "joint": f"overlapped {row.get('overlaps')}: charged jointly here",
            "shared": f"overlapped {row.get('overlaps')}: charged jointly on "
                      f"{str(row.get('charged_to')).split('+')[0]}",
            "elsewhere": f"overlapped: charged to {row.get('charged_to')} (the server's evidence)"}[role]
