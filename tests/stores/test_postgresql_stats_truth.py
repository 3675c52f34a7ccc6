"""PostgreSQL's footprint figures (stores/postgresql/stats.py: the database's and one table's bytes) against the
server's own size functions read through psql, on a database of the test's own: 0 for a database without tables,
None for an absent table, and a table's heap, TOAST and indexes (``pg_table_size + pg_indexes_size``) once loaded."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.fixtures.sql_cli import cli_rows
from ycsbctl.stores.postgresql.session import PgSession, query

pytestmark = pytest.mark.truth


@pytest.fixture
def postgresql_db(postgresql) -> Iterator[str]:
    """The session's PostgreSQL server with a database of this test's own (dropped after it): its URL."""
    name = f"t_{uuid.uuid4().hex[:10]}"
    base, _, query = postgresql.url.partition("?")
    url = base.rsplit("/", 1)[0] + "/" + name + (f"?{query}" if query else "")
    with PgSession(postgresql.url, 10.0) as s:
        s.fetch(f"CREATE DATABASE {name}")
    try:
        yield url
    finally:
        with PgSession(postgresql.url, 10.0) as s:
            s.fetch(f"DROP DATABASE {name} WITH (FORCE)")


def test_postgresql_bytes_are_0_without_tables_none_for_an_absent_table_and_psqls_sizes_once_loaded(postgresql_db):
    from ycsbctl.stores.postgresql.stats import database_bytes, relation_bytes

    def sizes(table: str) -> float:  # the heap with its TOAST, and the indexes, as psql reads them
        (row,) = cli_rows("postgresql", postgresql_db, f"SELECT pg_table_size('{table}'), pg_indexes_size('{table}')")
        return float(int(row[0]) + int(row[1]))

    from ycsbctl.stores.registry import for_url

    proto = for_url(postgresql_db)
    empty = proto.reading(postgresql_db)  # the footprint before the first load: no table, no records
    assert (empty.keys, empty.db_memory_bytes, empty.extra["data_size_bytes"]) == (0, 0.0, 0.0)
    with PgSession(postgresql_db, 10.0) as s:
        assert database_bytes(s) == 0.0
        assert relation_bytes(s, "usertable") is None
        s.fetch("CREATE TABLE usertable (ycsb_key VARCHAR(64) PRIMARY KEY, field0 TEXT, field1 VARCHAR(100))")
        s.fetch("CREATE INDEX f1 ON usertable (field1)")
        # 300 rows, each a 4,000-byte value of random digits: stored out of line (TOAST), compressed only in part
        s.fetch("INSERT INTO usertable SELECT 'user' || i, (SELECT string_agg(floor(random() * 10)::text, '') "
                "FROM generate_series(1, 4000 + i * 0)), 'v' || i % 97 FROM generate_series(1, 300) i")
        s.fetch("CREATE TABLE other (id INT PRIMARY KEY, v VARCHAR(50))")
        s.fetch("INSERT INTO other SELECT i, repeat('y', 40) FROM generate_series(1, 300) i")
        one, other = sizes("usertable"), sizes("other")
        toast = float(cli_rows("postgresql", postgresql_db,
                               "SELECT pg_total_relation_size(reltoastrelid) FROM pg_class WHERE relname = "
                               "'usertable'")[0][0])
        assert toast > 300 * 1000  # the values are there, out of line
        assert relation_bytes(s, "usertable") == one > toast
        assert relation_bytes(s, "other") == other
        assert database_bytes(s) == one + other  # every table of the database, nothing else
    loaded = proto.reading(postgresql_db)
    assert (loaded.keys, loaded.db_memory_bytes, loaded.extra["data_size_bytes"]) == (300, one + other, one + other)


def test_postgresql_sampler_ops_per_s_counts_rolled_back_transactions_as_the_server_does(postgresql_db):
    """60 transactions rolled back and 5 committed on a database of the test's own while the sampler is primed: its
    ``ops_per_s`` over the span is at least those 65 (commits and rollbacks both) and at most what the server's own
    ``xact_commit + xact_rollback`` grew by around the whole span (the sampler's reads and psql's are commits too)."""
    from tests.fixtures.waiting import wait_until
    from ycsbctl.stores.postgresql.stats import PgStatSampler

    def xacts() -> tuple[int, int]:  # (commits, rollbacks) as pg_stat_database says, through psql
        (row,) = cli_rows("postgresql", postgresql_db, "SELECT xact_commit, xact_rollback FROM pg_stat_database "
                                                       "WHERE datname = current_database()")
        return int(row[0]), int(row[1])

    before = xacts()
    sampler = PgStatSampler(postgresql_db)
    sampler.prime()
    try:
        t0 = sampler.t_prev
        with PgSession(postgresql_db, 10.0) as s:
            for _ in range(60):
                s.fetch("BEGIN")
                s.fetch("SELECT 1")
                s.fetch("ROLLBACK")
            for _ in range(5):
                s.fetch("SELECT 1")
        # a backend flushes its counters as it ends: wait until the server shows the 60 rollbacks
        rollbacks = "SELECT xact_rollback FROM pg_stat_database WHERE datname = current_database()"
        wait_until(lambda: int(query(postgresql_db, rollbacks, 5.0)[0][0]) - before[1] >= 60,
                   what="60 rollbacks in pg_stat_database")
        row = sampler.sample()
        elapsed = sampler.t_prev - t0
    finally:
        sampler.close()
    after = xacts()
    counted = row["ops_per_s"] * elapsed
    assert 65 <= round(counted) <= sum(after) - sum(before), (counted, before, after)
