"""Findings' figures and rules at their edges: units, the 10 % plateau line, the bound range,
ratios and failure counts, each against a value worked out by hand here."""

from __future__ import annotations

import pandas as pd
import pytest

from ycsbctl.report.knee import Plateau, Rung, grows, within
from ycsbctl.report.summary import (
    bound_from,
    fmt_ops,
    fmt_us,
    plateau_from,
    server_identity,
    server_name,
    workload_findings,
)

pytestmark = pytest.mark.truth


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
            target: str = "redis", spread: float = 0.01) -> pd.DataFrame:
    """A points table of one ladder from 8 threads up; each throughput's interval ±``spread`` of it."""
    n = len(throughputs)
    threads = [8 * 2 ** i for i in range(n)]
    return pd.DataFrame({
        "target": target, "workload": "workloadb", "threads": threads, "throughput_mean": throughputs,
        "throughput_ci_low": [v * (1 - spread) for v in throughputs],
        "throughput_ci_high": [v * (1 + spread) for v in throughputs],
        "latency_mean": [100.0 * (i + 1) for i in range(n)], "bottleneck": labels or ["latency"] * n,
        "status": status or ["ok"] * n, "reps": 1, "ok": [1 if s == "ok" else 0 for s in (status or ["ok"] * n)],
        "error": None, "server_cpu_share": 0.5})


def test_throughput_grows_only_where_the_intervals_separate_by_more_than_10_percent():
    # Intervals of no width: the 10 % line itself. +10 % exactly has not grown; +10.1 % has, and 16 is a knee.
    assert plateau_from(_ladder([1000, 1100, 1050], spread=0)) == Plateau(8, 1000, 32, 1050, knee=False)
    assert plateau_from(_ladder([1000, 1101, 1050], spread=0)) == Plateau(16, 1101, 32, 1050, knee=True)
    # ±1 %: the same +10.1 % is within the noise (1090 is not above 1.1 × 1010): flat within noise from 8 threads
    assert plateau_from(_ladder([1000, 1101, 1050])) == Plateau(8, 1000, 32, 1050, knee=False)
    assert plateau_from(_ladder([1000, 2000, 4000])) is None  # still growing at the top
    assert plateau_from(_ladder([1000, 900, 800])) == Plateau(8, 1000, 32, 800, knee=False)
    # A failed point does not count: the plateau is read on the ok points.
    assert plateau_from(_ladder([1000, 5000, 1050], status=["ok", "failed", "ok"])) == Plateau(8, 1000, 32, 1050, False)
    # Without an interval (one short round) nothing is said.
    assert plateau_from(_ladder([1000, 2000, 2050]).drop(columns=["throughput_ci_low", "throughput_ci_high"])) is None


def test_a_rung_with_either_end_of_its_interval_missing_has_no_interval_and_says_nothing():
    """Half an interval is no interval: a rung whose low or high end is NaN neither grows nor stays within the
    noise of another (ycsbctl.report.knee.Rung.bounded)."""
    nan = float("nan")
    whole = Rung(8, 1000.0, 990.0, 1010.0)
    for low, high in ((nan, 2010.0), (1990.0, nan), (nan, nan)):
        half = Rung(16, 2000.0, low, high)
        assert not half.bounded and not grows(whole, half) and not within(whole, half)
    assert Rung(16, 2000.0, 1990.0, 2010.0).bounded and grows(whole, Rung(16, 2000.0, 1990.0, 2010.0))


