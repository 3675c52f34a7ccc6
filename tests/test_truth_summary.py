"""Findings' figures and rules at their edges: units, the 10 % plateau line, the bound range,
ratios and failure counts, each against a value worked out by hand here."""

from __future__ import annotations

import pandas as pd
import pytest

from ycsbctl.report.summary import (
    bound_from,
    fmt_ops,
    fmt_us,
    plateau_from,
    server_identity,
    server_name,
    workload_findings,
)


@pytest.mark.parametrize(("us", "text"), [
    (0.4, "0 µs"), (999, "999 µs"), (999.4, "999 µs"), (1000, "1.0 ms"), (1550, "1.6 ms"), (999_000, "999.0 ms"),
    (1_000_000, "1 s"), (2_100_000, "2.1 s"), (9_999_999, "10 s"), (10_000_000, "10 s"), (12_600_000, "13 s"),
    (float("nan"), "n/a"), (None, "n/a")])
def test_latency_units_change_at_one_ms_and_one_s(us, text):
    assert fmt_us(us) == text


@pytest.mark.parametrize(("ops", "text"), [
    (999, "999 ops/s"), (999.4, "999 ops/s"), (1000, "1.0k ops/s"), (61_240, "61.2k ops/s"), (float("nan"), "n/a")])
def test_throughput_changes_to_thousands_at_1000(ops, text):
    assert fmt_ops(ops) == text


def _ladder(throughputs: list[float], labels: list[str] | None = None, status: list[str] | None = None,
            target: str = "redis") -> pd.DataFrame:
    n = len(throughputs)
    threads = [8 * 2 ** i for i in range(n)]
    return pd.DataFrame({
        "target": target, "workload": "workloadb", "threads": threads, "throughput_mean": throughputs,
        "latency_mean": [100.0 * (i + 1) for i in range(n)], "bottleneck": labels or ["latency"] * n,
        "status": status or ["ok"] * n, "reps": 1, "ok": [1 if s == "ok" else 0 for s in (status or ["ok"] * n)],
        "error": None, "server_cpu_share": 0.5})


def test_throughput_stops_growing_where_no_later_point_is_more_than_10_percent_higher():
    assert plateau_from(_ladder([1000, 1100, 1050])) == (8, 1000, 32, 1050)  # exactly +10 %: stopped
    assert plateau_from(_ladder([1000, 1101, 1050])) == (16, 1101, 32, 1050)  # +10.1 %: still growing at 8
    assert plateau_from(_ladder([1000, 2000, 4000])) is None
    assert plateau_from(_ladder([1000, 900, 800])) == (8, 1000, 32, 800)
    # A failed point does not count: the plateau is read on the ok points.
    assert plateau_from(_ladder([1000, 5000, 1050], status=["ok", "failed", "ok"])) == (8, 1000, 32, 1050)


def test_a_bound_starts_where_the_last_label_began():
    assert bound_from(_ladder([1, 2, 3, 4], ["latency", "server-cpu", "server-cpu", "server-cpu"])) == ("server-cpu", 16)
    assert bound_from(_ladder([1, 2, 3], ["server-cpu"] * 3)) == ("server-cpu", 8)
    assert bound_from(_ladder([1, 2, 3], ["server-cpu", "latency", "server-cpu"])) == ("server-cpu", 32)
    assert bound_from(_ladder([1, 2], ["server-cpu", "none"])) is None
    assert bound_from(_ladder([1, 2], ["server-cpu", None])) is None


def test_peak_sentence_orders_targets_and_gives_each_ratio_to_the_leader():
    pts = pd.concat([_ladder([50_000, 120_000, 110_000], target="redis"),
                     _ladder([20_000, 30_000, 40_000], target="mongodb"),
                     _ladder([9_000, 9_500, 9_900], target="ferretdb")], ignore_index=True)
    peak = workload_findings(pts, "workloadb", ["mongodb", "ferretdb", "redis"], "p99")[0]
    assert peak == ("workloadb: redis peaks at 120.0k ops/s at 16 threads (p99 200 µs), "
                    "3.0× mongodb (40.0k ops/s at 32 threads, p99 300 µs); "
                    "12.1× ferretdb (9.9k ops/s at 32 threads, p99 300 µs).")


def test_failed_points_are_counted_per_repetition():
    pts = _ladder([1000, 2000, 4000], status=["ok", "failed", "ok"])
    pts.loc[1, ["reps", "ok", "error"]] = [3, 1, "boom"]
    text = " ".join(workload_findings(pts, "workloadb", ["redis"], "p99"))
    assert "workloadb: redis at 16 threads: 2 of 3 repetitions failed (first error: boom)." in text
    pts.loc[1, ["reps", "ok"]] = [1, 0]
    assert "redis at 16 threads: the run failed (first error: boom)." in " ".join(
        workload_findings(pts, "workloadb", ["redis"], "p99"))


def test_a_server_is_named_with_its_version_once_and_an_impostor_is_flagged():
    assert server_name({"server_name": "Redis", "server_version": "7.2.4"}) == "Redis 7.2.4"
    assert server_name({"server_name": "Redis 7.2.4", "server_version": "7.2.4"}) == "Redis 7.2.4"
    assert server_identity("mongodb", {"server_name": "FerretDB", "server_version": "1.24"}) == \
        ("FerretDB 1.24", "not MongoDB")
    assert server_identity("mongodb", {"server_name": "MongoDB", "server_version": "7.0"}) == ("MongoDB 7.0", None)
    assert server_identity("custom", {}) == ("unknown server", None)


