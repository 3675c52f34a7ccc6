"""The host as evidence: whole-host CPU (user, system, iowait, steal, idle) from ``/proc/stat``, and
which other processes used CPU during the point, from a scan of ``/proc/<pid>/stat`` each interval.

Every process is one of three kinds: **ours** (this ycsbctl and its descendants — the client's
workers —, the servers the point measures and their descendants, a measured container's processes, and
every process on a host of the namespace lab: its servers, Dask scheduler and workers, whose
``/proc/PID/ns/net`` is one of :func:`ycsbctl.provision.lab.lab_namespaces`),
**kernel** threads (children of ``kthreadd``: ``ksoftirqd`` may carry our own loopback traffic), or
**foreign** — anything else: a CPU hog, another benchmark, another user's build. A row per interval
(CPU in % of one core, so 200 is two cores): ``host_user_pct``, ``host_system_pct`` (with irq and
softirq), ``host_iowait_pct``, ``host_steal_pct``, ``host_idle_pct``, ``ours_pct``, ``kernel_pct``,
``foreign_pct``, and ``foreign_top`` (``name=pct;…``, the few foreign programs that used the most).
A foreign process that starts and ends between two scans is not named; its CPU shows in the host's
figures only.

:func:`host_busy_share` is the share of the host's cores (default :data:`HOST_BUSY_SHARE`) of
foreign CPU or steal over the measured window above which a point is ``host-busy``;
``$YCSBCTL_HOST_BUSY_SHARE`` (a fraction, or ``off``) replaces it — the tests turn it off, as they must
not depend on what else runs on their host.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from typing import Any

from ycsbctl.provision.lab import lab_namespaces
from ycsbctl.stores.sampler import Sampler
from ycsbctl.telemetry.threads import read_file

HOST_INTERVAL_S = 3.0  # a scan of /proc costs ~15 µs per process (bench telemetry_cost)
HOST_BUSY_SHARE = 0.10  # of the host's cores: foreign CPU or steal above this makes a point host-busy
HOST_BUSY_ENV = "YCSBCTL_HOST_BUSY_SHARE"
TOP_FOREIGN = 3
_TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")
KTHREADD = 2


def host_busy_share() -> float | None:
    """The share of the host's cores of foreign CPU (or steal) that makes a point host-busy; None: off."""
    given = os.environ.get(HOST_BUSY_ENV)
    if given is None or not given.strip():
        return HOST_BUSY_SHARE
    if given.strip().lower() in ("off", "none", "no"):
        return None
    try:
        return float(given)
    except ValueError:
        return HOST_BUSY_SHARE


def cpu_times() -> dict[str, float]:
    """The host's CPU seconds since boot (all cores): user (+nice), system (+irq, softirq), iowait,
    steal, idle."""
    return cpu_times_of(read_file("/proc/stat", 512))


def cpu_times_of(stat: bytes) -> dict[str, float]:
    """:func:`cpu_times` from the text of /proc/stat (its first line: ``cpu`` and ticks of user, nice,
    system, idle, iowait, irq, softirq, steal…; an older kernel's shorter line ends in zeros)."""
    f = [int(x) * _TICK_S for x in stat.partition(b"\n")[0].split()[1:]]
    f += [0.0] * (8 - len(f))
    return {"user": f[0] + f[1], "system": f[2] + f[5] + f[6], "idle": f[3], "iowait": f[4], "steal": f[7]}


Scan = dict[int, tuple[str, int, float, int]]  # pid -> (name, parent pid, CPU s since it started, start tick)


def scan() -> Scan:
    """Every process's name, parent, CPU seconds (user + system) and start (clock ticks after boot: a
    PID used again is another process; a kernel worker's name changes with its work) now."""
    out: Scan = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            s = read_file(f"/proc/{name}/stat", 1024)
        except OSError:
            continue
        close = s.rfind(b")")
        fields = s[close + 2:].split(b" ", 20)
        out[int(name)] = (s[s.find(b"(") + 1:close].decode(errors="replace"), int(fields[1]),
                          (int(fields[11]) + int(fields[12])) * _TICK_S, int(fields[19]))
    return out


def descendants(roots: Iterable[int], procs: Scan) -> set[int]:
    """``roots`` and every process below them, from the parents in ``procs``."""
    kids: dict[int, list[int]] = {}
    for pid, (_, ppid, _, _) in procs.items():
        kids.setdefault(ppid, []).append(pid)
    seen: set[int] = set()
    todo = [r for r in roots if r]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo += kids.get(p, [])
    return seen


