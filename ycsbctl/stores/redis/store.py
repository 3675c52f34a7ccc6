"""The Redis protocol (Redis, Valkey, KeyDB, Dragonfly): ``redis://`` and ``rediss://`` URLs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ycsbctl.errors import UserError, short_error
from ycsbctl.stores.base import Reading, ServerFacts, ServerProtocol
from ycsbctl.stores.capabilities import (
    Calibration,
    CoreLimit,
    DatasetLoss,
    Disturbing,
    ErrorHints,
    FootprintReading,
    RealYcsb,
    Replication,
    ReportedPid,
    ServerUrls,
    Tls,
)
from ycsbctl.stores.redis import urls as redis_urls
from ycsbctl.stores.redis.media_items import RedisItems
from ycsbctl.stores.redis.online_status import RedisExecutor
from ycsbctl.stores.registry import register
from ycsbctl.urls import redact_url
from ycsbctl.workload.media_items.contract import WORKLOAD as MEDIA_ITEMS
from ycsbctl.workload.online_status.ops import WORKLOAD as ONLINE_STATUS

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.disturb import Disturber, DisturbSpec
    from ycsbctl.stores.reference import ReferenceClient
    from ycsbctl.stores.sampler import Sampler
    from ycsbctl.workload.properties import Properties

# Redis-protocol servers whose data path uses more than one thread (the others use one core).
MULTI_THREADED = ("dragonfly", "keydb")


def client(url: str, timeout_s: float):
    """A redis-py client for admin calls (never in the timed path): each command, whole reply included, within
    ``timeout_s`` (:mod:`ycsbctl.stores.redis.admin`)."""
    from ycsbctl.stores.redis.admin import client as deadlined

    return deadlined(url, timeout_s)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class RedisProtocol(ServerProtocol, ServerUrls, Tls, ErrorHints, DatasetLoss, Replication, Calibration, ReportedPid,
                    FootprintReading, CoreLimit, RealYcsb, Disturbing):
    name = "redis"
    executors = {MEDIA_ITEMS: RedisItems, ONLINE_STATUS: RedisExecutor}
    schemes = ("redis", "rediss", "unix")
    tls_schemes = ("rediss",)
    shard_source = "redis-shard"  # the per-node rows of a cluster's RedisNodesSampler (info.py)
    example = "redis://host:port[/db]"
    ycsb_db_class = "db.RedisClient"
    password_hint = "redis://:PASSWORD@host:port or -p redis.password=…"
    footprint_basis = "used_memory"
    insert_overwrites = True  # an insert is HSET (and ZADD to the scan index): a key loaded twice is one record

    def admin_errors(self) -> tuple[type[BaseException], ...]:
        """redis-py's errors too (a refused or lost connection is its ``ConnectionError``, an error reply its
        ``ResponseError``, a deadline its ``TimeoutError``), which are no ``OSError``."""
        import redis

        return (OSError, redis.RedisError)

    def reference_client(self) -> ReferenceClient:
        from ycsbctl.stores.redis.benchmark import RedisBenchmark

        return RedisBenchmark()

    def validate(self, url: str) -> None:
        redis_urls.validate(url, self.example)

    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        auth = f":{password}@" if password else ""  # Redis AUTH with requirepass: no user name
        return f"redis://{auth}{_bracketed(host)}:{port}/0"

    def tls_url(self, url: str, ca_file: str) -> str:
        """``rediss://…?ssl_ca_certs=CA`` (:func:`ycsbctl.stores.redis.urls.tls_url`)."""
        return redis_urls.tls_url(url, ca_file)

    def url_with_properties(self, url: str, properties: Properties) -> str:
        """``-p redis.password`` and ``redis.tls`` in the URL
        (:func:`ycsbctl.stores.redis.urls.url_with_properties`)."""
        return redis_urls.url_with_properties(url, properties)

    def check_properties(self, url: str | None, properties: dict[str, str]) -> None:
        from ycsbctl.stores.redis.replica_reads import read_from

        read_from(properties)  # a bad -p redis.readfrom is refused before anything starts

    def start_notes(self, url: str, properties: dict[str, str]) -> list[str]:
        """``-p redis.wait=N`` at a primary with fewer than N replicas: each connection waits for the replicas it
        has (one ``-p`` serves a study of several targets, so it is not refused), said here once."""
        from ycsbctl.stores.redis.options import RedisOptions, replicas_in_role

        wanted = RedisOptions(url, properties).wait
        if wanted <= 0:
            return []
        with client(url, 5.0) as c:
            has = replicas_in_role(c.execute_command("ROLE"))
        if has >= wanted:
            return []
        if has:
            return [f"redis.wait={wanted}: the server has {has} replica(s), so each write waits for {has} (WAIT {has} "
                    "…)"]
        return [f"redis.wait={wanted}: the server has no replica, so writes wait for none (no WAIT is sent)"]

    def error_hint(self, error: str, properties: dict[str, str]) -> str | None:
        """A Redis Cluster node asked as one server (``-p redis.cluster=false``) answers ``MOVED``/``ASK`` for the
        keys of other shards, and ``CLUSTERDOWN`` when a shard has no node; a server full to its ``maxmemory`` under
        ``noeviction`` answers ``OOM`` to every write."""
        if "OOM command not allowed" in error:
            return ("the server is full to its maxmemory and its policy evicts nothing: raise maxmemory (CONFIG SET "
                    "maxmemory …), load fewer records, or measure with an evicting maxmemory-policy")
        if not any(w in error for w in ("MOVED ", "ASK ", "CLUSTERDOWN")):
            return None
        if cluster_off(properties):
            return ("the server is a Redis Cluster node, and -p redis.cluster=false sends every key to it: drop "
                    "-p redis.cluster=false (ycsbctl finds the cluster by itself)")
        if "CLUSTERDOWN" in error:
            return "the Redis Cluster is down (a shard's slots are served by no node): see redis-cli cluster info"
        return None

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        """One connection per client; at a Redis Cluster node (``-p redis.cluster=true``, or found by one
        ``CLUSTER SLOTS`` on a first connection unless ``redis.cluster=false``) one per shard per client,
        each key routed to its slot's shard (:mod:`ycsbctl.stores.redis.cluster`); with ``-p
        redis.readfrom=replica`` one to the primary and one to a replica (its reads:
        :mod:`ycsbctl.stores.redis.replica_reads`)."""
        from ycsbctl.stores.binding_set import connect_wire
        from ycsbctl.stores.redis.binding import RedisBinding
        from ycsbctl.stores.redis.options import RedisOptions
        from ycsbctl.stores.redis.replica_reads import open_replica_reads, read_from

        opts = RedisOptions(url, properties)
        replicas = read_from(properties) == "replica"
        cluster, off = str(properties.get("redis.cluster", "")).lower(), cluster_off(properties)
        if not off or replicas:
            from ycsbctl.stores.binding import ConnectionLost
            from ycsbctl.stores.deadline import within
            from ycsbctl.stores.redis.cluster import cluster_slots, open_cluster

            seed = RedisBinding(opts, timeout_s)
            await seed.connect()
            server, seconds = f"redis at {opts.host}:{opts.port}", max(timeout_s, 1.0)  # no watchdog runs yet
            try:
                slots = await within(cluster_slots(seed), seconds, server, "CLUSTER SLOTS") if not off else None
                if replicas and not slots:  # -p redis.readfrom=replica: each client reads from a replica
                    return await open_replica_reads(opts, clients, timeout_s, seed)
            finally:
                await seed.close()
            if slots and replicas:
                raise UserError("redis.readfrom=replica is not offered for a Redis Cluster (every read goes to "
                                "its slot's primary): drop -p redis.readfrom")
            if slots:
                return await open_cluster(opts, clients, timeout_s, slots)
            if cluster in ("true", "yes", "1", "on"):
                raise ConnectionLost(f"{opts.host}:{opts.port} is no Redis Cluster node (CLUSTER SLOTS: "
                                     f"{seed.last_error or 'no slots'}): drop -p redis.cluster=true")
        return await connect_wire([RedisBinding(opts, timeout_s) for _ in range(clients)], timeout_s)

    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        """PING; a connection that failed for TLS says what to do (:mod:`ycsbctl.stores.redis.tls`), a database
        other than 0 at a Redis Cluster node too."""
        from urllib.parse import urlsplit, urlunsplit

        import redis

        from ycsbctl.stores.redis.tls import TLS_THERE, tls_hint, with_tls_hint
        from ycsbctl.stores.tls_wire import answers_tls

        c = client(url, timeout_s)
        try:
            c.ping()
            _check_password(c, url)
        except redis.ResponseError as exc:  # redis-py's SELECT of the URL's database, at a Redis Cluster node
            if str(exc).startswith("MISCONF"):  # a server that refuses even PING: it cannot save its snapshot
                raise UserError(f"{redact_url(url)} refuses commands: its last RDB snapshot failed and "
                                f"stop-writes-on-bgsave-error is on ({str(exc)[:90]}…)",
                                fix="see the server's log (a full or read-only disk at its dir), or CONFIG SET "
                                    "stop-writes-on-bgsave-error no", exit_code=1) from None
            if "DB index is out of range" in str(exc):  # a Redis server, without the URL's database (fault43g)
                raise UserError(f"{redact_url(url)}: the server has no database {urlsplit(url).path.strip('/')} "
                                f"({exc})",
                                fix="use one it has: 0 up to its `databases` setting minus 1 (16 by default: 0-15)"
                                ) from None
            if "not allowed in cluster mode" not in str(exc):
                raise
            raise UserError(f"{redact_url(url)} is a Redis Cluster node, which has database 0 only ({exc})",
                            fix="use database 0: "
                                f"{redact_url(urlunsplit(urlsplit(url)._replace(path='/0')))}") from None
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            hint = tls_hint(exc, url.startswith("rediss:"))
            if hint is None:
                raise
            u = urlsplit(url)
            if hint == TLS_THERE and not answers_tls(u.hostname or "127.0.0.1", u.port or 6379, timeout_s):
                raise redis.ConnectionError(f"not a Redis server: it closed the connection at PING and answers no TLS "
                                            f"handshake either ({exc})") from None
            raise redis.ConnectionError(with_tls_hint(exc, url.startswith("rediss:"))) from None
        finally:
            c.close()

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        import redis

        from ycsbctl.stores.redis.info import server_traits

        c = client(url, 5.0)
        try:
            try:
                info = c.info("server")
            except redis.exceptions.NoPermissionError:  # an ACL user without INFO (-@dangerous): measurable all
                info = {}  # the same; its version and settings unknown, said by the name
            try:
                info_all = c.info()
            except Exception:  # noqa: BLE001 - the server section alone still names it
                info_all = info
            try:
                config: dict[str, Any] = dict(c.config_get("*"))
            except Exception as exc:  # noqa: BLE001 - some servers restrict CONFIG
                config = {"error": f"CONFIG GET * failed: {short_error(exc)}"}
        finally:
            c.close()
        traits = server_traits({**info_all, **info}, config)
        from ycsbctl.stores.redis.cluster import node_urls

        if info_all.get("cluster_enabled"):
            traits["cluster_shards"] = len(node_urls(url))
        tls = tls_session(url) if url.startswith("rediss:") else None
        if tls:
            traits["tls"] = tls  # every point of this target is encrypted (the report and the manifest say so)
        for key, name in (("valkey_version", "Valkey"), ("dragonfly_version", "Dragonfly")):
            if key in info:
                version = str(info[key]).lstrip("v").removeprefix("df-").lstrip("v")
                return ServerFacts(f"{name} {version}", version, config, traits)
        version = str(info.get("redis_version", ""))
        unknown = "" if info else " (version unknown: the URL's user may not run INFO)"
        return ServerFacts(f"{expected or 'Redis'} {version}".strip() + unknown, version, config, traits)

    def clear(self, url: str, table: str) -> None:
        """FLUSHDB SYNC: freed before it returns, so the memory read next (the footprint's "before") is
        the empty server's. A plain FLUSHDB frees in the background where ``lazyfree-lazy-user-flush``
        is on (Valkey's default): the previous dataset was then still counted (seen: a Valkey load's
        growth read as 0.1 bytes per record). Servers before Redis 6.2 know no SYNC."""
        import redis

        from ycsbctl.stores.redis.cluster import node_urls

        for one in node_urls(url) or [url]:  # a cluster: every primary
            with client(one, 30.0) as c:
                try:
                    c.execute_command("FLUSHDB", "SYNC")
                except redis.ResponseError:
                    c.flushdb()

    def count(self, url: str, table: str) -> int | None:
        from ycsbctl.stores.redis.cluster import node_urls

        total = 0
        for one in node_urls(url) or [url]:  # a cluster: summed over its primaries
            with client(one, 5.0) as c:  # hashes, less the scan index
                total += int(c.dbsize()) - (1 if c.exists("_indices") else 0)
        return total

    def why_short(self, url: str) -> str | None:
        """``the server counts 5,810 keys evicted (INFO evicted_keys; maxmemory 3 MiB, maxmemory-policy
        allkeys-lru)`` and/or the keys it expired (a TTL), from its own INFO (stats and memory; summed over a
        cluster's primaries); None when it dropped none."""
        from ycsbctl.stores.redis.cluster import node_urls

        evicted = expired = 0
        memory: dict = {}
        for one in node_urls(url) or [url]:
            with client(one, 5.0) as c:
                stats, memory = c.info("stats"), c.info("memory")
            evicted += int(stats.get("evicted_keys", 0))
            expired += int(stats.get("expired_keys", 0))
        said = []
        if evicted:
            limit = int(memory.get("maxmemory", 0))
            policy = memory.get("maxmemory_policy")
            mib = f"maxmemory {limit / 2**20:,.0f} MiB" if limit else ""
            setting = "; ".join(x for x in ("INFO evicted_keys", mib, f"maxmemory-policy {policy}" if policy else "")
                                if x)
            said.append(f"the server counts {evicted:,} keys evicted ({setting})")
        if expired:
            said.append(f"{expired:,} key(s) expired (INFO expired_keys: a TTL)")
        return "; ".join(said) or None

    def replicas(self, url: str) -> list[str] | None:
        from ycsbctl.stores.redis.info import online_replicas

        with client(url, 5.0) as r:
            return online_replicas(r.info("replication"))

    def reported_pid(self, url: str) -> int | None:
        from ycsbctl.stores.redis.info import reported_pid

        return reported_pid(url)

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        """INFO at 1 Hz; of every primary of a cluster (summed, and one ``redis-shard`` row per shard)."""
        from ycsbctl.stores.redis.cluster import node_urls
        from ycsbctl.stores.redis.info import RedisInfoSampler, RedisNodesSampler

        nodes = node_urls(url)
        return [RedisNodesSampler(nodes, interval_s) if nodes else RedisInfoSampler(url, interval_s)]

    def reading(self, url: str) -> Reading:
        """Memory and keys the server reports; a cluster's summed over its primaries (its memory per
        record is the whole cluster's)."""
        from ycsbctl.stores.redis import info as redis_info
        from ycsbctl.stores.redis.cluster import node_urls

        readings = []
        for one in node_urls(url) or [url]:
            with redis_info.connect(one) as r:
                readings.append(redis_info.gauges(r.info()))

        def total(key: str) -> float | None:
            vals = [g[key] for g in readings if g[key] is not None]
            return sum(vals) if vals else None

        return Reading(total("db_used_memory_bytes"), total("db_rss_bytes"), total("keys"))

    def ycsb_binding(self, url: str, timeout_s: float) -> tuple[str, dict[str, str]]:
        return redis_urls.ycsb_binding(url, timeout_s)

    def server_cores(self, target: str, limit: float) -> float:
        """``target``: the catalogue kind (or label). I/O threads are counted by the caller
        (:func:`ycsbctl.telemetry.bottleneck.server_cores`, from the server's ``io-threads``)."""
        if any(m in target.lower() for m in MULTI_THREADED):
            return limit
        return min(1.0, limit)  # one thread serves the data path

    def disturb_command(self, spec: DisturbSpec) -> str:
        from ycsbctl.stores.redis.disturb import command_text

        return command_text(spec)

    def disturber(self, url: str, spec: DisturbSpec, name: str) -> Disturber:
        from ycsbctl.stores.redis.disturb import RedisDisturber

        return RedisDisturber(url, spec, name)


