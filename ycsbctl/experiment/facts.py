"""Facts recorded with every experiment: host, tool and driver versions."""

from __future__ import annotations

import contextlib
import os
import platform
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import psutil

from ycsbctl import __version__, native


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def host_facts() -> dict[str, Any]:
    """CPU model, cores, memory (bytes), kernel, transparent huge pages setting."""
    model = None
    for line in (_read("/proc/cpuinfo") or "").splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return {
        "hostname": platform.node(),
        "cpu_model": model or platform.processor() or "unknown",
        "cores": os.cpu_count(),
        "memory_bytes": psutil.virtual_memory().total,
        "kernel": platform.release(),
        "os": platform.platform(),
        "thp": _read("/sys/kernel/mm/transparent_hugepage/enabled"),
    }


def versions() -> dict[str, str]:
    """ycsbctl (and which per-operation path it runs: compiled or pure-Python), Python and the client
    libraries that shape the numbers."""
    out = {"ycsbctl": __version__, "ycsbctl path": native.active_path(), "python": sys.version.split()[0]}
    for dist in ("redis", "hiredis", "pymongo", "uvloop", "numpy", "pandas", "hdrhistogram", "docker"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            out[dist] = metadata.version(dist)
    return out
