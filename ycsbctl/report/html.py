"""``report.html``: one self-contained page (plots inlined as base64 PNG) rendered with jinja2."""

from __future__ import annotations

import base64
import functools
import json
import math
import os
from pathlib import Path
from typing import Any

import jinja2
import pandas as pd

from ycsbctl.report import plots as plotting
from ycsbctl.report.cost_table import cost_absence, cost_sections
from ycsbctl.report.disturbance_report import event_rows, render_timelines
from ycsbctl.report.folder_status import status_findings
from ycsbctl.report.many_store import store_study, store_study_rows
from ycsbctl.report.profile_report import profile_sections
from ycsbctl.report.resource_plots import network_baseline_gbit, network_used_gbit
from ycsbctl.report.server_traits import differences, settings_text, traits_text
from ycsbctl.report.study_headlines import study_headlines
from ycsbctl.report.summary import findings, fmt_us, server_identity
from ycsbctl.report.variant_study import study_rows
from ycsbctl.report.verdict_table import (
    cells_by_point,
    decision_text,
    level_text,
    noise_text,
    order_text,
    verdict_sections,
)
from ycsbctl.results.frames import Experiment, latency_label, load, sweep_phase
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.names import OPERATIONS, FolderStatus
from ycsbctl.results.run_columns import op_key
from ycsbctl.results.schema import Manifest

DATA_FILES = ("manifest.json", "runs.parquet", "runs.csv", "ops.parquet", "ops.csv", "series.parquet", "series.csv",
              "telemetry.parquet", "telemetry.csv", "series_100ms.parquet", "series_100ms.csv", "events.parquet",
              "events.csv", "slices.parquet", "slices.csv", "histograms/", "ycsb/", "plots/", "profiles/")


def _num(v: Any, digits: int = 0) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    return f"{v:,.{digits}f}"


def _bytes(v: Any) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "—"
    v = float(v)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(v) < 1024 or unit == "TiB":
            return f"{v:,.0f} {unit}" if unit == "B" else f"{v:,.1f} {unit}"
        v /= 1024
    return str(v)


@functools.cache
def environment() -> jinja2.Environment:
    """One per process: the templates compile once (~0.06 s of CPU each time), not at every report
    (jinja still reloads a template whose file changed)."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("ycsbctl.report", "templates"),
                             autoescape=jinja2.select_autoescape(["j2"]),
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters.update(num=_num, bytes=_bytes, us=fmt_us, tojson_pretty=lambda v: json.dumps(v, indent=1, default=str,
                                                                                             sort_keys=True))
    return env


def data_uri(path: Path) -> str:
    """``data:image/png;base64,…`` (or svg+xml) for inlining a file."""
    mime = "image/svg+xml" if path.suffix == ".svg" else "image/png"
    return f"data:{mime};base64,{base64.b64encode(path.read_bytes()).decode('ascii')}"


def _figure(exp: Experiment, pf: plotting.PlotFile) -> dict:
    return {"title": pf.title, "src": data_uri(pf.png), "svg": os.path.relpath(pf.svg, exp.path),
            "png": os.path.relpath(pf.png, exp.path)}


def _ops_of(runs: pd.DataFrame) -> list[str]:
    return [op for op in OPERATIONS if f"{op_key(op)}_p99_us" in runs and runs[f"{op_key(op)}_p99_us"].notna().any()]


def _mean(df: pd.DataFrame, col: str) -> float:
    return float(pd.to_numeric(df[col], errors="coerce").mean()) if col in df and len(df) else math.nan


def _first_text(df: pd.DataFrame, col: str) -> str:
    return next((w for w in df.get(col, []) if isinstance(w, str) and w), "")


MEASURED = ("ok", "degraded")  # statuses whose figures the points table shows (a degraded point's marked as such)


def _client_cpu(runs: pd.DataFrame) -> float:
    """Client CPU (% of one core) of ``runs``: its telemetry's mean, else CPU seconds over the runtime."""
    v = _mean(runs, "client_cpu_pct_mean")
    if math.isnan(v) and len(runs) and {"client_cpu_s", "runtime_ms"} <= set(runs.columns):
        secs = pd.to_numeric(runs["client_cpu_s"], errors="coerce")
        v = float((100.0 * secs / (pd.to_numeric(runs["runtime_ms"], errors="coerce") / 1e3)).mean())
    return v


