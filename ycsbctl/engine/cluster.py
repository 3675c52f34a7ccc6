"""The cluster engine: one engine shard per Dask worker, started together, merged exactly.

``ycsbctl run … --cluster tcp://SCHED:8786`` places one shard (:mod:`ycsbctl.engine.shard_process`: the
local engine with its processes and client threads) on each worker of a Dask scheduler that the
user runs as Dask documents it. The controller here:

1. splits the phase (:func:`~ycsbctl.engine.shard_plan.plan_shards`: threads, quotas, load key ranges
   as YCSB splits them over client instances) and submits one task per worker;
2. waits until every shard has connected its clients (a barrier), then sets a start time
   :data:`START_LEAD_S` in the future; each shard converts it to its own clock and says how late it
   started (:class:`~ycsbctl.engine.shard_plan.ShardStarted`). The start skew recorded is the spread of
   those latenesses, each by its host's own clock: hosts' clocks must agree (NTP), and how far they
   seemed apart is recorded beside it per shard (``clock_offset_ms``, ± half ``clock_rtt_ms``: a
   round trip through the scheduler, too coarse to correct a start by);
3. merges every process's per-second HDR counts as they arrive (the progress line works as
   locally) and over the whole phase, exactly as the local engine does;
4. fails the point when a shard is lost (its worker left the scheduler, its task failed, its host
   stopped), keeping every second measured; the other shards run to their end.
"""

from __future__ import annotations

import contextlib
import math
import pickle
import queue
import sys
import time
import uuid
from collections.abc import Callable
from typing import Any

from ycsbctl.engine.dask_client import (
    ClusterGone,
    clock_offsets,
    connect,
    host_label,
    live_workers,
    scheduler_connected,
)
from ycsbctl.engine.messages import Done, SecondReport, dispatch
from ycsbctl.engine.runner import Collector, PhaseRunner
from ycsbctl.engine.shard_plan import ShardEnded, ShardInfo, ShardReady, ShardStarted, plan_shards
from ycsbctl.engine.spec import ERRORS_SHOWN, PhaseSpec, Tick
from ycsbctl.errors import UserError, first_line
from ycsbctl.results.model import PhaseResult
from ycsbctl.urls import host_of, is_loopback, redact_text

START_LEAD_S = 0.5  # the start time is this far ahead of the barrier (the Variable reaches workers in ms)
READY_TIMEOUT_S = 90.0  # shards to connect their clients (a worker starting Python + numpy is ~2 s)
LIVENESS_EVERY_S = 1.0  # how often the scheduler is asked which workers remain
STOP_WAIT_S = 15.0  # a point's shards to stop (their engine processes end in about a second)

class _ClusterCollector(Collector):
    """The local engine's merging, plus each shard's CPU seconds per second (per-host telemetry)."""

    def __init__(self, shards: list[ShardInfo], measurement: str, warmup_seconds: int,
                 progress: Callable[[Tick], None] | None) -> None:
        super().__init__(sum(s.processes for s in shards), measurement, warmup_seconds, progress)
        self.of_worker = {s.first_worker + i: s for s in shards for i in range(s.processes)}
        self.started = True

    def on_second(self, msg: SecondReport) -> None:
        shard = self.of_worker[msg.worker]
        shard.cpu_s[msg.second] = shard.cpu_s.get(msg.second, 0.0) + msg.counts.cpu_s
        super().on_second(msg)


class ClusterEngine:
    """ycsbctl's engine over the workers of a Dask scheduler (``--cluster``): one shard per worker."""

    name = "native"

    def __init__(self, address: str) -> None:
        self.address = address
        self.hosts: list[str] = []  # the client hosts of the last point (labels): a point on fewer says so

    def prepare(self, spec: PhaseSpec) -> ClusterRunner:
        if spec.alternation is not None:
            raise UserError("the cluster engine (--cluster) cannot alternate targets: its shards' slices would not "
                            "switch together; alternate with the local engine")
        return ClusterRunner(spec, self.address, self.hosts)


