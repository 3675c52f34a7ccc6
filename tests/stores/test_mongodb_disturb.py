"""The MongoDB-protocol big keys (stores/mongodb/disturb.py) against a real mongo-wire server, read back
with pymongo: a list is one document holding exactly 0 … N-1 (built over several $push batches), ``lrem``
pulls its middle (an odd size: the whole number below half) element, a hash or zset is N documents of their shape (over
several insertMany batches), ``del`` drops it, ``close`` leaves nothing."""

from __future__ import annotations

import time

import pymongo
import pytest

from tests.fixtures.servers import start_mongo_wire
from ycsbctl.stores.disturb import DisturbSpec
from ycsbctl.stores.mongodb import disturb
from ycsbctl.stores.mongodb.disturb import MongoDisturber


@pytest.fixture(scope="module")
def mongo_wire(tmp_path_factory):
    server = start_mongo_wire(tmp_path_factory.mktemp("mongo-disturb"))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def db(mongo_wire):
    with pymongo.MongoClient(mongo_wire.url) as client:
        yield client["ycsb"]


def _spec(action: str, kind: str, size: int) -> DisturbSpec:
    return DisturbSpec(f"{action}:{kind}:{size}@1s", action, kind, size, 1.0)


def test_a_list_is_one_array_of_0_to_n_minus_1_and_lrem_pulls_its_middle(mongo_wire, db, monkeypatch):
    monkeypatch.setattr(disturb, "ARRAY_BATCH", 100)  # three $push batches, the last one short
    d = MongoDisturber(mongo_wire.url, _spec("lrem", "list", 251), "t-list")
    try:
        t0 = time.perf_counter()
        took = d.build()
        assert 0 < took <= time.perf_counter() - t0  # the build's own seconds, within the call's
        coll = db["ycsbctl_big_t_list"]
        assert coll.find_one({"_id": "big"})["a"] == list(range(251))
        d.act()
        assert coll.find_one({"_id": "big"})["a"] == [i for i in range(251) if i != 125]  # 251 // 2
    finally:
        d.close()
    assert "ycsbctl_big_t_list" not in db.list_collection_names()


@pytest.mark.parametrize(("kind", "shape"), [("hash", lambda i: {"_id": f"m{i}", "v": "v"}),
                                             ("zset", lambda i: {"_id": f"m{i}", "score": i}),
                                             ("set", lambda i: {"_id": f"m{i}"})])
def test_a_hash_zset_or_set_is_n_documents_of_its_shape_and_del_drops_them(mongo_wire, db, monkeypatch, kind,
                                                                            shape):
    monkeypatch.setattr(disturb, "BATCH", 100)  # three insertMany batches, the last one short
    d = MongoDisturber(mongo_wire.url, _spec("del", kind, 250), f"t-{kind}")
    try:
        d.build()
        coll = db[f"ycsbctl_big_t_{kind}"]
        assert sorted(coll.find(), key=lambda doc: int(doc["_id"][1:])) == [shape(i) for i in range(250)]
        d.act()
        assert coll.count_documents({}) == 0
    finally:
        d.close()


def test_what_each_action_sends_is_said_and_one_without_an_analogue_refused():
    from ycsbctl.errors import UserError
    from ycsbctl.stores.mongodb.disturb import MAX_ARRAY, command_text

    assert command_text(_spec("del", "hash", 2_000_000)) == "drop of a collection of 2,000,000 documents"
    assert command_text(_spec("hgetall", "hash", 200_000)) == \
        "find of every document of a collection of 200,000 (read to the end)"
    assert command_text(_spec("lrem", "list", MAX_ARRAY)) == \
        f"updateOne $pull of one element of the document holding an array of {MAX_ARRAY:,} integers (rewrites it)"
    with pytest.raises(UserError, match="at most 1,000,000 members"):
        command_text(_spec("lrange", "list", MAX_ARRAY + 1))
    for action in ("unlink", "expire"):
        with pytest.raises(UserError, match=f"no analogue of {action}"):
            command_text(_spec(action, "set", 10))
