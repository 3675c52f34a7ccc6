"""The provisioning contract: ``up(target) -> Endpoint``, ``down(endpoint)``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ycsbctl.stores import registry

if TYPE_CHECKING:
    from ycsbctl.stores.base import ServerProtocol

# Where a server runs: in a container (docker), as a process of this host (local), or run by the user (external).
Backend = Literal["docker", "local", "external"]
# What a user may ask for: one of those, or auto (docker when it can, else local).
BackendChoice = Literal["auto", "docker", "local", "external"]


@dataclass
class Endpoint:
    """A running server the engine can talk to.

    ``url`` is what bindings take (``redis://127.0.0.1:6379/0``, ``mongodb://127.0.0.1:27017/ycsb``,
    ``basic://``). ``backend`` is ``docker`` | ``local`` | ``external``. Exactly one of ``pid``
    and ``container_id`` is set when we started the server. ``config`` is the server's own dump
    (``CONFIG GET *``, ``getCmdLineOpts``), credentials redacted. ``cpu_limit_cores`` is what the
    server may use (for the bottleneck label); None means all host cores. ``host`` is where the
    server runs: None for this host, else the name or address of the Docker engine's host that
    ``url`` reaches it at; ``docker_host`` is the engine a container was started on (its URL).
    ``target`` is the label the plan gives it (``redis-lazyfree``), ``kind`` the catalogue entry.
    """

    target: str
    protocol: str  # "redis" | "mongodb" | "basic"
    url: str
    backend: Backend
    pid: int | None = None
    container_id: str | None = None
    server_name: str = ""  # what actually answers, e.g. "Redis", "FerretDB (mongo-wire, SQLite)"
    server_version: str = ""
    config: dict[str, Any] = field(default_factory=dict)
    log_path: str | None = None
    cpu_limit_cores: float | None = None
    memory_limit_bytes: int | None = None
    notes: list[str] = field(default_factory=list)
    host: str | None = None
    docker_host: str | None = None
    kind: str = ""  # the catalogue entry it was started as ("redis" for the label "redis-lazyfree"); "" for a URL
    settings: dict[str, str] = field(default_factory=dict)  # --server-config given on its command line
    binary: str | None = None  # the local server binary that runs
    traits: dict[str, Any] = field(default_factory=dict)  # what differs between servers, from their own INFO
    # False: its store has no server (basic://, sqlite://): said by the protocol, recorded for the report
    has_server: bool = True
    # A target of several processes (a cluster's shards, a primary and its replicas): each one's
    # ``role``, ``pid``, ``port`` and ``url``; empty for one process (``pid``/``container_id`` say it)
    processes: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        proto = registry.named(self.protocol)
        if proto is not None:
            self.has_server = proto.has_server

    @property
    def store(self) -> ServerProtocol:
        """The store this endpoint's server speaks (its ``protocol``, named when it came up): what a point asks
        questions of, without reading its URL again."""
        return registry.get(self.protocol)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Endpoint:
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})



@dataclass
class UpOptions:
    """How a provisioner starts a server (what :func:`ycsbctl.provision.provision` was given).

    ``server_cpus``: a cpuset (``0-1``); ``server_memory``: a size (``2g``); ``port``: the host port
    (None: the server's own on another host, else a free one on 127.0.0.1); ``image`` and
    ``host_network``: docker only; ``docker_host``: the Docker engine's URL (None: ``$DOCKER_HOST``);
    ``ready_timeout_s``: how long to wait for the server to answer, s (None: the backend's default);
    ``say``: where progress lines go (None: nowhere); ``notes``: kept in the endpoint's notes;
    ``kind``, ``settings``, ``binary``: a labelled target's catalogue name, server settings and build.
    """

    experiment_id: str = "manual"
    image: str | None = None
    server_cpus: str | None = None
    server_memory: str | None = None
    host_network: bool = False
    port: int | None = None
    say: Callable[[str], None] | None = None
    notes: list[str] = field(default_factory=list)
    docker_host: str | None = None
    ready_timeout_s: float | None = None
    kind: str | None = None  # the catalogue name of a labelled target (None: the target is its own kind)
    settings: dict[str, str] = field(default_factory=dict)  # on the server's command line, as in its config file
    binary: str | None = None  # a local build to run (--binary), local backend only
    tls: bool = False  # clients speak TLS to it (--tls, or a TLS kind such as redis-tls)

    def to_store(self) -> dict[str, Any]:
        """The options worth keeping in the state file for ``restart`` (no callables, no None)."""
        keep = ("experiment_id", "server_cpus", "server_memory", "image", "host_network", "docker_host", "kind",
                "settings", "binary", "tls")
        return {k: getattr(self, k) for k in keep if getattr(self, k) is not None}

    def progress(self, msg: str) -> None:
        """One progress line to ``say``, if any."""
        if self.say is not None:
            self.say(msg)


class Provisioner(ABC):
    """One backend (docker, local, external). Every server it starts is recorded so that
    ``down`` and Ctrl-C remove exactly ours."""

    name: str

    @abstractmethod
    def up(self, target: str, options: UpOptions | None = None) -> Endpoint:
        """Start (or attach to) ``target`` and return once it answers."""

    @abstractmethod
    def down(self, endpoint: Endpoint) -> None:
        """Stop what ``up`` started; a no-op for external endpoints."""
