"""What ycsbctl knows about one server protocol, in one object (see :mod:`ycsbctl.stores.registry`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.disturb import Disturber, DisturbSpec
    from ycsbctl.stores.sampler import Sampler


@dataclass
class ServerFacts:
    """``name`` is honest and versioned ("Redis 7.0.15", "FerretDB 1.24.0 (mongo-wire, SQLite backend)")."""

    name: str
    version: str
    config: dict[str, Any] = field(default_factory=dict)
    # what differs between servers of one protocol, from their own report (Redis INFO: version,
    # allocator, io-threads); see ycsbctl.stores.redis.info.server_traits
    traits: dict[str, Any] = field(default_factory=dict)


@dataclass
class Reading:
    """What a server says it holds (footprint): bytes of memory it reports, its RSS as it reports
    it, the records (keys, documents) and any other ``*_bytes`` figures (MongoDB's dbStats)."""

    db_memory_bytes: float | None
    db_rss_bytes: float | None
    keys: float | None
    extra: dict[str, Any] = field(default_factory=dict)


class ServerProtocol:
    """One server protocol: its URL schemes, bindings, admin calls, readiness probe, telemetry and
    footprint. Subclasses override what their servers can do; the defaults describe a protocol
    with no server behind it (``basic://``). Heavy client libraries are imported inside methods, so
    that importing the registry stays cheap (the engine's workers do)."""

    name: str = ""
    schemes: tuple[str, ...] = ()
    example: str = ""  # the URL shape shown in messages
    password_hint: str = ""  # where a password goes, for a server that refused ours ("" → it has no passwords)
    has_server: bool = True  # False: no server to probe, sample or size (basic://)
    footprint_basis: str = "used_memory"  # what bytes_per_record is computed from when the DB reports memory
    # operations (YCSB's names: SCAN, …) its servers cannot do → why; a plan with them is refused before it starts
    unsupported: ClassVar[dict[str, str]] = {}
    forks_per_connection: bool = False  # one server process per client connection (PostgreSQL): CPU of all of them

    # -- URLs ---------------------------------------------------------------------------------------
    def validate(self, url: str) -> None:
        """Raise :class:`~ycsbctl.errors.UserError` when ``url`` cannot be used (parsed by the client
        library's own URL parser)."""

    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        """The URL of a server of this protocol that ycsbctl started at ``host:port``, with the
        ``password`` it was given (a server on another host gets one)."""
        raise NotImplementedError(f"{self.name} servers are not started by ycsbctl")

    def loopback_url(self, port: int) -> str:
        """The URL of a server of this protocol that ycsbctl started on loopback at ``port``."""
        return self.server_url("127.0.0.1", port)

    def check_properties(self, url: str | None, properties: dict[str, str]) -> None:
        """Raise :class:`~ycsbctl.errors.UserError` for a binding property this store cannot take (a
        driver it does not have, or one that ``url`` cannot use; ``None``: a server ycsbctl starts),
        while the plan is checked: before anything starts."""

    # -- the timed path ------------------------------------------------------------------------------
    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        """``clients`` connected bindings (one per YCSB client thread)."""
        raise NotImplementedError

    # -- outside the timed path ---------------------------------------------------------------------
    def ping(self, url: str, timeout_s: float = 1.0) -> None:
        """Raise unless the server answers within ``timeout_s``."""

    def describe(self, url: str, expected: str = "") -> ServerFacts:
        """Name, version and configuration of the server (``expected``: the catalogue's name)."""
        return ServerFacts(name=expected or self.name, version="")

    def clear(self, url: str, table: str) -> None:
        """Remove what a load wrote."""

    def count(self, url: str, table: str) -> int | None:
        """Records stored (cheap, bounded to a few seconds); None when there is no server."""
        return None

    def reported_pid(self, url: str) -> int | None:
        """The PID the server reports for itself."""
        return None

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        """The protocol's own telemetry samplers (what the server reports at ``interval_s``)."""
        return []

    def reading(self, url: str) -> Reading | None:
        """One footprint reading; None when there is no server."""
        return None

    def ycsb_binding(self, url: str, timeout_s: float) -> tuple[str, dict[str, str]]:
        """The real YCSB's binding for ``url`` (its ``bin/ycsb`` name) and the properties it connects with."""
        from ycsbctl.errors import UserError

        raise UserError(f"cannot run the real YCSB against a {self.name} URL")

    def server_cores(self, target: str, limit: float) -> float:
        """Cores the server can use, at most ``limit`` (its CPU limit or the host's cores)."""
        return limit

    # -- disturbances (ycsbctl.stores.disturb) ------------------------------------------------------
    def disturb_command(self, spec: DisturbSpec) -> str:
        """What ``spec``'s action sends on this protocol, in one line (the plan and the events table
        show it); a :class:`~ycsbctl.errors.UserError` when it has no analogue here."""
        from ycsbctl.errors import UserError

        raise UserError(f"--disturb {spec.text}: {self.name} targets have no big keys to disturb")

    def disturber(self, url: str, spec: DisturbSpec, name: str) -> Disturber:
        """The :class:`~ycsbctl.stores.disturb.Disturber` of ``spec`` on the server at ``url``, its big
        key called ``name``."""
        raise NotImplementedError(self.disturb_command(spec))
