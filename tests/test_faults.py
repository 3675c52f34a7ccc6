"""The fault suite: ycsbctl on its worst day, against real servers (redis-server, mongo-wire).

Every case asserts the exit code, one line naming the cause (and the fix), no traceback, the
finished points kept, nothing of ours left running, and that the folder loads and reports.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest
import redis

from tests.fixtures.servers import ROOT, Server, start_redis
from ycsbctl.results import load

CLI = [str(ROOT / ".venv" / "bin" / "ycsbctl")]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def ycsbctl(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=ENV)


def start(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([*CLI, *args], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)


def finish(proc: subprocess.Popen, timeout: float = 120) -> tuple[str, str]:
    try:
        return proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def state(pid: int) -> str:
    """The process state letter of /proc/PID/stat (R, S, T …)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def wait_until(cond, timeout_s: float = 60.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached within {timeout_s} s")
        time.sleep(0.05)


@contextmanager
def frozen(pid: int):
    """SIGSTOP ``pid`` until the block ends (SIGCONT always)."""
    os.kill(pid, signal.SIGSTOP)
    try:
        wait_until(lambda: state(pid) == "T", 10, f"process {pid} stopped")
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def wait_point(server: Server, clients: int, proc: subprocess.Popen, records: int = 0, commands: int = 2000) -> None:
    """Until exactly ``clients`` clients (the point's, not the load's) are connected to ``server``
    holding ``records`` keys or more, and they processed ``commands`` commands."""
    with redis.Redis.from_url(server.url) as r:
        base: list[int] = []

        def busy() -> bool:
            if proc.poll() is not None:
                raise AssertionError(f"ycsbctl ended early: {proc.communicate()[1][-2000:]}")
            info = r.info()
            if info["connected_clients"] != clients + 1 or r.dbsize() < records:
                return False
            base[:] = base or [info["total_commands_processed"]]
            return info["total_commands_processed"] - base[0] > commands
        wait_until(busy, 60, "the point's clients busy")


def clean(out: str) -> None:
    assert "Traceback" not in out, out[-3000:]


def loads_and_reports(folder: Path, tmp: Path):
    """The folder loads in Python and ``ycsbctl report`` renders it."""
    exp = load(folder)
    rep = ycsbctl("report", str(folder), cwd=tmp)
    assert rep.returncode == 0, rep.stderr[-2000:]
    clean(rep.stdout + rep.stderr)
    return exp


def no_workers_left() -> None:
    """No engine worker of ours (a spawned child of a ycsbctl we started) outlived its run."""
    me = psutil.Process()
    kids = [p for p in me.children(recursive=True) if "multiprocessing" in " ".join(p.cmdline())]
    assert not kids, [p.cmdline() for p in kids]


@pytest.fixture
def victim(tmp_path: Path):
    """A redis-server of this test's own, to freeze, fill or kill."""
    server = start_redis(tmp_path / "victim")
    yield server
    if server.proc.poll() is None:
        os.kill(server.proc.pid, signal.SIGCONT)
    server.stop()


# -- 1. honest points ---------------------------------------------------------------------------

def test_a_redis_frozen_for_3_s_inside_a_point_is_degraded_with_the_stall_named(victim, tmp_path):
    out = tmp_path / "frozen"
    proc = start("run", "workload-c", "--target", victim.url, "--load", "--records", "500", "--threads", "4",
                 "--duration", "7", "--warmup", "0", "--no-telemetry", "--out", str(out), cwd=tmp_path)
    try:
        wait_point(victim, 4, proc, records=500)
        time.sleep(1.5)
        with frozen(victim.proc.pid):
            time.sleep(3.0)
        stdout, stderr = finish(proc)
    finally:
        finish(proc, 1)
    clean(stdout + stderr)
    assert proc.returncode == 1, stderr[-3000:]
    line = next(x for x in stderr.splitlines() if "→" in x and "degraded" in x)
    assert "stall" in line and "no reply for" in line and "latency" not in line, line
    secs = float(line.split("no reply for ")[1].split(" s")[0])
    assert 2.0 <= secs <= 6.0, line
    exp = loads_and_reports(out, tmp_path)
    row = exp.runs[exp.runs["phase"] == "run"].iloc[0]
    assert row["status"] == "degraded" and row["bottleneck"] == "stall" and "no reply for" in row["error"]
    no_workers_left()
