"""Redis Cluster on the engine's path: each key goes to its hash slot's shard (CRC16 of the key, or
of its ``{hash tag}``, mod 16384), over one connection per shard per client thread; ``MOVED``
updates the slot table and retries there, ``ASK`` retries once at the named node after ``ASKING``;
each redirection is counted (``counts["redirections"]``, summed per point by the engine).

Records are stored as YCSB's redis binding stores them in cluster mode (JedisCluster): the hash at
its key's shard, and every key in the one ``_indices`` sorted set (on its own slot's shard), so a
dataset loaded here is read by YCSB with ``redis.cluster=true`` and back. SCAN works as YCSB's:
ZRANGEBYSCORE on the index's shard, then one read per key at that key's shard.

Unpaced and paced points alike take the engine's fast path: a chain driven from the shard
connections' reply callbacks (:mod:`ycsbctl.stores.redis.cluster_chain`); scans, deletes and
``dataintegrity`` reads take the awaited path (a coroutine per operation).
"""

from __future__ import annotations

import asyncio
import copy
import time
from binascii import crc_hqx
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ycsbctl.stores.binding import Binding, ChainContext, ConnectionLost, Fields, Status, Values
from ycsbctl.stores.redis.binding import RedisBinding
from ycsbctl.stores.redis.cluster_chain import MAX_REDIRECTS, Address, ClusterChain, connected, redirect
from ycsbctl.stores.redis.options import RedisOptions
from ycsbctl.stores.redis.reply_chain import INDEX_KEY, java_hash
from ycsbctl.workload.core import INSERT

SLOTS = 16384


def key_slot(key: bytes) -> int:
    """The hash slot of ``key``: CRC16 (XMODEM) of the key, or of the first non-empty ``{…}`` in it, mod 16384."""
    start = key.find(b"{")
    if start != -1:
        end = key.find(b"}", start + 1)
        if end > start + 1:
            key = key[start + 1:end]
    return crc_hqx(key, 0) % SLOTS


INDEX_SLOT = key_slot(INDEX_KEY)


def _addr(entry: Sequence[Any], seed_host: str) -> Address:
    """A ``CLUSTER SLOTS`` node's address: its host (``seed_host``, the node asked, when it says none), its port."""
    host = entry[0].decode() if isinstance(entry[0], bytes) else str(entry[0])
    return (host or seed_host, int(entry[1]))


class SlotMap:
    """Slot → the address of the primary that serves it, from ``CLUSTER SLOTS``; shared by the
    bindings of one worker process (a ``MOVED`` seen by one is learnt by all)."""

    def __init__(self, reply: list, seed: Address) -> None:
        self.owner: list[Address] = [seed] * SLOTS
        self.primaries: list[Address] = []
        for entry in reply:
            start, end, primary = int(entry[0]), int(entry[1]), _addr(entry[2], seed[0])
            self.owner[start:end + 1] = [primary] * (end - start + 1)
            if primary not in self.primaries:
                self.primaries.append(primary)

    def moved(self, slot: int, addr: Address) -> None:
        self.owner[slot] = addr
        if addr not in self.primaries:
            self.primaries.append(addr)


