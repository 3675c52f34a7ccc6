"""The CPU a process may use: its cgroup's CPU quota and its affinity, in cores.

A server started with ``docker run --cpus 0.5`` (or under a systemd ``CPUQuota=50%``, or in any
cgroup with a CFS bandwidth limit) that uses 50 % of one core is saturated: it gets no more. The
bottleneck judge divides CPU figures by these cores, not by the host's.

The quota is read from the cgroup files of the process and of every ancestor cgroup up to the
mount point (the tightest wins): cgroup v2 ``cpu.max`` ("50000 100000" = 0.5 cores, "max" = none)
and cgroup v1 ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` (quota -1 = none). Linux only; None
where there is no quota or nothing can be read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def _mounts() -> list[tuple[str, str, str, str]]:
    """(fstype, root inside the hierarchy, mount point, super options) of this process's cgroup mounts."""
    out: list[tuple[str, str, str, str]] = []
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return out
    for line in lines:
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            out.append((tail[0], fields[3], fields[4], tail[2]))
    return out


def _quota_in(directory: Path, v2: bool) -> float | None:
    """The quota set on one cgroup directory, in cores (None: none or unreadable)."""
    try:
        if v2:
            quota, _, period = (directory / "cpu.max").read_text().strip().partition(" ")
            if quota == "max":
                return None
            return int(quota) / int(period or 100000)
        quota_us = int((directory / "cpu.cfs_quota_us").read_text())
        if quota_us <= 0:
            return None
        return quota_us / int((directory / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError, ZeroDivisionError):
        return None


def _dirs(mount: Path, root: str, path: str) -> list[Path]:
    """The cgroup ``path`` (as /proc/PID/cgroup names it) and its ancestors, as directories under ``mount``."""
    if root != "/" and (path == root or path.startswith(root.rstrip("/") + "/")):
        path = path[len(root.rstrip("/")):]
    parts = [p for p in path.split("/") if p]
    return [mount.joinpath(*parts[:n]) for n in range(len(parts), -1, -1)]


def _quotas(pid: int | None) -> list[tuple[float, Path, bool]]:
    """(cores, cgroup directory, is v2) of every CPU quota on ``pid``'s cgroups and their ancestors."""
    try:
        lines = Path(f"/proc/{pid or os.getpid()}/cgroup").read_text().splitlines()
    except OSError:
        return []
    mounts = _mounts()
    found: list[tuple[float, Path, bool]] = []
    for line in lines:
        hier, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        v2 = hier == "0" and controllers == ""
        if not v2 and "cpu" not in controllers.split(","):
            continue
        for fstype, root, point, options in mounts:
            if v2 != (fstype == "cgroup2") or (not v2 and "cpu" not in options.split(",")):
                continue
            for d in _dirs(Path(point), root, path):
                q = _quota_in(d, v2)
                if q is not None:
                    found.append((q, d, v2))
    return found


def cpu_quota_cores(pid: int | None = None) -> float | None:
    """The tightest CFS quota on the cgroups of ``pid`` (default: this process) in cores, e.g. 0.5."""
    found = _quotas(pid)
    return min(q for q, _, _ in found) if found else None


def quota_group(pid: int | None = None) -> Path | None:
    """The cgroup directory holding ``pid``'s tightest CPU quota (None: no quota)."""
    found = _quotas(pid)
    return min(found, key=lambda f: f[0])[1] if found else None


@dataclass(frozen=True)
class CpuStat:
    """A cgroup's CFS bandwidth counters (its ``cpu.stat``): quota periods elapsed, periods in which the
    kernel held the group back (throttled), and the time it was held back, in seconds."""

    periods: int
    throttled: int
    throttled_s: float


def parse_cpu_stat(text: str) -> CpuStat | None:
    """The counters of one ``cpu.stat`` text: cgroup v2 (``nr_periods``, ``nr_throttled``,
    ``throttled_usec`` in µs) or v1's cpu controller (``throttled_time`` in ns); None without them."""
    stat: dict[str, int] = {}
    for line in text.splitlines():
        key, _, value = line.strip().partition(" ")
        try:
            stat[key] = int(value)
        except ValueError:
            continue
    if "nr_periods" not in stat or "nr_throttled" not in stat:
        return None
    if "throttled_usec" in stat:
        seconds = stat["throttled_usec"] / 1e6
    elif "throttled_time" in stat:
        seconds = stat["throttled_time"] / 1e9
    else:
        return None
    return CpuStat(stat["nr_periods"], stat["nr_throttled"], seconds)


def cpu_stat(group: Path) -> CpuStat | None:
    """The CFS bandwidth counters of the cgroup directory ``group`` (None: unreadable, or no quota counters)."""
    try:
        return parse_cpu_stat((group / "cpu.stat").read_text())
    except OSError:
        return None


@dataclass(frozen=True)
class Throttling:
    """How a CPU quota held a group back between two ``cpu.stat`` readings: the quota periods that
    elapsed, those in which it was held back, their share (% of the periods; 0 when none elapsed) and
    the time it was held back (seconds; summed over the CPUs it was held back on)."""

    periods: int
    throttled: int
    throttled_s: float

    @property
    def pct(self) -> float:
        return 100.0 * self.throttled / self.periods if self.periods > 0 else 0.0


def throttling(before: CpuStat, after: CpuStat) -> Throttling:
    """The throttling between two readings of one group (counters that went back — a group made
    anew — count from zero)."""
    if after.periods < before.periods or after.throttled < before.throttled:
        before = CpuStat(0, 0, 0.0)
    return Throttling(after.periods - before.periods, after.throttled - before.throttled,
                      max(0.0, after.throttled_s - before.throttled_s))


def throttle_counts(group: Path) -> tuple[int, int] | None:
    """(quota periods elapsed, periods in which the group was held back) from its ``cpu.stat``."""
    stat = cpu_stat(group)
    return (stat.periods, stat.throttled) if stat is not None else None


def affinity(pid: int | None = None) -> frozenset[int] | None:
    """The CPUs ``pid`` (default: this process) may be scheduled on (None where unknown: gone, or not Linux)."""
    try:
        return frozenset(os.sched_getaffinity(pid or 0))
    except (AttributeError, OSError):
        return None


def affinity_cores(pid: int | None = None) -> int | None:
    """How many cores ``pid`` (default: this process) may be scheduled on (None where unknown)."""
    cpus = affinity(pid)
    return None if cpus is None else len(cpus)


def usable_cores(pid: int | None = None) -> float | None:
    """The cores ``pid`` can use at most: the smaller of its affinity and its cgroup quota."""
    limits = [c for c in (affinity_cores(pid), cpu_quota_cores(pid)) if c is not None]
    return float(min(limits)) if limits else None
