"""Reading a result folder (results/frames.py) against the raw files and hand-made run tables.

Histograms are checked against HdrHistogram's own decode and add of the ``.hdr`` files of a real
run (tests/fixtures/truth.py); the aggregation of repetitions against tables whose
expected points are worked out by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hdrh.histogram import HdrHistogram

from ycsbctl.errors import UserError
from ycsbctl.results.frames import latency_column, latency_label, load, points

pytestmark = pytest.mark.truth


def _file(folder, run_id, op) -> HdrHistogram:
    return HdrHistogram.decode((folder / "histograms" / f"{run_id}.{op}.hdr").read_bytes())


def _same(a: HdrHistogram, b: HdrHistogram) -> None:
    assert a.get_total_count() == b.get_total_count() > 0
    assert np.array_equal(np.ctypeslib.as_array(a.counts), np.ctypeslib.as_array(b.counts))


def test_all_operations_and_repetitions_merge_to_the_files_own_sum(truth_experiments):
    folder = truth_experiments[0]
    exp = load(folder)
    reps = sorted(r for r in exp.runs["run_id"] if ".run.t4." in r and not r.startswith("basic"))
    assert len(reps) == 2
    ref = HdrHistogram(1, 3_600_000_000, 3)
    for op in ("READ", "UPDATE"):
        ref.add(_file(folder, reps[0], op))
    _same(exp.histogram(reps[0], "ALL"), ref)
    both = HdrHistogram(1, 3_600_000_000, 3)
    for r in reps:
        both.add(_file(folder, r, "READ"))
    _same(exp.merged_histogram(reps, "READ"), both)
    with pytest.raises(UserError, match=r"has no histogram for 'SCAN' \(has: [A-Z-]*READ"):
        exp.histogram(reps[0], "SCAN")
    every = HdrHistogram(1, 3_600_000_000, 3)
    for r in reps:
        for op in ("READ", "UPDATE"):
            every.add(_file(folder, r, op))
    _same(exp.merged_histogram(reps, "ALL"), every)
    load_run = next(r for r in exp.runs["run_id"] if ".load." in r and not r.startswith("basic"))
    _same(exp.merged_histogram([*reps, load_run], "READ"), both)  # the load has no READ: left out


def test_the_folder_names_its_workloads_status_and_id(truth_experiments):
    exp = load(truth_experiments[0])
    assert exp.workloads == ["workloadb"]
    assert exp.status == "complete" and exp.id == exp.manifest.experiment_id


def test_latency_names():
    assert [latency_column(x) for x in ("avg", "p50", "p95", "p99", "p999")] == [
        "all_mean_us", "all_p50_us", "all_p95_us", "all_p99_us", "all_p999_us"]
    assert latency_column("p99.9", "READ-MODIFY-WRITE").endswith("_p999_us")
    assert [latency_label(x) for x in ("avg", "p50", "p99", "p999", "p9999")] == ["mean", "p50", "p99", "p99.9",
                                                                                  "p99.99"]
    with pytest.raises(UserError, match="unknown latency statistic 'p42'"):
        latency_column("p42")


def _runs(rows: list[tuple]) -> pd.DataFrame:
    cols = ["target", "threads", "status", "throughput_ops", "all_p99_us", "bottleneck", "error", "client_cpu_s",
            "runtime_ms"]
    df = pd.DataFrame(rows, columns=cols)
    return df.assign(workload="workloadb", phase="run", server="Redis 7", bottleneck_text=df["bottleneck"],
                     run_id=[f"r{i}" for i in range(len(df))])


def test_points_average_the_ok_repetitions_and_keep_the_worst_status():
    runs = _runs([
        ("redis", 8, "ok", 1000.0, 100.0, "latency", None, 1.0, 2000.0),
        ("redis", 8, "ok", 3000.0, 300.0, "server-cpu", None, 3.0, 2000.0),
        ("redis", 8, "failed", 9000.0, 900.0, "server-cpu", "boom", 9.0, 2000.0),
        ("redis", 16, "ok", 5000.0, 500.0, "latency", None, 2.0, 1000.0),
        ("redis", 16, "interrupted", None, None, None, "stopped", None, None),
        ("redis", 16, "skipped", None, None, None, "no server", None, None),
    ])
    p = points(runs).set_index("threads")
    assert (p.loc[8, "reps"], p.loc[8, "ok"], p.loc[8, "status"]) == (3, 2, "failed")
    assert (p.loc[8, "throughput_mean"], p.loc[8, "throughput_min"], p.loc[8, "throughput_max"]) == (2000, 1000, 3000)
    assert (p.loc[8, "latency_mean"], p.loc[8, "latency_min"], p.loc[8, "latency_max"]) == (200, 100, 300)
    assert p.loc[8, "bottleneck"] == "server-cpu" and p.loc[8, "error"] == "boom"  # the most common label
    assert p.loc[8, "client_cpu_pct"] == pytest.approx(100.0)  # mean of 1 s and 3 s of CPU over 2 s: 50 % and 150 %
    assert (p.loc[16, "status"], p.loc[16, "ok"], p.loc[16, "throughput_mean"]) == ("interrupted", 1, 5000)
    assert p.loc[16, "client_cpu_pct"] == pytest.approx(200.0)
    assert p.loc[8, "run_ids"] == ["r0", "r1", "r2"]


def test_a_point_without_an_ok_repetition_has_no_figures():
    p = points(_runs([("redis", 8, "failed", 9000.0, 900.0, None, "boom", 1.0, 1000.0)])).iloc[0]
    assert p["status"] == "failed" and p["ok"] == 0
    assert math.isnan(p["throughput_mean"]) and math.isnan(p["latency_mean"]) and p["bottleneck"] is None


def _folder(runs: pd.DataFrame, telemetry: pd.DataFrame, docs: dict, manifest: dict | None = None):
    from pathlib import Path

    from ycsbctl.results.frames import Experiment
    from ycsbctl.results.schema import Manifest

    return Experiment(Path("."), Manifest.from_dict({"experiment_id": "", **(manifest or {})}), runs, pd.DataFrame(),
                      pd.DataFrame(), telemetry, docs)


def test_telemetry_time_counts_from_the_engines_start_or_else_the_first_sample():
    tel = pd.DataFrame({"run_id": ["a", "a", "b", "b"], "t_mono": [100.5, 101.5, 50.0, 52.0], "cpu_pct": 1.0})
    exp = _folder(_runs([]), tel, {"a": {"result": {"extra": {"t_start_mono": 100.0}}}, "b": {"result": None}})
    assert exp.telemetry_of("a")["t_s"].tolist() == [0.5, 1.5]
    assert exp.telemetry_of("b")["t_s"].tolist() == [0.0, 2.0]
    assert exp.telemetry_of("c").empty


def test_without_a_plan_targets_and_workloads_are_those_with_runs_in_order_of_appearance():
    runs = _runs([("valkey", 8, "ok", 1.0, 1.0, None, None, 1.0, 1.0), ("redis", 8, "ok", 1.0, 1.0, None, None, 1.0,
                                                                        1.0)])
    assert _folder(runs, pd.DataFrame(), {}).targets == ["valkey", "redis"]
    planned = _folder(runs, pd.DataFrame(), {}, {"plan": {"targets": ["redis", "mongodb", "valkey"],
                                                          "workloads": ["workloadb"]}})
    assert planned.targets == ["redis", "valkey"] and planned.workloads == ["workloadb"]
    assert _folder(runs, pd.DataFrame(), {}, {"plan": {}}).workloads == ["workloadb"]


def test_the_worst_status_wins_whatever_the_order_of_the_repetitions():
    for statuses, want in ((["interrupted", "failed", "ok"], "failed"), (["skipped", "interrupted"], "interrupted"),
                           (["ok", "skipped"], "skipped"), (["skipped", "degraded"], "degraded"),
                           (["ok", "ok"], "ok")):
        runs = _runs([("redis", 8, s, 1000.0, 100.0, None, None, 1.0, 1000.0) for s in statuses])
        assert points(runs).iloc[0]["status"] == want, statuses


def test_the_default_latency_is_p99_and_p9999_has_its_own_column():
    assert latency_column() == "all_p99_us" and latency_column("p9999") == "all_p9999_us"
    assert latency_column("p99.99", "READ") == "read_p9999_us"
    runs = _runs([("redis", 8, "ok", 1000.0, 100.0, None, None, 1.0, 1000.0)]).assign(all_p95_us=50.0)
    assert points(runs).iloc[0]["latency_mean"] == 100.0


def test_planned_workloads_keep_the_plans_order():
    runs = _runs([("redis", 8, "ok", 1.0, 1.0, None, None, 1.0, 1.0)] * 2).assign(workload=["workloadb", "workloada"])
    exp = _folder(runs, pd.DataFrame(), {}, {"plan": {"workloads": ["workloada", "workloadb"]}})
    assert exp.workloads == ["workloada", "workloadb"]


def test_all_operations_leave_out_read_modify_write_whose_halves_are_already_counted(tmp_path):
    from ycsbctl.results import histogram as hdr

    (tmp_path / "histograms").mkdir()
    files = {}
    for op, values in (("READ", [100, 200]), ("UPDATE", [300]), ("READ-MODIFY-WRITE", [500, 600, 700])):
        h = hdr.new_histogram()
        hdr.record_many(h, values)
        files[op] = f"r.{op}.hdr"
        (tmp_path / "histograms" / files[op]).write_text(hdr.encode(h), encoding="ascii")
    exp = _folder(_runs([]), pd.DataFrame(), {"r": {"histograms": files}})
    exp.path = tmp_path
    merged = exp.histogram("r", "ALL")
    assert merged.get_total_count() == 3 and merged.get_max_value() < 400


def test_points_of_a_named_phase_and_the_first_repetitions_text_and_server():
    runs = _runs([("redis", 8, "ok", 1000.0, 100.0, "server-cpu", None, 1.0, 1000.0),
                  ("redis", 8, "ok", 2000.0, 200.0, "server-cpu", None, 1.0, 1000.0),
                  ("redis", 8, "ok", 5000.0, 500.0, "latency", None, 1.0, 1000.0)])
    runs["bottleneck_text"] = ["first text", "second text", "latency text"]
    runs["server"] = ["Redis 7.0.15", "Redis 7.2.0", "Redis 7.4.0"]
    runs["phase"] = ["run", "run", "load"]
    p = points(runs, phase="run").iloc[0]
    assert (p["reps"], p["throughput_mean"]) == (2, 1500.0)  # the load row is another phase
    assert p["bottleneck_text"] == "first text" and p["server"] == "Redis 7.0.15"
    assert points(runs, phase="load").iloc[0]["throughput_mean"] == 5000.0


def test_the_latest_folder_is_the_newest_finished_one_never_a_hidden_partial(tmp_path):
    import os

    from ycsbctl.results.frames import latest

    for name, mtime in (("old", 1_000), (".new.partial", 3_000), ("newer", 2_000), ("no-manifest", 4_000)):
        (tmp_path / name).mkdir()
        if name != "no-manifest":
            (tmp_path / name / "manifest.json").write_text("{}")
            os.utime(tmp_path / name / "manifest.json", (mtime, mtime))
    assert latest(tmp_path) == tmp_path / "newer"


def test_the_latency_choices_are_the_five_statistics_each_its_own_column():
    from ycsbctl.results.frames import LATENCY_CHOICES

    # The choices `--latency` offers and the error names: mean, median, p95, p99, p99.9, none twice.
    assert [latency_column(c) for c in LATENCY_CHOICES] == [
        "all_mean_us", "all_p50_us", "all_p95_us", "all_p99_us", "all_p999_us"]
    with pytest.raises(UserError, match=r"use one of avg, p50, p95, p99, p999$"):
        latency_column("p42")


def test_an_interrupted_repetition_is_worse_than_a_degraded_one_in_either_order():
    for statuses in (["degraded", "interrupted"], ["interrupted", "degraded"]):
        runs = _runs([("redis", 8, s, 1000.0, 100.0, None, None, 1.0, 1000.0) for s in statuses])
        assert points(runs).iloc[0]["status"] == "interrupted", statuses


def test_the_id_is_the_manifests_and_else_the_folders_name():
    from pathlib import Path

    from ycsbctl.results.frames import Experiment
    from ycsbctl.results.schema import Manifest

    def exp(experiment_id: str) -> Experiment:
        return Experiment(Path("/reports/folder-name"), Manifest.from_dict({"experiment_id": experiment_id}),
                          _runs([]), pd.DataFrame(), pd.DataFrame(), pd.DataFrame())

    assert exp("manifest-id").id == "manifest-id"
    assert exp("").id == "folder-name"


def test_a_run_whose_json_is_damaged_is_described_by_its_own_row_of_the_run_table():
    runs = _runs([("redis", 8, "ok", 1000.0, 100.0, None, None, 1.0, 1000.0),
                  ("valkey", 16, "failed", None, None, None, "boom", None, None)]).assign(repetition=[1, 2])
    exp = _folder(runs, pd.DataFrame(), {})  # no run JSON read: each was damaged
    assert exp.run_doc("r1") == {"run_id": "r1", "target": "valkey", "workload": "workloadb", "phase": "run",
                                 "threads": 16, "repetition": 2, "status": "failed", "error": "boom",
                                 "result": None, "histograms": {}}
    assert exp.run_doc("r0")["target"] == "redis" and exp.run_doc("r0")["threads"] == 8
    with pytest.raises(UserError, match="has no result \\(status failed: boom\\)"):
        exp.phase_result("r1")
    exp.docs["r2"] = {"run_id": "r2", "status": "skipped", "result": None}
    with pytest.raises(UserError, match="has no result \\(status skipped: no error recorded\\)"):
        exp.phase_result("r2")


def test_a_damaged_histogram_reads_as_empty_and_is_named_once(tmp_path, capsys):
    (tmp_path / "histograms").mkdir()
    (tmp_path / "histograms" / "r.READ.hdr").write_text("not a histogram", encoding="ascii")
    exp = _folder(_runs([]), pd.DataFrame(), {"r": {"histograms": {"READ": "r.READ.hdr"}}})
    exp.path = tmp_path
    assert exp.histogram("r", "READ").get_total_count() == 0
    assert exp.histogram("r", "READ").get_total_count() == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "r.READ.hdr is damaged" in line]
    assert len(warnings) == 1


def test_telemetry_time_of_a_clock_that_started_at_zero_counts_from_zero():
    tel = pd.DataFrame({"run_id": ["a", "a"], "t_mono": [0.0, 1.0], "cpu_pct": 1.0})
    exp = _folder(_runs([]), tel, {"a": {"result": None}})
    assert exp.telemetry_of("a")["t_s"].tolist() == [0.0, 1.0]


def test_an_experiments_points_are_of_p99_unless_told_otherwise():
    runs = _runs([("redis", 8, "ok", 1000.0, 100.0, None, None, 1.0, 1000.0)]).assign(all_p95_us=50.0)
    exp = _folder(runs, pd.DataFrame(), {})
    assert exp.points().iloc[0]["latency_mean"] == 100.0
    assert exp.points("p95").iloc[0]["latency_mean"] == 50.0


def test_each_workload_sweeps_in_its_own_phase():
    from ycsbctl.results.frames import sweep_phase

    runs = _runs([("redis", 8, "ok", 1000.0, 100.0, None, None, 1.0, 1000.0)] * 3).assign(
        workload=["workloadb", "workloadb", "insert"], phase=["load", "run", "load"])
    assert sweep_phase(runs, "workloadb") == "run"
    assert sweep_phase(runs, "insert") == "load"  # insert-only: its sweep is the load phase
    assert sweep_phase(runs, "workloada") == "run"  # nothing ran yet: the run phase


def test_a_points_error_is_its_first_repetitions_and_a_tied_label_the_most_severe():
    runs = _runs([("redis", 16, "interrupted", None, None, "latency", "stopped", None, None),
                  ("redis", 16, "skipped", None, None, "server-cpu", "no server", None, None)])
    p = points(runs).iloc[0]
    assert p["error"] == "stopped"
    # One repetition each: a tie goes to the label that most says the number is not the server's
    # own (server-cpu before latency), whatever the order of the repetitions, with that label's text.
    assert p["bottleneck"] == "server-cpu" and p["bottleneck_text"] == "server-cpu"
    assert points(runs.iloc[::-1]).iloc[0]["bottleneck"] == "server-cpu"
    client = _runs([("redis", 16, "ok", 1.0, 1.0, "server-cpu", None, None, None),
                    ("redis", 16, "ok", 1.0, 1.0, "client-cpu", None, None, None)])
    assert points(client).iloc[0]["bottleneck"] == "client-cpu"  # the client's limit is never hidden
    majority = _runs([("redis", 16, "ok", 1.0, 1.0, label, None, None, None)
                      for label in ("latency", "latency", "client-cpu")])
    assert points(majority).iloc[0]["bottleneck"] == "latency"  # no tie: the most frequent label


def test_a_points_cpu_is_the_mean_of_its_ok_repetitions_telemetry_before_engine_seconds():
    runs = _runs([("redis", 8, "ok", 1000.0, 100.0, None, None, 1.0, 2000.0),
                  ("redis", 8, "ok", 1000.0, 100.0, None, None, 3.0, 2000.0),
                  ("redis", 8, "failed", 1000.0, 100.0, None, "boom", 9.0, 2000.0)]).assign(
        server_cpu_pct_mean=[90.0, 110.0, 500.0], server_cpu_share=[0.9, 1.1, 5.0],
        client_cpu_pct_mean=[40.0, 60.0, 400.0])
    p = points(runs).iloc[0]
    assert (p["server_cpu_pct"], p["server_cpu_share"]) == (100.0, 1.0)  # (90 + 110) / 2, the failed one left out
    # The client's sampled CPU (40 % and 60 %), not the engine's 1 s and 3 s over 2 s (50 % and 150 %).
    assert p["client_cpu_pct"] == 50.0


def test_an_empty_error_or_label_is_none():
    runs = _runs([("redis", 8, "failed", None, None, "", "", None, None)])
    p = points(runs).iloc[0]
    assert p["error"] is None and p["bottleneck"] is None and p["bottleneck_text"] is None


def test_a_damaged_table_or_manifest_is_named_and_the_runs_read_from_their_json(truth_experiments, tmp_path,
                                                                               capsys):
    import shutil

    truth = pd.read_parquet(truth_experiments[1] / "runs.parquet")  # the table the run wrote
    load(truth_experiments[1])
    assert "is damaged" not in capsys.readouterr().err  # a sound folder is read from its tables, silently
    for victim, garbage in (("telemetry.parquet", b"PAR1 cut short"), ("manifest.json", b"{ not json")):
        folder = tmp_path / victim / "B"
        shutil.copytree(truth_experiments[1], folder)
        (folder / victim).write_bytes(garbage)
        exp = load(folder)
        (warning,) = [x for x in capsys.readouterr().err.splitlines() if "is damaged" in x]
        assert warning.startswith(f"warning: {folder / victim} is damaged"), warning
        assert sorted(exp.runs["run_id"]) == sorted(truth["run_id"])
        assert exp.runs.set_index("run_id")["operations"].to_dict() == truth.set_index("run_id")["operations"].to_dict()
    assert exp.id == "B"  # without its manifest the folder's name is its id


def test_a_status_unknown_to_this_version_is_never_ok_nor_above_a_known_failure():
    # A folder written by another version may carry a status this one does not know ("timeout"):
    # the point is not ok (not every repetition is), whatever the order of the repetitions; a known
    # non-ok status still says more than it (failed, interrupted, degraded, even skipped win).
    for statuses, want in ((["ok", "timeout"], "timeout"), (["timeout", "skipped"], "skipped"),
                           (["timeout", "failed"], "failed")):
        for order in (statuses, statuses[::-1]):
            runs = _runs([("redis", 8, s, 1000.0, 100.0, None, None, 1.0, 1000.0) for s in order])
            p = points(runs).iloc[0]
            assert (p["status"], p["ok"], p["reps"]) == (want, order.count("ok"), 2), order


def test_a_label_unknown_to_this_version_loses_a_tie_even_to_latency():
    # BOTTLENECK_SEVERITY ends with latency, the least severe known label; a label of another version
    # ("disk") comes after it, in either order of the repetitions, and the majority still wins over it.
    for order in (["disk", "latency"], ["latency", "disk"]):
        runs = _runs([("redis", 8, "ok", 1.0, 1.0, label, None, None, None) for label in order])
        assert points(runs).iloc[0]["bottleneck"] == "latency", order
    runs = _runs([("redis", 8, "ok", 1.0, 1.0, label, None, None, None) for label in ("disk", "disk", "stall")])
    assert points(runs).iloc[0]["bottleneck"] == "disk"
