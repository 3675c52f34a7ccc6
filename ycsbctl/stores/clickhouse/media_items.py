"""media-items on ClickHouse: a MergeTree table ``items`` sorted by ``id`` (``index_granularity`` 256, as the
CoreWorkload table: a point read decompresses one granule), over its HTTP interface.

ClickHouse 18.16 has no secondary index (its data-skipping indexes are experimental there) and no full-text
index: QUERY-1COND and QUERY-2COND read the ``year`` (and ``name``) columns of every granule, FULLTEXT splits
each description into words (``hasAny(splitByChar(' ', description), [...])``) and FULLTEXT-PREFIX tests each
word's start (``arrayExists(w -> startsWith(w, 'p1') OR …, …)``): exact answers from column scans, as a
column store answers them. Pages are ``ORDER BY id LIMIT offset, limit``; totals a ``count()``.

Cannot: UPDATE (a mutation, ``ALTER TABLE … UPDATE``, rewrites whole data parts asynchronously: not an
operation on one record; the study dropped ClickHouse from its update test)."""

from __future__ import annotations

from typing import ClassVar, Protocol

from ycsbctl.stores.sql.protocol import only
from ycsbctl.workload.media_items.contract import Item, MediaStore, Page, Query
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, QUERY_1COND, QUERY_2COND, UPDATE
from ycsbctl.workload.plugin import NOT_FOUND, OK

_NO_UPDATE = ("ClickHouse changes rows only by mutations (ALTER TABLE … UPDATE): asynchronous rewrites of whole "
              "data parts, not an operation on one record (the study dropped ClickHouse from its update test)")
_SCAN = "a scan of the {what} column (ClickHouse 18.16 has no secondary index)"


class HttpSqlBinding(Protocol):
    """The binding a ``clickhouse`` executor gets: ``ch(sql)`` → (status, TabSeparated rows as lists of cells)."""

    last_error: str | None

    async def ch(self, sql: str) -> tuple[int, list[list[bytes]]]: ...


def quote(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def unescape(v: bytes) -> str:
    """A TabSeparated cell as text (the study's values hold no tab, newline or backslash: kept general anyway)."""
    t = v.decode()
    return t if "\\" not in t else t.encode().decode("unicode_escape")


class ClickHouseItems(MediaStore):
    protocol: ClassVar[str] = "clickhouse"
    indexes: ClassVar[str] = "MergeTree sorted by id (index_granularity 256); no secondary or full-text index"
    cannot: ClassVar[dict[int, str]] = {UPDATE: _NO_UPDATE}
    differs: ClassVar[dict[int, str]] = {
        QUERY_1COND: _SCAN.format(what="year"),
        QUERY_2COND: _SCAN.format(what="year and name"),
        FULLTEXT: "hasAny(splitByChar(' ', description), ['w1', 'w2']): every description split into words",
        FULLTEXT_PREFIX: "arrayExists(w -> startsWith(w, 'p1') OR startsWith(w, 'p2'), splitByChar(' ', description))",
    }

    async def setup(self, b: HttpSqlBinding) -> int:
        st, _ = await b.ch(f"CREATE TABLE IF NOT EXISTS {self.table} (id UInt32, name String, year UInt16, "
                           "description String) ENGINE = MergeTree() ORDER BY id SETTINGS index_granularity = 256")
        return st

    async def insert(self, b: HttpSqlBinding, items: list[Item]) -> int:
        rows = ", ".join(f"({it.id}, {quote(it.name)}, {it.year}, {quote(it.description)})" for it in items)
        st, _ = await b.ch(f"INSERT INTO {self.table} (id, name, year, description) VALUES {rows}")
        return st

    async def get(self, b: HttpSqlBinding, item_id: int) -> tuple[int, Item | None]:
        st, rows = await b.ch(f"SELECT id, name, year, description FROM {self.table} WHERE id = {int(item_id)}")
        if st != OK:
            return st, None
        if not rows:
            return NOT_FOUND, None
        r = rows[0]
        return OK, Item(int(r[0]), unescape(r[1]), int(r[2]), unescape(r[3]))

    def condition(self, q: Query) -> str:
        if q.op == FULLTEXT:
            return f"hasAny(splitByChar(' ', description), [{', '.join(map(quote, q.words))}])"
        if q.op == FULLTEXT_PREFIX:
            starts = " OR ".join(f"startsWith(w, {quote(p)})" for p in q.words)
            return f"arrayExists(w -> {starts}, splitByChar(' ', description))"
        cond = f"year > {int(q.year_gt)}"
        return cond + (f" AND name = {quote(q.name)}" if q.has_name else "")

    async def query(self, b: HttpSqlBinding, q: Query, count: bool) -> tuple[int, Page]:
        cond = self.condition(q)
        order = " ORDER BY id" if q.sort == "id" else ""
        st, rows = await b.ch(f"SELECT id FROM {self.table} WHERE {cond}{order} LIMIT {int(q.offset)}, {int(q.limit)}")
        if st != OK:
            return st, Page(())
        total = None
        if count:
            st, counted = await b.ch(f"SELECT count() FROM {self.table} WHERE {cond}")
            if st != OK:
                return st, Page(())
            total = int(only(counted))
        return OK, Page(tuple(int(r[0]) for r in rows), total)

    async def update(self, b: HttpSqlBinding, item: Item) -> int:
        raise NotImplementedError(_NO_UPDATE)  # refused before anything starts (cannot)

