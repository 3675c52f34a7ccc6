"""The SQL stores (SQLite, PostgreSQL, MariaDB) against what the database itself says: YCSB's jdbc
layout read back by the database's own command-line client, statuses on missing keys, and the
engine's counts per operation against the server's own counters (PostgreSQL's ``pg_stat_user_tables``,
MariaDB's ``SHOW GLOBAL STATUS``)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.samplers import one_sample
from tests.fixtures.server_counters import mariadb_status, postgresql_table_counters
from tests.fixtures.sql_cli import cli_rows
from tests.fixtures.sql_servers import started
from tests.fixtures.waiting import wait_until
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.stores import registry
from ycsbctl.stores.binding import Status
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.truth


def _props(workload: str, **overrides: object) -> dict[str, str]:
    props = dict(load_properties(workload))
    props.update({k: str(v) for k, v in overrides.items()})
    return props


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite://{tmp_path}/ycsb.db"


def _cli_row(store: str, url: str, key: str) -> list[str]:
    """The record of ``key`` as the database's own CLI prints it: key, then FIELD0 … FIELD9."""
    return cli_rows(store, url, f"SELECT * FROM usertable WHERE YCSB_KEY = '{key}'")[0]


def _url(store: str, request: pytest.FixtureRequest) -> str:
    if store == "sqlite":
        return request.getfixturevalue("sqlite_url")
    return request.getfixturevalue(store.split("-")[0]).url


def _driver(store: str) -> dict[str, str]:
    """``postgresql-asyncpg``, ``mariadb-asyncmy``: the same server through the driver library instead
    of the wire-protocol binding."""
    return {"postgresql-asyncpg": {"postgresql.driver": "asyncpg"},
            "mariadb-asyncmy": {"mariadb.driver": "asyncmy"}}.get(store, {})


STORES = ["sqlite", "postgresql", "postgresql-asyncpg", "mariadb", "mariadb-asyncmy"]


@pytest.mark.parametrize("store", STORES)
def test_a_record_is_one_row_of_ycsbs_jdbc_layout_read_back_field_for_field_by_the_databases_cli(store, request):
    url = _url(store, request)
    registry.for_url(url).clear(url, "usertable")
    values = field_values()
    key = b"user" + uuid.uuid4().hex[:12].encode()

    async def write(bs):
        return await bs[0].insert("usertable", key, values)

    assert run_bindings(write, url, props=_driver(store)) == Status.OK
    row = _cli_row(store.split("-")[0], url, key.decode())
    assert row == [key.decode(), *(v.decode() for _, v in values)]


@pytest.mark.parametrize("store", STORES)
def test_missing_keys_are_not_found_a_stored_key_refuses_a_second_insert_and_a_scan_past_the_end_is_ok(store, request):
    url = _url(store, request)
    registry.for_url(url).clear(url, "usertable")
    values = field_values()

    async def go(bs):
        b = bs[0]
        out = {"read": await b.read("usertable", b"user-none", None),
               "update": await b.update("usertable", b"user-none", values[:1]),
               "delete": await b.delete("usertable", b"user-none"),
               "insert": await b.insert("usertable", b"user1", values),
               "again": await b.insert("usertable", b"user1", values),
               "update1": await b.update("usertable", b"user1", values[:1]),
               "scan_past_end": await b.scan("usertable", b"user9", 5, None)}
        for k in (b"user3", b"user2"):
            await b.insert("usertable", k, values)
        out["read1"], got = await b.read_values("usertable", b"user2", [b"field3"])
        out["field3"] = got[b"field3"] == values[3][1]
        out["delete1"] = await b.delete("usertable", b"user1")
        out["read_deleted"] = await b.read("usertable", b"user1", None)
        return out

    out = run_bindings(go, url, props=_driver(store))
    assert out == {"read": Status.NOT_FOUND, "update": Status.NOT_FOUND, "delete": Status.NOT_FOUND,
                   "insert": Status.OK, "again": Status.ERROR, "update1": Status.OK, "scan_past_end": Status.OK,
                   "read1": Status.OK, "field3": True, "delete1": Status.OK, "read_deleted": Status.NOT_FOUND}
    assert registry.for_url(url).count(url, "usertable") == 2


def _loaded(url: str, workload: str, records: int, driver: dict[str, str]) -> None:
    """``usertable`` at ``url`` emptied, then loaded by the engine with ``records`` rows (``driver``: the
    store's driver property)."""
    registry.for_url(url).clear(url, "usertable")
    load = run_phase(PhaseSpec("load", url, _props(workload, recordcount=records, **driver), threads=4, processes=1))
    assert load.status == "ok", load.errors


