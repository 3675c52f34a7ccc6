"""``ycsbctl … --cluster`` on hosts made of network namespaces (see tests/fixtures/lab.py).

Truths: Redis's own ``INFO commandstats`` after ``CONFIG RESETSTAT`` (read = HGETALL, update and
insert = HMSET, insert also ZADD _indices) and ``DBSIZE``; the hosts named in the result are the
lab's Dask workers; a killed client host is gone from the scheduler, not from our bookkeeping.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import psutil
import pytest

from tests.fixtures.lab import LabDriver, runs
from tests.fixtures.servers import processes_of
from tests.fixtures.waiting import wait_until

# Not marked ``report``: no test here reads a report a sweep draws (the one that reads report.html draws it
# with `ycsbctl report`), and a sweep drawing one in the lab cost seconds a point (tests/fixtures/session.py).

RECORDS = 2000
TARGET = "redis://198.18.0.10:6379"
IPERF = "198.18.0.10"  # the lab's iperf3 -s, next to the server


def _series_total(folder: Path, run_id: str, op: str) -> int:
    """Operations of ``op`` over every second of a run, warm-up included (series.parquet)."""
    import pandas as pd

    s = pd.read_parquet(folder / "series.parquet")
    s = s[(s.run_id == run_id) & (s.op == op)]
    return int(s.operations.sum())


@pytest.fixture(scope="module")
def loaded(lab: LabDriver, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The lab's server loaded through both client hosts (checked against DBSIZE and commandstats)."""
    lab.redis("FLUSHALL")
    lab.redis("CONFIG", "RESETSTAT")
    out = tmp_path_factory.mktemp("load") / "load"
    r = lab.ycsbctl("load", "workload-b", "--target", TARGET, "--cluster", lab.lab.scheduler, "--threads", "4",
                    "--records", str(RECORDS), "--out", str(out), "--quiet")
    assert r.returncode == 0, r.stderr
    calls = lab.calls()
    # every record written exactly once: two shards with disjoint insertstart/insertcount ranges
    assert calls["hmset"] == calls["zadd"] == RECORDS
    assert int(lab.redis("DBSIZE")) == RECORDS + 1  # the records and _indices
    (doc,) = runs(out).values()
    assert doc["result"]["ops"]["INSERT"]["operations"] == RECORDS
    assert sorted(s["name"] for s in doc["result"]["cluster"]["shards"]) == ["c1", "c2"]
    return out


def test_a_run_through_two_client_hosts_counts_what_the_server_counted(lab: LabDriver, loaded: Path,
                                                                       tmp_path: Path) -> None:
    lab.redis("CONFIG", "RESETSTAT")
    out = tmp_path / "run"
    r = lab.ycsbctl("run", "workload-b", "--target", TARGET, "--cluster", lab.lab.scheduler, "--threads", "4",
                    "--records", str(RECORDS), "--duration", "2", "--warmup", "1", "--no-load", "--out", str(out),
                    "--iperf-server", IPERF, "--quiet")
    assert r.returncode == 0, r.stderr
    assert "plain TCP without authentication" in r.stderr  # one warning line for a tcp:// scheduler
    calls = lab.calls()
    ((run_id, doc),) = runs(out).items()
    assert doc["status"] == "ok", doc["error"]
    # merged per-second counts of both hosts, warm-up included, against the server's own counters
    assert _series_total(out, run_id, "READ") == calls["hgetall"] > 0
    assert _series_total(out, run_id, "UPDATE") == calls["hmset"] > 0
    cluster = doc["result"]["cluster"]
    assert sorted(s["name"] for s in cluster["shards"]) == ["c1", "c2"]
    assert sorted(s["threads"] for s in cluster["shards"]) == [2, 2]
    assert all(s["client_cpu_pct"] > 0 for s in cluster["shards"])
    # the start skew is recorded; all lab hosts share one clock, so it is the spread of the shards'
    # lateness after the start time the controller chose: never more than the latest one's, at any speed
    late = [s["start_late_ms"] for s in cluster["shards"]]
    assert all(x >= 0 for x in late)
    # (each figure is rounded to 0.001 ms on its own: the spread of the rounded ones may be 0.001 off,
    # and float subtraction adds its own last bit: 1.559 against 1.755 - 0.197 + 0.001 failed once)
    assert 0 <= cluster["start_skew_ms"] <= max(late) - min(late) + 0.002
    hosts = {row for row in _telemetry_sources(out) if row.startswith("client-host:")}
    assert hosts == {"client-host:c1", "client-host:c2"}
    assert doc["telemetry_summary"]["client_cpu_source"] == "cluster"
    assert doc["bottleneck"]["label"] != "network"  # an unshaped link with 100-byte fields is not the limit
    assert lab.ycsbctl("report", str(out)).returncode == 0  # a single point writes no report by itself
    html = (out / "report.html").read_text()
    section = html[html.index('id="client-hosts"'):]
    assert '<td class="l">c1</td>' in section and '<td class="l">c2</td>' in section  # per-host rows in the report


