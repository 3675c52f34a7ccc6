"""A replica of ``redis-repl2`` killed during a point that reads from replicas (``-p redis.readfrom=replica``): the
reads that found it gone are ERROR (one per client reading from it: the replica's own CLIENT LIST, asked before the
kill, is the truth) and the point fails in one line naming the lost replica, not "the server" (the primary is up).
Was: "lost the server", no ERROR counted."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
import redis

from tests.fixtures.cli import start
from tests.fixtures.faults import Lines, clean, finish, no_workers_left
from tests.fixtures.waiting import wait_until
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.provision.auto import provision, teardown
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.fault


def _readers(url: str) -> int:
    """Connections of normal clients at ``url`` other than this one (its CLIENT LIST)."""
    with redis.Redis.from_url(url) as r:
        return sum(1 for c in r.client_list() if c.get("flags") == "N" and c.get("cmd") != "client|list"
                   and c.get("cmd") != "client")


def test_a_replica_killed_during_a_replica_read_point_fails_it_naming_the_replica(tmp_path):
    ep = provision("redis-repl2", "local", experiment_id="tests", say=lambda _: None)
    try:
        props = {**load_properties("workload-c"), "recordcount": "300"}
        assert run_phase(PhaseSpec("load", ep.url, props, threads=2, processes=1)).ops["INSERT"].returns == {"OK": 300}
        victim = ep.processes[2]
        port = victim["url"].rsplit(":", 1)[1].split("/")[0]
        out = tmp_path / "out"
        proc = start("run", "workload-c", "--target", ep.url, "--threads", "4", "--duration", "4", "--warmup", "0",
                     "--records", "300", "--no-telemetry", "--allow-concurrent", "-p", "redis.readfrom=replica",
                     "--out", str(out), cwd=tmp_path)
        try:
            lines = Lines(proc)
            wait_until(lambda: _readers(victim["url"]) >= 2, 60, "the point's clients at the replica")
            readers = _readers(victim["url"])  # clients 1 and 3 of 4 (client i reads from replica i mod 2)
            time.sleep(1)  # inside the point's 4 s window
            os.kill(victim["pid"], signal.SIGKILL)
            stdout, stderr = lines.finish()
        finally:
            finish(proc, 1)
    finally:
        teardown(ep)
    clean(stdout + stderr)
    assert proc.returncode == 1, stderr[-3000:]
    (line,) = [x for x in stderr.splitlines() if "→" in x]
    assert f"failed — lost the replica 127.0.0.1:{port} this client reads from (redis.readfrom=replica;" in line, line
    assert "no rate for a point cut short" in line and "why:" not in stderr
    (doc,) = [json.loads(p.read_text()) for p in (out / "runs").glob("*.json")]
    read = doc["result"]["ops"]["READ"]["returns"]
    assert read.get("ERROR") == readers == 2, (read, readers)  # one refused read per client that read from it
    no_workers_left()