def test_a_knee_is_named_only_where_growth_into_it_and_none_after_it_are_both_beyond_the_noise():
    # ±1 %: 8 → 16 grew (1980 > 1.1 × 1010) and 32 is at most 10 % above 16 (2121 ≤ 1.1 × 1980): a knee at 16
    assert plateau_from(_ladder([1000, 2000, 2100])) == Plateau(16, 2000, 32, 2100, knee=True)
    # ±3 %: 32's interval reaches 2163 > 1.1 × 1940: it may be more than 10 % above 16, so 16 is no knee
    assert plateau_from(_ladder([1000, 2000, 2100], spread=0.03)) == Plateau(16, 2000, 32, 2100, knee=False)
    # 16 → 32 neither grew beyond the noise nor stayed surely within 10 %: flat within noise from 16, no knee at 32
    assert plateau_from(_ladder([1000, 2000, 2200, 2250], spread=0.03)) == Plateau(16, 2000, 64, 2250, knee=False)
    assert [grows(Rung(8, 100, 99, 101), Rung(16, 112, 111.2, 113)),
            within(Rung(8, 100, 99, 101), Rung(16, 109, 108, 108.9)),
            within(Rung(8, 100, 99, 101), Rung(16, 109, 108, 109))] == [True, True, False]


def test_a_bound_starts_where_the_last_label_began():
    assert bound_from(_ladder([1, 2, 3, 4],
                              ["latency", "server-cpu", "server-cpu", "server-cpu"])) == ("server-cpu", 16)
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
        "workloadb: redis: Its throughput is flat within noise from 8 threads on (1.0k ops/s; 1.1k ops/s at 32 "
        "threads): "
        "more client threads from there add latency, not throughput."]
    assert _sentences(_ladder([3500, 3200, 2900]), ["redis"]) == [
        "workloadb: redis: its throughput is flat within noise from 8 threads on (3.5k ops/s; 2.9k ops/s at 32 "
        "threads), yet "
        "neither its CPU, the client's, the host's nor the network was saturated at every thread count: the cause is "
        "unknown (nothing ycsbctl measures shows it), and more client threads do not help."]
    # The plateau starts where the latency label starts: nothing measured says why.
    inside = _sentences(_ladder([1000, 2000, 2100, 2150], ["server-cpu", "latency", "latency", "latency"]), ["redis"])
    assert inside[0].startswith("workloadb: redis: its throughput stops growing at 16 threads")
    assert "was saturated from 16 threads: the cause is unknown" in inside[0]
    # Throughput still grew after the label began: what was measured (nothing saturated), no cause guessed.
    assert _sentences(_ladder([1000, 2000, 2100]), ["redis"]) == [
        "workloadb: redis is latency-bound (nothing measured was saturated; cause unknown) at every thread "
        "count. Its throughput stops growing at 16 threads (2.0k ops/s; 2.1k ops/s at 32 threads): more client "
        "threads from there add latency, not throughput."]


def _why_lines() -> dict[str, str]:
    """The why line ycsbctl.telemetry.why writes for a latency point of each kind, from evidence chosen here."""
    from ycsbctl.telemetry.why import explain

    def role(oncpu: float, runq: float = 0.0, **states: int) -> dict:
        return {"oncpu_pct": oncpu, "user_pct": oncpu / 2, "system_pct": oncpu / 2, "runq_pct": runq, "threads": 1,
                "busiest_pct": oncpu, "states": {"running": 0, "idle": 0, "lock": 0, "sleep": 0, "io": 0, "other": 0,
                                                 **states}, "wchan": {}}

    def why(**ev: object) -> str:
        base = {"server_cpu_pct": 40.0, "server_cores": 1.0, "client_cpu_pct": 50.0, "client_cores": 1.0,
                "host_cores": 2, "throughput_ops": 10_000.0, "server_share": 0.4, "client_share": 0.5}
        line = explain({"label": "latency", "text": "", "evidence": {**base, **ev}}, "redis", 8, 4000.0)
        assert line is not None
        return line
    return {"throttled": why(server_throttled_pct=30.0, server_quota_cores=0.5, server_throttled_s=1.2, measured_s=4.0),
            "network delay": why(wire={"minrtt_ms": 2.0}),
            "cpu wait": why(client_threads={"main": role(30.0, runq=50.0)}, server_threads={"main": role(20.0)}),
            "off-CPU wait": why(server_threads={"main": role(5.0, lock=8, idle=2)}),
            "": why(wire={"minrtt_ms": 0.1})}


