"""What ycsbctl knows about one server protocol, in one object (see :mod:`ycsbctl.stores.registry`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.disturb import Disturber, DisturbSpec
    from ycsbctl.stores.reference import ReferenceClient
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
    """One server protocol: its URL schemes, bindings, admin calls, readiness probe, telemetry and
    footprint. Subclasses override what their servers can do; the defaults describe a protocol
    with no server behind it (``basic://``). Heavy client libraries are imported inside methods, so
    that importing the registry stays cheap (the engine's workers do)."""

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
    # the real YCSB's DB class for the binding :meth:`ycsb_binding` names, under the install's package
    # (``db.RedisClient`` → ``site.ycsb.db.RedisClient``); "" → ``--engine ycsb`` is refused for it
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
    tls_schemes: tuple[str, ...] = ()  # its URL schemes that speak TLS (``rediss``): a silent server may want a handshake
    # the ``source`` of its samplers' rows that each hold one shard of a several-shard target (``redis-shard``): the
    # per-shard load balance (telemetry's shard_balance); "" → its targets are one process
    shard_source: str = ""
    # what the default plan measures when the catalogue target named as this store cannot be provisioned here
    stand_in: StandIn | None = None

    # -- URLs ---------------------------------------------------------------------------------------
    def validate(self, url: str) -> None:
        """Raise :class:`~ycsbctl.errors.UserError` when ``url`` cannot be used (parsed by the client
        library's own URL parser)."""

    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        """The URL of a server of this protocol that ycsbctl started at ``host:port``, with the
        ``password`` it was given (a server on another host gets one)."""
        raise NotImplementedError(f"{self.name} servers are not started by ycsbctl")

    def tls_url(self, url: str, ca_file: str) -> str:
        """``url`` (of a server ycsbctl started with TLS) as clients speak to it over TLS, trusting the CA
        certificate in ``ca_file``."""
        from ycsbctl.errors import UserError

        raise UserError(f"ycsbctl cannot speak TLS to {self.name} servers yet")

    def loopback_url(self, port: int) -> str:
        """The URL of a server of this protocol that ycsbctl started on loopback at ``port``."""
        return self.server_url("127.0.0.1", port)

    def url_with_properties(self, url: str, properties: Properties) -> str:
        """``url`` with what the binding's ``-p`` properties add to it (Redis: ``redis.password``), so
        that the checks before a run, telemetry and the clients all connect alike."""
        return url

    def plugin_refusal(self, properties: dict[str, str]) -> str | None:
        """Why a workload plug-in's executor cannot run with these binding ``properties`` (it speaks
        through the store's own binding, e.g. ``resp``), as the end of a sentence naming the workload;
        None when it can."""
        return None

    def check_properties(self, url: str | None, properties: dict[str, str]) -> None:
        """Raise :class:`~ycsbctl.errors.UserError` for a binding property this store cannot take (a
        driver it does not have, or one that ``url`` cannot use; ``None``: a server ycsbctl starts),
        while the plan is checked: before anything starts."""

    def start_notes(self, url: str, properties: dict[str, str]) -> list[str]:
        """What the server at ``url`` makes of the binding ``properties``, said once when its target is up and
        before its first point (a setting it cannot honour in full and what is done instead); [] for nothing."""
        return []

    def error_hint(self, error: str, properties: dict[str, str]) -> str | None:
        """What to do about a point's ``error`` (the server's own words) that the store recognises as a
        deployment the ``properties`` do not fit (a cluster node asked as one server); None when it has none."""
        return None

    def check_unloaded(self, url: str) -> None:
        """Raise :class:`~ycsbctl.errors.UserError` when ``url``, which the plan reads without loading it
        (no ``--load``), plainly holds no dataset at all (an embedded store's file that does not exist),
        while the plan is checked: before anything starts (or creates it)."""

    # -- the timed path ------------------------------------------------------------------------------
    async def open_bindings(self, url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
        """``clients`` connected bindings (one per YCSB client thread)."""
        raise NotImplementedError

    # -- outside the timed path ---------------------------------------------------------------------
    def admin_errors(self) -> tuple[type[BaseException], ...]:
        """The exceptions its calls outside the timed path (:meth:`ping`, :meth:`replicas`, :meth:`why_short`, …) raise
        when the server cannot be asked: gone, refusing, past its deadline, or answering with an error. Here
        ``OSError`` (refused and reset connections, timeouts, :class:`~ycsbctl.stores.deadline.DeadlinePassed`), what
        a store speaking its own wire protocol over a socket raises; a store whose admin calls go through a client
        library adds that library's errors (imported here, when asked). A caller that asks a server which may be gone
        (:func:`~ycsbctl.stores.registry.store_says`) catches these and nothing else: any other error is a bug."""
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

    def reported_pid(self, url: str) -> int | None:
        """The PID the server reports for itself."""
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

    def why_short(self, url: str) -> str | None:
        """Why the server may hold fewer records than it acknowledged, in its own counters (memcached's
        ``evictions``); None when it says nothing of the kind."""
        return None

    def storage_id(self, url: str) -> tuple[str, str] | None:
        """What holds the dataset at ``url`` and which one it is — ("the SQLite file /x.db", "inode 12") — to tell
        it from another put in its place since; None when it cannot be told (a server's)."""
        return None

    def pause_cause(self, url: str, counts: Mapping[str, int] | None = None) -> str | None:
        """Why the client's own loop may have stopped, when the store can tell (an embedded store runs
        inside the client's processes, so its waits are the client's pauses), from the store itself and the
        point's bindings' own ``counts`` (``PhaseResult.binding_counts``); None when it cannot."""
        return None

    def own_lock_wait(self, url: str, processes: int, writes: int) -> str | None:
        """Why the client's own loop may have paused when nothing else holds the store: the engine's own
        ``processes`` waiting on each other's lock inside the store (``writes``: the point's write operations),
        said as that; None when the store has no such lock (a server's clients wait on the network, not the loop)."""
        return None

    def stall_cause(self, url: str) -> str | None:
        """Why the server may have stopped answering, in its own words, asked after a point that stalled (a
        PostgreSQL primary whose commits wait for a synchronous standby that is gone); None when it says
        nothing of the kind or cannot be asked."""
        return None

    def replicas(self, url: str) -> list[str] | None:
        """The replicas (standbys) the primary at ``url`` has connected now, as it names them (``127.0.0.1:6380``, a
        standby's ``application_name``), asked before and after each point: one gone is a deployment that changed
        while it was measured; [] for none, None when the store has no replicas to ask about."""
        return None

    def reference_client(self) -> ReferenceClient | None:
        """The load generator the store's makers ship (``redis-benchmark``), that ``ycsbctl calibrate``
        measures ycsbctl's client against; None when it has none."""
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
