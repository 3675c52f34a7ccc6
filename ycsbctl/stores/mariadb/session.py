"""A PyMySQL connection of its own for calls outside the timed path (admin, sampler, footprint)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from ycsbctl.errors import UserError
from ycsbctl.stores.sql.tls import WireTls

DATABASE = "ycsb"
ER_CON_COUNT_ERROR = 1040  # "Too many connections": every one of max_connections is taken
TOO_MANY = ("more client threads than the server's max_connections allows: lower --threads or raise max_connections "
            "(SET GLOBAL max_connections = N)")
TLS_KEYS = ("ssl", "ssl_ca", "ssl_verify_cert")  # the URL's TLS options (PyMySQL's keyword names)
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


def tls_of(url: str) -> WireTls | None:
    """The URL's TLS: ``?ssl=true`` speaks TLS and checks the server's certificate and name against
    the system's CAs or ``ssl_ca=/path/ca.crt``; ``ssl_verify_cert=false`` checks nothing. None: plain."""
    query = {k.lower(): v for k, v in parse_qsl(urlsplit(url).query)}
    flag = query.get("ssl", "true" if "ssl_ca" in query else "false").lower()
    verify = query.get("ssl_verify_cert", "true").lower()
    if flag not in _TRUE + _FALSE or verify not in _TRUE + _FALSE:
        raise UserError(f"ssl={flag}, ssl_verify_cert={verify} in a MySQL URL: use true or false")
    if flag in _FALSE:
        return None
    return WireTls(query.get("ssl_ca") or None, verify in _TRUE, verify in _TRUE)


def connect_args(url: str) -> dict[str, Any]:
    """Host, port, user, password and database of ``mysql://user:password@host:port/db`` (driver keywords),
    and ``ssl``: the SSL context of the URL's TLS (:func:`tls_of`), or None."""
    parts = urlsplit(url)
    tls = tls_of(url)
    return {"host": parts.hostname or "127.0.0.1", "port": parts.port or 3306,
            "user": unquote(parts.username or "root"), "password": unquote(parts.password or ""),
            "db": parts.path.strip("/") or DATABASE, "ssl": tls.context() if tls else None}


def connect(url: str, timeout_s: float):
    """A PyMySQL connection of its own, each statement (whole reply) within ``timeout_s``."""
    from ycsbctl.stores.mysql_admin import connect as deadlined

    a = connect_args(url)
    return deadlined(f"mariadb at {a['host']}:{a['port']}", timeout_s, host=a["host"], port=a["port"], user=a["user"],
                     password=a["password"], database=a["db"], ssl=a["ssl"], autocommit=True)


def query(url: str, sql: str, timeout_s: float, *args: Any) -> list[tuple[Any, ...]]:
    conn = connect(url, timeout_s)
    try:
        with conn.cursor() as cur:
            cur.execute(sql, args or None)
            return [tuple(r) for r in cur.fetchall()]
    finally:
        conn.close()
