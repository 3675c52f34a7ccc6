"""A PyMySQL connection of its own for calls outside the timed path (admin, sampler, footprint)."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

DATABASE = "ycsb"


def connect_args(url: str) -> dict[str, Any]:
    """Host, port, user, password and database of ``mysql://user:password@host:port/db`` (driver keywords)."""
    parts = urlsplit(url)
    return {"host": parts.hostname or "127.0.0.1", "port": parts.port or 3306,
            "user": unquote(parts.username or "root"), "password": unquote(parts.password or ""),
            "db": parts.path.strip("/") or DATABASE}


def connect(url: str, timeout_s: float):
    import pymysql

    a = connect_args(url)
    t = max(1, round(timeout_s))
    return pymysql.connect(host=a["host"], port=a["port"], user=a["user"], password=a["password"],
                           database=a["db"], autocommit=True, connect_timeout=t, read_timeout=t, write_timeout=t)


def query(url: str, sql: str, timeout_s: float, *args: Any) -> list[tuple[Any, ...]]:
    conn = connect(url, timeout_s)
    try:
        with conn.cursor() as cur:
            cur.execute(sql, args or None)
            return [tuple(r) for r in cur.fetchall()]
    finally:
        conn.close()
