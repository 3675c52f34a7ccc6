"""MongoDB binding (pymongo's async API), storing data as YCSB's MongoDB binding.

The timed loop uses :mod:`ycsbctl.stores.mongodb.wire` for plain connections (4× less client CPU
per op); this binding serves the rest: credentials, TLS, replica sets and SRV, read preferences,
``batchsize`` > 1, ``mongodb.upsert``, or ``-p mongodb.driver=pymongo``.

Documents ``{_id: key, fieldN: BinData(0, bytes)}`` in collection ``usertable`` of the URL's
database (default ``ycsb``). As in YCSB, one client (and its connection pool) is shared by all
client threads of a worker process; the pool is sized so that each thread has a connection.
``batchsize`` > 1 buffers inserts into ``insert_many(ordered=False)`` and — unlike YCSB —
flushes the final partial batch on close. ``mongodb.upsert=true`` writes with
``replace_one(upsert=True)``. Write concern and read preference come from the URL.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlparse

from pymongo import AsyncMongoClient, InsertOne, ReplaceOne
from pymongo.errors import PyMongoError, ServerSelectionTimeoutError

from ycsbctl.errors import UserError, first_line
from ycsbctl.stores.binding import Binding, ConnectionLost, Fields, Status, Values


def database_name(url: str) -> str:
    """The database named in a ``mongodb://`` URL path, ``ycsb`` when none."""
    u = urlparse(url)
    if u.scheme not in ("mongodb", "mongodb+srv"):
        raise UserError(f"not a MongoDB URL: {url!r} (expected mongodb://host:port/db)")
    return u.path.lstrip("/").split("?")[0] or "ycsb"


class MongoPool:
    """The client shared by one worker process's bindings."""

    def __init__(self, url: str, clients: int, timeout_s: float, properties: dict[str, str]) -> None:
        self.client: AsyncMongoClient = AsyncMongoClient(
            url,
            maxPoolSize=max(1, clients),
            timeoutMS=int(timeout_s * 1000),
            serverSelectionTimeoutMS=int(max(timeout_s, 2.0) * 1000),
            connect=False,
        )
        self.db = self.client[database_name(url)]
        self.batchsize = max(1, int(properties.get("batchsize") or "1"))
        self.upsert = properties.get("mongodb.upsert", "false").strip().lower() == "true"

    async def ping(self) -> None:
        try:
            await self.db.command("ping")
        except PyMongoError as exc:
            raise ConnectionLost(f"cannot reach the MongoDB server: {first_line(exc)}") from None

    async def close(self) -> None:
        await self.client.close()


def record_document(key: str, values: Values) -> dict:
    doc: dict = {"_id": key}
    for name, value in values:
        doc[name.decode()] = value  # bytes → BinData subtype 0, as YCSB stores them
    return doc


def document_cells(doc: dict) -> dict[bytes, bytes]:
    """A record document's fields as the binding hands them back (``_id`` left out)."""
    return {k.encode(): bytes(v) for k, v in doc.items() if k != "_id"}


def projection(fields: Fields) -> dict | None:
    return None if fields is None else {f.decode(): 1 for f in fields}


class MongoBinding(Binding):
    """One client thread of YCSB's MongoDB binding."""

    def __init__(self, pool: MongoPool) -> None:
        self.pool = pool
        self.batch: list = []

    def _fail(self, exc: PyMongoError) -> Status:
        # pymongo appends its timeout settings and topology to every message: first_line keeps the reason only.
        self.last_error = first_line(exc)[:300]
        if isinstance(exc, ServerSelectionTimeoutError):
            raise ConnectionLost(f"lost the MongoDB server: {self.last_error}") from None
        if getattr(exc, "timeout", False):
            return Status.TIMEOUT
        return Status.ERROR  # a connection failure, or the server's error

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        try:
            doc = await self.pool.db[table].find_one({"_id": key.decode()}, projection(fields))
        except PyMongoError as exc:
            return self._fail(exc)
        return Status.OK if doc is not None else Status.NOT_FOUND

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        try:
            doc = await self.pool.db[table].find_one({"_id": key.decode()}, projection(fields))
        except PyMongoError as exc:
            return self._fail(exc), {}
        return (Status.OK, document_cells(doc)) if doc is not None else (Status.NOT_FOUND, {})

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        coll = self.pool.db[table]
        doc = record_document(key.decode(), values)
        try:
            if self.pool.batchsize == 1:
                if self.pool.upsert:
                    await coll.replace_one({"_id": doc["_id"]}, doc, upsert=True)
                else:
                    await coll.insert_one(doc)
                return Status.OK
            self.batch.append(ReplaceOne({"_id": doc["_id"]}, doc, upsert=True) if self.pool.upsert else InsertOne(doc))
            if len(self.batch) >= self.pool.batchsize:
                await self._flush(table)
            return Status.OK
        except PyMongoError as exc:
            self.batch.clear()
            return self._fail(exc)

    async def _flush(self, table: str = "usertable") -> None:
        ops, self.batch = self.batch, []
        if ops:
            await self.pool.db[table].bulk_write(ops, ordered=False)

    async def close(self) -> None:
        try:
            await self._flush()
        except PyMongoError as exc:
            self.last_error = f"final batch failed: {first_line(exc)}"

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        try:
            r = await self.pool.db[table].update_one({"_id": key.decode()},
                                                     {"$set": {n.decode(): v for n, v in values}})
        except PyMongoError as exc:
            return self._fail(exc)
        return Status.OK if r.matched_count else Status.NOT_FOUND

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        try:
            cursor = self.pool.db[table].find({"_id": {"$gte": start_key.decode()}}, projection(fields))
            docs = await cursor.sort("_id", 1).limit(count).to_list(length=count)
        except PyMongoError as exc:
            return self._fail(exc)
        return Status.OK if docs else Status.NOT_FOUND

    async def delete(self, table: str, key: bytes) -> Status:
        try:
            r = await self.pool.db[table].delete_one({"_id": key.decode()})
        except PyMongoError as exc:
            return self._fail(exc)
        return Status.OK if r.deleted_count else Status.NOT_FOUND
