"""What the SQL stores' admin calls share: count and clear through one query function per store."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from ycsbctl.errors import UserError
from ycsbctl.stores.base import ServerProtocol
from ycsbctl.stores.capabilities import ServerUrls
from ycsbctl.stores.sql.layout import identifier

if TYPE_CHECKING:
    from ycsbctl.stores.binding import Binding
    from ycsbctl.stores.binding_set import BindingSet


def server_lacks(url: str, what: str, name: str, said: object, create: str) -> UserError:
    """The one line for a server that answered but has not the ``what`` (database, role) named ``name`` that
    ``url`` names (``said``: its own words), and the statement that creates it."""
    from ycsbctl.urls import redact_url

    return UserError(f"{redact_url(url)}: the server has no {what} {name!r} ({said})",
                     fix=f"create it ({create}), or name a {what} it has in the URL", exit_code=1)


def no_database(url: str, said: object) -> UserError:
    """:func:`server_lacks` of the database ``url`` names."""
    from urllib.parse import urlsplit

    db = urlsplit(url).path.strip("/")
    return server_lacks(url, "database", db, said, f"CREATE DATABASE {db}")


def only(rows: Sequence[Sequence[Any]]) -> Any:
    """The one value of an answer of one row and one column (``SHOW x``, ``SELECT count(*) ...``); a
    ValueError when the answer has any other shape (never a value taken from the wrong row)."""
    (row,) = rows
    (value,) = row
    return value


class SqlProtocol(ServerProtocol, ServerUrls):
    """A store of YCSB's jdbc layout. Subclasses answer :meth:`query` (one statement on a short-lived
    admin connection of their own, never the engine's) and the JDBC facts YCSB's binding needs."""

    jdbc_driver: str = ""  # the JDBC driver class YCSB's jdbc binding loads (db.driver)
    url_scheme: str = ""  # of the URLs ycsbctl makes for the servers it starts
    server_user: str = ""  # … their user, and database
    server_database: str = ""

    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        where = f"[{host}]" if ":" in host else host
        auth = f"{self.server_user}:{password}@" if password else f"{self.server_user}@"
        return f"{self.url_scheme}://{auth}{where}:{port}/{self.server_database}"

    @staticmethod
    async def connect_all(bindings: Sequence[Binding], first: Callable[[Any], Awaitable[None]]) -> BindingSet:
        """The driver bindings (asyncpg's, asyncmy's) connected, ``first(bindings[0])`` run once they
        are (it creates the table); every one closed when any of it fails."""
        from ycsbctl.stores.binding_set import BindingSet

        bs = BindingSet(list(bindings))
        try:
            for b in bindings:
                await b.connect()
            if bindings:
                await first(bindings[0])
        except BaseException:
            await bs.close()
            raise
        return bs

    def open_without_credentials(self, url: str) -> bool:
        """Never: a SQL server authenticates each user on its own, so that another user (the driver's default
        one, which a URL without credentials connects as) gets in without a password says nothing of the URL's."""
        return False

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
        return int(only(self.query(url, f"SELECT COUNT(*) FROM {identifier(table, 'table')}", 5.0)))
