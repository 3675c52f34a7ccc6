"""One deadline per request or admin call, whole reply included.

A per-read timeout (``socket.settimeout``) bounds each ``recv`` alone: a server that sends its reply one byte every
50 ms passes every read and takes minutes over the whole answer (issue 61: the INFO call of ``describe``). Here
each call gets a :class:`Deadline` when its request is written, and every read of its reply waits at most the time
that deadline leaves (``deadline - now``, computed before each ``recv``); once it has passed, the call raises
:class:`DeadlinePassed`, whose message is the one line the user reads::

    redis at 127.0.0.1:6390 did not finish its INFO reply within 5 s

Blocking admin connections of our own use :func:`recv` and :func:`sendall`; a client library that reads its socket
itself (redis-py) is handed a :class:`DeadlineSocket` in its place. The engine's asyncio bindings bound a whole
reply already (their watchdog expires the reply's future: :func:`ycsbctl.stores.binding_set.watchdog`). Never on a
hot path: admin calls, samplers, probes and provisioning only.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


class DeadlinePassed(TimeoutError):
    """A call's whole reply did not come within its deadline; ``str()`` is the user's line. A ``TimeoutError``
    (``socket.timeout``), so that a library reading the socket treats it as its own timeout (and drops the
    connection, whose reply is now out of step). ``got``: the bytes of the reply that did come (0: the server was
    silent, which a probe tells apart from a slow answer)."""

    got = 0


def passed_in(exc: BaseException | None) -> DeadlinePassed | None:
    """The :class:`DeadlinePassed` that ``exc`` is, or was raised from or while handling (a library's own timeout
    error wrapping ours), else None. At most 8 links of the chain are looked at (``exc`` and 7 causes or contexts
    behind it), so that a chain that loops back on itself ends."""
    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, DeadlinePassed):
            return exc
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return None


class Deadline:
    """``seconds`` from now for ``call`` (``INFO``, ``stats``, ``GET /_stats``) to ``server`` (``redis at
    127.0.0.1:6390``), request and whole reply."""

    __slots__ = ("server", "call", "seconds", "at", "got")

    def __init__(self, seconds: float, server: str, call: str) -> None:
        self.server, self.call, self.seconds = server, call, seconds
        self.at = time.monotonic() + seconds
        self.got = 0  # bytes of the reply read so far

    def passed(self) -> DeadlinePassed:
        if self.got:
            exc = DeadlinePassed(unfinished(self.server, self.call, self.seconds))
        else:
            exc = DeadlinePassed(f"{self.server} timed out: no reply to {self.call} within {self.seconds:g} s")
        exc.got = self.got
        return exc

    def left(self) -> float:
        """Seconds left (> 0); :class:`DeadlinePassed` once there are none."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise self.passed()
        return left


def unfinished(server: str, call: str, seconds: float) -> str:
    """The line of a reply that did not come whole in time: ``redis at … did not finish its INFO reply within 5 s``."""
    return f"{server} did not finish its {call} reply within {seconds:g} s"


def recv(sock: socket.socket, deadline: Deadline, size: int = 65536) -> bytes:
    """One ``recv`` of at most ``size`` bytes that waits no longer than ``deadline`` leaves; b"" when the server
    closed the connection."""
    sock.settimeout(deadline.left())
    try:
        data = sock.recv(size)
    except TimeoutError:
        raise deadline.passed() from None
    deadline.got += len(data)
    return data


def sendall(sock: socket.socket, data: bytes, deadline: Deadline) -> None:
    """Write ``data`` whole, within what ``deadline`` leaves (a server that reads nothing fills our buffer)."""
    sock.settimeout(deadline.left())
    try:
        sock.sendall(data)
    except TimeoutError:
        raise deadline.passed() from None


class DeadlineSocket:
    """A connected blocking socket, handed to a client library in place of its own, on which each call has one
    deadline: the library's write of a request (``sendall`` of bytes that ``call_of`` names: a new request)
    starts it, and every read waits at most the lesser of the library's own timeout and what the deadline
    leaves. Reads the library makes without waiting (timeout 0: a poll) or with flags (a peek at a closed
    connection) pass as they are. Everything else is the socket's own."""

    def __init__(self, sock: Any, server: str, seconds: float, call_of: Callable[[bytes], str | None]) -> None:
        self._sock, self.server, self.seconds, self.call_of = sock, server, seconds, call_of
        self.deadline: Deadline | None = None
        self._timeout: float | None = sock.gettimeout()  # what the library asked for

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def settimeout(self, value: float | None) -> None:
        self._timeout = value
        self._sock.settimeout(value)

    def gettimeout(self) -> float | None:
        return self._timeout

    def setblocking(self, flag: bool) -> None:
        self.settimeout(None if flag else 0.0)

    def _wait(self, flags: int) -> Deadline | None:
        """The deadline this read waits under, the socket's timeout set to it; None: the library's own read."""
        d = self.deadline
        if d is None or flags or self._timeout == 0:
            return None
        left = d.left()
        self._sock.settimeout(left if self._timeout is None else min(left, self._timeout))
        return d

    def _read(self, read: Callable[[], Any], d: Deadline | None) -> Any:
        try:
            return read()
        except TimeoutError:
            if d is not None and d.at <= time.monotonic():
                raise d.passed() from None
            raise
        finally:
            if d is not None:
                self._sock.settimeout(self._timeout)

    def recv(self, size: int, flags: int = 0) -> bytes:
        d = self._wait(flags)
        data = self._read(lambda: self._sock.recv(size, flags), d)
        if d is not None:
            d.got += len(data)
        return data

    def recv_into(self, buffer: Any, nbytes: int = 0, flags: int = 0) -> int:
        d = self._wait(flags)
        n = self._read(lambda: self._sock.recv_into(buffer, nbytes, flags), d)
        if d is not None:
            d.got += n
        return n

    def sendall(self, data: Any) -> None:
        call = self.call_of(bytes(data[:64]))
        if call is not None:
            self.deadline = Deadline(self.seconds, self.server, call)
        d = self._wait(0)
        self._read(lambda: self._sock.sendall(data), d)


async def within(aw: Awaitable[T], seconds: float, server: str, call: str) -> T:
    """``aw`` (a binding's call made where no watchdog runs: a seed connection's ``CLUSTER SLOTS`` or ``ROLE`` before
    the clients connect), its whole reply within ``seconds``; else :class:`~ycsbctl.stores.binding.ConnectionLost`
    with the deadline's line (the late reply is dropped when it comes)."""
    from ycsbctl.stores.binding import ConnectionLost

    try:
        return await asyncio.wait_for(aw, seconds)
    except asyncio.TimeoutError:
        raise ConnectionLost(unfinished(server, call, seconds)) from None
