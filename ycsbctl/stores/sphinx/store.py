"""Sphinx (``sphinx://host:9306``, SphinxQL): a real-time index of YCSB records; READ, INSERT, SCAN, DELETE."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ycsbctl.errors import UserError
from ycsbctl.stores.base import Reading, ServerFacts, ServerProtocol
from ycsbctl.stores.capabilities import FootprintReading, ServerUrls
from ycsbctl.stores.registry import register
from ycsbctl.stores.sphinx.media_items import SphinxItems
from ycsbctl.workload.media_items.contract import WORKLOAD as MEDIA_ITEMS

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.sampler import Sampler

_NO_UPDATE = ("Sphinx 2.2's UPDATE changes numeric attributes only; a string field changes by REPLACE of the whole "
              "document, not an update of one field")
FIELDS = 10  # the string attributes field0 … field9 of infra/sphinx/sphinx.conf's usertable


class SphinxProtocol(ServerProtocol, ServerUrls, FootprintReading):
    name = "sphinx"
    executors = {MEDIA_ITEMS: SphinxItems}
    duplicate_insert = ("duplicate id '",)  # a real-time index's INSERT of an id it holds
    schemes = ("sphinx",)
    example = "sphinx://host:9306"
    footprint_basis = "rt index ram_bytes + disk_bytes"  # SHOW INDEX … STATUS, every index's
    unsupported = {"UPDATE": _NO_UPDATE, "READ-MODIFY-WRITE": _NO_UPDATE}

    def validate(self, url: str) -> None:
        hint = f"use {self.example} (searchd's SphinxQL listener), e.g. sphinx://127.0.0.1:9306"
        try:
            u = urlsplit(url)
            u.port  # noqa: B018 - parses the port
        except ValueError as exc:
            raise UserError(f"bad Sphinx URL ({exc}): {hint}") from None
        if not u.hostname or u.path.strip("/") or u.query or u.username or u.password:
            raise UserError(f"bad Sphinx URL {url!r} (searchd has no users or databases): {hint}")

    def check_properties(self, url: str | None, properties: dict[str, str]) -> None:
        prefix = properties.get("fieldnameprefix", "field")
        count = int(properties.get("fieldcount", str(FIELDS)) or FIELDS)
        if prefix != "field" or count > FIELDS:
            raise UserError("Sphinx's index usertable has YCSB's ten fields (field0 … field9, "
                            "infra/sphinx/sphinx.conf): "
                            f"use fieldcount ≤ {FIELDS} and fieldnameprefix=field (got {count}, {prefix!r})")

    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        if password:
            raise UserError("ycsbctl cannot give a Sphinx server a password", exit_code=1)
        return f"sphinx://{f'[{host}]' if ':' in host else host}:{port}"

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        from ycsbctl.stores.binding_set import connect_wire
        from ycsbctl.stores.sphinx.admin import address
        from ycsbctl.stores.sphinx.binding import SphinxBinding

        host, port = address(url)
        return await connect_wire([SphinxBinding(host, port, timeout_s) for _ in range(clients)], timeout_s)

    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        from ycsbctl.stores.sphinx.admin import query

        query(url, "SHOW STATUS", timeout_s)

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        from ycsbctl.stores.sphinx.admin import query, server_version

        variables = {str(k): str(v) for k, v in query(url, "SHOW VARIABLES")}
        version = server_version(url).split("-")[0]
        return ServerFacts(f"Sphinx {version} (real-time index, no binary log)", version, {"variables": variables},
                           {"server": "Sphinx", "version": version, "durability": "no binary log"})

    def clear(self, url: str, table: str) -> None:
        """``TRUNCATE RTINDEX`` of the index named ``table`` (``items``: a workload plug-in's), else ``usertable``."""
        from ycsbctl.stores.sphinx.admin import query, rt_index

        query(url, f"TRUNCATE RTINDEX {rt_index(url, table)}", 60.0)

    def count(self, url: str, table: str) -> int | None:
        from ycsbctl.stores.sphinx.admin import documents, rt_index

        return documents(url, rt_index(url, table))

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        from ycsbctl.stores.sphinx.stats import SphinxStatusSampler

        return [SphinxStatusSampler(url, interval_s)]

    def reading(self, url: str) -> Reading:
        """Every index's RAM and disk bytes and documents (YCSB's ``usertable``, a workload plug-in's ``items``),
        as the SQL stores read their whole database: a load's growth is its own index's, whichever it is."""
        from ycsbctl.stores.sphinx.admin import index_status, indexes, number

        each = [index_status(url, name) for name in indexes(url)]
        rams = [r for r in (number(s, "ram_bytes") for s in each) if r is not None]
        ram = sum(rams) if rams else None
        disk = sum(number(s, "disk_bytes") or 0.0 for s in each)
        docs = sum(int(number(s, "indexed_documents") or 0) for s in each)
        return Reading(None if ram is None else ram + disk, None, docs, {"ram_bytes": ram, "disk_bytes": disk})


PROTOCOL = register(SphinxProtocol())
