"""Findings written from the data: peaks, ratios, bottlenecks, failures, skipped targets, impostors."""

from __future__ import annotations

import math

import pandas as pd

from ycsbctl.results.frames import Experiment, latency_label
from ycsbctl.results.names import CPU_SATURATED

# Catalogue names and the product a reader expects behind them.
PRODUCTS = {"redis": "Redis", "redis6": "Redis", "mongodb": "MongoDB", "valkey": "Valkey", "keydb": "KeyDB", "dragonfly": "Dragonfly",
            "ferretdb": "FerretDB"}
_NO_BOTTLENECK = {None, "", "none", "unknown", "ok", "stall", "client-stall", "host-busy"}  # not a limit of the server


def fmt_ops(v: float) -> str:
    """Throughput for prose: ``61.2k ops/s``."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    return f"{v / 1000:.1f}k ops/s" if v >= 1000 else f"{v:.0f} ops/s"


def fmt_us(v: float) -> str:
    """Latency for prose: ``850 µs``, ``1.7 ms``, ``2.1 s``."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if v >= 1e6:
        return f"{v / 1e6:.2g} s" if v < 1e7 else f"{v / 1e6:.0f} s"
    if v >= 1000:
        return f"{v / 1000:.1f} ms"
    return f"{v:.0f} µs"


def bound_words(label: str) -> str:
    """What a bottleneck label (ycsbctl.telemetry.bottleneck.LABELS) means, as a predicate."""
    return {"server-cpu": "server-CPU-bound", "client-cpu": "client-CPU-bound", "network": "network-bound",
            "host-cpu": "host-CPU-bound (server and client together use every core)",
            "latency": "latency-bound (no resource saturated: clients wait on round trips)"}.get(label, f"{label}-bound")


def server_name(endpoint: dict | None) -> str:
    """``Redis 7.2.4``: name and version, without repeating a version the name already has."""
    ep = endpoint or {}
    name, version = str(ep.get("server_name") or ""), str(ep.get("server_version") or "")
    return name if version and version in name else f"{name} {version}".strip()


def server_identity(target: str, endpoint: dict | None) -> tuple[str, str | None]:
    """What answered (``FerretDB (mongo-wire, SQLite) 1.24``) and a warning when it is not the product named."""
    ep = endpoint or {}
    name = server_name(ep)
    product = PRODUCTS.get(ep.get("kind") or target)
    if product and ep.get("server_name") and product.lower() not in str(ep["server_name"]).lower():
        return name, f"not {product}"
    return name or "unknown server", None


def bound_from(g: pd.DataFrame) -> tuple[str, int] | None:
    """(label, threads) when every point from ``threads`` up shares one bottleneck label."""
    g = g.sort_values("threads")
    labels = list(g["bottleneck"])
    if not labels or labels[-1] in _NO_BOTTLENECK or (isinstance(labels[-1], float) and math.isnan(labels[-1])):
        return None
    label, start = labels[-1], len(labels) - 1
    while start > 0 and labels[start - 1] == label:
        start -= 1
    return label, int(g["threads"].iloc[start])


PLATEAU_GAIN = 1.10  # throughput that never again rises more than 10 % above a point's has stopped growing


def plateau_from(g: pd.DataFrame) -> tuple[int, float, int, float] | None:
    """(threads, ops/s, last threads, ops/s there) when throughput stops growing before the last thread count.

    The plateau starts at the fewest threads whose throughput no later ok point beats by more than
    :data:`PLATEAU_GAIN`; None when throughput still grows at the end of the ladder."""
    g = g[(g["status"] == "ok") & g["throughput_mean"].notna()].sort_values("threads")
    tp, threads = list(g["throughput_mean"]), [int(t) for t in g["threads"]]
    for i in range(len(tp) - 1):
        if max(tp[i + 1:]) <= PLATEAU_GAIN * tp[i]:
            return threads[i], tp[i], threads[-1], tp[-1]
    return None


