"""The contract of a store's reference client: the load generator its makers ship (``redis-benchmark``)
that ``ycsbctl calibrate`` holds ycsbctl's own client against, on the same server and the same records,
to tell whether the client is what limits a measurement."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class ReferenceRun:
    """What one run of the reference client measured: requests per second, its latency summary (µs, from
    its own report) and the CPU it used (s, user + system)."""

    command: str  # as run, any password masked
    requests: int
    ops_s: float
    mean_us: float
    p50_us: float
    p99_us: float
    max_us: float
    client_cpu_s: float

    @property
    def client_us_per_op(self) -> float:
        """Client CPU per request (µs)."""
        return 1e6 * self.client_cpu_s / self.requests if self.requests else float("nan")


class ReferenceClient(Protocol):
    """A store's reference load generator, reading the records ycsbctl loaded."""

    name: str  # the program (``redis-benchmark``)

    def key_properties(self) -> dict[str, str]:
        """The YCSB properties that name ycsbctl's records as the reference client names its keys
        (``insertorder=ordered``, ``zeropadding=12``: ``user000000000042``)."""
        ...

    def check(self, url: str) -> None:
        """A :class:`~ycsbctl.errors.UserError` when the client is missing or cannot reach ``url`` as ycsbctl does."""
        ...

    def read(self, url: str, clients: int, requests: int, records: int) -> ReferenceRun:
        """``requests`` reads of uniformly random records among the first ``records``, by ``clients``
        connections, each read the command ycsbctl's READ sends (``HGETALL``)."""
        ...

    def reads_served(self, url: str) -> int:
        """The server's own count of that read command so far (``INFO commandstats``)."""
        ...
