"""ClickHouse against what ClickHouse itself says: records in YCSB's jdbc layout on a MergeTree table read back
by ``clickhouse-client``, statuses on missing keys, the engine's statements one for one in ``system.query_log``
and its inserts in ``system.events``, the footprint as ``system.parts`` says, and the plan refusing what
ClickHouse cannot do (row updates and deletes) before anything starts."""

from __future__ import annotations

import subprocess
import uuid

import pytest

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.cli import YCSBCTL
from tests.fixtures.study_clients import clickhouse_client
from tests.fixtures.waiting import wait_until
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.stores import registry
from ycsbctl.stores.binding import Status
from ycsbctl.stores.clickhouse.admin import events
from ycsbctl.stores.clickhouse.stats import ClickHouseEventsSampler
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.truth


def props(workload: str = "workload-c", **overrides: object) -> dict[str, str]:
    p = dict(load_properties(workload))
    p.update({k: str(v) for k, v in overrides.items()})
    return p


def test_a_record_is_one_mergetree_row_of_ycsbs_jdbc_layout_read_back_by_clickhouse_client(clickhouse):
    url = clickhouse.url
    registry.for_url(url).clear(url, "usertable")
    values = field_values()
    key = b"user" + uuid.uuid4().hex[:12].encode()

    async def go(bs):
        return [await bs[0].insert("usertable", key, values), await bs[0].read("usertable", b"nokey", None),
                await bs[0].read_values("usertable", key, [b"field2", b"field9"]),
                await bs[0].scan("usertable", b"a", 5, None)]

    ins, missing, (st, got), scan = run_bindings(go, url)
    assert (ins, missing, st, scan) == (Status.OK, Status.NOT_FOUND, Status.OK, Status.OK)
    assert got == {b"field2": dict(values)[b"field2"], b"field9": dict(values)[b"field9"]}  # field9: the row's last
    (row,) = clickhouse_client(clickhouse, f"SELECT * FROM usertable WHERE YCSB_KEY = '{key.decode()}' FORMAT TSVRaw")
    assert row == [key.decode(), *(v.decode() for _, v in values)]
    (engine,) = clickhouse_client(clickhouse, "SELECT engine, sorting_key, engine_full FROM system.tables "
                                              "WHERE name = 'usertable'")
    assert engine[:2] == ["MergeTree", "YCSB_KEY"]
    assert engine[2].endswith("SETTINGS index_granularity = 256")  # one mark per 256 rows (the module's docstring)


def test_engine_statements_are_the_servers_logged_queries_one_for_one(clickhouse):
    url = clickhouse.url
    table = f"t{uuid.uuid4().hex[:12]}"  # a table of this test's own: its statements are those naming it
    assert registry.for_url(url).count(url, table) == 0  # no such table yet: no record
    before = events(url)
    load = run_phase(PhaseSpec("load", url, props(recordcount=100, table=table), threads=2, processes=1))
    assert load.status == "ok", load.errors
    assert events(url)["InsertQuery"] - before.get("InsertQuery", 0) == load.ops["INSERT"].returns["OK"] == 100
    assert registry.for_url(url).count(url, table) == 100

    sampler = ClickHouseEventsSampler(url, interval_s=0.5)
    sampler.start()
    wait_until(lambda: len(sampler.rows) >= 1, what="the sampler's first row")
    run = run_phase(PhaseSpec("run", url, props(recordcount=200, operationcount=500, readproportion=0.8,
                                                scanproportion=0.1, insertproportion=0.1, table=table,
                                                requestdistribution="uniform", maxscanlength=10),
                              threads=4, processes=2))
    seen = len(sampler.rows)
    wait_until(lambda: len(sampler.rows) >= seen + 1, what="a row after the run")
    frame = sampler.stop()
    assert run.status == "ok", run.errors
    reads, scans, inserts = (run.ops[k].returns for k in ("READ", "SCAN", "INSERT"))
    assert sum(reads.values()) + sum(scans.values()) + sum(inserts.values()) == 500
    assert reads.get("OK", 0) > 0 and reads.get("NOT_FOUND", 0) > 0 and inserts == {"OK": sum(inserts.values())}

    def counts() -> tuple[int, ...]:  # reads, scans, inserts that finished (query_log type 2 = QueryFinish)
        (row,) = clickhouse_client(clickhouse,
                                   f"SELECT countIf(query LIKE 'SELECT * FROM {table} WHERE YCSB_KEY = %'), "
                                               f"countIf(query LIKE 'SELECT * FROM {table} WHERE YCSB_KEY >= %'), "
                                               f"countIf(query LIKE 'INSERT INTO {table} %') FROM system.query_log "
                                               "WHERE type = 2")
        return tuple(map(int, row))

    want = (sum(reads.values()), sum(scans.values()), 100 + sum(inserts.values()))
    wait_until(lambda: counts() == want, what=f"{want} (reads, scans, inserts) in system.query_log", timeout_s=30)
    assert registry.for_url(url).count(url, table) == 100 + inserts["OK"]
    # the sampler's rates add up to the engine's statements (its own SELECTs of system.events left out)
    elapsed = frame["t_mono"].diff().fillna(0.0)
    assert (frame["ops_per_s"] * elapsed).sum() == pytest.approx(500, rel=0.1)
    registry.for_url(url).clear(url, table)



