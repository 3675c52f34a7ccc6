"""The MongoDB-protocol analogues of the big-key disturbances (see :mod:`ycsbctl.stores.disturb`).

A Redis hash, set or zset of N members becomes a collection ``ycsbctl_big_<name>`` of N small
documents; a list becomes one document holding an array of N integers (a document is at most 16 MB:
:data:`MAX_ARRAY` members). ``del`` drops the collection (deletes the document, for a list);
``lrem`` pulls one element out of the array (an update that rewrites it); the reading actions read
the whole collection (the whole document). ``unlink`` and ``expire`` have no analogue: a drop has no
lazy variant to compare, and a TTL index removes documents at a time of the server's choosing.
"""

from __future__ import annotations

import time

from ycsbctl.errors import UserError
from ycsbctl.stores.disturb import ActionTiming, Disturber, DisturbSpec

BATCH = 10_000  # documents per insertMany while building a collection
ARRAY_BATCH = 100_000  # array members per $push while building a list's document
MAX_ARRAY = 1_000_000  # 12 bytes of BSON each: 12 MB of a document's 16 MB
TIMEOUT_S = 300.0

_NO_ANALOGUE = {
    "unlink": "a collection is dropped at once, with no lazy variant to compare: use del",
    "expire": "a TTL index removes documents when its monitor runs (every 60 s), not at an instant to time",
}


def command_text(spec: DisturbSpec) -> str:
    """What ``spec`` sends on a MongoDB-protocol server; UserError when it has no analogue there."""
    flag = f"--disturb {spec.text}"
    if spec.action in _NO_ANALOGUE:
        raise UserError(f"{flag}: MongoDB-protocol targets have no analogue of {spec.action} "
                        f"({_NO_ANALOGUE[spec.action]})")
    if spec.kind == "list":
        if spec.size > MAX_ARRAY:
            raise UserError(f"{flag}: on MongoDB-protocol targets a list is an array in one document, at most "
                            f"{MAX_ARRAY:,} members (16 MB): use a smaller SIZE")
        what = f"the document holding an array of {spec.size:,} integers"
        return {"del": f"deleteOne of {what}", "lrem": f"updateOne $pull of one element of {what} (rewrites it)",
                "lrange": f"findOne of {what}"}[spec.action]
    if spec.action == "del":
        return f"drop of a collection of {spec.size:,} documents"
    return f"find of every document of a collection of {spec.size:,} (read to the end)"


class MongoDisturber(Disturber):
    """The collection (or array document) ``ycsbctl_big_<name>`` and the action of ``spec`` on it."""

    def __init__(self, url: str, spec: DisturbSpec, name: str) -> None:
        super().__init__(url, spec, name)
        from ycsbctl.stores.mongodb.admin import client
        from ycsbctl.stores.mongodb.pymongo_binding import database_name

        self.text = command_text(spec)
        self.client = client(url, TIMEOUT_S)
        self.key = f"ycsbctl_big_{name}".replace("-", "_")
        self.coll = self.client[database_name(url)][self.key]

    def build(self) -> float:
        t = time.perf_counter()
        self.coll.drop()
        size = self.spec.size
        if self.spec.kind == "list":
            self.coll.insert_one({"_id": "big", "a": []})
            for first in range(0, size, ARRAY_BATCH):
                self.coll.update_one({"_id": "big"},
                                     {"$push": {"a": {"$each": list(range(first, min(size, first + ARRAY_BATCH)))}}})
        else:
            for first in range(0, size, BATCH):
                self.coll.insert_many([self._doc(i) for i in range(first, min(size, first + BATCH))], ordered=False)
        return time.perf_counter() - t

    def _doc(self, i: int) -> dict:
        if self.spec.kind == "hash":
            return {"_id": f"m{i}", "v": "v"}
        if self.spec.kind == "zset":
            return {"_id": f"m{i}", "score": i}
        return {"_id": f"m{i}"}

    def act(self) -> ActionTiming:
        spec = self.spec
        start = time.perf_counter()
        if spec.kind == "list":
            if spec.action == "del":
                self.coll.delete_one({"_id": "big"})
            elif spec.action == "lrem":
                self.coll.update_one({"_id": "big"}, {"$pull": {"a": spec.size // 2}})
            else:
                self.coll.find_one({"_id": "big"})
        elif spec.action == "del":
            self.coll.drop()
        else:
            for _ in self.coll.find({}, batch_size=BATCH):
                pass
        return ActionTiming(start, time.perf_counter() - start, self.text)

    def close(self) -> None:
        try:
            self.coll.drop()
        finally:
            self.client.close()
