"""The stores' executors for ycsbctl's own plug-in workloads (media-items, online-status), by workload and store
name: go-ycsb's ``RegisterDBCreator``, for executors.

A store declares its executors on its :class:`~ycsbctl.stores.base.ServerProtocol`, each class imported from the
store's own package (``stores/redis/media_items.py``), so that the import contracts see every one::

    executors = {media_items.WORKLOAD: RedisItems, online_status.WORKLOAD: RedisOnlineStatus}

The stores' registry hands each store's declaration here when it registers the store (:func:`register`), and
says when it has imported them all (:func:`all_registered`); a workload asks for its executor class by its own
name and the store's (:func:`executor_class`). This layer imports nothing from the stores: the registry, above
it, calls down.
"""

from __future__ import annotations

from collections.abc import Mapping

_BY_WORKLOAD: dict[str, dict[str, type]] = {}  # workload name -> store name -> its executor class
_COMPLETE: list[bool] = []


def register(store: str, executors: Mapping[str, type]) -> None:
    """Store ``store``'s executor classes, by workload name (``media-items``: its media-items executor)."""
    for workload, cls in executors.items():
        _BY_WORKLOAD.setdefault(workload, {})[store] = cls


def all_registered() -> None:
    """Every store of the registry has registered its executors (the registry says so once it loaded them)."""
    _COMPLETE[:] = [True]


def executor_class(workload: str, store: str) -> type | None:
    """The class that runs workload ``workload`` (``media-items``) on store ``store`` (``redis``), or None when
    that store declares none. Asked before the stores' registry loaded the stores, a bug: a RuntimeError, not a
    silent "none"."""
    if not _COMPLETE:
        raise RuntimeError(f"the {workload} executor of {store} was asked for before the stores registered "
                           "theirs: ask ycsbctl.stores.registry first (any of its look-ups loads every store)")
    return _BY_WORKLOAD.get(workload, {}).get(store)


def stores_with(workload: str) -> tuple[str, ...]:
    """The stores that declare an executor for ``workload``, in the order they registered."""
    return tuple(_BY_WORKLOAD.get(workload, {}))
