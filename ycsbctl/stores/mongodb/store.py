"""The MongoDB protocol (Percona Server for MongoDB, MongoDB, FerretDB): ``mongodb://`` URLs."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ycsbctl.errors import UserError, short_error
from ycsbctl.stores.base import Reading, ServerFacts, ServerProtocol, StandIn
from ycsbctl.stores.capabilities import Disturbing, FootprintReading, RealYcsb, ReportedPid, ServerUrls, Tls
from ycsbctl.stores.mongodb.admin import client
from ycsbctl.stores.mongodb.media_items import MongoItems
from ycsbctl.stores.mongodb.online_status import MongoExecutor
from ycsbctl.stores.registry import register
from ycsbctl.workload.media_items.contract import WORKLOAD as MEDIA_ITEMS
from ycsbctl.workload.online_status.ops import WORKLOAD as ONLINE_STATUS

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.disturb import Disturber, DisturbSpec
    from ycsbctl.stores.sampler import Sampler


class MongoProtocol(ServerProtocol, ServerUrls, Tls, ReportedPid, FootprintReading, RealYcsb, Disturbing):
    name = "mongodb"
    executors = {MEDIA_ITEMS: MongoItems, ONLINE_STATUS: MongoExecutor}
    schemes = ("mongodb", "mongodb+srv")
    example = "mongodb://host:port/db"
    url_lists_hosts = True
    ycsb_db_class = "db.MongoDbClient"
    ycsb_log_db_classes = ("AsyncMongoDbClient",)  # YCSB's mongodb-async binding
    password_hint = "mongodb://USER:PASSWORD@host:port/db"
    duplicate_insert = ("E11000 duplicate key error",)  # MongoDB, FerretDB, either client
    footprint_basis = "cache"
    stand_in = StandIn("ferretdb", "MongoDB")  # the default plan's MongoDB, when mongod cannot be had here

    def admin_errors(self) -> tuple[type[BaseException], ...]:
        """pymongo's too (a server it cannot select, a command the server refused: ``PyMongoError``)."""
        from pymongo.errors import PyMongoError

        return (OSError, PyMongoError)

    def validate(self, url: str) -> None:
        if url.startswith("mongodb+srv://"):
            return  # pymongo's parser would resolve the SRV record here; the connection says what is wrong
        from pymongo.errors import ConfigurationError, InvalidURI
        from pymongo.uri_parser import parse_uri

        from ycsbctl.stores.mongodb.wire import check_url_files

        check_url_files(url)  # a file the URL names that is missing or no certificate: one line, as every store says it
        try:
            parse_uri(url)
        except (InvalidURI, ConfigurationError, ValueError) as exc:
            raise UserError(f"bad MongoDB URL ({exc}): use {self.example}, e.g. "
                            "mongodb://127.0.0.1:27017/ycsb") from None

    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        where = f"[{host}]" if ":" in host else host
        if password:  # the user ycsbctl would create in the admin database
            return f"mongodb://ycsbctl:{password}@{where}:{port}/ycsb?authSource=admin"
        return f"mongodb://{where}:{port}/ycsb"

    def tls_url(self, url: str, ca_file: str) -> str:
        """``mongodb://…?tls=true&tlsCAFile=CA`` (the URI options pymongo and the wire binding read)."""
        from ycsbctl.urls import with_query

        return with_query(url, {"tls": "true", "tlsCAFile": ca_file})

    def check_properties(self, url: str | None, properties: dict[str, str]) -> None:
        from ycsbctl.stores.mongodb.wire import wire_eligible

        wire_eligible(url or self.loopback_url(1), properties)

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        from ycsbctl.stores.binding import ConnectionLost
        from ycsbctl.stores.binding_set import BindingSet, connect_wire
        from ycsbctl.stores.mongodb.wire import MongoWireBinding, wire_eligible

        if wire_eligible(url, properties):
            return await connect_wire([MongoWireBinding(url, timeout_s) for _ in range(clients)], timeout_s)
        from ycsbctl.stores.mongodb.pymongo_binding import MongoBinding, MongoPool

        pool = MongoPool(url, clients, timeout_s, properties)
        try:
            await pool.ping()
        except ConnectionLost:
            await pool.close()
            raise
        return BindingSet([MongoBinding(pool) for _ in range(clients)], shared=pool)

    def plugin_refusal(self, properties: dict[str, str]) -> str | None:
        if properties.get("mongodb.driver", "").strip().lower() == "pymongo":
            return "runs over ycsbctl's own MongoDB wire binding: drop -p mongodb.driver=pymongo"
        return None

    def ycsb_binding(self, url: str, timeout_s: float) -> tuple[str, dict[str, str]]:
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        if parts.path in ("", "/"):  # the binding reads the database from the URL; ours is "ycsb"
            url = parts._replace(path="/ycsb").geturl()
        return "mongodb", {"mongodb.url": url}

    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        """``ping``; a connection that failed for TLS says what to do (:func:`ycsbctl.stores.mongodb.wire.tls_hint`)."""
        from pymongo.errors import PyMongoError

        from ycsbctl.stores.mongodb.wire import tls_hint, wants_tls

        c = client(url, timeout_s)
        try:
            c.admin.command("ping")
        except PyMongoError as exc:
            hint = tls_hint(exc, wants_tls(url))
            if hint is None and "Got response id" in str(exc):  # pymongo read a reply that is no MongoDB reply
                raise ConnectionError("not a MongoDB server: its reply to our ping is not the MongoDB wire protocol's "
                                      f"({str(exc).split(',', 1)[0][:120]})") from None
            if hint is None:
                raise
            raise ConnectionError(f"{hint} ({short_error(exc)})") from None
        finally:
            c.close()

    def open_without_credentials(self, url: str) -> bool:
        """``listDatabases`` unauthenticated (``ping`` answers without credentials even where
        authentication is on)."""
        try:
            c = client(url, 5.0)
            try:
                c.admin.command("listDatabases", nameOnly=True)
            finally:
                c.close()
        except Exception:  # noqa: BLE001 - it wants credentials (or does not answer)
            return False
        return True

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        c = client(url, 5.0)
        try:
            build = c.admin.command("buildInfo")
            try:
                opts = c.admin.command("getCmdLineOpts")
                opts.pop("ok", None)
            except Exception as exc:  # noqa: BLE001 - not every server implements it
                opts = {"error": f"getCmdLineOpts failed: {short_error(exc)}"}
            try:
                engine = (c.admin.command("serverStatus").get("storageEngine") or {}).get("name", "")
            except Exception:  # noqa: BLE001 - e.g. no privilege
                engine = ""
        finally:
            c.close()
        return server_facts(build, opts, engine, tls_session(url))

    def clear(self, url: str, table: str) -> None:
        from ycsbctl.stores.mongodb.pymongo_binding import database_name

        with client(url, 60.0) as c:
            c[database_name(url)].drop_collection(table)

    def count(self, url: str, table: str) -> int | None:
        """The collection's documents from its statistics (``collStats``' count: the collection's own record, as
        ``estimatedDocumentCount`` reads it on MongoDB; FerretDB over SQLite answers ``count`` by a scan, ~0.6 s at
        5,000 documents here against 25 ms), else ``estimatedDocumentCount`` (a server without ``collStats``)."""
        from pymongo.errors import OperationFailure

        from ycsbctl.stores.mongodb.pymongo_binding import database_name

        with client(url, 5.0) as c:
            db = c[database_name(url)]
            try:
                stats = db.command("collStats", table)
            except OperationFailure:
                stats = {}
            n = stats.get("count")
            return int(n) if isinstance(n, int | float) and not isinstance(n, bool) else \
                int(db[table].estimated_document_count())

    def reported_pid(self, url: str) -> int | None:
        from ycsbctl.stores.mongodb.status import reported_pid

        return reported_pid(url)

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        from ycsbctl.stores.mongodb.status import MongoStatusSampler

        return [MongoStatusSampler(url, interval_s)]

    def reading(self, url: str) -> Reading:
        from ycsbctl.stores.mongodb import status as mongo_status

        with mongo_status.connect(url) as c:
            g = mongo_status.gauges(mongo_status.server_status(c))
            stats = mongo_status.db_stats(c, mongo_status.database_name(url))
        return Reading(g["db_used_memory_bytes"], g["db_rss_bytes"], stats.pop("objects"), stats)

    def disturb_command(self, spec: DisturbSpec) -> str:
        from ycsbctl.stores.mongodb.disturb import command_text

        return command_text(spec)

    def disturber(self, url: str, spec: DisturbSpec, name: str) -> Disturber:
        from ycsbctl.stores.mongodb.disturb import MongoDisturber

        return MongoDisturber(url, spec, name)