@pytest.mark.parametrize("driver", ["wire", "asyncpg"])
def test_engine_counts_equal_postgresqls_own_table_counters(postgresql, driver):
    url = postgresql.url
    _loaded(url, "workload-a", 2000, {"postgresql.driver": driver})
    # statistics reach pg_stat_user_tables when each backend flushes them (at the latest when it exits)
    wait_until(lambda: postgresql_table_counters(url).get("ins") == 2000, what="2,000 inserts in pg_stat_user_tables")

    run = run_phase(PhaseSpec("run", url, _props("workload-a", recordcount=2000, operationcount=3000,
                                                 **{"postgresql.driver": driver}), threads=4, processes=1))
    assert run.status == "ok", run.errors
    reads, updates = run.ops["READ"].returns, run.ops["UPDATE"].returns
    assert set(reads) == set(updates) == {"OK"}
    assert reads["OK"] + updates["OK"] == 3000
    # every read and every update finds its row through the primary key's index: one index scan each
    after = wait_until(lambda: (c := postgresql_table_counters(url))["idx_scan"] == 3000 and c,
                       what="3,000 index scans in pg_stat_user_tables")
    assert after["upd"] == updates["OK"]
    assert after["ins"] == 2000 and after["del"] == 0
    assert registry.for_url(url).count(url, "usertable") == 2000


def test_sqlite_rows_equal_the_engines_inserts(sqlite_url):
    load = run_phase(PhaseSpec("load", sqlite_url, _props("workload-a", recordcount=500), threads=3, processes=2))
    assert load.status == "ok", load.errors
    run = run_phase(PhaseSpec("run", sqlite_url, _props("workload-d", recordcount=500, operationcount=2000),
                              threads=3, processes=2))
    assert run.status == "ok", run.errors
    inserted = run.ops["INSERT"].returns.get("OK", 0)
    assert inserted == run.ops["INSERT"].operations > 0
    assert cli_rows("sqlite", sqlite_url, "SELECT COUNT(*) FROM usertable") == [[str(500 + inserted)]]


def _delta(before: dict[str, int], after: dict[str, int], name: str) -> int:
    return after[name] - before[name]


@pytest.mark.parametrize("driver", ["wire", "asyncmy"])
def test_engine_counts_equal_mariadbs_own_statement_counters(mariadb, driver):
    url = mariadb.url
    registry.for_url(url).clear(url, "usertable")
    before = mariadb_status(url)
    load = run_phase(PhaseSpec("load", url, _props("workload-a", recordcount=1000, **{"mariadb.driver": driver}),
                               threads=4, processes=1))
    after = mariadb_status(url)
    assert load.status == "ok", load.errors
    assert _delta(before, after, "Com_insert") == load.ops["INSERT"].operations == 1000
    assert _delta(before, after, "Com_create_table") == 1

    before = mariadb_status(url)
    run = run_phase(PhaseSpec("run", url, _props("workload-a", recordcount=1000, operationcount=3000,
                                                 **{"mariadb.driver": driver}), threads=4, processes=1))
    after = mariadb_status(url)
    assert run.status == "ok", run.errors
    reads, updates = run.ops["READ"].returns, run.ops["UPDATE"].returns
    assert reads["OK"] + updates["OK"] == 3000
    # one SELECT per read, plus the bindings' one look for the table when they open
    assert _delta(before, after, "Com_select") == reads["OK"] + 1
    assert _delta(before, after, "Com_update") == updates["OK"]
    assert _delta(before, after, "Com_insert") == 0
    assert registry.for_url(url).count(url, "usertable") == 1000


def _sent(url: str) -> tuple[int, int]:
    """(Com_select, Rows_sent): this query's own two rows count in the next reading."""
    from ycsbctl.stores.mariadb.session import query

    got = dict(query(url, "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_select', 'Rows_sent')", 5.0))
    return int(got["Com_select"]), int(got["Rows_sent"])


@pytest.mark.parametrize("driver", ["wire", "asyncmy"])
def test_reads_found_equal_the_rows_mariadb_sent_and_the_others_are_not_found(mariadb, driver):
    url = mariadb.url
    _loaded(url, "workload-c", 1000, {"mariadb.driver": driver})
    selects0, sent0 = _sent(url)
    # keys of 2,000 records over a table of 1,000: about half of the reads find nothing
    run = run_phase(PhaseSpec("run", url, _props("workload-c", recordcount=2000, operationcount=3000,
                                                 **{"mariadb.driver": driver}), threads=4, processes=1))
    selects1, sent1 = _sent(url)
    reads = run.ops["READ"].returns
    assert reads["OK"] + reads["NOT_FOUND"] == 3000 and min(reads["OK"], reads["NOT_FOUND"]) > 300, reads
    assert selects1 - selects0 == 3000 + 1  # and the bindings' one look for the table
    assert sent1 - sent0 == reads["OK"] + 1 + 2  # a row per read found, the look's, the first reading's two


