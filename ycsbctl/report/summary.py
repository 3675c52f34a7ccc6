"""Findings written from the data: peaks, ratios, bottlenecks, failures, skipped targets, impostors."""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd

from ycsbctl.report.knee import Plateau, ladder, plateau
from ycsbctl.report.unlike import endpoint_of, serverless_targets, unlike_note
from ycsbctl.results.client_lag import IN_CLIENT_MARK
from ycsbctl.results.frames import Experiment, latency_column, latency_label, sweep_phase
from ycsbctl.results.names import CPU_SATURATED, main_operation
from ycsbctl.results.verdicts import interval_text

# Catalogue names and the product a reader expects behind them.
PRODUCTS = {"redis": "Redis", "redis6": "Redis", "mongodb": "MongoDB", "valkey": "Valkey", "keydb": "KeyDB",
            "dragonfly": "Dragonfly",
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


# The causes ycsbctl.telemetry.why names for a ``latency`` point when a measurement shows one: its why
# line starts with the cause and a colon (tested against that module); any other why line is "cause unknown".
LATENCY_CAUSES = ("throttled", "cpu wait", "off-CPU wait", "network delay")


def latency_cause(why: object) -> str:
    """The cause a point's why line names (one of :data:`LATENCY_CAUSES`), else empty."""
    text = why if isinstance(why, str) else ""
    return next((c for c in LATENCY_CAUSES if text.startswith(f"{c}:")), "")


def bound_words(label: str, cause: str = "") -> str:
    """What a bottleneck label (ycsbctl.telemetry.bottleneck.LABELS) means, as a predicate. ``latency``
    says what was measured (nothing saturated) and the ``cause`` its evidence names (:func:`latency_cause`),
    else that the cause is unknown."""
    if label == "latency":
        return ("latency-bound (nothing measured was saturated; " +
                (f"its evidence names a cause: {cause})" if cause else "cause unknown)"))
    return {"server-cpu": "server-CPU-bound", "client-cpu": "client-CPU-bound", "network": "network-bound",
            "host-cpu": "host-CPU-bound (server and client together use every core)"}.get(label, f"{label}-bound")


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


def _cause(g: pd.DataFrame, label: str, start: int) -> str:
    """The cause the evidence of a ``latency`` ladder names from ``start`` threads on: its busiest point's
    why line's (the point :func:`ycsbctl.report.why_report.why_findings` explains), else empty."""
    if label != "latency" or "why" not in g:
        return ""
    mine = g[(g["threads"] >= start) & pd.to_numeric(g["throughput_mean"], errors="coerce").notna()]
    return latency_cause(mine.loc[mine["throughput_mean"].idxmax(), "why"]) if len(mine) else ""


def _network_unknown(g: pd.DataFrame, start: int) -> bool:
    """Whether a ladder's points from ``start`` threads on could not tell their network share (their
    label's text says ``network unknown``: only the whole host's loopback counters were read)."""
    texts = g.loc[g["threads"] >= start, "bottleneck_text"] if "bottleneck_text" in g else pd.Series(dtype=object)
    return any(isinstance(x, str) and "network unknown" in x for x in texts)


def plateau_from(g: pd.DataFrame, cells: pd.DataFrame | None = None) -> Plateau | None:
    """Where one target's ladder (its rows of a points table) stops growing, as far as the intervals of its
    ``cells`` (its rows of :func:`ycsbctl.results.cells.cell_table`; else the points' own) support it
    (:mod:`ycsbctl.report.knee`)."""
    return plateau(ladder(g, cells))


def _versus(workload: str, lead: str, other: str, verdicts: pd.DataFrame | None) -> tuple[str, str] | None:
    """(``other``'s peak over ``lead``'s as ``0.89× [0.84, 0.95]``, the verdict) from ``workload``'s
    peak-against-peak verdict of the pair (one of them the baseline); None when the pair was not tested."""
    if verdicts is None or not len(verdicts):
        return None
    peak = verdicts[verdicts["at_peak"].astype(bool) & (verdicts["metric"] == "throughput")
                    & (verdicts["workload"] == workload)]
    for target, base, invert in ((other, lead, False), (lead, other, True)):
        r = peak[(peak["target"] == target) & (peak["baseline"] == base)]
        if len(r):
            x = r.iloc[0]
            ratio, lo, hi = (1 / x["ratio"], 1 / x["ci_high"], 1 / x["ci_low"]) if invert else \
                (x["ratio"], x["ci_low"], x["ci_high"])
            ci = interval_text(lo, hi)
            m = x.get("margin_pct")
            verdict = {"better": "a real difference", "worse": "a real difference",
                       "equivalent": f"equivalent within ±{m:.0f} %" if isinstance(m,
                                                                                   float) and m == m else "equivalent",
                       }.get(x["verdict"], x["verdict"])
            if pd.isna(ratio):  # paired rounds, and no round in which both were ok
                return f"no ratio to {lead}'s peak", verdict
            return f"{ratio:.2f}×{ci} of {lead}'s peak", verdict
    return None


MainLatency = Callable[[list[str]], "tuple[str, float] | None"]
Stored = Callable[[str, list[str]], str]


def records_stored(exp: Experiment) -> Stored:
    """For a workload whose operations store several records each (online-status's BATCH-STORE) and a
    point's run ids: `` storing 34,092 users/s``, the records its ok runs stored per second (their mean), as
    the console's line for the point says it beside its operations; empty for any other workload."""
    from ycsbctl.report.variant_study import records_per_second

    units, runs = exp.manifest.record_units or {}, exp.runs

    def of(workload: str, run_ids: list[str]) -> str:
        u = units.get(workload)
        if not u or not len(runs):
            return ""
        ok = runs.loc[runs["run_id"].isin(run_ids) & (runs["status"] == "ok"), "run_id"]
        rates = [r for r in (records_per_second(exp, i, u.get("per_op") or {}) for i in ok) if r == r]
        return f" storing {sum(rates) / len(rates):,.0f} {u.get('unit') or 'records'}/s" if rates else ""

    return of


def main_latency(exp: Experiment, latency: str) -> MainLatency:
    """For a point's run ids: (the operation that dominates its mix, its ``latency`` statistic in µs, the
    mean over the point's ok runs) — the operation the console's line for the point names
    (:func:`ycsbctl.results.names.main_operation`); None without an ok run."""
    stat = latency_column(latency).split("_", 1)[1]  # p99_us, p999_us, mean_us …
    ops, runs = exp.ops, exp.runs

    def of(run_ids: list[str]) -> tuple[str, float] | None:
        ok = set(runs.loc[runs["run_id"].isin(run_ids) & (runs["status"] == "ok"), "run_id"]) if len(runs) else set()
        mine = ops[ops["run_id"].isin(ok)] if len(ops) and stat in ops else ops.iloc[:0]
        counts = pd.to_numeric(mine["operations"], errors="coerce").groupby(mine["op"], sort=False).sum()
        op = main_operation(counts.to_dict())
        if op is None:
            return None
        value = pd.to_numeric(mine.loc[mine["op"] == op, stat], errors="coerce").mean()
        return (op, float(value)) if value == value else None

    return of


def _limit_sentences(pts: pd.DataFrame, workload: str, targets: list[str], cells: pd.DataFrame | None) -> list[str]:
    """What limits each target of one workload's points, from which thread count, and where its throughput stops
    growing as far as the intervals of ``cells`` (else the points' own) support it; targets the same words fit
    share one sentence."""
    out: list[str] = []
    alike: dict[tuple[str, str, str, str], list[str]] = {}
    for t in targets:
        g = pts[pts["target"] == t]
        b = bound_from(g) if len(g) else None
        mine = (cells[(cells["workload"] == workload) & (cells["target"] == t)] if cells is not None and len(g)
                else None)
        flat = plateau_from(g, mine) if len(g) else None
        stops = flat.text(fmt_ops) if flat else ""
        more = f" {stops[:1].upper()}{stops[1:]}: more client threads from there add latency, not throughput."
        if b is None:
            if flat:
                out.append(f"{workload}: {t}:{more}")
            continue
        label, start = b
        where = "at every thread count" if start == int(g["threads"].min()) else f"from {start} threads"
        if label == "latency" and flat and flat.threads <= start:
            # No probe saw a saturated resource, yet more clients bring no more throughput. Say what was
            # NOT saturated (not the network when only the host's loopback counters were read) and the
            # cause the points' evidence names, else that it is unknown: never a guess at it.
            cause = _cause(g, label, start)
            why = (f"its evidence names a cause: {cause}" if cause
                   else "the cause is unknown (nothing ycsbctl measures shows it)")
            seen = (f"its CPU, the client's nor the host's was saturated {where} (the network is unknown: only the "
                    "host's loopback counters, which include other processes' traffic)" if _network_unknown(g, start)
                    else f"its CPU, the client's, the host's nor the network was saturated {where}")
            out.append(f"{workload}: {t}: {stops}, yet neither {seen}: {why}, and more client threads do not help.")
            continue
        more = more if flat else ""
        if label == "client-cpu":
            share = pd.to_numeric(g.loc[g["threads"] >= start, "server_cpu_share"], errors="coerce")
            both = (f" The server was saturated too ({share.min():.0%}+ of the CPU it can use): client and server "
                    "compete for this host's cores, so neither figure is the server's own limit."
                    if len(share) and share.notna().all() and (share >= CPU_SATURATED).all() else "")
            out.append(f"{workload}: {t} is limited by the client (load generator) CPU {where}: those points are a "
                       f"lower bound of what {t} can do.{both}{more}")
        else:  # targets that the same words fit share one sentence
            alike.setdefault((label, where, more, _cause(g, label, start)), []).append(t)
    for (label, where, more, cause), who in alike.items():
        subject = f"{', '.join(who[:-1])} and {who[-1]} are" if len(who) > 1 else f"{who[0]} is"
        out.append(f"{workload}: {subject} {bound_words(label, cause)} {where}.{more}")
    return out


def workload_findings(points: pd.DataFrame, workload: str, targets: list[str], latency: str,
                      verdicts: pd.DataFrame | None = None,
                      serverless: frozenset[str] | set[str] = frozenset(),
                      main: MainLatency | None = None, stored: Stored | None = None,
                      cells: pd.DataFrame | None = None) -> list[str]:
    """Sentences about one workload: who peaks where, by how much (with the interval (at its family's level) and verdict
    of the peak-against-peak comparison where ``verdicts`` hold one), what limits each target, what failed. With
    ``main`` (:func:`main_latency`), a peak's latency is its main operation's, named, as on the console; else every
    operation's; with ``stored`` (:func:`records_stored`), a batch's records per second follow its operations per
    second. Where throughput stops growing is said only as far as the intervals of ``cells``
    (:func:`ycsbctl.results.cells.cell_table`; else the points' own) support it (:mod:`ycsbctl.report.knee`)."""
    pts = points[(points["workload"] == workload) & (points["status"] != "skipped")]
    out: list[str] = []
    peaks = []
    for t in targets:
        g = pts[(pts["target"] == t) & pts["throughput_mean"].notna()]
        if len(g):
            peaks.append((t, g.loc[g["throughput_mean"].idxmax()]))
    peaks.sort(key=lambda x: -x[1]["throughput_mean"])
    lab = latency_label(latency)

    def ids(q: pd.Series) -> list[str] | None:
        return list(q["run_ids"]) if isinstance(q.get("run_ids"), list) else None

    def tail(q: pd.Series) -> str:
        named = main(ids(q) or []) if main is not None and ids(q) else None
        return f"{named[0]} {lab} {fmt_us(named[1])}" if named else f"{lab} {fmt_us(q['latency_mean'])}"

    def rate(q: pd.Series) -> str:
        return fmt_ops(q["throughput_mean"]) + (stored(workload, ids(q) or []) if stored is not None and ids(q) else "")

    if peaks:
        lead, p = peaks[0]
        s = f"{workload}: {lead} peaks at {rate(p)} at {int(p['threads'])} threads ({tail(p)})"
        others = []
        for t, q in peaks[1:]:
            if not q["throughput_mean"] > 0:
                continue
            at = f"{rate(q)} at {int(q['threads'])} threads, {tail(q)}"
            vs = _versus(workload, lead, t, verdicts)
            if verdicts is None:
                others.append(f"{p['throughput_mean'] / q['throughput_mean']:.1f}× {t} ({at})"
                              f"{unlike_note(lead, t, serverless)}")
            elif vs is None:
                others.append(f"{t} ({at}; not tested against {lead}: see each against the baseline)")
            else:
                others.append(f"{t} ({at}): {vs[0]}, {vs[1]}{unlike_note(lead, t, serverless)}")
        out.append(s + (", " + "; ".join(others) if others else "") + ".")
    out += _limit_sentences(pts, workload, targets, cells)
    said_once = pts["status"].eq("degraded") & pts["bottleneck"].eq("host-busy")  # host_busy_findings: once, grouped
    for _, p in pts[pts["status"].isin(["failed", "interrupted", "degraded"]) & ~said_once].iterrows():
        bad = p["reps"] - p["ok"]
        what = f"{bad} of {p['reps']} repetitions" if p["reps"] > 1 else "the run"
        why = "why" if p["status"] == "degraded" else "first error"
        err = f" ({why}: {p['error']})" if p["error"] else ""
        out.append(f"{workload}: {p['target']} at {int(p['threads'])} threads: {what} {p['status']}{err}.")
    return out


def findings(exp: Experiment, points: pd.DataFrame, latency: str = "p99",
             verdicts: pd.DataFrame | None = None, headlines: bool = True) -> list[str]:
    """Every finding of the report, most important first (``verdicts``: ``exp.verdicts(latency)``,
    computed here when not given); ``headlines=False`` leaves out the study's answer
    (:func:`ycsbctl.report.study_headlines.study_headlines`) for a page that shows it above."""
    out: list[str] = []
    from ycsbctl.report.folder_status import status_findings

    out += status_findings(str(exp.status), exp.runs, [s.target for s in exp.manifest.skipped_targets],
                           exp.manifest.host.get("cores"))
    for sub in exp.manifest.substitutions:
        out.append(f"{sub.note}.".replace("..", "."))
    servers = exp.manifest.servers
    for t in exp.targets:
        name, warning = server_identity(t, servers.get(t) or endpoint_of(exp, t))
        if warning:
            out.append(f"{t} was answered by {name} — {warning}: read its numbers as {name.split(' (')[0]}'s.")
    from ycsbctl.report.deployment_findings import (
        encryption_findings,
        fork_findings,
        persistence_findings,
        replication_findings,
        shard_findings,
    )
    from ycsbctl.report.host_busy import host_busy_findings
    from ycsbctl.report.scaling_report import scaling_findings
    from ycsbctl.report.server_traits import server_endpoints, trait_differences
    from ycsbctl.report.study_headlines import study_headlines
    from ycsbctl.report.why_report import why_findings

    verdicts = exp.verdicts(latency) if verdicts is None else verdicts
    if headlines:  # the answer first: the disturbances', the variants', then which target is faster where
        out += study_headlines(exp, verdicts)
    out += trait_differences(exp)
    serverless = serverless_targets(exp)
    main, stored, cells = main_latency(exp, latency), records_stored(exp), exp.cells(latency)
    for w in exp.workloads:
        out += workload_findings(points, w, exp.targets, latency, verdicts, serverless, main, stored, cells)
    out += host_busy_findings(exp.runs)
    out += why_findings(points, exp.targets)
    out += scaling_findings(points, exp.targets)
    out += persistence_findings(exp.runs, exp.targets)
    out += fork_findings(exp.runs, exp.docs, exp.targets)
    out += replication_findings(exp.runs, exp.targets)
    out += encryption_findings(server_endpoints(exp))
    out += shard_findings(exp.runs, exp.targets)
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
        said = runs[runs[column].map(lambda w: isinstance(w, str) and bool(w))]
        # a store inside the client (SQLite): its loop's lag is the store's own time, said apart and never the client's
        store_own = said[said[column].map(lambda w: w.startswith(IN_CLIENT_MARK))]
        if len(store_own):
            points = list(dict.fromkeys(point_name(r, runs) for r in store_own.to_dict("records")))
            out.append(f"{len(points)} point(s) ({', '.join(points[:4])}{' and more' if len(points) > 4 else ''}) ran "
                       f"a store inside the client — {store_own.iloc[0][column]}. Their latency is the store's.")
        flagged = said[~said.index.isin(store_own.index)]
        if not len(flagged):
            continue
        # a point repeated over rounds is named once, with how many of its runs carry the warning
        points = list(dict.fromkeys(point_name(r, runs) for r in flagged.to_dict("records")))
        names = ", ".join(points[:4])
        more = f" and {len(points) - 4} more" if len(points) > 4 else ""
        runs_text = f" in {len(flagged)} runs" if len(flagged) != len(points) else ""
        out.append(f"{len(points)} point(s) ({names}{more}){runs_text} carry latency of the client's own making — "
                   f"{flagged.iloc[0][column]}. {consequence}")
    return out


def point_name(run: dict, runs: pd.DataFrame) -> str:
    """The point of a run of ``runs`` (the one all its repetitions share) as a person tells it from the others:
    ``redis workloadb 8 threads``, ``redis workloadb 8 threads (load)`` (the dataset's load before a run-phase
    ladder)."""
    load = run.get("phase") == "load" and "phase" in runs and sweep_phase(runs, run["workload"]) == "run"
    return f"{run['target']} {run['workload']} {int(run['threads'])} threads{' (load)' if load else ''}"
