"""media-items on MongoDB-protocol servers: one document per item, ``{_id: "0000000042", name, year,
description}``: the item's id is the document's ``_id``, as a zero-padded 10-digit string (the study kept an
``id`` field with an index of its own beside an ObjectId ``_id``). A string because FerretDB 1.24's SQLite
backend uses its ``_id`` index only for a string or ObjectId value: an integer ``_id`` is looked up by reading
and decoding every document (measured on 100,000 items, one client: 1.6 s per find by integer ``_id``,
0.7 ms by string; its ``collection.go`` pushes down ``case string, types.ObjectID`` only); zero-padded so
that ``sort {_id: 1}`` is the id order. Secondary indexes on ``name`` and on ``year``, and — for a FULLTEXT
point — a text index on ``description`` with ``default_language: "none"`` (no stemming, no stop words).
FULLTEXT is ``{$text: {$search: "w1 w2"}}`` (either word: the study's), the page ``sort {_id: 1}, skip,
limit``, the total a ``count``. Through ycsbctl's wire binding (``run_command``).

Cannot: FULLTEXT-PREFIX anywhere (``$text`` matches whole words; a ``$regex`` reads every document, and
the study ran no prefix test on MongoDB either); FULLTEXT on FerretDB 1.24 (the local mongo-wire
server, SQLite backend), which has neither text indexes nor ``$text`` (``createIndexes`` of a text key:
IndexNotFound; ``$text``: "unknown top level operator"); QUERY-1COND and QUERY-2COND on FerretDB 1.24 at a
plan's scale where they cannot answer in time (:func:`ferretdb_scans_from`): it creates the name and year
indexes but its SQLite backend does not use them for these filters (``explain``: SCAN, filterPushdown false)
and sorts in memory, so each query reads and decodes the whole collection — 4.5 s alone for one QUERY-1COND
page over 100,000 items (its count 5.8 s) on the 2-core host — and it answers them one at a time: with the
plan's connections all asking, the last waits ``items × 45 µs × connections``, past the operation timeout
(5,000 items at the study's 50 connections: 11 s, and they failed after 10 s timeouts), and the abandoned
queries would run on into the next point.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from ycsbctl.workload.media_items.contract import Item, MediaStore, Page, Query
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, QUERY_1COND, QUERY_2COND
from ycsbctl.workload.plugin import ERROR, NOT_FOUND, OK, CommandBinding

_NO_TEXT_ON_FERRETDB = ("FerretDB 1.24 (SQLite backend) has no text index and no $text (its answer: "
                        "'unknown top level operator: $text')")


# FerretDB 1.24's whole-collection read per QUERY-1COND/2COND: 45 µs per item (measured: 4.5 s for one page over
# 100,000 items, one client, on the 2-core host), one query at a time (5,000 items at 50 connections timed out at
# 10 s: 50 × 0.225 s = 11 s; two at a time would have been 5.6 s)
FERRETDB_SCAN_US_PER_ITEM = 45.0
_FERRETDB_SCANS = ("FerretDB 1.24 (SQLite backend) reads and decodes the whole collection for a filter on year or "
                   "name (its indexes unused: explain says SCAN; sorted in memory; 4.5 s for one page over 100,000 "
                   "items alone on the 2-core host) and answers one such query at a time, so at {records:,} items "
                   "the last of {connections} connections would wait ~{wait_s:.1f} s, past the {timeout_s:g} s "
                   "operation timeout (it answers below {scan_from:,} items at {connections} connections: lower "
                   "recordcount or --threads, or raise --timeout)")


def ferretdb_scans_from(connections: int, timeout_s: float) -> int:
    """The fewest items at which FerretDB 1.24's QUERY-1COND/2COND cannot answer ``connections`` clients within
    ``timeout_s`` s: the last waits ``items × FERRETDB_SCAN_US_PER_ITEM × connections`` (one query at a time)."""
    return math.ceil(timeout_s * 1e6 / (FERRETDB_SCAN_US_PER_ITEM * max(connections, 1)))


def key(item_id: int) -> str:
    """The ``_id`` of item ``item_id``: its id as 10 zero-padded digits (see the module docstring)."""
    return f"{item_id:010d}"


def _wire(b: Any) -> CommandBinding | None:
    if getattr(b, "run_command", None) is None:
        b.last_error = "media-items needs ycsbctl's MongoDB wire binding (a URL without credentials or TLS)"
        return None
    return b


class MongoItems(MediaStore):
    protocol: ClassVar[str] = "mongodb"
    indexes: ClassVar[str] = ("_id (the item's id, 10 zero-padded digits); ascending indexes on name and on year; a "
                              "text index on "
                              "description (default_language none) for FULLTEXT points")
    cannot: ClassVar[dict[int, str]] = {
        FULLTEXT_PREFIX: "MongoDB's $text matches whole words only (no prefix search; a $regex would read every "
                         "document; the study ran no prefix test on MongoDB)"}
    cannot_on: ClassVar[dict[str, dict[int, str]]] = {"ferretdb": {FULLTEXT: _NO_TEXT_ON_FERRETDB}}
    differs: ClassVar[dict[int, str]] = {
        FULLTEXT: "{$text: {$search: 'w1 w2'}} sorted by _id (the study: unsorted)"}

    @classmethod
    def refused(cls, server: str = "", records: int = 0,
                connections: int = 0, timeout_s: float = 0.0) -> dict[int, str]:
        out = super().refused(server, records, connections, timeout_s)
        # the scale not known: nothing to refuse for it
        if server != "ferretdb" or connections < 1 or not timeout_s > 0:
            return out
        scan_from = ferretdb_scans_from(connections, timeout_s)
        if records >= scan_from:
            wait_s = records * FERRETDB_SCAN_US_PER_ITEM * connections / 1e6
            why = _FERRETDB_SCANS.format(records=records, connections=connections, wait_s=wait_s, timeout_s=timeout_s,
                                         scan_from=scan_from)
            out.update({QUERY_1COND: why, QUERY_2COND: why})
        return out

    async def setup(self, b: Any) -> int:
        w = _wire(b)
        if w is None:
            return ERROR
        keys: list[dict] = [{"key": {"name": 1}, "name": "name_1"}, {"key": {"year": 1}, "name": "year_1"}]
        if FULLTEXT in self.settings.ops:
            keys.append({"key": {"description": "text"}, "name": "description_text", "default_language": "none"})
        for key in keys:  # one at a time: FerretDB 1.24 drops the connection (a Go panic, "slice bounds out
            # of range") on a createIndexes of two or more indexes that all exist (the second worker's)
            st, _ = await w.run_command({"createIndexes": self.table, "indexes": [key]}, True)
            if st != OK:
                return int(st)
        return OK

    async def insert(self, b: Any, items: list[Item]) -> int:
        w = _wire(b)
        if w is None:
            return ERROR
        docs = [{"_id": key(it.id), "name": it.name, "year": it.year, "description": it.description} for it in items]
        st, _ = await w.run_command({"insert": self.table, "documents": docs, "ordered": True}, True)
        return int(st)

    async def get(self, b: Any, item_id: int) -> tuple[int, Item | None]:
        w = _wire(b)
        if w is None:
            return ERROR, None
        st, r = await w.run_command({"find": self.table, "filter": {"_id": key(item_id)}, "limit": 1,
                                     "singleBatch": True})
        if r is None:  # no reply: an error or a timeout, which st says
            return int(st), None
        docs = r["cursor"]["firstBatch"]
        if not docs:
            return NOT_FOUND, None
        d = docs[0]
        return OK, Item(int(d["_id"]), d["name"], int(d["year"]), d["description"])

    def filter(self, q: Query) -> dict:
        if q.is_text:
            return {"$text": {"$search": " ".join(q.words)}}
        f: dict[str, Any] = {"year": {"$gt": q.year_gt}}
        if q.has_name:
            f["name"] = q.name
        return f

    async def query(self, b: Any, q: Query, count: bool) -> tuple[int, Page]:
        w = _wire(b)
        if w is None:
            return ERROR, Page(())
        f = self.filter(q)
        cmd: dict[str, Any] = {"find": self.table, "filter": f, "limit": q.limit, "batchSize": q.limit,
                               "singleBatch": True}
        if q.sort == "id":
            cmd["sort"] = {"_id": 1}
        if q.offset:
            cmd["skip"] = q.offset
        st, r = await w.run_command(cmd)
        if r is None:  # no reply: an error or a timeout, which st says
            return int(st), Page(())
        ids = tuple(int(d["_id"]) for d in r["cursor"]["firstBatch"])
        total = None
        if count:
            st, c = await w.run_command({"count": self.table, "query": f})
            if c is None:  # no reply: an error or a timeout, which st says
                return int(st), Page(())
            total = int(c["n"])
        return OK, Page(ids, total)

    async def update(self, b: Any, item: Item) -> int:
        w = _wire(b)
        if w is None:
            return ERROR
        change = {"$set": {"name": item.name, "year": item.year, "description": item.description}}
        st, r = await w.run_command({"update": self.table, "updates": [{"q": {"_id": key(item.id)}, "u": change}],
                                     "ordered": True}, True)
        if r is None:  # no reply: an error or a timeout, which st says
            return int(st)
        return OK if r.get("n", 0) else NOT_FOUND