@pytest.mark.parametrize("store", STORES)
def test_bindings_that_open_together_create_the_table_once(store, request):
    """The engine's workers connect at the same moment: their CREATE TABLE IF NOT EXISTS must not race
    (PostgreSQL's catalog refuses the second with a unique violation on pg_type)."""

    from ycsbctl.stores.registry import open_bindings

    url = _url(store, request)

    async def together() -> None:
        sets = await asyncio.gather(*(open_bindings(url, 1, _driver(store), 5.0) for _ in range(8)))
        for bs in sets:
            await bs.close()

    for _ in range(5):
        registry.for_url(url).clear(url, "usertable")
        asyncio.run(together())
        assert registry.for_url(url).table_exists(url, "usertable")


def test_mariadbs_sampler_reads_the_engines_statements_and_row_writes(mariadb):
    from ycsbctl.stores.mariadb.stats import MariaStatusSampler

    url = mariadb.url
    registry.for_url(url).clear(url, "usertable")
    sampler = MariaStatusSampler(url)
    sampler.prime()
    try:
        load = run_phase(PhaseSpec("load", url, _props("workload-a", recordcount=800), threads=4, processes=1))
        assert load.status == "ok", load.errors
        before = sampler.prev
        after = sampler._read()
        row = sampler.sample()
    finally:
        sampler.close()
    # 800 INSERTs and the bindings' one SELECT looking for the table; 800 rows written
    assert after["ops"] - before["ops"] == 801
    assert after["rows_written"] - before["rows_written"] == 800
    assert row["ops_per_s"] > 0 and row["db_rows_written_per_s"] > 0


_INSERTS = ("SELECT (SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'usertable'), "
            "(SELECT sum(n_tup_ins) FROM pg_stat_all_tables)")


def _inserts(s) -> tuple[int, int, int]:
    """(the sampler's database inserts, usertable's own, every table's of the server): one snapshot of the
    statistics (``stats_fetch_consistency = snapshot``), so all three are read at the same instant."""
    from ycsbctl.stores.postgresql.stats import database_counters

    s.fetch("BEGIN")
    try:
        db = database_counters(s)["tup_inserted"]
        (table, every), = s.fetch(_INSERTS)
    finally:
        s.fetch("COMMIT")
    assert db is not None
    return int(db), int(table or 0), int(every or 0)


def test_postgresqls_sampler_reads_the_engines_inserts_from_pg_stat_database(postgresql):
    """The sampler's database counter moves as every table's inserts together (the server's own per-table
    counters, read in the same snapshot), and usertable's by the 500 records loaded. Catalog inserts (the
    autovacuum's ANALYZE writing pg_statistic) may land in the window: they are in both sums, so the truth
    holds whatever else the server wrote (an exact 500 on the database counter read 574 once for that)."""
    from ycsbctl.stores.postgresql.session import PgSession
    from ycsbctl.stores.postgresql.stats import PgStatSampler

    url = postgresql.url
    registry.for_url(url).clear(url, "usertable")
    run_bindings(lambda bs: asyncio.sleep(0), url)  # the table exists first: its catalog rows are inserts too
    with PgSession(url, 5.0) as s:
        s.fetch("SET stats_fetch_consistency = snapshot")
        before = _inserts(s)
        load = run_phase(PhaseSpec("load", url, _props("workload-a", recordcount=500), threads=4, processes=1))
        assert load.status == "ok", load.errors
        # backends flush their statistics when they end (or each second): wait for all 500
        after = wait_until(lambda: (c := _inserts(s))[1] - before[1] >= 500 and c, what="500 inserts in usertable")
    assert after[1] - before[1] == 500
    assert after[0] - before[0] == after[2] - before[2] >= 500
    row = one_sample(PgStatSampler(url))
    assert row["connections"] >= 1 and row["ops_per_s"] is not None


def test_engine_processes_creating_the_mariadb_table_at_once_print_no_note(mariadb, caplog):
    """Each engine process makes sure of the table as it starts; when two ask at once, both find none
    and both CREATE … IF NOT EXISTS: the loser's "already exists" Note, which the driver logs as a
    warning, is not printed (it was, mid-run, as a bare line on stderr)."""
    from ycsbctl.stores.mariadb.binding import MariaBinding

    class Blind:
        """The cursor of a process that asked before the other created the table: it sees none."""

        def __init__(self, cur) -> None:
            self.cur = cur

        async def execute(self, *args):
            return await self.cur.execute(*args)

        async def fetchall(self):
            return []

    async def both() -> None:
        first, late = MariaBinding(mariadb.url, 10.0), MariaBinding(mariadb.url, 10.0)
        await first.connect()
        await late.connect()
        try:
            await first.ensure_table({"table": "usertable"})
            late.cur = Blind(late.cur)
            await late.ensure_table({"table": "usertable"})
        finally:
            await first.close()
            await late.close()

    registry.for_url(mariadb.url).clear(mariadb.url, "usertable")
    with caplog.at_level("WARNING"):
        asyncio.run(both())
    assert [r.getMessage() for r in caplog.records] == []
    assert registry.for_url(mariadb.url).table_exists(mariadb.url, "usertable")


