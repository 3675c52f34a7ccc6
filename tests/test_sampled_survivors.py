"""Survivors of the whole-map mutation samples (``make mutation``, seed 43), each killed by a value worked
out here, one small test per survivor, named for what it checks; each module's map in scripts/mutation.py
lists this file first."""

from __future__ import annotations

import pandas as pd
import pytest

from ycsbctl.results.client_lag import client_lag_warning
from ycsbctl.results.model import PhaseResult
from ycsbctl.stores.http1 import HttpReply, parse
from ycsbctl.telemetry.evidence import rows_in
from ycsbctl.workload.media_items.settings import Settings
from ycsbctl.workload.properties import Properties


def test_a_window_holds_the_rows_whose_interval_lies_half_inside_it():
    # 1 s rows at t = 1..10 cover (t-1, t]; the window (3.0, 6.5) overlaps row 4 fully, 7 by half, 8 not at all
    frame = pd.DataFrame({"source": "s", "t_mono": [float(t) for t in range(1, 11)]})
    got = list(rows_in(frame, "s", 1.0, (3.0, 6.5))["t_mono"])
    assert got == [4.0, 5.0, 6.0, 7.0]
    assert list(rows_in(frame, "s", 1.0, (3.0, 6.5), strict=True)["t_mono"]) == [4.0, 5.0, 6.0]
    # a window far from every row: none inside, so all of them (a point shorter than an interval), or none if strict
    assert len(rows_in(frame, "s", 1.0, (50.0, 50.2))) == 10 and rows_in(frame, "s", 1.0, (50.0, 50.2), True).empty



def test_wire_figures_are_the_means_of_the_readings_with_our_connections_and_none_without_the_bytes_column():
    from ycsbctl.telemetry.evidence import wire_figures

    # 3 s readings at t = 3, 6, 9, 12, all inside (0, 12]; the one at 6 saw none of our connections: left out
    frame = pd.DataFrame({"source": "wire", "t_mono": [3.0, 6.0, 9.0, 12.0], "wire_connections": [2, 0, 2, 2],
                          "wire_bytes_per_s": [100.0, 9999.0, 200.0, 600.0], "wire_packets_per_s": [1.0, 50.0, 2.0, 9.0]})
    assert wire_figures(frame, (0.0, 12.0)) == {"bytes_per_s": 300.0, "packets_per_s": 4.0, "minrtt_ms": None}
    # readings of the wire but no byte rates (an older capture): nothing to say, not a KeyError
    assert wire_figures(frame.drop(columns=["wire_bytes_per_s"]), (0.0, 12.0)) == {}

def test_a_chunked_reply_is_whole_only_with_its_last_chunk_and_its_crlf():
    whole = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
    reply, used = parse(whole + b"HTTP/1.1 ...", HttpReply)
    assert reply is not None and (reply.status, reply.body, used) == (200, b"hello world", len(whole))
    for cut in range(len(whole) - 1, 40, -1):  # every shorter prefix, down into the head
        assert parse(whole[:cut], HttpReply) == (None, 0), cut


def test_the_client_lag_rule_says_nothing_without_a_lag_histogram():
    assert client_lag_warning(None) is None
    assert client_lag_warning(PhaseResult("run", 8, 1000.0, 100, client_lag=None)) is None


def test_the_media_items_study_loads_ycsbs_100000_records_unless_told():
    assert Settings.read(Properties({})).records == 100_000
    assert Settings.read(Properties({"recordcount": "1234"})).records == 1234


def test_a_latency_axis_turns_to_ms_at_20000_us():
    from ycsbctl.report.plot_style import latency_unit

    assert latency_unit(20_000.0) == (1000.0, "ms")
    assert latency_unit(19_999.5) == (1.0, "µs")
    assert latency_unit(float("nan")) == (1.0, "µs")


@pytest.mark.parametrize("url,ok", [("mysql://root@127.0.0.1:3306/ycsb", True), ("mysql:///ycsb", False),
                                    ("mysql://root@127.0.0.1:3306/a/b", False), ("mysql://root@h:99999/ycsb", False)])
def test_a_mariadb_url_needs_a_host_and_one_database(url, ok):
    from ycsbctl.errors import UserError
    from ycsbctl.stores.mariadb.store import MariaProtocol

    if ok:
        MariaProtocol().validate(url)
    else:
        with pytest.raises(UserError, match="bad MySQL URL"):
            MariaProtocol().validate(url)


def test_a_whole_clickhouse_reply_says_whether_it_has_rows_by_its_frame():
    from ycsbctl.stores.clickhouse.http import whole_rows

    head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-ClickHouse-Format: TSV\r\n\r\n"
    assert whole_rows(head + b"0\r\n\r\n") == 0  # an empty body: its last chunk alone
    assert whole_rows(head + b"6\r\nuser1\n\r\n0\r\n\r\n") == 1
    assert whole_rows(head + b"6\r\nuser1\n\r\n") == -1  # not whole yet
    assert whole_rows(b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") == -1


def test_the_host_drift_record_keeps_the_newest_200_drifts_per_metric(tmp_path):
    import json

    from ycsbctl.results import host_drift

    ratios = [("throughput", 1 + i / 10_000) for i in range(1, 206)]  # drifts 0.0001 … 0.0205, newest last
    path = host_drift.record(ratios, "test", tmp_path / "host_drift.json")
    kept = json.loads(path.read_text(encoding="utf-8"))["metrics"]["throughput"]["drifts"]
    assert len(kept) == 200 and kept[0] == pytest.approx(host_drift.drift(1 + 6 / 10_000), abs=1e-6)


def test_a_busy_host_names_the_first_other_benchmark():
    from ycsbctl.experiment.explain import host_busy

    assert host_busy(["pid 7: redis-benchmark", "pid 9: memtier"], None) == \
        "another benchmark ran on this host meanwhile (pid 7: redis-benchmark)"


def test_a_throughput_interval_below_one_op_per_second_still_has_its_half_width():
    from ycsbctl.report.verdict_table import noise_text

    # sqrt(2.0 / 0.5) = 2: the interval spans ±100 % of its geometric centre (1 op/s)
    assert noise_text({"throughput_low": 0.5, "throughput_high": 2.0})[0] == "±100.0%"
    assert noise_text({"throughput_low": 0.0, "throughput_high": 2.0})[0] == "—"


def test_a_store_without_a_media_items_executor_has_none_and_sqlite_has_its_own():
    from ycsbctl.workload.media_items.contract import MediaStore
    from ycsbctl.workload.media_items.workload import store_class

    assert store_class("nosuchstore") is None
    got = store_class("sqlite")
    assert got is not None and issubclass(got, MediaStore) and got.__module__ == "ycsbctl.workload.media_items.sqlite"
