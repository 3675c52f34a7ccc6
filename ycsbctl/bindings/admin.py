"""Housekeeping outside the timed loop (redis-py, sync pymongo): clear and count the dataset."""

from __future__ import annotations

from ycsbctl.bindings import protocol_of
from ycsbctl.errors import UserError
from ycsbctl.urls import redact_url


def clear_dataset(url: str, table: str = "usertable") -> None:
    """Remove what a load wrote: ``FLUSHDB`` on Redis, drop ``usertable`` on MongoDB."""
    proto = protocol_of(url)
    try:
        if proto == "redis":
            import redis

            with redis.Redis.from_url(url, socket_timeout=30) as r:
                r.flushdb()
        elif proto == "mongodb":
            from pymongo import MongoClient

            from ycsbctl.bindings.mongodb import database_name

            with MongoClient(url, serverSelectionTimeoutMS=5000, socketTimeoutMS=60000) as c:
                c[database_name(url)].drop_collection(table)
    except Exception as exc:  # noqa: BLE001 - one line for the user
        raise UserError(f"cannot clear the dataset at {redact_url(url)}: {str(exc).splitlines()[0]}", exit_code=1) from None


def count_records(url: str, table: str = "usertable") -> int | None:
    """Records stored (hashes other than ``_indices``; documents in ``usertable``); None for basic://.
    Cheap (DBSIZE, an estimated count) and bounded: a server that does not answer in 5 s raises."""
    proto = protocol_of(url)
    if proto == "redis":
        import redis

        with redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5) as r:
            n = r.dbsize()
            return n - (1 if r.exists("_indices") else 0)
    if proto == "mongodb":
        from pymongo import MongoClient

        from ycsbctl.bindings.mongodb import database_name

        with MongoClient(url, serverSelectionTimeoutMS=5000, socketTimeoutMS=5000) as c:
            return c[database_name(url)][table].estimated_document_count()
    return None