@pytest.fixture(scope="module")
def postgresql_with_statements():
    """A PostgreSQL server of our own with pg_stat_statements loaded and the extension created."""
    with started("postgresql", {"shared_preload_libraries": "pg_stat_statements"}) as endpoint:
        cli_rows("postgresql", endpoint.url, "CREATE EXTENSION pg_stat_statements")
        yield endpoint


def test_with_pg_stat_statements_the_postgresql_sampler_counts_the_statements_the_engine_ran(
    postgresql_with_statements,
):
    from ycsbctl.stores.postgresql.stats import PgStatSampler

    url = postgresql_with_statements.url
    _loaded(url, "workload-c", 1000, {})
    cli_rows("postgresql", url, "SELECT pg_stat_statements_reset()")  # the module's other tests ran reads too
    sampler = PgStatSampler(url)
    sampler.prime()
    try:
        assert sampler.statements  # the extension was found
        start = sampler.prev["statement_calls"]
        t0 = sampler.t_prev
        run = run_phase(PhaseSpec("run", url, _props("workload-c", recordcount=1000, operationcount=3000),
                                  threads=4, processes=1))
        assert run.status == "ok", run.errors
        row = sampler.sample()
        elapsed = sampler.t_prev - t0
    finally:
        sampler.close()
    reads = run.ops["READ"].operations
    # the server's own count of the engine's read statement, and the sampler's rate over the same span
    (calls,), = cli_rows("postgresql", url, "SELECT sum(calls) FROM pg_stat_statements "
                                            "WHERE query ILIKE 'SELECT % FROM usertable WHERE YCSB_KEY = $1%'")
    assert int(calls) == reads == 3000
    sampled = row["db_statements_per_s"] * elapsed
    assert sampled == pytest.approx(sampler.prev["statement_calls"] - start)
    assert reads <= sampled <= reads + 50  # the engine's reads, its table look and the sampler's own queries
    assert row["db_statement_mean_us"] > 0


def _seven(url: str, driver: dict[str, str]) -> None:
    """``usertable`` emptied, then user1 … user7 inserted by the binding."""
    registry.for_url(url).clear(url, "usertable")
    values = field_values()

    async def go(bs):
        for i in range(1, 8):
            assert await bs[0].insert("usertable", f"user{i}".encode(), values) == Status.OK

    run_bindings(go, url, props=driver)


def _scans(url: str, driver: dict[str, str], scans: list[tuple[bytes, int]]) -> list[Status]:
    async def go(bs):
        return [await bs[0].scan("usertable", start, count, None) for start, count in scans]

    return run_bindings(go, url, props=driver)


@pytest.mark.parametrize("driver", ["wire", "asyncmy"])
def test_a_mariadb_scan_sends_the_start_key_and_the_rows_after_it_up_to_the_count(mariadb, driver):
    """Seven records; scans from user3 of 2 and of 10 rows, and one past the end: MariaDB's own Rows_sent
    counts 2, 5 (user3 … user7: the start key included) and 0; the CLI lists the same keys."""
    url = mariadb.url
    props = {"mariadb.driver": driver}
    _seven(url, props)
    got = []
    for scan in ((b"user3", 2), (b"user3", 10), (b"user8", 5)):
        _, sent0 = _sent(url)
        assert _scans(url, props, [scan]) == [Status.OK]
        _, sent1 = _sent(url)
        got.append(sent1 - sent0 - 2 - 1)  # the first reading's two rows, the bindings' one look for the table
    assert got == [2, 5, 0]
    keys = cli_rows("mariadb", url,
                    "SELECT YCSB_KEY FROM usertable WHERE YCSB_KEY >= 'user3' ORDER BY YCSB_KEY LIMIT 10")
    assert [k[0] for k in keys] == [f"user{i}" for i in range(3, 8)]


