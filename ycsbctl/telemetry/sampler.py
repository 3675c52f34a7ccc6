"""The sampler contract: ``start()``, ``stop() -> DataFrame``, one thread each, 1 Hz."""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from typing import Any

import pandas as pd

# Columns every sampler's frame has; samplers add their own metric columns after these.
BASE_COLUMNS = ("t_mono", "t_wall", "source")


class Sampler(ABC):
    """Samples one concern once per ``interval_s`` on its own daemon thread.

    Rows carry ``t_mono`` (``time.monotonic()``, the engine's clock: seconds since boot, shared
    by all processes), ``t_wall`` (epoch s) and ``source`` (e.g. ``server-process``). A sample
    that raises stops the sampler with one warning; what was collected is kept.
    """

    source: str = "sampler"

    def __init__(self, interval_s: float = 1.0) -> None:
        self.interval_s = interval_s
        self.rows: list[dict[str, Any]] = []
        self.warning: str | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @abstractmethod
    def sample(self) -> dict[str, Any]:
        """One sample: metric name -> value (None for a metric the server does not report)."""

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name=f"sampler-{self.source}", daemon=True)
        self._thread.start()

    def stop(self) -> pd.DataFrame:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5 * self.interval_s + 5)
        return pd.DataFrame(self.rows)

    def _loop(self) -> None:
        next_t = time.monotonic()
        while not self._stop.is_set():
            try:
                values = self.sample()
            except Exception as exc:  # noqa: BLE001 - a sampler never kills a run
                self.warning = f"{self.source} sampler stopped: {exc}"
                return
            self.rows.append({"t_mono": time.monotonic(), "t_wall": time.time(), "source": self.source, **values})
            next_t += self.interval_s
            self._stop.wait(max(0.0, next_t - time.monotonic()))
