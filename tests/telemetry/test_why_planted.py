"""Planted causes named by the point's why line (:mod:`ycsbctl.telemetry.why`), from real points: a
client that shares its one CPU with a spinning process waited for a CPU; a Redis whose main thread is
made to sleep (``DEBUG SLEEP`` in a loop from another connection) waited off a CPU, asleep. Each
plant is a relation that holds at any machine speed (half a shared core; a thread asleep most of the
time), and the same point without the plant must not name it."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import redis

from tests.fixtures.servers import start_redis
from ycsbctl.engine.runner import PhaseRunner
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.provision.base import Endpoint
from ycsbctl.telemetry.capture import sampling
from ycsbctl.telemetry.why import explain
from ycsbctl.workload.properties import load_properties

ROOT = Path(__file__).resolve().parents[2]
PROPS = {**load_properties(ROOT / "workloads" / "workloadb"), "recordcount": "300", "operationcount": "0"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    s = start_redis(tmp_path_factory.mktemp("why"), extra=("--enable-debug-command", "yes"))
    PhaseRunner(PhaseSpec("load", s.url, PROPS, threads=4)).run()
    yield s
    s.stop()


def _why(server, cpus: tuple[int, ...] = (), seconds: float = 2.0) -> tuple[str, dict]:
    """A 2 s point of 8 threads against ``server`` (its worker on ``cpus``): the why line, the evidence."""
    ep = Endpoint(target="redis", protocol="redis", url=server.url, backend="external", pid=server.proc.pid)
    runner = PhaseRunner(PhaseSpec("run", server.url, PROPS, threads=8, duration_s=seconds, processes=1, cpus=cpus))
    with sampling(ep, client_pids=runner.pids) as cap:
        result = runner.run()
    cap.align(result)
    b = cap.bottleneck().to_dict()
    mean_us = sum(s.mean_us * s.operations for s in result.ops.values()) / max(1, result.operations)
    return explain(b, "redis", 8, mean_us) or "", b["evidence"]


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs 2 CPUs: one for the client and its hog")
def test_a_client_sharing_its_cpu_with_a_spinning_process_waited_for_it(server):
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(server.proc.pid, {cpus[0]})
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    os.sched_setaffinity(hog.pid, {cpus[-1]})
    try:
        why, ev = _why(server, cpus=(cpus[-1],))
    finally:
        hog.kill()
        hog.wait()
        os.sched_setaffinity(server.proc.pid, set(cpus))
    # the spinner takes its share of the worker's CPU: the worker waits for it at least a third of the time it runs
    assert ev["client"]["runq_pct"] >= ev["client"]["oncpu_pct"] / 3, ev["client"]
    # named as the client's or the host's limit (on a host busy with other work the server may wait longer still)
    assert why.startswith(("cpu wait: the client's workers waited for a CPU", "client-cpu:", "host-cpu:")) or (
        why.startswith("cpu wait: the server waited") and "the client's workers " in why), why


def test_a_server_made_to_sleep_waited_off_cpu_asleep_and_a_free_one_did_not(server):
    free, _ = _why(server)
    stop = threading.Event()

    def sleeper() -> None:
        r = redis.Redis.from_url(server.url)
        while not stop.is_set():
            r.execute_command("DEBUG", "SLEEP", "0.05")

    t = threading.Thread(target=sleeper, daemon=True)
    t.start()
    try:
        slept, ev = _why(server)
    finally:
        stop.set()
        t.join(5)
    main = ev["server_threads"]["main"]
    assert main["states"]["sleep"] > main["states"]["idle"], main
    assert slept.startswith("off-CPU wait: redis's main thread slept in"), slept
    assert "sleep:" in slept and "nanosleep" in slept, slept
    assert not free.startswith("off-CPU wait"), free
    print(free, slept, sep="\n")
