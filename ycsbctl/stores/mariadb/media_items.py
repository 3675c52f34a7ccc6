"""media-items on MariaDB / MySQL (the registry's ``mysql`` store): the study's own MySQL table — InnoDB,
primary key on ``id``, ``INDEX (year)``, ``INDEX (name)``, ``FULLTEXT (description)`` — and its queries:
FULLTEXT is ``MATCH (description) AGAINST ('w1 w2' IN BOOLEAN MODE)``, FULLTEXT-PREFIX ``'p1* p2*'``
(InnoDB's default stop words and 3-letter minimum never meet the study's 5–9-letter words)."""

from __future__ import annotations

from typing import ClassVar

from ycsbctl.stores.sql.media_items import SqlItems
from ycsbctl.stores.sql.protocol import only
from ycsbctl.workload.media_items.contract import Query
from ycsbctl.workload.plugin import OK, TIMEOUT, SqlBinding


class MariaItems(SqlItems):
    protocol: ClassVar[str] = "mysql"
    indexes: ClassVar[str] = (
        "primary key (id); B-tree on name and on year; InnoDB FULLTEXT on description (the study's)"
    )

    def text_condition(self, q: Query, n: int) -> tuple[str, str]:
        star = "*" if q.is_prefix else ""
        return "MATCH (description) AGAINST (? IN BOOLEAN MODE)", " ".join(w + star for w in q.words)

    async def setup(self, b: SqlBinding) -> int:
        """The table with its primary key; the other indexes are added after the load (:meth:`ready`), as
        InnoDB's FULLTEXT documentation advises for loading a large data set."""
        st, rows, _ = await b.sql("SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() "
                                  "AND table_name = ?", (self.table,))
        if st != OK or rows:
            return st
        return await self.run_all(b, [
            f"CREATE TABLE IF NOT EXISTS {self.table} (id INTEGER NOT NULL PRIMARY KEY, name VARCHAR(255) NOT NULL, "
            "year INTEGER NOT NULL, description TEXT NOT NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4"])

    async def ready(self, b: SqlBinding) -> int:
        """The study's FULLTEXT (description), INDEX (year), INDEX (name), once, after the first load."""
        st, rows, _ = await b.sql("SELECT count(DISTINCT index_name) FROM information_schema.statistics WHERE "
                                  "table_schema = DATABASE() AND table_name = ? AND index_name <> 'PRIMARY'",
                                  (self.table,))
        if st != OK or int(only(rows)) >= 3:
            return st
        st = await self.run_all(b, [
            f"ALTER TABLE {self.table} ADD FULLTEXT INDEX IF NOT EXISTS description (description), "
            "ADD INDEX IF NOT EXISTS year (year), ADD INDEX IF NOT EXISTS name (name)"])
        if st == TIMEOUT:  # longer than one operation's timeout: the server goes on; wait for the three
            st = await self.until(b, "SELECT count(DISTINCT index_name) FROM information_schema.statistics WHERE "
                                     "table_schema = DATABASE() AND table_name = ? AND index_name <> 'PRIMARY'",
                                  (self.table,), 3)
        return st

