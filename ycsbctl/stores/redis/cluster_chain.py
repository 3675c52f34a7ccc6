"""The engine's fast path on a Redis Cluster: a run of READ / UPDATE / INSERT operations of one client
driven from the reply callbacks of its shard connections, as ``RedisBinding.chain`` drives them on one
connection — each request written to the connection of its key's shard (an insert's ``ZADD`` then to
the index's, as on the awaited path: two round trips), no coroutine switch per operation.

A ``MOVED`` or ``ASK`` reply is followed from the callback when the node it names is connected (counted
as on the awaited path; the operation is timed from its first request). Otherwise the chain stops
before that operation and the next one connects the node first: a ``MOVED`` to a node not yet
connected is counted once, and that operation is timed from its request to the new node. A lost shard
fails the operation in flight (ERROR naming the shard, when it cannot be reached again) and ends the
chain; the client goes on, and a key of that shard tries it again (:meth:`ClusterBinding.chain`).
"""

from __future__ import annotations

import asyncio
from time import perf_counter_ns as _now
from typing import TYPE_CHECKING

from ycsbctl.stores.binding import ChainContext, ConnectionLost, Status
from ycsbctl.stores.chain import ChainRun
from ycsbctl.stores.redis.binding import RedisBinding
from ycsbctl.stores.redis.reply_chain import (
    _ZADD,
    CHAINS,
    _java_hash,
    _ReplyError,
    fell_short,
    read_request,
)
from ycsbctl.workload.core import ALL_FIELDS, INSERT, READ, UPDATE

if TYPE_CHECKING:
    from ycsbctl.stores.redis.cluster import ClusterBinding

OK, NOT_FOUND, ERROR, TIMEOUT = int(Status.OK), int(Status.NOT_FOUND), int(Status.ERROR), int(Status.TIMEOUT)
ASKING = b"*1\r\n$6\r\nASKING\r\n"
MAX_REDIRECTS = 5  # per operation: a slot that moves more often than this fails (ERROR, the last reply)
Address = tuple[str, int]


def redirect(error: str | None) -> tuple[str, int, Address] | None:
    """(``MOVED`` | ``ASK``, slot, address) of a redirection error reply, else None."""
    if not error or not (error.startswith("MOVED ") or error.startswith("ASK ")):
        return None
    kind, slot, where = error.split()[:3]
    host, _, port = where.rpartition(":")
    return kind, int(slot), (host, int(port))


def connected(b: RedisBinding | None) -> bool:
    return b is not None and b.proto is not None and b.proto.transport is not None