class ClusterBinding(Binding):
    """One client thread of a cluster: a :class:`RedisBinding` per primary, made as keys need them
    (each put in ``watched``, the list the process's watchdog expires overdue requests from)."""

    def __init__(self, options: RedisOptions, timeout_s: float, slots: SlotMap, watched: list) -> None:
        self.o = options
        self.timeout_s = timeout_s
        self.slots = slots
        self.watched = watched
        self.nodes: dict[Address, RedisBinding] = {}
        self.counts: dict[str, int] = {"redirections": 0, "moved": 0, "ask": 0}
        self.wanted: set[Address] = set()  # nodes an ASK named that the next chain connects first

    def route(self, key: bytes) -> Address:
        """The primary that serves ``key``'s slot, as this client's slot table says."""
        return self.slots.owner[key_slot(key)]

    def index_owner(self) -> Address:
        return self.slots.owner[INDEX_SLOT]

    def drop(self, b: RedisBinding, exc: Exception) -> None:
        """Shard ``b`` could not be reached: forget its connection, and say so."""
        addr = (b.o.host, b.o.port)
        if self.nodes.get(addr) is b:
            del self.nodes[addr]
        self.last_error = f"shard {addr[0]}:{addr[1]} unreachable: {exc}"

    async def chain(self, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int) -> tuple[int, int]:
        """The fast path (:class:`~ycsbctl.stores.redis.cluster_chain.ClusterChain`) over operations
        ``start:end``: (done, failed). The shards the first operation needs (and any an ``ASK`` named) are
        connected first; one that cannot be reached fails that operation only (ERROR naming it)."""
        key = batch[1][start]
        first = {self.route(key)} | ({self.index_owner()} if batch[0][start] == INSERT else set())
        wanted, self.wanted = self.wanted, set()
        for addr in (*first, *wanted):
            b = self.nodes.get(addr)
            if connected(b):
                continue
            if b is not None:
                del self.nodes[addr]
            try:
                await self._node(addr)
            except ConnectionLost as exc:
                self.last_error = f"shard {addr[0]}:{addr[1]} unreachable: {exc}"
                if addr in first:
                    now = time.perf_counter_ns()
                    ctx.record(batch[0][start], int(Status.ERROR), now, now, now)
                    if batch[0][start] == INSERT and ctx.ack is not None:
                        ctx.ack(batch[2][start])
                    return 1, 1
        loop = asyncio.get_running_loop()
        return await ClusterChain(self, ctx, batch, start, end, loop.create_future()).run()

    async def connect(self) -> None:
        for addr in list(self.slots.primaries):
            await self._node(addr)

    async def close(self) -> None:
        for b in self.nodes.values():
            await b.close()
        self.nodes.clear()

    async def _node(self, addr: Address) -> RedisBinding:
        b = self.nodes.get(addr)
        if b is None:
            opts = copy.copy(self.o)
            opts.host, opts.port = addr
            b = RedisBinding(opts, self.timeout_s)
            await b.connect()
            self.nodes[addr] = b
            self.watched.append(b)
        return b

    async def _routed(self, slot: int, call: Callable[[RedisBinding], Awaitable[Status]]) -> Status:
        """``call`` on the binding of ``slot``'s shard, following redirections (each counted). A shard
        that cannot be reached fails only its own slots' operations (ERROR, ``last_error`` naming it);
        the client goes on with the others, and tries that shard again at its next key there."""
        addr = self.slots.owner[slot]
        try:
            return await self._follow(slot, addr, call)
        except ConnectionLost as exc:
            self.nodes.pop(addr, None)
            self.last_error = f"shard {addr[0]}:{addr[1]} unreachable: {exc}"
            return Status.ERROR

    async def _follow(self, slot: int, addr: Address, call: Callable[[RedisBinding], Awaitable[Status]]) -> Status:
        b = await self._node(addr)
        st = await call(b)
        for _ in range(MAX_REDIRECTS):
            if st is not Status.ERROR or (r := redirect(b.last_error)) is None:
                break
            kind, rslot, addr = r
            self.counts["redirections"] += 1
            b = await self._node(addr)
            if kind == "MOVED":
                self.counts["moved"] += 1
                self.slots.moved(rslot, addr)
            else:  # ASK: this one request, at that node, after ASKING (the slot is being migrated there)
                self.counts["ask"] += 1
                asked, _ = await b.resp([b"ASKING"])
                if asked is not Status.OK:
                    st = asked
                    break
            st = await call(b)
        if st is not Status.OK and st is not Status.NOT_FOUND:
            self.last_error = b.last_error
        return st

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        return await self._routed(key_slot(key), lambda b: b.read(table, key, fields))

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        got: dict[bytes, bytes] = {}

        async def call(b: RedisBinding) -> Status:
            st, cells = await b.read_values(table, key, fields)
            got.clear()
            got.update(cells)
            return st

        return await self._routed(key_slot(key), call), got

    async def _index(self, *command: bytes) -> Status:
        async def call(b: RedisBinding) -> Status:
            return (await b.resp(command))[0]

        return await self._routed(INDEX_SLOT, call)

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        """HMSET at the key's shard, then ZADD ``_indices`` at the index's (two requests: two shards)."""
        st = await self._routed(key_slot(key), lambda b: b.update(table, key, values))
        if st is not Status.OK:
            return st
        return await self._index(b"ZADD", INDEX_KEY, b"%d" % java_hash(key), key)

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        return await self._routed(key_slot(key), lambda b: b.update(table, key, values))

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        found: list[bytes] = []

        async def index(b: RedisBinding) -> Status:
            st, reply = await b.resp((b"ZRANGEBYSCORE", INDEX_KEY, b"%d" % java_hash(start_key), b"+inf", b"LIMIT",
                                      b"0", b"%d" % count))
            found[:] = list(reply) if isinstance(reply, list) else []
            return st

        st = await self._routed(INDEX_SLOT, index)
        for k in found if st is Status.OK else []:
            st = await self.read(table, k, fields)
            if st is not Status.OK:
                return st
        return st

    async def delete(self, table: str, key: bytes) -> Status:
        async def call(b: RedisBinding) -> Status:
            return (await b.resp((b"DEL", key)))[0]

        st = await self._routed(key_slot(key), call)
        if st is not Status.OK:
            return st
        return await self._index(b"ZREM", INDEX_KEY, key)