def test_a_mongodb_wire_load_through_two_client_hosts_writes_each_record_once(lab: LabDriver, tmp_path: Path) -> None:
    url = lab.lab.mongo_url
    assert url is not None
    out = tmp_path / "load"
    r = lab.ycsbctl("load", "workload-b", "--target", url, "--cluster", lab.lab.scheduler, "--threads", "4",
                    "--records", "500", "--out", str(out), "--quiet")
    assert r.returncode == 0, r.stderr
    count = ("import sys, pymongo; c = pymongo.MongoClient(sys.argv[1]); "
             "print(c.get_default_database().usertable.count_documents({}), "
             "len(c.get_default_database().usertable.distinct('_id')))")
    got = lab.lab.run("ctl", [lab.lab.python, "-c", count, url], timeout=60)
    assert got.returncode == 0, got.stderr
    assert got.stdout.split() == ["500", "500"]  # the server's own count: every key once
    (doc,) = runs(out).values()
    assert sorted(s["name"] for s in doc["result"]["cluster"]["shards"]) == ["c1", "c2"]


def test_a_scheduler_without_workers_stops_the_sweep_with_one_line(lab: LabDriver, loaded: Path,
                                                                 tmp_path: Path) -> None:
    empty = "tcp://198.18.0.2:8790"
    lab.lab.start_process("ctl-empty-scheduler", "ctl", [lab.lab.python, "-m", "distributed.cli.dask_scheduler",
                                                          "--host", "198.18.0.2", "--port", "8790", "--no-dashboard"])
    try:
        lab.lab.wait_port("ctl", "198.18.0.2", 8790)
        out = tmp_path / "run"
        r = lab.ycsbctl("run", "workload-b", "--target", TARGET, "--cluster", empty, "--threads", "2,4",
                        "--records", str(RECORDS), "--duration", "2", "--no-load", "--out", str(out), "--quiet")
        assert r.returncode == 1
        errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
        assert errors == [f"error: no Dask worker is left at {empty}: start `dask worker {empty}` on each client host"]
        assert "Traceback" not in r.stderr
        assert json.loads((out / "manifest.json").read_text())["status"] != "complete"
    finally:
        lab.lab.kill("ctl-empty-scheduler")


def test_a_loopback_target_is_refused_when_the_workers_are_other_hosts(lab: LabDriver, tmp_path: Path) -> None:
    # a redis-server on the controller host's own loopback: it answers there, but not from c1 or c2
    lab.lab.start_process("ctl-redis", "ctl", ["redis-server", "--bind", "127.0.0.1", "--port", "6379", "--save", "",
                                               "--appendonly", "no"])
    try:
        lab.lab.wait_port("ctl", "127.0.0.1", 6379)
        r = lab.ycsbctl("run", "workload-b", "--target", "redis://127.0.0.1:6379", "--cluster", lab.lab.scheduler,
                        "--threads", "2,4", "--duration", "1", "--no-load", "--no-telemetry", "--quiet")
    finally:
        lab.lab.kill("ctl-redis")
    assert r.returncode == 2
    assert [line for line in r.stderr.splitlines() if line.startswith("error:")] == [
        "error: the target redis://127.0.0.1:6379 is on this host's loopback, which Dask workers on other hosts "
        "(c1, c2) cannot reach: give the server an address they can reach"]


