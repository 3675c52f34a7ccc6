"""Samplers and the dataset footprint against real servers: Debian's redis-server and mongo-wire (FerretDB)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import psutil
import pymongo
import pytest
import redis

from tests.fixtures.samplers import INTERVAL_S, benchmark, own_cpu, redis_endpoint, rows_after, stop
from tests.fixtures.servers import start_redis
from tests.fixtures.waiting import wait_until
from ycsbctl.provision.base import Endpoint
from ycsbctl.stores.mongodb.status import MongoStatusSampler
from ycsbctl.stores.redis.info import RedisInfoSampler
from ycsbctl.telemetry import footprint_after, footprint_before, sampling
from ycsbctl.telemetry.process import ProcessSampler
from ycsbctl.workload.keys import build_key_name, java_string_hashcode


def _agrees(frame, t0: float, t1: float, own_pct: float) -> None:
    """The samples wholly inside [t0, t1] (each covers the interval before its time) average ``own_pct``,
    the CPU % counted another way over that window, within a quarter and one clock tick per sample."""
    rows = frame[(frame["t_mono"] > t0 + INTERVAL_S) & (frame["t_mono"] <= t1)]["cpu_pct"]
    assert len(rows) >= 2, frame
    tick_pct = 100 * 0.01 / INTERVAL_S  # /proc counts CPU in 10 ms ticks
    assert 0.75 * own_pct - tick_pct <= rows.mean() <= 1.25 * own_pct + tick_pct, (list(rows), own_pct)


@pytest.mark.speed
def test_busy_redis_server_uses_cpu_and_an_idle_one_almost_none(redis_server):
    """The busy figure against the server's own CPU counter over the same seconds (whatever share of
    a core this machine gives it); idle: less than one clock tick (10 ms) per 0.25 s sample."""
    rds = redis.Redis.from_url(redis_server.url)
    sampler = ProcessSampler(redis_server.proc.pid, "server-process", INTERVAL_S)
    sampler.start()
    try:
        rows_after(sampler, 3)
        idle = [r["cpu_pct"] for r in sampler.rows]
        bench = benchmark(redis_server.port)
        try:
            wait_until(lambda: any(c.raddr and c.raddr.port == redis_server.port
                                   for c in psutil.Process(bench.pid).net_connections("tcp")))
            t0, cpu0 = own_cpu(rds)
            rows_after(sampler, 5)
            t1, cpu1 = own_cpu(rds)
        finally:
            stop(bench)
    finally:
        frame = sampler.stop()
        rds.close()
    assert max(idle) < 5.0, f"idle redis-server at {idle}% of a core"
    own_pct = 100 * (cpu1 - cpu0) / (t1 - t0)  # what the server itself counted while the benchmark ran
    tick_pct = 100 * 0.01 / INTERVAL_S  # /proc counts CPU in 10 ms ticks: one tick per sample either way
    assert own_pct > max(idle) + tick_pct, f"redis-benchmark kept redis-server at only {own_pct:.1f}% of a core"
    _agrees(frame, t0, t1, own_pct)
    assert (frame["rss_bytes"] > 1_000_000).all()
    assert sampler.warning is None


def test_redis_info_fields_are_parsed_from_the_real_server(redis_server):
    r = redis.Redis.from_url(redis_server.url)
    r.flushdb()
    r.set("telemetry-key", "x")
    sampler = RedisInfoSampler(redis_server.url, INTERVAL_S)
    sampler.start()
    try:
        rows_after(sampler, 1)
        r.set("telemetry-key", "y" * 1000)  # some traffic for the counters
        rows_after(sampler, 1)
    finally:
        frame = sampler.stop()
        r.close()
    last = frame.iloc[-1]
    assert last["db_used_memory_bytes"] > 100_000 and last["db_rss_bytes"] > 100_000
    assert last["db_fragmentation_ratio"] > 0
    assert last["connections"] >= 2  # ours and the test's
    assert last["keys"] == 1
    assert frame["ops_per_s"].max() > 0 and frame["net_in_bytes_per_s"].max() > 0
    assert frame["net_out_bytes_per_s"].notna().all() and frame["db_cpu_pct"].notna().all()
    assert frame["db_instantaneous_ops_per_s"].notna().all()


def test_mongo_wire_reports_little_and_missing_fields_are_none(mongo_wire):
    sampler = MongoStatusSampler(mongo_wire.url, INTERVAL_S)
    sampler.start()
    try:
        rows_after(sampler, 2)
    finally:
        frame = sampler.stop()
    assert sampler.warning is None
    # FerretDB has no mem, connections, opcounters or network sections: recorded as missing.
    for column in ("db_used_memory_bytes", "db_rss_bytes", "connections", "ops_per_s", "net_in_bytes_per_s"):
        assert column in frame and frame[column].isna().all(), column
    from pymongo.errors import InvalidOperation

    with pytest.raises(InvalidOperation, match="after close"):  # stopped: its client (its connections) closed
        sampler._client.admin.command("ping")


def load_ycsb_records(url: str, n: int) -> None:
    """Store ``n`` records as the YCSB Redis binding does: a hash of 10 × 100-byte fields + ZADD _indices."""
    r = redis.Redis.from_url(url)
    value = b"v" * 100
    with r.pipeline(transaction=False) as p:
        for i in range(n):
            key = build_key_name(i)
            p.hset(key, mapping={f"field{f}": value for f in range(10)})
            p.zadd("_indices", {key: java_string_hashcode(key)})
            if i % 500 == 499:
                p.execute()
        p.execute()
    r.close()


def test_bytes_per_record_in_redis_is_what_the_load_added_to_the_servers_own_memory(tmp_path):
    """Held to two truths read by the test itself: Redis's ``INFO memory`` just before and after the
    load (the empty server's own ~1 MB is not the records'), and ``MEMORY USAGE`` of every key summed
    (the keys' own sizes: the figure can only add the keyspace's table to it, a few bytes a record)."""
    records = 3000
    server = start_redis(tmp_path / "footprint")
    r = redis.Redis.from_url(server.url)
    try:
        endpoint = redis_endpoint(server)
        before = footprint_before(endpoint)
        empty_rss = psutil.Process(server.proc.pid).memory_info().rss
        empty_bytes = r.info("memory")["used_memory"]
        load_ycsb_records(server.url, records)
        loaded_bytes = r.info("memory")["used_memory"]
        fp = footprint_after(endpoint, before, records)
        loaded_rss = psutil.Process(server.proc.pid).memory_info().rss
        keys_bytes = sum(r.memory_usage(key, samples=0) for key in r.scan_iter(count=1000))
    finally:
        r.close()
        server.stop()
    assert fp.keys == records + 1  # the records and _indices
    assert fp.basis == "used_memory"
    assert empty_bytes > 0.1 * (loaded_bytes - empty_bytes)  # the empty server's memory is not negligible here
    assert fp.bytes_per_record == pytest.approx((loaded_bytes - empty_bytes) / records, rel=0.03), fp.to_dict()
    assert keys_bytes / records <= fp.bytes_per_record <= 1.12 * keys_bytes / records, (fp.to_dict(), keys_bytes)
    assert fp.db_memory_before_bytes == pytest.approx(empty_bytes, rel=0.05)
    assert fp.rss_source == "process" and fp.rss_after_bytes > fp.rss_before_bytes
    # RSS per record: what the load added to the process's RSS (psutil's own readings beside the footprint's),
    # the empty server's RSS subtracted
    assert fp.rss_before_bytes == pytest.approx(empty_rss, rel=0.02)
    assert fp.rss_bytes_per_record == pytest.approx((loaded_rss - empty_rss) / records, rel=0.05), fp.to_dict()
    assert fp.rss_bytes_per_record < 0.5 * fp.rss_after_bytes / records
    assert fp.to_dict()["records"] == records


def test_mongo_wire_footprint_falls_back_to_dbstats(mongo_wire):
    client = pymongo.MongoClient(mongo_wire.url)
    client.ycsb.usertable.drop()
    endpoint = Endpoint(target="ferretdb", protocol="mongodb", url=mongo_wire.url, backend="local",
                        pid=mongo_wire.proc.pid)
    try:
        before = footprint_before(endpoint)
        stats0 = client.ycsb.command("dbStats")
        docs = [{"_id": build_key_name(i), **{f"field{f}": b"v" * 100 for f in range(10)}} for i in range(500)]
        client.ycsb.usertable.insert_many(docs)
        fp = footprint_after(endpoint, before, 500)
        stats1 = client.ycsb.command("dbStats")
    finally:
        client.ycsb.usertable.drop()
        client.close()
    assert fp.db_memory_after_bytes is None  # FerretDB reports no cache
    assert fp.basis == "dbStats" and fp.bytes_per_record > 1_000
    # memory per record on the MongoDB wire: what the load added to the server's own dbStats (data + index)
    size = lambda d: d.get("dataSize", 0) + d.get("indexSize", 0)  # noqa: E731
    assert fp.bytes_per_record == pytest.approx((size(stats1) - size(stats0)) / 500, rel=0.02), (stats0, stats1)
    assert fp.keys == 500 and fp.data_size_bytes > 0 and fp.avg_obj_size_bytes > 0
    assert fp.rss_source == "process"


def test_sampling_a_run_gives_a_tidy_frame_summary_and_label(redis_server):
    bench: list[subprocess.Popen] = []
    with sampling(redis_endpoint(redis_server, pid=False), client_pids=lambda: [p.pid for p in bench],
                  interval_s=INTERVAL_S) as cap:
        bench.append(benchmark(redis_server.port))
        try:
            wait_until(lambda: sum(s.source == "client" and len(s.rows) >= 4 for s in cap.samplers) == 1)
        finally:
            stop(bench[0])
    f = cap.frame
    assert {"t_mono", "t_wall", "source", "cpu_pct", "rss_bytes", "db_used_memory_bytes", "connections",
            "ops_per_s", "net_in_bytes_per_s", "net_out_bytes_per_s"} <= set(f.columns)
    # No pid given: the server's own process_id, confirmed by its listening port, is sampled.
    assert {"server-process", "client", "redis-info", "net-lo"} <= set(f["source"])
    assert (f["t_wall"] - f["t_mono"]).std() < 1.0  # both clocks advance together
    s = cap.summary()
    assert s.server_cpu_pct_mean > 0 and s.client_cpu_pct_mean > 0 and s.db_ops_per_s_mean > 0
    assert s.net_source == "redis-info" and s.net_gbit_s_mean > 0
    assert s.sampler_cpu_s > 0 and cap.warnings == []
    assert cap.bottleneck().label in ("server-cpu", "client-cpu", "host-cpu", "latency")


def test_a_server_that_dies_mid_run_stops_its_samplers_with_one_warning_each(tmp_path):
    server = start_redis(tmp_path / "dies")
    try:  # a test that fails before the kill (a mutant of a sampler) must not leave its server running
        with sampling(redis_endpoint(server), interval_s=INTERVAL_S) as cap:
            wait_until(lambda: all(len(s.rows) >= 2 for s in cap.samplers))
            server.proc.kill()
            server.proc.wait()
            wait_until(lambda: all(s.warning for s in cap.samplers if s.source in ("server-process", "redis-info")))
    finally:
        server.stop()
    assert {"server-process", "redis-info"} <= set(cap.frame["source"])  # what was collected is kept
    assert len(cap.warnings) == 2
    assert any("server-process sampler stopped: process" in w and "exited" in w for w in cap.warnings)
    assert any(w.startswith("redis-info sampler stopped:") for w in cap.warnings)


def test_access_denied_on_a_process_is_reported_not_raised(redis_server, monkeypatch):
    # As root nothing is denied: inject the error psutil raises for another user's process.
    def denied(self):
        raise psutil.AccessDenied(self.pid)

    denied.cache_activate = denied.cache_deactivate = lambda proc: None  # what Process.oneshot() calls
    monkeypatch.setattr(psutil.Process, "cpu_times", denied)
    sampler = ProcessSampler(redis_server.proc.pid, "server-process", INTERVAL_S)
    sampler.start()
    wait_until(lambda: sampler.warning is not None)
    frame = sampler.stop()
    assert "access denied to process" in sampler.warning and "run ycsbctl as that user or root" in sampler.warning
    assert len(frame) == 0


@pytest.mark.speed
def test_client_sampler_sums_worker_processes():
    """Held to what the kernel charged each worker over the same window (their own ``/proc``
    counters): the sampler's figure is the sum of both, not one of them, at any machine speed."""
    workers = [subprocess.Popen(["python3", "-c", "while True: pass"]) for _ in range(2)]
    sampler = ProcessSampler(lambda: [w.pid for w in workers], "client", INTERVAL_S, include_children=False)
    procs = [psutil.Process(w.pid) for w in workers]
    try:
        sampler.start()
        rows_after(sampler, 1)
        cpu0, t0, first = [sum(p.cpu_times()[:2]) for p in procs], time.monotonic(), len(sampler.rows)
        rows_after(sampler, 8)
        used = [sum(p.cpu_times()[:2]) - c for p, c in zip(procs, cpu0)]
        wall_s, last = time.monotonic() - t0, len(sampler.rows)
    finally:
        frame = sampler.stop()
        for w in workers:
            w.kill()
            w.wait()
    assert (frame["processes"] == 2).all()
    each_pct = [100.0 * u / wall_s for u in used]
    # the mean of the rows over the same window (8 ticks: its edges, a tick's worth at most, weigh 1/8 at most,
    # whatever else shares the cores and however unevenly it does)
    measured = frame["cpu_pct"].iloc[first:last].mean()
    assert measured == pytest.approx(sum(each_pct), rel=0.25), (list(frame["cpu_pct"]), each_pct)
    assert measured > 1.4 * max(each_pct)  # the two summed, not one of them