async def cluster_slots(seed: RedisBinding) -> list | None:
    """``CLUSTER SLOTS`` from a connected binding, or None when the server is no cluster node."""
    st, reply = await seed.resp((b"CLUSTER", b"SLOTS"))
    if st is not Status.OK or not isinstance(reply, list) or not reply:
        return None
    return reply


async def open_cluster(opts: RedisOptions, clients: int, timeout_s: float, reply: list):
    """``clients`` connected :class:`ClusterBinding` sharing one slot table, and their watchdog."""
    import asyncio

    from ycsbctl.stores.binding_set import BindingSet, watchdog

    opts.ssl_context()  # made once, shared by every connection's copy of the options
    slots = SlotMap(reply, (opts.host, opts.port))
    watched: list = []
    bindings = [ClusterBinding(opts, timeout_s, slots, watched) for _ in range(clients)]
    try:
        for b in bindings:
            await b.connect()
    except ConnectionLost:
        for b in bindings:
            await b.close()
        raise
    bs = BindingSet(list(bindings))
    bs.watchdog = asyncio.get_running_loop().create_task(watchdog(watched, timeout_s))
    return bs


# -- outside the timed path (redis-py) ---------------------------------------------------------------

def cluster_ready(url: str, shards: int) -> bool:
    """Whether the node at ``url`` says ``cluster_state:ok`` and knows ``shards`` primaries."""
    from ycsbctl.stores.redis.info import connect

    try:
        with connect(url) as r:
            info = r.execute_command("CLUSTER", "INFO")
            text = info.decode() if isinstance(info, bytes) else str(info)
            fields = dict(line.split(":", 1) for line in text.split() if ":" in line)
            return fields.get("cluster_state") == "ok" and int(fields.get("cluster_size", 0)) >= shards
    except Exception:  # noqa: BLE001 - not ready yet
        return False


def node_urls(url: str, replicas: bool = False) -> list[str]:
    """The URL of every primary (and with ``replicas``, every replica) of the cluster ``url`` is a
    node of, in slot order, each with ``url``'s scheme, credentials and query; [] when it is no
    cluster node."""
    import redis

    from ycsbctl.stores.redis.info import connect

    try:
        with connect(url) as r:
            reply = r.execute_command("CLUSTER", "SLOTS")
    except (redis.ResponseError, redis.ConnectionError):
        return []
    from urllib.parse import urlsplit, urlunsplit

    u = urlsplit(url)
    seed = u.hostname or "127.0.0.1"
    auth = u.netloc.rpartition("@")[0]
    out: list[str] = []
    for entry in sorted(reply, key=lambda e: int(e[0])):
        for node in (entry[2:] if replicas else entry[2:3]):
            host, port = _addr(node, seed)
            netloc = f"{auth}@" if auth else ""
            netloc += f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            one = urlunsplit(u._replace(netloc=netloc))
            if one not in out:
                out.append(one)
    return out
