"""The Redis binding's fast path (:class:`_Chain`): consecutive READ / UPDATE / INSERT operations of one
client driven from its connection's reply callback, and the requests they write (``HGETALL``/``HMGET``,
an insert's ``ZADD _indices <String.hashCode(key)> key``). The cluster's chain
(:mod:`ycsbctl.stores.redis.cluster_chain`) writes the same requests.
"""

from __future__ import annotations

import asyncio
import time
from operator import mul
from typing import TYPE_CHECKING, Any

import hiredis

from ycsbctl.native import core
from ycsbctl.stores.binding import ChainContext, Status
from ycsbctl.stores.chain import ChainRun
from ycsbctl.workload.core import ALL_FIELDS, READ, UPDATE

if TYPE_CHECKING:
    from ycsbctl.stores.redis.binding import RedisBinding


# Plain ints named after the statuses: the chain's reply callback uses them in arithmetic once per reply,
# where an IntEnum member takes the slow generic path.
# module names: the chain's reply callback reads them per reply
OK, NOT_FOUND, ERROR, TIMEOUT = int(Status.OK), int(Status.NOT_FOUND), int(Status.ERROR), int(Status.TIMEOUT)
INDEX_KEY = b"_indices"
_ZADD = b"*4\r\n$4\r\nZADD\r\n$8\r\n" + INDEX_KEY + b"\r\n$%d\r\n%b\r\n$%d\r\n%b\r\n"


def java_hash(key: bytes) -> int:
    """Java ``String.hashCode`` of an ASCII key (signed 32-bit): the ``_indices`` score."""
    powers = _POWERS.get(len(key))
    if powers is None:  # 31**(n-1-i) mod 2**32 for each position i of an n-byte key
        powers = _POWERS[len(key)] = tuple(pow(31, len(key) - 1 - i, _INT_RANGE) for i in range(len(key)))
    h = sum(map(mul, key, powers)) & 0xFFFFFFFF  # one C-level pass: ~4× the per-byte loop
    return h - 0x100000000 if h & 0x80000000 else h


_POWERS: dict[int, tuple[int, ...]] = {}
_INT_RANGE = 1 << 32  # Java's int wraps modulo 2**32
_java_hash = java_hash if core is None else core.java_hash  # the chain's (compiled: ~0.05 µs, not ~1)

_ReplyError = hiredis.ReplyError  # (module constants: read once per reply)
_now = time.perf_counter_ns


def fell_short(b: RedisBinding, acked: int) -> bool:
    """Whether a write's ``WAIT`` reply (``acked`` replicas) is short of the replicas asked; if so, one
    line in ``b.last_error`` (the write then counts as TIMEOUT: it is on the primary, not on them)."""
    if acked >= b.wait_for:
        return False
    b.last_error = (f"WAIT {b.wait_for}: {acked} of {b.wait_for} replica(s) had the write within {b.o.wait_ms} ms "
                    "— a replica fell behind (the write is on the primary)")
    return True


def read_request(ctx: ChainContext, key: bytes, rf: int) -> bytes:
    """A chained READ's request: ``HGETALL`` of every field (``rf`` −1), else ``HMGET`` of field ``rf``."""
    if rf == ALL_FIELDS:
        return b"*2\r\n$7\r\nHGETALL\r\n$%d\r\n%b\r\n" % (len(key), key)
    name = ctx.names[rf + 1][0]
    return b"*3\r\n$5\r\nHMGET\r\n$%d\r\n%b\r\n$%d\r\n%b\r\n" % (len(key), key, len(name), name)


class _Chain(ChainRun):
    """Consecutive READ / UPDATE / INSERT operations of one client driven from ``data_received``:
    each reply completes (times and logs) its operation and the next request is written at once,
    without waking a coroutine. Measured on this machine (uvloop, Redis 7): a load-phase insert
    costs ~20 µs of client CPU this way against ~65 µs through an awaited call per operation
    (future per reply, coroutine switch, engine loop); a workload-B read ~19 µs against ~23 µs."""

    __slots__ = ("need", "st")

    def __init__(self, b: RedisBinding, ctx: ChainContext, batch: tuple[list, ...], start: int, end: int,
                 fut: asyncio.Future) -> None:
        super().__init__(b, ctx, batch, start, end, fut)
        self.need = self.st = 0

    def issue(self) -> None:
        i = self.i
        op, key = self.ops[i], self.keys[i]
        b = self.b
        if op == READ:
            payload, need = read_request(self.ctx, key, self.rfs[i]), 1
        elif op == UPDATE:
            wf = self.wfs[i]
            payload, need = b._hmset(key, self.ctx.names[wf + 1], self.ctx.values(wf)), 1
        else:  # INSERT: HMSET and ZADD in one packet, two replies
            score = b"%d" % _java_hash(key)
            payload = b._hmset(key, self.ctx.names[0], self.ctx.values(ALL_FIELDS)) + _ZADD % (len(score), score,
                                                                                               len(key), key)
            need = 2
        if op != READ and b.wait_command:  # -p redis.wait=N: WAIT in the same packet, one more reply
            payload += b.wait_command
            need += 1
        self.op, self.need, self.st = op, need, OK
        if need == 1:
            b.proto.waiters.append(self)
        else:
            b.proto.waiters.extend((self,) * need)
        b.seq += 1
        self.write(payload)

    def __call__(self, reply) -> None:
        if self.dead or self.fut.done():  # timed out (the watchdog resolved fut) or failed: a late reply
            self.dead = True
            self.b.proto.late += 1
            return
        if reply.__class__ is _ReplyError:
            if not self.st:
                self.st = ERROR
                self.b.last_error = str(reply)
        elif self.op == READ and (not reply or reply[0] is None):
            self.st = NOT_FOUND  # HGETALL of a missing key: an empty list; HMGET of one field: [nil]
        elif self.need == 1 and self.b.wait_for and self.op != READ and not self.st and fell_short(self.b, reply):
            self.st = TIMEOUT  # WAIT's reply (the write's last) counted fewer replicas than asked
        self.need -= 1
        if self.need:
            return
        self.complete(self.st, _now())

    def skimmed(self, kind: int, skim) -> None:
        """:meth:`__call__` for a reply the compiled core told apart without building it: ``kind`` is
        0 (OK), 1 (empty: nil, an empty array or one whose first element is nil) or 2 (an error reply,
        whose bytes ``skim.raw()`` holds)."""
        if self.dead or self.fut.done():
            self.dead = True
            self.b.proto.late += 1
            return
        if kind == 2:
            if not self.st:
                self.st = ERROR
                self.b.last_error = skim.raw()[1:].rstrip(b"\r\n").decode(errors="replace")
        elif kind == 1 and self.op == READ:
            self.st = NOT_FOUND
        elif self.need == 1 and self.b.wait_for and self.op != READ and not self.st and fell_short(
                self.b, int(skim.raw()[1:])):
            self.st = TIMEOUT  # WAIT's reply (":N\r\n", the write's last) counted fewer replicas than asked
        self.need -= 1
        if self.need:
            return
        self.complete(self.st, _now())


# The chains a reply may be handed to directly (RESP's reply callbacks test a waiter's class against it):
# this module's, and the cluster's (ycsbctl.stores.redis.cluster_chain adds its own).
CHAINS: set[Any] = {_Chain}
