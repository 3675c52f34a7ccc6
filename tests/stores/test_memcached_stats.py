"""Memcached's counters (stores/memcached/stats.py) from a ``stats`` reply laid out as memcached lays it out."""

from __future__ import annotations


def test_memcacheds_counters_add_what_a_stats_reply_has_and_need_its_gets_and_sets():
    # a stats reply's values are text; a server older than cmd_touch (1.4.8) or one without rusage still counts
    from ycsbctl.stores.memcached.stats import counters, gauges

    stats = {"cmd_get": "40", "cmd_set": "7", "cmd_touch": "2", "delete_hits": "3", "delete_misses": "1",
             "bytes_read": "900", "bytes_written": "1200", "rusage_user": "0.25", "rusage_system": "0.5",
             "get_hits": "30", "get_misses": "10", "bytes": "4096", "limit_maxbytes": "67108864",
             "curr_connections": "3", "curr_items": "5"}
    c = counters(stats)
    assert (c["ops"], c["net_in"], c["net_out"], c["cpu_s"]) == (53.0, 900.0, 1200.0, 0.75)
    assert (c["cmd_get"], c["get_hits"], c["get_misses"], c["delete_misses"]) == (40.0, 30.0, 10.0, 1.0)
    assert counters({k: v for k, v in stats.items() if k not in ("cmd_touch", "delete_hits")})["ops"] == 48.0
    for needed in ("cmd_get", "cmd_set"):
        assert counters({k: v for k, v in stats.items() if k != needed})["ops"] is None, needed
    assert counters(stats | {"rusage_user": "0.000000"})["cpu_s"] == 0.5  # a server that has used no user time yet
    for half in ("rusage_user", "rusage_system"):
        assert counters({k: v for k, v in stats.items() if k != half})["cpu_s"] is None, half
    assert gauges(stats) == {"db_used_memory_bytes": 4096.0, "db_limit_bytes": 67108864.0, "connections": 3.0,
                             "keys": 5}
    assert gauges({})["keys"] is None
