"""SQLite's store (stores/sqlite/store.py): what a pause says of the other processes holding its file."""

from __future__ import annotations


def test_sqlite_names_the_first_holder_of_its_file_and_counts_the_others(monkeypatch):
    import ycsbctl.stores.sqlite.store as sqlite_store

    monkeypatch.setattr(sqlite_store, "_our_tree", lambda: {1})
    monkeypatch.setattr(sqlite_store, "holders", lambda path, ours: [(4242, "backup"), (17, "vim"), (99, "cp")])
    said = sqlite_store.SqliteProtocol().pause_cause("sqlite:///tmp/ycsb.db") or ""
    assert "(backup, pid 4242 and 2 more)" in said