def _shown_runs(runs: pd.DataFrame, p: pd.Series) -> pd.DataFrame:
    """The runs whose figures a point's row shows: its ok runs, else (no ok run) its degraded ones — measured,
    with the row marked degraded — never a failed run's."""
    mine = runs[runs["run_id"].isin(p["run_ids"])]
    ok = mine[mine["status"] == "ok"]
    return ok if len(ok) else mine[mine["status"] == "degraded"]


def workload_table(exp: Experiment, points: pd.DataFrame, workload: str, cells: pd.DataFrame | None = None) -> dict:
    """Threads × target rows: ops/s (mean, 95 % interval and its warnings from ``cells``), p50/p95/p99 per
    operation, CPU, client lag, bottleneck, status. A point with no ok run but degraded ones shows every column
    from those (row class ``degraded``); a failed point shows what it measured of its throughput only."""
    by_cell = {} if cells is None else cells_by_point(cells, workload)
    runs = exp.runs[(exp.runs["workload"] == workload) & (exp.runs["phase"] == sweep_phase(exp.runs, workload))]
    pts = points[points["workload"] == workload]
    shown = [t for t in exp.targets if ((pts["target"] == t) & (pts["status"] != "skipped")).any()]
    ops = _ops_of(runs[runs["status"].isin(MEASURED)])
    rows = []
    for _, p in pts[pts["target"].isin(shown)].sort_values(["threads", "target_rate"], kind="stable").iterrows():
        ok = _shown_runs(runs, p)
        own = p["ok"] > 0  # the point's own (ok) figures, else its degraded runs'
        rate = None if math.isnan(p["target_rate"]) else float(p["target_rate"])
        interval, noise = noise_text(by_cell.get((p["target"], int(p["threads"]), rate)))
        css = {"failed": "failed", "interrupted": "failed", "degraded": "degraded",
               "skipped": "skipped"}.get(p["status"], "")
        if not css and p["bottleneck"] == "client-cpu":
            css = "client-bound"
        rows.append({
            "threads": int(p["threads"]), "target": p["target"], "throughput": p["throughput_mean"],
            # a point with no ok run still shows what its runs measured, marked with their status
            "seen": p["throughput_seen"] if math.isnan(p["throughput_mean"]) and p["throughput_seen"] > 0 else None,
            "offered": None if math.isnan(p["target_rate"]) else p["target_rate"],
            "interval": interval, "noise": noise, "reps": f"{p['ok']}/{p['reps']}",
            "lat": [[_mean(ok, f"{op_key(op)}_{s}_us") for s in ("p50", "p95", "p99")] for op in ops],
            "server_cpu": p["server_cpu_pct"] if own else _mean(ok, "server_cpu_pct_mean"),
            "client_cpu": p["client_cpu_pct"] if own else _client_cpu(ok),
            "client_lag": _mean(ok, "client_lag_p999_us"),
            "client_lag_warning": _first_text(ok, "client_lag_warning"),
            "schedule_lag": _mean(ok, "schedule_lag_p99_us"),
            "schedule_lag_warning": _first_text(ok, "schedule_lag_warning"),
            "bottleneck": p["bottleneck"] or "", "bottleneck_text": p["bottleneck_text"] or "",
            "why": p.get("why") or "",
            "status": p["status"], "css": css, "error": p["error"] or "",
        })
    rows.sort(key=lambda r: (r["threads"], r["offered"] or math.inf, shown.index(r["target"])))
    hidden = sorted(set(pts["target"]) - set(shown))
    paced = "schedule_lag_p99_us" in runs and bool(runs["schedule_lag_p99_us"].notna().any())
    rated = any(r["offered"] for r in rows)  # a rate ladder or an SLO search: say each point's offered rate
    return {"ops": ops, "rows": rows, "hidden": hidden, "paced": paced, "rated": rated}