def test_a_latency_bound_ladder_names_a_cause_only_where_its_evidence_names_one():
    from ycsbctl.report.summary import LATENCY_CAUSES, latency_cause
    from ycsbctl.telemetry.bottleneck import NETWORK_UNKNOWN

    lines = _why_lines()
    assert {latency_cause(line) for line in lines.values()} == {*LATENCY_CAUSES, ""}
    assert all(latency_cause(line) == cause for cause, line in lines.items()), lines
    assert lines[""].endswith("cause unknown")
    near, unknown = lines["network delay"], lines[""]
    # the busiest point's why line (the one the why finding explains) names the cause, or none is named
    assert _sentences(_ladder([1000, 2000, 2100]).assign(why=[near, near, unknown]), ["redis"])[0].startswith(
        "workloadb: redis is latency-bound (nothing measured was saturated; cause unknown) at every thread count.")
    assert _sentences(_ladder([1000, 2000, 2100]).assign(why=[unknown, unknown, near]), ["redis"])[0].startswith(
        "workloadb: redis is latency-bound (nothing measured was saturated; its evidence names a cause: network "
        "delay) at every thread count.")
    flat = _ladder([3500, 3200, 2900]).assign(why=lines["cpu wait"])
    assert _sentences(flat, ["redis"]) == [
        "workloadb: redis: its throughput is flat within noise from 8 threads on (3.5k ops/s; 2.9k ops/s at 32 "
        "threads), yet "
        "neither its CPU, the client's, the host's nor the network was saturated at every thread count: its evidence "
        "names a cause: cpu wait, and more client threads do not help."]
    # only the host's loopback counters: the network is not said to be unsaturated
    lo = flat.assign(why=unknown,
                     bottleneck_text=f"latency: no resource saturated (server 40% of 100%, {NETWORK_UNKNOWN})")
    (said,) = _sentences(lo, ["redis"])
    assert "nor the network was saturated" not in said
    assert said.endswith("yet neither its CPU, the client's nor the host's was saturated at every thread count (the "
                         "network is unknown: only the host's loopback counters, which include other processes' "
                         "traffic): the cause is unknown (nothing ycsbctl measures shows it), and more client threads "
                         "do not help.")


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
            f"This experiment is {status}: it stopped before the plan was done; its 3 points measured so far are "
            "shown (2 ok, 1 failed).")
    assert findings(_experiment("partial", ["ok", "failed"]), empty)[0] == (
        "This experiment is partial: 1 point failed (below). Of its 2 points: 1 ok, 1 failed.")
    assert findings(_experiment("complete", ["ok"]), empty) == []


def _busy_runs(statuses: list[str], foreign: list[float]) -> pd.DataFrame:
    """A runs table of ``statuses``; each degraded one degraded by a busy host, with its foreign CPU (% of a core)."""
    return pd.DataFrame({"status": statuses, "target": "redis", "workload": "workloadb", "phase": "run",
                         "threads": range(1, len(statuses) + 1),
                         "bottleneck": ["host-busy" if s == "degraded" else "server-cpu" for s in statuses],
                         "host_foreign_pct": foreign,
                         "error": [f"other programs used {f:.0f}% of a core" if s == "degraded" else None
                                   for s, f in zip(statuses, foreign)]})


