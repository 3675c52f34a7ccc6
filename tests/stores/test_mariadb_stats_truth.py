"""MariaDB's footprint figures (stores/mariadb/stats.py: the database's and one table's InnoDB bytes)
against the server's own ``SHOW TABLE STATUS``, on a database of the test's own: exactly 0 for a
database without tables, None for an absent table, and the table's data + index length once loaded."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from ycsbctl.stores.mariadb.session import connect, query

pytestmark = pytest.mark.truth


@pytest.fixture
def mariadb_db(mariadb) -> Iterator[str]:
    """The session's MariaDB server with a database of this test's own (dropped after it): its URL."""
    name = f"t_{uuid.uuid4().hex[:10]}"
    query(mariadb.url, f"CREATE DATABASE {name}", 10.0)
    base, _, _ = mariadb.url.partition("?")
    url = base.rsplit("/", 1)[0] + "/" + name
    try:
        yield url
    finally:
        query(mariadb.url, f"DROP DATABASE {name}", 10.0)


def _status_bytes(url: str, table: str) -> float:
    """``Data_length + Index_length`` of ``table`` as the server's SHOW TABLE STATUS gives them (bytes)."""
    conn = connect(url, 10.0)
    try:
        with conn.cursor() as cur:
            cur.execute(f"ANALYZE TABLE {table}")
            cur.fetchall()
            cur.execute(f"SHOW TABLE STATUS LIKE '{table}'")
            names = [d[0] for d in cur.description]
            row = dict(zip(names, cur.fetchone()))
        return float(row["Data_length"] + row["Index_length"])
    finally:
        conn.close()


def test_mariadb_bytes_are_0_without_tables_none_for_an_absent_table_and_the_servers_own_once_loaded(mariadb_db):
    """... and the footprint's reading (stores/mariadb/store.py) is those bytes and usertable's rows as the
    server counts them: 0 rows before the table exists (no error), 1,500 after (not the other table's 300)."""
    from ycsbctl.stores.base import Reading
    from ycsbctl.stores.mariadb.stats import database_bytes, table_bytes
    from ycsbctl.stores.registry import for_url

    conn = connect(mariadb_db, 10.0)
    try:
        assert database_bytes(conn) == 0.0  # no InnoDB table, no FULLTEXT space: 0, not a floor of 1
        assert table_bytes(conn, "usertable") is None
        assert for_url(mariadb_db).reading(mariadb_db) == Reading(0.0, None, 0, {"data_size_bytes": 0.0})
        with conn.cursor() as cur:
            cur.execute("CREATE TABLE usertable (YCSB_KEY VARCHAR(64) PRIMARY KEY, FIELD0 TEXT, "
                        "FIELD1 VARCHAR(100), KEY f1 (FIELD1)) ENGINE=InnoDB")
            cur.executemany("INSERT INTO usertable VALUES (%s, %s, %s)",
                            [(f"user{i}", "x" * 400, f"v{i % 97}") for i in range(1500)])
            cur.execute("CREATE TABLE other (id INT PRIMARY KEY, v VARCHAR(50)) ENGINE=InnoDB")
            cur.executemany("INSERT INTO other VALUES (%s, %s)", [(i, "y" * 40) for i in range(300)])
        one, other = _status_bytes(mariadb_db, "usertable"), _status_bytes(mariadb_db, "other")
        assert one > 16384  # more than one InnoDB page: the rows are there
        assert table_bytes(conn, "usertable") == one
        assert table_bytes(conn, "other") == other
        assert database_bytes(conn) == one + other  # every table of the database, nothing else
        assert for_url(mariadb_db).reading(mariadb_db) == Reading(one + other, None, 1500,
                                                                  {"data_size_bytes": one + other})
    finally:
        conn.close()


def test_mariadb_bytes_add_a_fulltext_indexs_own_tablespaces_to_the_tables(mariadb_db):
    # a FULLTEXT index keeps its words in tablespaces of their own (<db>/FTS_…), outside the table's data and
    # index lengths: their allocated bytes, as the server lists them, are added (the media-items plug-in's case)
    from ycsbctl.stores.mariadb.stats import database_bytes

    conn = connect(mariadb_db, 10.0)
    try:
        with conn.cursor() as cur:
            cur.execute("CREATE TABLE docs (id INT PRIMARY KEY, body TEXT, FULLTEXT KEY ft (body)) ENGINE=InnoDB")
            cur.executemany("INSERT INTO docs VALUES (%s, %s)", [(i, f"word{i % 50} text{i}") for i in range(200)])
            cur.execute("SELECT DATABASE()")
            (db,) = cur.fetchone()
            cur.execute("SELECT name, allocated_size FROM information_schema.innodb_sys_tablespaces")
            fts = sum(float(size) for name, size in cur.fetchall() if name.startswith(f"{db}/FTS_"))
        table = _status_bytes(mariadb_db, "docs")
        assert fts > 0
        assert database_bytes(conn) == table + fts
    finally:
        conn.close()


def test_mariadb_fulltext_space_refused_for_a_privilege_says_so_and_any_other_failure_is_itself():
    """The FULLTEXT tablespaces' query refused with error 1227 (PROCESS lacking) is PrivilegeMissing; a failure
    with another code, or none at all (empty args: was an IndexError of its own), is raised as itself."""
    from ycsbctl.stores.mariadb.stats import PrivilegeMissing, database_bytes

    class Conn:  # one InnoDB table and a FULLTEXT index, as pymysql's cursor answers; the tablespaces refused
        user = b"ycsb"

        def __init__(self, refusal: Exception) -> None:
            self.refusal, self.answer = refusal, [("usertable",)]

        def cursor(self):
            return self

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            pass

        def execute(self, sql: str) -> None:
            if "innodb_sys_tablespaces" in sql:
                raise self.refusal
            self.answer = [("usertable",)] if sql.startswith("SELECT table_name") else [(16384,)]

        def fetchall(self) -> list:
            return self.answer

        def fetchone(self) -> tuple:
            return self.answer[0]

    with pytest.raises(PrivilegeMissing, match="MariaDB user 'ycsb' lacks the PROCESS privilege"):
        database_bytes(Conn(Exception(1227, "Access denied; you need the PROCESS privilege")))
    for other in (Exception(1146, "Table doesn't exist"), ConnectionResetError()):
        with pytest.raises(type(other)) as raised:
            database_bytes(Conn(other))
        assert raised.value is other


def test_the_status_samplers_connection_is_gone_from_the_servers_processlist_once_closed(mariadb):
    """MariaStatusSampler.close: the server's own processlist held the sampler's connection while it sampled and
    no longer once it closed (a sampler left open is one more connection per point); closing one that never
    connected does nothing."""
    import time

    from ycsbctl.stores.mariadb.stats import MariaStatusSampler

    def listed(thread_id: int) -> bool:
        rows = query(mariadb.url, f"SELECT COUNT(*) FROM information_schema.processlist WHERE id = {thread_id}", 10.0)
        return bool(rows[0][0])

    MariaStatusSampler(mariadb.url).close()  # never primed: no connection to close
    s = MariaStatusSampler(mariadb.url)
    s.prime()
    assert s.conn is not None
    thread_id = s.conn.thread_id()
    assert listed(thread_id)
    s.close()
    deadline = time.monotonic() + 10
    while listed(thread_id) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not listed(thread_id)
