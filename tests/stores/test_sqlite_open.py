"""SQLite's file opened by several processes at once, as a load's workers open it: none is refused.

Switching a file to WAL takes its exclusive lock, and SQLite says "database is locked" at once to the
others instead of waiting (CI saw a load fail so); the binding's ``connect`` now tries again."""

from __future__ import annotations

import multiprocessing as mp
import sqlite3
from pathlib import Path

from ycsbctl.stores.sqlite.binding import connect

OPENERS = 4


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
