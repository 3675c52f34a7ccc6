"""The RDB fork as an event on its point: a ``redis-rdb`` server forced to BGSAVE inside a short point
(0.7 s after its reads begin) gives the point's evidence (what its record keeps, ``bottleneck.evidence``)
one ``fork`` event in ``server_events`` — inside the measured window, with the pause the server itself
reports afterwards (``INFO`` ``latest_fork_usec``) — which the report's findings name beside the point,
and runs.parquet's fork figures agree with it."""

from __future__ import annotations

import threading
import time

import pandas as pd
import redis

from ycsbctl import telemetry
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.provision.auto import provision, teardown
from ycsbctl.report.deployment_findings import fork_findings
from ycsbctl.workload.properties import load_properties

DURATION_S = 2.0


def _bgsave_when_reads_begin(url: str, stop: threading.Event, done: list[float]) -> None:
    r = redis.Redis.from_url(url)
    while not stop.is_set():
        if int(r.info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0)) > 0:
            stop.wait(0.7)  # well inside the window: a sample is counted in it when most of its second is
            r.bgsave()
            done.append(time.monotonic())
            return
        time.sleep(0.02)


def test_a_forced_bgsave_is_a_fork_event_on_its_point_with_the_servers_own_pause() -> None:
    ep = provision("redis-rdb", "local", experiment_id="tests", say=lambda _: None)
    try:
        r = redis.Redis.from_url(ep.url)
        # 300 records of one field: 600 changes (HSET, ZADD), short of save 5 1000: the forced fork is the only one
        props = {**load_properties("workload-c"), "recordcount": "300", "operationcount": "0", "fieldcount": "1"}
        run_phase(PhaseSpec("load", ep.url, props, threads=2, processes=1))
        forks_before = int(r.info("stats")["total_forks"])
        stop, done = threading.Event(), []
        t = threading.Thread(target=_bgsave_when_reads_begin, args=(ep.url, stop, done), daemon=True)
        t.start()
        with telemetry.sampling(ep, evidence=False) as capture:
            result = run_phase(PhaseSpec("run", ep.url, props, threads=2, duration_s=DURATION_S, processes=1))
        stop.set()
        t.join(5)
        capture.align(result)
        assert done, "the point's reads never began"
        stats = r.info("stats")
        assert int(stats["total_forks"]) - forks_before == 1
        pause_us = float(stats["latest_fork_usec"])
        assert r.info("persistence")["rdb_last_bgsave_status"] == "ok"
    finally:
        teardown(ep)
    summary = capture.summary()
    assert summary.server_forks == 1 and summary.server_fork_pause_us_max == pause_us  # runs.parquet's figures
    evidence = capture.bottleneck().evidence  # what the point's record keeps (bottleneck.evidence)
    events = evidence["server_events"]
    assert [e["event"] for e in events] == ["fork"] and events[0]["forks"] == 1
    assert events[0]["pause_us"] == pause_us  # the server's own figure, sampled in the fork's interval
    assert 0 < events[0]["at_s"] <= DURATION_S + 1  # the sample after the fork, inside the measured window
    runs = pd.DataFrame({"target": ["redis-rdb"], "phase": ["run"], "threads": [2], "repetition": [1],
                         "run_id": ["p"]})
    lines = fork_findings(runs, {"p": {"bottleneck": {"evidence": evidence}}}, ["redis-rdb"])
    assert lines == [f"redis-rdb, 2 threads, round 1: a fork {events[0]['at_s']:.1f} s into the measured window "
                     f"paused the server {pause_us / 1000:.2f} ms (latest_fork_usec)"
                     + (f"; the snapshot was still being written {events[0]['snapshot_s']:g} s after "
                        "(rdb_bgsave_in_progress)." if events[0]["snapshot_s"]
                        else "; no snapshot was in progress at the next sample.")]
