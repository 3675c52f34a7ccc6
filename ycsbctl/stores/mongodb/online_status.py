"""online-status on MongoDB-protocol servers: one document per user ``{_id: user, t: timestamp s,
b: bucket}``; STORE and BATCH-STORE are upserts (one ``update`` command of N, bulkWrite's), the load's
INSERT is ``insert`` of N documents (insertMany's), COUNT is ``count`` of a bucket, GET-AND-CLEAR a
``find`` of the bucket (then ``getMore`` until its cursor is spent) and a ``delete`` of it. Through the wire
binding's ``run_command``.

The find asks for at most as many documents per batch as there are users (the most a bucket holds), never
"all at once": FerretDB sizes a slice by the batch size asked (2**31 - 1 made it fault in gigabytes of
pages, 10-25 s of its CPU for 500 documents), and a MongoDB batch stops at 16 MB whatever is asked, so a
single batch may not be the whole bucket."""

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
            st = await self._read_all(run, {"find": coll, "filter": {"b": bucket}, "batchSize": w.users})
            if st == OK:
                st, _ = await run({"delete": coll, "deletes": [{"q": {"b": bucket}, "limit": 0}], "ordered": True},
                                  True)
        else:  # STORE, BATCH-STORE: upserts
            updates = [{"q": {"_id": u}, "u": {"$set": {"t": t, "b": w.bucket(t)}}, "upsert": True} for u, t in arg]
            st, _ = await run({"update": coll, "updates": updates, "ordered": True}, True)
        return int(st)

    async def _read_all(self, run: Any, find: dict) -> int:
        """``find``, then ``getMore`` of its cursor until the server says it is spent (cursor id 0): OK, or the
        first failed request's status."""
        st, reply = await run(find)
        while st == OK and reply["cursor"]["id"]:
            st, reply = await run({"getMore": reply["cursor"]["id"], "collection": self.coll,
                                   "batchSize": self.w.users})
        return int(st)
