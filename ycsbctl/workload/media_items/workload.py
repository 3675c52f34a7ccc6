"""``workloads/media-items``: the many-store study of restream/reindexer-benchmarks — 100,000 items
(``id``, ``name``, ``year``, ``description``, ~470 bytes as JSON), then six tests measured one per point:
GET-BY-ID, QUERY-1COND (``year > 2010``), QUERY-2COND (``year > 2010 AND name = ?``), FULLTEXT (two
words, either), FULLTEXT-PREFIX (two 4-letter prefixes), UPDATE (a new random item under a random id);
queries return the first page of 10, ``ORDER BY id`` (see :mod:`.contract` for the exact queries, and
the stores' modules for their idioms and indexes).

``media.operation`` picks the test (the study's names: byid, 1cond, 2cond, text, text_prefix, update; a
list is a sweep axis: one variant each, its own freshly loaded data set) or ``mix`` with
``media.<name>proportion``. A store that declares no media-items executor (in its own package:
``stores/<store>/media_items.py``), or one that says it cannot answer a test, is refused for that test only: the
cell is "cannot", with the store's reason.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from ycsbctl.workload.core import process_blocks
from ycsbctl.workload.media_items.contract import WORKLOAD, MediaStore
from ycsbctl.workload.media_items.dataset import Items, items
from ycsbctl.workload.media_items.executor import Checked
from ycsbctl.workload.media_items.ops import CODES, GET_BY_ID, INSERT, NAMES, QUERIES, name_of
from ycsbctl.workload.media_items.pool import Pool, make_pool
from ycsbctl.workload.media_items.settings import Settings
from ycsbctl.workload.media_items.sources import LoadSource, RunSource
from ycsbctl.workload.media_items.truth import Truth
from ycsbctl.workload.plugin import Executor, Workload
from ycsbctl.workload.properties import Properties
from ycsbctl.workload.store_executors import executor_class

assert CODES[-1] == INSERT == 7  # the plug-in contract's seventh operation is op code 7


def store_class(protocol: str) -> type[MediaStore] | None:
    """The media-items executor of store ``protocol`` (what its ``ServerProtocol`` declares under
    :data:`~.contract.WORKLOAD`, found through the registry: :mod:`ycsbctl.workload.store_executors`), or None when
    it has none."""
    cls = executor_class(WORKLOAD, protocol)
    return cls if isinstance(cls, type) and issubclass(cls, MediaStore) else None


class MediaItems(Workload):
    """The study's settings for one point (see the module docstring)."""

    operation_names: ClassVar[tuple[str, ...]] = NAMES
    axis_properties: ClassVar[tuple[str, ...]] = ("media.operation",)
    record_unit: ClassVar[str] = "items"
    refuses_cells: ClassVar[bool] = True
    # its run phase never inserts (INSERT is the load's), and each operation's argument is drawn on its own (an id
    # of the items every target loaded, a query of the pool, a random new item for UPDATE): each target's answers
    # are checked against the truth as in a point of its own (UPDATE with checked queries is refused in any order)
    alternates: ClassVar[bool] = True
    # the stores' index builds after a load (PostgreSQL's GIN over 100k items took over a minute on a busy
    # 2-core host) and the answer checks run before the point
    prepare_s: ClassVar[float] = 900.0
    # an INSERT of 100 items waits for every other writer where the store takes one write at a time: FerretDB's
    # SQLite backend has no queue (its busy handler polls), and at 50 connections on a busy 2-core host (load
    # average 10) one insert in 200 waited over the 10 s --timeout (p50 78 ms, p99 6.0 s); the load is not a test
    load_timeout_s: ClassVar[float] = 60.0

    def __init__(self, s: Settings) -> None:
        self.s = s
        self.operationcount = s.operationcount

    @property
    def dataset_table(self) -> str:
        return self.s.store.table

    @classmethod
    def from_properties(cls, p: Properties) -> MediaItems:
        return cls(Settings.read(p))

    # -- the data and its truth (built in the worker processes, once) --------------------------------
    @cached_property
    def data(self) -> Items:
        return items(self.s.seed, self.s.records)

    @cached_property
    def truth(self) -> Truth:
        return Truth(self.data)

    @cached_property
    def pools(self) -> dict[int, Pool]:
        return {op: make_pool(self.s, self.truth, op) for op in self.s.ops if op in QUERIES}

    # -- the load phase ------------------------------------------------------------------------------
    @property
    def load_operations(self) -> int:
        return -(-self.s.records // self.s.store.batch)

    def load_blocks(self, threads_per_process: list[int]) -> list[tuple[int, int]]:
        return process_blocks(self.load_operations, threads_per_process)

    def loaded_records(self, ok_operations: int) -> int:
        return min(ok_operations * self.s.store.batch, self.s.records)

    def records_per_operation(self) -> dict[str, int]:
        return {"INSERT": self.s.store.batch}

    def op_codes(self, phase: str) -> list[int]:
        return [INSERT] if phase == "load" else self.s.ops

    def source(self, phase: str, rng: np.random.Generator, process: int, processes: int,
               acked: Any = None, load_block: tuple[int, int] | None = None) -> LoadSource | RunSource:
        if phase == "load":
            return LoadSource(self, *(load_block or (0, self.load_operations)))
        self.pools  # noqa: B018 - answered before the point, not while it runs
        return RunSource(self, rng)

    def executor_ready(self, ex: Checked) -> None:
        """What the timed checks read, made before the point (not by its first operation)."""
        if GET_BY_ID in self.s.ops and self.s.checked:
            ex.shape  # noqa: B018

    # -- the stores ----------------------------------------------------------------------------------
    def executor(self, protocol: str) -> Executor[Any] | None:
        cls = store_class(protocol)
        if cls is None or self.refusal(protocol):
            return None
        return Checked(self, cls(self.s.store))

    def refusal(self, protocol: str, server: str = "", connections: int = 0, timeout_s: float = 0.0) -> str | None:
        """Why store ``protocol`` (server kind ``server``: ``ferretdb``) cannot measure this point's
        operations (None: it can) at the plan's scale: its items, ``connections`` (client threads) and
        operation timeout ``timeout_s`` (0: not known, no refusal for the scale)."""
        cls = store_class(protocol)
        if cls is None:
            return f"ycsbctl has no media-items executor for {protocol}"
        refused = cls.refused(server, self.s.records, connections, timeout_s)
        whys = [f"{name_of(op)}: {refused[op]}" for op in self.s.ops if op in refused]
        return "; ".join(whys) or None

    async def prepare(self, executor: Any, binding: Any, phase: str) -> str | None:
        if not isinstance(executor, Checked):
            return None
        if phase == "run":
            self.executor_ready(executor)
        return await executor.prepare(binding, phase)
