"""The media-items study's Sphinx executor (:mod:`ycsbctl.stores.sphinx.media_items`) on a real searchd: every
query answered as the truth does (the load measured as a sweep measures it: the memory per item the many-store
report shows, the index's growth by the items' own bytes), updates by REPLACE, setup against the indexes searchd
serves, totals past its match window and pages past a thousand."""

from __future__ import annotations

import asyncio

import pytest

from tests.fixtures.media_items import EVERY_QUERY, load_and_check, measured_load, media_workload
from tests.fixtures.study_clients import (
    sphinx_mysql,
)
from ycsbctl.stores.registry import get
from ycsbctl.stores.sphinx.media_items import SphinxItems

pytestmark = pytest.mark.truth


def test_sphinx_answers_every_query_as_the_truth_and_updates_by_replace(sphinx) -> None:
    def items_bytes() -> float:  # the real-time index's RAM chunk and disk chunks
        status = dict(sphinx_mysql(sphinx.url, "SHOW INDEX items STATUS"))
        return float(status["ram_bytes"]) + float(status["disk_bytes"])

    said, refused = measured_load(sphinx, "sphinx", EVERY_QUERY, items_bytes)
    assert said == [""] and refused == set()
    said, _ = load_and_check(sphinx.url, "sphinx", "update")
    assert said == [""]


def test_sphinx_setup_is_ok_for_the_index_searchd_serves_and_error_naming_one_it_does_not(sphinx) -> None:
    """Sphinx's indexes are its config's: setup creates nothing, and answers OK when SHOW TABLES lists the
    table, ERROR saying which index is missing when it does not (not OK, to fail at the first INSERT)."""

    from tests.fixtures.media_items import PROPS
    from ycsbctl.stores.registry import open_bindings
    from ycsbctl.workload.plugin import ERROR, OK

    async def setup(table: str) -> tuple[int, str | None]:
        store = media_workload("byid", table=table).executor("sphinx").store
        bs = await open_bindings(sphinx.url, 1, {**PROPS, "table": table}, 30.0)
        try:
            b = bs.bindings[0]
            return await store.setup(b), b.last_error
        finally:
            await bs.close()

    assert asyncio.run(setup("items")) == (OK, None)
    st, said = asyncio.run(setup("nosuch"))
    assert st == ERROR and said is not None and said.startswith("searchd serves no index 'nosuch'"), said


def test_sphinx_counts_every_match_past_its_window_and_pages_past_a_thousand(sphinx) -> None:
    """1,205 items of years 2001-2003, all matching year > 2000: the total is SHOW META's total_found (1,205), not
    its total (what max_matches kept: 1,000), and the page at offset 1,195 is the last ten ids (the window
    widened to offset + limit) — as the items loaded say, not a scan of 400 that fits any window."""

    from tests.fixtures.media_items import PROPS
    from ycsbctl.stores.registry import open_bindings
    from ycsbctl.workload.media_items.contract import Item, Query
    from ycsbctl.workload.media_items.ops import QUERY_1COND
    from ycsbctl.workload.plugin import OK

    n = 1205
    store = media_workload("byid").executor("sphinx").store
    get("sphinx").clear(sphinx.url, "items")

    async def main() -> list:
        bs = await open_bindings(sphinx.url, 1, PROPS, 30.0)
        try:
            b = bs.bindings[0]
            for lo in range(0, n, 100):
                items = [Item(i, f"n{i}", 2001 + i % 3, f"word{i}") for i in range(lo, min(n, lo + 100))]
                assert await store.insert(b, items) == OK, b.last_error
            return [await store.query(b, Query(QUERY_1COND, year_gt=2000, limit=10, offset=off), True)
                    for off in (0, n - 10)]
        finally:
            await bs.close()

    try:
        (st0, first), (st1, last) = asyncio.run(main())
    finally:
        get("sphinx").clear(sphinx.url, "items")
    assert (st0, first.ids, first.total) == (OK, tuple(range(10)), n)
    assert (st1, last.ids, last.total) == (OK, tuple(range(n - 10, n)), n)


def test_a_sphinx_total_is_show_metas_total_found_row_not_its_total_row() -> None:
    """SHOW META's rows are [Variable_name, Value]: the total is the Value of the row named total_found (1205), not
    total (what max_matches kept, 1000) nor any other row's; without the row, or with a NULL Value, it is 0."""

    from ycsbctl.workload.media_items.contract import Page, Query
    from ycsbctl.workload.media_items.ops import QUERY_1COND
    from ycsbctl.workload.plugin import OK

    class Searchd:  # the page's rows (ids + 1, Sphinx's documents), then SHOW META's
        last_error = None

        def __init__(self, meta: list[list[bytes | None]]) -> None:
            self.meta = meta

        async def sphinxql(self, sql: bytes) -> tuple[int, list[list[bytes | None]], int]:
            return OK, self.meta if sql == b"SHOW META" else [[b"8"], [b"4"]], 0

    s = object.__new__(SphinxItems)
    s.table = "items"
    meta = [[b"total", b"1000"], [b"total_found", b"1205"], [b"time", b"0.002"]]
    pages = [asyncio.run(s.query(Searchd(m), Query(QUERY_1COND, year_gt=2000), True))  # type: ignore[arg-type]
             for m in (meta, [meta[0], meta[2]], [[b"total_found", None]])]
    assert pages == [(OK, Page((7, 3), 1205)), (OK, Page((7, 3), 0)), (OK, Page((7, 3), 0))]


