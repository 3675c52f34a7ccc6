"""SQLite's file opened by several processes at once, as a load's workers open it: none is refused.

Switching a file to WAL takes its exclusive lock, and SQLite says "database is locked" at once to the
others instead of waiting (CI saw a load fail so); the binding's ``connect`` now tries again."""

from __future__ import annotations

import multiprocessing as mp
import sqlite3
from pathlib import Path

from ycsbctl.provision.base import Endpoint
from ycsbctl.stores.sqlite.binding import connect

OPENERS = 4


def _endpoint(url: str) -> Endpoint:
    """The endpoint a sweep holds for a SQLite file given by URL (a server the user runs)."""
    return Endpoint(target=url, protocol="sqlite", url=url, backend="external")


def _open(path: str, barrier, out) -> None:
    barrier.wait()
    try:
        conn = connect(path, 5.0)
        out.put(str(conn.execute("PRAGMA journal_mode").fetchone()[0]))
        conn.close()
    except Exception as exc:  # noqa: BLE001 - the parent asserts on what each one got
        out.put(f"{type(exc).__name__}: {exc}")


def test_processes_opening_a_new_file_together_all_get_it_in_wal(tmp_path: Path) -> None:
    ctx = mp.get_context("fork")
    for attempt in range(8):  # a fresh file each time: the first switch to WAL is the race
        path = str(tmp_path / f"race{attempt}.db")
        barrier, out = ctx.Barrier(OPENERS), ctx.Queue()
        procs = [ctx.Process(target=_open, args=(path, barrier, out)) for _ in range(OPENERS)]
        for p in procs:
            p.start()
        got = [out.get(timeout=30) for _ in procs]
        for p in procs:
            p.join(10)
        assert got == ["wal"] * OPENERS, got
        assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_run_without_load_on_a_database_file_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    """Opening it would create an empty database and measure a point whose every read is NOT_FOUND (fault43e's
    leftover: it ran, warned, and left the empty file). Now one line, exit 2, and no file made."""
    from click.testing import CliRunner

    from ycsbctl.cli import main

    missing = tmp_path / "typo.db"
    result = CliRunner().invoke(main, ["run", "workload-b", "--target", f"sqlite://{missing}", "-p", "recordcount=20",
                                       "--duration", "1", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert lines == [f"error: SQLite database {missing} does not exist: pass --load to create and load it, "
                     "or give the path of a loaded one"], lines
    assert not missing.exists() and not (tmp_path / "out").exists()


def test_a_database_file_deleted_while_in_use_is_said_so_and_not_made_again(tmp_path: Path) -> None:
    """The file deleted mid-point (fault43f): the clients go on with the deleted file; the check after the point
    opened the path to count, creating an empty database there, and said 'emptied or cut while it ran'."""
    from ycsbctl.experiment.dataset import DatasetCheck
    from ycsbctl.stores.sqlite.store import SqliteProtocol

    path = tmp_path / "gone.db"
    url = f"sqlite:///{path}"
    held = connect(str(path), 5.0)  # a client that has it open
    held.execute("CREATE TABLE usertable (YCSB_KEY TEXT PRIMARY KEY)")
    held.executemany("INSERT INTO usertable VALUES (?)", [(f"user{i}",) for i in range(3)])
    store = SqliteProtocol()
    assert store.count(url, "usertable") == 3 and store.why_short(url) is None
    for p in tmp_path.iterdir():
        p.unlink()
    assert held.execute("SELECT COUNT(*) FROM usertable").fetchone()[0] == 3  # the deleted file, still open
    said = DatasetCheck(progress=None).after_point(_endpoint(url), 3)  # type: ignore[arg-type]
    held.close()
    assert said == (f"the server held 0 of the 3 records after the point: the SQLite file {path} no longer exists "
                    "(deleted while in use: what the clients wrote went to the deleted file)")
    assert not path.exists()


def test_a_database_file_replaced_while_in_use_is_said_so(tmp_path: Path) -> None:
    """Another file renamed over the database mid-point (fault43g) read 'emptied or cut while it ran': the file at
    the path is another inode than the one the point began on, and is said so."""
    import os

    from ycsbctl.experiment.dataset import DatasetCheck

    path, other = tmp_path / "swapped.db", tmp_path / "other.db"
    url = f"sqlite:///{path}"
    held = connect(str(path), 5.0)  # a client that has it open
    held.execute("CREATE TABLE usertable (YCSB_KEY TEXT PRIMARY KEY)")
    held.executemany("INSERT INTO usertable VALUES (?)", [(f"user{i}",) for i in range(3)])
    check = DatasetCheck(progress=None)  # type: ignore[arg-type]
    assert check.before_point("sqlite", _endpoint(url), 3) is None  # all 3 there when it began
    began = os.stat(path).st_ino
    with connect(str(other), 5.0) as new:
        new.execute("CREATE TABLE usertable (YCSB_KEY TEXT PRIMARY KEY)")
        new.execute("INSERT INTO usertable VALUES ('user0')")
    os.replace(other, path)
    said = check.after_point(_endpoint(url), 3)
    held.close()
    assert said == (f"the server held 1 of the 3 records after the point: the SQLite file {path} was replaced while "
                    f"it ran (inode {began} on device {os.stat(path).st_dev} when the point began, inode "
                    f"{os.stat(path).st_ino} on device {os.stat(path).st_dev} after it): the clients read and wrote "
                    "the file it replaced, not this one")
    assert DatasetCheck(progress=None).after_point(_endpoint(url), 3) == (  # type: ignore[arg-type]
        "the server held 1 of the 3 records after the point (emptied or cut while it ran)")  # no start: cannot tell


def test_a_folder_or_a_file_of_something_else_given_as_the_database_is_refused_before_anything_starts(
        tmp_path: Path) -> None:
    """Each failed every point, exit 1, on 'unable to open database file' / 'file is not a database' (fault43g): now
    one line, exit 2, as for a path that does not exist. A real database, and an empty file (SQLite's empty
    database), pass."""
    import pytest

    from ycsbctl.errors import UserError
    from ycsbctl.stores.sqlite.store import SqliteProtocol

    store, text, real, empty = SqliteProtocol(), tmp_path / "notes.db", tmp_path / "real.db", tmp_path / "empty.db"
    text.write_text("not a database\n" * 3)
    with sqlite3.connect(real) as db:
        db.execute("CREATE TABLE usertable (YCSB_KEY TEXT PRIMARY KEY)")
    db.close()
    empty.touch()
    for path, said in ((tmp_path, f"SQLite database {tmp_path} is a folder: give the path of a database file in it"),
                       (text, f"{text} is not a SQLite database (its first bytes are not SQLite's header): give the "
                              "path of an SQLite database, or a new path (loading creates it)")):
        for check in (store.check_unloaded, store.validate):  # without --load, and with it
            with pytest.raises(UserError) as told:
                check(f"sqlite:///{path}")
            assert str(told.value) == said and told.value.exit_code == 2
    for check in (store.check_unloaded, store.validate):
        check(f"sqlite:///{real}")
        check(f"sqlite:///{empty}")