def test_mongo_wire_run_falls_back_to_loopback_counters_for_network(mongo_wire):
    endpoint = Endpoint(target="ferretdb", protocol="mongodb", url=mongo_wire.url, backend="external")
    client = pymongo.MongoClient(mongo_wire.url)
    with sampling(endpoint, interval_s=INTERVAL_S) as cap:
        for i in range(50):  # some traffic on lo
            client.ycsb.telemetry.insert_one({"_id": i, "v": b"x" * 10_000})
        wait_until(lambda: all(len(s.rows) >= 2 for s in cap.samplers))
    client.ycsb.telemetry.drop()
    client.close()
    # No pid given: serverStatus.pid, confirmed by the listening port, is sampled.
    assert {"server-process", "mongo-status", "net-lo"} <= set(cap.frame["source"])
    s = cap.summary()
    assert s.net_source == "net-lo" and s.net_gbit_s_max > 0
    assert s.server_cpu_source == "server-process" and s.db_used_memory_bytes_max is None


def test_basic_endpoint_samples_only_the_client():
    endpoint = Endpoint(target="basic", protocol="basic", url="basic://", backend="external")
    worker = subprocess.Popen(["python3", "-c", "while True: pass"])
    try:
        # sampled once it spins: on a loaded host the interpreter's start can outlast two readings (it read 0.0 %)
        wait_until(lambda: sum(psutil.Process(worker.pid).cpu_times()[:2]) > 0.05, what="the spinner spinning")
        with sampling(endpoint, client_pids=lambda: [worker.pid], interval_s=INTERVAL_S) as cap:
            wait_until(lambda: len(cap.samplers[0].rows) >= 2)
    finally:
        worker.kill()
        worker.wait()
    # no server: nothing of a server's (its process, threads, connections); the client's threads, and the host
    # when its 3 s reading fell in the block
    assert {"client", "client-threads"} <= set(cap.frame["source"]) <= {"client", "client-threads", "host"}
    s = cap.summary()
    assert s.server_cpu_pct_mean is None and s.client_cpu_pct_mean > 0 and s.client_processes == 1
    assert cap.bottleneck().evidence["server_cpu_pct"] is None


