"""MariaDB / MySQL (``mysql://user:password@host:port/db``): wire-protocol or asyncmy bindings, YCSB's jdbc layout."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ycsbctl.errors import UserError
from ycsbctl.stores.base import Reading, ServerFacts
from ycsbctl.stores.capabilities import CoreLimit, FootprintReading, RealYcsb, ReportedPid, Tls
from ycsbctl.stores.mariadb.media_items import MariaItems
from ycsbctl.stores.registry import register
from ycsbctl.stores.sql.protocol import SqlProtocol, no_database, only
from ycsbctl.workload.media_items.contract import WORKLOAD as MEDIA_ITEMS

ER_BAD_DB = 1049  # "Unknown database '…'": the server answered, the URL names a database it does not have

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.sampler import Sampler

USER = "root"  # a server ycsbctl starts lets root in over TCP without a password (loopback, or the container's port)
# What a commit is promised (shown beside the numbers), from SHOW GLOBAL VARIABLES
DURABILITY_VARIABLES = ("innodb_flush_log_at_trx_commit", "innodb_doublewrite", "log_bin", "sync_binlog")


async def _ensure_table(url: str, properties: dict[str, str], timeout_s: float) -> None:
    """YCSB's table, unless it exists, on an asyncmy connection of its own."""
    from ycsbctl.stores.mariadb.binding import MariaBinding

    b = MariaBinding(url, timeout_s)
    await b.connect()
    try:
        await b.ensure_table(properties)
    finally:
        await b.close()


async def _nothing() -> None:
    """No table to create (a workload plug-in creates its own)."""


