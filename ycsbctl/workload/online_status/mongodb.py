"""online-status on MongoDB-protocol servers: one document per user ``{_id: user, t: timestamp s,
b: bucket}``; STORE and BATCH-STORE are upserts (one ``update`` command of N, bulkWrite's), the load's
INSERT is ``insert`` of N documents (insertMany's), COUNT is ``count`` of a bucket, GET-AND-CLEAR a
``find`` of the bucket then a ``delete`` of it. Through the wire binding's ``run_command``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ycsbctl.workload.online_status.ops import COUNT, GET_AND_CLEAR, INSERT
from ycsbctl.workload.plugin import ERROR, OK, CommandBinding

if TYPE_CHECKING:
    from ycsbctl.workload.online_status.workload import OnlineStatus


class MongoExecutor:
    """Executes online-status operations on a MongoDB wire binding (one connection)."""

    def __init__(self, w: OnlineStatus) -> None:
        self.w = w
        self.coll = w.table

    async def __call__(self, b: CommandBinding, op: int, arg: Any) -> int:
        run = getattr(b, "run_command", None)
        if run is None:
            b.last_error = "online-status needs ycsbctl's MongoDB wire binding (a URL without credentials or TLS)"
            return ERROR
        w, coll = self.w, self.coll
        if op == INSERT:
            docs = [{"_id": u, "t": t, "b": w.bucket(t)} for u, t in arg]
            st, _ = await run({"insert": coll, "documents": docs, "ordered": True}, True)
        elif op == COUNT:
            st, _ = await run({"count": coll, "query": {"b": w.bucket(arg)}})
        elif op == GET_AND_CLEAR:
            bucket = w.bucket(arg)
            st, _ = await run({"find": coll, "filter": {"b": bucket}, "batchSize": 2**31 - 1, "singleBatch": True})
            if st == OK:
                st, _ = await run({"delete": coll, "deletes": [{"q": {"b": bucket}, "limit": 0}], "ordered": True}, True)
        else:  # STORE, BATCH-STORE: upserts
            updates = [{"q": {"_id": u}, "u": {"$set": {"t": t, "b": w.bucket(t)}}, "upsert": True} for u, t in arg]
            st, _ = await run({"update": coll, "updates": updates, "ordered": True}, True)
        return int(st)