def _sentences(pts: pd.DataFrame, targets: list[str]) -> list[str]:
    return workload_findings(pts, "workloadb", targets, "p99")[1:]


def test_plateau_and_bound_sentences_say_where_each_starts():
    assert _sentences(_ladder([1000, 1100, 1050], [None] * 3), ["redis"]) == [
        "workloadb: redis: Its throughput stops growing at 8 threads (1.0k ops/s; 1.1k ops/s at 32 threads): "
        "more client threads from there add latency, not throughput."]
    assert _sentences(_ladder([3500, 3200, 2900]), ["redis"]) == [
        "workloadb: redis saturates no resource ycsbctl measures (CPU, network) at every thread count, yet its "
        "throughput stops growing at 8 threads (3.5k ops/s; 2.9k ops/s at 32 threads): the limit is inside the "
        "server (locks, a single writer, internal queues), not the round trips."]
    # The plateau starts where the latency label starts: still inside the server.
    inside = _sentences(_ladder([1000, 2000, 2100, 2150], ["server-cpu", "latency", "latency", "latency"]), ["redis"])
    assert inside[0].startswith("workloadb: redis saturates no resource ycsbctl measures (CPU, network) from 16 "
                                "threads, yet its throughput stops growing at 16 threads")
    # Throughput still grew after the label began: the clients wait on round trips until the plateau.
    assert _sentences(_ladder([1000, 2000, 2100]), ["redis"]) == [
        "workloadb: redis is latency-bound (no resource saturated: clients wait on round trips) at every thread "
        "count. Its throughput stops growing at 16 threads (2.0k ops/s; 2.1k ops/s at 32 threads): more client "
        "threads from there add latency, not throughput."]


def test_each_target_is_judged_on_its_own_points_and_skipped_points_are_left_out():
    pts = pd.concat([_ladder([1000, 2000, 4000], ["server-cpu"] * 3, target="redis"),
                     _ladder([500, 1000, 2000], ["network"] * 3, target="mongodb"),
                     _ladder([9e9, 9e9, 9e9], ["client-cpu"] * 3, status=["skipped"] * 3, target="dragonfly")],
                    ignore_index=True)
    findings = workload_findings(pts, "workloadb", ["redis", "mongodb", "dragonfly"], "p99")
    assert findings == [
        "workloadb: redis peaks at 4.0k ops/s at 32 threads (p99 300 µs), 2.0× mongodb (2.0k ops/s at 32 threads, "
        "p99 300 µs).",
        "workloadb: redis is server-CPU-bound at every thread count.",
        "workloadb: mongodb is network-bound at every thread count."]


def _experiment(status: str, runs: list[str], docs: dict | None = None, servers: dict | None = None):
    from pathlib import Path

    from ycsbctl.results.frames import Experiment
    from ycsbctl.results.schema import Manifest

    frame = pd.DataFrame({"status": runs, "target": "mongodb", "workload": "workloadb"})
    manifest = {"experiment_id": "", "status": status, "servers": servers or {}, "plan": {"targets": ["mongodb"]}}
    return Experiment(Path("."), Manifest.from_dict(manifest),
                      frame, pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), docs or {})


def test_an_unfinished_experiment_says_so_with_its_count_of_finished_runs():
    from ycsbctl.report.summary import findings

    empty = _ladder([1.0]).iloc[0:0]
    for status in ("interrupted", "running"):
        assert findings(_experiment(status, ["ok", "ok", "failed"]), empty)[0] == (
            f"This experiment is {status}: it stopped before the plan was done; the 2 finished runs are shown.")
    assert findings(_experiment("partial", ["ok", "failed"]), empty)[0] == (
        "This experiment is partial: a target was skipped or points failed (below); 1 runs are ok.")
    assert findings(_experiment("complete", ["ok"]), empty) == []


def test_an_impostor_is_named_from_the_run_records_when_the_manifest_has_no_server():
    from ycsbctl.report.summary import findings

    docs = {"r1": {"target": "mongodb", "endpoint": None},
            "r2": {"target": "mongodb", "endpoint": {"server_name": "FerretDB", "server_version": "1.24"}}}
    empty = _ladder([1.0]).iloc[0:0]
    assert findings(_experiment("complete", ["ok"], docs), empty) == [
        "mongodb was answered by FerretDB 1.24 — not MongoDB: read its numbers as FerretDB 1.24's."]


def test_an_experiment_interrupted_before_any_run_says_none_finished():
    from ycsbctl.report.summary import findings

    empty = _ladder([1.0]).iloc[0:0]
    assert findings(_experiment("interrupted", []), empty)[0] == (
        "This experiment is interrupted: it stopped before the plan was done; the 0 finished runs are shown.")


def test_only_points_with_a_client_lag_warning_text_are_flagged():
    from ycsbctl.report.summary import client_lag_findings

    runs = pd.DataFrame({"target": ["redis", "redis", "redis", "redis"], "workload": "workloadb",
                         "threads": [8, 16, 32, 64],
                         "client_lag_warning": ["client lag p99.9 4 ms is 50 % of the p99", None, float("nan"), ""]})
    (finding,) = client_lag_findings(runs)
    assert finding.startswith("1 point(s) (redis workloadb 8 threads) carry latency of the client's own making — "
                              "client lag p99.9 4 ms is 50 % of the p99."), finding
    assert client_lag_findings(runs.iloc[1:]) == []
