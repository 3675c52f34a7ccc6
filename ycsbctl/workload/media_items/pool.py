"""The queries a point draws from: per kind, ``media.queries`` queries made from ``media.seed`` (the same
for every store and worker process), each answered by the truth once, before the point, so that the
timed path only compares (a prefix query's truth takes ~0.1–0.3 ms of Python; comparing, ~1 µs)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ycsbctl.workload.media_items.contract import Query
from ycsbctl.workload.media_items.dataset import DICTIONARY_WORDS, NAMES, dictionary, name_text, prefix_of
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, QUERY_1COND, QUERY_2COND
from ycsbctl.workload.media_items.settings import Settings
from ycsbctl.workload.media_items.truth import Expected, Truth


@dataclass(frozen=True)
class Pool:
    """One kind's queries and their expected answers (index i: ``queries[i]``, ``expected[i]``)."""

    queries: tuple[Query, ...]
    expected: tuple[Expected, ...]


def draw_queries(s: Settings, op: int, n: int) -> list[Query]:
    """``n`` queries of kind ``op`` drawn from the seed (1COND has one: ``year > media.year``)."""
    rng = np.random.default_rng([s.seed, 0x706F6F6C, op])
    page = {"limit": s.limit, "offset": s.offset, "sort": s.sort}
    words = dictionary()
    if op == QUERY_1COND:
        return [Query(op, year_gt=s.year_gt, **page)]  # type: ignore[arg-type]
    if op == QUERY_2COND:
        return [Query(op, year_gt=s.year_gt, name=name_text(int(i)), **page)  # type: ignore[arg-type]
                for i in rng.integers(0, NAMES, size=n)]
    pairs = rng.integers(0, DICTIONARY_WORDS, size=(n, 2)).tolist()
    if op == FULLTEXT:
        return [Query(op, words=(words[a], words[b]), **page) for a, b in pairs]  # type: ignore[arg-type]
    if op == FULLTEXT_PREFIX:
        return [Query(op, words=(prefix_of(words[a]), prefix_of(words[b])), **page)  # type: ignore[arg-type]
                for a, b in pairs]
    raise ValueError(f"op {op} is no query")


def make_pool(s: Settings, truth: Truth, op: int) -> Pool:
    queries = draw_queries(s, op, s.distinct_queries)
    return Pool(tuple(queries), tuple(truth.expected(q) for q in queries))
