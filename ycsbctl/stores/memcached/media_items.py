"""media-items on memcached: each item the study's JSON document under ``<table>-<id>`` (YCSB's memcached
key shape); GET-BY-ID is ``get``, UPDATE ``replace`` (the item must exist: NOT_FOUND otherwise), the load
``add`` per item. Cannot: the queries (memcached has no query at all: keys only). The study ran no
memcached."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from ycsbctl.workload.media_items.contract import Item, MediaStore, document
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, QUERY_1COND, QUERY_2COND
from ycsbctl.workload.plugin import ERROR, NOT_FOUND, OK, TextBinding

_KEYS_ONLY = "memcached reads by key only (no query, no index)"
_NO_EXPIRY = b"0 2147483647"  # flags 0, no expiry (as YCSB's memcached binding stores)


class MemcachedItems(MediaStore):
    protocol: ClassVar[str] = "memcached"
    indexes: ClassVar[str] = "none: a key per item (<table>-<id>), its JSON document as the value"
    cannot: ClassVar[dict[int, str]] = {op: _KEYS_ONLY for op in (QUERY_1COND, QUERY_2COND, FULLTEXT, FULLTEXT_PREFIX)}

    def key(self, item_id: int) -> bytes:
        return b"%s-%d" % (self.table.encode(), item_id)

    def store(self, verb: bytes, it: Item) -> bytes:
        body = document(it)
        return b"%s %s %s %d\r\n%s\r\n" % (verb, self.key(it.id), _NO_EXPIRY, len(body), body)

    async def setup(self, b: TextBinding) -> int:
        return OK

    async def insert(self, b: TextBinding, items: list[Item]) -> int:
        for it in items:
            st, r = await b.mc(self.store(b"add", it))
            if st != OK or r is None or r[0] != b"STORED":
                b.last_error = b.last_error if st != OK else f"add {it.id}: {r[0].decode() if r else '?'}"
                return int(st) if st != OK else ERROR
        return OK

    async def get(self, b: TextBinding, item_id: int) -> tuple[int, Item | None]:
        st, r = await b.mc(b"get %s\r\n" % self.key(item_id))
        if r is None:  # no reply: an error or a timeout, which st says
            return int(st), None
        line, value = r
        if value is None:
            if line == b"END":
                return NOT_FOUND, None
            b.last_error = line.decode(errors="replace")
            return ERROR, None
        d: Any = json.loads(value)
        return OK, Item(int(d["id"]), d["name"], int(d["year"]), d["description"])

    async def update(self, b: TextBinding, item: Item) -> int:
        st, r = await b.mc(self.store(b"replace", item))
        if r is None:  # no reply: an error or a timeout, which st says
            return int(st)
        if r[0] == b"STORED":
            return OK
        if r[0] == b"NOT_STORED":
            return NOT_FOUND
        b.last_error = r[0].decode(errors="replace")
        return ERROR

