"""The common start of a phase's workers: a shared flag the controller sets and each worker polls."""

from __future__ import annotations

import time
from typing import Any

POLL_S = 0.0005  # a worker learns of the start within ~0.5 ms; the start itself is ≥ 50 ms later


class StartSignal:
    """``set`` / ``wait(timeout)`` / ``is_set`` across processes, like ``multiprocessing.Event``, whose
    ``set`` waits until every sleeping waiter has woken: a worker killed while it waited (SIGKILL, the
    OOM killer) hung the controller in ``set`` for good (seen in the worker-killed fault test under
    load). Setting this one is a store into shared memory; it never waits for anyone."""

    def __init__(self, ctx: Any) -> None:
        self._flag = ctx.Value("b", 0, lock=False)

    def set(self) -> None:
        self._flag.value = 1

    def is_set(self) -> bool:
        return bool(self._flag.value)

    def wait(self, timeout: float | None = None) -> bool:
        """True once set; False if ``timeout`` (s) passed first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._flag.value:
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(POLL_S)
        return True
