"""online-status on Redis-protocol servers (Redis, Valkey, Redis 6.2 …): one command per operation
(GET-AND-CLEAR: MULTI … EXEC in one packet), through the binding's ``resp`` (see ``workload.plugin``)."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from ycsbctl.workload.online_status.ops import BATCH_STORE, COUNT, INSERT, STORE
from ycsbctl.workload.plugin import OK, RespBinding

if TYPE_CHECKING:
    from ycsbctl.workload.online_status.workload import OnlineStatus

_COMMANDS = {  # structure: (store command, count command, read-all command)
    "hash": (b"HSET", b"HLEN", (b"HGETALL",)),
    "set": (b"SADD", b"SCARD", (b"SMEMBERS",)),
    "zset": (b"ZADD", b"ZCARD", (b"ZRANGE", None, b"0", b"-1", b"WITHSCORES")),
}


def store_command(structure: str, key: bytes, pairs: list[tuple[int, int]]) -> list[bytes]:
    """One command storing ``pairs`` (user, timestamp s) under ``key``: HSET key user ts …,
    SADD key user …, or ZADD key ts user …."""
    cmd = [_COMMANDS[structure][0], key]
    if structure == "hash":
        for u, t in pairs:
            cmd += (b"%d" % u, b"%d" % t)
    elif structure == "set":
        cmd += [b"%d" % u for u, _ in pairs]
    else:
        for u, t in pairs:
            cmd += (b"%d" % t, b"%d" % u)
    return cmd


class RedisExecutor:
    """Executes online-status operations on a Redis binding (one connection)."""

    def __init__(self, w: OnlineStatus) -> None:
        self.w = w
        self.store, self.count, self.read_all = _COMMANDS[w.structure]
        self.keys: dict[int, bytes] = {}

    def key(self, ts: int) -> bytes:
        bucket = self.w.bucket(ts)
        k = self.keys.get(bucket)
        if k is None:
            k = self.keys[bucket] = b"%s:%d" % (self.w.key.encode(), bucket)
        return k

    async def __call__(self, b: RespBinding, op: int, arg: Any) -> int:
        if op in (STORE, BATCH_STORE, INSERT):
            by_key: dict[bytes, list] = defaultdict(list)
            for pair in arg:
                by_key[self.key(pair[1])].append(pair)
            st, _ = await b.resp(*(store_command(self.w.structure, k, pairs) for k, pairs in by_key.items()))
            return int(st)
        key = self.key(arg)
        if op == COUNT:
            st, _ = await b.resp((self.count, key))
            return int(st)
        read = [key if part is None else part for part in self.read_all]
        if len(read) == 1:
            read.append(key)
        st, reply = await b.resp((b"MULTI",), read, (b"DEL", key), (b"EXEC",))
        return OK if st == OK and isinstance(reply, list) else int(st) or 2
