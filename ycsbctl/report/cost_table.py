"""What each deployment costs: every target against the baseline — throughput, latency, client and
server CPU per operation — as ratio [interval] and verdict per workload × threads
(:func:`ycsbctl.results.verdicts.cost_verdicts`). Shown when a target is a deployment of a server
(its own settings, TLS, several processes)."""

from __future__ import annotations

import pandas as pd

from ycsbctl.report.server_traits import server_endpoints
from ycsbctl.report.verdict_table import level_text, ratio_text, verdict_word
from ycsbctl.results.cells import metrics
from ycsbctl.results.frames import Experiment
from ycsbctl.results.verdicts import (
    CPU_METRICS,
    baseline_of,
    cost_verdicts,
    plan_judging,
    uncompared,
)


def is_deployment(ep: dict) -> bool:
    """A server started with settings of its own, speaking TLS, or of several processes."""
    return bool(ep.get("settings") or ep.get("processes") or (ep.get("traits") or {}).get("tls"))


def cost_absence(exp: Experiment) -> str:
    """Why a study of deployments has no cost table, in one line ('' when it has one or is none):
    only ok points are compared (:func:`ycsbctl.results.verdicts.uncompared`)."""
    if not any(is_deployment(e) for e in server_endpoints(exp).values()) or not len(exp.runs) or cost_sections(exp):
        return ""
    return " ".join(uncompared(exp.runs, baseline_of(exp.manifest.plan, exp.runs)))


def cost_sections(exp: Experiment, latency: str = "p99") -> list[dict]:
    """Per workload: the baseline, the metric names, and one row per target × threads with each
    metric's ``ratio [interval]`` and verdict; [] unless a target is a deployment (:func:`is_deployment`)."""
    eps = server_endpoints(exp)
    base = baseline_of(exp.manifest.plan, exp.runs) if len(exp.runs) else None
    if base is None or not any(is_deployment(e) for e in eps.values()):
        return []
    plan = exp.manifest.plan
    v = cost_verdicts(exp.runs, base, latency, how=plan_judging(plan, exp.runs), slices=exp.slices())
    if not len(v):
        return []
    names = [m.name for m in (*metrics(latency), *CPU_METRICS)]
    out = []
    for workload, w in v.groupby("workload", sort=False):
        rows = []
        for (target, threads), g in w.groupby(["target", "threads"], sort=False):
            by = {r["metric"]: r for _, r in g.iterrows()}
            rows.append({"target": target, "threads": int(threads),
                         "cells": [(ratio_text(by[n]), verdict_word(by[n])) if n in by else ("—", "") for n in names]})
        out.append({"workload": workload, "baseline": base, "metrics": names, "rows": rows,
                    "level": level_text(w), "reps": int(pd.to_numeric(w["n"], errors="coerce").max() or 0)})
    return out