def in_container(pid: int, container_ids: Iterable[str]) -> bool:
    """Whether ``pid`` runs in one of the containers (its cgroup path names the container's id)."""
    ids = [c for c in container_ids if c]
    if not ids:
        return False
    try:
        cgroup = read_file(f"/proc/{pid}/cgroup", 4096).decode(errors="replace")
    except OSError:
        return False
    return any(c in cgroup for c in ids)


def net_namespace(pid: int) -> tuple[int, int] | None:
    """The (device, inode) of ``pid``'s network namespace (``/proc/PID/ns/net``); None when it is gone or not
    ours to read."""
    try:
        st = os.stat(f"/proc/{pid}/ns/net")
    except OSError:
        return None
    return st.st_dev, st.st_ino


def cpu_use(before: Scan, now: Scan, kernel: set[int], is_ours: Callable[[int], bool]
            ) -> tuple[dict[str, float], dict[str, float]]:
    """The CPU seconds the processes of ``now`` used since ``before``, per kind (``ours``, ``kernel``: the
    kernel threads ``kernel`` names, ``foreign``: the rest) and the foreign ones' per name: a process in
    both scans (the same start) its change, one started since (or a PID used again) all of its CPU; one
    that ended between the scans is not seen."""
    used = {"ours": 0.0, "kernel": 0.0, "foreign": 0.0}
    foreign: dict[str, float] = {}
    for pid, (name, _, cpu_s, start) in now.items():
        was = before.get(pid)
        delta = cpu_s - was[2] if was is not None and was[3] == start else cpu_s
        if delta <= 0:
            continue
        kind = "kernel" if pid in kernel else "ours" if is_ours(pid) else "foreign"
        used[kind] += delta
        if kind == "foreign":
            foreign[name] = foreign.get(name, 0.0) + delta
    return used, foreign


class HostSampler(Sampler):
    """Whole-host CPU and the foreign processes' CPU per interval (see the module's doc). ``ours``
    returns the root PIDs whose process trees are ours (this process is always one); ``containers``
    the ids of containers whose processes are ours; ``namespaces`` the network namespaces whose processes
    are ours (read at each sample: the lab's hosts, :func:`ycsbctl.provision.lab.lab_namespaces`)."""

    source = "host"

    def __init__(self, ours: Callable[[], Iterable[int]], containers: Iterable[str] = (),
                 interval_s: float = HOST_INTERVAL_S, top: int = TOP_FOREIGN,
                 namespaces: Callable[[], set[tuple[int, int]]] = lab_namespaces) -> None:
        super().__init__(interval_s)
        self.top = top
        self._ours = ours
        self._namespaces = namespaces
        self._containers = tuple(containers)
        self._me = os.getpid()
        self._cpu: dict[str, float] = {}
        self._procs: Scan = {}
        self._t_boot = 0.0
        self._container_pids: dict[int, bool] = {}

    def prime(self) -> None:
        self._cpu = cpu_times()
        self._procs = scan()
        self._t_boot = time.clock_gettime(time.CLOCK_BOOTTIME)

    def _is_ours(self, pid: int, ours: set[int], namespaces: set[tuple[int, int]]) -> bool:
        if pid in ours:
            return True
        if namespaces and net_namespace(pid) in namespaces:  # read each time: `ip netns exec` enters one, then execs
            return True
        if self._containers:
            if pid not in self._container_pids:
                self._container_pids[pid] = in_container(pid, self._containers)
            return self._container_pids[pid]
        return False

    def sample(self) -> dict[str, Any]:
        cpu, procs = cpu_times(), scan()
        t_boot = time.clock_gettime(time.CLOCK_BOOTTIME)
        elapsed = t_boot - self._t_boot
        if elapsed <= 0:
            return {}
        pct = {k: 100.0 * max(0.0, cpu[k] - self._cpu.get(k, cpu[k])) / elapsed for k in cpu}
        ours = descendants([self._me, *self._ours()], procs)
        kernel = descendants([KTHREADD], procs)
        labs = self._namespaces()
        used, foreign = cpu_use(self._procs, procs, kernel, lambda pid: self._is_ours(pid, ours, labs))
        self._cpu, self._procs, self._t_boot = cpu, procs, t_boot
        top = sorted(foreign.items(), key=lambda kv: -kv[1])[:self.top]
        return {"host_user_pct": pct["user"], "host_system_pct": pct["system"], "host_iowait_pct": pct["iowait"],
                "host_steal_pct": pct["steal"], "host_idle_pct": pct["idle"],
                "ours_pct": 100.0 * used["ours"] / elapsed, "kernel_pct": 100.0 * used["kernel"] / elapsed,
                "foreign_pct": 100.0 * used["foreign"] / elapsed,
                "foreign_top": ";".join(f"{n}={100.0 * s / elapsed:.1f}" for n, s in top) or None}