def test_a_folder_whose_points_were_all_measured_says_how_many_are_degraded_and_how_busy_the_host_was():
    """Issue 72: a folder of measured points, some degraded by a busy host, is not "partial, 0 runs ok": it says
    every point was measured, how many are degraded and the foreign CPU during them (mean and largest of the
    runs table's own figures, % of one core); a partial one says what failed and still counts what was measured."""
    from ycsbctl.report.folder_status import status_findings

    runs = _busy_runs(["degraded", "ok", "degraded", "degraded"], [30.0, 1.0, 50.0, 100.0])
    busy = runs[runs["status"] == "degraded"]["host_foreign_pct"]
    mean, top = round(busy.mean()), round(busy.max())  # 60 and 100: the truth, from the table itself
    assert status_findings("complete", runs, (), 2) == [
        f"All 4 points measured; 3 degraded — the host was busy during them (other programs used on average "
        f"{mean}% of a core, at most {top}%, on a host of 2 cores). Their numbers are kept and marked, each with its "
        "why (below)."]
    every = runs.assign(status="degraded", bottleneck="host-busy")
    assert status_findings("complete", every, ())[0].startswith("All 4 points measured; 4 degraded — the host")
    # a failed point and a skipped target make it partial, and both are said before the counts
    failed = pd.concat([runs, runs.iloc[[1]].assign(status="failed", error="timed out")], ignore_index=True)
    (line,) = status_findings("partial", failed, ["mongodb"])
    assert line.startswith("This experiment is partial: 1 point failed; mongodb was skipped (below). Of its 5 "
                           "points: 3 degraded (host busy: other programs used CPU), 1 ok, 1 failed (timed out); the "
                           "host was busy during 3 of them: other programs used on average"), line
    # all ok: nothing to say; a stopped sweep with nothing failed says it stopped
    ok = runs.assign(status="ok", bottleneck="server-cpu", error=None)
    assert status_findings("complete", ok) == []
    assert status_findings("partial", ok) == [
        "This experiment is partial: the sweep stopped before its plan was done (below). Of its 4 points: 4 ok."]
    # a folder an older ycsbctl marked partial for its degraded points: both readings said, never "0 runs are ok"
    (old,) = status_findings("partial", every)
    assert "no point failed and no target was skipped" in old and "4 points were all measured; 4 degraded" in old


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
        "This experiment is interrupted: it stopped before the plan was done; its 0 points measured so far are shown.")


def test_only_points_with_a_client_lag_warning_text_are_flagged():
    from ycsbctl.report.summary import client_lag_findings

    runs = pd.DataFrame({"target": ["redis", "redis", "redis", "redis"], "workload": "workloadb",
                         "threads": [8, 16, 32, 64],
                         "client_lag_warning": ["client lag p99.9 4 ms is 50 % of the p99", None, float("nan"), ""]})
    (finding,) = client_lag_findings(runs)
    assert finding.startswith("1 point(s) (redis workloadb 8 threads) carry latency of the client's own making — "
                              "client lag p99.9 4 ms is 50 % of the p99."), finding
    assert client_lag_findings(runs.iloc[1:]) == []


@pytest.mark.parametrize(("us", "text"), [
    # Under 10 s two significant digits, from 10 s whole seconds: 1.94 s -> 1.9 s, 9.9 s stays 9.9 s,
    # 12.4 s -> 12 s (a divisor or a line 1 % off turns these into 2 s, 10 s and 13 s).
    (1_940_000, "1.9 s"), (9_900_000, "9.9 s"), (12_400_000, "12 s")])
def test_seconds_keep_two_significant_digits_below_ten(us, text):
    assert fmt_us(us) == text


def test_a_bound_of_two_points_starts_at_the_first_of_them():
    # latency, then server-cpu at 16 and 32 threads: the bound starts at 16, not at 8 (a step of two
    # from the last point lands beyond the run's start).
    assert bound_from(_ladder([1, 2, 3], ["latency", "server-cpu", "server-cpu"])) == ("server-cpu", 16)
    assert bound_from(_ladder([1, 2, 3, 4, 5], ["latency"] + ["network"] * 4)) == ("network", 16)


def test_a_target_without_throughput_at_its_peak_gets_no_ratio_and_a_slow_one_does():
    pts = pd.concat([_ladder([1000, 2000], target="redis"), _ladder([0.0, 0.0], target="mongodb"),
                     _ladder([0.5, 0.8], target="ferretdb")], ignore_index=True)
    peak = workload_findings(pts, "workloadb", ["redis", "mongodb", "ferretdb"], "p99")[0]
    # 2000 / 0.8 = 2500; mongodb's 0 ops/s would be an infinite ratio: it is left out of the sentence.
    assert peak == ("workloadb: redis peaks at 2.0k ops/s at 16 threads (p99 200 µs), "
                    "2500.0× ferretdb (1 ops/s at 16 threads, p99 200 µs).")


