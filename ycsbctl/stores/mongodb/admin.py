"""A pymongo client for admin calls outside the timed path (the store's and the disturbances')."""

from __future__ import annotations


def client(url: str, timeout_s: float):
    """A pymongo client for admin calls (never in the timed path); a single host is a direct connection. Each
    operation, its whole reply included, within ``timeout_s`` (pymongo's ``timeoutMS``: one deadline per operation,
    where ``socketTimeoutMS`` bounds each message read)."""
    import pymongo

    direct = not url.startswith("mongodb+srv") and "," not in url.split("://", 1)[-1].split("/", 1)[0]
    ms = int(timeout_s * 1000)
    return pymongo.MongoClient(url, serverSelectionTimeoutMS=ms, connectTimeoutMS=ms, socketTimeoutMS=ms, timeoutMS=ms,
                               directConnection=direct or None)
