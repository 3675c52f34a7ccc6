"""The provisioning contract: ``up(target) -> Endpoint``, ``down(endpoint)``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import Any


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
    backend: str
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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Endpoint:
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})



class Provisioner(ABC):
    """One backend (docker, local, external). Every server it starts is recorded so that
    ``down`` and Ctrl-C remove exactly ours."""

    name: str

    @abstractmethod
    def up(self, target: str, **options: Any) -> Endpoint:
        """Start (or attach to) ``target`` and return once it answers."""

    @abstractmethod
    def down(self, endpoint: Endpoint) -> None:
        """Stop what ``up`` started; a no-op for external endpoints."""
