"""The engine's figures against independent truths on a real redis-server.

- Operation counts per kind against Redis's own ``INFO commandstats`` after ``CONFIG RESETSTAT``
  (bindings/redis.py: read = HGETALL, or HMGET with readallfields=false; update = HMSET;
  insert = HMSET + ZADD _indices; scan = ZRANGEBYSCORE then one read per key).
- Runtime against the wall clock the test reads around the run: a duration-bounded point lasts the
  duration plus at most the last operation (the clients stop at the first operation that ends
  after it), and it lies inside the test's own window.
- Little's law on an unpaced closed loop: threads ≈ throughput × mean latency.
- YCSB's text block of the same run against both.
"""

from __future__ import annotations

import re
import threading
import time

import numpy as np
import pytest
import redis

from tests.fixtures.pacing import runtime_bounds_ms
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.ycsb_format import format_phase
from ycsbctl.workload.core import READ, READ_MODIFY_WRITE, UPDATE, CoreWorkload
from ycsbctl.workload.generators import RunGenerator
from ycsbctl.workload.properties import Properties, load_properties

pytestmark = pytest.mark.truth

RECORDS = 300


def _props(workload: str, **overrides: object) -> dict[str, str]:
    props = dict(load_properties(workload))
    props.update({"recordcount": RECORDS, **overrides})
    return {k: str(v) for k, v in props.items()}


def _calls(rds: redis.Redis) -> dict[str, int]:
    """Calls per command since the last CONFIG RESETSTAT (lower-case command names)."""
    stats = rds.info("commandstats")
    return {k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items()}


def _total(r: PhaseResult, op: str) -> int:
    """Every operation of a kind the engine sent, whatever its status."""
    return sum(r.ops[op].returns.values()) if op in r.ops else 0


@pytest.fixture(scope="module")
def dataset(redis_server) -> redis.Redis:
    """The session's redis-server loaded once for this module by the engine (its load checked too)."""
    rds = redis.Redis.from_url(redis_server.url)
    rds.flushall()
    rds.config_resetstat()
    r = run_phase(PhaseSpec("load", redis_server.url, _props("workload-a"), threads=4, processes=2))
    assert r.status == "ok", r.errors
    calls = _calls(rds)
    assert r.ops["INSERT"].operations == calls["hmset"] == calls["zadd"] == RECORDS
    assert rds.dbsize() == RECORDS + 1  # the records and _indices
    yield rds
    rds.flushall()
    rds.close()


@pytest.fixture
def loaded(dataset) -> redis.Redis:
    """The loaded server with its command counters at zero."""
    dataset.config_resetstat()
    return dataset


@pytest.mark.parametrize(("readallfields", "read_command"), [("true", "hgetall"), ("false", "hmget")])
def test_reads_and_updates_are_the_servers_hgetall_or_hmget_and_hmset(redis_server, loaded, readallfields,
                                                                      read_command):
    r = run_phase(PhaseSpec("run", redis_server.url, _props("workload-a", operationcount=3000,
                                                            readallfields=readallfields), threads=4, processes=2))
    assert r.status == "ok", r.errors
    calls = _calls(loaded)
    assert r.operations == 3000
    assert r.ops["READ"].operations == _total(r, "READ") == calls.get(read_command, 0)
    assert r.ops["UPDATE"].operations == _total(r, "UPDATE") == calls.get("hmset", 0)
    assert calls.get("hgetall" if read_command == "hmget" else "hmget", 0) == 0
    assert r.ops["READ"].histogram.get_total_count() == calls[read_command]


def test_read_modify_write_sends_one_read_and_one_update(redis_server, loaded):
    r = run_phase(PhaseSpec("run", redis_server.url, _props("workload-f", operationcount=2000), threads=4,
                            processes=1))
    assert r.status == "ok", r.errors
    calls = _calls(loaded)
    rmw = r.ops["READ-MODIFY-WRITE"].operations
    assert 0 < rmw < 2000 and r.operations == 2000
    assert _total(r, "READ") == calls["hgetall"] == 2000  # plain reads + the read half of every RMW
    assert _total(r, "UPDATE") == calls["hmset"] == rmw


def test_scans_and_inserts_are_the_servers_zrangebyscore_and_hmset_zadd(redis_server, loaded):
    indexed = loaded.zcard("_indices")
    r = run_phase(PhaseSpec("run", redis_server.url, _props("workload-e", operationcount=600, maxscanlength=10),
                            threads=4, processes=1))
    assert r.status == "ok", r.errors
    calls = _calls(loaded)
    inserts = _total(r, "INSERT")
    assert inserts > 0 and _total(r, "SCAN") + inserts == r.operations == 600
    assert _total(r, "SCAN") == calls["zrangebyscore"]
    assert inserts == calls["hmset"] == calls["zadd"]
    assert _total(r, "SCAN") <= calls["hgetall"] <= 10 * _total(r, "SCAN")  # one read per key found
    assert loaded.zcard("_indices") == indexed + inserts


@pytest.mark.parametrize("per_client", [1, 32, 33])
def test_each_client_runs_exactly_its_share_of_operationcount(redis_server, loaded, per_client):
    # A quota of one operation, of one take (32) and of one take and one more: the server served
    # exactly operationcount reads, whatever the chains carried on into.
    r = run_phase(PhaseSpec("run", redis_server.url, _props("workload-c", operationcount=4 * per_client), threads=4,
                            processes=1, duration_s=20))  # (a client that overran its share stops there)
    assert r.status == "ok", r.errors
    assert r.operations == _calls(loaded)["hgetall"] == 4 * per_client


