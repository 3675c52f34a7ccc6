"""Elasticsearch (``elasticsearch://host:9200``, REST): YCSB's index ``es.ycsb``, one document per record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ycsbctl.errors import UserError
from ycsbctl.stores.base import Reading, ServerFacts, ServerProtocol
from ycsbctl.stores.capabilities import CoreLimit, FootprintReading, ServerUrls
from ycsbctl.stores.elasticsearch.media_items import ElasticsearchItems
from ycsbctl.stores.registry import register
from ycsbctl.workload.media_items.contract import WORKLOAD as MEDIA_ITEMS

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.sampler import Sampler


def _index(properties: dict[str, str]) -> str:
    return properties.get("es.index.key", "es.ycsb") or "es.ycsb"


class ElasticsearchProtocol(ServerProtocol, ServerUrls, FootprintReading, CoreLimit):
    name = "elasticsearch"
    executors = {MEDIA_ITEMS: ElasticsearchItems}
    duplicate_insert = ("document already exists",)  # _create's 409 version_conflict_engine_exception
    schemes = ("elasticsearch", "es")
    example = "elasticsearch://host:9200"
    footprint_basis = "index store size_in_bytes"  # Lucene's segments of every index (the JVM heap is apart)

    def validate(self, url: str) -> None:
        hint = f"use {self.example} (its REST port), e.g. elasticsearch://127.0.0.1:9200"
        try:
            u = urlsplit(url)
            u.port  # noqa: B018 - parses the port
        except ValueError as exc:
            raise UserError(f"bad Elasticsearch URL ({exc}): {hint}") from None
        if not u.hostname or u.path.strip("/") or u.query:
            raise UserError(f"bad Elasticsearch URL {url!r} (the index is -p es.index.key, es.ycsb by default): {hint}")
        if u.username or u.password:
            raise UserError(f"ycsbctl speaks to Elasticsearch without authentication (the OSS build has none): {hint}")

    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        if password:
            raise UserError("ycsbctl cannot give an Elasticsearch server a password (the OSS build has no security)",
                            exit_code=1)
        return f"elasticsearch://{f'[{host}]' if ':' in host else host}:{port}"

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        import asyncio

        from ycsbctl.stores.binding import ConnectionLost
        from ycsbctl.stores.binding_set import connect_wire
        from ycsbctl.stores.elasticsearch.admin import address, core_workload, ensure_index
        from ycsbctl.stores.elasticsearch.binding import ElasticsearchBinding
        from ycsbctl.stores.sql.layout import workload_fields

        host, port = address(url)
        fields = workload_fields(properties)
        try:  # blocking HTTP, once per engine process before the timed phase (a workload plug-in makes its own index)
            if core_workload(properties):
                await asyncio.get_running_loop().run_in_executor(
                    None, ensure_index, url, _index(properties), properties.get("table", "usertable"), fields)
        except OSError as exc:
            raise ConnectionLost(f"cannot reach the Elasticsearch server at {host}:{port}: {exc}") from None
        return await connect_wire([ElasticsearchBinding(host, port, _index(properties), timeout_s)
                                   for _ in range(clients)], timeout_s)

    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        from ycsbctl.stores.elasticsearch.admin import ok

        ok(url, "GET", "/_cluster/health?wait_for_status=yellow&timeout=0s", timeout_s=timeout_s)

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        from ycsbctl.stores.elasticsearch.admin import node_stats, ok

        root = ok(url, "GET", "/")
        version = root["version"]["number"]
        flavor = root["version"].get("build_flavor", "")
        jvm = node_stats(url).get("jvm", {})
        heap = jvm.get("mem", {}).get("heap_max_in_bytes")
        nodes: dict[str, Any] = ok(url, "GET", "/_nodes/_local/jvm").get("nodes", {})
        first: dict[str, Any] = next(iter(nodes.values()), {})
        java_version = first.get("jvm", {}).get("version", "?")
        name = f"Elasticsearch {version}{' ' + flavor.upper() if flavor else ''} (Java {java_version})"
        return ServerFacts(name, version, {"root": root, "heap_max_bytes": heap},
                           {"server": "Elasticsearch", "version": version, "java": java_version,
                            "heap_max_bytes": heap})

    def clear(self, url: str, table: str) -> None:
        """Delete the index holding ``table``'s records (:func:`~ycsbctl.stores.elasticsearch.admin.index_of`; the
        next load creates it again)."""
        from ycsbctl.stores.elasticsearch.admin import call, index_of

        index = index_of(url, table)
        if index is not None:
            call(url, "DELETE", f"/{index}", timeout_s=60.0)

    def count(self, url: str, table: str) -> int | None:
        """Documents of the index (see :meth:`clear`) after a refresh (a count sees only refreshed documents)."""
        from ycsbctl.stores.elasticsearch.admin import index_of, ok

        index = index_of(url, table)
        if index is None:
            return 0
        # an index deleted since index_of (another client's clear) has no shard to refresh or count: 0 documents
        ok(url, "POST", f"/{index}/_refresh?ignore_unavailable=true", timeout_s=30.0)
        return int(ok(url, "GET", f"/{index}/_count?ignore_unavailable=true")["count"])

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        from ycsbctl.stores.elasticsearch.stats import ElasticsearchStatsSampler

        return [ElasticsearchStatsSampler(url, interval_s)]

    def reading(self, url: str) -> Reading:
        """Every index's store size and documents after a refresh (YCSB's ``es.ycsb``, a workload plug-in's
        ``items``), as the SQL stores read their whole database: a load's growth is its own index's, whichever it is."""
        from ycsbctl.stores.elasticsearch.admin import all_stats, call

        call(url, "POST", "/_refresh", timeout_s=30.0)
        s = all_stats(url)
        if not s.get("store"):
            return Reading(0.0, None, 0)
        return Reading(float(s["store"]["size_in_bytes"]), None, int(s["docs"]["count"]),
                       {"docs_deleted": s["docs"].get("deleted")})

    def server_cores(self, target: str, limit: float) -> float:
        return limit  # search and write thread pools


PROTOCOL = register(ElasticsearchProtocol())