def tls_session(url: str, timeout_s: float = 5.0) -> str | None:
    """``TLSv1.3 TLS_AES_256_GCM_SHA384``: what one handshake with the server at ``url`` agreed, with
    the context the engine's clients use; None for a plain URL."""
    from ycsbctl.stores.redis.options import RedisOptions
    from ycsbctl.stores.tls_wire import negotiated

    opts = RedisOptions(url)
    ctx = opts.ssl_context()
    return negotiated(opts.host, opts.port, ctx, timeout_s) if ctx is not None else None


PROTOCOL = register(RedisProtocol())


def cluster_off(properties: dict[str, str]) -> bool:
    """``-p redis.cluster=false`` (or no/0/off): the server is asked as one server, never as a cluster node."""
    return str(properties.get("redis.cluster", "")).lower() in ("false", "no", "0", "off")


def _check_password(c: Any, url: str) -> None:
    """AUTH with the URL's password alone: redis-py lets one pass at a server whose default user has none, where the
    engine's binding fails every point on it ("AUTH <password> called without any password configured"); raised
    here (redis-py's AuthenticationError), the provisioner says the server has no authentication, once."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    if parts.password and not parts.username:  # USER:PASSWORD is an ACL user's, checked by redis-py's own AUTH
        c.execute_command("AUTH", unquote(parts.password))
