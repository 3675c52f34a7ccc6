"""The binding contract: one instance (one connection) per client thread, async, → Status."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Protocol

Fields = Sequence[bytes] | None  # None = all fields
Values = Sequence[tuple[bytes, bytes]]  # (field name, value)


class Status(IntEnum):
    """YCSB's outcome of one operation (``Return=OK`` …)."""

    OK = 0
    NOT_FOUND = 1
    ERROR = 2
    TIMEOUT = 3
    UNEXPECTED_STATE = 4  # dataintegrity: a read returned other data than was written (VERIFY)


if TYPE_CHECKING:
    from ycsbctl.stores.chain import ChainRun, WriteBatch


class DueAlarm(Protocol):
    """Wakes a chain at a time: ``at(due_ns)`` is a future resolved once that perf_counter ns has come."""

    def at(self, due_ns: int) -> asyncio.Future: ...


class Pacing(Protocol):
    """A client thread's schedule as a chain uses it (the engine's ``engine.throttle.Pacer``):
    :meth:`due` is the next operation's due time (ns, perf_counter clock), :meth:`started` and
    :meth:`ended` mark its request written at ``t0`` and its reply in at ``t1``."""

    @property
    def alarm(self) -> DueAlarm: ...

    def due(self) -> int: ...

    def started(self, due: int, t0: int) -> None: ...

    def ended(self, t0: int, t1: int) -> None: ...


@dataclass
class ChainContext:
    """What a binding needs to run a chain of operations itself (see ``RedisBinding.chain``):
    the engine's one timing call, where its values and acknowledgements go, and when to stop.
    A binding never measures anything else: each operation it completes goes to ``record``."""

    record: Callable[[int, int, int, int, int], None]  # (op, Status, t0 ns, t1 ns, due ns): Recorder.record
    names: Sequence[tuple[bytes, ...]]  # by field index + 1: all field names, then each one alone
    values: Callable[[int], list[bytes]]  # field index (−1 = all) → the values of those names
    ack: Callable[[int], None] | None  # run-phase inserts: acknowledge the key number
    deadline_ns: int
    stop_on_error: bool  # load phase: a failed insert ends the chain (and the thread, as YCSB)
    table: str = "usertable"  # the workload's ``table`` (MongoDB's collection)
    pacer: Pacing | None = None  # with a target rate: each operation waits for its due time
    writes: WriteBatch | None = None  # the worker's: requests written at the end of each turn of the loop
    more: Callable[[ChainRun], bool] | None = None  # a chain that ran out: carry on with the client's next take?


class ConnectionLost(Exception):
    """The server went away and could not be reached again: the client stops."""


# A binding's fast path: ``chain(ctx, (ops, keys, key numbers, read fields, write fields), start, end)``
# runs the READ / UPDATE / INSERT operations ``start:end`` itself and returns (done, failed).
ChainRunner = Callable[["ChainContext", tuple[Any, ...], int, int], Awaitable[tuple[int, int]]]


class Binding(ABC):
    """One client's connection to one server. Every call returns a :class:`Status`; only
    :class:`ConnectionLost` escapes (the engine ends that client and records why).
    ``last_error`` keeps the message of the latest ERROR/TIMEOUT for the report.

    Two optional fast paths (go-ycsb's small capability interfaces): :attr:`chain`, a method that runs a
    run of operations without a coroutine per operation (``RedisBinding.chain``; None: the engine
    awaits each operation), and :meth:`read_values`, a read that hands back what it read
    (``dataintegrity=true``)."""

    last_error: str | None = None
    chain: ChainRunner | None = None  # a subclass with a fast path defines ``async def chain(...)``
    # True for a binding whose calls run to the end without suspending (an embedded store: SQLite): the
    # engine then hands the loop on by time (engine.worker.TURN_NS), not every 128 operations
    blocking: bool = False

    async def connect(self) -> None:  # noqa: B027 - optional hook
        """Open the connection, once, before the timed phase: the store's ``open_bindings`` calls it (a wire binding's
        through :func:`ycsbctl.stores.binding_set.connect_wire`, which starts the watchdog too); the engine never
        does."""

    async def close(self) -> None:  # noqa: B027 - optional hook
        """Close it (called once, after the timed phase)."""

    @abstractmethod
    async def read(self, table: str, key: bytes, fields: Fields) -> Status: ...

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        """A read that hands back what it read (field name → value; only the fields found), for
        ``dataintegrity=true``, which checks every read; the timed path calls :meth:`read`."""
        raise NotImplementedError(f"{type(self).__name__} cannot hand back values (dataintegrity)")

    @abstractmethod
    async def insert(self, table: str, key: bytes, values: Values) -> Status: ...

    @abstractmethod
    async def update(self, table: str, key: bytes, values: Values) -> Status: ...

    @abstractmethod
    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status: ...

    @abstractmethod
    async def delete(self, table: str, key: bytes) -> Status: ...