def slo_searches(exp: Experiment, workload: str) -> list[dict]:
    """The workload's SLO searches: the rate found per target × threads, and every rate tried in order."""
    from ycsbctl.results.slo import summary_line

    return [{**s, "line": summary_line(s)} for s in exp.manifest.slo_searches if s.get("workload") == workload]


def load_table(exp: Experiment, workload: str) -> list[dict]:
    """The load phase before a run-phase sweep (an insert-only workload's sweep is its load phase: no table)."""
    if sweep_phase(exp.runs, workload) == "load":
        return []
    runs = exp.runs[(exp.runs["workload"] == workload) & (exp.runs["phase"] == "load")]
    runs = runs.assign(_order=runs["target"].map({t: i for i, t in enumerate(exp.targets)})).sort_values("_order")
    return [{"target": r["target"], "threads": int(r["threads"]), "throughput": r["throughput_ops"],
             "operations": r["operations"], "p50": r.get("insert_p50_us"), "p99": r.get("insert_p99_us"),
             "status": r["status"], "error": r["error"] if isinstance(r["error"], str) else ""}
            for _, r in runs.iterrows()]


def failures(exp: Experiment) -> list[dict]:
    out = []
    for _, r in exp.runs[exp.runs["status"].isin(["failed", "interrupted", "degraded"])].iterrows():
        doc = exp.docs.get(r["run_id"], {})
        errs = list(((doc.get("result") or {}).get("errors")) or [])
        if doc.get("error") and doc["error"] not in errs:
            errs.insert(0, doc["error"])
        out.append({"run_id": r["run_id"], "status": r["status"], "errors": errs[:5] or ["no error recorded"]})
    return out


def servers(exp: Experiment) -> list[dict]:
    eps = dict(exp.manifest.servers)
    for doc in exp.docs.values():
        if doc["target"] not in eps and doc.get("endpoint"):
            eps[doc["target"]] = doc["endpoint"]
    out = []
    for t in [t for t in exp.targets if t in eps] + [t for t in eps if t not in exp.targets]:
        ep = eps[t] or {}
        name, warning = server_identity(t, ep)
        out.append({"target": t, "kind": ep.get("kind") or "", "settings": settings_text(ep),
                    "traits": traits_text(ep), "answered_by": name, "warning": warning,
                    "backend": ep.get("backend", ""),
                    "url": ep.get("url", ""), "where": (f"pid {ep['pid']}" if ep.get("pid") else
                    (f"container {str(ep['container_id'])[:12]}" if ep.get("container_id") else ""))
                    + (f" on {ep['host']}" if ep.get("host") else ""),
                    "cpu_limit": ep.get("cpu_limit_cores"), "memory_limit": ep.get("memory_limit_bytes"),
                    "notes": ep.get("notes") or [], "config": ep.get("config") or {}})
    return out


def _kv(d: dict | None) -> list[tuple[str, str]]:
    rows = []
    for k, v in (d or {}).items():
        if isinstance(v, (list, tuple)):
            v = ", ".join(str(x) for x in v)
        elif isinstance(v, dict):
            v = json.dumps(v, default=str)
        rows.append((str(k), "—" if v is None or v == "" else str(v)))
    return rows


def environment_rows(manifest: Manifest) -> list[tuple[str, str]]:
    host = dict(manifest.host)
    if host.get("memory_bytes"):
        host["memory_bytes"] = _bytes(host["memory_bytes"])
    rows = _kv(host)
    rows += [(f"version: {k}", str(v)) for k, v in manifest.versions.items()]
    placed = (manifest.plan or {}).get("placement_resolved") or {}
    if placed.get("text"):  # where the servers and the client ran (ycsbctl.experiment.placement)
        rows.append(("placement", str(placed["text"])))
    for k in ("command_line", "started_at", "ended_at", "status"):
        if getattr(manifest, k):
            rows.append((k.replace("_", " "), str(getattr(manifest, k))))
    return rows