def test_a_client_sends_exactly_the_operations_its_generator_drew_in_their_order(redis_server, loaded):
    # One client, a seeded generator: the server's own log of commands (MONITOR) is the sequence
    # the same generator draws here, operation for operation — chained runs (READ, UPDATE) going on
    # from one take of 32 to the next, broken by awaited READ-MODIFY-WRITEs, lose or repeat none.
    props = _props("workload-a", operationcount=700, readproportion=0.5, updateproportion=0.2,
                   readmodifywriteproportion=0.3, requestdistribution="uniform")
    seen: list[tuple[bytes, bytes]] = []
    ready = threading.Event()

    def monitor() -> None:
        with redis.Redis.from_url(redis_server.url).monitor() as m:
            ready.set()
            for cmd in m.listen():
                words = cmd["command"].split()
                if words[0] in ("HGETALL", "HMSET"):
                    seen.append((words[0].encode(), words[1].encode()))
                elif words[0] == "PING" and "end-of-test" in cmd["command"]:
                    return

    watcher = threading.Thread(target=monitor, daemon=True)
    watcher.start()
    assert ready.wait(5), "MONITOR did not start"
    r = run_phase(PhaseSpec("run", redis_server.url, props, threads=1, processes=1, seed=11))
    loaded.execute_command("PING", "end-of-test")
    watcher.join(10)
    assert not watcher.is_alive(), "MONITOR never saw the test's last command"
    assert r.status == "ok", r.errors
    gen = RunGenerator(CoreWorkload.from_properties(Properties(props)), np.random.default_rng([11, 0]))
    b = gen.next_batch(1024)
    sent = {READ: [b"HGETALL"], UPDATE: [b"HMSET"], READ_MODIFY_WRITE: [b"HGETALL", b"HMSET"]}
    drawn = [(cmd, key) for op, key in zip(b.ops[:700], b.keys[:700]) for cmd in sent[op]]
    assert r.operations == 700 and seen == drawn


def _ycsb_block(text: str) -> dict[tuple[str, str], str]:
    return {(m[1], m[2]): m[3] for m in re.finditer(r"^\[([^\]]+)\], ([^,]+), (.+)$", text, re.M)}


@pytest.mark.speed
def test_duration_run_lasts_its_duration_by_the_wall_clock_and_counts_what_the_server_served(redis_server,
                                                                                              loaded):
    spec = PhaseSpec("run", redis_server.url, _props("workload-b", operationcount=0), threads=4, processes=1,
                     duration_s=3, warmup_s=1)
    before = time.perf_counter()
    r = run_phase(spec)
    after = time.perf_counter()
    calls = _calls(loaded)
    assert r.status == "ok", r.errors
    # The engine's clock is this process's perf_counter (CLOCK_MONOTONIC, shared by the workers).
    t0 = r.t_start_mono
    assert before < t0 and t0 + r.warmup_s + r.runtime_ms / 1000 <= after
    # a duration-bounded run ends with the first operation that ends after the duration (overshoot_ms)
    lo, hi = runtime_bounds_ms(r, spec.duration_s)
    assert lo <= r.runtime_ms <= hi
    # Warm-up operations reach the server but not the totals; the series keeps them.
    s = r.series
    warm = s[(s.op == "OVERALL") & s.warmup.astype(bool)].operations.sum()
    assert warm > 0
    assert r.operations + warm == calls["hgetall"] + calls.get("hmset", 0)
    # YCSB's text block: the same runtime, and a throughput that is the server's count over it.
    block = _ycsb_block(format_phase(r))
    runtime_ms = int(block[("OVERALL", "RunTime(ms)")])
    assert lo <= runtime_ms <= hi
    served = calls["hgetall"] + calls.get("hmset", 0) - warm
    # As YCSB prints it: 1000 · operations / the whole milliseconds of RunTime(ms).
    assert float(block[("OVERALL", "Throughput(ops/sec)")]) == pytest.approx(1000 * served / runtime_ms, rel=1e-9)
    assert int(block[("READ", "Operations")]) + int(block.get(("UPDATE", "Operations"), 0)) == served
    assert int(block[("READ", "Return=OK")]) == r.ops["READ"].operations


@pytest.mark.speed
@pytest.mark.parametrize(("threads", "processes"), [(8, 1), (16, 2)])
def test_littles_law_threads_equal_throughput_times_mean_latency(redis_server, loaded, threads, processes):
    # Unpaced closed loop: each client always has one operation in flight, so the number in flight
    # (threads) is throughput × mean time per operation. The client's own time between operations
    # is not in the latency: the product comes out a little under the thread count.
    r = run_phase(PhaseSpec("run", redis_server.url, _props("workload-c", operationcount=0), threads=threads,
                            processes=processes, duration_s=2))
    assert r.status == "ok", r.errors
    read = r.ops["READ"]
    assert read.operations == r.operations == _calls(loaded)["hgetall"]
    in_flight = r.throughput_ops * read.mean_us / 1e6
    assert 0.8 * threads <= in_flight <= 1.05 * threads, (in_flight, r.throughput_ops, read.mean_us)
