"""media-items on Elasticsearch: an index ``items`` (one shard, no replica, translog synced every 5 s as YCSB's
index here) with the study's mapping — ``id`` integer, ``name`` keyword, ``year`` integer, ``description`` text
(the standard analyzer: the study's lowercase words as they are) — each item a document whose ``_id`` is its id.

- GET-BY-ID: a real-time ``GET``; UPDATE: ``_update`` of name, year and description (404: NOT_FOUND); the load
  one ``_bulk`` of index actions per batch;
- QUERY-1COND / QUERY-2COND: a ``bool`` filter (``range`` on year, ``term`` on name), sorted by ``id``;
- FULLTEXT: ``match`` of ``'w1 w2'`` with the OR operator; FULLTEXT-PREFIX: a ``bool`` of two ``prefix``
  queries (the study: ``query_string`` with OR and ``p*``: the same documents);
- pages ``from``/``size``; totals ``hits.total`` (exact in 6.8); searches see the last refresh, so the run's
  preparation refreshes the index after the load (and each second refreshes it anyway).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar, Protocol

from ycsbctl.workload.media_items.contract import Item, MediaStore, Page, Query
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX
from ycsbctl.workload.plugin import ERROR, NOT_FOUND, OK

MAPPING = {"settings": {"number_of_shards": 1, "number_of_replicas": 0, "index.translog.durability": "async",
                        "index.max_result_window": 200000},
           "mappings": {"_doc": {"dynamic": "strict", "properties": {
               "id": {"type": "integer"}, "name": {"type": "keyword"}, "year": {"type": "integer"},
               "description": {"type": "text"}}}}}


class RestBinding(Protocol):
    """The binding an ``elasticsearch`` executor gets: ``rest(method, path, body)`` → (status, HTTP status, JSON)."""

    last_error: str | None

    async def rest(self, method: bytes, path: bytes, body: bytes | None = None) -> tuple[int, int, Any]: ...


def _json(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def _failed(b: RestBinding, what: str, http: int, got: Any) -> int:
    reason = got.get("error") if isinstance(got, dict) else got
    b.last_error = f"Elasticsearch {what}: HTTP {http} {json.dumps(reason)[:200]}"
    return ERROR


class ElasticsearchItems(MediaStore):
    protocol: ClassVar[str] = "elasticsearch"
    indexes: ClassVar[str] = "Elasticsearch's own: name keyword, year integer (BKD), description text (inverted index)"
    differs: ClassVar[dict[int, str]] = {
        FULLTEXT: "match 'w1 w2', operator OR",
        FULLTEXT_PREFIX: "bool should of prefix 'p1' and prefix 'p2' (the study: query_string 'p1* OR p2*')",
    }

    def path(self, tail: str = "") -> bytes:
        return f"/{self.table}{tail}".encode()

    async def setup(self, b: RestBinding) -> int:
        st, http, got = await b.rest(b"GET", self.path())  # (a HEAD reply has a length but no body: not asked)
        if st != OK or http == 200:
            return st
        st, http, got = await b.rest(b"PUT", self.path(), _json(MAPPING))
        if st == OK and http >= 300 and "already_exists" not in json.dumps(got):  # another worker made it first
            return _failed(b, "refused the index", http, got)
        st, http, got = await b.rest(b"GET",
                                     f"/_cluster/health/{self.table}?wait_for_status=green&timeout=60s".encode())
        return st if st != OK or http < 300 else _failed(b, "health", http, got)

    async def ready(self, b: RestBinding) -> int:
        """A refresh: searches see the documents loaded (a real-time GET needs none)."""
        st, http, got = await b.rest(b"POST", self.path("/_refresh"))
        return st if st != OK or http < 300 else _failed(b, "refresh", http, got)

    async def insert(self, b: RestBinding, items: list[Item]) -> int:
        lines: list[bytes] = []
        for it in items:
            lines += (_json({"index": {"_id": str(it.id)}}), _json(it.document()))
        st, http, got = await b.rest(b"POST", self.path("/_doc/_bulk"), b"\n".join(lines) + b"\n")
        if st != OK:
            return st
        if http >= 300 or got.get("errors"):
            return _failed(b, "bulk", http,
                           got if http >= 300 else next(i["index"] for i in got["items"] if "error" in i["index"]))
        return OK

    async def get(self, b: RestBinding, item_id: int) -> tuple[int, Item | None]:
        st, http, got = await b.rest(b"GET", self.path(f"/_doc/{int(item_id)}"))
        if st != OK:
            return st, None
        if http == 404:
            return NOT_FOUND, None
        if http != 200:
            return _failed(b, "get", http, got), None
        d = got["_source"]
        return OK, Item(int(d["id"]), d["name"], int(d["year"]), d["description"])

    def search(self, q: Query) -> dict[str, Any]:
        if q.op == FULLTEXT:
            query: dict[str, Any] = {"match": {"description": {"query": " ".join(q.words), "operator": "or"}}}
        elif q.op == FULLTEXT_PREFIX:
            query = {"bool": {"should": [{"prefix": {"description": p}} for p in q.words], "minimum_should_match": 1}}
        else:
            filters: list[dict[str, Any]] = [{"range": {"year": {"gt": q.year_gt}}}]
            if q.has_name:
                filters.append({"term": {"name": q.name}})
            query = {"bool": {"filter": filters}}
        body: dict[str, Any] = {"query": query, "from": q.offset, "size": q.limit, "_source": False}
        if q.sort == "id":
            body["sort"] = [{"id": "asc"}]
        return body

    async def query(self, b: RestBinding, q: Query, count: bool) -> tuple[int, Page]:
        st, http, got = await b.rest(b"POST", self.path("/_search"), _json(self.search(q)))
        if st != OK:
            return st, Page(())
        if http != 200:
            return _failed(b, "search", http, got), Page(())
        hits = got["hits"]
        return OK, Page(tuple(int(h["_id"]) for h in hits["hits"]), int(hits["total"]) if count else None)

    async def update(self, b: RestBinding, item: Item) -> int:
        doc = {"doc": {"name": item.name, "year": item.year, "description": item.description}}
        st, http, got = await b.rest(b"POST", self.path(f"/_doc/{item.id}/_update?retry_on_conflict=5"), _json(doc))
        if st != OK:
            return st
        return OK if http == 200 else NOT_FOUND if http == 404 else _failed(b, "update", http, got)

