"""What the benchmarks share about the servers they start: stopping one, and its CPU seconds."""

from __future__ import annotations

import subprocess

import psutil


def stop(proc: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL after 10 s; always reaped."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def cpu_s(ps: psutil.Process) -> float:
    """User + system CPU seconds of ``ps``."""
    t = ps.cpu_times()
    return t.user + t.system