def test_a_statement_clickhouse_refuses_is_an_error_in_the_servers_own_words(clickhouse):
    """A read, an insert, a scan and a plug-in's statement on a table that does not exist: ClickHouse refuses each
    (an HTTP error status), so each is ERROR — never NOT_FOUND or OK from the rows of an error's text — with the
    server's message kept, the one ``clickhouse-client`` (the native protocol) gets for the same statement."""
    url, table = clickhouse.url, f"missing{uuid.uuid4().hex[:12]}"

    async def go(bs):
        b = bs[0]
        read = await b.read(table, b"user1", None)
        said = b.last_error
        return (read, await b.insert(table, b"user1", field_values()), await b.scan(table, b"user", 5, None),
                await b.ch(f"SELECT count() FROM {table}"), said)

    read, insert, scan, ch, said = run_bindings(go, url)
    assert (read, insert, scan, ch) == (Status.ERROR, Status.ERROR, Status.ERROR, (Status.ERROR, []))
    out = subprocess.run(["clickhouse-client", "--host", "127.0.0.1", "--port", clickhouse.settings["tcp_port"],
                          "--query", f"SELECT * FROM {table}"], capture_output=True, text=True, timeout=60,
                         stdin=subprocess.DEVNULL)
    assert out.returncode != 0 and f"Table default.{table} doesn't exist" in out.stderr, out.stderr
    assert said.startswith("ClickHouse: Code: 60") and f"Table default.{table} doesn't exist" in said, said


def test_a_url_without_a_port_is_the_http_port_clickhouses_own_config_opens():
    """``clickhouse://host`` goes to the port the clickhouse-server package's own config.xml (its ``http_port``) has
    the HTTP interface listen on, not a port of ours."""
    import xml.etree.ElementTree as ET
    from pathlib import Path

    from ycsbctl.stores.clickhouse.admin import address

    packaged = Path("/etc/clickhouse-server/config.xml")
    if not packaged.exists():
        pytest.skip("clickhouse-server is not installed (its package's config.xml: scripts/setup.sh --for-tests)")
    port = int(ET.parse(packaged).getroot().findtext("http_port") or 0)
    assert port > 0
    assert address("clickhouse://db.example") == ("db.example", port, "default")
    assert address("clickhouse://db.example/other") == ("db.example", port, "other")

