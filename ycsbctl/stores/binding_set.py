"""The bindings of one worker process: one :class:`Binding` (one connection) per client thread, as a
store opens them (:func:`ycsbctl.stores.registry.open_bindings`), with the watchdog that expires
overdue requests."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from ycsbctl.stores.binding import Binding, ConnectionLost


@dataclass
class BindingSet:
    """The bindings of one worker process, with what they share (a Mongo pool) and the
    watchdog that turns overdue wire-protocol requests (Redis, MongoDB) into TIMEOUTs."""

    bindings: list[Binding]
    shared: object | None = None
    watchdog: asyncio.Task | None = None
    _closers: list = field(default_factory=list)

    async def close(self) -> None:
        if self.watchdog is not None:
            self.watchdog.cancel()
        for b in self.bindings:
            with contextlib.suppress(Exception):  # closing must not hide the run's result
                await b.close()
        if self.shared is not None:
            await self.shared.close()  # type: ignore[attr-defined]


async def watchdog(bindings: list, timeout_s: float) -> None:
    """Every timeout/8 s: a request seen in flight for ≥ timeout is expired (±12%)."""
    step = max(timeout_s / 8, 0.005)
    seen: dict[int, tuple[object, int, int]] = {}
    ticks = max(1, round(timeout_s / step))
    while True:
        await asyncio.sleep(step)
        for i, b in enumerate(bindings):
            fut = b.pending
            if fut is None:
                seen.pop(i, None)
                continue
            prev = seen.get(i)
            # the same future and request number (a read burst issues many requests per future)
            same = prev is not None and prev[0] is fut and prev[2] == b.seq
            n = prev[1] + 1 if same else 1  # type: ignore[index]
            if n >= ticks:
                b.expire()
                seen.pop(i, None)
            else:
                seen[i] = (fut, n, b.seq)


async def connect_wire(bindings: list, timeout_s: float) -> BindingSet:
    """Connect wire-protocol bindings (one connection each) and start their watchdog. When one cannot
    connect, the others' attempts are cancelled and awaited (none is left to fail unheard at shutdown)."""
    tasks = [asyncio.ensure_future(b.connect()) for b in bindings]
    try:
        await asyncio.gather(*tasks)
    except ConnectionLost:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for b in bindings:
            await b.close()
        raise
    bs = BindingSet(bindings)
    bs.watchdog = asyncio.get_running_loop().create_task(watchdog(bindings, timeout_s))
    return bs
