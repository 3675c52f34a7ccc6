"""The study's queries computed directly over the generated items (the truth every store's answer is
checked against): ids in ascending order, the page at ``offset``/``limit``, and the total.

Built once per worker process from :func:`~.dataset.items` (one stable sort of the 5,000,000 word
occurrences: each word's items, and each prefix's, are one slice of it), then each query is a slice and
a merge: ~10 µs for a full-text query, prepared outside the timed operation.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ycsbctl.workload.media_items.contract import Item, Page, Query
from ycsbctl.workload.media_items.dataset import NAMES, Items, dictionary, name_text
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, QUERY_1COND, QUERY_2COND


@dataclass(frozen=True)
class Expected:
    """What a store must answer: the page's ids (ascending) and the total; ``members``: every matching id
    when the page is unordered (``sort=none``: any ``len(page)`` of them will do), else None."""

    ids: tuple[int, ...]
    total: int
    members: frozenset[int] | None = None


class Truth:
    """The queries' answers over one seed's items."""

    def __init__(self, data: Items) -> None:
        self.data = data
        self._name_numbers = {name_text(i): i for i in range(NAMES)}
        self._year_ids: dict[int, np.ndarray] = {}

    @cached_property
    def _by_name(self) -> tuple[np.ndarray, np.ndarray]:
        order = np.argsort(self.data.names, kind="stable").astype(np.int32)
        bounds = np.searchsorted(self.data.names[order], np.arange(NAMES + 1))
        return order, bounds

    @cached_property
    def _postings(self) -> tuple[np.ndarray, np.ndarray]:
        """(item ids ordered by word number then id, where each word number's run starts)."""
        flat = self.data.words.ravel()
        order = np.argsort(flat, kind="stable")
        starts = np.searchsorted(flat[order], np.arange(len(dictionary()) + 1))
        return (order // self.data.words.shape[1]).astype(np.int32), starts

    def item(self, item_id: int) -> Item | None:
        return self.data.item(item_id) if 0 <= item_id < self.data.count else None

    def matching(self, q: Query) -> np.ndarray:
        """Every matching id, ascending."""
        d = self.data
        if q.op == QUERY_1COND:
            got = self._year_ids.get(q.year_gt)
            if got is None:
                got = self._year_ids[q.year_gt] = np.flatnonzero(d.years > q.year_gt).astype(np.int32)
            return got
        if q.op == QUERY_2COND:
            number = self._name_numbers.get(q.name)
            if number is None:
                return np.empty(0, dtype=np.int32)
            order, bounds = self._by_name
            ids = order[bounds[number]:bounds[number + 1]]  # ascending: the sort was stable
            return ids[d.years[ids] > q.year_gt]
        if q.op in (FULLTEXT, FULLTEXT_PREFIX):
            ids, starts = self._postings
            parts = [ids[starts[lo]:starts[hi]] for lo, hi in (self.word_range(w, q.op == FULLTEXT_PREFIX)
                                                                 for w in q.words)]
            return _union(parts)
        raise ValueError(f"op {q.op} is no query")

    @staticmethod
    def word_range(word: str, prefix: bool) -> tuple[int, int]:
        """The word numbers ``[lo, hi)`` that ``word`` matches: itself, or every word it begins."""
        words = dictionary()
        lo = bisect_left(words, word)
        if not prefix:
            return lo, lo + 1 if lo < len(words) and words[lo] == word else lo
        return lo, bisect_left(words, word + "{")  # "{" sorts after every lowercase letter

    def expected(self, q: Query) -> Expected:
        ids = self.matching(q)
        page = tuple(ids[q.offset:q.offset + q.limit].tolist())
        members = frozenset(ids.tolist()) if q.sort == "none" else None
        return Expected(page, len(ids), members)

    def wrong(self, q: Query, page: Page, want: Expected | None = None) -> str | None:
        """Why ``page`` is not the answer to ``q`` (None when it is)."""
        want = want or self.expected(q)
        if page.total is not None and page.total != want.total:
            return f"{page.total:,} matching items, not {want.total:,}"
        if want.members is None:
            if page.ids != want.ids:
                return f"page {_ids(page.ids)}, not {_ids(want.ids)}"
            return None
        size = max(0, min(q.limit, want.total - q.offset))
        if len(page.ids) != size or len(set(page.ids)) != size:
            return f"{len(page.ids)} items on the page, not {size}"
        stray = [i for i in page.ids if i not in want.members]
        return f"items {_ids(tuple(stray))} do not match" if stray else None

    def wrong_item(self, item_id: int, got: Item | None) -> str | None:
        """Why ``got`` is not item ``item_id`` as loaded (None when it is)."""
        want = self.item(item_id)
        if got == want:
            return None
        if got is None or want is None:
            return f"item {item_id} {'missing' if got is None else 'found, but it was never loaded'}"
        fields = [f for f in ("id", "name", "year", "description") if getattr(got, f) != getattr(want, f)]
        return f"item {item_id} differs in {', '.join(fields)}"


def _union(parts: list[np.ndarray]) -> np.ndarray:
    """The ids in any of ``parts``, ascending, once each (a sort and a comparison: np.unique's hashing
    took ~10× longer on the ~2,000 ids of a prefix query)."""
    if not parts:
        return np.empty(0, dtype=np.int32)
    s = np.sort(np.concatenate(parts))
    if len(s) < 2:
        return s
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def _ids(ids: tuple[int, ...]) -> str:
    return "[" + ", ".join(map(str, ids[:10])) + (", …" if len(ids) > 10 else "") + "]"