def test_the_footprint_is_the_databases_active_parts_bytes_on_disk_as_system_parts_says(clickhouse):
    url = clickhouse.url
    proto = registry.for_url(url)
    proto.clear(url, "usertable")
    load = run_phase(PhaseSpec("load", url, props(recordcount=100), threads=2, processes=1))
    assert load.status == "ok", load.errors
    # every table of the database (usertable and whatever else a load made there: a workload plug-in's items);
    # MergeTree merges parts in the background, which changes bytes_on_disk: the reading is checked against
    # system.parts read before and after it, once the two agree (no merge between them; a 4th try says so)
    def parts() -> tuple[str, str]:
        ((size, rows),) = clickhouse_client(clickhouse, "SELECT sum(bytes_on_disk), sum(rows) FROM system.parts "
                                                        "WHERE active AND database = 'default'")
        return size, rows

    for _ in range(4):
        before = parts()
        reading = proto.reading(url)
        if parts() == before:
            break
    else:
        pytest.fail("system.parts changed around every reading: the parts kept merging")
    size, rows = before
    assert reading.keys == int(rows) and reading.db_memory_bytes == float(size)
    ((mine,),) = clickhouse_client(clickhouse,
                                   "SELECT sum(rows) FROM system.parts WHERE active AND table = 'usertable'")
    assert int(mine) == 100 <= reading.keys