def _telemetry_sources(folder: Path) -> set[str]:
    import pandas as pd

    return set(pd.read_parquet(folder / "telemetry.parquet").source)


def _shard_running(worker_pid: int) -> bool:
    try:
        procs = psutil.Process(worker_pid).children(recursive=True)
    except psutil.Error:
        return False
    return any("ycsbctl.engine.shard_process" in " ".join(p.cmdline()) for p in procs if _quiet(p))


def _quiet(p: psutil.Process) -> bool:
    try:
        p.cmdline()
        return True
    except psutil.Error:
        return False


def _kill_mid_point(lab: LabDriver, name: str, workers: list[int], at: list[float] | None = None,
                    before_start: bool = False) -> tuple[threading.Thread, threading.Event]:
    """Kill the lab's process ``name`` 1.5 s after the point is measuring: the shards under ``workers``
    (worker PIDs) run and the server has seen reads; with ``before_start``, as soon as those shards'
    processes exist (placed, still starting their clients). Returns the thread and an event set once
    killed; ``at`` gets the kill's time (s since the epoch, the clock the run documents' times are read off)."""
    killed = threading.Event()

    def measuring() -> bool:
        return all(_shard_running(p) for p in workers) and (before_start or bool(lab.calls().get("hgetall")))

    def kill() -> None:
        end = time.monotonic() + 120
        while not measuring() and time.monotonic() < end:
            time.sleep(0.02 if before_start else 0.2)
        time.sleep(0 if before_start else 1.5)
        lab.lab.kill(name)
        if at is not None:
            at.append(time.time())
        killed.set()

    t = threading.Thread(target=kill, daemon=True)
    t.start()
    return t, killed


def _wall_s(doc: dict) -> float:
    """A point's wall time (s, to the second the run document records), its start phase included."""
    from datetime import datetime

    return (datetime.fromisoformat(doc["ended_at"]) - datetime.fromisoformat(doc["started_at"])).total_seconds()


def _sweep_losing_c2(lab: LabDriver, out: Path, before_start: bool) -> tuple[dict, dict, str]:
    """A 2,4-thread sweep whose c2 worker is killed in its first point (mid-point, or as the point starts):
    its two points' run documents and the sweep's stderr; c2 is started again after."""
    lab.redis("CONFIG", "RESETSTAT")
    t, killed = _kill_mid_point(lab, "c2-worker", [lab.lab.pids["c2-worker"]], before_start=before_start)
    try:
        r = lab.ycsbctl("run", "workload-b", "--target", TARGET, "--cluster", lab.lab.scheduler, "--threads", "2,4",
                        "--records", str(RECORDS), "--duration", "4", "--no-load", "--out", str(out), "--quiet")
        t.join(5)
        assert killed.is_set()
        assert r.returncode == 1, r.stderr  # a failed point
        docs = runs(out)
        first, second = (docs[k] for k in sorted(docs, key=lambda k: docs[k]["threads"]))
        return first, second, r.stderr
    finally:
        lab.lab.kill("c2-worker")
        lab.lab.start_worker("c2")
        lab.lab.wait_workers(2)


def _ran_on_what_remained(point: dict) -> None:
    """A point measured to its end after a client host was lost: ok, or degraded by a stall or the host's other
    work (never by the lost host, never failed)."""
    assert point["status"] in ("ok", "degraded"), point["error"]
    assert point["status"] == "ok" or "c2" not in (point["error"] or ""), point["error"]


