"""What every store answers, in one object (see :mod:`ycsbctl.stores.registry`); what only some stores can do
is declared through the small interfaces of :mod:`ycsbctl.stores.capabilities`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.sampler import Sampler
    from ycsbctl.workload.properties import Properties


@dataclass
class ServerFacts:
    """``name`` is honest and versioned ("Redis 7.0.15", "FerretDB 1.24.0 (mongo-wire, SQLite backend)")."""

    name: str
    version: str
    config: dict[str, Any] = field(default_factory=dict)
    # what differs between servers of one protocol, from their own report (Redis INFO: version,
    # allocator, io-threads); see ycsbctl.stores.redis.info.server_traits
    traits: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StandIn:
    """A catalogue target the default plan measures in place of the store's own when that cannot be provisioned
    here, labelled as itself (FerretDB for MongoDB)."""

    target: str  # the catalogue target measured instead (``ferretdb``)
    speaks: str  # the protocol it speaks, in a sentence (``MongoDB``: "the MongoDB-protocol stand-in")


@dataclass
class Reading:
    """What a server says it holds (footprint): bytes of memory it reports, its RSS as it reports
    it, the records (keys, documents) and any other ``*_bytes`` figures (MongoDB's dbStats)."""

    db_memory_bytes: float | None
    db_rss_bytes: float | None
    keys: float | None
    extra: dict[str, Any] = field(default_factory=dict)


class ServerProtocol:
    """One store's core, what the rest of ycsbctl asks of every store: its facts (the class attributes), its
    URLs and binding properties checked before a run, its bindings (:meth:`open_bindings`, the one method
    without a default), and the admin calls outside the timed path (ping, describe, clear, count, its
    samplers). The defaults describe a store with no server behind it (``basic://``): no objection, nothing to
    clear, no count, no sampler.

    Whatever only some stores can do (start servers, TLS, replicas, a footprint, disturbances, the real YCSB's
    binding, …) is no method here: a store declares it by inheriting the small interfaces of
    :mod:`ycsbctl.stores.capabilities`, and callers ask :func:`ycsbctl.stores.registry.capability` for it.
    Heavy client libraries are imported inside methods, so that importing the registry stays cheap (the
    engine's workers do)."""

    name: str = ""  # the protocol's name in plans, manifests and messages (``redis``)
    schemes: tuple[str, ...] = ()  # the URL schemes it serves (``redis``, ``rediss``)
    example: str = ""  # the URL shape shown in messages and help texts (``redis://host:port[/db]``)
    # bare names a target list takes for a URL of this store (``basic`` → ``basic://``)
    aliases: ClassVar[dict[str, str]] = {}
    url_lists_hosts: bool = False  # its URLs list hosts with commas (``mongodb://h1,h2/db``): a target list keeps them
    password_hint: str = ""  # where a password goes, for a server that refused ours ("" → it has no passwords)
    # what the store says of an insert whose key it already holds (a part of its error text); () → such an insert
    # overwrites the record (Redis, memcached) or stores it again (ClickHouse's MergeTree), and says nothing
    duplicate_insert: tuple[str, ...] = ()
    # True: an insert of a key it holds replaces that record (Redis's HSET): a load into a target that holds its
    # records leaves one record per key, counted as keys. False: it refuses such an insert or stores the key twice
    # (ClickHouse), so `ycsbctl load` into a URL that holds keys it inserts is refused before it starts
    # (:mod:`ycsbctl.experiment.url_datasets`)
    insert_overwrites: bool = False
    # False: no server to probe, sample or size, no network to measure (basic://, sqlite://); a
    # store without it would be taken for a server on another host (an iperf3 baseline, no server CPU)
    has_server: bool = True
    title: str = ""  # its name in a sentence, when not ``name`` (``SQLite``)
    # True: its bindings answer inside the engine's workers and open no socket or file (basic://):
    # no descriptor limit to raise, and the run phase leaves no core free for a server
    engine_only: bool = False
    # the real YCSB's DB class for the binding its ``ycsb_binding`` names (capabilities.RealYcsb), under the
    # install's package (``db.RedisClient`` → ``site.ycsb.db.RedisClient``); "" → ``--engine ycsb`` is refused
    ycsb_db_class: str = ""
    # other YCSB DB classes (simple names) whose logs measured this store, for ``import-ycsb``
    ycsb_log_db_classes: tuple[str, ...] = ()
    footprint_basis: str = "used_memory"  # what bytes_per_record is computed from when the DB reports memory
    # operations (YCSB's names: SCAN, …) its servers cannot do → why; a plan with them is refused before it starts
    unsupported: ClassVar[dict[str, str]] = {}
    forks_per_connection: bool = False  # one server process per client connection (PostgreSQL): CPU of all of them
    # its executors for ycsbctl's plug-in workloads: workload name (``media-items``) -> executor class, each in the
    # store's own package (``stores/redis/media_items.py``); the registry hands them to the workloads
    # (:mod:`ycsbctl.workload.store_executors`). A workload it has none for is refused on it, with the reason
    executors: ClassVar[Mapping[str, type]] = {}
    # its URL schemes that speak TLS (``rediss``): a silent server may want a handshake
    tls_schemes: tuple[str, ...] = ()
    # the ``source`` of its samplers' rows that each hold one shard of a several-shard target (``redis-shard``): the
    # per-shard load balance (telemetry's shard_balance); "" → its targets are one process
    shard_source: str = ""
    # what the default plan measures when the catalogue target named as this store cannot be provisioned here
    stand_in: StandIn | None = None

    # -- URLs ---------------------------------------------------------------------------------------
    def validate(self, url: str) -> None:
        """Raise :class:`~ycsbctl.errors.UserError` when ``url`` cannot be used (parsed by the client
        library's own URL parser)."""

    def url_with_properties(self, url: str, properties: Properties) -> str:
        """``url`` with what the binding's ``-p`` properties add to it (Redis: ``redis.password``), so
        that the checks before a run, telemetry and the clients all connect alike."""
        return url

    def check_properties(self, url: str | None, properties: dict[str, str]) -> None:
        """Raise :class:`~ycsbctl.errors.UserError` for a binding property this store cannot take (a
        driver it does not have, or one that ``url`` cannot use; ``None``: a server ycsbctl starts),
        while the plan is checked: before anything starts."""

    def start_notes(self, url: str, properties: dict[str, str]) -> list[str]:
        """What the server at ``url`` makes of the binding ``properties``, said once when its target is up and
        before its first point (a setting it cannot honour in full and what is done instead); [] for nothing."""
        return []

    def plugin_refusal(self, properties: dict[str, str]) -> str | None:
        """Why a workload plug-in's executor cannot run with these binding ``properties`` (it speaks through
        the store's own binding, e.g. ``resp``), as the end of a sentence naming the workload; None when it
        can. In the core, not a capability: the workload layer asks it (``workload.plugin.PluginStore``),
        below the stores."""
        return None

    # -- the timed path ------------------------------------------------------------------------------
    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        """``clients`` connected bindings (one per YCSB client thread)."""
        raise NotImplementedError

    # -- outside the timed path ---------------------------------------------------------------------
    def admin_errors(self) -> tuple[type[BaseException], ...]:
        """The exceptions its calls outside the timed path (:meth:`ping`, ``replicas``, ``why_short``, …) raise
        when the server cannot be asked: gone, refusing, past its deadline, or answering with an error. Here
        ``OSError`` (refused and reset connections, timeouts, :class:`~ycsbctl.stores.deadline.DeadlinePassed`), what
        a store speaking its own wire protocol over a socket raises; a store whose admin calls go through a client
        library adds that library's errors (imported here, when asked). A caller that asks a server which may be gone
        (:func:`~ycsbctl.stores.registry.ask`) catches these and nothing else: any other error is a bug."""
        return (OSError,)

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

    def open_without_credentials(self, url: str) -> bool:
        """Whether the server at ``url`` (given without user and password) serves a client that did not
        authenticate: it has no authentication. Here: it answers :meth:`ping`."""
        try:
            self.ping(url, 5.0)
        except Exception:  # noqa: BLE001 - it wants credentials (or does not answer)
            return False
        return True

    def already_held(self, error: str) -> bool:
        """Whether ``error`` (a binding's ``last_error``) is the store refusing an insert of a key it holds."""
        return any(said in error for said in self.duplicate_insert)

    def samplers(self, url: str, interval_s: float) -> list[Sampler]:
        """The protocol's own telemetry samplers (what the server reports at ``interval_s``)."""
        return []
