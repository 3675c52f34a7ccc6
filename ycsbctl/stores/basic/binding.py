"""``basic://``: YCSB's BasicDB without output: every call returns OK at once (the engine alone)."""

from __future__ import annotations

from collections.abc import Sequence

from ycsbctl.stores.binding import Binding, Fields, Status, Values


class BasicBinding(Binding):
    async def read(self, table: str, key: bytes, fields: Fields) -> Status:
        return Status.OK

    async def read_values(self, table: str, key: bytes, fields: Sequence[bytes]) -> tuple[Status, dict[bytes, bytes]]:
        return Status.OK, {}  # as BasicDB: OK, and no data (so YCSB's VERIFY says ERROR)

    async def insert(self, table: str, key: bytes, values: Values) -> Status:
        return Status.OK

    async def update(self, table: str, key: bytes, values: Values) -> Status:
        return Status.OK

    async def scan(self, table: str, start_key: bytes, count: int, fields: Fields) -> Status:
        return Status.OK

    async def delete(self, table: str, key: bytes) -> Status:
        return Status.OK
