"""``sqlite:///path``: SQLite through Python's sqlite3, an embedded store (no server, no network)."""
