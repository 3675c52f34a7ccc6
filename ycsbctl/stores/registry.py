"""The stores' registry, URL scheme -> store (go-ycsb's ``RegisterDBCreator``): nothing outside a store's
package branches on its protocol.

A store (one package under :mod:`ycsbctl.stores`) has a core, :class:`ServerProtocol`, that every store
answers: its URL schemes and facts, URLs validated with its client library's own parser, binding properties
checked, the engine's bindings opened, and the admin calls (ping, describe, clear, count, samplers). What only
some stores can do is a small interface of :mod:`ycsbctl.stores.capabilities` that the store's class declares
by inheriting it (go-ycsb's ``BatchDB``): start servers (``ServerUrls``), TLS, replicas, a footprint, the
cores its server can use, disturbances, the real YCSB's binding, … The rest of the tool asks a store for a
capability, never for its name: :func:`capability` (the store as that interface, or None) and :func:`ask` (one
question, by the interface's method: ``ask(url, Replication.replicas, url)``, None when the store lacks it),
so a misspelt question is a type error. Its executors for the plug-in workloads (``executors``) are handed
to :mod:`ycsbctl.workload.store_executors` when it registers.

Its ``store`` module calls :func:`register` once; adding a store means adding one package and one line in
:data:`_MODULES`. A store whose servers ycsbctl starts has a ``server`` module too, its flavors'
:class:`ServerKind` s (``KINDS``), its catalogue entries and their deployments (``TARGETS``, ``VARIANTS``), found
without a line of its own (:func:`server_packages`): :func:`server_kind` finds a kind by flavor name, :func:`catalogue`
collects the entries. The registry imports the stores lazily (by name), so that it
stays at the bottom of the import graph."""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from ycsbctl.errors import UserError
from ycsbctl.stores.base import ServerProtocol
from ycsbctl.stores.capabilities import CAPABILITIES, questions
from ycsbctl.stores.server_kind import ServerKind
from ycsbctl.urls import redact_url
from ycsbctl.workload import store_executors

if TYPE_CHECKING:
    from collections.abc import Callable

    from ycsbctl.stores.binding_set import BindingSet
    from ycsbctl.stores.catalog_entry import Target, Variant

C = TypeVar("C")
R = TypeVar("R")
P = ParamSpec("P")

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


def capability(target: str | ServerProtocol, kind: type[C]) -> C | None:
    """The store of ``target`` (a URL, or a store) as the capability ``kind`` (an interface of
    :mod:`ycsbctl.stores.capabilities`: ``Replication``, ``FootprintReading``, …) when it declares it; None
    when it does not, for the caller to say what it knows without the store's word. An unknown URL raises its
    :class:`~ycsbctl.errors.UserError`; a ``kind`` that is no capability a :class:`TypeError`."""
    if kind not in CAPABILITIES:
        name = getattr(kind, "__name__", kind)
        raise TypeError(f"capability({name!r}): no capability of ycsbctl.stores.capabilities")
    store = _store(target)
    return store if isinstance(store, kind) else None


def required(target: str | ServerProtocol, kind: type[C], refusal: str) -> C:
    """:func:`capability` for a caller that cannot go on without it: a :class:`~ycsbctl.errors.UserError`
    saying ``refusal`` (what the user asked that the store cannot do) when the store lacks ``kind``."""
    store = capability(target, kind)
    if store is None:
        raise UserError(refusal)
    return store


def ask(target: str | ServerProtocol, question: Callable[Concatenate[C, P], R], *args: P.args,
        **kwargs: P.kwargs) -> R | None:
    """The answer of the store of ``target`` to ``question``, a capability's method (``Replication.replicas``)
    asked with ``args``; None when the store does not declare that capability (silence). An error inside the
    store's answer propagates (a bug, or a server that cannot be asked): a caller that asks a server which may
    be gone catches :func:`admin_errors` of the URL where it asks, and says why there."""
    kind = questions().get(getattr(question, "__name__", ""))
    if kind is None or getattr(kind, question.__name__) is not question:
        raise TypeError(f"ask({question!r}): no question of a capability (ycsbctl.stores.capabilities)")
    store = capability(target, kind)
    # asked by name: the store's own method, not the interface's abstract one
    return None if store is None else getattr(store, question.__name__)(*args, **kwargs)


def admin_errors(url: str | ServerProtocol) -> tuple[type[BaseException], ...]:
    """The exceptions the store of ``url`` (or the store itself, as a resolved endpoint holds it) raises when its
    server cannot be asked (gone, refusing, past a deadline, answering with an error:
    :meth:`ServerProtocol.admin_errors`), for a caller of :func:`ask` to catch."""
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
