"""``basic://``: YCSB's BasicDB — no server; the engine alone (what the client itself can do)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ycsbctl.stores.base import ServerFacts, ServerProtocol
from ycsbctl.stores.capabilities import RealYcsb
from ycsbctl.stores.registry import register

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet


class BasicProtocol(ServerProtocol, RealYcsb):
    name = "basic"
    schemes = ("basic",)
    example = "basic://"
    aliases = {"basic": "basic://"}  # no server: YCSB's BasicDB, the engine alone
    has_server = False
    engine_only = True
    ycsb_db_class = "BasicDB"

    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        from ycsbctl.stores.basic.binding import BasicBinding
        from ycsbctl.stores.binding_set import BindingSet

        return BindingSet([BasicBinding() for _ in range(clients)])

    def ycsb_binding(self, url: str, timeout_s: float) -> tuple[str, dict[str, str]]:
        return "basic", {"basicdb.verbose": "false"}  # one line per operation otherwise

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        return ServerFacts(name=expected or "BasicDB (no server)", version="")


PROTOCOL = register(BasicProtocol())