def test_a_workload_with_updates_is_refused_before_anything_starts(clickhouse):
    url = clickhouse.url
    before = events(url).get("Query", 0)
    r = subprocess.run([YCSBCTL, "run", "workload-b", "--target", url, "--records", "10", "--operations", "10"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "workloadb has UPDATE operations, which" in r.stderr and "mutations (ALTER TABLE … UPDATE" in r.stderr
    # nothing reached the server but this count's own query (and the previous one's)
    assert events(url).get("Query", 0) - before == 1


def test_an_event_clickhouse_does_not_list_is_counted_at_zero_per_second(clickhouse, monkeypatch):
    # system.events lists only the counters that are not 0: one absent at both reads moved by nothing
    from ycsbctl.stores.clickhouse import stats

    monkeypatch.setattr(stats, "RATE_EVENTS", (*stats.RATE_EVENTS, "NoSuchEvent"))
    assert "NoSuchEvent" not in events(clickhouse.url)
    sampler = ClickHouseEventsSampler(clickhouse.url)
    sampler.prime()
    row = sampler.sample()
    assert row["nosuchevent_per_s"] == 0.0 and row["selectquery_per_s"] == 0.0  # its own SELECTs left out


def test_the_samplers_rates_are_the_statements_and_rows_sent_between_its_two_reads(clickhouse):
    """Three SELECTs and two INSERTs of 2 and 3 rows between prime() and sample(), then the server's log queue
    flushed (``SYSTEM FLUSH LOGS``, a query of its own): times the span between the sampler's two reads, its rates
    are those counts exactly. The sampler's own SELECT of system.events is left out, and so are the rows the
    flush wrote to system.query_log, which ClickHouse counts in InsertedRows (252 of them once in CI). The queue
    is flushed before prime() too, and neither flush is logged: no background flush has rows left to write."""
    from ycsbctl.stores.clickhouse.admin import SYSTEM_LOG_ROWS, counters, query

    url, table = clickhouse.url, f"t{uuid.uuid4().hex[:12]}"
    query(url, f"CREATE TABLE {table} (a UInt32) ENGINE = Memory")
    unlogged = {"log_queries": "0"}
    try:
        query(url, "SYSTEM FLUSH LOGS", settings=unlogged)
        sampler = ClickHouseEventsSampler(url)
        sampler.prime()
        t0, logged = sampler._t, sampler._prev[SYSTEM_LOG_ROWS]
        for _ in range(3):
            query(url, "SELECT 1")
        query(url, f"INSERT INTO {table} VALUES (1), (2)")
        query(url, f"INSERT INTO {table} VALUES (3), (4), (5)")
        query(url, "SYSTEM FLUSH LOGS", settings=unlogged)
        row = sampler.sample()
        span = sampler._t - t0
        counts = {k: round(v * span, 6) for k, v in row.items()}
        assert counts == {"query_per_s": 6, "selectquery_per_s": 3, "insertquery_per_s": 2, "insertedrows_per_s": 5,
                          "ops_per_s": 5}, counts
        # the subtraction was put to work: each of the five statements left two rows (start, finish) in query_log
        assert sampler._prev[SYSTEM_LOG_ROWS] - logged >= 10
        assert counters(url)[SYSTEM_LOG_ROWS] == sampler._prev[SYSTEM_LOG_ROWS]  # the sampler's reads: not logged
    finally:
        query(url, f"DROP TABLE {table}")


def test_a_counter_that_first_appears_between_two_reads_counts_from_zero(monkeypatch):
    """system.events lists only the counters that are not 0 (ClickHouse's documented behaviour): a counter absent
    at the first read and at 2 at the second moved by 2, not 1; Query and SelectQuery less the sampler's own
    SELECT (one per read), InsertedRows less the rows the server's log tables gained (9 of 14). Hand-computed
    from two readings as the server gives them."""
    from ycsbctl.stores.clickhouse import stats

    readings = iter([{"Query": 10.0, "SelectQuery": 4.0, "InsertedRows": 30.0, "SystemLogRows": 30.0},
                     {"Query": 17.0, "SelectQuery": 8.0, "InsertQuery": 2.0, "InsertedRows": 44.0,
                      "SystemLogRows": 39.0}])
    monkeypatch.setattr(stats, "counters", lambda url: next(readings))
    sampler = ClickHouseEventsSampler("clickhouse://127.0.0.1:1")
    sampler.prime()
    t0 = sampler._t
    row = sampler.sample()
    counts = {k: round(v * (sampler._t - t0), 6) for k, v in row.items()}
    assert counts == {"query_per_s": 6, "selectquery_per_s": 3, "insertquery_per_s": 2, "insertedrows_per_s": 5,
                      "ops_per_s": 5}, counts


def test_a_query_past_its_deadline_names_the_server_and_the_statements_first_two_words() -> None:
    """A server that takes the connection and never answers (a listening socket nobody serves): the admin query
    raises the deadline's one line, naming the server by its address and the statement by its first two words,
    never the whole SQL (which can be a long INSERT)."""
    import socket

    from ycsbctl.stores.clickhouse.admin import query
    from ycsbctl.stores.deadline import DeadlinePassed

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        with pytest.raises(DeadlinePassed) as e:
            query(f"clickhouse://127.0.0.1:{port}/default", "SELECT event, value FROM system.events", timeout_s=0.3)
    assert str(e.value) == f"clickhouse at 127.0.0.1:{port} timed out: no reply to SELECT event, within 0.3 s"


@pytest.mark.parametrize("status, refused", [(299, False), (300, True)])
def test_an_admin_query_answered_any_status_from_300_on_is_refused_not_read_as_rows(status, refused) -> None:
    """An HTTP server at the URL (a proxy in front of ClickHouse, say) whose answer is no 2xx: from 300 on (a
    redirect, which the admin query does not follow) it raises with the answer's text, never reading that text as
    the query's rows; a 2xx answer's body is the rows."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from ycsbctl.stores.clickhouse.admin import query

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            body = b"1\t2\n"
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    with ThreadingHTTPServer(("127.0.0.1", 0), Handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"clickhouse://127.0.0.1:{server.server_address[1]}/default"
        try:
            if refused:
                with pytest.raises(ConnectionError, match="ClickHouse refused 'SELECT 1, 2': 1\t2"):
                    query(url, "SELECT 1, 2")
            else:
                assert query(url, "SELECT 1, 2") == [["1", "2"]]
        finally:
            server.shutdown()


def test_a_row_read_back_undoes_every_escape_of_clickhouse_s_tabseparated_format() -> None:
    """ClickHouse's TabSeparated output escapes a value's tab, newline, carriage return, NUL, backslash and quote
    (and writes \\b, \\f as such); a row read back is the values as written, the key column left out."""
    from ycsbctl.stores.clickhouse.layout import Statements

    values = {b"FIELD0": b"a\tb\nc\rd", b"FIELD1": b"back\\slash 'quoted'", b"FIELD2": b"\x00\x08\x0c plain"}
    escaped = {k: v.replace(b"\\", b"\\\\").replace(b"\t", b"\\t").replace(b"\n", b"\\n").replace(b"\r", b"\\r")
               .replace(b"\x00", b"\\0").replace(b"'", b"\\'").replace(b"\x08", b"\\b").replace(b"\x0c", b"\\f")
               for k, v in values.items()}
    line = b"\t".join([b"user1", *escaped.values()])
    s = Statements("ycsb", [k.decode() for k in values])
    assert s.row_fields(line, None) == {k.lower(): v for k, v in values.items()}
    assert s.row_fields(line, [b"field1"]) == {b"field1": values[b"FIELD1"]}
    assert s.row_fields(b"user2\tno escape\tx\ty", None)[b"field0"] == b"no escape"
    # an escape ClickHouse does not write is read as its TSV input reads it, the character alone (18.16: a\qb -> aqb)
    assert s.row_fields(b"user4\ta\\qb\tx\ty", [b"field0"]) == {b"field0": b"aqb"}
    # a lone backslash at a value's end (no escape follows: ClickHouse never writes one) is kept, as a backslash
    assert s.row_fields(b"user3\tcut\\\tx\\n\\\ty", None) == {b"field0": b"cut\\", b"field1": b"x\n\\", b"field2": b"y"}


def test_a_tables_parts_rows_and_index_bytes_are_what_clickhouse_client_reads_of_system_parts(clickhouse):
    """``table_parts``: a table written by three INSERTs and merged by ``OPTIMIZE … FINAL`` is one active part (no
    merge moves it after that) of the 300 rows inserted; its bytes on disk and primary index bytes are what
    clickhouse-client (the native protocol, the fixture's other port) reads of system.parts; no table, no part."""
    from ycsbctl.stores.clickhouse.admin import table_parts

    table = f"p{uuid.uuid4().hex[:12]}"
    clickhouse_client(clickhouse, f"CREATE TABLE {table} (k UInt64, v String) ENGINE = MergeTree ORDER BY k "
                                  "SETTINGS index_granularity = 16")
    try:
        for first in (0, 100, 200):
            clickhouse_client(clickhouse, f"INSERT INTO {table} SELECT number + {first}, 'v' FROM system.numbers "
                                          "LIMIT 100")
        clickhouse_client(clickhouse, f"OPTIMIZE TABLE {table} FINAL")
        ((parts, rows, disk, index),) = clickhouse_client(
            clickhouse, "SELECT count(), sum(rows), sum(bytes_on_disk), sum(primary_key_bytes_in_memory) "
                        f"FROM system.parts WHERE active AND database = 'default' AND table = '{table}'")
        assert (int(parts), int(rows)) == (1, 300)
        assert table_parts(clickhouse.url, table) == {"bytes_on_disk": float(disk), "rows": 300, "parts": 1,
                                                      "primary_key_bytes_in_memory": float(index)}
        assert float(index) > 1  # 300 rows, a mark every 16: the index holds more than one byte to tell from a count
    finally:
        clickhouse_client(clickhouse, f"DROP TABLE IF EXISTS {table}")
    assert table_parts(clickhouse.url, table) == {"bytes_on_disk": 0.0, "rows": 0, "parts": 0,
                                                  "primary_key_bytes_in_memory": 0.0}


def test_the_recorded_settings_are_those_clickhouse_client_reads_as_changed_and_a_refusal_quotes_the_server(clickhouse):
    """``describe`` records only the settings the server's profile changed (each with the value clickhouse-client
    reads; the client's own session may change more), and a statement ClickHouse refuses is one line quoting its
    reason."""
    from ycsbctl.stores.clickhouse.admin import query

    recorded = registry.for_url(clickhouse.url).describe(clickhouse.url).config["changed settings"]
    changed = {name: value for name, value in clickhouse_client(
        clickhouse, "SELECT name, value FROM system.settings WHERE changed FORMAT TSVRaw")}
    [[total]] = clickhouse_client(clickhouse, "SELECT count() FROM system.settings")
    assert set(recorded.items()) <= set(changed.items()) and len(recorded) < int(total) / 2
    table = "no_such_table_" + uuid.uuid4().hex[:8]
    with pytest.raises(ConnectionError) as refused:
        query(clickhouse.url, f"SELECT * FROM {table}")
    said = str(refused.value)
    assert said.startswith(f"ClickHouse refused 'SELECT * FROM {table}': ") and table in said.split(": ", 1)[1]
    assert "\n" not in said and "e.what()" not in said
