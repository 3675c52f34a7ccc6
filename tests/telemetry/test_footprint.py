"""The dataset footprint (telemetry/footprint.py): a record's bytes from the server's memory, its dbStats
or its RSS growth, less the empty server's, worked out by hand."""

from __future__ import annotations

from ycsbctl.telemetry.footprint import _per_record, stats_bytes


def test_a_mongodb_records_bytes_are_its_data_and_indexes_less_the_empty_servers():
    # the empty server: no data (0) and no size given for its indexes; after 1,000 records 250,000 + 36,864 bytes
    before = {"data_size_bytes": 0, "index_size_bytes": None}
    after = {"data_size_bytes": 250_000, "index_size_bytes": 36_864}
    assert (stats_bytes(before), stats_bytes(after)) == (0.0, 286_864.0)
    assert _per_record(stats_bytes(after), stats_bytes(before), 1_000) == 286.864
    assert stats_bytes({"data_size_bytes": None, "index_size_bytes": 4_096}) == 4_096.0
    # RSS per record less the empty server's; none without records or an after
    assert _per_record(9_000_000.0, 8_000_000.0, 4_000) == 250.0 and _per_record(9_000_000.0, None, 3) == 3_000_000.0
    assert _per_record(None, 1.0, 10) is None and _per_record(5.0, 1.0, 0) is None


def test_a_records_bytes_are_the_servers_memory_else_its_dbstats_else_its_rss_growth_and_none_without_any():
    from ycsbctl.provision.base import Endpoint
    from ycsbctl.telemetry.footprint import footprint_of

    ep = Endpoint("t", "redis", "redis://127.0.0.1:1", "external")
    rss = {"rss_bytes": 1_000_000.0, "rss_source": "process"}
    # every figure given: the server's own memory (Redis's used_memory), 3,000 records grew it by 1,200,000 bytes
    fp = footprint_of(ep, {"db_memory_bytes": 800_000.0, "data_size_bytes": 5.0, **rss},
                      {"db_memory_bytes": 2_000_000.0, "data_size_bytes": 9.0, "rss_bytes": 4_600_000.0}, 3_000)
    assert (fp.bytes_per_record, fp.basis, fp.rss_bytes_per_record) == (400.0, "used_memory", 1_200.0)
    # no memory figure: dbStats' data + index sizes, (70,000 + 20,000 - 30,000 - 0) / 3,000
    fp = footprint_of(ep, {"data_size_bytes": 30_000.0, **rss},
                      {"data_size_bytes": 70_000.0, "index_size_bytes": 20_000.0, "rss_bytes": 4_600_000.0}, 3_000)
    assert (fp.bytes_per_record, fp.basis, fp.rss_bytes_per_record) == (20.0, "dbStats", 1_200.0)
    # only RSS: its growth, the empty server's RSS taken off
    fp = footprint_of(ep, rss, {"rss_bytes": 4_600_000.0, "rss_source": "process"}, 3_000)
    assert (fp.bytes_per_record, fp.basis, fp.rss_source) == (1_200.0, "rss", "process")
    # nothing read (a server that reports nothing, no process seen): no figure and no basis
    fp = footprint_of(ep, {}, {}, 3_000)
    assert (fp.bytes_per_record, fp.basis, fp.rss_bytes_per_record) == (None, None, None)
