"""The media-items executor contract: what a store's executor does for the study, and what it is given.

The workload (:mod:`.workload`) draws the operations, knows the truth (:mod:`.truth`) and checks every
answer; a store's executor only speaks its store's idiom. Each store's executor is a :class:`MediaStore`
subclass in the store's own package (``ycsbctl/stores/<store>/media_items.py``: ``postgresql``, ``mariadb``,
``sqlite``, ``mongodb``, ``redis``, ``memcached``, …), declared on its ``ServerProtocol`` under
:data:`WORKLOAD` (``executors = {WORKLOAD: RedisItems}``), which the registry hands to the workload
(:mod:`ycsbctl.workload.store_executors`). A store that declares none cannot run the study; a store that cannot
answer an operation says why in :attr:`MediaStore.cannot`, and that cell is refused before anything starts and
shown as "cannot".

**The data** (:class:`Item`, as the study's ``repo.Item``): ``id`` 0 … recordcount−1 (the primary key),
``name`` (two words and a space: ``"<adjective> <animal>"``), ``year`` (2000 … 2049), ``description``
(50 words of lowercase ASCII letters, each followed by one space, as the study's ``randTextString``).
Stored in the table/collection/key prefix :attr:`MediaSettings.table` (``items``), every field stored.

**The queries** (:class:`Query`; the study's SQL as its MySQL repo sends it, with what ycsbctl adds):

- ``GET-BY-ID``: ``SELECT id, name, year, description FROM items WHERE id = ?`` → the item, or none;
- ``QUERY-1COND``: ``… WHERE year > ? [ORDER BY id] LIMIT ? OFFSET ?`` (the study: ``year > 2010 LIMIT 10``);
- ``QUERY-2COND``: ``… WHERE year > ? AND name = ? [ORDER BY id] LIMIT ? OFFSET ?``;
- ``FULLTEXT``: items whose description holds at least one of :attr:`Query.words` (two random dictionary
  words) as a whole word (the study: MySQL ``MATCH (description) AGAINST ('w1 w2' IN BOOLEAN MODE)``,
  SQLite FTS5 ``'w1 OR w2'``, Sphinx ``'w1 | w2'``, Elasticsearch ``query_string`` with OR);
- ``FULLTEXT-PREFIX``: items with a description word that starts with one of :attr:`Query.words` (two
  prefixes: the first 4 letters of random dictionary words; MySQL ``'p1* p2*'``, FTS5 ``'p1* OR p2*'``);
- ``UPDATE``: ``UPDATE items SET name = ?, year = ?, description = ? WHERE id = ?`` (the study: a new
  random item under a random existing id) → NOT_FOUND when no record matched;
- ``INSERT`` (the load): :attr:`MediaSettings.batch` items per call, into an empty store.

``sort``: ``id`` (the default) asks for the page in ascending ``id`` order — the one page every store
must agree on, so ycsbctl adds ``ORDER BY id`` (the study's queries have no order: ``LIMIT 10`` alone,
SQLite's full-text ``ORDER BY rank``); ``none`` sends the study's query without an order (any ``limit``
matching items are a right answer). A store whose query must differ otherwise says how in
:attr:`MediaStore.differs` (shown in the report).

**Answers**: :meth:`MediaStore.query` returns a :class:`Page`: the ids of the page in the order the store
returned them and, when asked (``count=True``: the answer checks before each point, never on the timed
path unless ``media.total=true``), the total number of matching items. Statuses are the plug-in
contract's ints (0 OK, 1 NOT_FOUND, 2 ERROR, 3 TIMEOUT); an ERROR sets ``binding.last_error``.

Every method gets the store's own binding (one connection, one request in flight) and must speak
through it only; an executor keeps no per-connection state of its own (one instance serves every client
thread of a worker process). An executor lives in its store's package and may use its protocol helpers, never another
store's or the engine.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, QUERY_1COND, QUERY_2COND

WORKLOAD = "media-items"  # the study's name, under which each store declares its executor (ServerProtocol.executors)


@dataclass(frozen=True)
class Item:
    """One record of the study (``repo.Item``): ``year`` 2000 … 2049, ``description`` ~450 bytes."""

    id: int
    name: str
    year: int
    description: str

    def document(self) -> dict[str, Any]:
        """The item as the study's JSON document (``{"id", "name", "year", "description"}``)."""
        return {"id": self.id, "name": self.name, "year": self.year, "description": self.description}


def document(it: Item) -> bytes:
    """The study's JSON of an item (Go's encoding/json: no spaces), as the key-value stores keep it."""
    return json.dumps(it.document(), separators=(",", ":")).encode()


