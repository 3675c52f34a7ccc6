"""Paced runs keep the chained hot path (a binding's chain waits for each operation's due time):
checked against the wall clock (a count-bounded paced run cannot end before its last operation is
due), the server's own counters (Redis commandstats) and the schedule itself (one schedule-lag
sample and one intended latency per operation, never an intended latency below the actual one).

The achieved rate is held to the target only where this machine can serve it: each test first
measures the same run unpaced and paces at no more than half of that (tests/fixtures/pacing.py)."""

from __future__ import annotations

import time

import pytest

from tests.fixtures.pacing import count_floor, holdable_rate, largest_delay_s, unpaced_ops
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.speed

THREADS, OPS, RATE = 4, 1200, 1000.0  # at 1,000 ops/s the last operation of each thread is due at (300 − 1) · 4 ms


def _props(**extra: object) -> dict[str, str]:
    props = dict(load_properties("workload-a"))  # 50 % reads, 50 % updates: both chained
    props.update({k: str(v) for k, v in extra.items()})
    return props


def _paced(url: str, then=lambda: None) -> tuple:
    """The paced run at RATE, or at half the unpaced maximum measured first if that is lower (``then``
    runs between the two)."""
    spec = PhaseSpec("run", url, _props(recordcount=100, operationcount=OPS), threads=THREADS, processes=1,
                     measurement="both")
    rate = holdable_rate(RATE, unpaced_ops(spec))
    spec.target_rate = rate
    then()
    before = time.perf_counter()
    r = run_phase(spec)
    return r, time.perf_counter() - before, rate


def _check_schedule(r, wall_s: float, rate: float) -> None:
    assert r.status == "ok", r.errors
    assert r.operations == OPS
    last_due_s = (OPS // THREADS - 1) * THREADS / rate
    assert r.runtime_ms / 1000 >= last_due_s  # paced: not a burst
    assert wall_s >= last_due_s
    # within 5 % of the target, or what the run's own largest delay explains (tests/fixtures/pacing.py)
    assert count_floor(rate, THREADS, OPS, largest_delay_s(r)) <= r.throughput_ops <= 1.05 * rate
    assert r.schedule_lag is not None and r.schedule_lag.operations == OPS  # one lag sample per operation
    for op in ("READ", "UPDATE"):
        actual, intended = r.ops[op], r.ops[f"Intended-{op}"]
        assert intended.operations == actual.operations > 0
        for p in (50.0, 99.0):
            assert intended.percentile(p) >= actual.percentile(p)


def test_a_paced_redis_run_is_chained_on_schedule_and_the_server_counts_every_operation(redis_server, rds):
    load = run_phase(PhaseSpec("load", redis_server.url, _props(recordcount=100), threads=2, processes=1))
    assert load.status == "ok"
    r, wall_s, rate = _paced(redis_server.url, then=rds.config_resetstat)
    _check_schedule(r, wall_s, rate)
    stats = rds.info("commandstats")
    served = stats["cmdstat_hgetall"]["calls"] + stats["cmdstat_hmset"]["calls"]
    assert served == OPS == r.ops["READ"].operations + r.ops["UPDATE"].operations


def test_a_paced_mongodb_wire_run_is_chained_on_schedule(echo):
    """On mongo-echo, which answers at once: the schedule is the client's, whatever FerretDB's speed."""
    load = run_phase(PhaseSpec("load", echo.url, _props(recordcount=100), threads=2, processes=1))
    assert load.status == "ok" and load.ops["INSERT"].returns == {"OK": 100}
    r, wall_s, rate = _paced(echo.url)
    _check_schedule(r, wall_s, rate)
    assert r.ops["READ"].returns == {"OK": r.ops["READ"].operations}  # every read found what was loaded
    assert r.ops["UPDATE"].returns == {"OK": r.ops["UPDATE"].operations}


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
