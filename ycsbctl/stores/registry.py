"""The stores' registry, URL scheme -> store (go-ycsb's ``RegisterDBCreator``): nothing outside a
store's package branches on its protocol.

A store (:class:`ServerProtocol`, one package under :mod:`ycsbctl.stores`) declares its URL schemes,
validates URLs with its client library's own parser, opens the engine's bindings, and answers admin
calls (ping, describe, clear, count), telemetry (samplers, reported PID, footprint) and the
bottleneck's question (how many cores can the server use). Its ``store`` module calls
:func:`register` once; adding a store means adding one package and one line in :data:`_MODULES`.
The registry imports the stores lazily (by name), so that it stays at the bottom of the import graph.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ycsbctl.errors import UserError
from ycsbctl.stores.base import ServerProtocol
from ycsbctl.urls import redact_url

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet

# One store module per package; each registers its store when imported.
_MODULES = ("ycsbctl.stores.redis.store", "ycsbctl.stores.mongodb.store", "ycsbctl.stores.basic.store",
            "ycsbctl.stores.memcached.store", "ycsbctl.stores.sqlite.store", "ycsbctl.stores.postgresql.store",
            "ycsbctl.stores.mariadb.store")
_BY_NAME: dict[str, ServerProtocol] = {}
_BY_SCHEME: dict[str, ServerProtocol] = {}


def register(protocol: ServerProtocol) -> ServerProtocol:
    """Add ``protocol`` to the registry (each module calls this once for its protocol)."""
    _BY_NAME[protocol.name] = protocol
    for scheme in protocol.schemes:
        _BY_SCHEME[scheme] = protocol
    return protocol


def _load() -> None:
    if not _BY_NAME:
        for module in _MODULES:
            importlib.import_module(module)


def all_protocols() -> list[ServerProtocol]:
    _load()
    return list(_BY_NAME.values())


def schemes() -> tuple[str, ...]:
    """Every URL scheme a target may use (``redis``, ``rediss``, ``mongodb``, …)."""
    _load()
    return tuple(_BY_SCHEME)


def url_prefixes() -> tuple[str, ...]:
    """``redis://``, ``mongodb://``, …: what a target URL starts with."""
    return tuple(f"{s}://" for s in schemes())


def get(name: str) -> ServerProtocol:
    """The protocol called ``name`` (``redis``, ``mongodb``, ``basic``)."""
    _load()
    try:
        return _BY_NAME[name]
    except KeyError:
        raise UserError(f"unknown protocol {name!r}: use one of {', '.join(_BY_NAME)}") from None


def scheme_of(url: str) -> str | None:
    scheme, sep, _ = url.partition("://")
    return scheme.lower() if sep else None


def find(url: str) -> ServerProtocol | None:
    """The protocol of a target URL, or None when ``url`` is no URL we accept (a catalogue name)."""
    _load()
    scheme = scheme_of(url)
    return _BY_SCHEME.get(scheme) if scheme else None


def for_url(url: str) -> ServerProtocol:
    """The protocol of ``url``; a one-line error naming the accepted shapes for anything else."""
    proto = find(url)
    if proto is None:
        shapes = ", ".join(p.example for p in all_protocols())
        raise UserError(f"unsupported target URL {redact_url(url)!r}: use {shapes}")
    return proto


def protocol_of(url: str) -> str:
    """The name of ``url``'s store (``redis``, ``mongodb``, ``basic``); a clear error for anything else."""
    return for_url(url).name


async def open_bindings(url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
    """Connect ``clients`` bindings through ``url``'s store (one connection each, or a shared pool).

    Raises :class:`~ycsbctl.stores.binding.ConnectionLost` with a one-line reason when the server
    cannot be reached."""
    return await for_url(url).open_bindings(url, clients, properties, timeout_s)