def test_postgresqls_own_statement_rows_count_the_scans_rows_and_the_reads_found(postgresql_with_statements):
    """On the wire binding (the fast reply path): pg_stat_statements' rows of the scan statement are 2 + 5 + 0
    for scans from user3 of 2 and 10 rows and past the end (the start key included); the reads the engine
    counts OK are the rows of its read statement, and the others NOT_FOUND."""
    url = postgresql_with_statements.url
    _seven(url, {})
    cli_rows("postgresql", url, "SELECT pg_stat_statements_reset()")
    assert _scans(url, {}, [(b"user3", 2), (b"user3", 10), (b"user8", 5)]) == [Status.OK] * 3
    (calls, rows), = cli_rows("postgresql", url, "SELECT sum(calls), sum(rows) FROM pg_stat_statements "
                                                 "WHERE query ILIKE 'SELECT % FROM usertable WHERE YCSB_KEY >= $1%'")
    assert (int(calls), int(rows)) == (3, 7)

    _loaded(url, "workload-c", 500, {})
    cli_rows("postgresql", url, "SELECT pg_stat_statements_reset()")
    run = run_phase(PhaseSpec("run", url, _props("workload-c", recordcount=1000, operationcount=1000),
                              threads=4, processes=1))
    assert run.status == "ok", run.errors
    reads = run.ops["READ"].returns
    (calls, rows), = cli_rows("postgresql", url, "SELECT sum(calls), sum(rows) FROM pg_stat_statements "
                                                 "WHERE query ILIKE 'SELECT % FROM usertable WHERE YCSB_KEY = $1%'")
    assert int(calls) == 1000 and min(reads["OK"], reads["NOT_FOUND"]) > 150, reads
    assert int(rows) == reads["OK"] and reads["OK"] + reads["NOT_FOUND"] == 1000


def test_a_sqlite_scan_returns_the_start_key_and_the_rows_after_it_up_to_the_count(sqlite_url):
    import sqlite3

    _seven(sqlite_url, {})
    path = sqlite_url.removeprefix("sqlite://")
    assert _scans(sqlite_url, {}, [(b"user3", 2)]) == [Status.OK]
    from ycsbctl.stores.sql.layout import QMARK

    with sqlite3.connect(path) as db:  # the layout's own scan statement, run by sqlite3 itself
        def keys(start: str, n: int) -> list[str]:
            return [r[0] for r in db.execute(QMARK.scan("usertable", None), (start, n))]

        assert keys("user3", 2) == ["user3", "user4"]
        assert keys("user3", 10) == [f"user{i}" for i in range(3, 8)]
        assert keys("user8", 5) == []


def test_postgresqls_sampler_mean_statement_time_and_rows_read_are_the_servers_own_over_its_span(
        postgresql_with_statements):
    """One sampler span around 1,000 reads (half found) and a sequential scan: ``db_statement_mean_us`` is
    pg_stat_statements' own total time over its calls added in the span (µs, not ms), and ``db_rows_read_per_s`` × the
    span the server's tup_fetched added, between the rows the reads found and what our own outer readings saw (the
    sampler's own queries fetch catalogue rows)."""
    from ycsbctl.stores.postgresql.stats import PgStatSampler

    url = postgresql_with_statements.url
    _loaded(url, "workload-c", 500, {})

    def own() -> tuple[float, float, int]:
        (calls, ms), = cli_rows("postgresql", url, "SELECT sum(calls), sum(total_exec_time) FROM pg_stat_statements")
        (fetched,), = cli_rows("postgresql", url, "SELECT tup_fetched FROM pg_stat_database "
                                                  "WHERE datname = current_database()")
        return float(calls), float(ms), int(fetched)

    # three sequential scans of the 500 rows inside the span, on a connection opened before it (a new one fetches
    # hundreds of catalogue rows, as the engine's two do): PostgreSQL counts those rows returned (tup_returned), not
    # fetched; rows read are the rows fetched, so the scans must not show in them
    import asyncpg

    loop = asyncio.new_event_loop()
    scanner = loop.run_until_complete(asyncpg.connect(url))
    try:
        outer0 = own()
        async def scans() -> None:
            for _ in range(3):
                await scanner.fetchval("SELECT count(*) FROM usertable WHERE field0 IS NOT NULL")
            await scanner.fetchval("SELECT pg_stat_force_next_flush()")  # its counts in the server's before it answers

        run, row, span = _one_span(PgStatSampler(url), url, 1000, 1000, also=lambda: loop.run_until_complete(scans()))
        outer1 = own()
    finally:
        loop.run_until_complete(scanner.close())
        loop.close()
    assert run.status == "ok", run.errors
    found = run.ops["READ"].returns["OK"]
    truth_us = 1000 * (outer1[1] - outer0[1]) / (outer1[0] - outer0[0])
    calls = row["db_statements_per_s"] * span
    assert 1000 <= calls <= outer1[0] - outer0[0]
    assert row["db_statement_mean_us"] == pytest.approx(truth_us, rel=0.3), (row, truth_us)
    rows_read = row["db_rows_read_per_s"] * span
    assert found <= rows_read <= outer1[2] - outer0[2], (found, rows_read, outer0, outer1)
    assert rows_read < found + 1500, (found, rows_read)  # not the 3 × 500 rows the scans returned


