"""The media-items study's Tarantool executor (:mod:`ycsbctl.stores.tarantool.media_items`) on a real server:
the queries it can answer as the truth does, full text refused, updates as net.box reads them, a page as its Lua
call returns it; and its year filter and pages as the server answers the same queries written by hand in Lua."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.media_items import (
    PAGE_QUERIES,
    load_and_check,
    measured_load,
    pages_by_hand,
    store_pages,
)
from tests.fixtures.study_clients import tarantool_console
from ycsbctl.stores.tarantool.media_items import TarantoolItems
from ycsbctl.workload.media_items.contract import MediaSettings, Page
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX
from ycsbctl.workload.media_items.workload import store_class

pytestmark = pytest.mark.truth


def test_tarantool_answers_as_the_truth_and_cannot_search_text(tarantool) -> None:
    def items_bytes() -> float:  # the space's tuples and every index of it
        return float(tarantool_console(tarantool.url, "print(c:eval('local s = box.space.items if s == nil then "
                                                      "return 0 end local b = s:bsize() "
                                                      "for _, x in box.space._index:pairs({s.id}) do "
                                                      "b = b + s.index[x[2]]:bsize() end return b'))"))

    said, refused = measured_load(tarantool, "tarantool", ("byid", "1cond", "2cond"), items_bytes)
    assert said == [""] and refused == {FULLTEXT, FULLTEXT_PREFIX}
    said, _ = load_and_check(tarantool.url, "tarantool", "update")
    assert said == [""]
    assert "no full-text index" in store_class("tarantool").refused("")[FULLTEXT]


def test_tarantool_updates_every_field_of_an_item_as_net_box_reads_it_and_not_one_it_lacks(tarantool) -> None:
    """An UPDATE with values other than those loaded (the study's checks write the loaded values back, which no
    wrong field number would show): net.box reads the tuple with the new name, year and description in their
    own fields, four fields still; an UPDATE of an id never loaded is NOT_FOUND and stores nothing."""
    import asyncio
    import json
    import uuid

    from tests.fixtures.media_items import PROPS, media_workload
    from ycsbctl.stores.registry import open_bindings
    from ycsbctl.workload.media_items.contract import Item
    from ycsbctl.workload.plugin import NOT_FOUND, OK

    table = f"upd{uuid.uuid4().hex[:8]}"  # a space of its own
    store = media_workload("byid", table=table).executor("tarantool").store

    async def main() -> list:
        bs = await open_bindings(tarantool.url, 1, {**PROPS, "table": table}, 30.0)
        try:
            b = bs.bindings[0]
            assert await store.setup(b) == OK, b.last_error
            assert await store.insert(b, [Item(7, "old name", 2001, "old words")]) == OK, b.last_error
            return [await store.update(b, Item(7, "new name", 1999, "new words here")),
                    await store.update(b, Item(8, "none", 2000, "none")), await store.get(b, 7)]
        finally:
            await bs.close()

    try:
        updated, missing, got = asyncio.run(main())
        stored = tarantool_console(tarantool.url, f"print(require('json').encode(c:eval('local s = box.space.{table} "
                                                  f"return {{s:get(7), s:get(8) == nil, s:len()}}')))")
    finally:
        tarantool_console(tarantool.url, f"c:eval('box.space.{table}:drop()')")
    assert (updated, missing, got) == (OK, NOT_FOUND, (OK, Item(7, "new name", 1999, "new words here")))
    assert json.loads(stored) == [[7, "new name", 1999, "new words here"], True, 1]


def test_a_tarantool_page_is_the_calls_ids_and_its_total_only_when_counted_and_sent() -> None:
    import asyncio

    from ycsbctl.stores.tarantool.media_items import TarantoolItems
    from ycsbctl.workload.media_items.contract import Page, Query
    from ycsbctl.workload.media_items.ops import QUERY_2COND
    from ycsbctl.workload.plugin import OK

    class Node:  # CALL ycsbctl_items_page's reply as IPROTO's body holds it: [ids, total] (or [ids] alone)
        def __init__(self, data: list) -> None:
            self.data = data

        async def iproto(self, code: int, body: bytes) -> tuple[int, list]:
            return OK, self.data

    s = object.__new__(TarantoolItems)
    s.table = "items"
    q = Query(QUERY_2COND, year_gt=2010, name="ab")
    pages = [asyncio.run(s.query(Node(data), q, count)) for data, count in  # type: ignore[arg-type]
             (([[5, 3], 12], True), ([[5, 3], 12], False), ([[5, 3], None], True), ([[5, 3]], True), ([[]], True))]
    assert pages == [(OK, Page((5, 3), 12)), (OK, Page((5, 3))), (OK, Page((5, 3))), (OK, Page((5, 3))), (OK, Page(()))]


# The queries by hand: every tuple of the space walked in id order, year > Y (and the name) kept, the page cut
BY_HAND = ("local s, y, name, off, lim = box.space.pages, ... local ids, n = {{}}, 0 "
           "for _, t in s.index.primary:pairs() do if t.year > y and (name == '' or t.name == name) then "
           "n = n + 1 if n > off and #ids < lim then ids[#ids + 1] = t.id end end end return {{ids, n}}")


def test_tarantools_year_filter_and_pages_are_what_the_server_answers_by_hand(tarantool) -> None:
    """Twelve items made by hand: a page past the first of year > 2010, a name's second page and the boundary at
    2011 (items of 2011 left out: the Lua call's ``t[3] > year_gt`` and its total's GT iterator) — the executor's ids
    and totals are the plain filter's and those of the same queries written by hand in Lua, run by net.box."""
    store = TarantoolItems(MediaSettings(table="pages"))
    try:
        got = store_pages(tarantool.url, store)
        by_hand = []
        for q in PAGE_QUERIES:
            args = f"{q.year_gt}, '{q.name}', {q.offset}, {q.limit}"
            ids, total = json.loads(tarantool_console(
                tarantool.url, f"print(require('json').encode(c:eval(\"{BY_HAND.format()}\", {{{args}}})))"))
            by_hand.append(Page(tuple(ids), total))
    finally:
        tarantool_console(tarantool.url, "c:eval('if box.space.pages then box.space.pages:drop() end')")
    assert got == pages_by_hand() == by_hand, (got, by_hand)