class ClusterRunner:
    """Runs one :class:`PhaseSpec` over the workers of a Dask scheduler (same calls as PhaseRunner)."""

    def __init__(self, spec: PhaseSpec, address: str, hosts: list[str] | None = None) -> None:
        self.local = PhaseRunner(spec)  # checks the spec; merges the result as the local engine does
        self.spec = spec
        self.address = address
        self.hosts = [] if hosts is None else hosts  # the last point's client hosts (updated in place)
        self.client = connect(address)
        self.stop_requested = False
        self.scheduler_lost = False  # found lost during the point: no call is made to it after
        self.shards: list[ShardInfo] = []
        self.started = self.local.started  # set once the start is given (t0: perf_counter s, this host's clock)

    @property
    def t0(self) -> float:
        """When the operations began (perf_counter s on this host), once :attr:`started` is set."""
        return self.local.t0

    def pids(self) -> list[int]:
        """No local client processes: telemetry of the clients comes from the shards."""
        return []

    def stop(self) -> None:
        self.stop_requested = True

    # -- one point --------------------------------------------------------------------------

    def run(self, progress: Callable[[Tick], None] | None = None) -> PhaseResult:
        from distributed import Event, Queue, Variable

        from ycsbctl.engine.cluster_task import run_shard

        spec, client = self.spec, self.client
        if not scheduler_connected(client):  # lost during the last point: asking again waits out its reconnecting
            raise ClusterGone(f"the Dask scheduler at {self.address} stopped answering (the connection to it was lost)")
        try:
            workers = live_workers(client)
        except Exception as exc:  # noqa: BLE001 - the scheduler stopped answering between points
            raise ClusterGone(f"the Dask scheduler at {self.address} stopped answering ({_one_line(exc)})") from None
        if not workers:
            raise ClusterGone(f"no Dask worker is left at {self.address}: start `dask worker {self.address}` "
                              "on each client host")
        addresses = sorted(workers, key=lambda a: (host_label(a, workers[a]), a))
        _check_reachable(spec.url, {host_label(a, workers[a]): str(workers[a].get("host", "")) for a in addresses})
        plans = plan_shards(spec, len(addresses))
        addresses = addresses[: len(plans)]
        self._say_hosts_left([host_label(a, workers[a]) for a in sorted(workers)])
        offsets = clock_offsets(client, addresses)
        self.shards = [ShardInfo(p.index, a, host_label(a, workers[a]), p.spec.threads,
                                 clock_offset_s=offsets.get(a, (0.0, 0.0))[0],
                                 clock_rtt_s=offsets.get(a, (0.0, 0.0))[1])
                       for p, a in zip(plans, addresses)]
        token = uuid.uuid4().hex[:12]
        names = (f"ycsbctl-q-{token}", f"ycsbctl-start-{token}", f"ycsbctl-stop-{token}")
        q, start, stop = (Queue(names[0], client=client), Variable(names[1], client=client),
                          Event(names[2], client=client))
        futures = [client.submit(run_shard, p, *names, key=f"ycsbctl-shard-{p.index}-{token}", workers=[a],
                                 allow_other_workers=False, pure=False, retries=0)
                   for p, a in zip(plans, addresses)]
        t0 = 0.0
        c: _ClusterCollector | None = None
        try:
            self._barrier(q, futures, progress)
            first = 0
            for s in self.shards:
                s.first_worker, first = first, first + s.processes
            self.local.processes = first
            c = _ClusterCollector(self.shards, spec.measurement, math.ceil(spec.warmup_s), progress)
            t_wall = time.time() + START_LEAD_S
            t0 = time.perf_counter() + (t_wall - time.time())
            start.set(t_wall)
            self.local.t0 = t0
            self.started.set()
            self._stream(q, futures, c, stop)
        except KeyboardInterrupt:
            with contextlib.suppress(Exception):  # the scheduler may be gone too (see finally)
                stop.set()
            if c is None:
                raise
            c.status = "interrupted"
            c.progress = None
            self._stream(q, futures, c, stop, deadline=time.monotonic() + 15)
        finally:
            # Each call goes through the scheduler, which may be gone: the shards then stop by
            # themselves (their queue fails, the shard process sees the end of its input). A call to a
            # scheduler known lost waits out the client's reconnecting (CONNECT_TIMEOUT_S): none is made.
            if scheduler_connected(client) and not self.scheduler_lost:
                self._release(futures, q, start, stop, started=c is not None)
        return self._result(c, t0)

    def _release(self, futures: list[Any], q: Any, start: Any, stop: Any, started: bool) -> None:
        """Stop this point's shards everywhere and wait (at most :data:`STOP_WAIT_S`) until those on the
        hosts that remain have returned: a shard left waiting held its worker's thread, and the next
        point's shard queued behind it until the barrier gave up (issue 61)."""
        from distributed import wait

        calls: list[Callable[[], Any]] = [stop.set]
        if not started:
            calls.append(lambda: start.set(-1.0))  # shards still waiting for a start give up at once
        for call in calls:
            with contextlib.suppress(Exception):  # the scheduler forgets them with the client anyway
                call()
        missing = self._addresses_missing()  # None: the scheduler does not answer, and no task will say it ended
        stopping = [] if missing is None else [(s, f) for s, f in zip(self.shards, futures)
                                               if not (s.lost or s.worker in missing or f.done())]
        with contextlib.suppress(Exception):  # distributed's TimeoutError: said below
            if stopping:
                wait([f for _, f in stopping], timeout=STOP_WAIT_S)
        if late := [s.name for s, f in stopping if not f.done()]:
            print(f"warning: the shards on client hosts {', '.join(late)} did not stop within {STOP_WAIT_S:.0f} s: "
                  "the next point may wait for them", file=sys.stderr)
        for call in (lambda: self.client.cancel([f for f in futures if not f.done()]), start.delete, q.close):
            with contextlib.suppress(Exception):
                call()

    def _say_hosts_left(self, names: list[str]) -> None:
        """One line when hosts the last point had are gone: this point runs on the hosts that remain."""
        if left := [h for h in self.hosts if h not in names]:
            print(f"note: client host{'s' if len(left) > 1 else ''} {', '.join(left)} left the Dask scheduler: "
                  f"this point runs on {', '.join(sorted(names))}", file=sys.stderr)
        self.hosts[:] = names

    def _barrier(self, q: Any, futures: list[Any], progress: Callable[[Tick], None] | None = None) -> None:
        """Until every shard is :class:`ShardReady`; a shard that cannot start fails the point."""
        ready: set[int] = set()
        deadline = time.monotonic() + READY_TIMEOUT_S
        n = len(self.shards)
        while len(ready) < n:
            if progress is not None:  # the live line says what the start waits for
                hosts = ", ".join(s.name for s in self.shards)
                progress(Tick.waiting(f"client host{'s' if n > 1 else ''} {hosts} start their engine and connect "
                                      f"{self.spec.threads} client{'s' if self.spec.threads > 1 else ''} "
                                      f"({len(ready)} of {n} ready)"))
            try:
                item = self._next(q, 0.5)
            except Exception as exc:  # noqa: BLE001 - the queue lives on the scheduler: it is gone
                raise ClusterGone(f"the Dask scheduler at {self.address} was lost before the point started "
                                  f"({_one_line(exc)})") from None
            if item is None:
                for s, f in zip(self.shards, futures):
                    if f.status == "error":
                        raise UserError(f"client host {s.name} could not start its shard: {_one_line(f.exception())}",
                                        exit_code=1)
                missing = self._addresses_missing()
                if missing is None:
                    raise ClusterGone(f"the Dask scheduler at {self.address} was lost before the point started "
                                      "(it no longer answers)")
                for s in self.shards:
                    if s.worker in missing:
                        raise UserError(f"client host {s.name} ({s.worker}) left the Dask scheduler before the start",
                                        exit_code=1)
                if self.stop_requested:
                    raise KeyboardInterrupt
                if time.monotonic() > deadline:
                    slow = [s.name for s in self.shards if s.index not in ready]
                    raise UserError(f"client hosts {', '.join(slow)} did not connect their clients within "
                                    f"{READY_TIMEOUT_S:.0f} s", exit_code=1)
                continue
            if isinstance(item, ShardReady):
                s = self.shards[item.shard]
                s.host, s.cores, s.processes = item.host, item.cores, item.processes
                ready.add(item.shard)
            elif isinstance(item, ShardEnded) and item.error:
                raise UserError(f"client host {self.shards[item.shard].name}: {redact_text(item.error)}", exit_code=1)

    def _stream(self, q: Any, futures: list[Any], c: _ClusterCollector, stop: Any,
                deadline: float | None = None) -> None:
        """Merge messages until every shard ended or was lost (or ``deadline``, monotonic s)."""
        t_started = time.monotonic()
        next_check = time.monotonic() + LIVENESS_EVERY_S
        while not all(s.ended or s.lost for s in self.shards):
            if deadline is not None and time.monotonic() > deadline:
                return
            if self.stop_requested and not stop.is_set():
                stop.set()
                c.status = "interrupted"
            try:
                item = self._next(q, 0.5)
            except Exception as exc:  # noqa: BLE001 - the queue lives on the scheduler: it is gone
                self.scheduler_lost = True
                at = time.monotonic() - t_started
                for s in self.shards:
                    if not (s.ended or s.lost):
                        self._lose(s, c, f"the Dask scheduler at {self.address} was lost {at:.1f} s into the point "
                                         f"({_one_line(exc)}): client host {s.name} could not report the rest")
                return
            if item is not None:
                self._handle(item, c)
                continue
            if time.monotonic() >= next_check:
                next_check = time.monotonic() + LIVENESS_EVERY_S
                missing = self._addresses_missing()
                if missing is None:  # the scheduler does not answer: the scheduler was lost, not a host
                    self.scheduler_lost = True
                    at = time.monotonic() - t_started
                    for s in self.shards:
                        if not (s.ended or s.lost):
                            self._lose(s, c, f"the Dask scheduler at {self.address} was lost {at:.1f} s into the point "
                                             f"(it no longer answers): client host {s.name} could not report the rest")
                    return
                gone = set(missing)
                for s, f in zip(self.shards, futures):
                    if s.ended or s.lost:
                        continue
                    at = time.monotonic() - t_started
                    if s.worker in gone:
                        self._lose(s, c, f"client host {s.name} ({s.worker}) was lost {at:.1f} s into the point: "
                                         "its Dask worker left the scheduler")
                    elif f.status == "error":
                        self._lose(s, c, f"client host {s.name} failed {at:.1f} s into the point: "
                                         f"{_one_line(f.exception())}")

    def _handle(self, item: Any, c: _ClusterCollector) -> None:
        if isinstance(item, tuple):
            shard, msg = item
            s = self.shards[shard]
            if s.lost:
                return
            msg.worker += s.first_worker
            dispatch(msg, c)
        elif isinstance(item, ShardStarted):
            self.shards[item.shard].late_s = item.late_s
        elif isinstance(item, ShardEnded):
            s = self.shards[item.shard]
            if item.error and not s.lost:
                self._lose(s, c, f"client host {s.name}: {item.error}")
            s.ended = True

    def _lose(self, s: ShardInfo, c: _ClusterCollector, why: str) -> None:
        """A shard stopped before its end: its processes are done (with ``why``) and the point failed."""
        s.lost = why
        for w in range(s.first_worker, s.first_worker + s.processes):
            if w not in c.finals:
                c.finals[w] = Done(w, errors=[why])
        c.status = "failed" if c.status == "ok" else c.status

    def _addresses_missing(self) -> list[str] | None:
        """The shards' workers the scheduler no longer lists; None when the scheduler itself does not
        answer (then no host is to blame: a lost scheduler once read "client host c1 was lost")."""
        try:
            live = live_workers(self.client)
        except Exception:  # noqa: BLE001 - the scheduler itself is gone
            return None
        return [s.worker for s in self.shards if s.worker not in live]

    @staticmethod
    def _next(q: Any, timeout: float) -> Any:
        try:
            return pickle.loads(q.get(timeout=timeout))
        except (TimeoutError, queue.Empty):
            return None
        except Exception as exc:  # distributed raises its own TimeoutError class on some versions
            if "Timeout" in type(exc).__name__:
                return None
            raise

    # -- the result ----------------------------------------------------------------------------

    def _result(self, c: _ClusterCollector | None, t0: float) -> PhaseResult:
        if c is None:  # stopped before the start: nothing was measured
            raise KeyboardInterrupt
        for f in c.finals.values():  # shards send end times relative to the start: back to our clock
            if f.end_ns:
                f.end_ns += int(t0 * 1e9)
        result = self.local.result(c, t0)
        lost = [s.lost for s in self.shards if s.lost]
        if lost:
            result.errors = list(dict.fromkeys(lost + result.errors))[:ERRORS_SHOWN]
        result.engine = "cluster"
        result.cluster = self.topology(result)
        return result

    def topology(self, result: PhaseResult) -> dict[str, Any]:
        """Shards, their hosts and client CPU (% of one core over the measured seconds), the start skew."""
        warm = math.ceil(self.spec.warmup_s)
        runtime_s = result.runtime_ms / 1000 or 1.0
        starts = [s.late_s for s in self.shards if s.late_s is not None]
        hosts = []
        for s in self.shards:
            cpu = sum(v for k, v in s.cpu_s.items() if k >= warm)
            cores = min(s.processes, s.cores) if s.cores else s.processes
            pct = 100.0 * cpu / runtime_s
            hosts.append({"shard": s.index, "name": s.name, "worker": s.worker, "host": s.host, "cores": s.cores,
                          "processes": s.processes, "threads": s.threads, "client_cpu_pct": round(pct, 1),
                          "client_share": round(pct / (100 * cores), 3) if cores else None,
                          "start_late_ms": None if s.late_s is None else round(s.late_s * 1000, 3),
                          "clock_offset_ms": round(s.clock_offset_s * 1000, 3),
                          "clock_rtt_ms": round(s.clock_rtt_s * 1000, 3), "lost": s.lost,
                          "cpu_s_per_second": {str(k): round(v, 4) for k, v in sorted(s.cpu_s.items())}})
        return {"scheduler": self.address, "shards": hosts,
                "start_skew_ms": round((max(starts) - min(starts)) * 1000, 3) if len(starts) > 1 else 0.0,
                "start_lead_s": START_LEAD_S}


def _check_reachable(url: str, hosts: dict[str, str]) -> None:
    """A server on this host's loopback cannot be reached from workers on other hosts: say so before
    anything starts (``hosts``: worker label → its address)."""
    import psutil

    if not is_loopback(host_of(url)):
        return
    mine = {a.address for addrs in psutil.net_if_addrs().values() for a in addrs}
    away = [name for name, addr in hosts.items() if not is_loopback(addr) and addr not in mine]
    if away:
        raise ClusterGone(f"the target {redact_text(url)} is on this host's loopback, which Dask workers on other "
                          f"hosts ({', '.join(away)}) cannot reach: give the server an address they can reach",
                          exit_code=2)


def _one_line(exc: BaseException | None) -> str:
    return f"{type(exc).__name__}: {first_line(exc)}" if exc is not None else "unknown error"
