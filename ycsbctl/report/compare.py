"""``ycsbctl compare A B […]``: the same points of several experiments, changes judged against noise.

Points align on target × workload × threads (run phase). Each experiment after the first is
compared with the first (the baseline). A change is called real only when the ranges
(min–max over repetitions) of the two sides do not overlap; with one repetition on either
side there is no noise estimate and the change is shown without a verdict.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ycsbctl.errors import UserError
from ycsbctl.report.summary import server_name
from ycsbctl.results.frames import Experiment, latency_label, load

# Manifest facts that make two experiments measure different things when they differ: the workload's
# properties (-P files, -p pairs), the offered rates, disturbances, the servers' settings and limits too.
ENV_KEYS = {"host": ("cpu_model", "cores", "memory_bytes", "kernel", "thp"),
            "plan": ("targets", "workloads", "threads", "records", "operations", "duration_s", "warmup_s",
                     "backend", "engine", "profile", "repeat", "property_files", "properties", "target_rates",
                     "disturb", "server_settings", "server_cpus", "server_memory", "binaries", "cluster")}
# The plan's scale as it ran (a default run leaves records/duration_s empty: the profile's values apply).
SCALE = {"records": "record_count", "operations": "point_operations", "duration_s": "point_duration_s"}
KEY = ["target", "workload", "threads"]


@dataclass
class Comparison:
    """Baseline and others, the aligned table, and what differs between the experiments."""

    experiments: list[Experiment]
    latency: str
    table: pd.DataFrame
    differences: list[str] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)


def verdict(a: pd.Series, b: pd.Series, prefix: str, higher_is_better: bool) -> str:
    """``better`` / ``worse`` when the min–max ranges are apart, ``within noise`` when they overlap,
    ``no noise estimate`` with fewer than two ok repetitions on a side."""
    am, bm = a[f"{prefix}_mean"], b[f"{prefix}_mean"]
    if any(isinstance(v, float) and math.isnan(v) for v in (am, bm)):
        return "n/a"
    if a["ok"] < 2 or b["ok"] < 2:
        return "no noise estimate"
    if b[f"{prefix}_min"] <= a[f"{prefix}_max"] and a[f"{prefix}_min"] <= b[f"{prefix}_max"]:
        return "within noise"
    up = bm > am
    return "better" if up == higher_is_better else "worse"


def _change(a: float, b: float) -> float:
    return (b - a) / a * 100 if a and not math.isnan(a) and not math.isnan(b) else math.nan


def _spread(p: pd.Series, prefix: str) -> float:
    mean = p[f"{prefix}_mean"]
    return (p[f"{prefix}_max"] - p[f"{prefix}_min"]) / 2 / mean * 100 if p["ok"] > 1 and mean else math.nan


def differences(base: Experiment, other: Experiment) -> list[str]:
    """Environment and plan facts that differ (``host.cores: 2 vs 8``), server versions included."""
    out = []
    for section, keys in ENV_KEYS.items():
        for k in keys:
            if section == "plan" and k in SCALE:
                va, vb = getattr(base.manifest, SCALE[k]), getattr(other.manifest, SCALE[k])
            else:
                va, vb = getattr(base.manifest, section).get(k), getattr(other.manifest, section).get(k)
            va, vb = (None if v in ([], {}) else v for v in (va, vb))  # an older manifest may lack the key
            if va != vb:
                out.append(f"{section}.{k}: {'none' if va is None else va} vs {'none' if vb is None else vb}")
    ka, kb = ([s.target for s in e.manifest.skipped_targets] for e in (base, other))
    if ka != kb:
        out.append(f"skipped targets: {', '.join(map(str, ka)) or 'none'} vs {', '.join(map(str, kb)) or 'none'}")
    va, vb = base.manifest.versions, other.manifest.versions
    out += [f"versions.{k}: {va.get(k)!s} vs {vb.get(k)!s}" for k in sorted(set(va) | set(vb)) if va.get(k) != vb.get(k)]
    sa, sb = base.manifest.servers, other.manifest.servers
    for t in sorted(set(sa) & set(sb)):
        na, nb = server_name(sa[t]), server_name(sb[t])
        if na != nb:
            out.append(f"server {t}: {na} vs {nb}")
    return out


def compare(paths: list[Path], latency: str = "p99") -> Comparison:
    """Align the points of ``paths`` (first = baseline) and judge each change against the noise band."""
    if len(paths) < 2:
        raise UserError("compare needs at least two result folders: ycsbctl compare reports/A reports/B")
    exps = [load(Path(p)) for p in paths]
    base = exps[0]
    bp = base.points(latency).set_index(KEY)
    bp = bp[bp["status"] != "skipped"]
    rows, diffs, unmatched = [], [], []
    for other in exps[1:]:
        label = other.id if other.id != base.id else str(other.path)
        diffs += [f"{label}: {d}" for d in differences(base, other)]
        op = other.points(latency).set_index(KEY)
        op = op[op["status"] != "skipped"]
        for key in bp.index.difference(op.index):
            unmatched.append(f"{'/'.join(map(str, key))} threads only in {base.id}")
        for key in op.index.difference(bp.index):
            unmatched.append(f"{'/'.join(map(str, key))} threads only in {label}")
        for key in bp.index.intersection(op.index, sort=False):
            a, b = bp.loc[key], op.loc[key]
            rows.append({
                "experiment": label, "target": key[0], "workload": key[1], "threads": int(key[2]),
                "base_ops": a["throughput_mean"], "base_ops_spread_pct": _spread(a, "throughput"),
                "ops": b["throughput_mean"], "ops_spread_pct": _spread(b, "throughput"),
                "ops_change_pct": _change(a["throughput_mean"], b["throughput_mean"]),
                "ops_verdict": verdict(a, b, "throughput", True),
                "base_latency_us": a["latency_mean"], "latency_us": b["latency_mean"],
                "latency_change_pct": _change(a["latency_mean"], b["latency_mean"]),
                "latency_verdict": verdict(a, b, "latency", False),
                "base_ok": f"{a['ok']}/{a['reps']}", "ok": f"{b['ok']}/{b['reps']}",
                "status": a["status"] if a["status"] != "ok" else b["status"],
            })
    table = pd.DataFrame(rows)
    if len(table):
        table = table.sort_values(["experiment", "workload", "target", "threads"], kind="stable", ignore_index=True)
    return Comparison(exps, latency, table, diffs, unmatched)


def _pct(v: float) -> str:
    return "—" if v is None or math.isnan(v) else f"{v:+.1f}%"


def _ops(v: float) -> str:
    return "—" if v is None or math.isnan(v) else f"{v:,.0f}"


def _with_spread(v: float, spread: float) -> str:
    return _ops(v) + ("" if math.isnan(spread) else f" ±{spread:.1f}%")


def print_table(c: Comparison, console=None) -> None:
    """The comparison as a rich table, differences first."""
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    from ycsbctl.report.summary_table import wide_console

    console = console or wide_console()
    base = c.experiments[0]
    if c.differences:
        console.print("[bold yellow]The experiments differ:[/] " + escape("; ".join(c.differences)))
    for u in c.unmatched:
        console.print(f"[dim]not compared: {escape(u)}[/]")
    if c.table.empty:
        names = ", ".join(sorted({u.split("/")[1] for u in c.unmatched if u.count("/") >= 2}))
        console.print(f"[bold]nothing to compare:[/] no point (target × workload × threads) is in two of these "
                      f"experiments{escape(f' (workloads: {names})') if names else ''}")
        return
    lab = latency_label(c.latency)
    t = Table(title=f"compared with {escape(base.id)} (change real only outside the min–max band of the repetitions)")
    for col in ("experiment", "workload", "target", "threads", "base ops/s", "ops/s", "Δ ops/s", "", f"base {lab} µs",
                f"{lab} µs", f"Δ {lab}", " ", "status"):
        t.add_column(col, justify="left" if col in ("experiment", "workload", "target", "", " ", "status") else "right")
    style = {"better": "green", "worse": "red", "within noise": "dim", "no noise estimate": "yellow"}
    for _, r in c.table.iterrows():
        # Text cells, never markup: a status, target or verdict is shown as it is, whatever it holds
        cells = [r["experiment"], r["workload"], r["target"], str(r["threads"]),
                 _with_spread(r["base_ops"], r["base_ops_spread_pct"]), _with_spread(r["ops"], r["ops_spread_pct"]),
                 _pct(r["ops_change_pct"]), Text(str(r["ops_verdict"]), style=style.get(r["ops_verdict"], "")),
                 _ops(r["base_latency_us"]), _ops(r["latency_us"]), _pct(r["latency_change_pct"]),
                 Text(str(r["latency_verdict"]), style=style.get(r["latency_verdict"], "")), str(r["status"])]
        t.add_row(*(x if isinstance(x, Text) else Text(str(x)) for x in cells))
    console.print(t)


def render_compare_html(c: Comparison, out: Path) -> Path:
    """Write ``compare.html`` (self-contained, no images) and return its path."""
    from ycsbctl.report.html import environment

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for _, r in c.table.iterrows():
        rows.append({**r.to_dict(), "base_ops_s": _with_spread(r["base_ops"], r["base_ops_spread_pct"]),
                     "ops_s": _with_spread(r["ops"], r["ops_spread_pct"]), "ops_change": _pct(r["ops_change_pct"]),
                     "base_lat": _ops(r["base_latency_us"]), "lat": _ops(r["latency_us"]),
                     "lat_change": _pct(r["latency_change_pct"])})
    exps = [{"id": e.id, "status": e.status, "href": os.path.relpath(e.path / "report.html", out.parent),
             "has_report": (e.path / "report.html").exists(), "started_at": e.manifest.started_at}
            for e in c.experiments]
    html = environment().get_template("compare.html.j2").render(
        experiments=exps, rows=rows, differences=c.differences, unmatched=c.unmatched, latency=latency_label(c.latency))
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(html, encoding="utf-8")
    os.replace(tmp, out)
    return out
