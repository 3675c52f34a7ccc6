"""memcached operations counted by the engine against the server's own counters (``stats``, read with
pymemcache): every request the engine times is one the server saw, with the same outcome."""

from __future__ import annotations

import pytest
from pymemcache.client.base import Client

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.pacing import OPS, chain_props, check_paced_schedule, paced_chain_run
from tests.fixtures.server_counters import MEMCACHED_COUNTERS, memcached_counters
from tests.fixtures.waiting import wait_until
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.stores.memcached.stats import MemcachedStatsSampler
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.truth


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {k: after[k] - before[k] for k in MEMCACHED_COUNTERS}


def props(**overrides: object) -> dict[str, str]:
    p = dict(load_properties("workload-a"))
    p.update({k: str(v) for k, v in overrides.items()})
    return p


def test_engine_counts_per_operation_and_status_equal_the_servers_counters(memcached_server):
    before = memcached_counters(memcached_server)
    load = run_phase(PhaseSpec("load", memcached_server.url, props(recordcount=200), threads=3, processes=1))
    after = memcached_counters(memcached_server)
    assert load.status == "ok", load.errors
    assert delta(before, after)["cmd_set"] == load.ops["INSERT"].returns["OK"] == 200
    assert after["curr_items"] == 200

    # Reads over twice the key space loaded (half of them miss), updates (replace of a missing key:
    # NOT_FOUND), inserts past the end; two worker processes.
    before = after
    run = run_phase(PhaseSpec("run", memcached_server.url,
                              props(recordcount=400, operationcount=3000, readproportion=0.6, updateproportion=0.3,
                                    insertproportion=0.1, requestdistribution="uniform"), threads=4, processes=2))
    after = memcached_counters(memcached_server)
    d = delta(before, after)
    reads, updates, inserts = (run.ops[k].returns for k in ("READ", "UPDATE", "INSERT"))
    assert run.operations == 3000 and sum(reads.values()) + sum(updates.values()) + sum(inserts.values()) == 3000
    assert d["cmd_get"] == sum(reads.values())  # (READ-FAILED holds the misses, as YCSB)
    assert d["get_hits"] == reads.get("OK", 0) and d["get_misses"] == reads.get("NOT_FOUND", 0)
    assert reads.get("NOT_FOUND", 0) > 0 and updates.get("NOT_FOUND", 0) > 0  # the test sees both outcomes
    assert d["cmd_set"] == sum(updates.values()) + sum(inserts.values())
    assert d["curr_items"] == inserts["OK"] == sum(inserts.values())  # a replace of a missing key stores nothing


def test_deletes_count_as_the_servers_delete_hits_and_misses(memcached_server):
    keys = [b"user%d" % i for i in range(30)]

    async def ops(b):
        for k in keys[:20]:
            await b[0].insert("usertable", k, field_values(2))
        return [await b[0].delete("usertable", k) for k in keys]

    before = memcached_counters(memcached_server)
    statuses = run_bindings(ops, memcached_server.url)
    d = delta(before, memcached_counters(memcached_server))
    assert d["delete_hits"] == statuses.count(0) == 20
    assert d["delete_misses"] == statuses.count(1) == 10
    assert d["curr_items"] == 0


def test_the_stats_sampler_rates_add_up_to_the_counters(memcached_server):
    # rows 0.5 s apart: a row's time (the frame's t_mono) and the sampler's own clock reading differ by
    # the scheduling of one thread, a few ms on a busy host, which is 1 % of 0.5 s (it was 5 % of 0.1 s)
    sampler = MemcachedStatsSampler(memcached_server.url, interval_s=0.5)
    sampler.start()
    wait_until(lambda: len(sampler.rows) >= 1, what="the sampler's first row")  # its baseline is taken
    before = memcached_counters(memcached_server)
    run_bindings(lambda b: _reads(b, 400), memcached_server.url)
    after = memcached_counters(memcached_server)
    seen = len(sampler.rows)
    wait_until(lambda: len(sampler.rows) >= seen + 1, what="a row after the reads")
    frame = sampler.stop()
    assert sampler.warning is None
    assert {"cmd_get_per_s", "get_misses_per_s", "db_used_memory_bytes", "connections",
            "db_cpu_pct"} <= set(frame.columns)
    elapsed = frame["t_mono"].diff().fillna(0.0)  # each row's rate covers the time since the previous one
    # the sampler's own `stats` requests are not gets: its rates add up to the reads alone (± the rows' timing)
    misses = after["get_misses"] - before["get_misses"]
    assert misses == 400
    assert (frame["get_misses_per_s"] * elapsed).sum() == pytest.approx(misses, rel=0.1)
    assert frame["keys"].iloc[-1] == after["curr_items"] == 0


async def _reads(b, n: int) -> None:
    for i in range(n):
        await b[0].read("usertable", b"missing%d" % i, None)


