"""The SQL stores (SQLite, PostgreSQL, MariaDB) against what the database itself says: YCSB's jdbc
layout read back by the database's own command-line client, statuses on missing keys, and the
engine's counts per operation against the server's own counters (PostgreSQL's ``pg_stat_user_tables``,
MariaDB's ``SHOW GLOBAL STATUS``)."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

from tests.fixtures.bindings import field_values, run_bindings
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


def _table_counters(url: str) -> dict[str, int]:
    from ycsbctl.stores.postgresql.session import query

    rows = query(url, "SELECT n_tup_ins, n_tup_upd, n_tup_del, coalesce(idx_scan, 0), n_live_tup "
                      "FROM pg_stat_user_tables WHERE relname = 'usertable'", 5.0)
    return dict(zip(("ins", "upd", "del", "idx_scan", "live"), map(int, rows[0]))) if rows else {}


@pytest.mark.parametrize("driver", ["wire", "asyncpg"])
def test_engine_counts_equal_postgresqls_own_table_counters(postgresql, driver):
    url = postgresql.url
    _loaded(url, "workload-a", 2000, {"postgresql.driver": driver})
    # statistics reach pg_stat_user_tables when each backend flushes them (at the latest when it exits)
    wait_until(lambda: _table_counters(url).get("ins") == 2000, what="2,000 inserts in pg_stat_user_tables")

    run = run_phase(PhaseSpec("run", url, _props("workload-a", recordcount=2000, operationcount=3000,
                                                 **{"postgresql.driver": driver}), threads=4, processes=1))
    assert run.status == "ok", run.errors
    reads, updates = run.ops["READ"].returns, run.ops["UPDATE"].returns
    assert set(reads) == set(updates) == {"OK"}
    assert reads["OK"] + updates["OK"] == 3000
    # every read and every update finds its row through the primary key's index: one index scan each
    after = wait_until(lambda: (c := _table_counters(url))["idx_scan"] == 3000 and c,
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


def _status(url: str) -> dict[str, int]:
    from ycsbctl.stores.mariadb.session import query

    return {k: int(v) for k, v in query(url, "SHOW GLOBAL STATUS LIKE 'Com\\_%'", 5.0)}


def _delta(before: dict[str, int], after: dict[str, int], name: str) -> int:
    return after[name] - before[name]


@pytest.mark.parametrize("driver", ["wire", "asyncmy"])
def test_engine_counts_equal_mariadbs_own_statement_counters(mariadb, driver):
    url = mariadb.url
    registry.for_url(url).clear(url, "usertable")
    before = _status(url)
    load = run_phase(PhaseSpec("load", url, _props("workload-a", recordcount=1000, **{"mariadb.driver": driver}),
                               threads=4, processes=1))
    after = _status(url)
    assert load.status == "ok", load.errors
    assert _delta(before, after, "Com_insert") == load.ops["INSERT"].operations == 1000
    assert _delta(before, after, "Com_create_table") == 1

    before = _status(url)
    run = run_phase(PhaseSpec("run", url, _props("workload-a", recordcount=1000, operationcount=3000,
                                                 **{"mariadb.driver": driver}), threads=4, processes=1))
    after = _status(url)
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


def _settled(s) -> dict | None:
    """pg_stat_database's counters once two readings 1.2 s apart agree (every backend has flushed)."""
    import time

    from ycsbctl.stores.postgresql.stats import database_counters

    a = database_counters(s)
    time.sleep(1.2)
    b = database_counters(s)
    return b if a["tup_inserted"] == b["tup_inserted"] else None


def test_postgresqls_sampler_reads_the_engines_inserts_from_pg_stat_database(postgresql):
    from ycsbctl.stores.postgresql.session import PgSession
    from ycsbctl.stores.postgresql.stats import PgStatSampler, database_counters

    url = postgresql.url
    registry.for_url(url).clear(url, "usertable")
    run_bindings(lambda bs: asyncio.sleep(0), url)  # the table exists first: its catalog rows are inserts too
    with PgSession(url, 5.0) as s:
        before = wait_until(lambda: _settled(s), what="pg_stat_database to settle")
        load = run_phase(PhaseSpec("load", url, _props("workload-a", recordcount=500), threads=4, processes=1))
        assert load.status == "ok", load.errors
        # backends flush their statistics when they end (or each second): wait for all 500
        after = wait_until(lambda: (c := database_counters(s))["tup_inserted"] - before["tup_inserted"] >= 500 and c,
                           what="500 inserts in pg_stat_database")
    assert after["tup_inserted"] - before["tup_inserted"] == 500
    sampler = PgStatSampler(url)
    sampler.prime()
    try:
        row = sampler.sample()
    finally:
        sampler.close()
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


def test_with_pg_stat_statements_the_sampler_counts_the_statements_the_engine_ran(postgresql_with_statements):
    from ycsbctl.stores.postgresql.stats import PgStatSampler

    url = postgresql_with_statements.url
    _loaded(url, "workload-c", 1000, {})
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
