"""The watchdog of a process's bindings (stores/binding_set.py): a request in flight for the timeout is
expired at the eighth look (one every timeout/8), no sooner than the timeout less one tick (sleeps never end
early, whatever the load); one whose binding moved on to another request (a new future, or a new request
number) is not. A binding's own ``expire`` expires only a request still in flight."""

from __future__ import annotations

import asyncio
import time

import pytest

from ycsbctl.stores.binding_set import watchdog

TIMEOUT_S = 0.4


class Flight:
    """What the watchdog reads of a binding: its request in flight (each look counted) and its request number."""

    def __init__(self) -> None:
        self._pending: asyncio.Future | None = None
        self.seq = 0
        self.looks = 0
        self.expired_at: float | None = None
        self.expired_on: int | None = None  # the look that expired it

    @property
    def pending(self) -> asyncio.Future | None:
        self.looks += 1
        return self._pending

    @pending.setter
    def pending(self, fut: asyncio.Future | None) -> None:
        self._pending = fut

    def expire(self) -> None:
        if self.expired_at is None:
            self.expired_at, self.expired_on = time.monotonic(), self.looks


@pytest.mark.speed
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
    assert stuck.expired_on == 8  # one look every timeout/8: expired at the eighth, however late each came
    assert moving.expired_at is None and renewed.expired_at is None


class Closing:
    """A binding (or a shared pool) that says whether it was closed; one may fail to close."""

    def __init__(self, fails: bool = False) -> None:
        self.closed = False
        self.fails = fails

    async def close(self) -> None:
        self.closed = True
        if self.fails:
            raise OSError("the connection was already gone")


def test_close_cancels_the_watchdog_and_closes_every_binding_and_the_shared_pool():
    from ycsbctl.stores.binding_set import BindingSet

    async def main() -> tuple[bool, BindingSet, BindingSet]:
        with_dog = BindingSet([Closing(fails=True), Closing()], shared=Closing())  # type: ignore[list-item]
        with_dog.watchdog = asyncio.get_running_loop().create_task(watchdog([], TIMEOUT_S))
        await with_dog.close()
        await asyncio.sleep(0)  # the cancellation lands at the task's next step
        bare = BindingSet([Closing()])  # type: ignore[list-item]
        await bare.close()  # no watchdog, nothing shared: nothing to cancel
        return with_dog.watchdog.cancelled(), with_dog, bare

    cancelled, with_dog, bare = asyncio.run(main())
    assert cancelled
    assert [b.closed for b in with_dog.bindings] == [True, True]  # a failing close does not stop the next
    assert with_dog.shared.closed  # type: ignore[attr-defined]
    assert bare.bindings[0].closed  # type: ignore[attr-defined]


def test_the_watchdog_expires_only_a_request_still_in_flight():
    from ycsbctl.stores.memcached.binding import MemcachedBinding

    b = MemcachedBinding("memcached://127.0.0.1:1", 1.0)
    b.expire()  # nothing in flight (between requests): nothing to do, no error
    loop = asyncio.new_event_loop()
    try:
        answered, waiting = loop.create_future(), loop.create_future()
        answered.set_result("reply")
        for b.pending in (answered, waiting):
            b.expire()
    finally:
        loop.close()
    assert (answered.result(), waiting.result()) == ("reply", b.EXPIRED)
