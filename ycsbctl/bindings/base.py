"""The binding contract: one instance (one connection) per client thread, async, → Status."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum

Fields = Sequence[bytes] | None  # None = all fields
Values = Sequence[tuple[bytes, bytes]]  # (field name, value)


class Status(IntEnum):
    """YCSB's outcome of one operation (``Return=OK`` …)."""

    OK = 0
    NOT_FOUND = 1
    ERROR = 2
    TIMEOUT = 3


@dataclass
class ChainContext:
    """What a binding needs to run a chain of operations itself (see ``RedisBinding.chain``):
    the engine's measurement log, where its values and acknowledgements go, and when to stop."""

    log: Callable[[tuple[int, int, int, int, int]], None]  # (op, status, t0 ns, t1 ns, due ns)
    names: Sequence[tuple[bytes, ...]]  # by field index + 1: all field names, then each one alone
    values: Callable[[int], list[bytes]]  # field index (−1 = all) → the values of those names
    ack: Callable[[int], None] | None  # run-phase inserts: acknowledge the key number
    deadline_ns: int
    stop_on_error: bool  # load phase: a failed insert ends the chain (and the thread, as YCSB)


class ConnectionLost(Exception):
    """The server went away and could not be reached again: the client stops."""


class Binding(ABC):
    """One client's connection to one server. Every call returns a :class:`Status`; only
    :class:`ConnectionLost` escapes (the engine ends that client and records why).
    ``last_error`` keeps the message of the latest ERROR/TIMEOUT for the report."""

    last_error: str | None = None

    async def connect(self) -> None:  # noqa: B027 - optional hook
        """Open the connection (called once, before the timed phase)."""

    async def close(self) -> None:  # noqa: B027 - optional hook
        """Close it (called once, after the timed phase)."""

    @abstractmethod
    async def read(self, table: str, key: bytes, fields: Fields) -> Status: ...

    @abstractmethod
    async def insert(self, table: str, key: bytes, values: Values) -> Status: ...

    @abstractmethod
    async def update(self, table: str, key: bytes, values: Values) -> Status: ...

    @abstractmethod
    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status: ...

    @abstractmethod
    async def delete(self, table: str, key: bytes) -> Status: ...
