"""What the SQL stores' media-items executors share: the study's statements (its MySQL repo's, plus
``ORDER BY id`` unless ``media.sort=none``), their placeholders, rows read back as items, and the load
as one multi-row INSERT per batch. Each store adds its table, indexes and full-text condition."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from ycsbctl.stores.sql.protocol import only
from ycsbctl.workload.media_items.contract import Item, MediaStore, Page, Query
from ycsbctl.workload.plugin import ERROR, NOT_FOUND, OK, TIMEOUT, SqlBinding

COLUMNS = "id, name, year, description"


def text(v: Any) -> str:
    """A text column as str (the wire paths give bytes, the drivers str)."""
    return v.decode() if isinstance(v, bytes | bytearray) else str(v)


class SqlItems(MediaStore):
    """A SQL store's executor; subclasses give :meth:`mark` (placeholders), :meth:`setup` and
    :meth:`text_condition`."""

    dollar: ClassVar[bool] = False  # placeholders $1, $2, … (PostgreSQL); else ?

    def mark(self, n: int) -> str:
        return f"${n}" if self.dollar else "?"

    def text_condition(self, q: Query, n: int) -> tuple[str, str]:
        """(the WHERE condition of a full-text query with its parameter as placeholder ``n``, the parameter)."""
        raise NotImplementedError

    def where(self, q: Query) -> tuple[str, list[object]]:
        """The query's WHERE clause and its parameters."""
        if q.is_text:
            cond, arg = self.text_condition(q, 1)
            return cond, [arg]
        if q.has_name:
            return f"year > {self.mark(1)} AND name = {self.mark(2)}", [q.year_gt, q.name]
        return f"year > {self.mark(1)}", [q.year_gt]

    async def get(self, b: SqlBinding, item_id: int) -> tuple[int, Item | None]:
        st, rows, _ = await b.sql(f"SELECT {COLUMNS} FROM {self.table} WHERE id = {self.mark(1)}", (item_id,))
        if st != OK:
            return st, None
        if not rows:
            return NOT_FOUND, None
        r = rows[0]
        return OK, Item(int(r[0]), text(r[1]), int(r[2]), text(r[3]))

    async def query(self, b: SqlBinding, q: Query, count: bool) -> tuple[int, Page]:
        cond, args = self.where(q)
        n = len(args)
        order = " ORDER BY id" if q.sort == "id" else ""
        st, rows, _ = await b.sql(f"SELECT {COLUMNS} FROM {self.table} WHERE {cond}{order} LIMIT {self.mark(n + 1)} "
                                  f"OFFSET {self.mark(n + 2)}", (*args, q.limit, q.offset))
        if st != OK:
            return st, Page(())
        total = None
        if count:
            st, counted, _ = await b.sql(f"SELECT count(*) FROM {self.table} WHERE {cond}", args)
            if st != OK:
                return st, Page(())
            total = int(only(counted))
        return OK, Page(tuple(int(r[0]) for r in rows), total)

    async def update(self, b: SqlBinding, item: Item) -> int:
        m = self.mark
        st, _, matched = await b.sql(f"UPDATE {self.table} SET name = {m(1)}, year = {m(2)}, description = {m(3)} "
                                     f"WHERE id = {m(4)}", (item.name, item.year, item.description, item.id))
        return st if st != OK else OK if matched else NOT_FOUND

    async def insert(self, b: SqlBinding, items: list[Item]) -> int:
        rows = ", ".join(f"({', '.join(self.mark(4 * i + k) for k in range(1, 5))})" for i in range(len(items)))
        params: list[object] = []
        for it in items:
            params += (it.id, it.name, it.year, it.description)
        st, _, _ = await b.sql(f"INSERT INTO {self.table} ({COLUMNS}) VALUES {rows}", params)
        return st

    async def until(self, b: SqlBinding, statement: str, params: tuple, want: int, tries: int = 60,
                    redo: Callable[[], Awaitable[int]] | None = None) -> int:
        """OK once ``statement`` (a count) answers ``want``; a statement longer than the operation timeout
        (an index built over the loaded items) goes on in the server, and the count asked on the same
        connection answers after it: asked again, up to ``tries`` timeouts. A count that answers below ``want``
        says the statement ended without its effect: a driver that cancels what outlasts its timeout
        (asyncpg) cancelled it, and ``redo`` runs it again at once (where not given, the count is asked
        again after 0.5 s). ERROR, or TIMEOUT after them."""
        st = TIMEOUT
        for _ in range(tries):
            st, rows, _ = await b.sql(statement, params)
            if st == OK and rows and int(only(rows)) >= want:
                return OK
            if st not in (OK, TIMEOUT):
                return st
            if st == OK and redo is not None:
                st = await redo()
                if st not in (OK, TIMEOUT):
                    return st
            elif st == OK:
                await asyncio.sleep(0.5)
        b.last_error = f"still waiting for {statement!r} to reach {want} ({b.last_error})"
        return TIMEOUT if st == TIMEOUT else ERROR

    async def run_all(self, b: SqlBinding, statements: list[str]) -> int:
        """Each statement in turn (DDL); the first status that is not OK."""
        for statement in statements:
            st, _, _ = await b.sql(statement)
            if st != OK:
                return st
        return OK
