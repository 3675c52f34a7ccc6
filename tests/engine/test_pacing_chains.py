"""Paced runs keep the chained hot path (a binding's chain waits for each operation's due time):
checked against the wall clock (a count-bounded paced run cannot end before its last operation is
due), the server's own counters (Redis commandstats) and the schedule itself (one schedule-lag
sample and one intended latency per operation, never an intended latency below the actual one).

The achieved rate is held to the target only where this machine can serve it: each test first
measures the same run unpaced and paces at no more than half of that (tests/fixtures/pacing.py)."""

from __future__ import annotations

import time

import pytest

from tests.fixtures.pacing import OPS, chain_props, check_paced_schedule, paced_chain_run
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec

pytestmark = pytest.mark.speed

def test_a_paced_redis_run_is_chained_on_schedule_and_the_server_counts_every_operation(redis_server, rds):
    load = run_phase(PhaseSpec("load", redis_server.url, chain_props(recordcount=100), threads=2, processes=1))
    assert load.status == "ok"
    r, wall_s, rate = paced_chain_run(redis_server.url, then=rds.config_resetstat)
    check_paced_schedule(r, wall_s, rate)
    stats = rds.info("commandstats")
    served = stats["cmdstat_hgetall"]["calls"] + stats["cmdstat_hmset"]["calls"]
    assert served == OPS == r.ops["READ"].operations + r.ops["UPDATE"].operations


def test_a_paced_mongodb_wire_run_is_chained_on_schedule(echo):
    """On mongo-echo, which answers at once: the schedule is the client's, whatever FerretDB's speed."""
    load = run_phase(PhaseSpec("load", echo.url, chain_props(recordcount=100), threads=2, processes=1))
    assert load.status == "ok" and load.ops["INSERT"].returns == {"OK": 100}
    r, wall_s, rate = paced_chain_run(echo.url)
    check_paced_schedule(r, wall_s, rate)
    assert r.ops["READ"].returns == {"OK": r.ops["READ"].operations}  # every read found what was loaded
    assert r.ops["UPDATE"].returns == {"OK": r.ops["UPDATE"].operations}


def test_a_paced_thread_waits_for_its_due_time_between_chained_operations(redis_server, rds):
    """One thread at 50 ops/s: 20 operations take at least 19 ticks of 20 ms by the wall clock."""
    run_phase(PhaseSpec("load", redis_server.url, chain_props(recordcount=20), threads=1, processes=1))
    rds.config_resetstat()
    start = time.perf_counter()
    r = run_phase(PhaseSpec("run", redis_server.url, chain_props(recordcount=20, operationcount=20), threads=1,
                            processes=1, target_rate=50.0))
    assert time.perf_counter() - start >= 19 * 0.02
    assert r.operations == 20 and r.status == "ok"
    assert rds.info("commandstats")["cmdstat_hgetall"]["calls"] == r.ops["READ"].operations
