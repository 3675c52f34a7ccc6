"""``dataintegrity=true`` in the engine: a binding wrapper that writes YCSB's deterministic values
and checks every read against them, recording YCSB's ``[VERIFY]`` measurement.

As YCSB's ``CoreWorkload.verifyRow``: a read (or the read of a read-modify-write) that returned
no data is ``Return=ERROR``, one whose values differ ``Return=UNEXPECTED_STATE``, else ``OK``;
VERIFY's latency is the check's own (µs). Reads name every field (YCSB passes the field list
when checking). Only runs with ``dataintegrity=true`` go through here: the timed path of every
other run, and the bindings' chains, are unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from ycsbctl.stores.binding import Binding, Fields, Status, Values
from ycsbctl.workload.core import VERIFY
from ycsbctl.workload.integrity import deterministic_value


class VerifyingBinding(Binding):
    """``inner`` with YCSB's data-integrity checks; ``record`` is the engine's one timing call."""

    def __init__(self, inner: Binding, names: Sequence[bytes], fieldlength: int,
                 record: Callable[[int, int, int, int, int], None]) -> None:
        self.inner, self.names, self.size, self.record = inner, list(names), fieldlength, record
        self.blocking = inner.blocking

    @property
    def last_error(self) -> str | None:  # type: ignore[override]
        return self.inner.last_error

    async def connect(self) -> None:
        await self.inner.connect()

    async def close(self) -> None:
        await self.inner.close()

    def verify(self, key: bytes, cells: dict[bytes, bytes]) -> Status:
        if not cells:
            return Status.ERROR  # YCSB: "null data is never valid"
        size = self.size
        for name, value in cells.items():
            if value != deterministic_value(key, name, size):
                return Status.UNEXPECTED_STATE
        return Status.OK

    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        st, cells = await self.inner.read_values(table, key, self.names if fields is None else fields)
        t0 = time.perf_counter_ns()
        verdict = self.verify(key, cells)
        t1 = time.perf_counter_ns()
        self.record(VERIFY, verdict, t0, t1, t0)
        return st

    def _values(self, key: bytes, values: Values) -> list[tuple[bytes, bytes]]:
        return [(n, deterministic_value(key, n, self.size)) for n, _ in values]

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        return await self.inner.insert(table, key, self._values(key, values))

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        return await self.inner.update(table, key, self._values(key, values))

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        return await self.inner.scan(table, start_key, count, fields)

    async def delete(self, table: str, key: bytes) -> Status:
        return await self.inner.delete(table, key)
