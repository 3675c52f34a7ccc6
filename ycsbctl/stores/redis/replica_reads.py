"""Reads from replicas (``-p redis.readfrom=replica``, Lettuce's ``ReadFrom.REPLICA``): each client
thread holds one connection to the primary and one to a replica (client ``i`` reads from replica
``i mod n``, as the primary's ``ROLE`` lists them); READ and SCAN go to the replica, INSERT, UPDATE and
DELETE (with their ``WAIT``, when ``redis.wait`` asks for one) to the primary.

A replica is behind its primary by the replication lag, so a read of a key written a moment before
may find it missing (NOT_FOUND) or old, as it would for any application that reads from replicas.
Such clients take the awaited path (a coroutine per operation, no chain): the engine's chained fast
path drives one connection per client.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Sequence

from ycsbctl.errors import UserError
from ycsbctl.stores.binding import Binding, ConnectionLost, Fields, Status, Values
from ycsbctl.stores.redis.binding import RedisBinding
from ycsbctl.stores.redis.options import RedisOptions

READ_FROM = ("primary", "replica")


def read_from(properties: dict[str, str]) -> str:
    """``-p redis.readfrom``: primary (the default) or replica."""
    value = str(properties.get("redis.readfrom", "primary")).strip().lower()
    if value == "master":
        value = "primary"
    if value not in READ_FROM:
        raise UserError(f"redis.readfrom={value}: use primary or replica")
    return value


def replica_addresses(role: list) -> list[tuple[str, int]]:
    """The replicas a primary's ``ROLE`` reply lists (``[b"master", offset, [[ip, port, offset], …]]``)."""
    if not role or (role[0].decode() if isinstance(role[0], bytes) else str(role[0])) != "master":
        return []
    out = []
    for r in role[2] or []:
        host = r[0].decode() if isinstance(r[0], bytes) else str(r[0])
        out.append((host, int(r[1])))
    return out


class ReplicaReadBinding(Binding):
    """One client thread: writes on ``primary``, reads on ``replica`` (both :class:`RedisBinding`)."""

    def __init__(self, primary: RedisBinding, replica: RedisBinding) -> None:
        self.primary, self.replica = primary, replica
        self.replica_lost: str | None = None  # why the replica this client reads from is gone for good

    async def _on_replica(self, call: Callable[[], Awaitable[Status]]) -> Status:
        """``call()`` (an operation on the replica); a replica gone for good (killed, unreachable) is named as
        such: the read that found it gone is an ERROR (counted), and the client's next operation stops it
        (:class:`ConnectionLost`: the point fails naming the lost replica, not "the server")."""
        if self.replica_lost is not None:
            raise ConnectionLost(self.replica_lost)
        try:
            return self._said(self.replica, await call())
        except ConnectionLost as exc:
            o = self.replica.o
            self.replica_lost = self.last_error = (
                f"lost the replica {o.host}:{o.port} this client reads from (redis.readfrom=replica; the primary "
                f"{self.primary.o.host}:{self.primary.o.port} still up): {exc}")
            return Status.ERROR

    def _said(self, b: RedisBinding, st: Status) -> Status:
        """``st``; ``last_error`` is what ``b``, the connection that answered, said of it."""
        if st != Status.OK and st != Status.NOT_FOUND:
            self.last_error = b.last_error
        return st

    async def connect(self) -> None:
        await self.primary.connect()
        try:
            await self.replica.connect()
        except ConnectionLost as exc:
            await self.primary.close()
            raise ConnectionLost(f"replica {self.replica.o.host}:{self.replica.o.port} (redis.readfrom=replica): "
                                 f"{exc}") from None

    async def close(self) -> None:
        await self.primary.close()
        await self.replica.close()

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        return await self._on_replica(lambda: self.replica.read(table, key, fields))

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        got: dict[bytes, bytes] = {}

        async def read() -> Status:
            st, values = await self.replica.read_values(table, key, fields)
            got.update(values)
            return st

        return await self._on_replica(read), got

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        return await self._on_replica(lambda: self.replica.scan(table, start_key, count, fields))

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        return self._said(self.primary, await self.primary.insert(table, key, values))

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        return self._said(self.primary, await self.primary.update(table, key, values))

    async def delete(self, table: str, key: bytes) -> Status:
        return self._said(self.primary, await self.primary.delete(table, key))


async def open_replica_reads(opts: RedisOptions, clients: int, timeout_s: float, seed: RedisBinding):
    """``clients`` connected :class:`ReplicaReadBinding`, client ``i`` reading from replica ``i mod n`` of
    the primary ``seed`` is connected to (its ``ROLE``), and the watchdog of all their connections."""
    import asyncio

    from ycsbctl.stores.binding_set import BindingSet, watchdog

    seed.last_error = None
    from ycsbctl.stores.deadline import within

    # no watchdog runs yet: the whole reply within the timeout
    role = await within(seed.call(b"*1\r\n$4\r\nROLE\r\n"), max(timeout_s, 1.0), f"redis at {opts.host}:{opts.port}",
                        "ROLE")
    replicas = replica_addresses(role if isinstance(role, list) else [])
    if not replicas:
        said = seed.last_error or (f"a {role[0].decode()} with no replica" if isinstance(role, list) and role
                                   and isinstance(role[0], bytes) else repr(role))
        raise UserError(f"redis.readfrom=replica: {opts.host}:{opts.port} is no primary with replicas (ROLE: "
                        f"{said}): drop -p redis.readfrom=replica, or give a primary's URL")
    opts.ssl_context()  # made once, shared by every connection's copy of the options
    bindings = []
    for i in range(clients):
        at = copy.copy(opts)
        at.host, at.port = replicas[i % len(replicas)]
        bindings.append(ReplicaReadBinding(RedisBinding(opts, timeout_s), RedisBinding(at, timeout_s)))
    done: list[ReplicaReadBinding] = []
    try:
        for b in bindings:
            await b.connect()
            done.append(b)
    except ConnectionLost:
        for b in done:
            await b.close()
        raise
    bs = BindingSet(list(bindings))
    wire = [c for b in bindings for c in (b.primary, b.replica)]
    bs.watchdog = asyncio.get_running_loop().create_task(watchdog(wire, timeout_s))
    return bs