def _one_span(sampler, url: str, records: int, reads: int, also: Callable[[], object] | None = None) -> tuple:
    """(the run, the sampler's row, its span in s): one sampler span around ``reads`` workload-c reads (and
    ``also``, called after them)."""
    sampler.prime()
    try:
        t0 = sampler.t_prev
        run = run_phase(PhaseSpec("run", url, _props("workload-c", recordcount=records, operationcount=reads),
                                  threads=2, processes=1))
        if also is not None:
            also()
        return run, sampler.sample(), sampler.t_prev - t0
    finally:
        sampler.close()


def test_mariadbs_sampler_bytes_in_and_out_are_the_servers_own_over_its_span(mariadb):
    """One sampler span around 300 reads of 200 loaded records (each sends 10 fields of 100 bytes back):
    ``net_out_bytes_per_s`` × the span is at least the records' bytes and at most the server's own
    Bytes_sent added between our outer readings (the sampler's own SHOW adds its reply); bytes in, the
    keys' requests, are far fewer and within the server's own Bytes_received added. Rows read: at least
    the 300 records, at most the server's Rows_read added (its SHOW's rows are read too), nothing written."""
    from ycsbctl.stores.mariadb.session import query
    from ycsbctl.stores.mariadb.stats import MariaStatusSampler

    url = mariadb.url
    _loaded(url, "workload-c", 200, {})

    def own() -> tuple[int, int, int]:
        got = dict(query(url, "SHOW GLOBAL STATUS WHERE Variable_name IN ('Bytes_received', 'Bytes_sent', "
                              "'Rows_read')", 5.0))
        return int(got["Bytes_received"]), int(got["Bytes_sent"]), int(got["Rows_read"])

    outer0 = own()
    run, row, span = _one_span(MariaStatusSampler(url), url, 200, 300)
    outer1 = own()
    assert run.status == "ok" and run.ops["READ"].returns == {"OK": 300}, run.errors
    sent, received = row["net_out_bytes_per_s"] * span, row["net_in_bytes_per_s"] * span
    assert 300 * 10 * 100 <= sent <= outer1[1] - outer0[1]
    assert 300 * len("user") <= received <= outer1[0] - outer0[0]
    assert received < sent / 5
    assert 300 <= row["db_rows_read_per_s"] * span <= outer1[2] - outer0[2] and row["db_rows_written_per_s"] == 0


def test_a_postgresql_url_naming_a_database_the_server_lacks_says_so(postgresql):
    """``postgresql://…/nosuchdb`` at a real server: its 'database "nosuchdb" does not exist' (SQLSTATE 3D000) was
    said as "something answers there, but not as a postgresql server"."""
    from urllib.parse import urlsplit, urlunsplit

    from ycsbctl.errors import UserError
    from ycsbctl.provision.external import ExternalProvisioner

    url = urlunsplit(urlsplit(postgresql.url)._replace(path="/nosuchdb"))
    with pytest.raises(UserError) as told:
        ExternalProvisioner().up(url)
    line = str(told.value)
    assert told.value.exit_code == 1 and "the server has no database 'nosuchdb' (database \"nosuchdb\" does not " \
                                         "exist)" in line, line
    assert "CREATE DATABASE nosuchdb" in line and "not as a postgresql server" not in line, line


def test_a_mariadb_url_naming_a_database_the_server_lacks_says_so_in_the_servers_words(mariadb):
    """``mariadb://…/nosuchdb`` at a real server: its error 1049 "Unknown database 'nosuchdb'" is one line naming
    the database and how to make it; any other failure comes out as itself."""
    from urllib.parse import urlsplit, urlunsplit

    from ycsbctl.errors import UserError
    from ycsbctl.stores.registry import for_url

    url = urlunsplit(urlsplit(mariadb.url)._replace(path="/nosuchdb"))
    with pytest.raises(UserError) as told:
        for_url(url).ping(url, 5.0)
    line = str(told.value)
    assert "the server has no database 'nosuchdb' (Unknown database 'nosuchdb')" in line, line
    assert "CREATE DATABASE nosuchdb" in line, line


