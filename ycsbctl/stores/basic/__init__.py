"""``basic://``: YCSB's BasicDB, no server (the engine alone)."""
