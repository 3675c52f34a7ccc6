"""``workloads/online-status``: which users were online — per user id a timestamp (s since the
epoch), kept in one Redis Hash (user → timestamp), a Set per time bucket (the users of that bucket)
or a Sorted Set (user scored by timestamp) — ``online.structure=hash|set|zset``; on a MongoDB-protocol
target one document per user. Each store's executor lives in its own package (``stores/redis/online_status.py``,
``stores/mongodb/online_status.py``), declared on its ``ServerProtocol`` under :data:`.ops.WORKLOAD`.

Operations (op code: measurement name):

- ``STORE``: one user's timestamp (HSET / SADD / ZADD; MongoDB: an upsert);
- ``BATCH-STORE``: ``online.batchsize`` users in one command (HSET / SADD / ZADD with N pairs;
  MongoDB: one ``update`` of N upserts, bulkWrite's command);
- ``COUNT``: how many users a bucket holds (HLEN / SCARD / ZCARD; MongoDB: ``count`` of the bucket);
- ``GET-AND-CLEAR``: every user of a bucket, read and removed at once (MULTI, HGETALL / SMEMBERS /
  ZRANGE … WITHSCORES, DEL, EXEC; MongoDB: ``find`` then ``delete`` of the bucket);
- ``INSERT``: the load phase, ``online.batchsize`` new users per command (as BATCH-STORE; MongoDB:
  ``insert`` of N documents, insertMany's command). The load stores users 0 … recordcount−1 once.

Timestamps are drawn uniformly from ``[online.start, online.start + online.window_s)``; a user's
bucket is ``(timestamp − online.start) // online.bucket_s`` and its key ``<online.key>:<bucket>`` (by default the
window is one bucket: one key holds everyone, "this month"). Users are drawn uniformly. The run mix
is ``online.storeproportion``, ``online.batchstoreproportion``, ``online.countproportion`` and
``online.getandclearproportion``.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, ClassVar

import numpy as np

from ycsbctl.errors import UserError
from ycsbctl.slices import drain
from ycsbctl.workload.core import process_blocks
from ycsbctl.workload.online_status.ops import (
    BATCH_STORE,
    COUNT,
    GET_AND_CLEAR,
    INSERT,
    NAMES,
    STORE,
    STRUCTURES,
    WORKLOAD,
)
from ycsbctl.workload.plugin import Executor, PluginBatch, Workload
from ycsbctl.workload.properties import Properties, read_proportions
from ycsbctl.workload.store_executors import executor_class

_MIX = (
    (STORE, "online.storeproportion", 0.9),
    (BATCH_STORE, "online.batchstoreproportion", 0.05),
    (COUNT, "online.countproportion", 0.05),
    (GET_AND_CLEAR, "online.getandclearproportion", 0.0),
)
MONTH_S = 30 * 86400


class OnlineStatus(Workload):
    """The settings of one online-status study (see the module docstring)."""

    operation_names: ClassVar[tuple[str, ...]] = NAMES
    axis_properties: ClassVar[tuple[str, ...]] = ("online.structure", "online.batchsize")
    counts_records: ClassVar[bool] = False  # one key (or a few) holds every user
    record_unit: ClassVar[str] = "users"
    # users and timestamps are drawn on their own (every user was loaded into every target): no operation reads
    # back what an earlier one wrote to one target, so its targets may alternate in one session
    alternates: ClassVar[bool] = True

    def __init__(self, users: int, operationcount: int | None, structure: str, batchsize: int,
                 mix: tuple[tuple[int, float], ...], start: int, window_s: int, bucket_s: int, key: str,
                 table: str) -> None:
        self.users, self.operationcount, self.structure, self.batchsize = users, operationcount, structure, batchsize
        self.mix, self.start, self.window_s, self.bucket_s = mix, start, window_s, bucket_s
        self.key, self.table = key, table

    @classmethod
    def from_properties(cls, p: Properties) -> OnlineStatus:
        structure = p.get("online.structure", "hash").strip().lower()
        if structure not in STRUCTURES:
            raise UserError(f"online.structure={structure!r}: use hash, set or zset (or a list: hash,set,zset)")
        batchsize = p.get_int("online.batchsize", 100)
        users = p.get_int("recordcount", 1000)
        bucket_s = p.get_int("online.bucket_s", MONTH_S)
        window_s = p.get_int("online.window_s", bucket_s)
        if batchsize < 1 or users < 1 or bucket_s < 1 or window_s < 1:
            raise UserError("online-status needs recordcount, online.batchsize, online.bucket_s and online.window_s ≥ "
                            "1")
        mix = read_proportions(p, _MIX)
        if not mix:
            raise UserError("the online-status proportions sum to 0: set online.storeproportion, "
                            "online.batchstoreproportion, online.countproportion or online.getandclearproportion")
        ops = p.get_optional_int("operationcount")
        start = p.get_int("online.start", 1_793_491_200)  # 2026-11-01T00:00:00Z
        return cls(users, ops, structure, batchsize, tuple(mix), start, window_s, bucket_s,
                   p.get("online.key", "online"), p.get("table", "online"))

    # -- the load phase: users 0 … users−1, batchsize per INSERT ----------------------------------
    @property
    def load_operations(self) -> int:
        return -(-self.users // self.batchsize)

    def load_blocks(self, threads_per_process: list[int]) -> list[tuple[int, int]]:
        return process_blocks(self.load_operations, threads_per_process)

    def loaded_records(self, ok_operations: int) -> int:
        return min(ok_operations * self.batchsize, self.users)

    def records_per_operation(self) -> dict[str, int]:
        """Users one OK operation stores: STORE one, BATCH-STORE and the load's INSERT ``batchsize``."""
        return {"STORE": 1, "BATCH-STORE": self.batchsize, "INSERT": self.batchsize}

    def op_codes(self, phase: str) -> list[int]:
        return [INSERT] if phase == "load" else [op for op, _ in self.mix]

    def source(self, phase: str, rng: np.random.Generator, process: int, processes: int,
               acked: Any = None, load_block: tuple[int, int] | None = None) -> LoadSource | RunSource:
        if phase == "load":
            return LoadSource(self, rng, *(load_block or (0, self.load_operations)))
        return RunSource(self, rng)

    def executor(self, protocol: str) -> Executor[Any] | None:
        """The executor store ``protocol`` declares for online-status (``stores/redis/online_status.py``: found
        through the registry, :mod:`ycsbctl.workload.store_executors`), built for these settings; None when it
        has none."""
        cls = executor_class(WORKLOAD, protocol)
        return None if cls is None else cls(self)

    def bucket(self, ts: int) -> int:
        """The time bucket of timestamp ``ts`` (s): 0 for the window's first ``bucket_s`` seconds, …"""
        return (ts - self.start) // self.bucket_s

    def timestamps(self, rng: np.random.Generator, n: int) -> np.ndarray:
        return self.start + rng.integers(0, self.window_s, size=n)


