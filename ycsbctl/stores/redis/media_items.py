"""media-items on Redis-protocol servers: each item the study's JSON document under ``<table>:<id>``
(the study: the id alone as the key, and ``MSET``); GET-BY-ID is ``GET``, UPDATE ``SET … XX`` (the item
must exist: NOT_FOUND otherwise; the study's ``MSET`` would create it), the load ``MSET`` of a batch.

Cannot: the queries. Redis has no secondary index or full-text search of its own (the study kept a
sorted set of JSON documents by year for QUERY-1COND by hand, never updated its members, and ran no other
query on Redis; RediSearch is a module these servers do not load)."""

from __future__ import annotations

import json
from typing import ClassVar

from ycsbctl.workload.media_items.contract import Item, MediaStore, document
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, QUERY_1COND, QUERY_2COND
from ycsbctl.workload.plugin import ERROR, NOT_FOUND, OK, RespBinding

_NO_INDEX = "Redis has no secondary index (the study kept a sorted set by year by hand, for this test only)"
_NO_TEXT = "Redis has no full-text search (RediSearch is a module these servers do not load)"


class RedisItems(MediaStore):
    protocol: ClassVar[str] = "redis"
    indexes: ClassVar[str] = "none: a key per item (<table>:<id>), its JSON document as a string"
    cannot: ClassVar[dict[int, str]] = {QUERY_1COND: _NO_INDEX, QUERY_2COND: _NO_INDEX, FULLTEXT: _NO_TEXT,
                                        FULLTEXT_PREFIX: _NO_TEXT}

    def key(self, item_id: int) -> bytes:
        return b"%s:%d" % (self.table.encode(), item_id)

    async def setup(self, b: RespBinding) -> int:
        return OK

    async def insert(self, b: RespBinding, items: list[Item]) -> int:
        cmd = [b"MSET"]
        for it in items:
            cmd += (self.key(it.id), document(it))
        st, _ = await b.resp(cmd)
        return int(st)

    async def get(self, b: RespBinding, item_id: int) -> tuple[int, Item | None]:
        st, r = await b.resp((b"GET", self.key(item_id)))
        if st != OK:
            return int(st), None
        if r is None:
            return NOT_FOUND, None
        try:
            d = json.loads(r)  # type: ignore[arg-type]
            return OK, Item(int(d["id"]), d["name"], int(d["year"]), d["description"])
        except (ValueError, KeyError, TypeError) as exc:
            b.last_error = f"the value of {self.key(item_id).decode()} is no item: {exc}"
            return ERROR, None

    async def update(self, b: RespBinding, item: Item) -> int:
        st, r = await b.resp((b"SET", self.key(item.id), document(item), b"XX"))
        return int(st) if st != OK else OK if r is not None else NOT_FOUND

