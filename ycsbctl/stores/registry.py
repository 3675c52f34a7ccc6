"""The stores' registry, URL scheme -> store (go-ycsb's ``RegisterDBCreator``): nothing outside a
store's package branches on its protocol.

A store (:class:`ServerProtocol`, one package under :mod:`ycsbctl.stores`) declares its URL schemes,
validates URLs with its client library's own parser, opens the engine's bindings, and answers admin
calls (ping, describe, clear, count), telemetry (samplers, reported PID, footprint), the
bottleneck's question (how many cores can the server use) and its executors for the plug-in workloads
(``executors``, handed to :mod:`ycsbctl.workload.store_executors` when it registers). Its ``store`` module calls
:func:`register` once; adding a store means adding one package and one line in :data:`_MODULES`.
A store whose servers ycsbctl starts has a ``server`` module too, its flavors' :class:`ServerKind` s
(``KINDS``), its catalogue entries and their deployments (``TARGETS``, ``VARIANTS``), found without a
line of its own (:func:`server_packages`): :func:`server_kind` finds a kind by flavor name,
:func:`catalogue` collects the entries.
The registry imports the stores lazily (by name), so that it stays at the bottom of the import graph.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ycsbctl.errors import UserError
from ycsbctl.stores.base import ServerProtocol
from ycsbctl.stores.server_kind import ServerKind
from ycsbctl.urls import redact_url
from ycsbctl.workload import store_executors

if TYPE_CHECKING:
    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.catalog_entry import Target, Variant

# One store module per package; each registers its store when imported.
_MODULES = ("ycsbctl.stores.redis.store", "ycsbctl.stores.mongodb.store", "ycsbctl.stores.basic.store",
            "ycsbctl.stores.memcached.store", "ycsbctl.stores.sqlite.store", "ycsbctl.stores.postgresql.store",
            "ycsbctl.stores.mariadb.store", "ycsbctl.stores.tarantool.store", "ycsbctl.stores.clickhouse.store",
            "ycsbctl.stores.sphinx.store", "ycsbctl.stores.elasticsearch.store")
_BY_NAME: dict[str, ServerProtocol] = {}
_BY_SCHEME: dict[str, ServerProtocol] = {}


def register(protocol: ServerProtocol) -> ServerProtocol:
    """Add ``protocol`` to the registry (each module calls this once for its protocol), and its executors for the
    plug-in workloads (:attr:`ServerProtocol.executors`) to theirs (:mod:`ycsbctl.workload.store_executors`)."""
    _BY_NAME[protocol.name] = protocol
    store_executors.register(protocol.name, protocol.executors)
    for scheme in protocol.schemes:
        _BY_SCHEME[scheme] = protocol
    return protocol


_LOADED: list[bool] = []
_KINDS: dict[str, ServerKind] = {}


def _load() -> None:
    """Import every store module once (each registers itself). Not "when the registry is empty": a store
    module imported on its own first (a test, a plug-in) would otherwise leave the others out."""
    if not _LOADED:
        for module in _MODULES:
            importlib.import_module(module)
        store_executors.all_registered()
        _LOADED.append(True)


def store_packages() -> tuple[str, ...]:
    """The package of each store under :mod:`ycsbctl.stores` (``redis``, …, ``mariadb``), from :data:`_MODULES`."""
    return tuple(m.split(".")[-2] for m in _MODULES)


def all_protocols() -> list[ServerProtocol]:
    """Every registered store, in :data:`_MODULES`' order: the one list of stores."""
    _load()
    order = {m.rsplit(".", 1)[0]: i for i, m in enumerate(_MODULES)}
    return sorted(_BY_NAME.values(), key=lambda p: order.get(type(p).__module__.rsplit(".", 1)[0], len(order)))


def schemes() -> tuple[str, ...]:
    """Every URL scheme a target may use (``redis``, ``rediss``, ``mongodb``, …)."""
    _load()
    return tuple(_BY_SCHEME)


def url_prefixes() -> tuple[str, ...]:
    """``redis://``, ``mongodb://``, …: what a target URL starts with."""
    return tuple(f"{s}://" for s in schemes())


def named(name: str) -> ServerProtocol | None:
    """The protocol called ``name``, or None when no store has that name."""
    _load()
    return _BY_NAME.get(name)


def get(name: str) -> ServerProtocol:
    """The protocol called ``name`` (``redis``, ``mongodb``, ``basic``)."""
    _load()
    try:
        return _BY_NAME[name]
    except KeyError:
        raise UserError(f"unknown protocol {name!r}: use one of {', '.join(_BY_NAME)}") from None


def expand_alias(target: str) -> str:
    """The URL a bare store name in a target list stands for (``basic`` → ``basic://``: each store's
    ``aliases``); any other target unchanged."""
    for proto in all_protocols():
        if target in proto.aliases:
            return proto.aliases[target]
    return target


def host_list_prefixes() -> tuple[str, ...]:
    """``mongodb://``, …: the URL prefixes of stores whose URLs list hosts with commas (``url_lists_hosts``)."""
    return tuple(f"{s}://" for p in all_protocols() if p.url_lists_hosts for s in p.schemes)


def examples() -> str:
    """Every store's URL shape, for messages and help texts (``redis://host:port[/db], …``)."""
    return ", ".join(p.example for p in all_protocols())


def scheme_of(url: str) -> str | None:
    scheme, sep, _ = url.partition("://")
    return scheme.lower() if sep else None


def find(url: str) -> ServerProtocol | None:
    """The protocol of a target URL, or None when ``url`` is no URL we accept (a catalogue name)."""
    _load()
    scheme = scheme_of(url)
    return _BY_SCHEME.get(scheme) if scheme else None


