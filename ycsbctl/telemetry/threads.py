"""Where a side's CPU time went, per thread: user and system CPU, time runnable but waiting for a
CPU, and context switches, from ``/proc/<pid>/task/<tid>/{stat,schedstat,status}`` (Linux).

One :class:`ThreadSampler` per side (the server's processes, or the client's workers): each sample
reads every thread of those processes (and, for a server, of its children) and sums the change
since the last sample per **role** — the thread's place in the server, named from its kernel name
(``comm``): ``main`` for each root process's main thread, else the name with its trailing digits
dropped (Redis's ``io_thd_1``/``io_thd_2`` → ``io_thd``; PostgreSQL's per-connection backends, all
``postgres``, one role). A role's row (% of one core over the interval): ``oncpu_pct`` (schedstat's
run time, ns precise), ``user_pct``/``system_pct`` (stat's ticks), ``runq_pct`` (runnable, waiting
for a CPU), ``busiest_pct`` (its busiest single thread), ``vcsw_per_s``/``ivcsw_per_s`` (voluntary
— it blocked — and involuntary — it was preempted — switches), ``threads``, and what its threads
were doing at the reading (``wait_running``, ``wait_idle``, ``wait_lock``, ``wait_sleep``, ``wait_io``,
``wait_other``: threads in each, from the state and the kernel function a sleeping thread waits in,
``/proc/…/wchan``; a sample per interval, so a statistic over the point's threads × seconds).

Cost (``python -m bench telemetry_cost``): three small reads per thread per interval, on the
sampler's own thread (counted in ``cpu_s``); a server that forks a process per connection
(PostgreSQL at 128 threads) is the costly case.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ycsbctl.stores.sampler import Sampler

TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")
CHILDREN_EVERY = 10  # reads between two listings of a root's child processes
STATE_POLLS = 5  # readings of what the busiest threads are doing, per interval (a state is one sample)
STATE_THREADS = 8  # threads whose state is polled between two full readings: the busiest of the last interval
ROLE_COLUMNS = ("oncpu_pct", "user_pct", "system_pct", "runq_pct", "busiest_pct", "vcsw_per_s", "ivcsw_per_s",
                "threads")
# What a thread not on a CPU was waiting in, from the kernel function it sleeps in (/proc/…/wchan),
# first match wins: "idle" is waiting for work (a request, a job); the others hold a request up.
WAIT_CLASSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("io", ("io_schedule", "jbd2", "fsync", "folio_wait", "wait_on_page", "blk_", "ext4", "xfs", "nfs", "bit_wait_io")),
    ("sleep", ("nanosleep", "hrtimer")),
    ("lock", ("futex", "semtimedop", "sem_", "rwsem", "mutex", "flock", "locks_", "lock")),
    ("idle", ("epoll", "poll", "select", "sk_wait", "wait_woken", "accept", "unix_stream", "pipe_", "recv",
              "sigtimedwait", "do_wait")),
)
STATES = ("running", "idle", "lock", "sleep", "io", "other")  # per sample, threads in each (wait_* columns)


@dataclass
class ThreadReading:
    """One thread's counters: CPU in seconds (``user_s``/``system_s`` in ticks' precision), run and
    run-queue time in ns, switches counted since it started."""

    role: str
    user_s: float
    system_s: float
    run_ns: int
    runq_ns: int
    vcsw: int
    ivcsw: int
    state: str = "running"  # one of STATES at the reading
    wchan: str = ""  # the kernel function it slept in, when it slept
    start_ticks: int = 0  # when it started, in clock ticks after boot


def wait_class(state: bytes, wchan: str) -> str:
    """``running`` (R: on a CPU or runnable), ``io`` for uninterruptible sleep (D) or an I/O wait,
    else the first of :data:`WAIT_CLASSES` whose pattern is in ``wchan`` (``other`` when none)."""
    if state == b"R":
        return "running"
    for name, patterns in WAIT_CLASSES:
        if any(p in wchan for p in patterns):
            return name
    return "io" if state == b"D" else "other"


def read_file(path: str, size: int = 4096) -> bytes:
    """The first ``size`` bytes of a small file (/proc's: one read, no buffering)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, size)
    finally:
        os.close(fd)


def read_whole(path: str, chunk: int = 4096) -> bytes:
    """The whole of a /proc file that one read may not hold: a process's children list is one read of
    at most ``chunk`` bytes per call (a PostgreSQL of 1,000 connections lists ~6 KB of pids)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        parts = []
        while part := os.read(fd, chunk):
            parts.append(part)
        return b"".join(parts)
    finally:
        os.close(fd)


def role_of(comm: str, main: bool) -> str:
    """A thread's role: ``main`` for a root process's main thread, else its name without trailing
    digits and separators (``io_thd_3`` → ``io_thd``)."""
    if main:
        return "main"
    return comm.rstrip("0123456789").rstrip("_-/ ") or comm


def _wchan(raw: bytes) -> str:
    """The kernel function a thread sleeps in; "" for ``0`` (it was running by the time of the read)."""
    name = raw.decode(errors="replace").strip()
    return "" if name == "0" else name


def _state(stat: bytes) -> bytes:
    """The state letter of a /proc stat line (``S``, ``R``…)."""
    close = stat.rfind(b")")
    return stat[close + 2:close + 3]


_SHOWN: set[int] = set()  # processes whose wchan the kernel was seen to show (a function's name, once)


def _asleep_in(pid: int, base: str, state: bytes) -> tuple[bytes, str]:
    """(state, the kernel function it sleeps in) of the thread at ``base`` (of process ``pid``) whose stat said
    ``state``. The kernel writes ``0`` for the wchan of a thread on a run queue: running, or preempted after it
    said it would sleep and before it did, its stat still saying S. A busy host's Redis main thread is found so
    at every other look, and counting it asleep in an unknown function (an ``other`` wait) made a free Redis read
    as "slept in 6 of 12 samples". So ``0`` is running (R) for a process whose wchan the kernel was seen to show
    (any thread of it asleep in a named function: its Redis background threads in ``futex_do_wait``); for
    another, it stays "" (``other``): the kernel writes ``0`` for every thread of a process we may not trace
    (another user's server) or where it has no symbols."""
    if state == b"R":
        return state, ""
    wchan = _wchan(read_file(base + "wchan", 128))
    if wchan:
        if pid not in _SHOWN:
            if len(_SHOWN) > 4096:  # pids are reused: a long-lived process forgets them all at once
                _SHOWN.clear()
            _SHOWN.add(pid)
        return state, wchan
    return (b"R", "") if pid in _SHOWN else (state, "")


def ctxt_switches(status: bytes) -> tuple[int, int]:
    """A thread's voluntary and involuntary context switches since it started, from its /proc status
    (``voluntary_ctxt_switches:`` and, on the next line, ``nonvoluntary_ctxt_switches:``; a kernel
    that writes neither, (0, 0))."""
    _, found, tail = status.rpartition(b"\nvoluntary_ctxt_switches:")
    if not found:
        return 0, 0
    lines = tail.split(b"\n", 2)  # the count, the next line, the rest
    return int(lines[0]), int(lines[1].rpartition(b":")[2])


def read_thread(pid: int, tid: int, main: bool) -> ThreadReading | None:
    """The counters of thread ``tid`` of process ``pid``; None when it is gone."""
    base = f"/proc/{pid}/task/{tid}/"
    try:
        stat = read_file(base + "stat", 1024)
        sched = read_file(base + "schedstat", 128).split()
        status = read_file(base + "status")
    except OSError:
        return None
    close = stat.rfind(b")")
    comm = stat[stat.find(b"(") + 1:close].decode(errors="replace")
    fields = stat[close + 2:].split(b" ", 20)
    vcsw, ivcsw = ctxt_switches(status)
    state, wchan = fields[0], ""
    with contextlib.suppress(OSError):  # gone since: as it was at its stat
        state, wchan = _asleep_in(pid, base, state)
    return ThreadReading(role_of(comm, main), int(fields[11]) * TICK_S, int(fields[12]) * TICK_S,
                         int(sched[0]), int(sched[1]), vcsw, ivcsw, wait_class(state, wchan), wchan,
                         int(fields[19]))


def read_state(pid: int, tid: int) -> tuple[str, str] | None:
    """What thread ``tid`` is doing now: (one of :data:`STATES`, the kernel function it sleeps in); two
    small reads (``stat``, ``wchan``), for the polls between full readings."""
    base = f"/proc/{pid}/task/{tid}/"
    try:
        state, wchan = _asleep_in(pid, base, _state(read_file(base + "stat", 1024)))
    except OSError:
        return None
    return wait_class(state, wchan), wchan


def _children(pid: int) -> list[int]:
    """Every descendant of ``pid`` (``/proc/<pid>/task/*/children``, no scan of /proc)."""
    out: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tids:
            try:
                kids = [int(k) for k in read_whole(f"/proc/{p}/task/{t}/children").split()]
            except OSError:
                continue
            out += kids
            todo += kids
    return out


class ThreadSampler(Sampler):
    """Per-role thread figures of the processes ``roots()`` names (with their children when
    ``include_children``); one row per role per interval, ``source`` ``server-threads`` or
    ``client-threads`` and the role in ``thread``."""

    def __init__(self, roots: Callable[[], Iterable[int]], source: str, interval_s: float = 1.0,
                 include_children: bool = True, children_every: int = CHILDREN_EVERY) -> None:
        super().__init__(interval_s)
        self.source = source
        self._roots = roots
        self._include_children = include_children
        self.children_every = children_every
        self._kids: dict[int, list[int]] = {}
        self._reads = 0
        self._last: dict[tuple[int, int], ThreadReading] = {}
        self._t_last = 0.0
        self._ticks_last = 0
        self._polled: list[tuple[int, int, str, bool]] = []  # (pid, tid, role, main) whose state is polled
        self._states: dict[str, dict[str, int]] = {}  # role -> state -> polls since the last row
        self._waits: dict[str, dict[str, int]] = {}  # role -> wchan -> polls (not idle, not running)
        self._stop_poll = threading.Event()
        self._poller: threading.Thread | None = None

    def _processes(self) -> list[tuple[int, bool]]:
        """(pid, is a root) of every process sampled now."""
        self._reads += 1
        refresh = self.children_every <= 1 or self._reads % self.children_every == 1
        out: list[tuple[int, bool]] = []
        for pid in dict.fromkeys(self._roots()):
            out.append((pid, True))
            if self._include_children:
                if refresh or pid not in self._kids:
                    self._kids[pid] = _children(pid)
                out += [(k, False) for k in self._kids[pid]]
        return out

    def read_all(self) -> dict[tuple[int, int], ThreadReading]:
        """(pid, tid) -> counters of every thread now."""
        now: dict[tuple[int, int], ThreadReading] = {}
        for pid, root in self._processes():
            try:
                tids = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for t in tids:
                tid = int(t)
                r = read_thread(pid, tid, root and tid == pid)
                if r is not None:
                    now[(pid, tid)] = r
        return now

    def prime(self) -> None:
        self._last = self.read_all()
        self._t_last = time.monotonic()
        self._ticks_last = boot_ticks()
        self._choose_polled(self._last, {})
        self._poller = threading.Thread(target=self._poll_states, name=f"sampler-{self.source}-states", daemon=True)
        self._poller.start()

    def close(self) -> None:
        self._stop_poll.set()
        if self._poller is not None:
            self._poller.join(timeout=5)

    def _choose_polled(self, now: dict[tuple[int, int], ThreadReading], before: dict[tuple[int, int],
                                                                                     ThreadReading]) -> None:
        """Poll the states of the threads that ran most since ``before`` (a thread that never ran serves nothing)."""
        delta = {k: now[k].run_ns - (before[k].run_ns if k in before else 0) for k in now}
        ran = sorted((k for k in now if delta[k] > 0 or now[k].role == "main"), key=lambda k: -delta[k])
        self._polled = [(pid, tid, now[(pid, tid)].role,
                         now[(pid, tid)].role == "main") for pid, tid in ran[:STATE_THREADS]]

    def _poll_states(self) -> None:
        """Between two full readings, what the polled threads are doing, :data:`STATE_POLLS` times per interval."""
        cpu0 = time.thread_time()
        try:
            while not self._stop.wait(self.interval_s / STATE_POLLS) and not self._stop_poll.is_set():
                for pid, tid, role, _ in list(self._polled):
                    got = read_state(pid, tid)
                    if got is None:
                        continue
                    state, wchan = got
                    st = self._states.setdefault(role, {})
                    st[state] = st.get(state, 0) + 1
                    if state not in ("running", "idle") and wchan:
                        w = self._waits.setdefault(role, {})
                        w[wchan] = w.get(wchan, 0) + 1
        finally:
            self.child_cpu_s += time.thread_time() - cpu0  # the poller's CPU is the sampler's too

    def sample(self) -> dict[str, Any]:  # one row per role: see _record
        raise NotImplementedError

    def _record(self) -> None:
        ticks = boot_ticks()
        now = self.read_all()
        t = time.monotonic()
        elapsed = t - self._t_last
        t_wall = time.time()
        states, waits = self._states, self._waits
        self._states, self._waits = {}, {}
        for role, values in role_figures(self._last, now, elapsed, self._ticks_last).items():
            for s, n in states.get(role, {}).items():  # the polls add to the full reading's one look
                values[f"wait_{s}"] = values.get(f"wait_{s}", 0) + n
            if role in waits:
                values["wchan"] = merge_wchan(waits[role], str(values.get("wchan") or ""))
            self.rows.append({"t_mono": t, "t_wall": t_wall, "source": self.source, "thread": role, **values})
        self._choose_polled(now, self._last)
        self._last, self._t_last, self._ticks_last = now, t, ticks


def boot_ticks() -> int:
    """Clock ticks since boot now (the clock of a thread's start time)."""
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) / TICK_S)


