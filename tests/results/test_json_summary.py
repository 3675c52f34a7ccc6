"""``ycsbctl run|load --format json``: stdout is one JSON document (json.loads of all of it) whose
numbers are those of runs.parquet (read with pandas), of the stored HDR histograms (decoded with the
``hdrhistogram`` library) and, for the operation counts, of the module_redis's own ``INFO commandstats``."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import redis

from tests.fixtures.cli import ycsbctl
from ycsbctl.results import histogram as hdr
from ycsbctl.results.documents import from_doc
from ycsbctl.results.schema import RunSummary

RECORDS = 2000
OPERATIONS = 3000
RATE = 3000  # ops/s: a paced point, so the target rate and the schedule lag are in the document


def calls(rds: redis.Redis, command: str) -> int:
    """How many times the module_redis ran ``command`` since its statistics were reset (its own count)."""
    return int(rds.info("commandstats").get(f"cmdstat_{command}", {}).get("calls", 0))


def test_load_and_run_print_one_json_document_whose_numbers_are_the_folders_and_the_servers(module_redis, tmp_path):
    url = f"redis://127.0.0.1:{module_redis.port}"
    rds = redis.Redis(port=module_redis.port)
    rds.flushall()
    rds.config_resetstat()
    loaded = ycsbctl("load", "workload-b", "--target", url, "-p", f"recordcount={RECORDS}", "--threads", "2",
                     "--no-telemetry", "--format", "json", cwd=tmp_path)
    assert loaded.returncode == 0, loaded.stderr
    doc = json.loads(loaded.stdout)  # the whole of stdout: no YCSB block, no progress
    assert doc["folder"] is None and doc["exit_code"] == 0 and doc["experiment_id"]
    (point,) = doc["points"]
    assert (point["phase"], point["threads"], point["status"]) == ("load", 2, "ok")
    assert point["operations"] == point["ops"]["INSERT"]["returns"]["OK"] == RECORDS == calls(rds, "hmset")
    assert "→" in loaded.stderr and "ok" in loaded.stderr  # the point's human summary went to stderr

    rds.config_resetstat()
    out = tmp_path / "point"
    r = ycsbctl("run", "workload-b", "--target", url, "-p", f"recordcount={RECORDS}", "--operations", str(OPERATIONS),
                "--threads", "2", "--target-rate", str(RATE), "--no-telemetry", "--format", "json", "--out", str(out),
                cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert "NaN" not in r.stdout and "[OVERALL]" not in r.stdout
    summary = from_doc(RunSummary, doc)  # the declared shape, field by field
    assert summary.folder == str(out) and summary.experiment_id == out.name and summary.exit_code == 0
    (point,) = doc["points"]
    reads, updates = point["ops"]["READ"], point["ops"]["UPDATE"]
    # the module_redis's own counts of what it ran
    assert sum(reads["returns"].values()) == reads["returns"]["OK"] == calls(rds, "hgetall")
    assert sum(updates["returns"].values()) == updates["returns"]["OK"] == calls(rds, "hmset")
    assert point["operations"] == OPERATIONS == reads["operations"] + updates["operations"]
    assert point["target_rate_ops"] == RATE and point["status"] == "ok" and point["error"] is None

    runs = pd.read_parquet(out / "runs.parquet")
    (row,) = runs.to_dict("records")
    assert (row["run_id"], row["target"], row["workload"], row["phase"], row["threads"]) == \
        (point["run_id"], point["target"], point["workload"], "run", 2)
    assert (row["status"], row["target_rate"], row["operations"]) == (point["status"], RATE, OPERATIONS)
    assert point["throughput_ops"] == pytest.approx(row["throughput_ops"], rel=1e-12)
    assert point["throughput_ops"] == pytest.approx(1000 * OPERATIONS / point["runtime_ms"], rel=1e-12)
    assert point["bottleneck"] == (None if pd.isna(row["bottleneck"]) else row["bottleneck"])
    for op, col in (("READ", "read"), ("UPDATE", "update")):
        for key, stat in (("p50_us", "p50"), ("p95_us", "p95"), ("p99_us", "p99"), ("p999_us", "p999"),
                          ("mean_us", "mean")):
            assert point["ops"][op][key] == pytest.approx(row[f"{col}_{stat}_us"]), (op, key)
        # the maximum and the count against the stored histogram, decoded by the hdrhistogram library
        (path,) = (out / "histograms").glob(f"*.{op}.hdr")
        h = hdr.decode(path.read_text().strip())
        assert point["ops"][op]["max_us"] == h.get_max_value() and point["ops"][op]["operations"] == h.get_total_count()
    for own in ("client_lag", "schedule_lag"):  # the engine's own measures, when it took them
        assert point[own] is not None and point[own]["operations"] > 0
        assert point[own]["p99_us"] == pytest.approx(row[f"{own}_p99_us"])
        assert point[own]["max_us"] == pytest.approx(row[f"{own}_max_us"])
    assert json.loads((out / "manifest.json").read_text())["experiment_id"] == doc["experiment_id"]
    rds.close()


def test_an_unreachable_target_is_a_json_document_with_the_skip_and_exit_1(tmp_path: Path):
    r = ycsbctl("run", "workload-b", "--target", "redis://127.0.0.1:1", "-p", "recordcount=10", "--operations", "10",
                "--threads", "1", "--no-telemetry", "--format", "json", cwd=tmp_path)
    assert r.returncode == 1
    doc = json.loads(r.stdout)
    assert doc["exit_code"] == 1 and doc["points"] == []
    (skip,) = doc["skipped_targets"]
    assert "does not answer" in skip["reason"] and skip["fix"]


def test_a_disturbed_points_events_are_in_its_json_as_in_events_parquet():
    import pandas as pd

    from ycsbctl.results.events import EVENT_COLUMNS
    from ycsbctl.results.folder import RunRecord
    from ycsbctl.results.json_summary import point_summary, run_summary, to_json

    row = dict.fromkeys(EVENT_COLUMNS) | {"event": "del:set:2M@5s", "action": "del", "size": 2_000_000,
                                          "occurrence": 1, "command_s": 1.65, "server_s": float("nan"),
                                          "stall_s": 1.6, "ops_lost": 39_770.5}
    events = pd.DataFrame([row], columns=list(EVENT_COLUMNS))
    record = RunRecord("redis.workloadb.run.t16.r1", "redis", "workloadb", "run", 16, 1, "ok", events=events)
    doc = json.loads(to_json(run_summary("x", None, [record], 0)))
    (got,) = doc["points"][0]["events"]
    assert list(got) == list(EVENT_COLUMNS)
    assert got["size"] == 2_000_000 and isinstance(got["size"], int)
    assert got["server_s"] is None and got["stall_s"] == 1.6 and got["ops_lost"] == 39_770.5
    assert point_summary(RunRecord("r", "redis", "workloadb", "run", 1, 1, "ok")).events == []
