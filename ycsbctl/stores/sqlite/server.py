"""SQLite runs embedded: a database file on tmpfs, opened by the engine's own processes (no server, no port)."""

from __future__ import annotations

from ycsbctl.stores.catalog_entry import Target
from ycsbctl.stores.server_kind import ServerKind

KINDS: tuple[ServerKind, ...] = (ServerKind("embedded", embedded=True),)

TARGETS: tuple[Target, ...] = (
    Target("sqlite", "sqlite", "SQLite", "", "", 0, "embedded", "embedded", "nothing: Python's sqlite3"),
)
