"""What a store may do beyond its core (go-ycsb's ``BatchDB``): one small interface per thing the rest of
ycsbctl asks, each a mixin a store's class declares by inheriting it (``class RedisProtocol(ServerProtocol,
Replication, …)``), its methods abstract, so that a store that declares one and leaves a method out cannot be
instantiated.

The rest of the tool asks a store for a capability, never for its name:
:func:`ycsbctl.stores.registry.capability` (the store as that interface, or None when it does not declare it)
and :func:`ycsbctl.stores.registry.ask` (one question, ``ask(url, Replication.replicas, url)``: None when the
store lacks its interface). A store without a capability is silence, for the caller to say what it knows
without the store's word; an error inside a store's answer propagates. The core every store answers is
:class:`~ycsbctl.stores.base.ServerProtocol`.

Interfaces are grouped by what a caller asks together: :class:`ClientPauses` (an embedded store's waits, asked
when a point stalled), :class:`DatasetFile` (an embedded store's file, before a read-only plan and around each
point)."""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ycsbctl.stores.base import Reading
    from ycsbctl.stores.disturb import Disturber, DisturbSpec
    from ycsbctl.stores.reference import ReferenceClient


class ServerUrls(ABC):
    """Servers ycsbctl starts (its ``server`` module's kinds, the catalogue's entries): their URLs."""

    @abstractmethod
    def server_url(self, host: str, port: int, password: str | None = None) -> str:
        """The URL of a server of this store that ycsbctl started at ``host:port``, with the ``password`` it
        was given (a server on another host gets one)."""

    def loopback_url(self, port: int) -> str:
        """The URL of a server of this store that ycsbctl started on loopback at ``port``."""
        return self.server_url("127.0.0.1", port)


class Tls(ABC):
    """Clients that speak TLS to a server ycsbctl started with a certificate (``--tls``)."""

    @abstractmethod
    def tls_url(self, url: str, ca_file: str) -> str:
        """``url`` (of a server ycsbctl started with TLS) as clients speak to it over TLS, trusting the CA
        certificate in ``ca_file``."""


class ErrorHints(ABC):
    """Advice on a point's error that the store recognises (a cluster node asked as one server)."""

    @abstractmethod
    def error_hint(self, error: str, properties: dict[str, str]) -> str | None:
        """What to do about a point's ``error`` (the server's own words) that the store recognises as a
        deployment the ``properties`` do not fit; None when it has none."""


class DatasetFile(ABC):
    """An embedded store whose dataset is a file on this host: it can tell one that holds nothing and which
    file it is."""

    @abstractmethod
    def check_unloaded(self, url: str) -> None:
        """Raise :class:`~ycsbctl.errors.UserError` when ``url``, which the plan reads without loading it (no
        ``--load``), plainly holds no dataset at all (a file that does not exist), while the plan is checked:
        before anything starts (or creates it)."""

    @abstractmethod
    def storage_id(self, url: str) -> tuple[str, str] | None:
        """What holds the dataset at ``url`` and which one it is — ("the SQLite file /x.db", "inode 12") — to
        tell it from another put in its place since; None when it cannot be told now."""


class DatasetLoss(ABC):
    """Counters of records the store dropped after acknowledging them (evictions, expiries)."""

    @abstractmethod
    def why_short(self, url: str) -> str | None:
        """Why the server may hold fewer records than it acknowledged, in its own counters (memcached's
        ``evictions``); None when it says nothing of the kind."""


class ClientPauses(ABC):
    """A store inside the client's processes (embedded): its waits are the client's own pauses."""

    @abstractmethod
    def pause_cause(self, url: str, counts: Mapping[str, int] | None = None) -> str | None:
        """Why the client's own loop may have stopped, from the store itself and the point's bindings' own
        ``counts`` (``PhaseResult.binding_counts``); None when it cannot tell."""

    @abstractmethod
    def own_lock_wait(self, url: str, processes: int, writes: int) -> str | None:
        """Why the client's own loop may have paused when nothing else holds the store: the engine's own
        ``processes`` waiting on each other's lock inside it (``writes``: the point's write operations); None
        when they did not."""


