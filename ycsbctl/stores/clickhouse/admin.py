"""ClickHouse's admin calls (version, settings, counts, system.events, system.parts) as HTTP requests of their
own (:func:`ycsbctl.stores.http1.request`: each reply whole within its deadline), never in the timed path."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlsplit

from ycsbctl.stores import http1
from ycsbctl.stores.sql.layout import identifier

DEFAULT_PORT = 8123  # ClickHouse's HTTP interface
DATABASE = "default"


def address(url: str) -> tuple[str, int, str]:
    """(host, HTTP port, database) of a ``clickhouse://host[:port][/database]`` URL."""
    u = urlsplit(url)
    return u.hostname or "127.0.0.1", u.port or DEFAULT_PORT, u.path.strip("/") or DATABASE


def query(url: str, sql: str, timeout_s: float = 5.0, settings: dict[str, str] | None = None) -> list[list[str]]:
    """The TabSeparated rows of ``sql`` (each a list of cells), with ``settings`` (ClickHouse's, as URL parameters)
    for this query alone; a server error raises ``ConnectionError`` with ClickHouse's own message."""
    host, port, db = address(url)
    params = "".join(f"&{quote(k)}={quote(v)}" for k, v in (settings or {}).items())
    r = http1.request(host, port, "POST", f"/?database={quote(db)}{params}", sql.encode(), timeout_s=timeout_s,
                      # the whole reply within timeout_s
                      server=f"clickhouse at {host}:{port}", call=" ".join(sql.split()[:2]))
    text = r.body.decode(errors="replace")
    if r.status >= 300:
        said = text.strip().replace("e.displayText() = ", "").split(", e.what()")[0]
        raise ConnectionError(f"ClickHouse refused {sql[:60]!r}: {said}")
    return [line.split("\t") for line in text.splitlines()]


def distinct_keys(url: str, table: str) -> int:
    """The distinct values of ``table``'s sorting key (YCSB's ``YCSB_KEY``, media-items' ``id``): its records, where a
    MergeTree table has no unique key and keeps a key inserted twice as two rows (a second load into it); 0 when the
    table does not exist or holds no row. Counted exactly (``uniqExact``) only when the active parts hold rows."""
    if not table_parts(url, table)["rows"]:
        return 0
    _, _, db = address(url)
    found = query(url, f"SELECT sorting_key FROM system.tables WHERE database = '{db}' AND name = '{table}'")
    if not found or not found[0][0]:  # dropped since, or a table without a sorting key: its rows are its records
        return table_parts(url, table)["rows"]
    (row,) = query(url, f"SELECT uniqExact({found[0][0]}) FROM {identifier(table, 'table')}", 10.0)
    return int(row[0])

def events(url: str) -> dict[str, float]:
    """``system.events``: counter → value (ClickHouse lists only those that are not 0)."""
    return {k: float(v) for k, v in query(url, "SELECT event, value FROM system.events")}


# The rows of the server's own log tables (query_log, query_thread_log, part_log …): a key of counters()
SYSTEM_LOG_ROWS = "SystemLogRows"


def counters(url: str) -> dict[str, float]:
    """``system.events`` and, under :data:`SYSTEM_LOG_ROWS`, the rows of the active parts of the ``system``
    database, read in one query that is itself not logged (``log_queries=0``). The server's flushes of its own
    logs count in ``InsertedRows`` as any insert does (each flush of system.query_log: two rows a logged query);
    the log tables' rows tell them apart. A merge leaves them unchanged (its part replaces its sources at once)."""
    sql = ("SELECT event, value FROM system.events UNION ALL SELECT "
           f"'{SYSTEM_LOG_ROWS}', sum(rows) FROM system.parts WHERE active AND database = 'system'")
    return {k: float(v) for k, v in query(url, sql, settings={"log_queries": "0"})}


def table_parts(url: str, table: str | None) -> dict[str, Any]:
    """The active data parts of ``table`` (None: of every table of the URL's database): ``bytes_on_disk``
    (compressed columns and marks), rows, parts and the primary index's bytes in memory; zeros when there is none."""
    _, _, db = address(url)
    which = "" if table is None else f" AND table = '{table}'"
    (row,) = query(url, "SELECT sum(bytes_on_disk), sum(rows), count(), sum(primary_key_bytes_in_memory) "
                        f"FROM system.parts WHERE active AND database = '{db}'{which}")
    return {"bytes_on_disk": float(row[0]), "rows": int(row[1]), "parts": int(row[2]),
            "primary_key_bytes_in_memory": float(row[3])}