def test_shard_balance_is_the_busiest_nodes_share_of_the_commands() -> None:
    import pandas as pd

    from ycsbctl.telemetry.capture import shard_balance

    f = pd.DataFrame({"source": ["redis-info", "redis-shard", "redis-shard", "redis-shard", "redis-shard"],
                      "node": [None, "a", "b", "a", "b"], "ops_per_s": [100.0, 30.0, 10.0, 30.0, 30.0]})
    assert shard_balance(f) == {"shards": 2.0, "shard_ops_share_max": 0.6}
    assert shard_balance(f[f["source"] == "redis-info"]) == {}


_PARENT = r"""
import subprocess, sys
sys.stdin.readline()  # "go", once the sampler has its baseline
child = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.1: pass\nprint(time.process_time())"
runs = [subprocess.run([sys.executable, "-c", child], capture_output=True, text=True) for _ in range(6)]
total = sum(float(r.stdout) for r in runs)
print(total, flush=True)
sys.stdin.readline()
"""


def test_a_server_whose_children_end_between_two_reads_keeps_their_cpu():
    """A PostgreSQL backend ends when its client disconnects, often between two reads of the sampler: its
    CPU must still count (it did, before, only while it was seen alive; one born and gone between two
    reads did not count at all). A parent runs six children of ~0.1 s of CPU each, one after the other,
    reaping each; reads every 0.3 s see few of them alive. The CPU sampled over the span equals the
    children's own count (each prints its process_time) plus the parent's own, within 10 % and 20 ms."""
    parent = subprocess.Popen([sys.executable, "-c", _PARENT], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        sampler = ProcessSampler(parent.pid, "server-process", 0.3, children_every=1)
        sampler.prime()
        t = psutil.Process(parent.pid).cpu_times()
        own0 = t.user + t.system
        assert parent.stdin is not None and parent.stdout is not None
        parent.stdin.write("go\n")
        parent.stdin.flush()
        done: list[str] = []
        reader = threading.Thread(target=lambda: done.append(parent.stdout.readline()))  # type: ignore[union-attr]
        reader.start()
        sampled = 0.0
        while reader.is_alive():
            time.sleep(0.3)
            sampled += sampler._read()[0]
        sampled += sampler._read()[0]
        t = psutil.Process(parent.pid).cpu_times()
        truth = float(done[0]) + (t.user + t.system - own0)
    finally:
        parent.kill()
        parent.wait()
    assert float(done[0]) >= 0.6  # six children, 0.1 s each at least
    assert abs(sampled - truth) <= 0.1 * truth + 0.02, (sampled, truth, sampled - truth)


def test_the_rss_of_a_target_of_several_processes_is_all_of_theirs_and_no_record_is_no_figure():
    """Two processes of one target (shards, a primary and its replicas): the RSS is both, each as psutil reads it
    (sleep's RSS does not move); a footprint of 0 records has no bytes per record (not a division by 0)."""
    import subprocess

    import psutil

    from ycsbctl.provision.base import Endpoint
    from ycsbctl.telemetry.footprint import _per_record, _rss

    procs = [subprocess.Popen(["sleep", "30"]) for _ in range(2)]
    try:
        # a sleep still starting (its exec, its libraries loading) grows: read it once it sleeps
        wait_until(lambda: all(psutil.Process(p.pid).status() == psutil.STATUS_SLEEPING
                               and psutil.Process(p.pid).name() == "sleep" for p in procs), 10, "both sleeps sleeping")
        ep = Endpoint(target="t", protocol="redis", url="redis://127.0.0.1:1/0", backend="external",
                      processes=[{"pid": p.pid} for p in procs])
        before = sum(psutil.Process(p.pid).memory_info().rss for p in procs)
        rss, source = _rss(ep, 7.0)
        assert source == "process" and rss == before == sum(psutil.Process(p.pid).memory_info().rss for p in procs)
        assert _rss(Endpoint(target="t", protocol="redis", url="redis://127.0.0.1:1/0", backend="external"), 7.0) == \
            (7.0, "db")  # nothing of ours to read: what the server says
    finally:
        for p in procs:
            p.kill()
            p.wait()
    assert _per_record(1000.0, 400.0, 0) is None and _per_record(1000.0, 400.0, 3) == 200.0
    assert _per_record(1000.0, 400.0, 1) == 600.0  # one record is a figure
    assert _per_record(1000.0, None, 4) == 250.0 and _per_record(None, 400.0, 3) is None


def test_a_counters_rate_is_its_growth_per_second_none_without_a_reading_or_time_and_0_after_a_reset():
    """Every store sampler's per-second rate of a server counter (stores/sampler.py's counter_rate): the growth over
    the seconds between the readings (× a scale: CPU seconds as % of a core), None when a reading is missing or no
    time passed (or the clock went back), 0 when the counter went back (the server restarted)."""
    from ycsbctl.stores.sampler import counter_rate, rates

    assert counter_rate(100.0, 400.0, 2.0) == 150.0 and counter_rate(1.0, 1.5, 0.5, 100.0) == 100.0
    assert counter_rate(None, 400.0, 2.0) is None and counter_rate(100.0, None, 2.0) is None
    assert counter_rate(100.0, 400.0, 0.0) is None and counter_rate(100.0, 400.0, -0.5) is None
    assert counter_rate(400.0, 100.0, 2.0) == 0.0
    assert counter_rate(100.0, 100.0, 2.0) == 0.0
    assert rates({"ops": 10.0, "cpu_s": 1.0}, {"ops": 30.0, "cpu_s": 1.5, "net_in": 5.0}, 2.0) == \
        {"ops_per_s": 10.0, "net_in_bytes_per_s": None, "net_out_bytes_per_s": None, "db_cpu_pct": 25.0}


def test_a_sample_that_fails_without_words_still_says_why_the_sampler_stopped():
    """A PostgreSQL stopped (SIGSTOP) under its sampler: asyncpg's query timed out with a bare TimeoutError and the
    line read 'postgresql sampler stopped: ' (fault43f)."""
    from ycsbctl.stores.sampler import Sampler

    class Failing(Sampler):
        source = "failing"

        def __init__(self, exc: BaseException) -> None:
            super().__init__(0.01)
            self.exc = exc

        def sample(self) -> dict:
            raise self.exc

    said = []
    for exc in (TimeoutError(), KeyError(), ValueError("bad\nsecond line")):
        s = Failing(exc)
        s.start()
        wait_until(lambda s=s: s.warning is not None)
        s.stop()
        said.append(s.warning)
    assert said == ["failing sampler stopped: the server did not answer in time (TimeoutError): its figures end there",
                    "failing sampler stopped: KeyError", "failing sampler stopped: bad"]


def test_a_mongodb_user_that_may_not_run_server_status_is_told_what_is_not_measured(mongo_wire, monkeypatch):
    """Untried before (fault43g). No server of the tests has users (FerretDB embedded over SQLite, mongo-echo): the
    refusal a MongoDB with authorization sends (code 13, as pymongo raises it from the reply) is injected into the real
    sampler on the session's mongo-wire server. Was 'mongo-status sampler stopped: command serverStatus requires
    authentication, full error: {…}'; now what is not measured and the role that grants it. Another refusal is
    left as the server said it."""
    import pymongo.errors

    from ycsbctl.stores.mongodb import status

    reply = {"ok": 0.0, "errmsg": "command serverStatus requires authentication", "code": 13,
             "codeName": "Unauthorized"}

    def refused(client):
        raise pymongo.errors.OperationFailure(reply["errmsg"], reply["code"], reply)

    monkeypatch.setattr(status, "server_status", refused)
    sampler = status.MongoStatusSampler(mongo_wire.url, 0.05)
    sampler.start()
    wait_until(lambda: sampler.warning is not None)
    assert len(sampler.stop()) == 0
    assert sampler.warning == (
        "mongo-status sampler stopped: the server refused serverStatus to this URL's user (code 13, Unauthorized): its "
        "memory, connections, operation and network rates and CPU time are not measured; give the user the "
        "clusterMonitor role")
    assert status.not_permitted(pymongo.errors.OperationFailure("no such command", 59, {"code": 59})) is None
