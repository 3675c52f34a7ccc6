"""The sampler contract: ``start()``, ``stop() -> DataFrame``, one thread each, 1 Hz."""

from __future__ import annotations

import contextlib
import threading
import time
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported where a frame is made: the engine's fork server imports every store module
    # (ycsbctl.engine.preload) and its workers never make one, so pandas (~0.5 s of a core) stays out of it
    import pandas as pd

# Columns every sampler's frame has; samplers add their own metric columns after these.
BASE_COLUMNS = ("t_mono", "t_wall", "source")


class Sampler(ABC):
    """Samples one concern once per ``interval_s`` on its own daemon thread.

    Rows carry ``t_mono`` (``time.monotonic()``, the engine's clock: seconds since boot, shared
    by all processes), ``t_wall`` (epoch s) and ``source`` (e.g. ``server-process``). A sample
    that raises stops the sampler with one warning; what was collected is kept.

    Life cycle on the sampler thread: :meth:`prime` (open connections, read the counters that
    rates are computed against), then one :meth:`sample` per interval, one last sample when
    :meth:`stop` is called (so a run shorter than an interval still has a row), then
    :meth:`close`. ``cpu_s`` is the CPU time (s) the thread spent, with ``child_cpu_s`` (the
    programs it ran, e.g. ``ss``), to keep sampling cheap.
    """

    source: str = "sampler"

    def __init__(self, interval_s: float = 1.0) -> None:
        self.interval_s = interval_s
        self.rows: list[dict[str, Any]] = []
        self.warning: str | None = None
        self.cpu_s = 0.0
        self.child_cpu_s = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @abstractmethod
    def sample(self) -> dict[str, Any]:
        """One sample: metric name -> value (None for a metric the server does not report)."""

    def prime(self) -> None:  # noqa: B027 - optional hook
        """Runs once on the sampler thread before the first interval (baselines for rates)."""

    def close(self) -> None:  # noqa: B027 - optional hook
        """Runs once on the sampler thread at the end (release connections)."""

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name=f"sampler-{self.source}", daemon=True)
        self._thread.start()

    def request_stop(self) -> None:
        """Ask the thread to take its last sample and end (``stop`` waits for it)."""
        self._stop.set()

    def join(self) -> None:
        """Ask the thread to take its last sample and end, and wait for it (its rows are then final)."""
        self.request_stop()
        if self._thread is not None:
            self._thread.join(timeout=5 * self.interval_s + 5)

    def stop(self) -> pd.DataFrame:
        self.join()
        return self.frame()

    def frame(self) -> pd.DataFrame:
        """The rows collected so far (``BASE_COLUMNS`` even when empty): :func:`frame_of` this sampler."""
        return frame_of([self])

    def _record(self) -> None:
        values = self.sample()
        self.rows.append({"t_mono": time.monotonic(), "t_wall": time.time(), "source": self.source, **values})

    def _loop(self) -> None:
        cpu0 = time.thread_time()
        try:
            self.prime()
            last = next_t = time.monotonic()
            while True:
                next_t += self.interval_s
                if self._stop.wait(max(0.0, next_t - time.monotonic())):
                    break
                self._record()
                last = time.monotonic()
                if next_t + self.interval_s <= last:
                    next_t = last  # a slow sample skips ticks instead of catching up in a burst
            if time.monotonic() - last >= 0.2 * self.interval_s:
                self._record()  # the tail of the run since the last tick
        except Exception as exc:  # noqa: BLE001 - a sampler never kills a run
            self.warning = f"{self.source} sampler stopped: {stopped_because(exc)}"
        finally:
            with contextlib.suppress(Exception):  # closing is best effort
                self.close()
            self.cpu_s = time.thread_time() - cpu0 + self.child_cpu_s


def frame_of(samplers: list[Sampler]) -> pd.DataFrame:
    """Every row of ``samplers`` (each already joined) in one frame, in time order (rows of one time in the samplers'
    order), ``BASE_COLUMNS`` even when empty. One frame made of all the rows, not one per sampler and a concat:
    a point's end waits for it (``python -m bench point_overhead``), and a concat of a dozen small frames of
    unlike columns cost several times more."""
    import pandas as pd

    rows = [row for s in samplers for row in s.rows]
    if not rows:
        return pd.DataFrame(columns=list(BASE_COLUMNS))
    return pd.DataFrame(rows).sort_values("t_mono", kind="stable", ignore_index=True)


def stopped_because(exc: BaseException) -> str:
    """Why a sample failed, in one line: the error's first line, or what an error without words means (a
    server that stopped answering raises a bare ``TimeoutError``)."""
    lines = str(exc).strip().splitlines()
    if lines:
        return lines[0][:200]
    if isinstance(exc, TimeoutError):
        return "the server did not answer in time (TimeoutError): its figures end there"
    return type(exc).__name__


def num(v: Any) -> float | None:
    """A number from a DB-reported value (redis-py parses INFO; some servers send strings); else None."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, int | float):
        return v
    try:
        return float(str(v).rstrip("%"))
    except ValueError:
        return None


def counter_rate(a: float | None, b: float | None, elapsed_s: float, scale: float = 1.0) -> float | None:
    """``scale`` × the per-second rate of a counter read ``a`` then ``b``, ``elapsed_s`` seconds apart; None when
    either reading is missing or no time passed; 0 when it went back (the server restarted, its counters reset)."""
    return None if a is None or b is None or elapsed_s <= 0 else scale * max(0.0, b - a) / elapsed_s


def rates(prev: dict[str, float | None], cur: dict[str, float | None], elapsed_s: float) -> dict[str, float | None]:
    """Per-second rates between two counter readings (``ops``, ``net_in``, ``net_out`` bytes, ``cpu_s``)
    taken ``elapsed_s`` apart; None where either reading is missing. CPU is in % of one core."""

    def rate(k: str, scale: float = 1.0) -> float | None:
        return counter_rate(prev.get(k), cur.get(k), elapsed_s, scale)

    return {"ops_per_s": rate("ops"), "net_in_bytes_per_s": rate("net_in"),
            "net_out_bytes_per_s": rate("net_out"), "db_cpu_pct": rate("cpu_s", 100.0)}