def test_a_lost_client_host_fails_its_point_and_the_sweep_goes_on(lab: LabDriver, loaded: Path, tmp_path: Path) -> None:
    first, second, err = _sweep_losing_c2(lab, tmp_path / "mid", before_start=False)
    assert first["status"] == "failed"
    assert first["error"].startswith("client host c2") and "lost" in first["error"]
    assert first["result"]["operations"] > 0  # what was measured before the loss is kept
    lost = [s for s in first["result"]["cluster"]["shards"] if s["lost"]]
    assert [s["name"] for s in lost] == ["c2"]
    # the next point ran with the host that remained, and said so: measured whole (ok, or degraded where the host
    # starved its client for a while — not this test's to judge: 1.2 s of 4.9 s once beside other suites)
    _ran_on_what_remained(second)
    assert [s["name"] for s in second["result"]["cluster"]["shards"]] == ["c1"]
    assert second["result"]["operations"] > 0
    assert "note: client host c2 left the Dask scheduler: this point runs on c1" in err.splitlines(), err
    # c2 lost as the point starts (its shard placed, c1's starting): c1's shard is stopped and its one
    # thread freed before the next point, which once waited out the 90 s barrier behind it and failed
    first, after_start_loss, err = _sweep_losing_c2(lab, tmp_path / "start", before_start=True)
    assert first["status"] == "failed"
    assert first["error"].startswith("client host c2") and "before the start" in first["error"], first["error"]
    _ran_on_what_remained(after_start_loss)
    assert [s["name"] for s in after_start_loss["result"]["cluster"]["shards"]] == ["c1"]
    assert "note: client host c2 left the Dask scheduler: this point runs on c1" in err.splitlines(), err
    # the same point after a loss mid-point is the yardstick (+1 s: the documents' times are whole seconds)
    assert _wall_s(after_start_loss) <= 3 * (_wall_s(second) + 1)


def test_a_lost_scheduler_fails_its_point_in_one_line_and_stops_the_sweep(lab: LabDriver, loaded: Path,
                                                                          tmp_path: Path) -> None:
    """The scheduler killed mid-point: the point keeps what was measured and fails with one line, the
    sweep stops with one line (no later point can run), no traceback, and no shard is left running."""
    workers = [lab.lab.pids["c1-worker"], lab.lab.pids["c2-worker"]]
    lab.redis("CONFIG", "RESETSTAT")
    at: list[float] = []
    t, killed = _kill_mid_point(lab, "ctl-scheduler", workers, at)
    out = tmp_path / "run"
    try:
        r = lab.ycsbctl("run", "workload-b", "--target", TARGET, "--cluster", lab.lab.scheduler, "--threads", "2,4",
                        "--records", str(RECORDS), "--duration", "8", "--warmup", "0", "--no-load", "--no-telemetry",
                        "--out", str(out), "--quiet")
        t.join(5)
        assert killed.is_set()
        assert r.returncode == 1, r.stderr
        assert "Traceback" not in r.stderr, r.stderr
        # Dask's own lines about the loss (a closed connection's traceback, "Failed to reconnect") are left out
        assert "Batched Comm Closed" not in r.stderr and "Failed to reconnect" not in r.stderr, r.stderr
        (stop_line,) = [x for x in r.stderr.splitlines() if x.startswith("error:")]
        assert lab.lab.scheduler in stop_line, r.stderr  # the sweep's stop names the scheduler
        docs = runs(out)
        assert [d["threads"] for d in docs.values()] == [2]  # the 4-thread point never started
        (first,) = docs.values()
        assert first["status"] == "failed"
        # once the loss is told, nothing more is asked of the gone scheduler: each call would wait out the
        # client's reconnecting (CONNECT_TIMEOUT_S; the point once ended that long after the kill). So the point
        # ends sooner after the kill than it ran before it (its start on this host, then 1.5 s measuring); the
        # point's end, not the command's: what follows it (the folder, the report) takes as long as the host lets it
        from datetime import datetime

        started, ended = (datetime.fromisoformat(first[k]).timestamp() for k in ("started_at", "ended_at"))
        assert ended - at[0] < at[0] - started, (first["started_at"], at, first["ended_at"])
        assert first["error"].startswith(f"the Dask scheduler at {lab.lab.scheduler} was lost"), first["error"]
        assert "\n" not in first["error"]
        assert first["result"]["operations"] > 0  # what was measured before the loss is kept
        assert {s["name"] for s in first["result"]["cluster"]["shards"] if s["lost"]} == {"c1", "c2"}
        end = time.monotonic() + 90  # each shard stops by itself once its queue to the scheduler fails
        while any(_shard_running(p) for p in workers) and time.monotonic() < end:
            time.sleep(0.2)
        assert not any(_shard_running(p) for p in workers)
    finally:
        lab.lab.kill("ctl-scheduler")
        lab.lab.start_scheduler()
        # Dask's workers do not come back to a new scheduler at the same address (waiting 30 s for them
        # never saw one): start them again
        for host in ("c1", "c2"):
            lab.lab.kill(f"{host}-worker")
            lab.lab.start_worker(host)
        lab.lab.wait_workers(2)