class WireProtocol(asyncio.Protocol):
    """One connection of a :class:`WireBinding`: ``waiters`` in request order, ``transport`` while
    connected, ``lost`` (why it closed). Subclasses parse replies in ``data_received`` and say in
    :meth:`fail` how one waiter learns that the connection is gone."""

    def __init__(self) -> None:
        self.waiters: deque = deque()
        self.transport: asyncio.Transport | None = None
        self.lost: str | None = None
        self.late = 0  # replies that came after their request timed out: discarded
        self.stray = 0  # replies to nothing we asked (e.g. the error a server sends as it refuses a client)
        self.said: str | None = None  # the first such unsolicited error text

    def unsolicited(self, text: str | None) -> None:
        """A reply no request waits for: count it, keep the first error text, never raise."""
        self.stray += 1
        if text and self.said is None:
            self.said = text

    def answer(self, reply: Any, error: str | None) -> None:
        """``reply`` goes to the oldest waiter; it is counted late when that waiter's request timed out,
        and unsolicited (with ``error``, its error text) when nothing waits."""
        if self.waiters:
            waiter = self.waiters.popleft()
            if not waiter.done():
                waiter.set_result(reply)
            else:
                self.late += 1
        else:
            self.unsolicited(error)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def fail(self, waiter, err: ConnectionError) -> None:
        """Tell ``waiter`` the connection is gone: a future gets the error, a chain of operations
        (``stores.chain.ChainRun``, no future) ends with it."""
        if not isinstance(waiter, asyncio.Future):
            waiter.fail(err)
        elif not waiter.done():
            waiter.set_exception(err)

    def connection_lost(self, exc: Exception | None) -> None:
        # a server that closes on us often says why first, in a reply nothing waited for
        self.lost = str(exc) if exc else (f"closed by the server: {self.said}" if self.said
                                          else "connection closed by the server")
        err = ConnectionError(self.lost)
        for waiter in self.waiters:
            self.fail(waiter, err)
        self.waiters.clear()
        self.transport = None


class WireBinding(Binding):
    """A binding that speaks its protocol itself on one connection with one request in flight (the
    Redis and MongoDB wire bindings): what they share — ``pending`` for the watchdog (see
    :func:`ycsbctl.stores.binding_set.watchdog`), expiry, connecting, reconnecting after a lost connection.

    Subclasses set ``proto`` (a :class:`WireProtocol`) in :meth:`open`
    and write requests in :meth:`send`, which returns the future of the reply."""

    EXPIRED: object = object()  # what an expired request's future resolves to
    SERVER = "the server"  # how messages name the other end

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self.proto: Any = None  # the subclass's WireProtocol while connected
        self.pending: asyncio.Future | None = None  # read by the watchdog
        self.loop: asyncio.AbstractEventLoop | None = None
        self.seq = 0  # requests issued per future (chains): the watchdog tells requests apart by it

    def address(self) -> str:
        raise NotImplementedError

    async def open(self) -> None:
        """Open the connection and do the protocol's handshake (bounded by :meth:`connect`)."""
        raise NotImplementedError

    def send(self, message) -> asyncio.Future:
        """Write ``message`` (bytes) and return the future of its reply, queued in request order (the
        protocol resolves the oldest waiter with each reply). Subclasses with a handshake of their own
        or other message types override it."""
        fut = self.loop.create_future()  # type: ignore[union-attr]
        self.proto.transport.write(message)
        self.proto.waiters.append(fut)
        return fut

    async def connect(self) -> None:
        self.loop = asyncio.get_running_loop()
        try:
            await asyncio.wait_for(self.open(), timeout=max(self.timeout_s, 1.0))
        except (OSError, asyncio.TimeoutError) as exc:
            await self.close()
            raise ConnectionLost(f"cannot reach {self.address()}: {str(exc) or 'no answer (timed out)'}") from None

    async def close(self) -> None:
        if self.proto is not None and self.proto.transport is not None:
            self.proto.transport.close()
        self.proto = None

    def expire(self) -> None:
        """Called by the watchdog: the request in flight has taken longer than the timeout."""
        fut = self.pending
        if fut is not None and not fut.done():
            fut.set_result(self.EXPIRED)

    async def _reconnect_or_raise(self) -> None:
        why = self.proto.lost if self.proto is not None else "not connected"
        await self.close()
        try:
            await self.connect()
        except ConnectionLost as exc:
            raise ConnectionLost(f"lost {self.SERVER} ({why}); reconnecting failed: {exc}") from None
        self.last_error = f"connection lost: {why}"

    async def call(self, message):
        """Send one request and return its reply; TIMEOUT or ERROR (``last_error`` says why) when it
        expired or the connection was lost (then reconnected, or :class:`ConnectionLost`)."""
        proto = self.proto
        if proto is None or proto.transport is None:
            await self._reconnect_or_raise()
            return Status.ERROR
        fut = self.pending = self.send(message)
        try:
            r = await fut
        except ConnectionError:
            self.pending = None
            await self._reconnect_or_raise()
            return Status.ERROR
        self.pending = None
        if r is self.EXPIRED:
            self.last_error = f"timed out after {self.timeout_s:g} s"
            return Status.TIMEOUT
        return r

