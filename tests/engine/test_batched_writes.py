"""A worker with many clients writes each turn's requests together (bindings/chain.py WriteBatch):
every operation still reaches the server exactly once (its own counters say so), replies still
land on their own operations, and paced runs keep their schedule."""

from __future__ import annotations

import pytest

from tests.fixtures.pacing import count_floor, holdable_rate, largest_delay_s, unpaced_ops
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.engine.worker import BATCHED_WRITES_FROM
from ycsbctl.workload.properties import load_properties

THREADS = BATCHED_WRITES_FROM + 8  # one process: its clients write in batches


def _props(**extra: object) -> dict[str, str]:
    props = dict(load_properties("workload-a"))
    props.update({k: str(v) for k, v in extra.items()})
    return props


def test_batched_writes_reach_redis_once_each_and_every_reply_finds_its_operation(redis_server, rds):
    rds.config_resetstat()  # the server is the session's: count this test's commands only
    assert run_phase(PhaseSpec("load", redis_server.url, _props(recordcount=500), threads=THREADS,
                               processes=1)).status == "ok"
    assert rds.zcard("_indices") == 500 and rds.info("commandstats")["cmdstat_zadd"]["calls"] == 500
    rds.config_resetstat()
    r = run_phase(PhaseSpec("run", redis_server.url, _props(recordcount=500, operationcount=6000), threads=THREADS,
                            processes=1))
    assert r.status == "ok" and r.operations == 6000
    stats = rds.info("commandstats")
    assert stats["cmdstat_hgetall"]["calls"] == r.ops["READ"].operations
    assert stats["cmdstat_hmset"]["calls"] == r.ops["UPDATE"].operations
    assert r.ops["READ"].returns == {"OK": r.ops["READ"].operations}  # no reply went to another operation


def test_batched_writes_on_mongo_wire_read_what_was_loaded(mongo_db):
    url, db = mongo_db
    assert run_phase(PhaseSpec("load", url, _props(recordcount=200), threads=THREADS, processes=1)).status == "ok"
    assert db["usertable"].count_documents({}) == 200
    r = run_phase(PhaseSpec("run", url, _props(recordcount=200, operationcount=2000), threads=THREADS, processes=1))
    assert r.status == "ok" and r.operations == 2000
    assert r.ops["READ"].returns == {"OK": r.ops["READ"].operations}
    assert r.ops["UPDATE"].returns == {"OK": r.ops["UPDATE"].operations}


@pytest.mark.speed
def test_a_paced_run_with_batched_writes_keeps_its_rate_and_one_lag_sample_per_operation(redis_server, rds):
    run_phase(PhaseSpec("load", redis_server.url, _props(recordcount=200), threads=4, processes=1))
    spec = PhaseSpec("run", redis_server.url, _props(recordcount=200, operationcount=4000), threads=THREADS,
                     processes=1, measurement="both")
    spec.target_rate = rate = holdable_rate(2000.0, unpaced_ops(spec))  # at most half of what this machine can do
    r = run_phase(spec)
    assert r.status == "ok" and r.operations == 4000
    assert r.runtime_ms / 1000 >= (4000 // THREADS - 1) * THREADS / rate
    assert count_floor(rate, THREADS, 4000, largest_delay_s(r)) <= r.throughput_ops <= 1.05 * rate
    assert r.schedule_lag is not None and r.schedule_lag.operations == 4000
    assert r.ops["Intended-READ"].percentile(50) >= r.ops["READ"].percentile(50)
