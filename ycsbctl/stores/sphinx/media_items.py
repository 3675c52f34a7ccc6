"""media-items on Sphinx: the real-time index ``items`` of infra/sphinx/sphinx.conf (an RT index's schema is its
config's), each item a document whose id is the item's id + 1 (Sphinx numbers documents from 1): ``text`` the
description as the full-text field (keywords dictionary, prefixes of 3 letters or more indexed), ``name``,
``year`` and ``description`` stored attributes. Over SphinxQL:

- QUERY-1COND / QUERY-2COND: ``SELECT id FROM items WHERE year > Y [AND name = 'n'] ORDER BY id ASC LIMIT o, l``
  (attribute filters: no index on attributes, as the study's Sphinx backend);
- FULLTEXT: ``WHERE MATCH('w1 | w2')`` (the study's ``'w1 | w2'``); FULLTEXT-PREFIX ``MATCH('p1* | p2*')``;
- totals: ``SHOW META``'s ``total_found`` after the page; searches are capped at ``max_matches``, raised to the
  offset + limit of each page (``OPTION max_matches``);
- UPDATE: ``REPLACE`` of the whole document (Sphinx 2.2 updates numeric attributes only; the study's update
  writes every field anyway) — it cannot tell a missing id (REPLACE inserts it), so it is never NOT_FOUND;
- the load: one multi-row ``INSERT`` per batch.
"""

from __future__ import annotations

from typing import ClassVar, Protocol

from ycsbctl.workload.media_items.contract import Item, MediaStore, Page, Query
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, UPDATE
from ycsbctl.workload.plugin import ERROR, NOT_FOUND, OK


class SphinxQLBinding(Protocol):
    """The binding a ``sphinx`` executor gets: ``sphinxql(sql)`` → (status, rows' columns, rows affected)."""

    last_error: str | None

    async def sphinxql(self, sql: bytes) -> tuple[int, list[list[bytes | None]], int]: ...


def quote(s: str) -> str:
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _text(v: bytes | None) -> str:
    return (v or b"").decode()


def _int(v: bytes | None) -> int:
    """An id or a year: Sphinx has no NULL attribute, so one never comes (it would raise ValueError, not read 0)."""
    return int(v or b"")


class SphinxItems(MediaStore):
    protocol: ClassVar[str] = "sphinx"
    indexes: ClassVar[str] = ("real-time index: description full-text (keywords dictionary, min_prefix_len 3); "
                              "name, year, description stored attributes (filters scan them)")
    differs: ClassVar[dict[int, str]] = {
        FULLTEXT: "MATCH('w1 | w2') (the study's)",
        FULLTEXT_PREFIX: "MATCH('p1* | p2*')",
        UPDATE: "REPLACE of the whole document (Sphinx 2.2 cannot update a string attribute)",
    }

    async def setup(self, b: SphinxQLBinding) -> int:
        """The index is the server's config's: only check that searchd serves it."""
        st, rows, _ = await b.sphinxql(b"SHOW TABLES")
        if st == OK and not any(r and r[0] == self.table.encode() for r in rows):
            b.last_error = f"searchd serves no index {self.table!r} (its config, infra/sphinx/sphinx.conf, has 'items')"
            return ERROR
        return st

    @staticmethod
    def _values(it: Item) -> str:
        return f"({it.id + 1}, {quote(it.description)}, {quote(it.name)}, {it.year}, {quote(it.description)})"

    async def insert(self, b: SphinxQLBinding, items: list[Item]) -> int:
        rows = ", ".join(map(self._values, items))
        st, _, _ = await b.sphinxql(f"INSERT INTO {self.table} (id, text, name, year, "
                                    f"description) VALUES {rows}".encode())
        return st

    async def get(self, b: SphinxQLBinding, item_id: int) -> tuple[int, Item | None]:
        st, rows, _ = await b.sphinxql(f"SELECT id, name, year, description FROM {self.table} WHERE id = "
                                       f"{int(item_id) + 1}".encode())
        if st != OK:
            return st, None
        if not rows:
            return NOT_FOUND, None
        r = rows[0]
        return OK, Item(_int(r[0]) - 1, _text(r[1]), _int(r[2]), _text(r[3]))

    def condition(self, q: Query) -> str:
        if q.is_text:
            star = "*" if q.op == FULLTEXT_PREFIX else ""
            return "MATCH(" + quote(" | ".join(w + star for w in q.words)) + ")"
        cond = f"year > {int(q.year_gt)}"
        return cond + (f" AND name = {quote(q.name)}" if q.has_name else "")

    async def query(self, b: SphinxQLBinding, q: Query, count: bool) -> tuple[int, Page]:
        order = " ORDER BY id ASC" if q.sort == "id" else ""
        window = max(1000, q.offset + q.limit)
        st, rows, _ = await b.sphinxql(f"SELECT id FROM {self.table} WHERE {self.condition(q)}{order} LIMIT "
                                       f"{int(q.offset)}, {int(q.limit)} OPTION max_matches={window}".encode())
        if st != OK:
            return st, Page(())
        total = None
        if count:
            st, meta, _ = await b.sphinxql(b"SHOW META")
            if st != OK:
                return st, Page(())
            total = int(next((r[1] for r in meta if r[0] == b"total_found"), b"0") or 0)
        return OK, Page(tuple(_int(r[0]) - 1 for r in rows), total)

    async def update(self, b: SphinxQLBinding, item: Item) -> int:
        st, _, _ = await b.sphinxql(f"REPLACE INTO {self.table} (id, text, name, year, description) VALUES "
                                    f"{self._values(item)}".encode())
        return st