def test_a_postgresql_url_naming_a_role_the_server_lacks_says_so_not_the_password(postgresql):
    """``postgresql://nosuchrole:pw@…`` at a real server: its 'role "nosuchrole" does not exist' (SQLSTATE 28000)
    was told to put the right password."""
    from urllib.parse import urlsplit, urlunsplit

    from ycsbctl.errors import UserError
    from ycsbctl.provision.external import ExternalProvisioner

    u = urlsplit(postgresql.url)
    url = urlunsplit(u._replace(netloc=f"nosuchrole:pw@{u.hostname}:{u.port}"))
    with pytest.raises(UserError) as told:
        ExternalProvisioner().up(url)
    line = str(told.value)
    assert told.value.exit_code == 1 and "the server has no role 'nosuchrole' (role \"nosuchrole\" does not exist)" \
        in line, line
    assert 'CREATE ROLE "nosuchrole" LOGIN' in line and "password" not in line.split(" (")[0] and "pw@" not in line, (
        line
    )


@pytest.mark.parametrize("store", ["postgresql", "mariadb"])
def test_the_version_and_the_server_pid_are_what_the_server_says_of_itself(request, store):
    import psutil

    url = request.getfixturevalue(store).url
    s = registry.for_url(url)
    if store == "postgresql":  # server_version_num: major * 10000 + minor (PostgreSQL 10 on)
        num = int(cli_rows(store, url, "SHOW server_version_num")[0][0])
        assert s.describe(url).version == f"{num // 10000}.{num % 10000}"
        assert s.stall_cause(url) is None  # no synchronous standby named: no commit waits for one
    else:  # VERSION(): 10.11.6-MariaDB-0+deb12u1, cut by the server itself
        assert s.describe(url).version == cli_rows(store, url, "SELECT SUBSTRING_INDEX(VERSION(), '-', 1)")[0][0]
    pid = s.reported_pid(url)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    assert pid is not None and any(c.laddr.port == port and c.status == psutil.CONN_LISTEN
                                   for c in psutil.Process(pid).net_connections("inet"))


def test_a_postgresql_chain_of_quick_reads_longer_than_the_timeout_never_times_out(postgresql):
    # (the SQL chain of PostgreSQL's and MariaDB's wire bindings: sql/chain.py)
    from tests.fixtures.bindings import chain_outlasting_the_timeout

    (done, failed), statuses = chain_outlasting_the_timeout(postgresql.url)
    assert failed == 0 and statuses == {Status.NOT_FOUND: done} and done > 100


def test_a_mariadb_chain_reads_the_one_field_asked_or_the_whole_record_as_the_servers_bytes_sent_say(mariadb):
    # 40 chained reads of a record of 10 × 100-byte fields: the server sends less than a record per read of
    # field2, more than one per read of all fields (Bytes_sent, over the two runs alone)
    import time

    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.mariadb.session import query
    from ycsbctl.workload.core import READ

    url, key, n = mariadb.url, f"user{uuid.uuid4().hex[:12]}".encode(), 40
    names = [b"field%d" % i for i in range(10)]

    def sent() -> int:
        return int(query(url, "SHOW GLOBAL STATUS LIKE 'Bytes\\_sent'", 5.0)[0][1])

    async def go(bs):
        assert await bs[0].insert("usertable", key, field_values()) is Status.OK
        per_read = []
        for rf in (2, -1):  # field2, then all fields
            ctx = ChainContext(record=lambda *_: None, names=[tuple(names)] + [(x,) for x in names],
                               values=lambda f: [], ack=None, deadline_ns=time.perf_counter_ns() + 10**11,
                               stop_on_error=False)
            before = await asyncio.to_thread(sent)
            assert await bs[0].chain(ctx, ([READ] * n, [key] * n, [0] * n, [rf] * n, [-1] * n), 0, n) == (n, 0)
            per_read.append((await asyncio.to_thread(sent) - before) / n)
        return per_read

    one, whole = run_bindings(go, url)
    assert one < 1000 < whole


@pytest.mark.parametrize("store", ["postgresql", "mariadb"])
def test_the_count_of_a_table_not_made_yet_is_0_and_of_a_made_one_its_rows_as_the_server_counts(request, store):
    """What a load's short-dataset check and the footprint read before the first load: no table is 0 records, and
    a table of 3 rows is 3, as the server's own client counts them."""
    from ycsbctl.stores.registry import for_url

    url = request.getfixturevalue(store).url
    proto = for_url(url)
    table = f"count_check_{store}"
    assert proto.count(url, table) == 0
    proto.query(url, f"CREATE TABLE {table} (k INT)", 5.0)
    try:
        proto.query(url, f"INSERT INTO {table} VALUES (1), (2), (3)", 5.0)
        assert proto.count(url, table) == 3 == len(cli_rows(store, url, f"SELECT k FROM {table}"))
    finally:
        proto.query(url, f"DROP TABLE {table}", 5.0)