@dataclass(frozen=True)
class Query:
    """One query of the study. ``op``: QUERY-1COND, QUERY-2COND, FULLTEXT or FULLTEXT-PREFIX.
    ``year_gt``/``name``: the conditions of 1COND (year) and 2COND (year and name); ``words``: FULLTEXT's
    words or FULLTEXT-PREFIX's prefixes (lowercase ASCII letters), any of which matches."""

    op: int
    year_gt: int = 0
    name: str = ""
    words: tuple[str, ...] = ()
    limit: int = 10
    offset: int = 0
    sort: str = "id"  # "id": ORDER BY id; "none": the study's query, no order

    @property
    def is_text(self) -> bool:
        return self.op in (FULLTEXT, FULLTEXT_PREFIX)

    @property
    def is_prefix(self) -> bool:
        return self.op == FULLTEXT_PREFIX

    @property
    def has_year(self) -> bool:
        return self.op in (QUERY_1COND, QUERY_2COND)

    @property
    def has_name(self) -> bool:
        return self.op == QUERY_2COND


@dataclass(frozen=True)
class Page:
    """A store's answer to a :class:`Query`: the ids of its page, as returned, and the total number of
    matching items when it was asked for (None otherwise)."""

    ids: tuple[int, ...]
    total: int | None = None


@dataclass(frozen=True)
class MediaSettings:
    """What every store's executor is told (from the workload's properties)."""

    table: str = "items"
    batch: int = 100  # items per load INSERT
    ops: tuple[int, ...] = ()  # the operations of this point (and of the load before it): indexes they need
    extra: dict[str, str] = field(default_factory=dict)  # the store's own settings: -p media.<store>.<key>=…


class MediaStore(ABC):
    """A store's executor for the media-items study (see the module docstring). One instance per worker
    process, built with the workload's :class:`MediaSettings`."""

    protocol: ClassVar[str] = ""  # the store's name in the registry (``postgresql``)
    # the indexes it creates, in a user's words ("primary key on id, B-tree on name and on year, …")
    indexes: ClassVar[str] = ""
    # op code -> why this store cannot answer it (the cell is refused before anything starts)
    cannot: ClassVar[dict[int, str]] = {}
    # op code -> how its query differs from the study's (beyond ORDER BY id), for the report
    differs: ClassVar[dict[int, str]] = {}
    # server kind (the catalogue's: ``ferretdb``) -> op code -> why that server of this protocol cannot
    cannot_on: ClassVar[dict[str, dict[int, str]]] = {}

    @classmethod
    def refused(cls, server: str = "", records: int = 0, connections: int = 0,
                timeout_s: float = 0.0) -> dict[int, str]:
        """op code -> why this store cannot answer it, on server kind ``server`` ("" for a URL: the protocol's)
        holding ``records`` items, asked by ``connections`` clients at once with an operation timeout of
        ``timeout_s`` s (0: not known; a store may refuse a query only from some scale on)."""
        return {**cls.cannot, **cls.cannot_on.get(server, {})}

    def __init__(self, settings: MediaSettings) -> None:
        self.settings = settings
        self.table = settings.table

    @abstractmethod
    async def setup(self, b: Any) -> int:
        """Create the table (collection, space, index) and its indexes unless they exist; safe when every
        worker process calls it at once, before the load's first INSERT. → status."""

    async def ready(self, b: Any) -> int:
        """Before each run-phase point, on one connection per worker process: what a competent user runs
        after a bulk load (PostgreSQL: ``VACUUM ANALYZE``; SQLite: ``ANALYZE``); cheap when already done. → status."""
        return 0

    @abstractmethod
    async def insert(self, b: Any, items: list[Item]) -> int:
        """Store ``items`` (new ids) → status."""

    @abstractmethod
    async def get(self, b: Any, item_id: int) -> tuple[int, Item | None]:
        """The item ``item_id`` → (OK, item) or (NOT_FOUND, None); (ERROR, None) with ``b.last_error``."""

    async def query(self, b: Any, q: Query, count: bool) -> tuple[int, Page]:
        """The page of ``q`` (and the total when ``count``) → (status, page). Only the ops not in
        :attr:`cannot` are ever asked."""
        raise NotImplementedError(f"{type(self).__name__} answers no query")

    @abstractmethod
    async def update(self, b: Any, item: Item) -> int:
        """Set ``name``, ``year`` and ``description`` of the item ``item.id`` → OK, or NOT_FOUND when none matched."""
