"""Dataset footprint: memory before and after the load phase, and bytes per record.

``before = footprint_before(endpoint)`` just before loading, ``footprint_after(endpoint, before,
records)`` right after. "DB memory" is what the server says its data takes: Redis ``used_memory``,
MongoDB's storage-engine cache (inMemory/WiredTiger ``bytes currently in the cache``). RSS is the
server process (psutil, children included), else its container (Docker stats), else what the
server reports (``used_memory_rss``, ``mem.resident``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ycsbctl.provision.base import Endpoint
from ycsbctl.stores import registry
from ycsbctl.stores.capabilities import FootprintReading
from ycsbctl.telemetry.process import process_rss_bytes


@dataclass
class Footprint:
    """Memory of a loaded dataset (bytes). ``bytes_per_record`` is the growth of ``basis`` per record:
    ``used_memory`` (Redis), ``cache`` (mongod), ``dbStats`` (data + index size, when the server
    reports no memory, e.g. FerretDB) or ``rss``."""

    target: str
    protocol: str
    records: int
    db_memory_before_bytes: float | None = None
    db_memory_after_bytes: float | None = None
    rss_before_bytes: float | None = None
    rss_after_bytes: float | None = None
    rss_source: str | None = None  # "process" | "container" | "db"
    bytes_per_record: float | None = None
    basis: str | None = None
    rss_bytes_per_record: float | None = None
    keys: float | None = None  # keys (Redis) or documents (MongoDB) after loading
    data_size_bytes: float | None = None  # MongoDB dbStats, after loading
    storage_size_bytes: float | None = None
    index_size_bytes: float | None = None
    avg_obj_size_bytes: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _rss(endpoint: Endpoint, db_rss: float | None) -> tuple[float | None, str | None]:
    if endpoint.processes:  # several processes: all of them
        each = [process_rss_bytes(int(p["pid"])) for p in endpoint.processes]
        if all(r is not None for r in each):
            return float(sum(r for r in each if r is not None)), "process"
    if endpoint.pid:
        rss = process_rss_bytes(endpoint.pid)
        if rss is not None:
            return float(rss), "process"
    if endpoint.container_id:
        try:
            from ycsbctl.telemetry.container import memory, one_shot

            rss = memory(one_shot(endpoint.container_id, docker_host=endpoint.docker_host))["rss_bytes"]
            if rss is not None:
                return float(rss), "container"
        except Exception:  # noqa: BLE001 - docker gone: fall back to what the server says
            pass
    return db_rss, "db" if db_rss is not None else None


def _read(endpoint: Endpoint) -> dict[str, Any]:
    """One reading: db memory, RSS, keys (and dbStats for MongoDB)."""
    reading = registry.ask(registry.get(endpoint.protocol), FootprintReading.reading, endpoint.url)
    if reading is None:
        return {}
    out: dict[str, Any] = {"db_memory_bytes": reading.db_memory_bytes, "keys": reading.keys, **reading.extra}
    out["rss_bytes"], out["rss_source"] = _rss(endpoint, reading.db_rss_bytes)
    return out


def footprint_before(endpoint: Endpoint) -> dict[str, Any]:
    """Memory before loading: ``db_memory_bytes``, ``rss_bytes``, ``keys`` (+ dbStats sizes for MongoDB)."""
    return _read(endpoint)


def stats_bytes(reading: dict[str, Any]) -> float:
    """A MongoDB reading's dbStats bytes: its data and its indexes (a size it does not give counts 0)."""
    return float(reading.get("data_size_bytes") or 0.0) + float(reading.get("index_size_bytes") or 0.0)


def _per_record(after: float | None, before: float | None, records: int) -> float | None:
    if after is None or records <= 0:
        return None
    return (after - (before or 0.0)) / records


def footprint_after(endpoint: Endpoint, before: dict[str, Any], records: int) -> Footprint:
    """Memory after loading ``records`` records, and what each record costs."""
    return footprint_of(endpoint, before, _read(endpoint), records)


def footprint_of(endpoint: Endpoint, before: dict[str, Any], after: dict[str, Any], records: int) -> Footprint:
    """The footprint of ``records`` records from two readings (:func:`footprint_before`'s keys): the
    growth per record of the server's own memory figure, else of its dbStats data and index sizes,
    else of its RSS (``basis`` says which; None when the server gives none of them)."""
    fp = Footprint(
        target=endpoint.target, protocol=endpoint.protocol, records=int(records),
        db_memory_before_bytes=before.get("db_memory_bytes"), db_memory_after_bytes=after.get("db_memory_bytes"),
        rss_before_bytes=before.get("rss_bytes"), rss_after_bytes=after.get("rss_bytes"),
        rss_source=after.get("rss_source"), keys=after.get("keys"),
        data_size_bytes=after.get("data_size_bytes"), storage_size_bytes=after.get("storage_size_bytes"),
        index_size_bytes=after.get("index_size_bytes"), avg_obj_size_bytes=after.get("avg_obj_size_bytes"),
    )
    fp.rss_bytes_per_record = _per_record(fp.rss_after_bytes, fp.rss_before_bytes, records)
    db_per_record = _per_record(fp.db_memory_after_bytes, fp.db_memory_before_bytes, records)
    if db_per_record is not None:
        fp.bytes_per_record = db_per_record
        fp.basis = registry.get(endpoint.protocol).footprint_basis
    elif fp.data_size_bytes is not None:
        fp.bytes_per_record, fp.basis = _per_record(stats_bytes(after), stats_bytes(before), records), "dbStats"
    elif fp.rss_bytes_per_record is not None:
        fp.bytes_per_record, fp.basis = fp.rss_bytes_per_record, "rss"
    return fp