FOOTPRINT_NAMES = {  # the footprint's fields (ycsbctl.telemetry.footprint.Footprint) as a person reads them
    "protocol": "protocol", "records": "records loaded", "db_memory_before_bytes": "memory the store reports, before",
    "db_memory_after_bytes": "memory the store reports, after", "rss_before_bytes": "process RSS, before",
    "rss_after_bytes": "process RSS, after", "rss_source": "RSS read from", "bytes_per_record": "bytes per record",
    "basis": "bytes per record from", "rss_bytes_per_record": "RSS bytes per record", "keys": "keys or documents",
    "data_size_bytes": "data size (dbStats)", "storage_size_bytes": "storage size (dbStats)",
    "index_size_bytes": "index size (dbStats)", "avg_obj_size_bytes": "average document (dbStats)",
}


def footprint_rows(exp: Experiment) -> tuple[list[str], list[dict]]:
    """Targets (columns) and one row per footprint figure, named as :data:`FOOTPRINT_NAMES` says
    (the field's own name beside it), formatted (bytes in KiB/MiB/GiB)."""
    fp = {t: f or {} for t, f in exp.manifest.footprints.items()}
    keys: list[str] = []
    for f in fp.values():
        keys += [k for k in f if k not in keys and k != "target"]
    rows = []
    for k in keys:
        cells = []
        for f in fp.values():
            v = f.get(k)
            if isinstance(v, (int, float)) and not isinstance(v,
                                                              bool) and k.endswith("_bytes") and "per_record" not in k:
                cells.append(_bytes(v))
            elif isinstance(v, float):
                cells.append(_num(v, 1))
            elif isinstance(v, dict):
                cells.append(json.dumps(v, default=str)[:200])
            else:
                cells.append("—" if v is None else f"{v:,}" if isinstance(v, int) else str(v))
        rows.append({"name": FOOTPRINT_NAMES.get(k, k.replace("_", " ")), "field": k, "cells": cells})
    return list(fp), rows


def network_rows(exp: Experiment) -> list[dict]:
    net = exp.manifest.network
    used, base = network_used_gbit(exp), network_baseline_gbit(exp)
    targets = list(dict.fromkeys([*net, *[t for t in exp.targets if t in used or t in base]]))
    return [{"target": t, "baseline": base.get(t), "note": (net.get(t) or {}).get("note", "") or "",
             "used": used.get(t)} for t in targets]


def client_host_rows(exp: Experiment) -> list[dict]:
    """Points driven from several client hosts (``--cluster``): one row per point and host — its
    shard's threads and processes, client CPU (% of one core, and share of the cores it could use),
    how late it started, and whether it was lost."""
    rows = []
    for doc in sorted(exp.docs.values(), key=lambda d: (d.get("target", ""), d.get("workload", ""),
                                                        d.get("phase", ""), d.get("threads", 0))):
        cluster = PhaseResult.doc_fact(doc.get("result"), "cluster") or {}
        for s in cluster.get("shards", []):
            rows.append({"point": f"{doc.get('target')} {doc.get('workload')} {doc.get('phase')} {doc.get('threads')} "
                                  "threads",
                         "host": s.get("name"), "hostname": s.get("host"), "cores": s.get("cores"),
                         "processes": s.get("processes"), "threads": s.get("threads"),
                         "cpu": s.get("client_cpu_pct"), "share": s.get("client_share"),
                         "late": s.get("start_late_ms"), "skew": cluster.get("start_skew_ms"),
                         "lost": s.get("lost") or ""})
    return rows


def client_host_baselines(exp: Experiment) -> list[dict]:
    """iperf3 baselines measured from each client host (``--cluster`` with ``--iperf-server``)."""
    return [{"target": t, "host": h.get("name"), "gbit_s": h.get("gbit_s"), "note": h.get("note") or ""}
            for t, n in (exp.manifest.network or {}).items() for h in (n or {}).get("client_hosts") or []]