class MariaProtocol(SqlProtocol, Tls, ReportedPid, FootprintReading, CoreLimit, RealYcsb):
    name = "mysql"
    executors = {MEDIA_ITEMS: MariaItems}
    schemes = ("mysql", "mariadb")
    example = "mysql://user:password@host:port/db"
    password_hint = "mysql://USER:PASSWORD@host:port/db"
    duplicate_insert = ("Duplicate entry '",)  # ER_DUP_ENTRY (error 1062), either driver
    footprint_basis = "innodb data_length+index_length"
    jdbc_driver = "org.mariadb.jdbc.Driver"
    url_scheme, server_user, server_database = "mysql", USER, "ycsb"

    def validate(self, url: str) -> None:
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 - raises on a bad port
        except ValueError as exc:
            raise UserError(f"bad MySQL URL ({exc}): use {self.example}") from None
        if not parts.hostname or "/" in parts.path.strip("/"):
            raise UserError(f"bad MySQL URL {url!r}: use {self.example}, e.g. mysql://root@127.0.0.1:3306/ycsb")
        from ycsbctl.stores.mariadb.session import tls_of
        from ycsbctl.stores.sql.tls import check_ca
        from ycsbctl.user_input import url_files

        check_ca(tls_of(url))
        url_files(url, ("ssl_cert", "ssl_key"))  # PyMySQL's client certificate and key

    def tls_url(self, url: str, ca_file: str) -> str:
        """``…?ssl=true&ssl_ca=CA`` (PyMySQL's keyword names, which every client here reads)."""
        from ycsbctl.urls import with_query

        return with_query(url, {"ssl": "true", "ssl_ca": ca_file})

    def check_properties(self, url: str | None, properties: dict[str, str]) -> None:
        from ycsbctl.stores.mariadb.wire import wire_eligible

        wire_eligible(url or self.loopback_url(1), properties)

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        from ycsbctl.stores.binding_set import connect_wire
        from ycsbctl.stores.mariadb.binding import MariaBinding
        from ycsbctl.stores.mariadb.wire import MariaWireBinding, wire_eligible
        from ycsbctl.stores.sql.layout import ycsb_layout

        if wire_eligible(url, properties):
            if ycsb_layout(properties):
                await _ensure_table(url, properties, timeout_s)
            return await connect_wire([MariaWireBinding(url, timeout_s) for _ in range(clients)], timeout_s)
        return await self.connect_all([MariaBinding(url, timeout_s) for _ in range(clients)],
                                      lambda b: b.ensure_table(properties) if ycsb_layout(properties) else _nothing())

    def query(self, url: str, sql: str, timeout_s: float) -> list[tuple[Any, ...]]:
        from ycsbctl.stores.mariadb.session import query

        return query(url, sql, timeout_s)

    def table_exists(self, url: str, table: str) -> bool:
        from ycsbctl.stores.mariadb.session import query

        return bool(query(url, "SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() "
                               "AND table_name = %s", 5.0, table))

    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        from ycsbctl.stores.mariadb.wire import UNTRUSTED_FIX
        from ycsbctl.stores.sql.tls import ping_with_hint

        try:
            ping_with_hint(lambda: self.query(url, "SELECT 1", timeout_s), UNTRUSTED_FIX)
        except Exception as exc:
            if exc.args[:1] == (ER_BAD_DB,):  # a MariaDB server, without the URL's database
                raise no_database(url, exc.args[1]) from None
            raise

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        from ycsbctl.stores.mariadb.session import connect

        conn = connect(url, 5.0)
        try:
            with conn.cursor() as cur:
                cur.execute("SHOW GLOBAL VARIABLES")
                variables = {str(k): str(v) for k, v in cur.fetchall()}
                # what the server itself says of this session (the same URL as the engine's clients)
                cur.execute("SHOW SESSION STATUS WHERE Variable_name IN ('Ssl_version', 'Ssl_cipher')")
                ssl_status = {str(k): str(v) for k, v in cur.fetchall()}
        finally:
            conn.close()
        version = variables.get("version", "").split("-")[0]
        product = "MariaDB" if "mariadb" in variables.get("version", "").lower() else "MySQL"
        durability = ", ".join(f"{k}={variables[k]}" for k in DURABILITY_VARIABLES if k in variables)
        config: dict[str, Any] = {"variables": variables, "durability": durability}
        traits: dict[str, Any] = {"server": product, "version": version, "durability": durability}
        if ssl_status.get("Ssl_cipher"):
            traits["tls"] = f"{ssl_status.get('Ssl_version', '')} {ssl_status['Ssl_cipher']}".strip()
        return ServerFacts(f"{product} {version} ({durability})", version, config, traits)

    def reported_pid(self, url: str) -> int | None:
        """The server's PID, from its pid file (a server on this host)."""
        from ycsbctl.stores.mariadb.session import query

        path = only(query(url, "SELECT @@pid_file", 5.0))
        try:
            with open(path) as f:
                return int(f.readline().strip())
        except (OSError, ValueError, TypeError):
            return None

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        from ycsbctl.stores.mariadb.stats import MariaStatusSampler

        return [MariaStatusSampler(url, interval_s)]

    def reading(self, url: str) -> Reading:
        from ycsbctl.stores.mariadb.session import connect
        from ycsbctl.stores.mariadb.stats import database_bytes, table_bytes

        conn = connect(url, 30.0)
        try:  # every table's: YCSB's usertable, or a workload plug-in's (media-items, with its FULLTEXT index)
            size = database_bytes(conn)
            with conn.cursor() as cur:
                cur.execute("SELECT COUNT(*) FROM usertable" if table_bytes(conn,
                                                                            "usertable") is not None else "SELECT 0")
                rows = int(cur.fetchone()[0])
        finally:
            conn.close()
        return Reading(size, None, rows, {"data_size_bytes": size})

    def ycsb_binding(self, url: str, timeout_s: float) -> tuple[str, dict[str, str]]:
        from ycsbctl.stores.mariadb.session import connect_args, tls_of

        a = connect_args(url)
        tls, query = tls_of(url), ""
        if tls is not None:  # MariaDB Connector/J 3's spelling
            mode = "verify-full" if tls.check_hostname else ("verify-ca" if tls.verify else "trust")
            query = f"?sslMode={mode}" + (f"&serverSslCert={tls.ca_file}" if tls.ca_file else "")
        return "jdbc", {"db.driver": self.jdbc_driver,
                        "db.url": f"jdbc:mariadb://{a['host']}:{a['port']}/{a['db']}{query}",
                        "db.user": a["user"], "db.passwd": a["password"]}

    def server_cores(self, target: str, limit: float) -> float:
        return limit  # a thread per connection


PROTOCOL = register(MariaProtocol())
