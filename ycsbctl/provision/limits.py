"""The limits a server is started with: ``--server-memory`` (a size in bytes) and ``--server-cpus`` (a cpuset),
read from what the user wrote."""

from __future__ import annotations

import math
import re

from ycsbctl.cpus import usable_cpus
from ycsbctl.errors import UserError
from ycsbctl.user_input import whole_number

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*$", re.IGNORECASE | re.ASCII)  # ASCII digits


def parse_size(text: str) -> int:
    """Bytes in ``512m``, ``1.5g``, ``2GiB``, ``1048576`` (binary units)."""
    m = _SIZE.match(text)
    if not m:
        raise UserError(f"--server-memory {text!r} is not a size: write e.g. 512m, 2g or 1073741824")
    unit = m.group(2).lower()
    value = float(m.group(1)) * (1024 ** ("kmgt".index(unit) + 1) if unit else 1)
    if not math.isfinite(value):  # 400 digits: no memory is that large (and int() of it raised OverflowError)
        raise UserError(f"--server-memory {text[:40]!r}…: no host has that much memory: write e.g. 512m or 2g")
    if value < 16 * 1024**2:
        raise UserError(f"--server-memory {text!r} is below 16 MiB: give the server at least 16m")
    return int(value)


def parse_cpuset(text: str, here: bool = True) -> list[int]:
    """CPU numbers in a cpuset (``0``, ``0-3``, ``0,2``), checked against this host's CPUs when the
    server runs ``here`` (a remote Docker engine checks them itself)."""
    cpus: set[int] = set()
    try:
        for part in text.split(","):
            lo, _, hi = part.strip().partition("-")
            cpus.update(range(whole_number(lo), whole_number(hi or lo) + 1))  # ASCII digits (user_input)
    except ValueError:
        raise UserError(f"--server-cpus {text!r} is not a cpuset: write e.g. 0, 0-3 or 0,2") from None
    available = usable_cpus() if here else sorted(cpus)
    bad = sorted(cpus - set(available))
    if not cpus or bad:
        raise UserError(f"--server-cpus {text!r} names CPUs {bad} this host lacks: use CPUs from {available}")
    return sorted(cpus)
