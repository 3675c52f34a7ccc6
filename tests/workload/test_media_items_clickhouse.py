"""The media-items study's ClickHouse executor (:mod:`ycsbctl.stores.clickhouse.media_items`) on a real server:
every query answered as the truth does, UPDATE refused; and its pages and year boundary as ClickHouse's own client
answers the same queries written by hand."""

from __future__ import annotations

import pytest

from tests.fixtures.media_items import (
    EVERY_QUERY,
    PAGE_QUERIES,
    measured_load,
    pages_by_hand,
    store_pages,
)
from tests.fixtures.study_clients import clickhouse_client
from ycsbctl.stores.clickhouse.media_items import ClickHouseItems
from ycsbctl.workload.media_items.contract import MediaSettings, Page
from ycsbctl.workload.media_items.ops import UPDATE
from ycsbctl.workload.media_items.workload import store_class

pytestmark = pytest.mark.truth


def test_clickhouse_answers_every_query_as_the_truth_and_cannot_update(clickhouse) -> None:
    def items_bytes() -> float:  # the table's active parts
        ((size,),) = clickhouse_client(clickhouse, "SELECT sum(bytes_on_disk) FROM system.parts "
                                                   "WHERE active AND table = 'items'")
        return float(size)

    said, refused = measured_load(clickhouse, "clickhouse", EVERY_QUERY, items_bytes)
    assert said == [""] and refused == set()
    assert set(store_class("clickhouse").refused("")) == {UPDATE}


def test_clickhouses_pages_and_year_boundary_are_what_its_own_client_answers_by_hand(clickhouse) -> None:
    """Twelve items made by hand: a page past the first of year > 2010, a name's second page and the boundary at
    2011 (items of 2011 left out) — the executor's ids and totals are the plain filter's and those of the same
    queries written by hand for clickhouse-client (LIMIT offset, limit; count())."""
    store = ClickHouseItems(MediaSettings(table="pages"))
    try:
        got = store_pages(clickhouse.url, store)
        by_hand = []
        for q in PAGE_QUERIES:
            where = f"year > {q.year_gt}" + (f" AND name = '{q.name}'" if q.has_name else "")
            ids = clickhouse_client(clickhouse,
                                    f"SELECT id FROM pages WHERE {where} ORDER BY id LIMIT {q.offset}, {q.limit}")
            ((total,),) = clickhouse_client(clickhouse, f"SELECT count() FROM pages WHERE {where}")
            by_hand.append(Page(tuple(int(r[0]) for r in ids), int(total)))
    finally:
        clickhouse_client(clickhouse, "DROP TABLE IF EXISTS pages")
    assert got == pages_by_hand() == by_hand, (got, by_hand)


def test_a_tabseparated_cell_reads_back_as_its_text_non_ascii_and_escapes_alike() -> None:
    """ClickHouse's TabSeparated writes UTF-8 as it is and escapes a tab and a backslash (\\t, \\\\): a cell without
    an escape is its text (a name with an accent is no escape sequence), one with escapes is unescaped."""
    from ycsbctl.stores.clickhouse.media_items import unescape

    assert unescape("Café Brûlé".encode()) == "Café Brûlé"
    assert unescape(b"a\\tb\\\\c") == "a\tb\\c"
