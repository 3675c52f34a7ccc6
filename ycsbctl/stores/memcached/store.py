"""memcached: ``memcached://host:port`` URLs, records stored as YCSB's memcached binding stores them."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ycsbctl.errors import UserError
from ycsbctl.stores.base import Reading, ServerFacts, ServerProtocol
from ycsbctl.stores.capabilities import (
    CoreLimit,
    DatasetLoss,
    FootprintReading,
    RealYcsb,
    ReportedPid,
    ServerUrls,
)
from ycsbctl.stores.memcached.media_items import MemcachedItems
from ycsbctl.stores.registry import register
from ycsbctl.workload.media_items.contract import WORKLOAD as MEDIA_ITEMS

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.sampler import Sampler

CLEAR_WAIT_S = 10.0  # how long clear waits for the server to reclaim flushed items


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class MemcachedProtocol(ServerProtocol, ServerUrls, DatasetLoss, ReportedPid, FootprintReading, CoreLimit, RealYcsb):
    name = "memcached"
    executors = {MEDIA_ITEMS: MemcachedItems}
    schemes = ("memcached",)
    example = "memcached://host:port"
    ycsb_db_class = "db.MemcachedClient"  # a release folder's memcached-binding (not on Maven Central)
    footprint_basis = "bytes"  # memcached's own count of the memory its items take
    unsupported = {"SCAN": "memcached has no ordered keys (YCSB's memcached binding: scan NOT_IMPLEMENTED)"}
    duplicate_insert = ("NOT_STORED: the record exists already",)  # an insert is an add, which never overwrites

    def validate(self, url: str) -> None:
        hint = f"use {self.example}, e.g. memcached://127.0.0.1:11211"
        try:
            u = urlsplit(url)
            u.port  # noqa: B018 - parses the port
        except ValueError as exc:
            raise UserError(f"bad memcached URL ({exc}): {hint}") from None
        if not u.hostname:
            raise UserError(f"bad memcached URL {url!r}: no host; {hint}")
        if u.username or u.password:
            raise UserError("memcached URLs take no user or password (the text protocol has no authentication): "
                            f"{hint}")
        if u.path.strip("/") or u.query:
            raise UserError("memcached URLs have no database or options: drop "
                            f"{u.path + ('?' + u.query if u.query else '')!r}; "
                            f"{hint}")

    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        if password:
            raise UserError("ycsbctl cannot give a memcached server a password", exit_code=1)
        return f"memcached://{_bracketed(host)}:{port}"

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        from ycsbctl.stores.binding_set import connect_wire
        from ycsbctl.stores.memcached.binding import MemcachedBinding

        return await connect_wire([MemcachedBinding(url, timeout_s) for _ in range(clients)], timeout_s)

    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        from ycsbctl.stores.memcached.admin import AdminConnection

        with AdminConnection(url, timeout_s) as c:
            c.version()

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        from ycsbctl.stores.memcached.admin import AdminConnection

        with AdminConnection(url) as c:
            version = c.version()
            settings = c.stats("settings")
            stats = c.stats()
        traits = {"server": "memcached", "version": version, "threads": stats.get("threads"),
                  "pointer_size": stats.get("pointer_size")}
        return ServerFacts(f"memcached {version}", version, {"stats settings": settings},
                           {k: v for k, v in traits.items() if v is not None})

    def clear(self, url: str, table: str) -> None:
        """``flush_all``, then the LRU crawler reclaims the flushed items (so that ``curr_items``, which
        :meth:`count` reads, drops to 0; bounded by :data:`CLEAR_WAIT_S`)."""
        import time

        from ycsbctl.stores.memcached.admin import AdminConnection

        with AdminConnection(url, 30.0) as c:
            c.command("flush_all")
            try:
                c.command("lru_crawler crawl all")
            except ConnectionError:
                return  # crawler off or busy: the flushed items go as they are touched
            end = time.monotonic() + CLEAR_WAIT_S
            while c.stats().get("curr_items") not in ("0", None) and time.monotonic() < end:
                time.sleep(0.05)

    def count(self, url: str, table: str) -> int | None:
        from ycsbctl.stores.memcached.admin import AdminConnection

        with AdminConnection(url) as c:
            return int(c.stats()["curr_items"])

    def why_short(self, url: str) -> str | None:
        """``memcached evicted 18,584 items since it started (its memory limit, -m, is 2 MiB)``: items it
        dropped for room (``stats`` ``evictions``), None when it dropped none."""
        from ycsbctl.stores.memcached.admin import AdminConnection, number

        with AdminConnection(url) as c:
            stats = c.stats()
        evicted, limit = number(stats, "evictions"), number(stats, "limit_maxbytes")
        if not evicted:
            return None
        mib = f" (its memory limit, -m, is {limit / 2**20:,.0f} MiB)" if limit else ""
        return f"memcached evicted {int(evicted):,} items since it started{mib}"

    def reported_pid(self, url: str) -> int | None:
        from ycsbctl.stores.memcached.stats import reported_pid

        return reported_pid(url)

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        from ycsbctl.stores.memcached.stats import MemcachedStatsSampler

        return [MemcachedStatsSampler(url, interval_s)]

    def reading(self, url: str) -> Reading:
        from ycsbctl.stores.memcached.admin import AdminConnection
        from ycsbctl.stores.memcached.stats import gauges

        with AdminConnection(url) as c:
            g = gauges(c.stats())
        return Reading(g["db_used_memory_bytes"], None, g["keys"], {"limit_maxbytes": g["db_limit_bytes"]})

    def ycsb_binding(self, url: str, timeout_s: float) -> tuple[str, dict[str, str]]:
        from ycsbctl.stores.memcached.admin import address

        host, port = address(url)
        if ":" in host:
            raise UserError("YCSB's memcached binding takes IPv4 addresses and host names only (host:port)")
        return "memcached", {"memcached.hosts": f"{host}:{port}",
                             "memcached.opTimeoutMillis": str(int(timeout_s * 1000))}

    def server_cores(self, target: str, limit: float) -> float:
        return limit  # worker threads (-t, 4 by default) serve the data path


PROTOCOL = register(MemcachedProtocol())
