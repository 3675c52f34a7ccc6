"""A SQLite file locked by another process while a point runs: SQLite waits for the lock inside the
client's own calls (its busy timeout), so the client's loop pauses — the point is degraded and its
label names the store's lock wait and the process holding the file, never the load generator; when that
process has exited by the end of the point, the bindings' own count of calls answered SQLITE_BUSY names the lock."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pandas as pd

from tests.fixtures.cli import start, ycsbctl
from tests.fixtures.faults import clean, finish
from tests.fixtures.waiting import wait_until
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.experiment.judge import judge
from ycsbctl.stores.sqlite.binding import LONG_LOCK_S
from ycsbctl.stores.sqlite.store import PROTOCOL, holders
from ycsbctl.workload.properties import load_properties

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
        assert run.returncode == 3, stderr  # a degraded point: exit 3, the folder written
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


EXITING_HOLDER = """
import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
sys.stdin.readline()
c.execute("BEGIN EXCLUSIVE")
t0 = time.perf_counter()
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
c.execute("COMMIT")
print(time.perf_counter() - t0, flush=True)   # how long it held the lock (s), then it exits
"""


def test_a_lock_whose_holder_exited_before_the_points_end_is_named_as_sqlite_busy_not_the_client(
    tmp_path: Path,
) -> None:
    """One engine process updating while another program holds the file's lock for 1.5 s and then exits: the
    bindings counted the calls SQLite answered SQLITE_BUSY — at least one waited past LONG_LOCK_S, and all of them
    together no longer than the holder says it held the lock (one process: one call waits at a time) — and the
    judge names the lock ('database is locked'), never 'a paused, stopped or starved load generator', although no
    process holds the file any more."""
    db = tmp_path / "gone.db"
    url = f"sqlite://{db}"
    props = {**load_properties("workload-a"), "recordcount": "200", "readproportion": "0", "updateproportion": "1",
             "requestdistribution": "uniform", "operationcount": "100000000"}
    assert run_phase(PhaseSpec("load", url, props, threads=1, processes=1)).ops["INSERT"].returns == {"OK": 200}
    holder = subprocess.Popen([sys.executable, "-c", EXITING_HOLDER, str(db), "1.5"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdin is not None and holder.stdout is not None

    def lock_while_running() -> None:
        wait_until(lambda: holders(str(db), {holder.pid}), 60, "the point's worker to open the file")
        time.sleep(0.3)
        holder.stdin.write("go\n")  # type: ignore[union-attr]
        holder.stdin.flush()  # type: ignore[union-attr]

    import threading

    trigger = threading.Thread(target=lock_while_running, daemon=True)
    trigger.start()
    try:
        r = run_phase(PhaseSpec("run", url, props, threads=2, processes=1, duration_s=4.0))
        trigger.join(5)
        assert holder.stdout.readline().strip() == "locked"
        held_s = float(holder.stdout.readline())
        assert holder.wait(10) == 0 and not holders(str(db), set())  # exited: nothing holds the file now
    finally:
        holder.kill()
    counts = r.binding_counts or {}
    assert counts["sqlite_busy_long"] >= 1 and held_s >= LONG_LOCK_S, counts
    assert counts["sqlite_busy_calls"] >= counts["sqlite_busy_long"]
    assert counts["sqlite_busy_ms"] / 1000 <= held_s + 0.2, (counts, held_s)  # + the last delay and a wake-up
    said = PROTOCOL.pause_cause(url, counts)
    assert said is not None and "'database is locked' (SQLITE_BUSY)" in said and "not a stopped load generator" in said
    assert PROTOCOL.pause_cause(url, {**counts, "sqlite_busy_long": 0}) is None  # short waits: our own turns
    v = judge(r, max_error_rate=0.01, pause_cause=lambda: PROTOCOL.pause_cause(url, r.binding_counts))
    assert v.status == "degraded" and v.reason and "database is locked" in v.reason, v
    assert "paused, stopped or starved" not in v.reason and v.bottleneck and v.bottleneck["label"] != "client-stall"