def workload_findings(points: pd.DataFrame, workload: str, targets: list[str], latency: str) -> list[str]:
    """Sentences about one workload: who peaks where, by how much, what limits each target, what failed."""
    pts = points[(points["workload"] == workload) & (points["status"] != "skipped")]
    out: list[str] = []
    peaks = []
    for t in targets:
        g = pts[(pts["target"] == t) & pts["throughput_mean"].notna()]
        if len(g):
            peaks.append((t, g.loc[g["throughput_mean"].idxmax()]))
    peaks.sort(key=lambda x: -x[1]["throughput_mean"])
    lab = latency_label(latency)
    if peaks:
        lead, p = peaks[0]
        s = (f"{workload}: {lead} peaks at {fmt_ops(p['throughput_mean'])} at {int(p['threads'])} threads "
             f"({lab} {fmt_us(p['latency_mean'])})")
        others = [f"{p['throughput_mean'] / q['throughput_mean']:.1f}× {t} ({fmt_ops(q['throughput_mean'])} at "
                  f"{int(q['threads'])} threads, {lab} {fmt_us(q['latency_mean'])})"
                  for t, q in peaks[1:] if q["throughput_mean"] > 0]
        out.append(s + (", " + "; ".join(others) if others else "") + ".")
    for t in targets:
        g = pts[pts["target"] == t]
        b = bound_from(g) if len(g) else None
        flat = plateau_from(g) if len(g) else None
        stops = (f"its throughput stops growing at {flat[0]} threads ({fmt_ops(flat[1])}; {fmt_ops(flat[3])} at "
                 f"{flat[2]} threads)" if flat else "")
        more = f" {stops[:1].upper()}{stops[1:]}: more client threads from there add latency, not throughput."
        if b is None:
            if flat:
                out.append(f"{workload}: {t}:{more}")
            continue
        label, start = b
        where = "at every thread count" if start == int(g["threads"].min()) else f"from {start} threads"
        if label == "latency" and flat and flat[0] <= start:
            # No probe saw a saturated resource, yet more clients bring no more throughput: the clients
            # are not merely waiting on round trips (that would scale); something inside the server serialises.
            out.append(f"{workload}: {t} saturates no resource ycsbctl measures (CPU, network) {where}, yet {stops}: "
                       "the limit is inside the server (locks, a single writer, internal queues), not the round "
                       "trips.")
            continue
        more = more if flat else ""
        if label == "client-cpu":
            share = pd.to_numeric(g.loc[g["threads"] >= start, "server_cpu_share"], errors="coerce")
            both = (f" The server was saturated too ({share.min():.0%}+ of the CPU it can use): client and server "
                    "compete for this host's cores, so neither figure is the server's own limit."
                    if len(share) and share.notna().all() and (share >= CPU_SATURATED).all() else "")
            out.append(f"{workload}: {t} is limited by the client (load generator) CPU {where}: those points are a "
                       f"lower bound of what {t} can do.{both}{more}")
        else:
            out.append(f"{workload}: {t} is {bound_words(label)} {where}.{more}")
    for _, p in pts[pts["status"].isin(["failed", "interrupted", "degraded"])].iterrows():
        bad = p["reps"] - p["ok"]
        what = f"{bad} of {p['reps']} repetitions" if p["reps"] > 1 else "the run"
        why = "why" if p["status"] == "degraded" else "first error"
        err = f" ({why}: {p['error']})" if p["error"] else ""
        out.append(f"{workload}: {p['target']} at {int(p['threads'])} threads: {what} {p['status']}{err}.")
    return out


def findings(exp: Experiment, points: pd.DataFrame, latency: str = "p99") -> list[str]:
    """Every finding of the report, most important first."""
    out: list[str] = []
    status = exp.status
    n = int((exp.runs["status"] == "ok").sum()) if len(exp.runs) else 0
    if status in ("interrupted", "running"):
        out.append(f"This experiment is {status}: it stopped before the plan was done; the {n} finished runs are shown.")
    elif status == "partial":
        out.append(f"This experiment is partial: a target was skipped or points failed (below); {n} runs are ok.")
    for sub in exp.manifest.substitutions:
        out.append(f"{sub.note}.".replace("..", "."))
    servers = exp.manifest.servers
    for t in exp.targets:
        name, warning = server_identity(t, servers.get(t) or _endpoint_of(exp, t))
        if warning:
            out.append(f"{t} was answered by {name} — {warning}: read its numbers as {name.split(' (')[0]}'s.")
    from ycsbctl.report.server_traits import trait_differences

    out += trait_differences(exp)
    for w in exp.workloads:
        out += workload_findings(points, w, exp.targets, latency)
    out += client_lag_findings(exp.runs)
    for s in exp.manifest.skipped_targets:
        reason = s.reason or "no reason recorded"
        fix = f" To include it: {s.fix}." if s.fix and s.fix not in reason else ""
        out.append(f"{s.target} was skipped: {reason}.{fix}")
    return out


_OWN_DELAYS = (("client_lag_warning", "Their tail is an upper bound on the server's."),
               ("schedule_lag_warning", "Their intended latency is an upper bound on the server's."))


def client_lag_findings(runs: pd.DataFrame) -> list[str]:
    """One finding per kind of the load generator's own delay (loop lag, late starts) for the points
    whose latency it is partly made of."""
    out = []
    for column, consequence in _OWN_DELAYS:
        if column not in runs or not len(runs):
            continue
        flagged = runs[runs[column].map(lambda w: isinstance(w, str) and bool(w))]
        if not len(flagged):
            continue
        names = ", ".join(f"{r.target} {r.workload} {int(r.threads)} threads" for r in flagged.head(4).itertuples())
        more = f" and {len(flagged) - 4} more" if len(flagged) > 4 else ""
        out.append(f"{len(flagged)} point(s) ({names}{more}) carry latency of the client's own making — "
                   f"{flagged.iloc[0][column]}. {consequence}")
    return out


def _endpoint_of(exp: Experiment, target: str) -> dict | None:
    for doc in exp.docs.values():
        if doc["target"] == target and doc.get("endpoint"):
            return doc["endpoint"]
    return None
