"""PostgreSQL (``postgresql://user@host:port/db``): wire-protocol or asyncpg bindings, YCSB's jdbc layout."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from ycsbctl.errors import UserError
from ycsbctl.stores.base import Reading, ServerFacts
from ycsbctl.stores.capabilities import FootprintReading, RealYcsb, Replication, ReportedPid, StallCause, Tls
from ycsbctl.stores.postgresql.media_items import PostgresItems
from ycsbctl.stores.registry import register
from ycsbctl.stores.sql.protocol import SqlProtocol, no_database, only, server_lacks
from ycsbctl.workload.media_items.contract import WORKLOAD as MEDIA_ITEMS

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.sampler import Sampler

USER = "ycsb"  # the superuser of a server ycsbctl starts (trust authentication on loopback)
DATABASE = "postgres"
# The settings shown beside its numbers: what a server ycsbctl starts runs with (see catalog)
DURABILITY_SETTINGS = ("fsync", "synchronous_commit", "full_page_writes", "wal_level", "shared_buffers")


async def _create_table(conn, properties: dict[str, str]) -> None:
    """YCSB's table, unless it exists. Asked first: even CREATE TABLE IF NOT EXISTS needs CREATE on the
    schema, which a read-only role measuring reads lacks ("permission denied for schema public"). The
    engine's worker processes open their bindings at once, and two concurrent CREATE TABLE IF NOT EXISTS
    race in PostgreSQL's catalog (a unique violation on pg_type): one advisory lock (held for the
    transaction) makes them take turns."""
    from ycsbctl.stores.sql.layout import create_table, field_names, identifier, ycsb_layout

    if not ycsb_layout(properties):
        return
    table = identifier(properties.get("table", "usertable"), "table")
    if await conn.fetchval("SELECT to_regclass($1) IS NOT NULL", table):
        return
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(hashtext('ycsbctl create table'))")
        await conn.execute(create_table(table, field_names(properties)))


INVALID_CATALOG_NAME = "3D000"  # SQLSTATE of 'database "…" does not exist'
INVALID_AUTHORIZATION = "28000"  # SQLSTATE of 'role "…" does not exist' (and of a pg_hba.conf refusal)
SSL_REQUEST = b"\x00\x00\x00\x08\x04\xd2\x16\x2f"  # the 8 bytes a PostgreSQL client may open with (SSLRequest)


def _not_postgresql(url: str, timeout_s: float) -> str | None:
    """What a server at ``url`` answered PostgreSQL's opening request with, when it is not PostgreSQL's one-byte
    answer (``S`` or ``N``) — another kind of server, or one that greeted first; None when it is (or cannot be
    asked)."""
    import socket

    u = urlsplit(url)
    try:
        with socket.create_connection((u.hostname or "127.0.0.1", u.port or 5432), timeout=timeout_s) as sock:
            sock.sendall(SSL_REQUEST)
            data = sock.recv(64)
    except OSError:
        return None
    if data[:1] in (b"S", b"N"):
        return None
    if not data:
        return "not a PostgreSQL server: it closed the connection at PostgreSQL's opening request"
    return f"not a PostgreSQL server: it answered PostgreSQL's opening request with {data[:40]!r}"


class PostgresProtocol(SqlProtocol, Tls, StallCause, Replication, ReportedPid, FootprintReading, RealYcsb):
    name = "postgresql"
    executors = {MEDIA_ITEMS: PostgresItems}
    schemes = ("postgresql", "postgres")
    example = "postgresql://user@host:port/db"
    password_hint = "postgresql://USER:PASSWORD@host:port/db"
    duplicate_insert = ("duplicate key value violates unique constraint",)  # SQLSTATE 23505, either driver
    footprint_basis = "pg_total_relation_size"
    jdbc_driver = "org.postgresql.Driver"
    url_scheme, server_user, server_database = "postgresql", USER, DATABASE
    forks_per_connection = True

    def admin_errors(self) -> tuple[type[BaseException], ...]:
        """asyncpg's too (:class:`~ycsbctl.stores.postgresql.session.PgSession`): the server's error replies
        (``PostgresError``), a connection it closed (``InterfaceError``), and asyncio's timeout (an ``OSError``
        only from Python 3.11)."""
        import asyncio

        import asyncpg

        return (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)

    def validate(self, url: str) -> None:
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - raises on a bad port
        except ValueError as exc:
            raise UserError(f"bad PostgreSQL URL ({exc}): use {self.example}") from None
        if not parts.hostname or parts.path.strip("/").count("/"):
            raise UserError(f"bad PostgreSQL URL {url!r}: use {self.example}, e.g. "
                            "postgresql://ycsb@127.0.0.1:5432/postgres")
        from ycsbctl.stores.postgresql.wire import tls_of
        from ycsbctl.stores.sql.tls import check_ca
        from ycsbctl.user_input import url_files

        check_ca(tls_of(url))
        url_files(url, ("sslcert", "sslkey"))  # libpq's client certificate and key

    def tls_url(self, url: str, ca_file: str) -> str:
        """``…?sslmode=verify-full&sslrootcert=CA`` (libpq's spelling, which asyncpg and the wire path read)."""
        from ycsbctl.urls import with_query

        return with_query(url, {"sslmode": "verify-full", "sslrootcert": ca_file})

    def check_properties(self, url: str | None, properties: dict[str, str]) -> None:
        from ycsbctl.stores.postgresql.wire import wire_eligible

        wire_eligible(url or self.loopback_url(1), properties)

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        from ycsbctl.stores.binding_set import connect_wire
        from ycsbctl.stores.postgresql.binding import PgBinding
        from ycsbctl.stores.postgresql.wire import PasswordAsked, PgWireBinding, driver_of, wire_eligible

        if wire_eligible(url, properties):
            try:
                bs = await connect_wire([PgWireBinding(url, timeout_s) for _ in range(clients)], timeout_s)
            # PGPASSWORD or ~/.pgpass has it: asyncpg sends it (unless the wire path is asked for)
            except PasswordAsked:
                if driver_of(properties) == "wire":
                    raise
            else:
                try:
                    from ycsbctl.stores.postgresql.session import connect_async

                    conn = await connect_async(url, timeout_s)
                    try:
                        await _create_table(conn, properties)
                    finally:
                        await conn.close()
                except BaseException:
                    await bs.close()
                    raise
                return bs
        return await self.connect_all([PgBinding(url, timeout_s) for _ in range(clients)],
                                      lambda b: _create_table(b.conn, properties))

    def query(self, url: str, sql: str, timeout_s: float) -> list[tuple[Any, ...]]:
        from ycsbctl.stores.postgresql.session import query

        return query(url, sql, timeout_s)

    def table_exists(self, url: str, table: str) -> bool:
        from ycsbctl.stores.postgresql.session import query

        return only(query(url, "SELECT to_regclass($1) IS NOT NULL", 5.0, table))

    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        from ycsbctl.stores.postgresql.wire import UNTRUSTED_FIX
        from ycsbctl.stores.sql.tls import ping_with_hint

        try:
            ping_with_hint(lambda: self.query(url, "SELECT 1", timeout_s), UNTRUSTED_FIX)
        except Exception as exc:
            # asyncpg says "rejected SSL upgrade" of any first reply but PostgreSQL's S or N: another kind of server
            # (Tarantool greets first) is no TLS question; a real server refusing TLS the URL requires still is
            if "rejected SSL upgrade" in str(exc):  # another server, or a PostgreSQL that answered the SSLRequest N
                from ycsbctl.stores.postgresql.wire import NO_TLS

                raise ConnectionError(_not_postgresql(url, timeout_s) or f"{exc}: it {NO_TLS}") from None
            # a PostgreSQL server, without the URL's database
            if getattr(exc, "sqlstate", None) == INVALID_CATALOG_NAME:
                raise no_database(url, exc) from None
            if getattr(exc, "sqlstate", None) == INVALID_AUTHORIZATION and "does not exist" in str(exc):
                role = urlsplit(url).username or ""
                raise server_lacks(url, "role", role, exc, f"CREATE ROLE \"{role}\" LOGIN PASSWORD '…'") from None
            raise

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        from ycsbctl.stores.postgresql.session import PgSession

        with PgSession(url, 5.0) as s:
            version = str(only(s.fetch("SHOW server_version"))).split()[0]
            settings = dict(s.fetch("SELECT name, setting FROM pg_settings"))
            # what the server itself says of this connection (the same URL as the engine's clients)
            ssl, tls, cipher = next(iter(s.fetch("SELECT ssl, version, cipher FROM pg_stat_ssl WHERE pid = "
                                                 "pg_backend_pid()")), (False, None, None))  # its row: one
        durability = ", ".join(f"{k}={settings[k]}" for k in DURABILITY_SETTINGS if k in settings)
        config: dict[str, Any] = {"pg_settings": settings, "durability": durability}
        # the report shows the name beside the numbers: what the server promises about a commit goes in it
        shown = ", ".join(f"{k}={settings[k]}" for k in DURABILITY_SETTINGS[:3] if k in settings)
        traits: dict[str, Any] = {"server": "PostgreSQL", "version": version, "durability": durability}
        if ssl:
            traits["tls"] = f"{tls} {cipher}"  # every point of this target is encrypted
        return ServerFacts(f"PostgreSQL {version} ({shown})", version, config, traits)

    def reported_pid(self, url: str) -> int | None:
        """The postmaster's PID: the parent of the backend serving this connection (``pg_backend_pid()``, which
        any user may call — ``data_directory`` needs a superuser or pg_read_all_settings); None when that
        backend is not a process of this host."""
        import psutil

        from ycsbctl.stores.postgresql.session import PgSession

        with PgSession(url, 5.0) as session:  # the backend lives as long as its connection: ask while it is open
            backend = int(only(session.fetch("SELECT pg_backend_pid()")))
            try:
                return psutil.Process(backend).ppid() or None
            except psutil.Error:
                return None

    def stall_cause(self, url: str) -> str | None:
        """A primary whose commits wait for synchronous standbys (``synchronous_standby_names`` set, and
        ``synchronous_commit`` on, remote_write or remote_apply) while none is connected as one
        (``pg_stat_replication``): every commit waits, the server itself answers."""
        from ycsbctl.stores.postgresql.session import PgSession

        with PgSession(url, 5.0) as s:
            names = str(only(s.fetch("SHOW synchronous_standby_names")))
            commit = str(only(s.fetch("SHOW synchronous_commit")))
            syncs = int(only(s.fetch("SELECT count(*) FROM pg_stat_replication WHERE sync_state IN ('sync', "
                                     "'quorum')")))
        if not names or commit not in ("on", "remote_write", "remote_apply") or syncs:
            return None
        return (f"the primary's commits wait for a synchronous standby (synchronous_standby_names = '{names}', "
                f"synchronous_commit = {commit}) and none is connected: start the standby, or clear "
                "synchronous_standby_names")

    def replicas(self, url: str) -> list[str] | None:
        """The standbys streaming from this primary (``pg_stat_replication``), by ``application_name``."""
        from ycsbctl.stores.postgresql.session import PgSession

        with PgSession(url, 5.0) as s:
            rows = s.fetch("SELECT application_name, host(client_addr), state FROM pg_stat_replication "
                           "ORDER BY application_name")
        return [f"standby {name or '?'}" + (f" ({addr})" if addr else "") for name, addr, state in rows
                if state == "streaming"]

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        from ycsbctl.stores.postgresql.stats import PgStatSampler

        return [PgStatSampler(url, interval_s)]

    def reading(self, url: str) -> Reading:
        from ycsbctl.stores.postgresql.session import PgSession
        from ycsbctl.stores.postgresql.stats import database_bytes, relation_bytes

        with PgSession(url, 5.0) as s:  # every table's: YCSB's usertable, or a workload plug-in's (media-items)
            size = database_bytes(s)
            rows = (
                int(only(s.fetch("SELECT COUNT(*) FROM usertable")))
                if relation_bytes(s, "usertable") is not None
                else 0
            )
        return Reading(size, None, rows, {"data_size_bytes": size})

    def ycsb_binding(self, url: str, timeout_s: float) -> tuple[str, dict[str, str]]:
        from ycsbctl.stores.postgresql.wire import tls_of

        parts = urlsplit(url)
        db = parts.path.strip("/") or DATABASE
        tls, query = tls_of(url), ""
        if tls is not None:  # pgjdbc reads libpq's names
            mode = "verify-full" if tls.check_hostname else ("verify-ca" if tls.verify else "require")
            query = f"?sslmode={mode}" + (f"&sslrootcert={tls.ca_file}" if tls.ca_file else "")
        props = {"db.driver": self.jdbc_driver,
                 "db.url": f"jdbc:postgresql://{parts.hostname}:{parts.port or 5432}/{db}{query}",
                 "db.user": unquote(parts.username or "postgres"), "db.passwd": unquote(parts.password or "")}
        return "jdbc", props


PROTOCOL = register(PostgresProtocol())
