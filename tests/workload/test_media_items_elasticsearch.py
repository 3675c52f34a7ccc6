"""The media-items study's Elasticsearch executor (:mod:`ycsbctl.stores.elasticsearch.media_items`) on a real
node: every query answered as the truth does, a refused bulk item, updates and gets as the node reads them; and its
pages and year boundary as the node answers the same searches written by hand (URI searches)."""

from __future__ import annotations

import asyncio
from urllib.parse import quote

import pytest

from tests.fixtures.media_items import (
    EVERY_QUERY,
    PAGE_QUERIES,
    load_and_check,
    measured_load,
    media_workload,
    pages_by_hand,
    store_pages,
)
from tests.fixtures.study_clients import elasticsearch_curl
from ycsbctl.stores.elasticsearch.media_items import ElasticsearchItems
from ycsbctl.workload.media_items.contract import MediaSettings, Page

pytestmark = pytest.mark.truth


def test_elasticsearch_answers_every_query_as_the_truth(elasticsearch) -> None:
    # The node is shared with other modules: their indexes merged to one segment first, so that only the items'
    # own index changes while this test measures.
    from ycsbctl.stores.elasticsearch.admin import ok

    # An index left idle for 5 minutes (indices.memory.shard_inactive_time) gets a synced flush: a new commit point,
    # ~155 bytes more, measured on this node. An earlier module's index may reach that while this test measures,
    # so what the other indexes moved on their own, each read by itself, is added to the items' bytes.
    ok(elasticsearch.url, "POST", "/_forcemerge?max_num_segments=1", timeout_s=60.0)

    def sizes() -> dict[str, float]:  # each index's Lucene segments and commit points
        indices = elasticsearch_curl(elasticsearch.url, "/_stats/store")["indices"]
        return {name: float(index["total"]["store"]["size_in_bytes"]) for name, index in indices.items()}

    others = {name: size for name, size in sizes().items() if name != "items"}

    def items_bytes() -> float:
        now = sizes()
        return now.get("items", 0.0) + sum(now.get(name, 0.0) - size for name, size in others.items())

    said, refused = measured_load(elasticsearch, "elasticsearch", EVERY_QUERY, items_bytes)
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


def test_an_elasticsearch_refresh_of_an_index_the_node_lacks_is_an_error_saying_the_nodes_reason(elasticsearch) -> None:
    """ready() (the refresh after a load) of an index never made: the node answers 404 with its own
    index_not_found_exception, and the refresh is ERROR with that reason kept, not OK; of an index made, OK."""
    import uuid

    from tests.fixtures.media_items import PROPS
    from ycsbctl.stores.elasticsearch.admin import call
    from ycsbctl.stores.registry import open_bindings
    from ycsbctl.workload.plugin import ERROR, OK

    table = f"norefresh{uuid.uuid4().hex[:8]}"  # an index of its own, never made
    store = media_workload("byid", table=table).executor("elasticsearch").store  # type: ignore[union-attr]
    assert call(elasticsearch.url, "GET", f"/{table}")[0] == 404  # the node's own word: it has no such index

    async def main() -> tuple[int, str | None, int]:
        bs = await open_bindings(elasticsearch.url, 1, {**PROPS, "table": table}, 30.0)
        try:
            b = bs.bindings[0]
            missing = await store.ready(b), b.last_error
            assert await store.setup(b) == OK, b.last_error
            return (*missing, await store.ready(b))
        finally:
            await bs.close()

    try:
        st, said, made = asyncio.run(main())
        assert st == ERROR and said is not None and said.startswith("Elasticsearch refresh: HTTP 404 "), said
        assert "index_not_found_exception" in said and made == OK
    finally:
        call(elasticsearch.url, "DELETE", f"/{table}")


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


def test_elasticsearchs_pages_and_year_boundary_are_what_the_node_answers_to_searches_by_hand(elasticsearch) -> None:
    """Twelve items made by hand: a page past the first of year > 2010, a name's second page and the boundary at
    2011 (items of 2011 left out) — the executor's ids and totals are the plain filter's and those of the node's
    own URI searches written by hand (q=year:>2010 AND name:"…", sort=id:asc, from, size; hits.total)."""
    from ycsbctl.stores.elasticsearch.admin import ok

    store = ElasticsearchItems(MediaSettings(table="pages"))
    try:
        got = store_pages(elasticsearch.url, store)
        by_hand = []
        for q in PAGE_QUERIES:
            where = f"year:>{q.year_gt}" + (f' AND name:"{q.name}"' if q.has_name else "")
            hits = elasticsearch_curl(elasticsearch.url, f"/pages/_search?q={quote(where)}&sort=id:asc"
                                                         f"&from={q.offset}&size={q.limit}")["hits"]
            by_hand.append(Page(tuple(int(h["_id"]) for h in hits["hits"]), int(hits["total"])))
    finally:
        ok(elasticsearch.url, "DELETE", "/pages", timeout_s=30.0)
    assert got == pages_by_hand() == by_hand, (got, by_hand)
