"""The asyncpg binding's failures without a server (its port closed): a timeout is TIMEOUT, a lost connection
that cannot be made again ends the client in one line saying why it was lost — the exception's words, or its
name when it has none; and against a real server, a read, update or delete that touches no row is NOT_FOUND as
the server's own counters say."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.server_counters import postgresql_table_counters
from tests.fixtures.servers import free_port, refused_by_a_late_close
from tests.fixtures.waiting import wait_until
from ycsbctl.stores import registry
from ycsbctl.stores.binding import ConnectionLost, Status
from ycsbctl.stores.postgresql.binding import PgBinding


def _failed(exc: BaseException) -> tuple[Status | None, str]:
    b = PgBinding(f"postgresql://ycsb@127.0.0.1:{free_port()}/postgres", 0.5)

    async def main() -> Status:
        return await b._failed(exc)

    try:
        return asyncio.run(main()), str(b.last_error)
    except ConnectionLost as lost:
        return None, str(lost)


def test_a_timeout_is_timeout_and_a_lost_connection_says_why():
    assert _failed(asyncio.TimeoutError()) == (Status.TIMEOUT, "timed out after 0.5 s")
    for exc, why in ((ConnectionResetError(), "ConnectionResetError"),
                     (ConnectionResetError("Connection reset by peer"), "Connection reset by peer"),
                     (asyncpg.exceptions.InternalClientError("cannot switch to state 12"),
                      "the server closed the connection"),
                     (asyncpg.exceptions.AdminShutdownError("terminating connection"), "terminating connection")):
        st, said = _failed(exc)
        assert st is None and said.startswith(f"lost the PostgreSQL server ({why}); "
                                              "reconnecting failed: cannot reach"), said


def test_a_plugins_statement_says_its_rows_and_the_rows_it_changed_as_postgresql_counts_them(postgresql):
    """Against a real server: a SELECT's and a WITH query's rows (asyncpg's own fetch of the same statement is
    the truth), an INSERT's and an UPDATE's rows changed from the command tag, an error in the server's words."""
    b = PgBinding(postgresql.url, 5.0)

    async def main() -> tuple[list, list]:
        await b.connect()
        try:
            got = [await b.sql("DROP TABLE IF EXISTS mut_plugin"),
                   await b.sql("CREATE TABLE mut_plugin (a int, b text)"),
                   await b.sql("INSERT INTO mut_plugin VALUES ($1, $2), ($3, $4)", (1, "x", 2, "y")),
                   await b.sql("UPDATE mut_plugin SET b = $1 WHERE a > $2", ("z", 0)),
                   await b.sql("  SELECT a, b FROM mut_plugin ORDER BY a"),
                   await b.sql("with q as (select a from mut_plugin) select count(*) from q"),
                   await b.sql("SELECT nope FROM mut_plugin")]
            truth = [tuple(r) for r in await b.conn.fetch("SELECT a, b FROM mut_plugin ORDER BY a")]
            await b.sql("DROP TABLE mut_plugin")
            return got, truth
        finally:
            await b.close()

    (drop, create, insert, update, select, with_query, bad), truth = asyncio.run(main())
    assert (drop[0], create, insert, update) == (Status.OK, (Status.OK, [], 0), (Status.OK, [], 2), (Status.OK, [], 2))
    assert select == (Status.OK, truth, 0) and truth == [(1, "z"), (2, "z")]
    assert with_query == (Status.OK, [(2,)], 0)
    assert bad == (Status.ERROR, [], 0) and b.last_error.startswith("PostgreSQL: UndefinedColumnError: column \"nope\"")


def test_a_connection_refused_says_the_systems_words_not_a_timeout():
    """Nothing listens at the port: the line is the system's refusal, never "no answer (timed out)", which is only
    for an error without words of its own."""
    b = PgBinding(f"postgresql://ycsb@127.0.0.1:{free_port()}/ycsb", 1.0)
    with pytest.raises(ConnectionLost) as lost:
        asyncio.run(b.connect())
    said = str(lost.value)
    assert said.startswith("cannot reach the PostgreSQL server: ") and "timed out" not in said, said
    assert "refused" in said.lower() or "connect call failed" in said.lower(), said


def test_connecting_waits_a_second_at_least_however_short_the_operations_timeout():
    """A server that takes 0.2 s to answer (here: to close) is heard by a client whose operations time out after
    0.05 s: the connection gets max(timeout, 1 s), so the client says what the server did, not 'timed out'."""
    said = refused_by_a_late_close(lambda port: PgBinding(f"postgresql://ycsb@127.0.0.1:{port}/postgres", 0.05))
    assert said.startswith("cannot reach the PostgreSQL server: ") and "timed out" not in said, said


def test_a_read_update_or_delete_that_touches_no_row_is_not_found_as_the_server_counts(postgresql):
    """The asyncpg path (``postgresql.driver=asyncpg``, one statement per call): an absent key's UPDATE, READ and
    DELETE and a present one's UPDATE and READ — OK exactly where pg_stat_user_tables says a row was updated (one)
    or fetched by the index scans (two: the present key's READ and UPDATE), nothing deleted; else NOT_FOUND."""
    url = postgresql.url
    registry.for_url(url).clear(url, "usertable")
    run_bindings(lambda bs: bs[0].insert("usertable", b"user-present", field_values()), url)
    before = wait_until(lambda: (c := postgresql_table_counters(url)).get("ins") == 1 and c,
                        what="the one insert in pg_stat_user_tables")
    b = PgBinding(url, 5.0)
    one = [(b"field0", b"x" * 7)]

    async def main() -> list[Status]:
        await b.connect()
        try:
            return [await b.update("usertable", b"user-absent", one), await b.read("usertable", b"user-absent", None),
                    await b.delete("usertable", b"user-absent"), await b.update("usertable", b"user-present", one),
                    await b.read("usertable", b"user-present", None)]
        finally:
            await b.close()

    got = asyncio.run(main())
    after = wait_until(lambda: (c := postgresql_table_counters(url))["idx_scan"] - before["idx_scan"] >= 5 and c,
                       what="the five index scans in pg_stat_user_tables")
    assert (after["upd"] - before["upd"], after["del"] - before["del"],
            after["idx_fetch"] - before["idx_fetch"]) == (1, 0, 2)
    assert got == [Status.NOT_FOUND] * 3 + [Status.OK] * 2
