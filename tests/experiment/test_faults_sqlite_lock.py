"""A SQLite file locked by another process while a point runs: SQLite waits for the lock inside the
client's own calls (its busy timeout), so the client's loop pauses — the point is degraded and its
label names the store's lock wait and the process holding the file, never the load generator."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from tests.fixtures.cli import start, ycsbctl
from tests.fixtures.faults import clean, finish
from tests.fixtures.waiting import wait_until
from ycsbctl.stores.sqlite.store import holders

HOLDER = """
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
sys.stdin.readline()                   # "go": the point is running
c.execute("BEGIN EXCLUSIVE")           # every write of the point now waits for us
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
c.execute("COMMIT")
print("released", flush=True)
sys.stdin.readline()                   # keep the file open until the test is done
"""


def test_a_lock_held_by_another_process_is_the_stores_stall_not_the_clients(tmp_path: Path) -> None:
    db = tmp_path / "ycsb.db"
    url = f"sqlite://{db}"
    load = ycsbctl("load", "workload-a", "--target", url, "-p", "recordcount=300", "--threads", "2", "--no-telemetry",
                   cwd=tmp_path)
    assert load.returncode == 0, load.stderr
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db), "2"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    out = tmp_path / "exp"
    run = start("run", "workload-a", "--target", url, "--threads", "2", "--duration", "5", "-p", "recordcount=300",
                "--no-telemetry", "--allow-concurrent", "--out", str(out), cwd=tmp_path)
    try:
        # the run's workers have the file open: the point is under way (no warm-up with --duration)
        wait_until(lambda: holders(str(db), {holder.pid}) or run.poll() is not None, 60, "the run to open the file")
        time.sleep(0.5)
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdin.write("go\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "locked"
        stdout, stderr = finish(run)
        clean(stdout + stderr)
        assert run.returncode == 1, stderr  # a degraded point: exit 1, the folder written
        r = pd.read_parquet(out / "runs.parquet")
        point = r[r["phase"] == "run"].iloc[0]
        assert point["status"] == "degraded", point.to_dict()
        assert point["bottleneck"] == "stall", point.to_dict()  # the store's, not "client-stall"
        assert "held open by another process (python" in point["error"] and f"pid {holder.pid}" in point["error"]
        assert "not a stopped load generator" in point["bottleneck_text"]
        assert f"pid {holder.pid}" in stdout + stderr  # the console says it too
    finally:
        if run.poll() is None:
            run.kill()
        holder.kill()
        holder.wait()
