"""How an engine worker ended when it sent no result: the signal that killed it (SIGKILL: the
kernel's OOM killer, or ``kill -9``) and the largest size it was seen at (peak RSS, bytes).

The controller reads each worker's peak RSS (``VmHWM`` in ``/proc/PID/status``: the kernel's own
high-water mark) at most twice a second while the point runs, so the size a killed worker had
reached is known up to its last half second.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

READ_EVERY_S = 0.5


def peak_rss_bytes(pid: int) -> int | None:
    """The kernel's high-water mark of ``pid``'s resident size (bytes); None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


class PeakWatch:
    """Largest peak RSS seen per worker index."""

    def __init__(self) -> None:
        self.peaks: dict[int, int] = {}
        self._last = 0.0

    def read(self, pids: list[int | None], force: bool = False) -> None:
        """Read every live worker's peak, unless the last read was under :data:`READ_EVERY_S` ago
        (``force``: now, e.g. once the workers are ready: they have imported everything)."""
        now = time.monotonic()
        if now - self._last < READ_EVERY_S and not force:
            return
        self._last = now
        for i, pid in enumerate(pids):
            peak = peak_rss_bytes(pid) if pid else None
            if peak is not None:
                self.peaks[i] = max(peak, self.peaks.get(i, 0))


def describe(index: int, exitcode: int | None, peak_bytes: int | None = None) -> str:
    """One line: ``worker 0 was killed by SIGKILL (the kernel's OOM killer or kill -9); peak RSS at
    least 23,712 MiB``, or ``worker 0 exited with code 3``."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        why = " (the kernel's OOM killer or kill -9)" if exitcode == -signal.SIGKILL else ""
        size = f"; peak RSS at least {peak_bytes / 2**20:,.0f} MiB" if peak_bytes else ""
        return f"worker {index} was killed by {name}{why}{size}"
    return f"worker {index} exited with code {exitcode}"
