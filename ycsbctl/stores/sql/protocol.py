"""What the SQL stores' admin calls share: count and clear through one query function per store."""

from __future__ import annotations

from typing import Any

from ycsbctl.stores.base import ServerProtocol
from ycsbctl.stores.sql.layout import identifier


class SqlProtocol(ServerProtocol):
    """A store of YCSB's jdbc layout. Subclasses answer :meth:`query` (one statement on a short-lived
    admin connection of their own, never the engine's) and the JDBC facts YCSB's binding needs."""

    jdbc_driver: str = ""  # the JDBC driver class YCSB's jdbc binding loads (db.driver)

    def query(self, url: str, sql: str, timeout_s: float) -> list[tuple[Any, ...]]:
        """The rows of ``sql`` run at ``url`` (autocommit)."""
        raise NotImplementedError

    def table_exists(self, url: str, table: str) -> bool:
        raise NotImplementedError

    def clear(self, url: str, table: str) -> None:
        """Drop the table a load created (the next load creates it again)."""
        self.query(url, f"DROP TABLE IF EXISTS {identifier(table, 'table')}", 60.0)

    def count(self, url: str, table: str) -> int | None:
        """Rows in ``table`` (0 when there is none yet)."""
        if not self.table_exists(url, table):
            return 0
        return int(self.query(url, f"SELECT COUNT(*) FROM {identifier(table, 'table')}", 5.0)[0][0])
