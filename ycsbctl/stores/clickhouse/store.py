"""ClickHouse (``clickhouse://host:8123[/database]``, its HTTP interface): YCSB's jdbc layout on a MergeTree table;
READ, INSERT and SCAN."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ycsbctl.errors import UserError
from ycsbctl.stores.base import Reading, ServerFacts, ServerProtocol
from ycsbctl.stores.capabilities import FootprintReading, ServerUrls
from ycsbctl.stores.clickhouse.media_items import ClickHouseItems
from ycsbctl.stores.registry import register
from ycsbctl.workload.media_items.contract import WORKLOAD as MEDIA_ITEMS

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.sampler import Sampler

_NO_ROW_WRITES = ("ClickHouse changes rows only by mutations (ALTER TABLE … {verb}, since 18.12): asynchronous "
                  "rewrites of whole data parts, acknowledged before they are done, not an operation on one record — "
                  "the many-store study drops ClickHouse from its update test for this")


class ClickHouseProtocol(ServerProtocol, ServerUrls, FootprintReading):
    name = "clickhouse"
    executors = {MEDIA_ITEMS: ClickHouseItems}
    schemes = ("clickhouse",)
    example = "clickhouse://host:8123[/database]"
    footprint_basis = "MergeTree bytes_on_disk"  # compressed columns, marks and primary index of the active parts
    unsupported = {"UPDATE": _NO_ROW_WRITES.format(verb="UPDATE"),
                   "READ-MODIFY-WRITE": _NO_ROW_WRITES.format(verb="UPDATE"),
                   "DELETE": _NO_ROW_WRITES.format(verb="DELETE")}

    def validate(self, url: str) -> None:
        hint = f"use {self.example} (the HTTP port), e.g. clickhouse://127.0.0.1:8123/default"
        try:
            u = urlsplit(url)
            u.port  # noqa: B018 - parses the port
        except ValueError as exc:
            raise UserError(f"bad ClickHouse URL ({exc}): {hint}") from None
        if not u.hostname or "/" in u.path.strip("/") or u.query:
            raise UserError(f"bad ClickHouse URL {url!r}: {hint}")
        if u.username or u.password:
            raise UserError("ycsbctl speaks to ClickHouse as its default user without a password: drop the user; "
                            f"{hint}")

    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        if password:
            raise UserError("ycsbctl cannot give a ClickHouse server a password", exit_code=1)
        return f"clickhouse://{f'[{host}]' if ':' in host else host}:{port}/default"

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        from ycsbctl.stores.binding_set import connect_wire
        from ycsbctl.stores.clickhouse.admin import address, query
        from ycsbctl.stores.clickhouse.binding import ClickHouseBinding
        from ycsbctl.stores.clickhouse.layout import Statements, core_workload, create_table
        from ycsbctl.stores.sql.layout import field_names

        host, port, db = address(url)
        columns = field_names(properties)
        try:
            if core_workload(properties):  # a workload plug-in creates its own tables
                query(url, create_table(properties.get("table", "usertable"), columns), max(timeout_s, 10.0))
            else:
                query(url, "SELECT 1", max(timeout_s, 10.0))
        except OSError as exc:
            from ycsbctl.stores.binding import ConnectionLost

            raise ConnectionLost(f"cannot reach the ClickHouse server at {host}:{port}: {exc}") from None
        sql = Statements(db, columns)
        return await connect_wire([ClickHouseBinding(host, port, sql, timeout_s) for _ in range(clients)], timeout_s)

    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        from ycsbctl.stores.clickhouse.admin import query

        query(url, "SELECT 1", timeout_s)

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        from ycsbctl.stores.clickhouse.admin import query

        (version,), *_ = query(url, "SELECT version()")
        settings = {
            k: v for k, v, changed in query(url, "SELECT name, value, changed FROM system.settings") if changed == "1"
        }
        return ServerFacts(f"ClickHouse {version} (MergeTree)", version, {"changed settings": settings},
                           {"server": "ClickHouse", "version": version, "engine": "MergeTree"})

    def clear(self, url: str, table: str) -> None:
        """Drop the table a load created (the next load creates it again)."""
        from ycsbctl.stores.clickhouse.admin import query
        from ycsbctl.stores.sql.layout import identifier

        query(url, f"DROP TABLE IF EXISTS {identifier(table, 'table')}", 60.0)

    def count(self, url: str, table: str) -> int | None:
        """Distinct keys, not rows: a key loaded twice is two rows of a MergeTree table (it has no unique key)."""
        from ycsbctl.stores.clickhouse.admin import distinct_keys

        return distinct_keys(url, table)

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        from ycsbctl.stores.clickhouse.stats import ClickHouseEventsSampler

        return [ClickHouseEventsSampler(url, interval_s)]

    def reading(self, url: str) -> Reading:
        """Every table's active parts in the URL's database (YCSB's ``usertable``, a workload plug-in's ``items``),
        as the SQL stores read their whole database: a load's growth is its own table's, whichever it is."""
        from ycsbctl.stores.clickhouse.admin import table_parts

        p = table_parts(url, None)
        return Reading(
            p["bytes_on_disk"],
            None,
            p["rows"],
            {"parts": p["parts"], "primary_key_bytes_in_memory": p["primary_key_bytes_in_memory"]},
        )


PROTOCOL = register(ClickHouseProtocol())