def test_the_sqlite_bindings_scans_ask_sqlite_for_the_start_key_and_the_count_it_was_given(sqlite_url):
    """Seven records; the binding's scans from user3 of 2 and 10 rows and from user8 of 5, each statement as SQLite
    itself expanded it (its trace callback, arguments bound) run again by sqlite3: user3 and user4, then user3 …
    user7 (the start key included, no row over the count), then none."""
    import sqlite3

    _seven(sqlite_url, {})
    traced: list[str] = []

    async def go(bs):
        bs[0].conn.set_trace_callback(traced.append)
        return [await bs[0].scan("usertable", start, n, None) for start, n in ((b"user3", 2), (b"user3", 10),
                                                                               (b"user8", 5))]

    assert run_bindings(go, sqlite_url) == [Status.OK] * 3
    scans = [s for s in traced if s.lstrip().upper().startswith("SELECT") and " LIMIT " in s.upper()]
    with sqlite3.connect(sqlite_url.removeprefix("sqlite://")) as db:
        got = [[r[0] for r in db.execute(s)] for s in scans]
    assert got == [["user3", "user4"], [f"user{i}" for i in range(3, 8)], []], scans


def test_a_postgresql_primary_is_said_to_stall_for_a_missing_standby_exactly_when_its_commits_wait_for_one():
    """``synchronous_standby_names`` set and no standby connected: a commit waits for one at synchronous_commit on,
    remote_write and remote_apply, and not at local or off (PostgreSQL's manual, "synchronous_commit"). The truth is
    the server's own: a commit through ``psql`` either returns, or its backend shows the wait ``SyncRep`` in
    ``pg_stat_activity`` — whichever comes first, at any speed. ``stall_cause`` names the missing standby at exactly
    those levels, and says nothing once no standby is named."""
    import subprocess

    from tests.fixtures.sql_cli import tool

    waiting = "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'"

    def commit_waits(url: str) -> bool:
        before = int(cli_rows("postgresql", url, waiting)[0][0])  # earlier probes' backends still wait
        p = subprocess.Popen([tool("psql", "postgresql-client"), url, "-AtqX", "-c",
                              "INSERT INTO sync_probe DEFAULT VALUES"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        try:  # psql killed if it waits; its backend waits on until the names are cleared below
            seen = wait_until(lambda: "returned" if p.poll() is not None else
                              "waits" if int(cli_rows("postgresql", url, waiting)[0][0]) > before else None, 60,
                              "the commit returned, or its backend waited for a standby")
            assert seen == "waits" or p.returncode == 0, p.returncode  # returned: committed, not refused
            return seen == "waits"
        finally:
            p.kill()
            p.wait()

    def setting(url: str, sql: list[str], name: str, value: str) -> None:
        for line in sql:
            cli_rows("postgresql", url, line)
        wait_until(lambda: cli_rows("postgresql", url, f"SHOW {name}") == [[value]], 10, f"{name} = {value}")

    said, waited = {}, {}
    with started("postgresql") as ep:
        s = registry.for_url(ep.url)
        cli_rows("postgresql", ep.url, "CREATE TABLE sync_probe (id serial PRIMARY KEY)")  # before any commit waits
        setting(ep.url, ["ALTER SYSTEM SET synchronous_standby_names = 'gone'", "SELECT pg_reload_conf()"],
                "synchronous_standby_names", "gone")
        try:
            for level in ("local", "off", "on", "remote_write", "remote_apply"):
                # the role's own setting, over the server's (its command line's synchronous_commit=on): each new
                # session of the URL's role, stall_cause's and psql's alike, commits at that level (this change's
                # own commit at local: it waits for no standby)
                setting(ep.url, [f"SET synchronous_commit = local; ALTER ROLE CURRENT_USER SET synchronous_commit = "
                                 f"'{level}'"], "synchronous_commit", level)
                said[level], waited[level] = s.stall_cause(ep.url), commit_waits(ep.url)
        finally:  # the waiting commits released: they would hold the server's shutdown for its stop timeout
            for sql in ("ALTER SYSTEM RESET synchronous_standby_names", "SELECT pg_reload_conf()"):
                cli_rows("postgresql", ep.url, sql)
        wait_until(lambda: cli_rows("postgresql", ep.url, "SHOW synchronous_standby_names") == [[""]], 10,
                   "no standby named")
        cleared = s.stall_cause(ep.url), commit_waits(ep.url)
        replicas = cli_rows("postgresql", ep.url, "SELECT count(*) FROM pg_stat_replication")
    assert replicas == [["0"]]  # the case itself: no standby at all
    assert waited == {"local": False, "off": False, "on": True, "remote_write": True, "remote_apply": True}
    for level, why in said.items():
        if waited[level]:
            assert why == ("the primary's commits wait for a synchronous standby (synchronous_standby_names = 'gone', "
                           f"synchronous_commit = {level}) and none is connected: start the standby, or clear "
                           "synchronous_standby_names"), (level, why)
        else:
            assert why is None, (level, why)
    assert cleared == (None, False)
