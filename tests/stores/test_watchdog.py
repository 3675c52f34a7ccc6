"""The watchdog of a process's bindings (stores/binding_set.py): a request in flight for the timeout is
expired, no sooner than the timeout less one tick (sleeps never end early, whatever the load); one whose
binding moved on to another request (a new future, or a new request number) is not."""

from __future__ import annotations

import asyncio
import time

from ycsbctl.stores.binding_set import watchdog

TIMEOUT_S = 0.4


class Flight:
    """What the watchdog reads of a binding: its request in flight and its request number."""

    def __init__(self) -> None:
        self.pending: asyncio.Future | None = None
        self.seq = 0
        self.expired_at: float | None = None

    def expire(self) -> None:
        self.expired_at = time.monotonic()


def test_a_stuck_request_is_expired_after_the_timeout_and_a_moving_one_never():
    async def main() -> tuple[float, Flight, Flight, Flight]:
        stuck, moving, renewed = Flight(), Flight(), Flight()
        loop = asyncio.get_running_loop()
        for f in (stuck, moving, renewed):
            f.pending = loop.create_future()
        t0 = time.monotonic()
        dog = loop.create_task(watchdog([stuck, moving, renewed], TIMEOUT_S))
        while time.monotonic() - t0 < 2.5 * TIMEOUT_S:
            await asyncio.sleep(TIMEOUT_S / 16)
            moving.seq += 1  # a read burst: the same future, one request after another
            renewed.pending = loop.create_future()  # one operation after another
        dog.cancel()
        return t0, stuck, moving, renewed

    t0, stuck, moving, renewed = asyncio.run(main())
    assert stuck.expired_at is not None and stuck.expired_at - t0 >= TIMEOUT_S * 7 / 8
    assert moving.expired_at is None and renewed.expired_at is None
