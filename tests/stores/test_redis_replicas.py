"""Replicas: ``redis-repl2`` is a primary and two replicas (``--replicaof``) under one label; with
``-p redis.wait=2`` every write is followed by ``WAIT 2`` (the primary's commandstats count one per
write, and both replicas hold every record the load acknowledged); the INFO sampler's replication lag
is the primary's own offsets; a replica that falls behind makes each write a TIMEOUT that says so, and
its growing lag shows per point in the report's findings; the same property leaves a server without
replicas alone; ``-p redis.readfrom=replica`` sends every read to a replica (their commandstats) and
none to the primary."""

from __future__ import annotations

import pandas as pd
import psutil
import pytest
import redis

from tests.fixtures.bindings import run_bindings
from ycsbctl import telemetry
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.errors import UserError
from ycsbctl.provision.auto import provision, teardown
from ycsbctl.report.deployment_findings import _bytes, replication_findings
from ycsbctl.stores.binding import Status
from ycsbctl.stores.redis.info import replication
from ycsbctl.stores.redis.replica_reads import read_from
from ycsbctl.stores.redis.store import RedisProtocol
from ycsbctl.workload.properties import load_properties


def test_writes_wait_for_both_replicas_which_then_hold_every_record(redis_server, rds) -> None:
    ep = provision("redis-repl2", "local", experiment_id="tests", say=lambda _: None)
    try:
        assert [p["role"].split(" ")[0] for p in ep.processes] == ["primary", "replica", "replica"]
        for p in ep.processes:  # joined without the 5 s wait for more replicas, and the setting put back
            assert redis.Redis.from_url(p["url"]).config_get("repl-diskless-sync-delay") == {
                "repl-diskless-sync-delay": "5"}
        props = {**load_properties("workload-a"), "recordcount": "300", "operationcount": "0", "redis.wait": "2"}
        r = run_phase(PhaseSpec("load", ep.url, props, threads=2, processes=1))
        assert r.ops["INSERT"].returns == {"OK": 300}
        primary = redis.Redis.from_url(ep.url)
        assert int(primary.info("commandstats")["cmdstat_wait"]["calls"]) == 300
        # redis.wait above the replicas the primary has: capped at them, said once as the target is up
        assert RedisProtocol().start_notes(ep.url, {"redis.wait": "3"}) == [
            "redis.wait=3: the server has 2 replica(s), so each write waits for 2 (WAIT 2 …)"]
        assert RedisProtocol().start_notes(ep.url, {"redis.wait": "2"}) == []
        for p in ep.processes[1:]:  # WAIT 2 returned: both replicas have every write, with no wait of ours
            assert redis.Redis.from_url(p["url"]).zcard("_indices") == 300
        # -p redis.readfrom=replica: every read at a replica (client i at replica i mod 2), none at the primary
        def reads(url: str) -> int:
            return int(redis.Redis.from_url(url).info("commandstats").get("cmdstat_hgetall", {}).get("calls", 0))

        before = [reads(p["url"]) for p in ep.processes]
        r = run_phase(PhaseSpec("run", ep.url, {**props, "operationcount": "200", "readproportion": "1",
                                                "updateproportion": "0", "redis.readfrom": "replica"},
                                threads=2, processes=1))
        assert r.ops["READ"].returns == {"OK": 200}
        assert [reads(p["url"]) - b for p, b in zip(ep.processes, before)] == [0, 100, 100]
        # scans too: every index range read (ZRANGEBYSCORE) at a replica, none at the primary
        def ranges(url: str) -> int:
            return int(redis.Redis.from_url(url).info("commandstats").get("cmdstat_zrangebyscore", {}).get("calls", 0))

        async def scans(bs) -> list:  # two clients, ten scans each
            return [await b.scan("usertable", b"user1", 3, None) for b in bs for _ in range(10)]

        before = [ranges(p["url"]) for p in ep.processes]
        assert run_bindings(scans, ep.url, 2, {"redis.readfrom": "replica"}) == [Status.OK] * 20
        assert [ranges(p["url"]) - b for p, b in zip(ep.processes, before)] == [0, 10, 10]
        info = primary.info("replication")
        assert replication(info)["replicas"] == 2
        assert replication(info)["repl_lag_bytes"] == info["master_repl_offset"] - min(
            info[f"slave{i}"]["offset"] for i in range(2))
        # a replica that falls behind (stopped): each write's WAIT 2 counts 1 within its 200 ms, and the
        # write is a TIMEOUT saying so, in one line (on the chained path and the awaited one)
        lagging = psutil.Process(ep.processes[2]["pid"])
        lagging.suspend()
        try:
            behind = {**props, "operationcount": "4", "readproportion": "0", "updateproportion": "1",
                      "redis.wait.timeout": "200"}
            for path in ({}, {"dataintegrity": "true"}):  # dataintegrity: no chain, each write awaited
                r = run_phase(PhaseSpec("run", ep.url, {**behind, **path}, threads=2, processes=1))
                assert r.ops["UPDATE"].returns == {"TIMEOUT": 4}, (path, r.ops["UPDATE"].returns)
                assert any("WAIT 2: 1 of 2 replica(s) had the write within 200 ms — a replica fell behind" in e
                           and "\n" not in e for e in r.errors), r.errors
            # the lag per point, as runs.parquet and the report's findings get it: the telemetry of a 1.5 s
            # point (the INFO sampler's highest sample) while the stopped replica falls behind by every write
            lag_before = replication(primary.info("replication"))["repl_lag_bytes"]
            with telemetry.sampling(ep, evidence=False) as capture:
                r = run_phase(PhaseSpec("run", ep.url, {**props, "operationcount": "0", "readproportion": "0",
                                                        "updateproportion": "1", "redis.wait": "0"}, threads=1,
                                        duration_s=1.5,
                                        processes=1))
            capture.align(r)
            sampled = capture.summary().repl_lag_bytes_max
            lag_after = replication(primary.info("replication"))["repl_lag_bytes"]
        finally:
            lagging.resume()
        primary.close()
    finally:
        teardown(ep)
    assert sampled is not None and lag_before < sampled <= lag_after  # sampled during the point: between the two
    runs = pd.DataFrame({"target": ["redis-repl2"], "phase": ["run"], "threads": [1], "repetition": [1],
                         "repl_lag_bytes_max": [sampled]})
    assert replication_findings(runs, ["redis-repl2"])[0].endswith(f"1 threads, round 1: {_bytes(sampled)}.")
    # a server without replicas: redis.wait asks ROLE and sends no WAIT (which would block every write)
    r = run_phase(PhaseSpec("load", redis_server.url, props, threads=2, processes=1))
    assert r.ops["INSERT"].returns == {"OK": 300} and "cmdstat_wait" not in rds.info("commandstats")
    assert RedisProtocol().start_notes(redis_server.url, props) == [
        "redis.wait=2: the server has no replica, so writes wait for none (no WAIT is sent)"]
    with pytest.raises(UserError, match="redis.readfrom=nearest: use primary or replica"):
        read_from({"redis.readfrom": "nearest"})
    with pytest.raises(Exception,
                       # reads from replicas it does not have
                       match="is no primary with replicas \\(ROLE: a master with no replica\\)"):
        run_phase(PhaseSpec("run", redis_server.url, {**props, "operationcount": "4", "redis.readfrom": "replica"},
                            threads=1, processes=1))