def _client_bound(shares: list[float]) -> list[str]:
    pts = _ladder([1000, 2000, 4000], ["latency", "client-cpu", "client-cpu"]).assign(server_cpu_share=shares)
    return _sentences(pts, ["redis"])


def test_a_client_bound_target_says_the_server_was_saturated_too_only_if_it_was_at_every_bound_point():
    lead = ("workloadb: redis is limited by the client (load generator) CPU from 16 threads: those points are a "
            "lower bound of what redis can do.")
    # From 16 threads the server is at 90 % (exactly the line) and 95 %: saturated too, at 90 %+.
    assert _client_bound([0.2, 0.90, 0.95]) == [
        lead + " The server was saturated too (90%+ of the CPU it can use): client and server compete for this "
        "host's cores, so neither figure is the server's own limit."]
    # At 16 threads the server is below its line (85 %): not saturated at every client-bound point.
    assert _client_bound([0.2, 0.85, 0.95]) == [lead]
    # Before the bound (8 threads) the share does not count; an unknown share is not a saturated one.
    assert _client_bound([0.95, 0.2, 0.3]) == [lead]
    assert _client_bound([0.95, float("nan"), 0.95]) == [lead]


def test_two_repetitions_of_which_one_failed_are_counted_as_such():
    pts = _ladder([1000, 2000, 4000], status=["ok", "failed", "ok"])
    pts.loc[1, ["reps", "ok", "error"]] = [2, 1, "boom"]
    assert ("workloadb: redis at 16 threads: 1 of 2 repetitions failed (first error: boom)."
            in workload_findings(pts, "workloadb", ["redis"], "p99"))


def test_findings_give_the_p99_unless_told_otherwise():
    from ycsbctl.report.summary import findings

    pts = _ladder([1000, 2000], target="mongodb")
    assert findings(_experiment("complete", ["ok", "ok"]), pts)[0] == (
        "workloadb: mongodb peaks at 2.0k ops/s at 16 threads (p99 200 µs).")


def test_an_impostor_with_a_described_name_is_read_as_the_product_before_the_parenthesis():
    from ycsbctl.report.summary import findings

    servers = {"mongodb": {"server_name": "FerretDB (mongo-wire, SQLite)", "server_version": "1.24"}}
    empty = _ladder([1.0]).iloc[0:0]
    assert findings(_experiment("complete", ["ok"], servers=servers), empty) == [
        "mongodb was answered by FerretDB (mongo-wire, SQLite) 1.24 — not MongoDB: read its numbers as FerretDB's."]


def test_a_skipped_target_gives_its_reason_and_a_fix_not_already_in_it():
    from pathlib import Path

    from ycsbctl.report.summary import findings
    from ycsbctl.results.frames import Experiment
    from ycsbctl.results.schema import Manifest

    skipped = [{"target": "mongodb", "reason": "no docker", "fix": "install docker"},
               {"target": "valkey", "reason": "", "fix": ""},
               {"target": "keydb", "reason": "port busy: free port 6380", "fix": "free port 6380"},
               {"target": "dragonfly", "reason": "", "fix": "pull the image"}]
    manifest = Manifest.from_dict({"experiment_id": "", "status": "complete", "skipped_targets": skipped})
    exp = Experiment(Path("."), manifest, pd.DataFrame({"status": [], "target": [], "workload": []}),
                     pd.DataFrame(), pd.DataFrame(), pd.DataFrame())
    assert findings(exp, _ladder([1.0]).iloc[0:0]) == [
        "mongodb was skipped: no docker. To include it: install docker.",
        "valkey was skipped: no reason recorded.",
        "keydb was skipped: port busy: free port 6380.",
        "dragonfly was skipped: no reason recorded. To include it: pull the image."]


