"""The findings' "why" lines (:func:`ycsbctl.report.why_report.why_findings`): each ladder's best point
names its thread count and its why, whichever row of the ladder the best point is."""

from __future__ import annotations

import math

import pandas as pd

from ycsbctl.report.why_report import why_findings


def _points(rows: list[tuple[str, str, int, float, str | None]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["workload", "target", "threads", "throughput_mean", "why"])


def test_each_ladders_why_is_its_best_points_in_the_targets_order():
    points = _points([
        ("workloadb", "redis", 1, 10_000.0, "round trips"), ("workloadb", "redis", 4, 30_000.0, "server CPU"),
        ("workloadb", "redis", 8, 25_000.0, "client CPU"), ("workloadb", "redis", 16, math.nan, "failed"),
        ("workloadb", "valkey", 4, 20_000.0, "server CPU (io-threads 2)"),
        ("workloadb", "valkey", 8, 50_000.0, None),  # its best point has no why: the best that has one
        ("workloada", "redis", 2, 5_000.0, "locks"),
    ])
    assert why_findings(points, ["valkey", "redis"]) == [
        "workloadb: valkey at (4 threads): server CPU (io-threads 2).",
        "workloadb: redis at its peak (4 threads): server CPU.",
        "workloada: redis at (2 threads): locks.",
    ]
    assert why_findings(points, ["mongodb"]) == []
    assert why_findings(points.drop(columns="why"), ["redis"]) == []


def test_a_ladder_of_two_points_names_its_peak_and_its_why():
    from ycsbctl.report.why_report import why_findings
    points = pd.DataFrame([("workloadb", "redis", 8, 30_000.0, "server CPU"),
                           ("workloadb", "redis", 4, 35_000.0, "locks")],
                          columns=["workload", "target", "threads", "throughput_mean", "why"])
    assert why_findings(points, ["redis"]) == ["workloadb: redis at its peak (4 threads): locks."]
