"""ycsbctl: how do Redis and an in-memory MongoDB really compare under YCSB load, and why."""

__version__ = "0.1.0"