class ClusterChain(ChainRun):
    """Operations ``start:end`` of one batch of one :class:`ClusterBinding` client. ``b`` is the shard
    connection of the request in flight (the watchdog's ``pending`` follows it)."""

    __slots__ = ("cb", "need", "st", "stage", "hops", "req", "req_need", "said")

    def __init__(self, cb: ClusterBinding, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int,
                 fut: asyncio.Future) -> None:
        super().__init__(cb.nodes[cb.route(batch[1][start])], ctx, batch, start, end, fut)
        self.cb = cb
        self.need = self.st = self.stage = self.hops = self.req_need = 0
        self.req = b""
        self.said = ""

    def issue(self) -> None:
        i = self.i
        op, key = self.ops[i], self.keys[i]
        node = self.cb.nodes.get(self.cb.route(key))
        if not connected(node):  # lost, or never opened: the next chain opens it (ClusterBinding.chain)
            self.finish()
            return
        assert node is not None
        self.op, self.stage, self.hops, self.st = op, 0, 0, OK
        if op == READ:
            payload, need = read_request(self.ctx, key, self.rfs[i]), 1
        else:  # UPDATE, or an INSERT's HMSET (its ZADD goes to the index's shard once this is done)
            wf = self.wfs[i] if op == UPDATE else ALL_FIELDS
            payload = node._hmset(key, self.ctx.names[wf + 1], self.ctx.values(wf)) + node.wait_command
            need = 2 if node.wait_command else 1
        self.send(node, payload, need, first=True)

    def send(self, node: RedisBinding, payload: bytes, need: int, first: bool = False, asking: bool = False) -> None:
        """Write ``payload`` (``need`` replies) on ``node``'s connection: through :meth:`write` for an
        operation's first request, at once for a later one (its ``t0`` stays the first's)."""
        self.req, self.req_need = payload, need
        if asking:  # this one request at the node that is importing the slot
            payload, need = ASKING + payload, need + 1
        if node is not self.b:
            self.b.pending = None
            node.pending = self.fut
            self.b = node
        self.need, self.st, self.said = need, OK, ""
        node.proto.waiters.extend((self,) * need)  # type: ignore[union-attr]
        node.seq += 1
        if first:
            self.write(payload)
        else:
            node.proto.transport.write(payload)  # type: ignore[union-attr]

    def __call__(self, reply) -> None:
        if self.dead or self.fut.done():  # timed out or failed: a late reply
            self.dead = True
            self.b.proto.late += 1
            return
        if reply.__class__ is _ReplyError:
            if self.st != ERROR:
                self.st, self.said = ERROR, str(reply)
        elif self.op == READ and (not reply or reply[0] is None) and self.st == OK:
            self.st = NOT_FOUND
        elif (self.need == 1 and self.stage == 0 and self.b.wait_for and self.op != READ and self.st == OK
              and fell_short(self.b, reply)):  # WAIT's reply, the HMSET's last, counted fewer replicas
            self.st = TIMEOUT
            self.cb.last_error = self.b.last_error
        self.need -= 1
        if not self.need:
            self.replied()

    def skimmed(self, kind: int, skim) -> None:
        """:meth:`__call__` for a reply the compiled core told apart without building it (see ``_Chain``)."""
        if self.dead or self.fut.done():
            self.dead = True
            self.b.proto.late += 1
            return
        if kind == 2:
            if self.st != ERROR:
                self.st, self.said = ERROR, skim.raw()[1:].rstrip(b"\r\n").decode(errors="replace")
        elif kind == 1 and self.op == READ and self.st == OK:
            self.st = NOT_FOUND
        elif (self.need == 1 and self.stage == 0 and self.b.wait_for and self.op != READ and self.st == OK
              and fell_short(self.b, int(skim.raw()[1:]))):
            self.st = TIMEOUT
            self.cb.last_error = self.b.last_error
        self.need -= 1
        if not self.need:
            self.replied()

    def replied(self) -> None:
        """Every reply of the request in flight came: follow a redirection, go on with an insert's
        ZADD, or complete the operation."""
        st = self.st
        if st == ERROR and (self.said.startswith("MOVED ") or self.said.startswith("ASK ")):
            self.follow()
            return
        if st == ERROR:
            self.note(self.said)
        elif self.op == INSERT and self.stage == 0 and st == OK:  # (as the awaited path: no ZADD after a failed HMSET)
            node = self.cb.nodes.get(self.cb.index_owner())
            if not connected(node):  # the index's shard is gone: redo the insert in the next chain
                self.finish()
                return
            assert node is not None
            key = self.keys[self.i]
            score = b"%d" % _java_hash(key)
            self.stage, self.hops = 1, 0
            self.send(node, _ZADD % (len(score), score, len(key), key), 1)
            return
        self.complete(st, _now())

    def follow(self) -> None:
        r = redirect(self.said)
        assert r is not None
        kind, slot, addr = r
        cb = self.cb
        self.hops += 1
        if self.hops > MAX_REDIRECTS:  # a slot that keeps moving: the operation fails with the last reply
            self.note(self.said)
            self.complete(ERROR, _now())
            return
        node = cb.nodes.get(addr)
        if kind == "MOVED":
            cb.counts["redirections"] += 1
            cb.counts["moved"] += 1
            cb.slots.moved(slot, addr)
        if not connected(node):
            if kind == "ASK":
                cb.wanted.add(addr)  # counted when followed, from the next chain
            self.finish()  # the operation is done again by the next chain, which connects the node
            return
        assert node is not None
        if kind == "ASK":
            cb.counts["redirections"] += 1
            cb.counts["ask"] += 1
        self.send(node, self.req, self.req_need, asking=kind == "ASK")

    def note(self, error: str) -> None:
        self.b.last_error = self.cb.last_error = error

    async def lost(self) -> None:
        """A shard's connection was lost: open it again, or leave it out (the operation in flight
        failed; a key of that shard tries it again), as the awaited path does."""
        b = self.b
        try:
            await b._reconnect_or_raise()
        except ConnectionLost as exc:
            self.cb.drop(b, exc)


CHAINS.add(ClusterChain)