NO_RUNS = "no runs"  # the badge of a folder that holds none of its runs, whatever its manifest says


def badge(exp: Experiment) -> str:
    """The report's status badge: the manifest's status (``complete``, ``partial`` …), or
    :data:`NO_RUNS` when the folder holds no run at all (runs/ and runs.parquet gone or empty) though
    its manifest says it finished: "complete" above "No finished points" would contradict itself."""
    if not len(exp.runs) and exp.status != FolderStatus.RUNNING:
        return NO_RUNS
    return str(exp.status)


def build_context(exp: Experiment, plots: dict[str, list[plotting.PlotFile]], points: pd.DataFrame,
                  latency: str, timelines: list[plotting.PlotFile] | None = None) -> dict:
    m = exp.manifest
    verdicts = exp.verdicts(latency)
    cells = exp.cells(latency)
    study = store_study(exp, latency)
    # what of the plan was measured, said once above the answer (not again among the findings below it)
    said = status_findings(str(exp.status), exp.runs, [s.target for s in m.skipped_targets], m.host.get("cores"))
    return {
        "id": exp.id, "status": badge(exp), "manifest_status": str(exp.status), "latency": latency_label(latency),
        "status_line": said[0] if said else "",
        "subtitle": plotting.context_line(m),
        "verdicts": verdict_sections(exp, verdicts, latency), "order": order_text(exp),
        "costs": cost_sections(exp, latency), "costs_missing": cost_absence(exp),
        "alpha": float(m.plan.get("alpha") or 0.05), "level": level_text(verdicts),
        "decision": decision_text(m.plan, verdicts),
        "headlines": study_headlines(exp, verdicts),
        "findings": [f for f in findings(exp, points, latency, verdicts, headlines=False) if f not in said],
        "plan": _kv(m.plan), "environment": environment_rows(m), "servers": servers(exp),
        "server_differences": differences(exp),
        "skipped": m.skipped_targets,
        "workloads": [{"name": w, "figures": [_figure(exp, pf) for pf in plots.get(w, [])],
                       "table": workload_table(exp, points, w, cells), "load": load_table(exp, w),
                       "slo": slo_searches(exp, w)} for w in exp.workloads],
        "failures": failures(exp), "profiles": profile_sections(exp.path, m.profiles),
        "footprint": footprint_rows(exp), "network": network_rows(exp),
        "variants": study_rows(exp), "variant_figures": [_figure(exp, pf) for pf in plots.get("variants", [])],
        "store_study": store_study_rows(study), "store_study_caveat": study.memory_caveat() if study else "",
        "store_study_figures": [_figure(exp, pf) for pf in plots.get("store_study", [])],
        "client_hosts": client_host_rows(exp), "client_baselines": client_host_baselines(exp),
        "general_figures": [_figure(exp, pf) for pf in plots.get("", [])],
        "disturbances": {"figures": [_figure(exp, pf) for pf in timelines or []], "events": event_rows(exp)},
        "files": [f for f in DATA_FILES if (exp.path / f.rstrip("/")).exists()],
        "run_counts": exp.runs["status"].value_counts().to_dict() if len(exp.runs) else {},
    }


def render_report(path: Path, latency: str = "p99", *, spectrum_threads: int | None = None) -> Path:
    """Draw the plots and write ``report.html`` into the result folder; returns its path."""
    exp = load(Path(path))
    points = exp.points(latency)
    plots = plotting.render_plots(exp, latency, spectrum_threads, points)
    timelines = render_timelines(exp, exp.path / "plots", plotting.context_line(exp.manifest))
    html = environment().get_template("report.html.j2").render(**build_context(exp, plots, points, latency, timelines))
    out = exp.path / "report.html"
    tmp = out.with_name("report.html.tmp")
    tmp.write_text(html, encoding="utf-8")
    os.replace(tmp, out)
    return out
