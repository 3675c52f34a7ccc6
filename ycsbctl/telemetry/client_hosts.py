"""Client telemetry of a point driven from several hosts (``--cluster``).

The clients ran on other hosts, so no local sampler sees them: each shard measured its own CPU
seconds per second (the engine's ``cpu_s``), which become rows ``source = client-host:<name>``
(``cpu_pct`` in % of one core) next to the server's samples. A point is labelled ``client-cpu``
only by a host whose processes used ≥ 90 % of the cores they could use ("client host c1 at
97 %"); the server's CPU and the network are judged as for any point, and no ``host-cpu`` rule
applies (the clients do not share the server's cores).
"""

from __future__ import annotations

import dataclasses
import socket
import time
from typing import Any

import pandas as pd

from ycsbctl.results.names import CPU_SATURATED
from ycsbctl.results.schema import TelemetrySummary
from ycsbctl.stores import registry
from ycsbctl.telemetry import bottleneck as bn
from ycsbctl.telemetry.capture import Capture


def host_rows(result: Any) -> pd.DataFrame:
    """One row per shard and second: ``t_mono`` at the end of the second, ``cpu_pct`` of the host's
    shard (% of one core), ``host``, ``processes``."""
    cluster = result.cluster
    t0 = result.t_start_mono or 0.0
    wall_minus_mono = time.time() - time.monotonic()
    rows = []
    for s in cluster["shards"]:
        for sec, cpu in sorted((s.get("cpu_s_per_second") or {}).items()):
            t = t0 + int(sec) + 1
            rows.append({"t_mono": t, "t_wall": t + wall_minus_mono, "source": f"client-host:{s['name']}",
                         "cpu_pct": 100.0 * cpu, "host": s["host"], "processes": s["processes"]})
    return pd.DataFrame(rows)


def busiest(result: Any) -> dict[str, Any] | None:
    """The shard whose host used the largest share of its cores (None without CPU figures)."""
    shards = [s for s in result.cluster["shards"] if s.get("client_share") is not None]
    return max(shards, key=lambda s: s["client_share"]) if shards else None


def shares_this_host(shards: list[dict[str, Any]], capture: Capture) -> bool:
    """Whether a cluster point ran anything on this host — a client host that is this machine (its shard's
    hostname is ours: a lab's namespaces, a worker started here) or a server process sampled here —, so that this
    host's other programs (the host-busy check, :func:`ycsbctl.telemetry.why.foreign_busy`) took CPU from what the
    point measured."""
    here = socket.gethostname()
    return capture.server_pid() is not None or any(s.get("host") == here for s in shards)


def cluster_outcome(result: Any, capture: Capture) -> tuple[pd.DataFrame, TelemetrySummary, dict[str, Any]]:
    """(telemetry frame, run-table summary, bottleneck) of a cluster point."""
    rows = host_rows(result)
    frame = pd.concat([capture.frame, rows], ignore_index=True) if len(rows) else capture.frame
    shards = result.cluster["shards"]
    summary = capture.summary()
    top = busiest(result)
    summary = dataclasses.replace(
        summary,
        client_cpu_pct_mean=round(sum(s["client_cpu_pct"] for s in shards), 1),
        client_cpu_pct_max=top["client_cpu_pct"] if top else None,
        client_processes=float(sum(s["processes"] for s in shards)),
        client_cpu_source="cluster",
        client_hosts=len(shards),
        client_host_busiest=top["name"] if top else None,
        client_host_busiest_share=top["client_share"] if top else None,
        start_skew_ms=result.cluster["start_skew_ms"],
    )
    measured = bn.classify(
        server_cpu_pct=summary.server_cpu_pct_mean if registry.get(capture.endpoint.protocol).has_server else None,
        server_cores=bn.server_cores(capture.endpoint, capture.host_cores), client_cpu_pct=None,
        client_cores=None, host_cores=capture.host_cores, net_gbit_s=summary.net_gbit_s_mean,
        baseline_gbit_s=summary.baseline_gbit_s)
    measured.evidence["client_hosts"] = [
        {k: s[k] for k in ("name", "host", "cores", "processes", "client_cpu_pct", "client_share")} for s in shards]
    measured.evidence["host_cpu_saturated"] = False  # the clients do not share the server's cores
    if shares_this_host(shards, capture):  # this host's other programs took CPU from what the point measured
        measured.evidence["host"] = capture.evidence()["host"]
    per_host = ", ".join(f"client host {s['name']} {100 * s['client_share']:.0f} %" for s in shards
                         if s.get("client_share") is not None)
    measured.text = measured.text.replace("client CPU unknown", per_host or "client CPU unknown")
    if top is not None and top["client_share"] >= CPU_SATURATED:
        also = f"; {measured.text}" if measured.label != "latency" else ""
        text = (f"client CPU: client host {top['name']} at {100 * top['client_share']:.0f} % "
                f"({top['client_cpu_pct']:.0f}% of one core, {top['processes']} processes){also}")
        return frame, summary, bn.Bottleneck("client-cpu", measured.evidence, text).to_dict()
    return frame, summary, measured.to_dict()
