"""Survivors of the per-module mutation runs of telemetry/ (issue 43), each killed by a value worked out by hand;
pure and millisecond-quick, listed first in each module's map in scripts/mutation.py."""

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
