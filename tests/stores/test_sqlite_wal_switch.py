"""Opening a SQLite file another connection holds locked (stores/sqlite/binding.py ``connect``): switching it
to WAL is tried again until the timeout — it succeeds once the other lets go, and says "locked" in one line
when it never does; an error other than a lock is said at once. The truth is sqlite3's own view of the file
(``PRAGMA journal_mode`` read by another connection)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from ycsbctl.stores.binding import ConnectionLost
from ycsbctl.stores.sqlite.binding import connect


def _locked(path: Path) -> sqlite3.Connection:
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)  # let go from a timer thread
    other.execute("CREATE TABLE IF NOT EXISTS t (a)")
    other.execute("BEGIN IMMEDIATE")  # a writer's lock, held until COMMIT: the WAL switch is refused at once
    return other


def test_the_wal_switch_waits_for_a_lock_let_go_within_the_timeout(tmp_path: Path):
    path = tmp_path / "ycsb.db"
    other = _locked(path)
    threading.Timer(0.2, lambda: other.execute("COMMIT")).start()
    conn = connect(str(path), 5.0)
    reader = sqlite3.connect(path)
    assert reader.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reader.close()
    conn.close()
    other.close()


@pytest.mark.speed
def test_a_lock_held_past_the_timeout_is_said_in_one_line(tmp_path: Path):
    path = tmp_path / "ycsb.db"
    other = _locked(path)
    timeout_s = 0.3  # the timeout given to connect: the least it must have waited, at any speed
    try:
        t0 = time.monotonic()
        with pytest.raises(ConnectionLost, match=f"cannot open SQLite database {path}: database is locked"):
            connect(str(path), timeout_s)
        assert time.monotonic() - t0 >= timeout_s  # it tried again until the timeout it was given
    finally:
        other.close()
    with pytest.raises(ConnectionLost, match="cannot open SQLite database .*unable to open database file"):
        connect(str(tmp_path / "no" / "such" / "folder.db"), 5.0)  # not a lock: said at once


def test_a_file_already_in_wal_is_opened_while_another_writes(tmp_path: Path):
    path = tmp_path / "ycsb.db"
    connect(str(path), 5.0).close()  # now in WAL, which persists in the file
    other = _locked(path)
    try:
        connect(str(path), 0.3).close()  # no switch to ask for: the other's lock is no obstacle
    finally:
        other.close()


def test_a_plugins_statement_says_its_rows_and_the_rows_it_changed_as_sqlite3_counts_them(tmp_path: Path):
    import asyncio

    from ycsbctl.stores.binding import Status
    from ycsbctl.stores.sqlite.binding import SqliteBinding

    b = SqliteBinding(str(tmp_path / "p.db"), 1.0)

    async def main() -> list:
        await b.connect()
        try:
            return [await b.sql("CREATE TABLE t (a, b)"), await b.sql("INSERT INTO t VALUES (1, 'x'), (2, 'y')"),
                    await b.sql("UPDATE t SET b = ? WHERE a > ?", ("z", 0)),
                    await b.sql("SELECT a, b FROM t ORDER BY a"),
                    await b.sql("SELECT nope FROM t")]
        finally:
            await b.close()

    create, insert, update, select, bad = asyncio.run(main())
    assert (create, insert, update) == ((Status.OK, [], 0), (Status.OK, [], 2), (Status.OK, [], 2))
    assert select == (Status.OK, [(1, "z"), (2, "z")], 0)  # a SELECT changes none (sqlite3 says -1)
    assert bad == (Status.ERROR, [], 0) and b.last_error == "SQLite: no such column: nope"


def test_closing_a_binding_closes_its_connection_and_a_second_close_is_harmless(tmp_path: Path):
    """close() lets the file go: the binding's connection is closed (sqlite3 refuses a statement on it) and the
    last connection's close removes the WAL file, as SQLite does; a second close() does nothing."""
    import asyncio

    from ycsbctl.stores.sqlite.binding import SqliteBinding

    path = tmp_path / "ycsb.db"
    b = SqliteBinding(str(path), 5.0)

    async def main() -> sqlite3.Connection:
        await b.connect()
        assert await b.sql("CREATE TABLE t (a)") == (0, [], 0)
        conn = b.conn
        assert conn is not None and (tmp_path / "ycsb.db-wal").exists()
        await b.close()
        await b.close()
        return conn

    conn = asyncio.run(main())
    with pytest.raises(sqlite3.ProgrammingError, match="closed database"):
        conn.execute("SELECT 1")
    assert b.conn is None and not (tmp_path / "ycsb.db-wal").exists()


def test_a_busy_write_is_tried_again_after_sqlites_own_delays_shortest_first(tmp_path: Path, monkeypatch):
    """A write SQLite answers SQLITE_BUSY is tried again after the delays of SQLite's own busy handler
    (``sqliteDefaultBusyCallback`` in SQLite's main.c: 1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 ms), in that
    order from the first: a lock let go during the third wait costs 1 + 2 + 5 ms of waiting, not the longest delay
    first. The truth is SQLite's source and the row another connection reads back."""
    import asyncio

    from ycsbctl.stores.binding import Status
    from ycsbctl.stores.sqlite.binding import SqliteBinding

    path = tmp_path / "ycsb.db"
    connect(str(path), 5.0).close()  # in WAL: the other's write lock leaves readers be
    other = _locked(path)  # BEGIN IMMEDIATE: every other writer is answered SQLITE_BUSY until its COMMIT
    waits: list[float] = []
    sleep = time.sleep

    def waited(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 3:
            other.execute("COMMIT")
        sleep(seconds)

    b = SqliteBinding(str(path), 5.0)

    async def main() -> tuple:
        await b.connect()
        try:
            monkeypatch.setattr(time, "sleep", waited)
            return await b.sql("INSERT INTO t VALUES (42)")
        finally:
            monkeypatch.setattr(time, "sleep", sleep)
            await b.close()

    try:
        assert asyncio.run(main()) == (Status.OK, [], 1)  # one row written
    finally:
        other.close()
    assert waits == [0.001, 0.002, 0.005]  # SQLite's first three delays (ms), in order
    assert b.counts["sqlite_busy_calls"] == 1
    reader = sqlite3.connect(path)
    assert reader.execute("SELECT a FROM t").fetchall() == [(42,)]
    reader.close()
