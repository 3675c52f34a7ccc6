"""redis-py clients for the calls outside the timed path (describe, probes, INFO sampler, footprint, disturbances):
every command, its whole reply included, within one deadline (:mod:`ycsbctl.stores.deadline`). redis-py's
``socket_timeout`` bounds each read alone; its connections here read through a
:class:`~ycsbctl.stores.deadline.DeadlineSocket`, and a command whose reply does not come whole in time raises
:class:`DeadlineTimeout` (a ``redis.TimeoutError``) saying which server, which command and how long."""

from __future__ import annotations

from typing import Any

import redis
from redis.connection import Connection, SSLConnection, UnixDomainSocketConnection

from ycsbctl.stores.deadline import DeadlinePassed, DeadlineSocket, passed_in

# What CLIENT SETINFO names, given once: without it redis-py ≥ 6 reads its own version from the installed package's
# metadata at every connection (importlib.metadata, ~10 ms of a core each; 20 connections a one-point run).
# redis-py 5 read it once, at import, as its default.
try:
    from redis.driver_info import DriverInfo

    _DRIVER: dict[str, Any] = {"driver_info": DriverInfo(lib_version=redis.__version__)}
except ImportError:
    _DRIVER = {}


class DeadlineTimeout(redis.exceptions.TimeoutError, DeadlinePassed):
    """A command's whole reply did not come within its deadline (redis-py's TimeoutError, so its callers' handling
    holds; ``str()`` is the user's line)."""


def command_name(data: bytes) -> str | None:
    """``INFO`` of a RESP request beginning ``*2\\r\\n$4\\r\\nINFO\\r\\n…`` (a pipeline: its first command); None for
    bytes that begin no request (the rest of a long one)."""
    if not data.startswith(b"*"):
        return None
    parts = data.split(b"\r\n", 3)
    if len(parts) < 4 or not parts[1].startswith(b"$") or not parts[2].isalpha():
        return None
    return parts[2].decode().upper()


class _Deadlined:
    """What the three connection kinds add: their socket wrapped, their timeouts said as a deadline passed."""

    socket_timeout: float | None
    host: str
    port: int

    def _connect(self) -> Any:
        sock = super()._connect()  # type: ignore[misc]
        where = getattr(self, "path", None) or f"{self.host}:{self.port}"
        return DeadlineSocket(sock, f"redis at {where}", self.socket_timeout or 5.0, command_name)

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().read_response(*args, **kwargs)  # type: ignore[misc]
        except redis.exceptions.TimeoutError as exc:
            raise _said(exc) from None

    def send_packed_command(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().send_packed_command(*args, **kwargs)  # type: ignore[misc]
        except redis.exceptions.TimeoutError as exc:
            raise _said(exc) from None


def _said(exc: redis.exceptions.TimeoutError) -> redis.exceptions.TimeoutError:
    """redis-py's "Timeout reading from …" said as the deadline that passed, when one did."""
    passed = passed_in(exc)
    if passed is None or isinstance(exc, DeadlinePassed):
        return exc
    said = DeadlineTimeout(str(passed))
    said.got = passed.got
    return said


class DeadlineConnection(_Deadlined, Connection):
    pass


class DeadlineSSLConnection(_Deadlined, SSLConnection):
    pass


class DeadlineUnixConnection(_Deadlined, UnixDomainSocketConnection):
    pass


def client(url: str, timeout_s: float, connect_timeout_s: float | None = None) -> redis.Redis:
    """A redis-py client of its own (never the engine's connections) whose every command, request and whole reply,
    takes at most ``timeout_s`` (connecting: ``connect_timeout_s``, by default the same)."""
    kind = {"rediss": DeadlineSSLConnection, "unix": DeadlineUnixConnection}.get(url.split(":", 1)[0],
                                                                                 DeadlineConnection)
    return redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=connect_timeout_s or timeout_s,
                                connection_class=kind, **_DRIVER)
