"""Every media-items operation through a store's executor (:class:`~.contract.MediaStore`), its answer
checked against the truth: a wrong answer raises :class:`WrongAnswer`, which fails the point in one line
naming the operation (the plug-in contract's "an executor that raises"), never a fast number.

- Timed path, every operation: a query's page is compared with its expected page (``sort=id``: the same
  ids in the same order; ``sort=none``: as many ids, each a matching item), and with its total when the
  timed queries count (``media.total=true``); GET-BY-ID's item by its id, name, year, description length
  and first and last words (the whole description is compared before the point); UPDATE must match the
  item (it exists: NOT_FOUND is a wrong answer).
- Before each point (:meth:`Checked.prepare`, outside the measurement): ``media.checks`` queries of each
  kind the point measures, with their totals, and as many items read whole; UPDATE writes that many
  items back with the values they were loaded with (the answers stay the truth's) and reads them again.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from ycsbctl.workload.media_items.contract import Item, MediaStore
from ycsbctl.workload.media_items.dataset import dictionary, name_text
from ycsbctl.workload.media_items.ops import GET_BY_ID, INSERT, QUERIES, UPDATE, name_of
from ycsbctl.workload.plugin import NOT_FOUND, OK

if TYPE_CHECKING:
    from ycsbctl.workload.media_items.workload import MediaItems


class WrongAnswer(Exception):
    """A store answered a query or a read otherwise than the truth computed over the generated items."""


class Checked:
    """The plug-in contract's executor for one store: ``await executor(binding, op, arg)`` → status."""

    def __init__(self, w: MediaItems, store: MediaStore) -> None:
        self.w, self.store = w, store
        self.check = w.s.checked

    @cached_property
    def shape(self) -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
        """Per item: name number, year, description length (bytes), first and last word."""
        data = self.w.data
        words = dictionary()
        lengths = np.array([len(x) + 1 for x in words], dtype=np.int32)[data.words].sum(axis=1)
        return data.names, lengths, [words[i] for i in data.words[:, 0].tolist()], \
            [words[i] for i in data.words[:, -1].tolist()]

    def _item_shape_wrong(self, item_id: int, got: Item | None) -> str | None:
        if got is None:
            return f"item {item_id} missing"
        names, lengths, first, last = self.shape
        d = got.description
        if (
            got.id != item_id
            or got.year != int(self.w.data.years[item_id])
            or got.name != name_text(int(names[item_id]))
            or len(d) != int(lengths[item_id])
            or not d.startswith(first[item_id] + " ")
            or not d.endswith(" " + last[item_id] + " ")
        ):
            return self.w.truth.wrong_item(item_id, got) or f"item {item_id} differs"
        return None

    async def __call__(self, b: Any, op: int, arg: Any) -> int:
        store = self.store
        if op == GET_BY_ID:
            st, item = await store.get(b, arg)
            if st == NOT_FOUND or st == OK and self.check and (why := self._item_shape_wrong(arg, item)):
                raise WrongAnswer(f"{self.store.protocol}: {why if st == OK else f'item {arg} not found'}")
            return st
        if op == UPDATE:
            st = await store.update(b, arg)
            if st == NOT_FOUND:
                raise WrongAnswer(f"{self.store.protocol}: no item {arg.id} to update (every id was loaded)")
            return st
        if op == INSERT:
            return await store.insert(b, arg)
        pool = self.w.pools[op]
        q = pool.queries[arg]
        st, page = await store.query(b, q, self.w.s.total)
        if st == OK and self.check:
            why = self.w.truth.wrong(q, page, pool.expected[arg])
            if why:
                raise WrongAnswer(f"{self.store.protocol} answered {describe(q)} with {why}")
        return st

    async def prepare(self, b: Any, phase: str) -> str | None:
        """Before the clients start: the load creates the table and its indexes; a run checks answers
        (module docstring). → why the point cannot be measured, or None."""
        store = self.store
        if phase == "load":
            st = await store.setup(b)
            return None if st == OK else f"{store.protocol}: could not create the {store.table} table: {b.last_error}"
        st = await store.ready(b)
        if st != OK:
            return f"{store.protocol}: could not prepare the {store.table} table after its load: {b.last_error}"
        if not self.check:
            return None
        n = self.w.s.checks
        for op in self.w.s.ops:
            if op in QUERIES:
                pool = self.w.pools[op]
                for q, want in list(zip(pool.queries, pool.expected))[:n]:
                    st, page = await store.query(b, q, True)
                    why = _status(st, b) if st != OK else self.w.truth.wrong(q, page, want)
                    if why:
                        return f"{name_of(op)}: {store.protocol} answered {describe(q)} with {why}"
                continue
            for item_id in _spread(self.w.s.records, n, op):
                loaded = self.w.truth.item(item_id)
                assert loaded is not None
                if op == UPDATE:
                    st = await store.update(b, loaded)
                    if st != OK:
                        return f"UPDATE: {store.protocol} did not update item {item_id} ({_status(st, b)})"
                st, got = await store.get(b, item_id)
                why = _status(st, b) if st != OK else self.w.truth.wrong_item(item_id, got)
                if why:
                    return f"{name_of(op)}: {store.protocol} read item {item_id}: {why}"
        return None


def _status(st: int, b: Any) -> str:
    """A check's status that is not OK, in words: NOT_FOUND is an item the store does not hold (its dataset is not
    loaded, or was loaded with fewer items) — said with what to do, where "status 1 (None)" said nothing."""
    if st == NOT_FOUND:
        return ("not found: the store does not hold the items this plan loads (an empty target, or one loaded with "
                "another recordcount) — run with --load")
    return f"status {st} ({b.last_error})"


def _spread(records: int, n: int, salt: int) -> list[int]:
    """``n`` item ids spread over the items (the first and the last among them)."""
    if n <= 1:
        return [records - 1][:n]
    return sorted({round(i * (records - 1) / (n - 1)) for i in range(n)} | {(salt * 7919) % records})[:n + 1]


def describe(q: Any) -> str:
    """A query in a line: ``year > 2010 AND name = 'a b'``, ``'w1' OR 'w2'``, ``'ab*' OR 'cd*'``."""
    if q.is_text:
        return " OR ".join(f"'{w}{'*' if q.is_prefix else ''}'" for w in q.words)
    cond = f"year > {q.year_gt}" + (f" AND name = '{q.name}'" if q.has_name else "")
    return (
        cond
        + (" ORDER BY id" if q.sort == "id" else "")
        + f" LIMIT {q.limit}"
        + (f" OFFSET {q.offset}" if q.offset else "")
    )
