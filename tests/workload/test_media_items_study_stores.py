"""The media-items study on the four stores ycsbctl added for it (Tarantool, ClickHouse, Sphinx, Elasticsearch),
each a real server: its executor answers every query it can exactly as the truth does (the ids of the first
page and the total, checked by the workload's own checks before a point and on every timed operation), reads
back every item whole, updates where it can — and what it cannot answer is refused, with its reason. The load
is measured as a sweep measures it (the footprint before and after): the memory per item the many-store report
shows is there, and the store's reading grows by the items' own bytes as the store's own client reads them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from tests.fixtures.media_items import load_and_check, media_workload
from tests.fixtures.study_clients import (
    clickhouse_client,
    elasticsearch_curl,
    sphinx_mysql,
    tarantool_console,
)
from tests.fixtures.waiting import wait_until
from ycsbctl import telemetry
from ycsbctl.provision.base import Endpoint
from ycsbctl.stores.registry import get
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, UPDATE
from ycsbctl.workload.media_items.workload import store_class

pytestmark = pytest.mark.truth
EVERY_QUERY = ("byid", "1cond", "2cond", "text", "text_prefix")


def _measured_load(ep: Endpoint, protocol: str, names: tuple[str, ...], items_bytes: Callable[[], float]
                   ) -> tuple[list[str], set[int]]:
    """:func:`load_and_check` of ``names`` with the footprint around its load (as a sweep's load takes it): its
    bytes per item, the figure the many-store report shows, is > 0; the store's reading gains exactly the items
    loaded; and its growth is that of ``items_bytes()`` (the items' own bytes, read by the store's own client; 0
    before the table exists, an empty Sphinx index's own when emptied) once the two are read at a quiet moment
    (ClickHouse merges parts, Elasticsearch segments, in the background)."""
    proto = get(protocol)
    proto.clear(ep.url, "items")
    before, empty = telemetry.footprint_before(ep), items_bytes()
    said, refused = load_and_check(ep.url, protocol, "mix", names)
    loaded = proto.count(ep.url, "items") or 0
    fp = telemetry.footprint_after(ep, before, loaded)
    assert loaded > 0 and fp.basis == proto.footprint_basis and (fp.bytes_per_record or 0) > 0, fp
    assert fp.keys == before["keys"] + loaded

    def growth_is_the_items() -> bool:
        reading = proto.reading(ep.url)
        assert reading is not None and reading.db_memory_bytes is not None
        return reading.db_memory_bytes - before["db_memory_bytes"] == items_bytes() - empty

    wait_until(growth_is_the_items, timeout_s=30, what=f"{protocol}'s growth equal to its items' own bytes")
    return said, refused


def test_tarantool_answers_as_the_truth_and_cannot_search_text(tarantool) -> None:
    def items_bytes() -> float:  # the space's tuples and every index of it
        return float(tarantool_console(tarantool.url, "print(c:eval('local s = box.space.items if s == nil then "
                                                      "return 0 end local b = s:bsize() "
                                                      "for _, x in box.space._index:pairs({s.id}) do "
                                                      "b = b + s.index[x[2]]:bsize() end return b'))"))

    said, refused = _measured_load(tarantool, "tarantool", ("byid", "1cond", "2cond"), items_bytes)
    assert said == [""] and refused == {FULLTEXT, FULLTEXT_PREFIX}
    said, _ = load_and_check(tarantool.url, "tarantool", "update")
    assert said == [""]
    assert "no full-text index" in store_class("tarantool").refused("")[FULLTEXT]


def test_clickhouse_answers_every_query_as_the_truth_and_cannot_update(clickhouse) -> None:
    def items_bytes() -> float:  # the table's active parts
        ((size,),) = clickhouse_client(clickhouse, "SELECT sum(bytes_on_disk) FROM system.parts "
                                                   "WHERE active AND table = 'items'")
        return float(size)

    said, refused = _measured_load(clickhouse, "clickhouse", EVERY_QUERY, items_bytes)
    assert said == [""] and refused == set()
    assert set(store_class("clickhouse").refused("")) == {UPDATE}


def test_sphinx_answers_every_query_as_the_truth_and_updates_by_replace(sphinx) -> None:
    def items_bytes() -> float:  # the real-time index's RAM chunk and disk chunks
        status = dict(sphinx_mysql(sphinx.url, "SHOW INDEX items STATUS"))
        return float(status["ram_bytes"]) + float(status["disk_bytes"])

    said, refused = _measured_load(sphinx, "sphinx", EVERY_QUERY, items_bytes)
    assert said == [""] and refused == set()
    said, _ = load_and_check(sphinx.url, "sphinx", "update")
    assert said == [""]


def test_elasticsearch_answers_every_query_as_the_truth(elasticsearch) -> None:
    # The node is shared with other modules: their indexes merged to one segment first, so that only the items'
    # own index changes while this test measures.
    from ycsbctl.stores.elasticsearch.admin import ok

    ok(elasticsearch.url, "POST", "/_forcemerge?max_num_segments=1", timeout_s=60.0)

    def items_bytes() -> float:  # the index's Lucene segments
        indices = elasticsearch_curl(elasticsearch.url, "/_stats/store")["indices"]
        return float(indices["items"]["total"]["store"]["size_in_bytes"]) if "items" in indices else 0.0

    said, refused = _measured_load(elasticsearch, "elasticsearch", EVERY_QUERY, items_bytes)
    assert said == [""] and refused == set()
    said, _ = load_and_check(elasticsearch.url, "elasticsearch", "update")
    assert said == [""]


def test_an_elasticsearch_bulk_that_refuses_an_item_is_error_naming_that_items_reason(elasticsearch) -> None:
    """A load batch whose second item the index refuses (a year past the integer field's range: Elasticsearch's
    own mapper_parsing_exception, the bulk's HTTP status 200 and ``errors`` true): the INSERT is ERROR, its
    error the refused item's reason as the node gave it, not the first item's success; the first item is
    stored all the same (a bulk is no transaction), as the node's own GET reads it."""
    import asyncio
    import uuid

    from tests.fixtures.media_items import PROPS, media_workload
    from ycsbctl.stores.registry import open_bindings
    from ycsbctl.workload.media_items.contract import Item
    from ycsbctl.workload.plugin import ERROR

    table = f"bulk{uuid.uuid4().hex[:8]}"  # an index of its own
    store = media_workload("byid", table=table).executor("elasticsearch").store

    async def main() -> tuple[int, str | None]:
        bs = await open_bindings(elasticsearch.url, 1, {**PROPS, "table": table}, 30.0)
        try:
            b = bs.bindings[0]
            assert await store.setup(b) == 0, b.last_error
            st = await store.insert(b, [Item(1, "fine", 2001, "a b"), Item(2, "too late", 2**40, "c d")])
            return st, b.last_error
        finally:
            await bs.close()

    try:
        st, said = asyncio.run(main())
        assert st == ERROR and said is not None
        assert said.startswith("Elasticsearch bulk: HTTP 200 ") and "mapper_parsing_exception" in said, said
        assert elasticsearch_curl(elasticsearch.url, f"/{table}/_doc/1")["_source"]["name"] == "fine"
    finally:
        from ycsbctl.stores.elasticsearch.admin import ok

        ok(elasticsearch.url, "DELETE", f"/{table}", timeout_s=30.0)


def test_sphinx_setup_is_ok_for_the_index_searchd_serves_and_error_naming_one_it_does_not(sphinx) -> None:
    """Sphinx's indexes are its config's: setup creates nothing, and answers OK when SHOW TABLES lists the
    table, ERROR saying which index is missing when it does not (not OK, to fail at the first INSERT)."""
    import asyncio

    from tests.fixtures.media_items import PROPS, media_workload
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
    import asyncio

    from tests.fixtures.media_items import PROPS, media_workload
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


def test_elasticsearch_updates_an_item_as_the_node_reads_it_and_not_one_it_lacks(elasticsearch) -> None:
    """An UPDATE with values other than those stored: the node's own GET reads the new name, year and description;
    an UPDATE of an id the index lacks is NOT_FOUND (the node's 404), not an ERROR, and stores nothing."""
    import asyncio

    from tests.fixtures.media_items import PROPS, media_workload
    from ycsbctl.stores.elasticsearch.admin import call
    from ycsbctl.stores.registry import open_bindings
    from ycsbctl.workload.media_items.contract import Item
    from ycsbctl.workload.plugin import NOT_FOUND, OK

    store = media_workload("byid").executor("elasticsearch").store
    here, absent = 900_001, 900_002  # ids no load of ITEMS items uses

    async def main() -> list[int]:
        bs = await open_bindings(elasticsearch.url, 1, PROPS, 30.0)
        try:
            b = bs.bindings[0]
            assert await store.setup(b) == OK, b.last_error
            assert await store.insert(b, [Item(here, "old name", 2001, "old words")]) == OK, b.last_error
            return [await store.update(b, Item(here, "new name", 1999, "new words here")),
                    await store.update(b, Item(absent, "none", 2000, "none"))]
        finally:
            await bs.close()

    try:
        assert asyncio.run(main()) == [OK, NOT_FOUND]
        doc = elasticsearch_curl(elasticsearch.url, f"/items/_doc/{here}")["_source"]
        assert (doc["name"], doc["year"], doc["description"]) == ("new name", 1999, "new words here")
        assert call(elasticsearch.url, "GET", f"/items/_doc/{absent}")[0] == 404
    finally:
        call(elasticsearch.url, "DELETE", f"/items/_doc/{here}")


def test_a_tarantool_page_is_the_calls_ids_and_its_total_only_when_counted_and_sent() -> None:
    import asyncio

    from ycsbctl.workload.media_items.contract import Page, Query
    from ycsbctl.workload.media_items.ops import QUERY_2COND
    from ycsbctl.workload.media_items.tarantool import TarantoolItems
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


def test_a_sphinx_total_is_show_metas_total_found_row_not_its_total_row() -> None:
    """SHOW META's rows are [Variable_name, Value]: the total is the Value of the row named total_found (1205), not
    total (what max_matches kept, 1000) nor any other row's; without the row, or with a NULL Value, it is 0."""
    import asyncio

    from ycsbctl.workload.media_items.contract import Page, Query
    from ycsbctl.workload.media_items.ops import QUERY_1COND
    from ycsbctl.workload.media_items.sphinx import SphinxItems
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


def test_an_elasticsearch_get_of_a_missing_item_is_not_found_and_another_http_status_an_error_saying_it():
    """get() on a binding that answers as Elasticsearch does: 404 with found false for an id it has not, 200 with
    the document's _source, and a 503 of a shard not ready (an error, its reason kept)."""
    from ycsbctl.workload.media_items.contract import Item
    from ycsbctl.workload.plugin import ERROR, NOT_FOUND, OK

    store = media_workload("byid").executor("elasticsearch").store  # type: ignore[union-attr]

    class Answers:
        def __init__(self, http: int, got: dict) -> None:
            self.http, self.got, self.last_error, self.asked = http, got, None, b""

        async def rest(self, method: bytes, path: bytes, body: bytes | None = None) -> tuple[int, int, dict]:
            self.asked = method + b" " + path
            return OK, self.http, self.got

    def get(http: int, got: dict) -> tuple:
        b = Answers(http, got)
        return (*asyncio.run(store.get(b, 7)), b.asked, b.last_error)  # type: ignore[arg-type]

    missing = {"_index": "items", "_id": "7", "found": False}
    assert get(404, missing) == (NOT_FOUND, None, b"GET /items/_doc/7", None)
    doc = {"_id": "7", "found": True, "_source": {"id": 7, "name": "n7", "year": 2001, "description": "d"}}
    assert get(200, doc) == (OK, Item(7, "n7", 2001, "d"), b"GET /items/_doc/7", None)
    st, item, _, said = get(503, {"error": {"type": "no_shard_available_action_exception"}, "status": 503})
    assert (st, item) == (ERROR, None) and said.startswith("Elasticsearch get: HTTP 503 {\"type\": \"no_shard")
