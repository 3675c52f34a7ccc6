"""CPU % and RSS of local processes (a server and its children, or the engine's workers), via psutil."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import psutil

from ycsbctl.stores.sampler import Sampler
from ycsbctl.telemetry.cpu_limit import CpuStat, cpu_stat, quota_group, throttling

PidSource = Callable[[], Iterable[int]]
CHILDREN_EVERY = 10  # reads between two listings of a server's children


def _owner(pid: int) -> str:
    try:
        return psutil.Process(pid).username()
    except psutil.Error:
        return "another user"



def _fixed(pid: int) -> PidSource:
    """A PID source that always names ``pid``."""
    return lambda: [pid]

class ProcessSampler(Sampler):
    """Summed CPU % (of one core: 350 means three and a half cores) and RSS (bytes) of processes.

    ``pids`` is one PID (a server: children are included, and the sampler stops with a warning
    when it exits) or a callable returning the current PIDs (the engine's workers: processes may
    come and go; each is counted while it lives). CPU % is the change of user+system CPU time over
    the wall time between samples; a process born during an interval counts from its birth. A child
    that ends between two reads (a PostgreSQL backend whose client disconnected) is not lost: the kernel
    adds its CPU time to its parent's ``children_user``/``children_system`` when the parent reaps it, so
    a root's CPU includes those, less what was already counted of each child gone since the last read.
    RSS of forked workers double-counts pages they share (USS would cost a read of smaps).
    """

    def __init__(self, pids: int | PidSource, source: str = "server-process", interval_s: float = 1.0,
                 include_children: bool | None = None, quota_pid: int | None = None,
                 children_every: int = CHILDREN_EVERY) -> None:
        super().__init__(interval_s)
        self.children_every = children_every  # reads between two listings of the children (1: each read)
        # A CPU quota on the cgroup of ``quota_pid`` (default: the fixed pid) adds the group's ``cpu.stat``
        # since the last read: ``quota_periods`` elapsed, ``throttled_periods`` in which the kernel held the
        # processes back, their share ``throttled_pct`` (%) and ``throttled_s``, the seconds it held them back.
        self._quota_pid = quota_pid if quota_pid is not None else (pids if isinstance(pids, int) else None)
        self._group: Path | None = None
        self._throttle: CpuStat | None = None
        self.source = source
        self._required = isinstance(pids, int)
        self.pid = pids if isinstance(pids, int) else None  # the one process sampled (a server), if fixed
        self._pids: PidSource = _fixed(pids) if isinstance(pids, int) else pids
        self._children = self._required if include_children is None else include_children
        # pid -> (process, CPU s at the last read, CPU s not counted when first seen: 0 for one seen at the
        # first read, whose CPU before the span its parent's reaped CPU will hold too)
        self._procs: dict[int, tuple[psutil.Process, float, float]] = {}
        self._priming = False
        self._kids: dict[int, list[psutil.Process]] = {}  # root pid -> its children, refreshed now and then
        self._reads = 0
        self._roots: set[int] = set()  # the pids whose children are sampled (their reaped CPU is theirs)
        self._t_last = 0.0
        self._wall_last = 0.0

    def _current(self) -> list[psutil.Process]:
        procs = []
        self._reads += 1
        self._roots = set(self._pids()) if self._children else set()
        # Listing children scans all of /proc (2.7 ms of CPU here, a quarter of our 1 % budget):
        # refresh that list every CHILDREN_EVERY reads; servers rarely fork.
        refresh = self.children_every <= 1 or self._reads % self.children_every == 1
        for pid in dict.fromkeys(self._pids()):
            try:
                p = self._procs[pid][0] if pid in self._procs else psutil.Process(pid)
                procs.append(p)
                if self._children:
                    if refresh or pid not in self._kids:
                        self._kids[pid] = p.children(recursive=True)
                    procs.extend(self._kids[pid])
            except psutil.NoSuchProcess:
                if self._required:
                    raise RuntimeError(f"process {pid} exited") from None
            except psutil.AccessDenied:
                raise RuntimeError(f"access denied to process {pid} (owned by {_owner(pid)}): its CPU and RSS "
                                   f"are not sampled; run ycsbctl as that user or root") from None
        return procs

    def _read(self) -> tuple[float, int, int]:
        """(CPU seconds since the last read, RSS bytes, live process count); updates the baselines."""
        cpu_delta, rss, alive = 0.0, 0, {}
        for p in self._current():
            try:
                with p.oneshot():
                    t = p.cpu_times()
                    cpu = t.user + t.system
                    if p.pid in self._roots:  # with its reaped children's (see the class)
                        cpu += t.children_user + t.children_system
                    mem = p.memory_info().rss
                    if p.pid in self._procs:
                        base, first = self._procs[p.pid][1], self._procs[p.pid][2]
                    else:  # new since the last read: all of its CPU time if it was born since then
                        base = 0.0 if p.create_time() >= self._wall_last else cpu
                        first = 0.0 if self._priming else base
            except psutil.NoSuchProcess:
                if self._required and p.pid in self._pids():
                    raise RuntimeError(f"process {p.pid} exited") from None
                continue
            except psutil.AccessDenied:
                raise RuntimeError(f"access denied to process {p.pid} (owned by {_owner(p.pid)}): its CPU and "
                                   f"RSS are not sampled; run ycsbctl as that user or root") from None
            cpu_delta += max(0.0, cpu - base)
            rss += mem
            alive[p.pid] = (p, cpu, first)
        if self._roots:  # each child gone since the last read: its CPU is now in its parent's, counted above,
            # less what was counted of it already (and, for one there at the first read, its CPU before that)
            gone = sum(c - first for pid, (_, c, first) in self._procs.items()
                       if pid not in alive and pid not in self._roots)
            cpu_delta = max(0.0, cpu_delta - gone)
        self._procs = alive
        return cpu_delta, rss, len(alive)

    def prime(self) -> None:
        self._group = quota_group(self._quota_pid) if self._quota_pid else None
        self._throttle = cpu_stat(self._group) if self._group else None
        self._wall_last = time.time()
        self._priming = True
        self._read()
        self._priming = False
        self._t_last = time.monotonic()
        self._wall_last = time.time()

    def sample(self) -> dict[str, Any]:
        cpu_s, rss, n = self._read()
        now = time.monotonic()
        elapsed = now - self._t_last
        self._t_last, self._wall_last = now, time.time()
        out: dict[str, Any] = {"cpu_pct": 100.0 * cpu_s / elapsed if elapsed > 0 else None, "rss_bytes": rss,
                               "processes": n}
        if not n:  # nothing to measure (workers not started yet, or gone)
            out.update(cpu_pct=None, rss_bytes=None)
        if self._group is not None and self._throttle is not None:
            now_stat = cpu_stat(self._group)
            if now_stat is not None:
                held = throttling(self._throttle, now_stat)
                out.update(throttled_pct=held.pct, quota_periods=held.periods, throttled_periods=held.throttled,
                           throttled_s=held.throttled_s)
                self._throttle = now_stat
        return out


def process_rss_bytes(pid: int, include_children: bool = True) -> int | None:
    """RSS (bytes) of ``pid`` and its children now; None when it cannot be read."""
    try:
        p = psutil.Process(pid)
        procs = [p, *p.children(recursive=True)] if include_children else [p]
        return sum(q.memory_info().rss for q in procs)
    except psutil.Error:
        return None


FORWARDERS = ("docker-proxy", "rootlessport", "rootlesskit", "slirp4netns", "pasta", "ssh", "sshd", "kubectl", "socat")


def listener_of(port: int) -> int | None:
    """The PID of the process that listens on TCP ``port`` on this host (the one that owns the socket, the
    lowest when several share it), or None: none, or not ours to see. For a server that does not report
    its own PID (ClickHouse, Sphinx, Elasticsearch) or a user not allowed to ask it (PostgreSQL's
    ``data_directory``)."""
    try:
        pids = [c.pid for c in psutil.net_connections(kind="tcp")
                if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid]
        pid = min(pids) if pids else None
        # a port forwarded to a server elsewhere (a container's published port, a tunnel): not the server
        if pid is not None and psutil.Process(pid).name() in FORWARDERS:
            return None
    except psutil.Error:
        return None
    return pid


def listening_pid(pid: int, port: int) -> bool:
    """Whether process ``pid`` (or a child) listens on TCP ``port``: confirms a DB-reported PID is ours to read."""
    try:
        p = psutil.Process(pid)
        for q in (p, *p.children(recursive=True)):
            for c in q.net_connections(kind="tcp"):
                if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port:
                    return True
    except psutil.Error:
        return False
    return False