@pytest.mark.parametrize("how", ["ctrl-c", "killed"])
def test_a_controller_stopped_by_ctrl_c_or_killed_leaves_no_shard_running(lab: LabDriver, loaded: Path, tmp_path: Path,
                                                                          how: str) -> None:
    import os
    import signal
    import subprocess
    import sys

    lab.redis("CONFIG", "RESETSTAT")
    code = "import sys; from ycsbctl.cli import main; sys.exit(main())"
    out = tmp_path / "run"
    proc = subprocess.Popen(lab.lab.exec_argv("ctl") + [
        sys.executable, "-c", code, "run", "workload-b", "--target", TARGET, "--cluster", lab.lab.scheduler,
        "--threads", "4", "--records", str(RECORDS), "--duration", "60", "--no-load", "--out", str(out), "--quiet"],
        env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2])),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 120
        while not lab.calls().get("hgetall") and time.monotonic() < end:
            time.sleep(0.2)
        time.sleep(1.0)
        proc.send_signal(signal.SIGINT if how == "ctrl-c" else signal.SIGKILL)
        _, err = proc.communicate(timeout=40)  # far less than the 60 s the point would have run
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == (130 if how == "ctrl-c" else -signal.SIGKILL), err
    workers = [lab.lab.pids["c1-worker"], lab.lab.pids["c2-worker"]]
    end = time.monotonic() + 20
    while any(_shard_running(p) for p in workers) and time.monotonic() < end:
        time.sleep(0.2)
    assert not any(_shard_running(p) for p in workers)  # no shard left behind on a client host
    if how == "killed":  # the scheduler released the controller's tasks: each shard stopped by itself
        return
    assert json.loads((out.parent / next(p.name for p in out.parent.iterdir()) / "manifest.json")
                      .read_text())["status"] == "interrupted"


def test_a_shaped_server_link_is_the_baseline_and_the_limit(lab: LabDriver, tmp_path: Path) -> None:
    """Last in this module: it reloads the server with 40 KB records."""
    lab.lab.shape("200mbit")
    try:
        out = tmp_path / "run"
        r = lab.ycsbctl("run", "workload-b", "--target", TARGET, "--cluster", lab.lab.scheduler, "--threads", "8",
                        # 4 s: a 2 s point once read 64% of the iperf3 baseline, under the 70% a
                        # network label needs
                        "--records", "500", "-p", "fieldlength=4000", "--load", "--duration", "4",
                        "--iperf-server", IPERF, "--out", str(out), "--quiet")
        assert r.returncode == 0, r.stderr
        manifest = json.loads((out / "manifest.json").read_text())
        (baseline,) = manifest["network"].values()
        # iperf3 through the shaped link, on each Dask worker too: never faster than its shape (an unshaped path reads
        # over 1 Gbit/s), and slower only as far as a busy host makes it (its 1 s reading read 0.154 once, the suite
        # keeping both cores busy)
        def shaped(gbit_s: float) -> bool:
            return 0.5 * 0.2 <= gbit_s <= 1.15 * 0.2

        assert shaped(baseline["gbit_s"]), baseline
        hosts = {h["name"]: h["gbit_s"] for h in baseline["client_hosts"]}
        assert set(hosts) == {"c1", "c2"} and all(map(shaped, hosts.values())), hosts
        point = next(d for d in runs(out).values() if d["phase"] == "run")
        assert point["bottleneck"]["label"] == "network", point["bottleneck"]["text"]
        assert point["bottleneck"]["why"].startswith("network: "), point["bottleneck"]["why"]  # the planted cause
    finally:
        lab.lab.unshape()


