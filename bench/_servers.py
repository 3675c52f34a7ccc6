"""What the benchmarks share about the servers they start: stopping one, and its CPU seconds."""

from __future__ import annotations

import subprocess

import psutil

from ycsbctl.processes import stop_process


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL after 10 s; always reaped."""
    stop_process(proc, 10)


def cpu_s(ps: psutil.Process) -> float:
    """User + system CPU seconds of ``ps``."""
    t = ps.cpu_times()
    return t.user + t.system
