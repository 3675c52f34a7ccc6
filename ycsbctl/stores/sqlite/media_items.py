"""media-items on SQLite: the items table (``id INTEGER PRIMARY KEY``: the rowid) with indexes on ``name``
and on ``year``, and an FTS5 index of ``description`` kept by triggers as an external-content table (the
FTS5 documentation's way: the text is stored once; the study kept a second copy of every item in its
FTS table). FULLTEXT is ``items_fts MATCH 'w1 OR w2'``, FULLTEXT-PREFIX ``'p1* OR p2*'`` — the study's
FTS5 queries, ordered by id rather than by ``rank``. ``ANALYZE`` after the load."""

from __future__ import annotations

from typing import ClassVar

from ycsbctl.stores.sql.media_items import SqlItems
from ycsbctl.workload.media_items.contract import Query
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX
from ycsbctl.workload.plugin import OK, SqlBinding


class SqliteItems(SqlItems):
    protocol: ClassVar[str] = "sqlite"
    indexes: ClassVar[str] = ("rowid primary key (id); B-tree on name and on year; FTS5 (unicode61) on description, "
                              "an external-content table kept by triggers")
    differs: ClassVar[dict[int, str]] = {
        FULLTEXT: "ORDER BY id instead of the study's ORDER BY rank (the same page in every store)",
        FULLTEXT_PREFIX: "ORDER BY id instead of the study's ORDER BY rank (the same page in every store)",
    }

    def text_condition(self, q: Query, n: int) -> tuple[str, str]:
        star = "*" if q.is_prefix else ""
        return (f"id IN (SELECT rowid FROM {self.table}_fts WHERE {self.table}_fts MATCH ?)",
                " OR ".join(w + star for w in q.words))

    async def setup(self, b: SqlBinding) -> int:
        """In one write transaction (the worker processes take turns): a new table gets a new FTS5 index
        (one left by an earlier load, whose table was dropped, is dropped too)."""
        t = self.table
        st = await self.run_all(b, ["BEGIN IMMEDIATE"])
        if st != OK:
            return st
        st, rows, _ = await b.sql("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (t,))
        if st == OK and not rows:
            st = await self.create(b)
        await b.sql("COMMIT" if st == OK else "ROLLBACK")
        return st

    async def create(self, b: SqlBinding) -> int:
        t = self.table
        return await self.run_all(b, [
            f"DROP TABLE IF EXISTS {t}_fts",
            f"CREATE TABLE IF NOT EXISTS {t} (id INTEGER PRIMARY KEY, name TEXT NOT NULL, year INTEGER NOT NULL, "
            "description TEXT NOT NULL)",
            f"CREATE INDEX IF NOT EXISTS {t}_name ON {t} (name)",
            f"CREATE INDEX IF NOT EXISTS {t}_year ON {t} (year)",
            f"CREATE VIRTUAL TABLE IF NOT EXISTS {t}_fts USING fts5(description, content='{t}', content_rowid='id')",
            f"CREATE TRIGGER IF NOT EXISTS {t}_ai AFTER INSERT ON {t} BEGIN "
            f"INSERT INTO {t}_fts (rowid, description) VALUES (new.id, new.description); END",
            f"CREATE TRIGGER IF NOT EXISTS {t}_ad AFTER DELETE ON {t} BEGIN "
            f"INSERT INTO {t}_fts ({t}_fts, rowid, description) VALUES ('delete', old.id, old.description); END",
            f"CREATE TRIGGER IF NOT EXISTS {t}_au AFTER UPDATE ON {t} BEGIN "
            f"INSERT INTO {t}_fts ({t}_fts, rowid, description) VALUES ('delete', old.id, old.description); "
            f"INSERT INTO {t}_fts (rowid, description) VALUES (new.id, new.description); END",
        ])

    async def ready(self, b: SqlBinding) -> int:
        return await self.run_all(b, ["ANALYZE"])