@pytest.mark.parametrize("n", [4, 5, 7])
def test_client_lag_names_the_first_four_points_and_counts_the_rest(n):
    from ycsbctl.report.summary import client_lag_findings

    threads = [8 * (i + 1) for i in range(n)]
    runs = pd.DataFrame({"target": "redis", "workload": "workloadb", "threads": threads,
                         "client_lag_warning": [f"lag {t}" for t in threads]})
    names = ", ".join(f"redis workloadb {t} threads" for t in threads[:4])
    more = {4: "", 5: " and 1 more", 7: " and 3 more"}[n]
    # The warning quoted is the first flagged point's (8 threads), not the last one's.
    assert client_lag_findings(runs) == [
        f"{n} point(s) ({names}{more}) carry latency of the client's own making — lag 8. "
        "Their tail is an upper bound on the server's."]


def test_client_lag_names_a_repeated_point_once_and_counts_its_runs():
    from ycsbctl.report.summary import client_lag_findings

    # three rounds of two points, one run of the second point without the warning
    runs = pd.DataFrame({"target": ["redis", "valkey"] * 3, "workload": "workloadb", "threads": 8,
                         "client_lag_warning": ["lag a", "lag b", "lag c", None, "lag e", "lag f"]})
    assert client_lag_findings(runs) == [
        "2 point(s) (redis workloadb 8 threads, valkey workloadb 8 threads) in 5 runs carry latency of the "
        "client's own making — lag a. Their tail is an upper bound on the server's."]


def _peak_verdict(workload: str, ratio: float) -> dict:
    return {"workload": workload, "target": "valkey", "baseline": "redis", "threads": 16, "metric": "throughput",
            "at_peak": True, "ratio": ratio, "ci_low": float("nan"), "ci_high": float("nan"),
            "verdict": "undecided"}


def test_each_workloads_peak_sentence_gives_its_own_workloads_ratio():
    """Three variants of a structure study: each sentence's ratio is its own variant's peak verdict (the
    first workload's 0.73× was given to every workload, inverted: '1.37× of valkey's peak' beside 6.7k
    and 6.1k ops/s)."""
    verdicts = pd.DataFrame([_peak_verdict("hash", 0.73), _peak_verdict("set", 1.11), _peak_verdict("zset", 1.88)])
    said = {}
    for w, (redis, valkey) in {"hash": (6_089, 4_459), "set": (6_065, 6_747), "zset": (4_138, 7_778)}.items():
        pts = pd.concat([_ladder([redis], target="redis"), _ladder([valkey], target="valkey")]).assign(workload=w)
        said[w] = workload_findings(pts, w, ["redis", "valkey"], "p99", verdicts)[0]
    assert "valkey (4.5k ops/s at 8 threads, p99 100 µs): 0.73× of redis's peak" in said["hash"]
    assert "redis (6.1k ops/s at 8 threads, p99 100 µs): 0.90× of valkey's peak" in said["set"]  # 1 / 1.11
    assert "redis (4.1k ops/s at 8 threads, p99 100 µs): 0.53× of valkey's peak" in said["zset"]  # 1 / 1.88


def test_a_peak_verdict_read_from_the_leaders_side_is_inverted_with_its_interval_and_only_the_peak_row_counts():
    """valkey leads and is the verdict's target against redis (1.25× [1.1, 1.5]): redis's sentence says 1 / 1.25 =
    0.80× [1 / 1.5, 1 / 1.1] = [0.67, 0.91] of valkey's peak; the rows listed first (keydb's against redis, the
    pair's at a thread count, the peaks' p99) are not its ratio."""
    rows = [{**_peak_verdict("workloadb", 0.7), "target": "keydb", "ci_low": 0.6, "ci_high": 0.8},  # a third target's
            {**_peak_verdict("workloadb", 0.5), "at_peak": False, "threads": 8, "ci_low": 0.4, "ci_high": 0.6},
            {**_peak_verdict("workloadb", 2.0), "metric": "p99", "ci_low": 1.8, "ci_high": 2.2},
            {**_peak_verdict("workloadb", 1.25), "ci_low": 1.1, "ci_high": 1.5, "verdict": "better"}]
    pts = pd.concat([_ladder([4_000], target="redis"), _ladder([5_000], target="valkey")], ignore_index=True)
    peak = workload_findings(pts, "workloadb", ["redis", "valkey"], "p99", pd.DataFrame(rows))[0]
    assert "redis (4.0k ops/s at 8 threads, p99 100 µs): 0.80× [0.67, 0.91] of valkey's peak, a real difference" in peak


