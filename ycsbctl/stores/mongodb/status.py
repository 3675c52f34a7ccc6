"""What a MongoDB-wire server reports about itself (``serverStatus``, ``dbStats``), via pymongo (sync).

Every field is optional: mongod reports all of them; FerretDB reports almost none (no ``mem``,
``connections``, ``opcounters`` or ``network``); a missing field is None, never an error.
"""

from __future__ import annotations

import time
from typing import Any

import pymongo
import pymongo.errors
import pymongo.uri_parser

from ycsbctl.stores.sampler import Sampler, num, rates

MIB = 1024 * 1024
# serverStatus.opcounters that YCSB operations map to (``command`` also counts our own polling).
OPCOUNTERS = ("insert", "query", "update", "delete", "getmore")
CACHE_BYTES = "bytes currently in the cache"
CACHE_MAX = "maximum bytes configured"


def connect(url: str) -> pymongo.MongoClient:
    """A one-connection client of its own (never the engine's), with short timeouts: each operation, its whole
    reply included, within 10 s (``timeoutMS``)."""
    return pymongo.MongoClient(url, maxPoolSize=1, serverSelectionTimeoutMS=5000, connectTimeoutMS=5000,
                               socketTimeoutMS=10000, timeoutMS=10000, appname="ycsbctl-telemetry")


def database_name(url: str) -> str:
    """The database of a mongodb:// URL (``ycsb`` when the URL names none, as the YCSB binding)."""
    return pymongo.uri_parser.parse_uri(url).get("database") or "ycsb"


def _get(doc: dict[str, Any], *path: str) -> Any:
    for p in path:
        if not isinstance(doc, dict) or p not in doc:
            return None
        doc = doc[p]
    return doc


def cache(status: dict[str, Any]) -> tuple[float | None, float | None]:
    """(bytes in the storage engine's cache, its configured maximum): Percona's ``inMemory``
    section where present, else ``wiredTiger``."""
    for engine in ("inMemory", "wiredTiger"):
        used = num(_get(status, engine, "cache", CACHE_BYTES))
        if used is not None:
            return used, num(_get(status, engine, "cache", CACHE_MAX))
    return None, None


def gauges(status: dict[str, Any]) -> dict[str, Any]:
    """Point-in-time fields of one serverStatus, named as telemetry columns.

    ``db_used_memory_bytes`` is the cache bytes (for the inMemory engine: the data set and its
    indexes in memory, the counterpart of Redis ``used_memory``); ``db_rss_bytes`` is ``mem.resident``.
    """
    resident = num(_get(status, "mem", "resident"))
    used, limit = cache(status)
    return {
        "db_used_memory_bytes": used,
        "db_cache_max_bytes": limit,
        "db_rss_bytes": resident * MIB if resident is not None else None,
        "connections": num(_get(status, "connections", "current")),
    }


def counters(status: dict[str, Any]) -> dict[str, float | None]:
    """Monotonic counters (operations, network bytes, CPU seconds from ``extra_info``)."""
    ops = [num(_get(status, "opcounters", k)) for k in OPCOUNTERS]
    ops = [v for v in ops if v is not None]
    user, system = (num(_get(status, "extra_info", k)) for k in ("user_time_us", "system_time_us"))
    return {
        "ops": sum(v for v in ops if v is not None) if ops else None,
        "net_in": num(_get(status, "network", "bytesIn")),
        "net_out": num(_get(status, "network", "bytesOut")),
        "cpu_s": (user + system) / 1e6 if user is not None and system is not None else None,
    }


def server_status(client: pymongo.MongoClient) -> dict[str, Any]:
    return client.admin.command("serverStatus")


def db_stats(client: pymongo.MongoClient, database: str) -> dict[str, float | None]:
    """``dbStats`` sizes (bytes) of ``database``: data, storage, index, average object."""
    s = client[database].command("dbStats")
    return {"data_size_bytes": num(s.get("dataSize")), "storage_size_bytes": num(s.get("storageSize")),
            "index_size_bytes": num(s.get("indexSize")), "avg_obj_size_bytes": num(s.get("avgObjSize")),
            "objects": num(s.get("objects"))}


def reported_pid(url: str) -> int | None:
    """The server's own PID (``serverStatus.pid``), None when it does not say or does not answer."""
    try:
        with connect(url) as c:
            pid = server_status(c).get("pid")
        return int(pid) if pid is not None else None
    except (pymongo.errors.PyMongoError, ValueError, TypeError):
        return None


UNAUTHORIZED = 13  # MongoDB's error code for a command the user (or no user) may not run


def not_permitted(exc: pymongo.errors.OperationFailure) -> str | None:
    """A serverStatus refused for want of a privilege, said as what is not measured and the role that grants it
    (the raw ``command serverStatus requires authentication, full error: {…}`` said neither); None for another
    refusal."""
    if exc.code != UNAUTHORIZED:
        return None
    return (f"the server refused serverStatus to this URL's user (code {UNAUTHORIZED}, Unauthorized): its memory, "
            "connections, operation and network rates and CPU time are not measured; give the user the clusterMonitor "
            "role")


class MongoStatusSampler(Sampler):
    """serverStatus once per interval: ``db_used_memory_bytes`` (cache), ``db_rss_bytes``,
    ``connections`` (ours included), and rates: ``ops_per_s`` (insert+query+update+delete+getmore),
    ``net_in/out_bytes_per_s``, ``db_cpu_pct`` (mongod's own user+sys CPU, % of one core)."""

    source = "mongo-status"

    def __init__(self, url: str, interval_s: float = 1.0) -> None:
        super().__init__(interval_s)
        self.url = url
        self._client: pymongo.MongoClient | None = None
        self._prev: dict[str, float | None] = {}
        self._t = 0.0

    def prime(self) -> None:
        self._client = connect(self.url)
        try:
            status = server_status(self._client)
        except pymongo.errors.OperationFailure as exc:
            said = not_permitted(exc)
            if said is None:
                raise
            raise PermissionError(said) from None
        self._prev = counters(status)
        self._t = time.monotonic()

    def sample(self) -> dict[str, Any]:
        assert self._client is not None, "prime() first"
        status = server_status(self._client)
        now = time.monotonic()
        cur = counters(status)
        out = {**gauges(status), **rates(self._prev, cur, now - self._t)}
        self._prev, self._t = cur, now
        return out

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
