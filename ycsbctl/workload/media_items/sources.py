"""The media-items operation sources: the load (INSERTs of ``media.batchsize`` new items, ids in order)
and the run (operations drawn by the mix; GET-BY-ID and UPDATE ids uniform over the items, queries
uniform over their kind's pool, UPDATE's new values random: the study's ``newItem(id)``)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import numpy as np

from ycsbctl.slices import drain
from ycsbctl.workload.media_items.dataset import items, random_item
from ycsbctl.workload.media_items.ops import GET_BY_ID, INSERT, UPDATE
from ycsbctl.workload.plugin import PluginBatch

if TYPE_CHECKING:
    from ycsbctl.workload.media_items.workload import MediaItems


class RunSource:
    """Run-phase operations of one worker process. Arguments: GET-BY-ID an id, a query its pool index,
    UPDATE the new :class:`~.contract.Item`."""

    def __init__(self, w: MediaItems, rng: np.random.Generator) -> None:
        self.w, self.rng = w, rng
        weights = np.array([v for _, v in w.s.mix])
        self.codes = np.array([op for op, _ in w.s.mix], dtype=np.int64)
        self.thresholds = np.cumsum(weights / weights.sum())[:-1]
        self.sizes = {op: len(w.pools[op].queries) for op in w.pools}

    def next_batch(self, n: int) -> PluginBatch:
        return drain(self.batch_steps(n))

    def batch_steps(self, n: int) -> Generator[None, None, PluginBatch]:
        rng, records = self.rng, self.w.s.records
        ops = self.codes[np.searchsorted(self.thresholds, rng.random(n), side="right")].tolist()
        ids = rng.integers(0, records, size=n).tolist()
        picks = rng.integers(0, 2**31, size=n).tolist()
        yield
        args: list[Any] = []
        for op, item_id, pick in zip(ops, ids, picks):
            if op == GET_BY_ID:
                args.append(item_id)
            elif op == UPDATE:
                args.append(random_item(rng, item_id))  # ~20 µs: one slice each
                yield
            else:
                args.append(pick % self.sizes[op])
        return PluginBatch(ops, args)


class LoadSource:
    """Load INSERTs ``first … first+count−1``: INSERT ``i`` stores items ``i·batch`` up to ``(i+1)·batch``
    (the last one fewer), as :func:`~.dataset.items` makes them for the seed."""

    def __init__(self, w: MediaItems, first: int, count: int) -> None:
        self.w = w
        self.next, self.end = first, first + count
        self.data = items(w.s.seed, w.s.records)

    def next_batch(self, n: int) -> PluginBatch:
        return drain(self.batch_steps(n))

    def batch_steps(self, n: int) -> Generator[None, None, PluginBatch]:
        batch, records = self.w.s.store.batch, self.w.s.records
        n = min(n, self.end - self.next)
        args = []
        for i in range(self.next, self.next + n):
            chunk = []
            for item_id in range(i * batch, min((i + 1) * batch, records)):
                chunk.append(self.data.item(item_id))
                if not item_id % 4:
                    yield
            args.append(chunk)
        self.next += n
        return PluginBatch([INSERT] * len(args), args)
