"""Sphinx's admin calls (``SHOW STATUS``, ``SHOW VARIABLES``, ``SHOW INDEX … STATUS``, counts, ``TRUNCATE RTINDEX``)
through PyMySQL on a connection of their own (searchd takes any user, no password), never in the timed path."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

DEFAULT_PORT = 9306  # searchd's usual SphinxQL (mysql41) port
INDEX = "usertable"


def address(url: str) -> tuple[str, int]:
    """(host, port) of a ``sphinx://host[:port]`` URL."""
    u = urlsplit(url)
    return u.hostname or "127.0.0.1", u.port or DEFAULT_PORT


def _connect(url: str, timeout_s: float):
    """A PyMySQL connection of its own, each statement (whole reply) within ``timeout_s``."""
    from ycsbctl.stores.mysql_admin import connect

    host, port = address(url)
    return connect(f"sphinx at {host}:{port}", timeout_s, host=host, port=port, user="ycsbctl")


def query(url: str, sql: str, timeout_s: float = 5.0) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (SphinxQL) on a short connection of its own."""
    conn = _connect(url, timeout_s)
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            return [tuple(r) for r in cur.fetchall()]
    finally:
        conn.close()


def server_version(url: str) -> str:
    """The version searchd greets with (``2.2.11-id64-release``): SHOW VARIABLES has none."""
    conn = _connect(url, 5.0)
    try:
        return str(conn.get_server_info())
    finally:
        conn.close()


def status(url: str) -> dict[str, str]:
    """``SHOW STATUS``: counter → value as searchd prints it (``OFF`` where it does not keep one)."""
    return {str(k): str(v) for k, v in query(url, "SHOW STATUS")}


def number(values: dict[str, str], name: str) -> float | None:
    try:
        return float(values[name])
    except (KeyError, ValueError):
        return None


def index_status(url: str, index: str = INDEX) -> dict[str, str]:
    """``SHOW INDEX <index> STATUS``: indexed_documents, ram_bytes, disk_bytes, … ({} when there is no such index)."""
    try:
        return {str(k): str(v) for k, v in query(url, f"SHOW INDEX {index} STATUS")}
    except Exception:  # noqa: BLE001 - an unknown index is an error reply
        return {}


def documents(url: str, index: str = INDEX) -> int:
    """Documents in ``index``, as ``SHOW INDEX … STATUS`` counts them (``indexed_documents``, deletes taken off):
    no search, so that searchd's ``command_search`` counts the engine's alone."""
    return int(float(index_status(url, index).get("indexed_documents", 0)))


def indexes(url: str) -> list[str]:
    """The indexes searchd serves (``SHOW TABLES``: YCSB's ``usertable``, the media-items study's ``items``)."""
    return [str(r[0]) for r in query(url, "SHOW TABLES")]


def rt_index(url: str, table: str) -> str:
    """The index named ``table`` when searchd serves one (a workload plug-in's: ``items``), else YCSB's
    ``usertable``."""
    return table if table in indexes(url) else INDEX
