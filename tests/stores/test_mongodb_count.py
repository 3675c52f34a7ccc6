"""The dataset count of a MongoDB-protocol server (``MongoProtocol.count``: its collection statistics, not a scan)
against the documents the server finds one by one (``count_documents``), as the collection fills, loses documents
and is dropped."""

from __future__ import annotations

import uuid

from pymongo import MongoClient

from ycsbctl.stores.registry import for_url


def test_the_count_follows_the_documents_the_server_finds_as_they_come_and_go(mongo_wire):
    name = "t" + uuid.uuid4().hex[:10]
    url = f"mongodb://127.0.0.1:{mongo_wire.port}/{name}"
    store = for_url(url)
    with MongoClient(mongo_wire.url, serverSelectionTimeoutMS=5000) as client:
        coll = client[name]["usertable"]
        try:
            assert store.count(url, "usertable") == 0  # no collection yet
            coll.insert_many([{"_id": f"user{i}", "field0": "x" * 50} for i in range(300)])
            assert store.count(url, "usertable") == coll.count_documents({}) == 300
            coll.delete_many({"_id": {"$in": [f"user{i}" for i in range(7)]}})
            assert store.count(url, "usertable") == coll.count_documents({}) == 293
            coll.drop()
            assert store.count(url, "usertable") == 0
        finally:
            client.drop_database(name)