@pytest.mark.speed
def test_a_paced_memcached_run_is_chained_on_schedule_and_the_server_counts_every_operation(memcached_server):
    load = run_phase(PhaseSpec("load", memcached_server.url, chain_props(recordcount=100), threads=2, processes=1))
    assert load.status == "ok", load.errors
    marks: list[dict[str, int]] = []
    r, wall_s, rate = paced_chain_run(memcached_server.url,
                                      then=lambda: marks.append(memcached_counters(memcached_server)))
    check_paced_schedule(r, wall_s, rate)
    d = delta(marks[0], memcached_counters(memcached_server))
    assert d["cmd_get"] + d["cmd_set"] == OPS == r.ops["READ"].operations + r.ops["UPDATE"].operations


def test_records_larger_than_one_read_count_as_the_servers_hits_and_stores(memcached_server):
    """Records of ~400 kB arrive over several reads, so their replies go through the full parse (not
    the one-read frame check): every read of a loaded key is still a hit and every update STORED, as
    the server counts them."""
    big = props(recordcount=20, fieldlength=40_000, fieldcount=10)
    load = run_phase(PhaseSpec("load", memcached_server.url, big, threads=2, processes=1))
    assert load.status == "ok", load.errors
    before = memcached_counters(memcached_server)
    run = run_phase(PhaseSpec("run", memcached_server.url,
                              {**big, "operationcount": "200", "readproportion": "0.7", "updateproportion": "0.3",
                               "writeallfields": "true"}, threads=2, processes=1))
    d = delta(before, memcached_counters(memcached_server))
    reads, updates = run.ops["READ"].returns, run.ops["UPDATE"].returns
    assert reads == {"OK": d["get_hits"]} and d["get_misses"] == 0 and d["get_hits"] > 0
    assert updates == {"OK": d["cmd_set"]} and d["cmd_set"] > 0


def test_the_samplers_operation_rate_and_cpu_are_the_servers_own_counters_over_its_span(memcached_server):
    """One sampler span around 150 sets and 400 gets: ``ops_per_s`` × the span is exactly the server's own
    cmd_get + cmd_set added (its ``stats`` requests are no operations), and ``db_cpu_pct`` × the span is the
    server's rusage (user + system, % of one core) added in it, within what our own bracketing readings saw."""
    def own() -> dict[str, float]:
        c = Client(("127.0.0.1", memcached_server.port), connect_timeout=5, timeout=5)
        try:
            s = c.stats()
        finally:
            c.close()
        return {"ops": float(int(s[b"cmd_get"]) + int(s[b"cmd_set"]) + int(s[b"cmd_touch"]) + int(s[b"delete_hits"])
                             + int(s[b"delete_misses"])),
                "cpu_s": float(s[b"rusage_user"]) + float(s[b"rusage_system"])}

    async def work(b):
        for i in range(150):
            await b[0].insert("usertable", b"user%d" % i, field_values(2))
        await _reads(b, 400)

    sampler = MemcachedStatsSampler(memcached_server.url)
    outer0 = own()
    sampler.prime()
    try:
        t0 = sampler._t
        inner0 = own()
        run_bindings(work, memcached_server.url)
        inner1 = own()
        row = sampler.sample()
        span = sampler._t - t0
        outer1 = own()
    finally:
        sampler.close()
    assert inner1["ops"] - inner0["ops"] == 550
    assert row["ops_per_s"] * span == pytest.approx(550, rel=1e-9)
    assert row["cmd_set_per_s"] * span == pytest.approx(150, rel=1e-9)
    assert row["cmd_get_per_s"] * span == pytest.approx(400, rel=1e-9)
    assert row["get_misses_per_s"] * span == pytest.approx(400, rel=1e-9)
    cpu_s = row["db_cpu_pct"] * span / 100
    assert inner1["cpu_s"] - inner0["cpu_s"] - 1e-6 <= cpu_s <= outer1["cpu_s"] - outer0["cpu_s"] + 1e-6


def test_the_samplers_own_pid_and_connection_are_the_servers_and_a_reply_without_the_request_counters_has_no_rate(
        memcached_server):
    """``stats pid`` is the process we started; the sampler's one connection is the server's ``curr_connections``
    less one after close(); a reply without cmd_set (another server's dialect) gives no operation count, not the
    gets alone."""
    from ycsbctl.stores.memcached.stats import counters, reported_pid

    def connections() -> int:
        c = Client(("127.0.0.1", memcached_server.port), connect_timeout=5, timeout=5)
        try:
            return int(c.stats()[b"curr_connections"])
        finally:
            c.close()

    assert reported_pid(memcached_server.url) == memcached_server.proc.pid
    sampler = MemcachedStatsSampler(memcached_server.url)
    sampler.prime()
    with_it = connections()
    sampler.close()
    wait_until(lambda: connections() == with_it - 1, what="the sampler's connection closed")
    assert counters({"cmd_get": "5", "cmd_touch": "1"})["ops"] is None
    assert counters({"cmd_get": "5", "cmd_set": "2"})["ops"] == 7.0  # touches and deletes absent: none
