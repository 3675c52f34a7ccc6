"""A replica no client reads from, killed during a read-only point (issue 43): the primary is still up and every
read succeeds, but the deployment measured is not the one asked for. The point is ``degraded`` with one reason
naming the replica, when the telemetry first saw it gone (the primary's own ``INFO replication``, sampled each
second; without telemetry, "by its end"), and what its figures are then true of (the primary alone: its operations
only read). Was: plain ``ok``. When it went, from the samples, is tested on PostgreSQL's standby
(tests/stores/test_postgresql_standby.py) and on a built series below."""

from __future__ import annotations

import json
import os
import re
import signal
import threading
import time

import pandas as pd
import pytest
import redis

from tests.fixtures.cli import run_cli
from tests.fixtures.waiting import wait_until
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.provision.auto import provision, teardown
from ycsbctl.stores import registry
from ycsbctl.telemetry.replicas_lost import replicas_lost_note
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.fault

THREADS = 2


def _clients(url: str) -> int:
    with redis.Redis.from_url(url) as r:
        return sum(1 for c in r.client_list() if c.get("flags") == "N" and not c.get("cmd", "").startswith("client"))


def test_a_replica_no_client_reads_from_killed_during_a_read_only_point_degrades_it(tmp_path):
    ep = provision("redis-repl2", "local", experiment_id="tests", say=lambda _: None)
    killed: list[float] = []
    try:
        props = {**load_properties("workload-c"), "recordcount": "300"}
        assert run_phase(PhaseSpec("load", ep.url, props, threads=2, processes=1)).ops["INSERT"].returns == {"OK": 300}
        victim = ep.processes[2]
        replica = victim["url"].split("//", 1)[1].split("/")[0]
        assert replica in registry.for_url(ep.url).replicas(ep.url)  # the primary's own list, before

        def kill() -> None:  # inside the window: once the point's clients are at the primary
            wait_until(lambda: _clients(ep.url) >= THREADS, 60, "the point's clients at the primary")
            time.sleep(0.3)
            killed.append(time.monotonic())
            os.kill(victim["pid"], signal.SIGKILL)

        killer = threading.Thread(target=kill, daemon=True)
        killer.start()
        out = tmp_path / "out"
        r = run_cli("run", "workload-c", "--target", ep.url, "--threads", str(THREADS), "--duration", "1.5",
                    "--warmup", "0", "--records", "300", "--allow-concurrent", "--no-report", "--no-telemetry", "--out",
                    str(out))
        killer.join(5)
        left = registry.for_url(ep.url).replicas(ep.url)
    finally:
        teardown(ep)
    assert killed and replica not in left, (killed, left)
    assert r.exit_code == 3, r.output[-3000:]
    (line,) = [x for x in r.output.splitlines() if "→" in x]
    said = re.search(rf"degraded — lost the replica {re.escape(replica)} during the point \(the primary listed 2 "
                     r"replica\(s\) at its start, 1 by its end\): its operations only read from the primary, so its "
                     "figures are still true of the primary alone — not of the deployment asked for", line)
    assert said, line
    (doc,) = [json.loads(p.read_text()) for p in (out / "runs").glob("*.json")]
    result = doc["result"]
    assert result["ops"]["READ"]["returns"] == {"OK": result["operations"]}  # every read answered: nothing else says
    assert killed[0] - result["t_start_mono"] < result["runtime_ms"] / 1000  # killed inside the window


def test_the_note_says_what_the_figures_are_true_of_and_when():
    frame = pd.DataFrame({"t_mono": [101.0, 102.0, 103.0, 101.0], "source": ["redis-info"] * 3 + ["host"],
                          "replicas": [2.0, float("nan"), 1.0, 0.0]})
    # Redis says None (NaN) with no replica online: the second sample counts none
    read = replicas_lost_note(["a:1", "b:2"], ["b:2"], False, frame, 100.0)
    assert read == ("lost the replica a:1 during the point (the primary listed 2 replica(s) at its start, 1 from 2.0 s "
                    "into the point): its operations only read from the primary, so its figures are still true of the "
                    "primary alone — not of the deployment asked for"), read
    wrote = replicas_lost_note(["a:1"], [], True, None, 100.0)
    assert wrote is not None and "0 by its end" in wrote and "its writes were no longer copied to it" in wrote, wrote
    assert replicas_lost_note(["a:1"], ["a:1"], True, frame, 100.0) is None
    assert replicas_lost_note(["a:1"], None, True, frame, 100.0) is None  # the primary could not be asked after
    assert replicas_lost_note([], [], True, frame, 100.0) is None


def test_when_the_first_replica_went_is_the_first_sample_counting_fewer_from_the_points_start():
    """0.3 s after the point's operations began is 0.3 s (not rounded up to a second); a sample before the start
    already counting fewer is 0 s; no sample counting fewer is unknown."""
    from ycsbctl.telemetry.replicas_lost import first_drop_s

    frame = pd.DataFrame({"t_mono": [100.3, 101.3], "source": ["postgresql"] * 2, "replicas": [1.0, 1.0]})
    assert first_drop_s(frame, 2, 100.0) == pytest.approx(0.3)
    assert first_drop_s(frame, 2, 100.5) == 0.0
    assert first_drop_s(frame, 1, 100.0) is None
    # the Redis sampler says no count (None) once the primary has no replica: that sample counts none, 1.3 s in
    frame = pd.DataFrame({"t_mono": [100.3, 101.3], "source": ["redis-info"] * 2, "replicas": [1.0, None]})
    assert first_drop_s(frame, 1, 100.0) == pytest.approx(1.3)