def _processes_of(folder: Path) -> list[str]:
    """The command lines of the processes a lab whose state is under ``folder`` started (:func:`processes_of`)."""
    return [" ".join(p.info["cmdline"] or []) for p in processes_of(folder)]


def test_lab_up_and_down_from_the_command_line_leave_nothing_behind(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    if os.geteuid() != 0:
        pytest.skip("the namespace lab creates network namespaces: run the tests as root")
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root), YCSBCTL_STATE_DIR=str(tmp_path / "state"))
    code = "import sys; from ycsbctl.cli import main; sys.exit(main())"

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=180)

    up = cli("lab", "up", "--clients", "1", "--link", "1.29gbit")
    tag = "?"
    try:
        assert up.returncode == 0, up.stderr
        tag = json.loads((tmp_path / "state" / "lab.json").read_text())["tag"]
        ours = [n for n in subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split()
                if n.startswith(f"yl{tag}-")]
        assert sorted(ours) == sorted(f"yl{tag}-{h}" for h in ("sw", "ctl", "srv", "c1"))
        assert "--cluster tcp://198.18.0.2:8786" in up.stdout and "shaped to 1.29gbit" in up.stdout
        assert f"logs in {tmp_path / 'state' / 'lab-logs'}" in up.stdout  # beside its state, not in /tmp
        again = cli("lab", "up")
        assert again.returncode == 2 and "lab down" in again.stderr  # one lab at a time per state dir
        assert any("198.18." in cmd for cmd in _processes_of(tmp_path))  # the check below sees the lab's processes
    finally:
        down = cli("lab", "down")
    assert down.returncode == 0, down.stderr
    left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert f"yl{tag}-" not in left
    assert not (tmp_path / "state" / "lab.json").exists()
    assert not _processes_of(tmp_path)


@pytest.mark.parametrize("sign", ["lab.json", "lab-logs/ctl-scheduler.log"], ids=["hosts-made", "processes-starting"])
def test_ctrl_c_during_lab_up_removes_what_it_made_in_one_line(tmp_path: Path, sign: str) -> None:
    """Interrupted once its hosts exist (its state file is written), or once it starts the Dask
    scheduler (its log appears). The lab's redis-server is held for 60 s before it starts (a
    wrapper first on PATH), so `lab up` is still waiting for it when the signal comes, at any speed."""
    import os
    import shutil
    import signal
    import subprocess
    import sys

    if os.geteuid() != 0:
        pytest.skip("the namespace lab creates network namespaces: run the tests as root")
    real = shutil.which("redis-server")
    if real is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")

    def namespaces() -> set[str]:
        out = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True).stdout
        return {line.split()[0] for line in out.splitlines() if line.strip()}

    slow = tmp_path / "bin" / "redis-server"
    slow.parent.mkdir()
    slow.write_text(f'#!/bin/sh\nsleep 60\nexec {real} "$@"\n')
    slow.chmod(0o755)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
           "YCSBCTL_STATE_DIR": str(tmp_path / "state"),
           "PATH": f"{slow.parent}:{os.environ['PATH']}"}
    code = "import sys; from ycsbctl.cli import main; sys.exit(main())"
    proc = subprocess.Popen([sys.executable, "-c", code, "lab", "up", "--clients", "1"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (tmp_path / "state" / sign).exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert proc.poll() is None, f"`lab up` ended before {sign} appeared: {proc.communicate()}"
    wait_until(lambda: (tmp_path / "state" / "lab.json").exists(), 60, "the lab's state (its hosts' tag)")
    tag = json.loads((tmp_path / "state" / "lab.json").read_text())["tag"]
    assert any(n.startswith(f"yl{tag}-") for n in namespaces())  # the check below sees the lab's hosts
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, (stdout, stderr)
    assert stderr.strip().splitlines() == [
        "ycsbctl: `lab up` interrupted: the namespaces and processes it had made were removed"], stderr
    assert not [n for n in namespaces() if n.startswith(f"yl{tag}-")]
    assert not (tmp_path / "state" / "lab.json").exists()
    leftovers = _processes_of(tmp_path)
    assert not leftovers, leftovers
