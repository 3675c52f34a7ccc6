"""A worker killed by the kernel (SIGKILL, as the OOM killer does) in the middle of a point: one
line with its signal and its peak size, that point failed with that reason, the sweep goes on."""

from __future__ import annotations

import os
import signal
import subprocess

import psutil
import pytest
import redis

from tests.fixtures.cli import YCSBCTL
from tests.fixtures.faults import engine_workers
from tests.fixtures.servers import ROOT, start_redis
from tests.fixtures.waiting import wait_until
from ycsbctl.engine.worker_exit import describe, peak_rss_bytes
from ycsbctl.results import load

pytestmark = pytest.mark.fault



def test_a_worker_killed_mid_point_fails_that_point_with_its_signal_and_size_and_the_sweep_goes_on(tmp_path):
    server = start_redis(tmp_path / "redis")
    out = tmp_path / "killed"
    proc = subprocess.Popen([YCSBCTL, "run", "workload-c", "--target", server.url, "--load", "--records", "300",
                             "--threads", "2,4", "--processes", "1", "--duration", "3", "--warmup", "0",
                             "--no-telemetry", "--out", str(out)], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        with redis.Redis.from_url(server.url) as r:
            # the 2-thread run point: its 2 clients connected (the load's 2 are gone) and reading, so the
            # point has started (a worker killed before the start is test_engine_start's case)
            def busy() -> bool:
                assert proc.poll() is None, proc.communicate()[1][-2000:]
                return (r.dbsize() >= 300 and r.info("clients")["connected_clients"] == 2 + 1
                        and r.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0) > 0
                        and bool(engine_workers(proc.pid)))
            wait_until(busy, 60, "the first run point's clients")
        (worker,) = engine_workers(proc.pid)
        peak_before = peak_rss_bytes(worker.pid)
        worker.send_signal(signal.SIGKILL)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.communicate(timeout=60)
        server.stop()
    assert "Traceback" not in err, err[-3000:]
    assert proc.returncode == 1, err[-3000:]
    killed = [ln for ln in err.splitlines() if "was killed by SIGKILL" in ln]
    assert killed and "the kernel's OOM killer or kill -9" in killed[0] and "peak RSS at least" in killed[0], err
    mib = float(killed[0].split("peak RSS at least ")[1].split(" MiB")[0].replace(",", ""))
    # "at least": the controller's last reading of the kernel's high-water mark, never above the real peak
    assert peak_before and 10 <= mib <= peak_before / 2**20 + 1, (mib, peak_before)
    runs = load(out).runs
    sweep = runs[runs["phase"] == "run"].set_index("threads")
    assert sweep.loc[2, "status"] == "failed" and "worker 0 was killed by SIGKILL" in sweep.loc[2, "error"]
    assert sweep.loc[4, "status"] == "ok"  # the sweep went on
    assert engine_workers(proc.pid) == []


def test_an_exit_is_described_by_its_signal_or_its_code():
    assert describe(0, -9, 3 * 2**30) == ("worker 0 was killed by SIGKILL (the kernel's OOM killer or kill -9); "
                                          "peak RSS at least 3,072 MiB")
    assert describe(1, -15) == "worker 1 was killed by SIGTERM"
    assert describe(2, 3) == "worker 2 exited with code 3"
    assert peak_rss_bytes(os.getpid()) >= psutil.Process().memory_info().rss
