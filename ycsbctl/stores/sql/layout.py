"""YCSB's jdbc layout (``site.ycsb.db.JdbcDBClient``), as SQL text in each store's dialect.

One table per workload ``table`` (``usertable``): ``YCSB_KEY VARCHAR(255) PRIMARY KEY`` and one
``TEXT`` column per field (``FIELD0`` … ``FIELDn``, the workload's field names upper-cased, as
YCSB's ``create_table.mysql``; every one of these servers matches unquoted column names without
regard to case, so YCSB's ``getString("field0")`` finds them). Values are text (YCSB's are
printable ASCII, 0x20–0x7F). Each operation is one prepared statement per shape:

- READ: ``SELECT <fields> FROM t WHERE YCSB_KEY = ?`` (all fields: ``SELECT *``, as YCSB)
- SCAN: ``SELECT <fields> FROM t WHERE YCSB_KEY >= ? ORDER BY YCSB_KEY LIMIT ?``
- INSERT: ``INSERT INTO t (YCSB_KEY, f…) VALUES (?, …)``
- UPDATE: ``UPDATE t SET f = ?, … WHERE YCSB_KEY = ?``
- DELETE: ``DELETE FROM t WHERE YCSB_KEY = ?``

Statuses (:func:`row_status`): a read, update or delete that finds no row is NOT_FOUND (YCSB's jdbc
binding says UNEXPECTED_STATE for an update or delete that changed no row; NOT_FOUND is what the
other stores here say for a missing key); a scan is OK even when the range is empty (as YCSB);
an insert of a key already stored fails (ERROR), as the primary key refuses it.

YCSB's own client reads and verifies (``dataintegrity``) what ycsbctl writes in this layout, and the
other way round, through the binding's JDBC statements on each store:
tests/stores/test_sql_ycsb_interop.py (the real binding by hand: infra/ycsb-jdbc/interop.sh).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ycsbctl.errors import UserError
from ycsbctl.stores.binding import Status

KEY_COLUMN = "YCSB_KEY"
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


def identifier(name: str, what: str) -> str:
    """``name`` when it is a plain SQL identifier (letters, digits, _), else a one-line UserError."""
    if not _IDENT.match(name):
        raise UserError(f"{what} {name!r} cannot be a SQL table or column name: use letters, digits and _ only")
    return name


def workload_fields(properties: dict[str, str]) -> list[str]:
    """The workload's field names: ``fieldnameprefix`` + 0 … ``fieldcount`` − 1 (YCSB's defaults: field, 10;
    an empty ``fieldcount`` is the default too)."""
    prefix = properties.get("fieldnameprefix", "field")
    return [f"{prefix}{i}" for i in range(int(properties.get("fieldcount", "10") or 10))]


def field_names(properties: dict[str, str]) -> tuple[str, ...]:
    """The workload's field names (:func:`workload_fields`), as column names."""
    return tuple(identifier(name, "field name").upper() for name in workload_fields(properties))


def ycsb_layout(properties: dict[str, str]) -> bool:
    """Whether the workload is YCSB's CoreWorkload, whose table the store creates (a workload plug-in,
    such as media-items, creates its own tables and indexes through its executor)."""
    from ycsbctl.workload.plugin import CORE_PLUGIN, class_path
    from ycsbctl.workload.properties import Properties

    return class_path(Properties(properties)) == CORE_PLUGIN


def create_table(table: str, columns: Sequence[str]) -> str:
    """YCSB's table: the key, then one TEXT column per field (created only when missing)."""
    cols = ", ".join(f"{c} TEXT" for c in columns)
    return f"CREATE TABLE IF NOT EXISTS {identifier(table, 'table')} ({KEY_COLUMN} VARCHAR(255) PRIMARY KEY, {cols})"


def row_status(rows: int) -> Status:
    """The status of a statement that touched ``rows`` rows by primary key: OK, or NOT_FOUND."""
    return Status.OK if rows else Status.NOT_FOUND


def row_values(row: Status | Sequence[str | None] | None,
               fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
    """A read's status and values from a driver's answer: its failure, no row (NOT_FOUND), or the
    row's text columns in the order of ``fields`` (NULL columns left out)."""
    if isinstance(row, Status):
        return row, {}
    if row is None:
        return Status.NOT_FOUND, {}
    return Status.OK, {f: v.encode("latin-1") for f, v in zip(fields, row) if v is not None}


@dataclass(frozen=True)
class Dialect:
    """How one driver writes parameter ``i`` (1-based): ``?`` (sqlite3), ``$1`` (PostgreSQL), ``%s``."""

    name: str
    param: Callable[[int], str]

    def _params(self, first: int, n: int) -> str:
        return ", ".join(self.param(i) for i in range(first, first + n))

    @staticmethod
    def _columns(fields: tuple[str, ...] | None) -> str:
        return "*" if fields is None else ", ".join(fields)

    def read(self, table: str, fields: tuple[str, ...] | None) -> str:
        return _cached(self, "read", table, fields)

    def scan(self, table: str, fields: tuple[str, ...] | None) -> str:
        return _cached(self, "scan", table, fields)

    def insert(self, table: str, fields: tuple[str, ...]) -> str:
        return _cached(self, "insert", table, fields)

    def update(self, table: str, fields: tuple[str, ...]) -> str:
        return _cached(self, "update", table, fields)

    def delete(self, table: str) -> str:
        return _cached(self, "delete", table, None)

    def text(self, kind: str, table: str, fields: tuple[str, ...] | None) -> str:
        """The SQL of one statement shape (uncached: see :func:`_cached`)."""
        t = identifier(table, "table")
        p = self.param
        if kind == "read":
            return f"SELECT {self._columns(fields)} FROM {t} WHERE {KEY_COLUMN} = {p(1)}"
        if kind == "scan":
            return (f"SELECT {self._columns(fields)} FROM {t} WHERE {KEY_COLUMN} >= {p(1)} "
                    f"ORDER BY {KEY_COLUMN} LIMIT {p(2)}")
        if kind == "insert":
            assert fields is not None
            return f"INSERT INTO {t} ({KEY_COLUMN}, {', '.join(fields)}) VALUES ({self._params(1, len(fields) + 1)})"
        if kind == "update":
            assert fields is not None
            sets = ", ".join(f"{f} = {p(i)}" for i, f in enumerate(fields, 1))
            return f"UPDATE {t} SET {sets} WHERE {KEY_COLUMN} = {p(len(fields) + 1)}"
        if kind == "delete":
            return f"DELETE FROM {t} WHERE {KEY_COLUMN} = {p(1)}"
        raise ValueError(kind)


@lru_cache(maxsize=4096)
def _cached(dialect: Dialect, kind: str, table: str, fields: tuple[str, ...] | None) -> str:
    return dialect.text(kind, table, fields)


QMARK = Dialect("qmark", lambda i: "?")  # sqlite3
DOLLAR = Dialect("dollar", lambda i: f"${i}")  # PostgreSQL (asyncpg)
FORMAT = Dialect("format", lambda i: "%s")  # MySQL drivers (PyMySQL family)


def columns(names: Sequence[bytes] | None) -> tuple[str, ...] | None:
    """Field names the engine hands a binding (bytes, lower-case) as column names; None = all."""
    return None if names is None else tuple(n.decode().upper() for n in names)


def split_values(values: Sequence[tuple[bytes, bytes]]) -> tuple[tuple[str, ...], list[str]]:
    """(column names, their text values) of one insert/update."""
    return tuple(n.decode().upper() for n, _ in values), [v.decode("latin-1") for _, v in values]