class RunSource:
    """Run-phase operations of one worker process: ops drawn by the mix, users uniformly."""

    def __init__(self, w: OnlineStatus, rng: np.random.Generator) -> None:
        self.w, self.rng = w, rng
        weights = np.array([v for _, v in w.mix])
        self.codes = np.array([op for op, _ in w.mix], dtype=np.int64)
        self.thresholds = np.cumsum(weights / weights.sum())[:-1]

    def next_batch(self, n: int) -> PluginBatch:
        return drain(self.batch_steps(n))

    def batch_steps(self, n: int) -> Generator[None, None, PluginBatch]:
        """``n`` operations, in slices: STORE's argument is [(user, ts)], BATCH-STORE's ``batchsize``
        such pairs, COUNT's and GET-AND-CLEAR's a timestamp (its bucket is the one read)."""
        w, rng = self.w, self.rng
        ops = self.codes[np.searchsorted(self.thresholds, rng.random(n), side="right")]
        users = rng.integers(0, w.users, size=n).tolist()
        ts = w.timestamps(rng, n).tolist()
        yield
        op_list = ops.tolist()
        args: list[Any] = []
        for op, u, t in zip(op_list, users, ts):
            if op == STORE:
                args.append([(u, t)])
            elif op == BATCH_STORE:
                args.append(list(zip(rng.integers(0, w.users, size=w.batchsize).tolist(),
                                     w.timestamps(rng, w.batchsize).tolist())))
            else:
                args.append(t)
        return PluginBatch(op_list, args)


class LoadSource:
    """Load-phase INSERTs ``first … first+count−1``: INSERT ``i`` stores users ``i·batchsize`` up to
    ``(i+1)·batchsize`` (the last one fewer), each with a timestamp of the window."""

    def __init__(self, w: OnlineStatus, rng: np.random.Generator, first: int, count: int) -> None:
        self.w, self.rng = w, rng
        self.next, self.end = first, first + count

    def next_batch(self, n: int) -> PluginBatch:
        return drain(self.batch_steps(n))

    def batch_steps(self, n: int) -> Generator[None, None, PluginBatch]:
        w = self.w
        n = min(n, self.end - self.next)
        lo = self.next * w.batchsize
        hi = min((self.next + n) * w.batchsize, w.users)
        self.next += n
        ts = w.timestamps(self.rng, max(hi - lo, 0)).tolist()
        yield
        users = list(range(lo, hi))
        b = w.batchsize
        args = [list(zip(users[i : i + b], ts[i : i + b])) for i in range(0, hi - lo, b)]
        return PluginBatch([INSERT] * len(args), args)