def role_figures(before: dict[tuple[int, int], ThreadReading], after: dict[tuple[int, int], ThreadReading],
                 elapsed_s: float, since_ticks: int | None = None) -> dict[str, dict[str, Any]]:
    """Per role, the change between two readings ``elapsed_s`` apart (see the module's doc), the
    threads in each of :data:`STATES` at the second reading (``wait_<state>``) and the kernel
    functions the waiting ones (not idle) slept in (``wchan``: ``name=threads;…``); a thread born in
    between (after ``since_ticks``, the first reading's time) counts from zero, one first seen but older
    (a worker whose PID was listed late) only from the next interval, one that ended is not counted."""
    if elapsed_s <= 0:
        return {}
    zero = ThreadReading("", 0.0, 0.0, 0, 0, 0, 0)
    out: dict[str, dict[str, Any]] = {}
    waits: dict[str, dict[str, int]] = {}
    for key, r in after.items():
        b = before.get(key, zero)
        if key not in before and since_ticks is not None and r.start_ticks < since_ticks:
            continue  # its counters hold time from before the interval
        run_s = max(0, r.run_ns - b.run_ns) / 1e9
        fig = out.setdefault(r.role, {**dict.fromkeys(ROLE_COLUMNS, 0.0), **{f"wait_{s}": 0 for s in STATES}})
        fig[f"wait_{r.state}"] += 1
        if r.state not in ("running", "idle") and r.wchan:
            w = waits.setdefault(r.role, {})
            w[r.wchan] = w.get(r.wchan, 0) + 1
        fig["oncpu_pct"] += 100.0 * run_s / elapsed_s
        fig["user_pct"] += 100.0 * max(0.0, r.user_s - b.user_s) / elapsed_s
        fig["system_pct"] += 100.0 * max(0.0, r.system_s - b.system_s) / elapsed_s
        fig["runq_pct"] += 100.0 * max(0, r.runq_ns - b.runq_ns) / 1e9 / elapsed_s
        fig["busiest_pct"] = max(fig["busiest_pct"], 100.0 * run_s / elapsed_s)
        fig["vcsw_per_s"] += max(0, r.vcsw - b.vcsw) / elapsed_s
        fig["ivcsw_per_s"] += max(0, r.ivcsw - b.ivcsw) / elapsed_s
        fig["threads"] += 1
    for role, w in waits.items():
        out[role]["wchan"] = wchan_text(w)
    return out


def wchan_text(counts: dict[str, int]) -> str:
    """Kernel functions slept in and how many looks found a thread in each, as the ``wchan`` column
    writes them: ``name=looks;…``, the most looked-at first."""
    return ";".join(f"{k}={n}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1]))


def wchan_counts(text: str, into: dict[str, int] | None = None) -> dict[str, int]:
    """A ``wchan`` cell (:func:`wchan_text`'s form) read back, function -> looks, added to ``into`` (a new dict by
    default); parts not of that form (no name, a count that is no whole number) are left out."""
    counts = {} if into is None else into
    for part in text.split(";"):
        name, _, count = part.rpartition("=")
        if name and count.isdigit():
            counts[name] = counts.get(name, 0) + int(count)
    return counts


def merge_wchan(polled: dict[str, int], read: str) -> str:
    """The ``wchan`` column of one interval: the polls' looks (``polled``: function -> looks) added to
    the full reading's (``read``, in :func:`wchan_text`'s form; parts not of that form are left out)."""
    return wchan_text(wchan_counts(read, dict(polled)))