class StallCause(ABC):
    """A server that can say why it stopped answering."""

    @abstractmethod
    def stall_cause(self, url: str) -> str | None:
        """Why the server may have stopped answering, in its own words, asked after a point that stalled (a
        PostgreSQL primary whose commits wait for a synchronous standby that is gone); None when it says
        nothing of the kind."""


class Replication(ABC):
    """A primary with replicas (standbys) it can list."""

    @abstractmethod
    def replicas(self, url: str) -> list[str] | None:
        """The replicas the primary at ``url`` has connected now, as it names them (``127.0.0.1:6380``, a
        standby's ``application_name``), asked before and after each point: one gone is a deployment that
        changed while it was measured; [] for none, None when it cannot tell."""


class Calibration(ABC):
    """A load generator the store's makers ship, that ``ycsbctl calibrate`` measures ycsbctl's client against.
    """

    @abstractmethod
    def reference_client(self) -> ReferenceClient:
        """The store's own load generator (``redis-benchmark``)."""


class ReportedPid(ABC):
    """A server that reports its own process id (telemetry finds its process by it)."""

    @abstractmethod
    def reported_pid(self, url: str) -> int | None:
        """The PID the server reports for itself; None when it does not say now."""


class FootprintReading(ABC):
    """A store that reports what it holds: memory, RSS, records (``footprint_basis`` says which figure)."""

    @abstractmethod
    def reading(self, url: str) -> Reading | None:
        """One footprint reading; None when there is none to take."""


class CoreLimit(ABC):
    """A server that uses fewer cores than its host or CPU limit gives it (Redis's one main thread)."""

    @abstractmethod
    def server_cores(self, target: str, limit: float) -> float:
        """Cores the server can use, at most ``limit`` (its CPU limit or the host's cores)."""


class RealYcsb(ABC):
    """A binding of the real YCSB for this store (``--engine ycsb``; ``ycsb_db_class`` names its DB class)."""

    @abstractmethod
    def ycsb_binding(self, url: str, timeout_s: float) -> tuple[str, dict[str, str]]:
        """The real YCSB's binding for ``url`` (its ``bin/ycsb`` name) and the properties it connects with."""


class Disturbing(ABC):
    """Big keys or documents the store can build and act on during a point (``--disturb``,
    :mod:`ycsbctl.stores.disturb`)."""

    @abstractmethod
    def disturb_command(self, spec: DisturbSpec) -> str:
        """What ``spec``'s action sends on this store, in one line (the plan and the events table show it); a
        :class:`~ycsbctl.errors.UserError` when it has no analogue here."""

    @abstractmethod
    def disturber(self, url: str, spec: DisturbSpec, name: str) -> Disturber:
        """The :class:`~ycsbctl.stores.disturb.Disturber` of ``spec`` on the server at ``url``, its big key
        called ``name``."""


# every capability, in the order the docs list them
CAPABILITIES: tuple[type, ...] = (
    ServerUrls, Tls, ErrorHints, DatasetFile, DatasetLoss, ClientPauses, StallCause, Replication, Calibration,
    ReportedPid, FootprintReading, CoreLimit, RealYcsb, Disturbing)


def declared(store: object) -> tuple[type, ...]:
    """The capabilities ``store`` (a store, or its class) declares, in :data:`CAPABILITIES`' order."""
    cls = store if isinstance(store, type) else type(store)
    return tuple(c for c in CAPABILITIES if issubclass(cls, c))


@functools.cache
def questions() -> dict[str, type]:
    """Each capability's question (a method name: ``replicas``) → the capability that asks it."""
    return {name: cap for cap in CAPABILITIES for name, value in vars(cap).items()
            if callable(value) and not name.startswith("_")}
