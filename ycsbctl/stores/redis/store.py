"""The Redis protocol (Redis, Valkey, KeyDB, Dragonfly): ``redis://`` and ``rediss://`` URLs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ycsbctl.errors import UserError, short_error
from ycsbctl.stores.base import Reading, ServerFacts, ServerProtocol
from ycsbctl.stores.registry import register

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.disturb import Disturber, DisturbSpec
    from ycsbctl.stores.sampler import Sampler

# Redis-protocol servers whose data path uses more than one thread (the others use one core).
MULTI_THREADED = ("dragonfly", "keydb")


def client(url: str, timeout_s: float):
    """A redis-py client for admin calls (never in the timed path)."""
    import redis

    return redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s)


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class RedisProtocol(ServerProtocol):
    name = "redis"
    schemes = ("redis", "rediss", "unix")
    example = "redis://host:port[/db]"
    password_hint = "redis://:PASSWORD@host:port or -p redis.password=…"
    footprint_basis = "used_memory"

    def validate(self, url: str) -> None:
        from redis.connection import parse_url

        try:
            parse_url(url)
        except (ValueError, TypeError) as exc:
            raise UserError(f"bad Redis URL ({exc}): use {self.example}, e.g. redis://127.0.0.1:6379/0") from None

    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        auth = f":{password}@" if password else ""  # Redis AUTH with requirepass: no user name
        return f"redis://{auth}{_bracketed(host)}:{port}/0"

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        from ycsbctl.stores.binding_set import connect_wire
        from ycsbctl.stores.redis.binding import RedisBinding, RedisOptions

        opts = RedisOptions(url, properties)
        return await connect_wire([RedisBinding(opts, timeout_s) for _ in range(clients)], timeout_s)

    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        c = client(url, timeout_s)
        try:
            c.ping()
        finally:
            c.close()

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        from ycsbctl.stores.redis.info import server_traits

        c = client(url, 5.0)
        try:
            info = c.info("server")
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
        for key, name in (("valkey_version", "Valkey"), ("dragonfly_version", "Dragonfly")):
            if key in info:
                version = str(info[key]).lstrip("v").removeprefix("df-").lstrip("v")
                return ServerFacts(f"{name} {version}", version, config, traits)
        version = str(info.get("redis_version", ""))
        return ServerFacts(f"{expected or 'Redis'} {version}".strip(), version, config, traits)

    def clear(self, url: str, table: str) -> None:
        """FLUSHDB SYNC: freed before it returns, so the memory read next (the footprint's "before") is
        the empty server's. A plain FLUSHDB frees in the background where ``lazyfree-lazy-user-flush``
        is on (Valkey's default): the previous dataset was then still counted (seen: a Valkey load's
        growth read as 0.1 bytes per record). Servers before Redis 6.2 know no SYNC."""
        import redis

        with client(url, 30.0) as c:
            try:
                c.execute_command("FLUSHDB", "SYNC")
            except redis.ResponseError:
                c.flushdb()

    def count(self, url: str, table: str) -> int | None:
        with client(url, 5.0) as c:  # hashes, less the scan index
            return int(c.dbsize()) - (1 if c.exists("_indices") else 0)

    def reported_pid(self, url: str) -> int | None:
        from ycsbctl.stores.redis.info import reported_pid

        return reported_pid(url)

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        from ycsbctl.stores.redis.info import RedisInfoSampler

        return [RedisInfoSampler(url, interval_s)]

    def reading(self, url: str) -> Reading:
        from ycsbctl.stores.redis import info as redis_info

        with redis_info.connect(url) as r:
            g = redis_info.gauges(r.info())
        return Reading(g["db_used_memory_bytes"], g["db_rss_bytes"], g["keys"])

    def ycsb_binding(self, url: str, timeout_s: float) -> tuple[str, dict[str, str]]:
        from urllib.parse import unquote, urlsplit

        parts = urlsplit(url)
        if parts.scheme != "redis":
            raise UserError(f"YCSB's redis binding speaks plain redis:// only (no TLS, no socket): {parts.scheme}://")
        db = parts.path.strip("/")
        if db not in ("", "0"):
            raise UserError(f"YCSB's redis binding always uses database 0; drop '/{db}' from the URL")
        props = {"redis.host": parts.hostname or "127.0.0.1", "redis.port": str(parts.port or 6379),
                 "redis.timeout": str(int(timeout_s * 1000))}
        if parts.password:
            props["redis.password"] = unquote(parts.password)
        return "redis", props

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


PROTOCOL = register(RedisProtocol())