def server_facts(build: dict[str, Any], opts: dict[str, Any], engine: str, session: str | None) -> ServerFacts:
    """The server's name and version from its own ``buildInfo`` (FerretDB, Percona Server for MongoDB, MongoDB
    Enterprise or MongoDB), ``getCmdLineOpts`` and storage engine (``serverStatus``) as read by ``describe``;
    ``session`` the TLS session it negotiated, if any."""
    version = str(build.get("version", ""))
    config: dict[str, Any] = {"getCmdLineOpts": opts}
    traits: dict[str, Any] = {}
    if session:  # every point of this target is encrypted (the report and the manifest say so)
        traits["tls"] = session
    if "ferretdbVersion" in build:
        fversion = str(build["ferretdbVersion"]).lstrip("v")
        config["mongodb_compat_version"] = version
        return ServerFacts(f"FerretDB {fversion}", fversion, config, traits)
    if "psmdbVersion" in build or "percona" in json.dumps(build, default=str).lower():
        name = f"Percona Server for MongoDB {build.get('psmdbVersion', version)}"
    elif "enterprise" in build.get("modules", []):
        name = f"MongoDB Enterprise {version}"
    else:
        name = f"MongoDB {version}"
    if engine:
        name += f" ({engine})"
        config["storageEngine"] = engine
    return ServerFacts(name, str(build.get("psmdbVersion", version)), config, traits)


def tls_session(url: str, timeout_s: float = 5.0) -> str | None:
    """What one handshake with the server at ``url`` agreed (``TLSv1.3 TLS_AES_…``), with the context the
    engine's wire binding uses; None for a plain URL (or one with several hosts). FerretDB says nothing
    of its connections' TLS (no ``transportSecurity`` in serverStatus): the client's view is the evidence."""
    from urllib.parse import urlparse

    from ycsbctl.stores.mongodb.wire import tls_context
    from ycsbctl.stores.tls_wire import negotiated

    u = urlparse(url)
    ctx = tls_context(url) if u.scheme == "mongodb" and "," not in u.netloc else None
    return negotiated(u.hostname or "127.0.0.1", u.port or 27017, ctx, timeout_s) if ctx is not None else None


PROTOCOL = register(MongoProtocol())
