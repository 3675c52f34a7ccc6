"""What a MongoDB-wire server's serverStatus says, read as MongoDB documents its fields: ``mem.resident`` in
MiB, the cache bytes of Percona's inMemory engine before WiredTiger's, operations as the sum of the
opcounters YCSB's operations map to (not ``command``), CPU from ``extra_info``'s microseconds; a field a
server leaves out (FerretDB leaves out most) is None."""

from __future__ import annotations

import pytest

from ycsbctl.stores.mongodb.status import cache, counters, database_name, gauges

pytestmark = pytest.mark.truth

STATUS = {
    "mem": {"resident": 37, "virtual": 2000},
    "connections": {"current": 9, "available": 800},
    "wiredTiger": {"cache": {"bytes currently in the cache": 5000.0, "maximum bytes configured": 9000.0}},
    "opcounters": {"insert": 10, "query": 20, "update": 30, "delete": 4, "getmore": 5, "command": 1000},
    "network": {"bytesIn": 123, "bytesOut": 456},
    "extra_info": {"user_time_us": 2_500_000, "system_time_us": 500_000},
}


def test_the_figures_of_one_server_status():
    assert gauges(STATUS) == {"db_used_memory_bytes": 5000.0, "db_cache_max_bytes": 9000.0,
                              "db_rss_bytes": 37 * 1024 * 1024, "connections": 9}
    assert counters(STATUS) == {"ops": 69, "net_in": 123, "net_out": 456, "cpu_s": 3.0}
    in_memory = {**STATUS, "inMemory": {"cache": {"bytes currently in the cache": 7.0,
                                                  "maximum bytes configured": 8.0}}}
    assert cache(in_memory) == (7.0, 8.0) and cache(STATUS) == (5000.0, 9000.0)


def test_a_field_the_server_leaves_out_is_none():
    assert gauges({}) == {"db_used_memory_bytes": None, "db_cache_max_bytes": None, "db_rss_bytes": None,
                          "connections": None}
    assert counters({}) == {"ops": None, "net_in": None, "net_out": None, "cpu_s": None}
    assert counters({"opcounters": {"query": 3}})["ops"] == 3  # the kinds it reports
    assert counters({"extra_info": {"user_time_us": 1}})["cpu_s"] is None  # CPU needs both parts
    assert cache({"wiredTiger": {"cache": "n/a"}}) == (None, None)


def test_the_database_is_the_urls_or_ycsb():
    assert database_name("mongodb://h:1/other?w=1") == "other"
    assert database_name("mongodb://h:1/") == database_name("mongodb://h:1") == "ycsb"


def test_the_reported_pid_is_the_servers_own_process(tmp_path):
    from tests.fixtures.servers import start_mongo_wire
    from ycsbctl.stores.mongodb.status import reported_pid

    server = start_mongo_wire(tmp_path / "mongo-wire")
    try:
        assert reported_pid(server.url) == server.proc.pid
    finally:
        server.stop()


def test_each_samples_rates_are_the_counters_change_over_the_seconds_since_the_last(monkeypatch):
    """Rates over each interval (now minus the previous sample's time, whatever the clock's origin): from 100.0 s
    to 102.0 s, 69 → 269 operations is 100 ops/s; then to 106.0 s, 269 → 669 is 100 ops/s again, CPU 3 s → 4 s
    a 25 % core. A clock read as now + then (not now − then) would read 1 ops/s."""
    from types import SimpleNamespace

    from ycsbctl.stores.mongodb import status as mod

    clock = iter([100.0, 102.0, 106.0])
    served = iter([STATUS, {**STATUS, "opcounters": {"query": 269}, "extra_info": {"user_time_us": 3_000_000,
                                                                                    "system_time_us": 0}},
                   {**STATUS, "opcounters": {"query": 669}, "extra_info": {"user_time_us": 4_000_000,
                                                                          "system_time_us": 0}}])
    monkeypatch.setattr(mod, "connect", lambda url: object())
    monkeypatch.setattr(mod, "server_status", lambda client: next(served))
    monkeypatch.setattr(mod, "time", SimpleNamespace(monotonic=lambda: next(clock)))  # this module's clock only
    sampler = mod.MongoStatusSampler("mongodb://127.0.0.1:1/ycsb")
    sampler.prime()
    first, second = sampler.sample(), sampler.sample()
    assert first["ops_per_s"] == pytest.approx(100.0) and second["ops_per_s"] == pytest.approx(100.0)
    assert second["db_cpu_pct"] == pytest.approx(25.0)