def test_a_points_main_latency_is_its_ok_runs_mean_of_the_busiest_operation_and_none_without_the_statistic():
    """SCAN has the most operations over the point's ok runs (the failed run's READs left out): its p99 is the ok
    runs' mean; a statistic the ops table lacks (p99.9 here), or no ok run, gives none, not another's figure."""
    from pathlib import Path

    from ycsbctl.report.summary import main_latency
    from ycsbctl.results.frames import Experiment
    from ycsbctl.results.schema import Manifest

    runs = pd.DataFrame({"run_id": ["r1", "r2", "r3"], "status": ["ok", "ok", "failed"]})
    ops = pd.DataFrame({"run_id": ["r1", "r1", "r2", "r2", "r3"], "op": ["READ", "SCAN", "READ", "SCAN", "READ"],
                        "operations": [300, 400, 300, 400, 900], "p99_us": [50.0, 700.0, 60.0, 900.0, 5.0]})
    exp = Experiment(Path("."), Manifest.from_dict({"experiment_id": ""}), runs, ops, pd.DataFrame(), pd.DataFrame())
    assert main_latency(exp, "p99")(["r1", "r2", "r3"]) == ("SCAN", 800.0)
    assert main_latency(exp, "p99")(["r3"]) is None
    assert main_latency(exp, "p999")(["r1", "r2", "r3"]) is None


def test_the_main_operation_is_the_one_with_the_most_operations_among_the_workloads_own():
    from ycsbctl.results.names import main_operation

    assert main_operation({"INSERT": 55, "SCAN": 953}) == "SCAN"  # workload E: not its 5 % of INSERTs
    assert main_operation({"READ": 500, "UPDATE": 500}) == "READ"  # a tie: the first
    assert main_operation({"READ-MODIFY-WRITE": 900, "READ": 600, "UPDATE": 450}) == "READ"  # F: RMW is no base op
    assert main_operation({"Intended-READ": 9, "CLIENT-LAG": 9, "READ": 1}) == "READ"
    assert main_operation({"STORE": 10, "READ-STATUS": 30}) == "READ-STATUS"  # a plug-in's operations too
    assert main_operation({"READ": 0}) is None and main_operation({}) is None


def test_a_peak_against_peak_without_a_ratio_says_so_not_nan():
    """Paired rounds in which the two peaks were never both ok: the verdict row has no ratio."""
    pts = pd.concat([_ladder([1000, 2000], target="redis"), _ladder([500, 900], target="redis-tls")],
                    ignore_index=True)
    row = {"workload": "workloadb", "target": "redis-tls", "baseline": "redis", "metric": "throughput",
           "at_peak": True, "ratio": float("nan"), "ci_low": float("nan"), "ci_high": float("nan"),
           "verdict": "undecided"}
    peak = workload_findings(pts, "workloadb", ["redis", "redis-tls"], "p99", verdicts=pd.DataFrame([row]))[0]
    assert "redis-tls (900 ops/s at 16 threads, p99 200 µs): no ratio to redis's peak, undecided" in peak
    assert "nan" not in peak


