"""A store's executors for the plug-in workloads live in its own folder and are found through the registry (pure,
milliseconds): every store but ``basic`` declares a media-items executor from ``stores/<store>/media_items.py``,
Redis and MongoDB an online-status one from ``stores/<store>/online_status.py``; a store that declares none is
refused with the reason; a store registered later brings its own; a look-up before the registry loaded the stores is
a bug said loudly, not "none"."""

from __future__ import annotations

from pathlib import Path

import pytest

from ycsbctl.stores import registry
from ycsbctl.stores.base import ServerProtocol
from ycsbctl.workload import store_executors
from ycsbctl.workload.media_items.contract import WORKLOAD as MEDIA_ITEMS
from ycsbctl.workload.media_items.contract import Item, MediaStore
from ycsbctl.workload.media_items.workload import MediaItems, store_class
from ycsbctl.workload.online_status.ops import WORKLOAD as ONLINE_STATUS
from ycsbctl.workload.online_status.workload import OnlineStatus
from ycsbctl.workload.properties import Properties


def _package(p: ServerProtocol) -> str:
    """The folder of store ``p`` under ``ycsbctl/stores/`` (``mariadb`` for the store called ``mysql``)."""
    return type(p).__module__.split(".")[2]


def test_the_registry_finds_each_stores_media_items_executor_in_the_stores_own_folder() -> None:
    found = {p.name: store_class(p.name) for p in registry.all_protocols()}
    assert found.pop("basic") is None  # basic:// answers CoreWorkload only
    assert set(found) == {"redis", "mongodb", "memcached", "sqlite", "postgresql", "mysql", "tarantool", "clickhouse",
                          "sphinx", "elasticsearch"}
    for p in registry.all_protocols():
        cls = found.get(p.name)
        if cls is not None:
            assert issubclass(cls, MediaStore) and cls.protocol == p.name
            assert cls.__module__ == f"ycsbctl.stores.{_package(p)}.media_items"
    assert store_class("mysql").__module__ == "ycsbctl.stores.mariadb.media_items"


def test_online_status_runs_on_the_stores_that_declare_it_and_is_refused_on_the_others() -> None:
    registry.all_protocols()
    w = OnlineStatus.from_properties(Properties({}))
    for name in ("redis", "mongodb"):
        ex = w.executor(name)
        assert ex is not None and type(ex).__module__ == f"ycsbctl.stores.{name}.online_status"
    assert w.executor("sqlite") is None and w.refusal("sqlite") == "it has no binding for it"
    assert store_executors.stores_with(ONLINE_STATUS) == ("redis", "mongodb")


def test_a_store_without_a_media_items_executor_is_refused_with_the_reason() -> None:
    registry.all_protocols()
    w = MediaItems.from_properties(Properties({"recordcount": "200", "media.operation": "byid"}))
    assert w.refusal("basic") == "ycsbctl has no media-items executor for basic"
    assert w.executor("basic") is None


class _ToyItems(MediaStore):
    protocol = "toy"

    async def setup(self, b: object) -> int:
        return 0

    async def insert(self, b: object, items: list[Item]) -> int:
        return 0

    async def get(self, b: object, item_id: int) -> tuple[int, Item | None]:
        return 1, None

    async def update(self, b: object, item: Item) -> int:
        return 1


def test_a_store_registered_after_the_others_brings_its_executors(monkeypatch: pytest.MonkeyPatch) -> None:
    registry.all_protocols()
    monkeypatch.setattr(registry, "_BY_NAME", dict(registry._BY_NAME))
    monkeypatch.setattr(registry, "_BY_SCHEME", dict(registry._BY_SCHEME))
    monkeypatch.setattr(store_executors, "_BY_WORKLOAD", {k: dict(v) for k, v in store_executors._BY_WORKLOAD.items()})

    class ToyProtocol(ServerProtocol):
        name = "toy"
        schemes = ("toy",)
        executors = {MEDIA_ITEMS: _ToyItems}

    registry.register(ToyProtocol())
    assert store_class("toy") is _ToyItems


def test_an_executor_asked_for_before_the_stores_registered_is_a_bug_said_loudly(monkeypatch) -> None:
    monkeypatch.setattr(store_executors, "_COMPLETE", [])
    with pytest.raises(RuntimeError, match="before the stores registered"):
        store_executors.executor_class(MEDIA_ITEMS, "redis")


def test_no_executor_is_left_in_the_workload_folders_under_a_stores_name() -> None:
    root = Path(store_executors.__file__).parent
    names = {p.name for p in registry.all_protocols()} | {_package(p) for p in registry.all_protocols()} | {"sql"}
    left = [str(f) for folder in ("media_items", "online_status") for f in (root / folder).glob("*.py")
            if f.stem in names]
    assert not left
