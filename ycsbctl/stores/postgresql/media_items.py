"""media-items on PostgreSQL: a table with a primary key on ``id``, B-tree indexes on ``name`` and on
``year``, and a GIN index on a stored ``tsvector`` column of ``description`` (the ``simple`` text search
configuration: words as they are, no stemming, no stop words — as every other store here matches them).
FULLTEXT is ``words @@ to_tsquery('simple', 'w1 | w2')``, FULLTEXT-PREFIX ``'p1:* | p2:*'`` (the study
did not run PostgreSQL). After its load, ``VACUUM (ANALYZE)`` (the GIN index's pending list merged,
statistics for the planner), as after any bulk load; the indexes are built then too (after the load).

The GIN index is made with ``fastupdate = off``: PostgreSQL's manual advises it "if consistent response time
is more important than update speed". With the default (on), an UPDATE adds its 50 words to the index's
pending list, and the one whose entry overflows ``gin_pending_list_limit`` (4 MB) merges the whole list into
the index before it returns: measured here at 50 connections, 5 of 66,882 UPDATEs in 20 s took 2.2-6.9 s
each while the others ran on at 3,344/s (the study's UPDATE point: one of 7.5 s, judged a stall); with
``fastupdate = off``, none over 0.5 s, at 3,024/s (−10 %)."""

from __future__ import annotations

import functools
from typing import ClassVar

from ycsbctl.stores.sql.media_items import SqlItems
from ycsbctl.workload.media_items.contract import Query
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX
from ycsbctl.workload.plugin import OK, TIMEOUT, SqlBinding


class PostgresItems(SqlItems):
    protocol: ClassVar[str] = "postgresql"
    dollar: ClassVar[bool] = True
    indexes: ClassVar[str] = ("primary key (id); B-tree on name and on year; GIN (fastupdate off: no pending-list "
                              "merges inside an UPDATE) on a stored tsvector of description (to_tsvector('simple', "
                              "…): no stemming, no stop words)")
    differs: ClassVar[dict[int, str]] = {
        FULLTEXT: "words @@ to_tsquery('simple', 'w1 | w2') (the study ran no PostgreSQL)",
        FULLTEXT_PREFIX: "words @@ to_tsquery('simple', 'p1:* | p2:*') (the study ran no PostgreSQL)",
    }

    def text_condition(self, q: Query, n: int) -> tuple[str, str]:
        star = ":*" if q.is_prefix else ""
        return f"words @@ to_tsquery('simple', ${n})", " | ".join(w + star for w in q.words)

    async def setup(self, b: SqlBinding) -> int:
        """The table alone: its indexes are built after the load (:meth:`ready`), as PostgreSQL's manual
        advises for a bulk load (50 writers keeping a GIN index up to date each wait on its pending list's
        clean-ups: a 100-item INSERT took longer than 10 s here)."""
        return await self.locked(b, [
            f"CREATE TABLE IF NOT EXISTS {self.table} (id integer PRIMARY KEY, name text NOT "
            "NULL, year integer NOT NULL, "
            "description text NOT NULL, words tsvector GENERATED ALWAYS AS (to_tsvector('simple', description)) "
            "STORED)"])

    async def ready(self, b: SqlBinding) -> int:
        """The indexes (made once, after the first load), then ``VACUUM (ANALYZE)``. A statement may take longer
        than one operation's timeout (the GIN index over 100,000 items): the server goes on, and this waits
        for its effect (the index listed, the table analysed) before the next statement."""
        t = self.table
        indexes = [f"CREATE INDEX IF NOT EXISTS {t}_name ON {t} (name)",
                   f"CREATE INDEX IF NOT EXISTS {t}_year ON {t} (year)",
                   f"CREATE INDEX IF NOT EXISTS {t}_words ON {t} USING gin (words) WITH (fastupdate = off)"]
        for k, statement in enumerate(indexes, 2):  # the primary key's index is the first
            st = await self.locked(b, [statement])
            if st == TIMEOUT:  # asyncpg cancelled it (the wire binding's goes on): run again, not waited for
                st = await self.until(b, "SELECT count(*) FROM pg_indexes WHERE tablename = $1", (t,), k,
                                      redo=functools.partial(self.locked, b, [statement]))
            if st != OK:
                return st
        vacuum = [f"VACUUM (ANALYZE) {t}"]
        st = await self.run_all(b, vacuum)
        if st == TIMEOUT:
            st = await self.until(b, "SELECT count(*) FROM pg_stat_user_tables WHERE relname = $1 AND "
                                     "(last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL)", (t,), 1,
                                  redo=functools.partial(self.run_all, b, vacuum))
        return st

    async def locked(self, b: SqlBinding, statements: list[str]) -> int:
        """``statements`` under one advisory lock: the worker processes take turns."""
        lock = "hashtext('ycsbctl media-items')"
        st = await self.run_all(b, [f"SELECT pg_advisory_lock({lock})"])
        if st != OK:
            return st
        try:
            return await self.run_all(b, statements)
        finally:
            await b.sql(f"SELECT pg_advisory_unlock({lock})")

