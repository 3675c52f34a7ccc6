"""Tarantool (``tarantool://host:port``): IPROTO bindings, records in YCSB's tarantool layout (space ``ycsb``)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ycsbctl.errors import UserError
from ycsbctl.stores.base import Reading, ServerFacts, ServerProtocol
from ycsbctl.stores.capabilities import CoreLimit, FootprintReading, ReportedPid, ServerUrls
from ycsbctl.stores.registry import register
from ycsbctl.stores.tarantool.media_items import TarantoolItems
from ycsbctl.workload.media_items.contract import WORKLOAD as MEDIA_ITEMS

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.sampler import Sampler

# box.cfg settings shown with the server (what a commit is promised, the memory quota)
SHOWN_CFG = ("wal_mode", "memtx_memory", "readahead", "net_msg_max", "listen")


class TarantoolProtocol(ServerProtocol, ServerUrls, ReportedPid, FootprintReading, CoreLimit):
    name = "tarantool"
    executors = {MEDIA_ITEMS: TarantoolItems}
    duplicate_insert = ("Duplicate key exists in unique index",)  # ER_TUPLE_FOUND
    schemes = ("tarantool",)
    example = "tarantool://host:port"
    footprint_basis = "space bsize + index bsize"  # every user space's tuples and indexes, as Tarantool counts them

    def validate(self, url: str) -> None:
        hint = f"use {self.example}, e.g. tarantool://127.0.0.1:3301"
        try:
            u = urlsplit(url)
            u.port  # noqa: B018 - parses the port
        except ValueError as exc:
            raise UserError(f"bad Tarantool URL ({exc}): {hint}") from None
        if not u.hostname:
            raise UserError(f"bad Tarantool URL {url!r}: no host; {hint}")
        if u.username or u.password:
            raise UserError("ycsbctl speaks to Tarantool as its guest user (as YCSB's binding): drop the user and "
                            f"password from the URL; {hint}")
        if u.path.strip("/") or u.query:
            raise UserError(f"Tarantool URLs name no space or options (records go to space ycsb, as YCSB's): drop "
                            f"{u.path + ('?' + u.query if u.query else '')!r}; {hint}")

    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        if password:
            raise UserError("ycsbctl cannot give a Tarantool server a password", exit_code=1)
        return f"tarantool://{f'[{host}]' if ':' in host else host}:{port}"

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        from ycsbctl.stores.binding_set import connect_wire
        from ycsbctl.stores.tarantool.binding import TarantoolBinding, field_positions

        space = int(properties.get("tarantool.space", "1024") or 1024)
        positions = field_positions(properties)
        return await connect_wire([TarantoolBinding(url, timeout_s, positions, space) for _ in range(clients)],
                                  timeout_s)

    def check_properties(self, url: str | None, properties: dict[str, str]) -> None:
        space = properties.get("tarantool.space", "1024")
        if not space.isdigit():
            raise UserError(f"tarantool.space={space}: give the space's numeric id (YCSB's default, 1024, is the "
                            "space ycsb that ycsbctl's servers have)")

    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        from ycsbctl.stores.tarantool.admin import AdminConnection

        with AdminConnection(url, timeout_s) as c:
            c.ping()

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        from ycsbctl.stores.tarantool.admin import AdminConnection

        with AdminConnection(url) as c:
            version, cfg = c.eval("return box.info.version, box.cfg")
        short = str(version).split("-")[0]
        shown = {k: cfg.get(k) for k in SHOWN_CFG if k in cfg}
        durability = f"wal_mode={cfg.get('wal_mode')}"
        return ServerFacts(f"Tarantool {short} ({durability})", short, {"box.cfg": cfg},
                           {"server": "Tarantool", "version": short, "durability": durability,
                            **{k: v for k, v in shown.items() if k != "listen"}})

    def clear(self, url: str, table: str) -> None:
        """Truncate the space named ``table`` (a workload plug-in's), or for YCSB's ``usertable`` the space ``ycsb``."""
        from ycsbctl.stores.tarantool.admin import AdminConnection

        with AdminConnection(url, 60.0) as c:
            c.eval("local t = ... local s = box.space[t] or (t == 'usertable' and box.space.ycsb) "
                   "if s then s:truncate() end", table)

    def count(self, url: str, table: str) -> int | None:
        """Tuples in the space named ``table`` (a workload plug-in's), or for YCSB's ``usertable`` in ``ycsb``."""
        from ycsbctl.stores.tarantool.admin import AdminConnection

        with AdminConnection(url) as c:
            (n,) = c.eval("local t = ... local s = box.space[t] or (t == 'usertable' and box.space.ycsb) "
                          "return s and s:len() or 0", table)
        return int(n)

    def reported_pid(self, url: str) -> int | None:
        from ycsbctl.stores.tarantool.admin import AdminConnection

        try:
            with AdminConnection(url) as c:
                (pid,) = c.eval("return box.info.pid")
            return int(pid)
        except (OSError, ConnectionError, TypeError, ValueError):
            return None

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        from ycsbctl.stores.tarantool.stats import TarantoolStatSampler

        return [TarantoolStatSampler(url, interval_s)]

    def reading(self, url: str) -> Reading:
        """Every user space's bytes and tuples (YCSB's ``ycsb``, a workload plug-in's ``items``), as the SQL
        stores read their whole database: a load's growth is its own table's, whichever it is."""
        from ycsbctl.stores.tarantool.admin import AdminConnection, memory

        with AdminConnection(url) as c:
            m = memory(c, None)
        size = None if m["space_bytes"] is None else (m["space_bytes"] or 0) + (m["index_bytes"] or 0)
        return Reading(size, None, m["tuples"], {k: v for k, v in m.items() if k.endswith("_bytes")})

    def server_cores(self, target: str, limit: float) -> float:
        # one transaction thread (TX) runs every request; the network thread beside it only moves bytes
        return min(1.0, limit)


PROTOCOL = register(TarantoolProtocol())
