"""An asyncpg connection of its own for calls outside the timed path (admin, sampler, footprint),
driven from synchronous code on a private event loop (the caller's thread may have none)."""

from __future__ import annotations

import asyncio
from typing import Any


class PgSession:
    """One connection, one private loop; ``fetch`` runs one statement and returns its rows as tuples."""

    def __init__(self, url: str, timeout_s: float) -> None:
        import asyncpg

        self.timeout_s = timeout_s
        self.loop = asyncio.new_event_loop()
        try:
            self.conn = self.loop.run_until_complete(asyncpg.connect(url, timeout=timeout_s))
        except BaseException:
            self.loop.close()
            raise

    def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        rows = self.loop.run_until_complete(self.conn.fetch(sql, *args, timeout=self.timeout_s))
        return [tuple(r) for r in rows]

    def close(self) -> None:
        try:
            self.loop.run_until_complete(self.conn.close(timeout=self.timeout_s))
        except Exception:  # noqa: BLE001 - closing is best effort
            self.conn.terminate()
        finally:
            self.loop.close()

    def __enter__(self) -> PgSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def query(url: str, sql: str, timeout_s: float, *args: Any) -> list[tuple[Any, ...]]:
    with PgSession(url, timeout_s) as s:
        return s.fetch(sql, *args)


async def connect_async(url: str, timeout_s: float):
    """An asyncpg connection on the running loop (the table's creation before the wire bindings run)."""
    import asyncpg

    return await asyncpg.connect(url, timeout=max(timeout_s, 1.0))
