"""Paced runs keep the chained hot path (a binding's chain waits for each operation's due time):
checked against the wall clock (a count-bounded paced run cannot end before its last operation is
due), the server's own counters (Redis commandstats) and the schedule itself (one schedule-lag
sample and one intended latency per operation, never an intended latency below the actual one)."""

from __future__ import annotations

import time

import pytest

from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.workload.properties import load_properties

THREADS, OPS, RATE = 4, 1200, 1000.0  # the last operation of each thread is due at (300 − 1) · 4 ms


def _props(**extra: object) -> dict[str, str]:
    props = dict(load_properties("workload-a"))  # 50 % reads, 50 % updates: both chained
    props.update({k: str(v) for k, v in extra.items()})
    return props


def _paced(url: str) -> tuple:
    before = time.perf_counter()
    r = run_phase(PhaseSpec("run", url, _props(recordcount=100, operationcount=OPS), threads=THREADS, processes=1,
                            target_rate=RATE, measurement="both"))
    return r, time.perf_counter() - before


def _check_schedule(r, wall_s: float) -> None:
    assert r.status == "ok", r.errors
    assert r.operations == OPS
    last_due_s = (OPS // THREADS - 1) * THREADS / RATE
    assert r.runtime_ms / 1000 >= last_due_s  # paced: not a burst
    assert wall_s >= last_due_s
    assert r.throughput_ops == pytest.approx(RATE, rel=0.05)
    assert r.schedule_lag is not None and r.schedule_lag.operations == OPS  # one lag sample per operation
    for op in ("READ", "UPDATE"):
        actual, intended = r.ops[op], r.ops[f"Intended-{op}"]
        assert intended.operations == actual.operations > 0
        for p in (50.0, 99.0):
            assert intended.percentile(p) >= actual.percentile(p)


def test_a_paced_redis_run_is_chained_on_schedule_and_the_server_counts_every_operation(redis_server, rds):
    load = run_phase(PhaseSpec("load", redis_server.url, _props(recordcount=100), threads=2, processes=1))
    assert load.status == "ok"
    rds.config_resetstat()
    r, wall_s = _paced(redis_server.url)
    _check_schedule(r, wall_s)
    stats = rds.info("commandstats")
    served = stats["cmdstat_hgetall"]["calls"] + stats["cmdstat_hmset"]["calls"]
    assert served == OPS == r.ops["READ"].operations + r.ops["UPDATE"].operations


def test_a_paced_mongo_wire_run_is_chained_on_schedule(mongo_db):
    url, db = mongo_db
    load = run_phase(PhaseSpec("load", url, _props(recordcount=100), threads=2, processes=1))
    assert load.status == "ok" and db["usertable"].count_documents({}) == 100
    r, wall_s = _paced(url)
    _check_schedule(r, wall_s)


def test_a_paced_thread_waits_for_its_due_time_between_chained_operations(redis_server, rds):
    """One thread at 50 ops/s: 20 operations take at least 19 ticks of 20 ms by the wall clock."""
    run_phase(PhaseSpec("load", redis_server.url, _props(recordcount=20), threads=1, processes=1))
    rds.config_resetstat()
    start = time.perf_counter()
    r = run_phase(PhaseSpec("run", redis_server.url, _props(recordcount=20, operationcount=20), threads=1,
                            processes=1, target_rate=50.0))
    assert time.perf_counter() - start >= 19 * 0.02
    assert r.operations == 20 and r.status == "ok"
    assert rds.info("commandstats")["cmdstat_hgetall"]["calls"] == r.ops["READ"].operations