def test_records_stored_follow_a_peaks_rate_only_with_a_counter_and_the_points_run_ids():
    """The records a batch stored per second follow each peak's ops/s when both a counter (records_stored's) and
    the point's run ids are there; without either, the sentence is the plain one."""
    pts = pd.concat([_ladder([1000, 4000], target="redis"), _ladder([500, 2000], target="mongodb")], ignore_index=True)
    pts["run_ids"] = [[f"r{i}"] for i in range(len(pts))]
    plain = workload_findings(pts.drop(columns="run_ids"), "workloadb", ["redis", "mongodb"], "p99")[0]

    def stored(workload: str, run_ids: list[str]) -> str:
        return f" storing {run_ids[0]}"

    assert workload_findings(pts, "workloadb", ["redis", "mongodb"], "p99")[0] == plain  # no counter
    assert workload_findings(pts.drop(columns="run_ids"), "workloadb", ["redis", "mongodb"], "p99",
                             stored=stored)[0] == plain  # no run ids
    counted = workload_findings(pts, "workloadb", ["redis", "mongodb"], "p99", stored=stored)[0]
    assert counted == plain.replace("4.0k ops/s", "4.0k ops/s storing r1").replace("2.0k ops/s",
                                                                                   "2.0k ops/s storing r3")
    assert counted != plain


def test_a_store_inside_the_client_is_said_apart_its_first_points_text_quoted_and_never_the_clients_lag():
    """SQLite's loop lag is its own time: five such points are one sentence of their own (the first four named,
    "and more", the first point's text), and redis's lag of the client's making another."""
    from ycsbctl.report.summary import client_lag_findings
    from ycsbctl.results.client_lag import IN_CLIENT_MARK

    own = [f"{IN_CLIENT_MARK}: p99.9 {n} ms" for n in (4, 5, 6, 7, 8)]
    runs = pd.DataFrame({"target": ["sqlite"] * 5 + ["redis"], "workload": "workloadb",
                         "threads": [8, 16, 32, 64, 128, 8], "client_lag_warning": [*own, "lag r"]})
    assert client_lag_findings(runs) == [
        "5 point(s) (sqlite workloadb 8 threads, sqlite workloadb 16 threads, sqlite workloadb 32 threads, sqlite "
        f"workloadb 64 threads and more) ran a store inside the client — {own[0]}. Their latency is the store's.",
        "1 point(s) (redis workloadb 8 threads) carry latency of the client's own making — lag r. Their tail is an "
        "upper bound on the server's."]


def test_targets_the_same_words_fit_share_one_sentence_listed_with_commas_and_a_last_and():
    lines = [workload_findings(pd.concat([_ladder([1000, 2000], ["server-cpu"] * 2, target=t) for t in who],
                                         ignore_index=True), "workloadb", list(who), "p99")
             for who in (("redis", "mongodb", "ferretdb"), ("redis", "mongodb"), ("redis",))]
    subjects = [[line.split(" are ")[0] if " are " in line else line.split(" is ")[0] for line in found
                 if "workloadb: redis" in line and "peaks" not in line] for found in lines]
    assert subjects == [["workloadb: redis, mongodb and ferretdb"], ["workloadb: redis and mongodb"],
                        ["workloadb: redis"]]


def test_a_peak_pair_called_equivalent_says_within_what_margin_and_without_one_only_equivalent():
    """The peak-against-peak words: ``equivalent within ±5 %`` where the cell states its margin, ``equivalent``
    alone where it has none (a folder written before margins were kept), and ``a real difference`` for better."""
    from ycsbctl.report.summary import _versus

    def versus(verdict: str, margin: float | None) -> tuple[str, str] | None:
        v = pd.DataFrame([{"at_peak": True, "metric": "throughput", "workload": "workloadb", "target": "mongodb",
                           "baseline": "redis", "ratio": 0.98, "ci_low": 0.96, "ci_high": 1.01, "margin_pct": margin,
                           "verdict": verdict}])
        return _versus("workloadb", "redis", "mongodb", v)

    assert versus("equivalent", 5.0) == ("0.98× [0.96, 1.01] of redis's peak", "equivalent within ±5 %")
    assert versus("equivalent", float("nan"))[1] == "equivalent"  # type: ignore[index]
    assert versus("equivalent", None)[1] == "equivalent"  # type: ignore[index]
    assert versus("better", 5.0)[1] == "a real difference"  # type: ignore[index]
