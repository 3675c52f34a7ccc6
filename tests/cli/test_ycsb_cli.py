"""The real Java YCSB through the CLI, and its logs imported next to native runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fixtures.cli import ycsbctl
from tests.fixtures.servers import YCSB_LIB
from ycsbctl.results import load

pytestmark = pytest.mark.report  # reads the report a sweep draws (see tests/fixtures/session.py)


def test_run_with_the_java_engine_then_import_its_log_next_to_a_native_run(ycsb_classpath, tmp_path: Path) -> None:
    java_dir, native_dir = tmp_path / "java", tmp_path / "native"
    proc = ycsbctl("run", "workload-b", "--engine", "ycsb", "--ycsb-home", str(YCSB_LIB), "--targets", "basic",
                    "--threads", "1,2", "--duration", "1", "--warmup", "0", "--out", str(java_dir))
    assert proc.returncode == 0, proc.stderr[-2000:]
    java = load(java_dir)
    runs = java.runs[java.runs["phase"] == "run"]
    assert sorted(runs["threads"]) == [1, 2]
    assert set(runs["engine"]) == {"ycsb"} and set(runs["status"]) == {"ok"}
    assert (runs["operations"] > 0).all()
    assert (java_dir / "report.html").is_file()

    proc = ycsbctl("run", "workload-b", "--targets", "basic", "--threads", "2", "--duration", "1", "--warmup", "0",
                    "--no-telemetry", "--out", str(native_dir))
    assert proc.returncode == 0, proc.stderr[-2000:]

    # The raw YCSB output of the 2-thread Java run, as a user would have it in a log file.
    doc = json.loads(next((java_dir / "runs").glob("*.t2.*.json")).read_text())
    log = tmp_path / "ycsb-2.log"
    log.write_text(doc["result"]["ycsb"]["text"])
    proc = ycsbctl("import-ycsb", str(log), "--out", str(native_dir), "--target", "basic-ycsb", "--workload",
                   "workloadb")
    assert proc.returncode == 0, proc.stderr[-2000:]
    both = load(native_dir)
    assert set(both.runs["target"]) == {"basic", "basic-ycsb"}
    imported = both.runs[both.runs["target"] == "basic-ycsb"].iloc[0]
    assert imported["engine"] == "ycsb" and imported["threads"] == 2
    assert imported["operations"] == runs[runs["threads"] == 2]["operations"].iloc[0]

    proc = ycsbctl("report", str(native_dir))
    assert proc.returncode == 0, proc.stderr[-2000:]
    html = (native_dir / "report.html").read_text()
    assert "basic-ycsb" in html and "basic" in html

    again = ycsbctl("import-ycsb", str(log), "--out", str(native_dir), "--target", "basic-ycsb", "--workload",
                    "workloadb")
    assert again.returncode == 2 and "already has run" in again.stderr