def is_engine_only(target: str) -> bool:
    """``target`` is a URL of a store whose bindings answer inside the engine (``engine_only``: basic://);
    False for any other URL and for a catalogue name."""
    proto = find(target)
    return proto is not None and proto.engine_only


def ycsb_log_targets() -> dict[str, str]:
    """The real YCSB's DB classes (simple names: ``RedisClient``, ``BasicDB``) → the store each measured,
    from every store's ``ycsb_db_class`` and ``ycsb_log_db_classes`` (``import-ycsb`` names a log's target so)."""
    return {cls.rsplit(".", 1)[-1]: p.name for p in all_protocols()
            for cls in (p.ycsb_db_class, *p.ycsb_log_db_classes) if cls}


def for_url(url: str) -> ServerProtocol:
    """The protocol of ``url``; a one-line error naming the accepted shapes for anything else."""
    proto = find(url)
    if proto is None:
        raise UserError(f"unsupported target URL {redact_url(url)!r}: use {examples()}")
    return proto


def store_says(url: str | ServerProtocol, question: str, *args: Any) -> Any:
    """The answer of the store of ``url`` (or the store itself, as a resolved target holds it) to ``question``, a method of :class:`ServerProtocol` asked with ``args``
    (its start notes, its reason for a pause or a stall, why its dataset is short, …). A store that does not answer
    that question says what the base class says (None, [] or False), and one whose base method raises
    :class:`NotImplementedError` says None: silence, for the caller to say what it knows without the store's word.

    Everything else propagates: a ``question`` that is no method of :class:`ServerProtocol` (a misspelt name) raises
    :class:`AttributeError` naming it, an unknown URL its :class:`~ycsbctl.errors.UserError`, and an error inside the
    store's answer (a bug, or a server that cannot be asked) its own exception. A caller that asks a server which
    may be gone catches :func:`admin_errors` of ``url`` where it asks, and says why there."""
    if not callable(getattr(ServerProtocol, question, None)) or question.startswith("_"):
        raise AttributeError(f"store_says({question!r}): no store answers that: it is no method of ServerProtocol")
    try:
        return getattr(_store(url), question)(*args)
    except NotImplementedError:  # the base's way of saying this store does not do that
        return None


def admin_errors(url: str | ServerProtocol) -> tuple[type[BaseException], ...]:
    """The exceptions the store of ``url`` (or the store itself) raises when its server cannot be asked (gone, refusing, past a deadline,
    answering with an error: :meth:`ServerProtocol.admin_errors`), for a caller of :func:`store_says` to catch."""
    return _store(url).admin_errors()


def _store(url: str | ServerProtocol) -> ServerProtocol:
    """``url``'s store; a store as it is."""
    return url if isinstance(url, ServerProtocol) else for_url(url)


def protocol_of(url: str) -> str:
    """The name of ``url``'s store (``redis``, ``mongodb``, ``basic``); a clear error for anything else."""
    return for_url(url).name


async def open_bindings(url: str, clients: int, properties: dict[str, str], timeout_s: float) -> BindingSet:
    """Connect ``clients`` bindings through ``url``'s store (one connection each, or a shared pool).

    Raises :class:`~ycsbctl.stores.binding.ConnectionLost` with a one-line reason when the server
    cannot be reached."""
    return await for_url(url).open_bindings(url, clients, properties, timeout_s)


def server_packages() -> tuple[str, ...]:
    """The stores whose servers ycsbctl starts: each package of :data:`_MODULES` that has a ``server`` module
    (its flavors' kinds, ``KINDS``), found on disk, so that adding such a store takes no second registry line."""
    return tuple(p for p in store_packages() if importlib.util.find_spec(f"ycsbctl.stores.{p}.server") is not None)


def server_kinds() -> dict[str, ServerKind]:
    """Every server flavor ycsbctl starts (``redis``, ``dragonfly``, ``mongod``, …) → its kind, from the ``server``
    module of each package of :func:`server_packages` (imported once, by name)."""
    if not _KINDS:  # filled at once, never in part: doctor's threads ask at the same time
        _KINDS.update({kind.name: kind for package in server_packages()
                       for kind in importlib.import_module(f"ycsbctl.stores.{package}.server").KINDS})
    return _KINDS


def catalogue() -> tuple[tuple[Target, ...], tuple[Variant, ...]]:
    """Every store's catalogue entries and their deployments, as its ``server`` module declares them
    (``TARGETS``, ``VARIANTS``; a module may declare neither), in the order of :func:`server_packages`,
    each module's in its own."""
    modules = [importlib.import_module(f"ycsbctl.stores.{p}.server") for p in server_packages()]
    return (tuple(t for m in modules for t in getattr(m, "TARGETS", ())),
            tuple(v for m in modules for v in getattr(m, "VARIANTS", ())))


@dataclass(frozen=True)
class _UnknownKind(ServerKind):
    """A flavor no store has (an image's ``ycsbctl.flavor`` label may name any): the generic behaviour, and no
    command line."""

    def args(self, *, port: int, bind: str, data_dir: str | None, memory_bytes: int | None,
             password: str | None = None) -> list[str]:
        raise UserError(f"unknown server flavor {self.name!r} (image label ycsbctl.flavor): "
                        f"use {', '.join(n for n, k in server_kinds().items() if not k.embedded)}")


def server_kind(flavor: str) -> ServerKind:
    """The kind of the servers of ``flavor`` (the catalogue's ``flavor``/``local_flavor``, an image's label); for
    an unknown one the generic kind, whose :meth:`~ServerKind.args` says which flavors there are."""
    kinds = server_kinds()
    return kinds[flavor] if flavor in kinds else _UnknownKind(flavor)
