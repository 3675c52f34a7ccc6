"""SQLite's store (stores/sqlite/store.py): what a pause says of the other processes holding its file."""

from __future__ import annotations


def test_sqlite_names_the_first_holder_of_its_file_and_counts_the_others(monkeypatch):
    import ycsbctl.stores.sqlite.store as sqlite_store

    monkeypatch.setattr(sqlite_store, "_our_tree", lambda: {1})
    monkeypatch.setattr(sqlite_store, "holders", lambda path, ours: [(4242, "backup"), (17, "vim"), (99, "cp")])
    said = sqlite_store.SqliteProtocol().pause_cause("sqlite:///tmp/ycsb.db") or ""
    assert "(backup, pid 4242 and 2 more)" in said


def test_with_no_holder_left_the_pause_is_the_bindings_own_counts_of_waits_for_the_lock(tmp_path):
    """Nobody holds the file any more (another program's transaction has ended): the pause is named from the
    bindings' counts, each as counted — calls answered SQLITE_BUSY, the milliseconds they waited in seconds to the
    tenth (61,000 ms: 61.0 s), the long waits — and without a long wait it is no cause of the store's."""
    from ycsbctl.stores.sqlite.binding import LONG_LOCK_S
    from ycsbctl.stores.sqlite.store import SqliteProtocol

    url = f"sqlite://{tmp_path / 'ycsb.db'}"
    said = SqliteProtocol().pause_cause(url, {"sqlite_busy_calls": 1234, "sqlite_busy_ms": 61_000,
                                              "sqlite_busy_long": 2}) or ""
    assert said.startswith("SQLite answered 'database is locked' (SQLITE_BUSY) to 1,234 of the client's calls, "
                           f"which waited 61.0 s in all for the lock (2 of them {LONG_LOCK_S:g} s or longer"), said
    assert SqliteProtocol().pause_cause(url, {"sqlite_busy_calls": 9, "sqlite_busy_ms": 80, "sqlite_busy_long": 0}) \
        is None
