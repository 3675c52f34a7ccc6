"""YCSB's jdbc layout (:mod:`ycsbctl.stores.sql.layout`) as a ClickHouse MergeTree table, and its statements.

``CREATE TABLE t (YCSB_KEY String, FIELD0 String, …) ENGINE = MergeTree() ORDER BY YCSB_KEY SETTINGS
index_granularity = 256``: the primary key is the table's sort order (sparse, one mark per 256 rows: a
point read decompresses one granule of each column, not the default 8,192 rows); there is no unique key.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import quote

from ycsbctl.stores.sql.layout import KEY_COLUMN, identifier

INDEX_GRANULARITY = 256  # rows per primary-index mark (ClickHouse's default 8,192 suits scans, not point reads)


def core_workload(properties: dict[str, str]) -> bool:
    """Whether the workload is YCSB's CoreWorkload, whose table the store creates (a workload plug-in such as
    media-items creates its own through its executor)."""
    from ycsbctl.workload.plugin import CORE_PLUGIN, class_path
    from ycsbctl.workload.properties import Properties

    return class_path(Properties(properties)) == CORE_PLUGIN


def create_table(table: str, columns: Sequence[str]) -> str:
    cols = ", ".join(f"{c} String" for c in columns)
    return (f"CREATE TABLE IF NOT EXISTS {identifier(table, 'table')} ({KEY_COLUMN} String, {cols}) "
            f"ENGINE = MergeTree() ORDER BY {KEY_COLUMN} SETTINGS index_granularity = {INDEX_GRANULARITY}")


class Statements:
    """The statements of one database, as bytes with ``%b`` for quoted values (``%d`` for a scan's length),
    built once per table and shape. ``path`` is the HTTP path that names the database."""

    def __init__(self, database: str, columns: Sequence[str]) -> None:
        self.path = f"/?database={quote(database)}".encode()
        self.columns = tuple(columns)  # FIELD0 … FIELDn, the table's order
        self._cache: dict[tuple, bytes] = {}

    def read(self, table: str) -> bytes:
        key = ("read", table)
        s = self._cache.get(key)
        if s is None:
            s = self._cache[key] = f"SELECT * FROM {identifier(table, 'table')} WHERE {KEY_COLUMN} = '%b'".encode()
        return s

    def scan(self, table: str) -> bytes:
        key = ("scan", table)
        s = self._cache.get(key)
        if s is None:
            s = self._cache[key] = (f"SELECT * FROM {identifier(table, 'table')} WHERE {KEY_COLUMN} >= '%b' "
                                    f"ORDER BY {KEY_COLUMN} LIMIT %d").encode()
        return s

    def insert(self, table: str, names: tuple[bytes, ...]) -> bytes:
        key = ("insert", table, names)
        s = self._cache.get(key)
        if s is None:
            cols = ", ".join(n.decode().upper() for n in names)
            values = ", ".join(["'%b'"] * (len(names) + 1))
            s = self._cache[key] = (
                f"INSERT INTO {identifier(table, 'table')} ({KEY_COLUMN}, {cols}) VALUES ({values})".encode()
            )
        return s

    def row_fields(self, line: bytes, fields: Sequence[bytes] | None) -> dict[bytes, bytes]:
        """A TabSeparated row of ``SELECT *`` → ``{field: value}`` (the fields asked for, or all), TSV's
        escapes undone."""
        cells = dict(zip(self.columns, line.split(b"\t")[1:]))
        names = {f.decode().upper(): f for f in fields} if fields else {c: c.lower().encode() for c in self.columns}
        return {name: _unescape(cells[c]) for c, name in names.items() if c in cells}


def _unescape(v: bytes) -> bytes:
    if b"\\" not in v:
        return v
    out, i = bytearray(), 0
    table = {ord("t"): b"\t", ord("n"): b"\n", ord("r"): b"\r", ord("0"): b"\0", ord("\\"): b"\\", ord("'"): b"'",
             ord("b"): b"\b", ord("f"): b"\f"}
    while i < len(v):
        if v[i] == 0x5C and i + 1 < len(v):
            out += table.get(v[i + 1], bytes((v[i + 1],)))
            i += 2
        else:
            out.append(v[i])
            i += 1
    return bytes(out)
