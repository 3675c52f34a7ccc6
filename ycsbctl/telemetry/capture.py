"""One entry point around each engine run (perfrunner's ``with_stats`` shape)::

    with sampling(endpoint, client_pids=runner.pids, baseline=baseline) as capture:
        result = runner.run()
    capture.frame          # tidy samples: t_mono, t_wall, source, metric columns
    capture.summary()      # TelemetrySummary: mean/max of the key metrics, for the runs table
    capture.bottleneck()   # Bottleneck(label, evidence, text)
    capture.warnings       # one line per sampler that stopped or was not possible
"""

from __future__ import annotations

import copy
import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ycsbctl.provision.base import Endpoint
from ycsbctl.results.names import DB_SOURCES, SERVER_SOURCES
from ycsbctl.results.schema import TelemetrySummary
from ycsbctl.stores import registry
from ycsbctl.stores.sampler import Sampler, frame_of
from ycsbctl.telemetry import bottleneck as bn
from ycsbctl.telemetry import evidence as ev
from ycsbctl.telemetry.cpu_limit import affinity, cpu_quota_cores, usable_cores
from ycsbctl.telemetry.frame_figures import finite as _f
from ycsbctl.telemetry.frame_figures import shard_balance, source_values, throttled_over
from ycsbctl.telemetry.host import HostSampler
from ycsbctl.telemetry.network import InterfaceNetSampler, NetworkBaseline
from ycsbctl.telemetry.process import CHILDREN_EVERY, ProcessSampler
from ycsbctl.telemetry.server_processes import local_server_pid as local_server_pid
from ycsbctl.telemetry.server_processes import peer_roots, server_ports, target_pids
from ycsbctl.telemetry.threads import ThreadSampler
from ycsbctl.telemetry.wire import WireSampler
from ycsbctl.urls import host_of, is_loopback


def samplers_for(endpoint: Endpoint, client_pids: Callable[[], Iterable[int]] | None,
                 interval_s: float = 1.0, container_mode: str = "stream",
                 evidence: bool = True, peers: Iterable[Endpoint] = ()) -> tuple[list[Sampler], list[str]]:
    """The samplers that apply to ``endpoint`` (and notes on what cannot be sampled); ``evidence``
    adds where the time went: per-thread figures of both sides, our connections' bytes and packets,
    and the host's CPU with its other processes (:mod:`ycsbctl.telemetry.evidence`); ``peers``: the other
    targets measured in the same engine session, whose servers are not other programs (:func:`peer_roots`)."""
    samplers: list[Sampler] = []
    notes: list[str] = []
    proto = registry.get(endpoint.protocol)
    server_roots: list[int] = []
    if proto.has_server:
        if endpoint.container_id:
            from ycsbctl.telemetry.container import ContainerSampler

            samplers.append(ContainerSampler(endpoint.container_id, interval_s, container_mode,
                                             docker_host=endpoint.docker_host))
        elif endpoint.processes:  # several processes (a cluster's shards, replicas): their CPU and RSS summed
            pids = [int(p["pid"]) for p in endpoint.processes]
            samplers.append(ProcessSampler(lambda: pids, "server-process", interval_s, include_children=True))
        else:
            pid = endpoint.pid or local_server_pid(endpoint)
            if pid:
                # a server that forks a process per connection (PostgreSQL) is listed anew at each read
                every = 1 if proto.forks_per_connection else CHILDREN_EVERY
                samplers.append(ProcessSampler(pid, "server-process", interval_s, children_every=every))
                server_roots += target_pids(endpoint, pid)
                if evidence:
                    samplers.append(ThreadSampler(lambda: server_roots, "server-threads", interval_s,
                                                  children_every=every))
            else:
                notes.append("server process not on this host: server CPU is what the server reports (db_cpu_pct)")
        samplers += proto.samplers(endpoint.url, interval_s)
        on_this_host = endpoint.host is None and (is_loopback(host_of(endpoint.url))
                                                  or endpoint.backend in ("local", "docker"))
        if on_this_host:  # a server on another host: its traffic is in the DB's own counters
            samplers.append(InterfaceNetSampler("lo", interval_s))
    if client_pids is not None:
        # the workers are this process's children, in its cgroup: its CPU quota (if any) is theirs
        samplers.append(ProcessSampler(client_pids, "client", interval_s, include_children=False,
                                       quota_pid=os.getpid()))
    if evidence and client_pids is not None:
        samplers.append(ThreadSampler(client_pids, "client-threads", interval_s, include_children=False))
        ports = server_ports(endpoint) if proto.has_server else []
        if ports and shutil.which("ss"):
            samplers.append(WireSampler(ports))
        containers = [endpoint.container_id] if endpoint.container_id and not endpoint.docker_host else []
        others, other_containers = peer_roots(peers)
        samplers.append(HostSampler(lambda: [*server_roots, *others], [*containers, *other_containers]))
    return samplers, notes


def _r3(v: float | None) -> float | None:
    return None if v is None else round(float(v), 3)


# A server's rates over the window, which an alternated session's target has over its own slices only (Capture.duty:
# ÷ its share of the session's time); its memory, connections and maxima of levels are what they are. The network's
# figures only where they are the server's own counters: a loopback interface's bytes ("net-lo") are every target's
SERVER_RATES = ("server_cpu_pct_mean", "server_cpu_pct_max", "db_ops_per_s_mean")
SERVER_NET_RATES = ("net_in_bytes_per_s_mean", "net_out_bytes_per_s_mean", "net_gbit_s_mean", "net_gbit_s_max",
                    "net_share_of_baseline")


@dataclass
class Capture:
    """What the samplers recorded around one run."""

    endpoint: Endpoint
    baseline: NetworkBaseline | None = None
    host_cores: int = field(default_factory=bn.host_cores)
    client_cpus: tuple[int, ...] = ()  # the workers' CPU set of a placed point (() where they float)
    # the target's share of the window in an alternated session (its own slices, outside which its server had no
    # work): its server's rates in the summary (SERVER_RATES) and the evidence (threads, totals, its connections' bytes
    # and packets) are over those; the client's stay the window's (it served every target)
    duty: float = 1.0
    samplers: list[Sampler] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    frame: pd.DataFrame = field(default_factory=lambda: frame_of([]))
    interval_s: float = 1.0
    window: tuple[float, float] | None = None  # the engine's measured seconds (monotonic s)
    engine_client_cpu_pct: float | None = None  # the engine's own CPU over that window (% of one core)
    engine_processes: int | None = None  # its worker processes
    throughput_ops: float | None = None  # the engine's measured throughput (ops/s), for the per-operation costs
    # evidence() of one (frame, window): a point's summary() and bottleneck() read it three times (~45 ms of
    # pandas per thread-role reading)
    _evidence_memo: tuple[pd.DataFrame, tuple[Any, ...], dict[str, Any]] | None = field(default=None, repr=False,
                                                                                         compare=False)
    _measured_memo: tuple[pd.DataFrame, tuple[Any, ...], pd.DataFrame] | None = field(default=None, repr=False,
                                                                                      compare=False)

    def align(self, result: Any) -> None:
        """Summarise only what the engine measured (a :class:`~ycsbctl.results.model.PhaseResult`):
        its window, warm-up and start-up excluded, and its exact client CPU.

        Why: the first sample of a point covers the engine's start-up (spawning and connecting
        workers, idle); on a 1.5 s load point it was one of two client samples and the client CPU
        read 0 % while the engine had measured 37 %."""
        t0, runtime_s = result.t_start_mono, result.runtime_ms / 1000
        if t0 and runtime_s > 0:
            start = t0 + result.warmup_s
            self.window = (start, start + runtime_s)
            self.throughput_ops = result.throughput_ops
            if result.engine == "native" and result.client_cpu_s == result.client_cpu_s:
                self.engine_client_cpu_pct = 100.0 * result.client_cpu_s / runtime_s
                self.engine_processes = result.processes

    def measured_frame(self) -> pd.DataFrame:
        """The samples whose interval lies mostly in :attr:`window` (all samples when there is no
        window, or no sample of it: a run shorter than one interval); found once per frame and window."""
        f = self.frame
        if self.window is None or not len(f):
            return f
        key = (len(f), self.window, self.interval_s)
        memo = self._measured_memo
        if memo is not None and memo[0] is f and memo[1] == key:
            return memo[2]
        mid = f["t_mono"] - self.interval_s / 2  # each sample covers the interval before it
        inside = f[(mid >= self.window[0]) & (mid <= self.window[1])]
        self._measured_memo = (f, key, inside if len(inside) else f)
        return self._measured_memo[2]

    def summary(self) -> TelemetrySummary:
        """The run-table figures: CPU in % of one core, memory in bytes, network in bytes/s and Gbit/s,
        over the measured window (see :meth:`align`)."""
        f = self.measured_frame()
        out: dict[str, Any] = {}
        cpu, src = source_values(f, SERVER_SOURCES, "cpu_pct")
        if not len(cpu):
            cpu, src = source_values(f, DB_SOURCES, "db_cpu_pct")
        out.update(server_cpu_pct_mean=_f(cpu.mean()), server_cpu_pct_max=_f(cpu.max()), server_cpu_source=src)
        rss, _ = source_values(f, SERVER_SOURCES, "rss_bytes")
        out["server_rss_bytes_max"] = _f(rss.max())
        ccpu, _ = source_values(f, ("client",), "cpu_pct")
        crss, _ = source_values(f, ("client",), "rss_bytes")
        procs, _ = source_values(f, ("client",), "processes")
        out.update(client_cpu_pct_mean=_f(ccpu.mean()), client_cpu_pct_max=_f(ccpu.max()),
                   client_rss_bytes_max=_f(crss.max()), client_processes=_f(procs.max()),
                   client_cpu_source="client" if len(ccpu) else None)
        if self.engine_client_cpu_pct is not None:
            out.update(client_cpu_pct_mean=self.engine_client_cpu_pct, client_cpu_source="engine")
            if out["client_processes"] is None and self.engine_processes:
                out["client_processes"] = float(self.engine_processes)
            if out["client_cpu_pct_max"] is None or out["client_cpu_pct_max"] < self.engine_client_cpu_pct:
                out["client_cpu_pct_max"] = self.engine_client_cpu_pct
        for col, key in (("db_used_memory_bytes", "db_used_memory_bytes_max"), ("db_rss_bytes", "db_rss_bytes_max"),
                         ("connections", "connections_max")):
            v, _ = source_values(f, DB_SOURCES, col)
            out[key] = _f(v.max())
        ops, _ = source_values(f, DB_SOURCES, "ops_per_s")
        out["db_ops_per_s_mean"] = _f(ops.mean())
        forks, _ = source_values(f, DB_SOURCES, "forks")
        pauses, _ = source_values(f, DB_SOURCES, "fork_pause_us")
        delayed, _ = source_values(f, DB_SOURCES, "aof_delayed_fsyncs")
        out.update(server_forks=_f(forks.sum()) if len(forks) else None, server_fork_pause_us_max=_f(pauses.max()),
                   aof_delayed_fsyncs=_f(delayed.sum()) if len(delayed) else None)
        out.update(shard_balance(f))
        out["server_throttled_pct"], out["server_throttled_s"] = throttled_over(f, SERVER_SOURCES)
        # INFO replication, pg_stat_replication
        lag, _ = source_values(f, (*DB_SOURCES, "postgresql"), "repl_lag_bytes")
        lag_ms, _ = source_values(f, ("postgresql",), "repl_lag_ms")
        out.update(repl_lag_bytes_max=_f(lag.max()), repl_lag_ms_max=_f(lag_ms.max()))
        out.update(self._network())
        if 0 < self.duty < 1:
            own = [*SERVER_RATES, *(SERVER_NET_RATES if out.get("net_source") not in (None, "net-lo") else ())]
            out.update({k: out[k] / self.duty for k in own if out.get(k) is not None})
        out.update(self._where_time_went(out.get("server_cpu_pct_mean")))
        out["samples"] = len(f)
        out["sampler_cpu_s"] = round(sum(s.cpu_s for s in self.samplers), 4)
        return TelemetrySummary.from_dict(out)

    def server_events(self) -> list[dict[str, Any]]:
        """What the server did of its own accord during the measured window, as events on the point: one
        ``fork`` per sample in which it forked (an RDB snapshot or AOF rewrite: ``INFO persistence``
        ``total_forks`` rose) — ``at_s`` s into the measured window when the sample was taken (the fork
        came in the interval before it), ``forks`` in that interval, ``pause_us`` how long the latest
        stopped the server (``latest_fork_usec``), and ``snapshot_s``: for how long after it the samples
        saw a snapshot still being written (``rdb_bgsave_in_progress`` = 1; 0: done within the interval)."""
        f = self.measured_frame()
        if not len(f) or "forks" not in f or "source" not in f:
            return []
        rows = None
        for src in DB_SOURCES:
            mine = f[f["source"] == src]
            if len(mine) and pd.to_numeric(mine["forks"], errors="coerce").notna().any():
                rows = mine.sort_values("t_mono").reset_index(drop=True)
                break
        if rows is None:
            return []
        start = self.window[0] if self.window else float(rows["t_mono"].min()) - self.interval_s
        forks = pd.to_numeric(rows["forks"], errors="coerce").fillna(0)
        saving = (pd.to_numeric(rows["rdb_bgsave_in_progress"], errors="coerce") > 0  # no reading (NaN): not saving
                  if "rdb_bgsave_in_progress" in rows else pd.Series(False, index=rows.index))
        out: list[dict[str, Any]] = []
        for i in rows.index[forks > 0]:
            after = 0
            while i + after < len(rows) and saving[i + after]:
                after += 1
            pause = _f(pd.to_numeric(pd.Series([rows.at[i, "fork_pause_us"]]), errors="coerce").iloc[0]) \
                if "fork_pause_us" in rows else None
            out.append({"event": "fork", "at_s": round(float(rows.at[i, "t_mono"]) - start, 2),
                        "forks": int(forks[i]), "pause_us": pause, "snapshot_s": after * self.interval_s})
        return out

    def evidence(self) -> dict[str, Any]:
        """Where the time went over the measured window: ``server_threads`` and ``client_threads``
        (per role), the sides' totals, ``wire`` (bytes and packets per second on our connections) and
        ``host`` (:func:`ycsbctl.telemetry.evidence.host_figures`). Computed once per frame and window;
        each call gets its own copy."""
        key = (len(self.frame), self.window, self.interval_s, self.duty)
        memo = self._evidence_memo
        if memo is None or memo[0] is not self.frame or memo[1] != key:
            memo = self._evidence_memo = (self.frame, key, self._read_evidence())
        return copy.deepcopy(memo[2])

    def _read_evidence(self) -> dict[str, Any]:
        server = ev.thread_roles(self.frame, "server-threads", self.window, self.interval_s)
        client = ev.thread_roles(self.frame, "client-threads", self.window, self.interval_s)
        return {"server_threads": {role: ev.over_duty(fig, self.duty) for role, fig in ev.working(server).items()},
                "server": ev.over_duty(ev.side_totals(server), self.duty),
                "client_threads": ev.working(client), "client": ev.side_totals(client),
                "wire": ev.over_duty(ev.wire_figures(self.frame, self.window), self.duty),
                "host": ev.host_figures(self.frame, self.window)}

    def _where_time_went(self, server_cpu_pct: float | None) -> dict[str, Any]:
        """The run table's figures of :meth:`evidence`."""
        e = self.evidence()
        server, client, host = e["server"], e["client"], e["host"]
        top = ", ".join(f"{n} ({p:.0f}%)" for n, p in list(host.get("foreign_top", {}).items())[:3]) or None
        out: dict[str, Any] = {
            "server_user_pct": server.get("user_pct"), "server_system_pct": server.get("system_pct"),
            "server_runq_pct": server.get("runq_pct"), "server_vcsw_per_s": server.get("vcsw_per_s"),
            "server_ivcsw_per_s": server.get("ivcsw_per_s"), "server_kernel_share": server.get("kernel_share"),
            "client_user_pct": client.get("user_pct"), "client_system_pct": client.get("system_pct"),
            "client_runq_pct": client.get("runq_pct"), "client_ivcsw_per_s": client.get("ivcsw_per_s"),
            "host_user_pct": host.get("host_user_pct"), "host_system_pct": host.get("host_system_pct"),
            "host_iowait_pct": host.get("host_iowait_pct"), "host_steal_pct": host.get("host_steal_pct"),
            "host_foreign_pct": host.get("foreign_pct"), "host_foreign_top": top}
        out.update(ev.per_operation(server_cpu_pct, e["wire"], self.throughput_ops))
        return out

    def _network(self) -> dict[str, Any]:
        """Bytes moved per second from the DB's counters, else the ``lo`` interface; share of the baseline
        taken in the busier direction (a link carries each direction at full rate)."""
        f = self.measured_frame()
        net_in, src = source_values(f, DB_SOURCES, "net_in_bytes_per_s")
        net_out, _ = source_values(f, (src,) if src else (), "net_out_bytes_per_s")
        if len(net_in):
            busier = pd.concat([net_in, net_out], axis=1).max(axis=1)
            out: dict[str, Any] = {"net_in_bytes_per_s_mean": _f(net_in.mean()),
                                   "net_out_bytes_per_s_mean": _f(net_out.mean())}
        else:
            busier, src = source_values(f, ("net-lo",), "net_bytes_per_s")  # both directions: an upper bound
            out = {"net_in_bytes_per_s_mean": None, "net_out_bytes_per_s_mean": None}
        gbit = busier * 8 / 1e9
        base = self.baseline.gbit_s if self.baseline else None
        out.update(net_gbit_s_mean=_f(gbit.mean()), net_gbit_s_max=_f(gbit.max()), net_source=src,
                   baseline_gbit_s=base,
                   net_share_of_baseline=_f(gbit.mean() / base) if base and len(gbit) else None)
        return out

    def _server_quota(self, pid: int | None) -> float | None:
        """The server's CPU quota in cores: its process's cgroup's, or its container's (None: none)."""
        if pid:
            return cpu_quota_cores(pid)
        return next((q for s in self.samplers if (q := getattr(s, "quota_cores", None)) is not None), None)

    def server_pid(self) -> int | None:
        """The local server process sampled, if any."""
        return next((s.pid for s in self.samplers if isinstance(s, ProcessSampler) and s.source == "server-process"
                     and s.pid), None)

    def _cores_apart(self, pid: int | None) -> bool:
        """The server's process and the client's workers on CPU sets with no CPU in common (a placed point): they do
        not take turns on any core, so their sum is no host limit. Unknown (a container, a point not placed): False."""
        server = affinity(pid) if pid else None
        return bool(self.client_cpus) and server is not None and not server & set(self.client_cpus)

    def bottleneck(self, summary: TelemetrySummary | None = None) -> bn.Bottleneck:
        """The run point's label from the mean figures of :meth:`summary` (``summary``: the one the caller
        has just made of this capture, not made again); each side's cores are at most what its cgroup CPU
        quota and affinity allow (a server under ``docker --cpus 0.5`` at 50 % of one core is saturated),
        and a side its quota held back in most periods is saturated."""
        s = summary if summary is not None else self.summary()
        workers = s.client_processes
        pid = self.server_pid()
        server_limit = usable_cores(pid) if pid else self._server_quota(None)  # a container: its quota
        client_limit = cpu_quota_cores()  # the workers are this process's children, in its cgroup
        client_cores = min(workers, self.host_cores, client_limit or self.host_cores) if workers else None
        f = self.measured_frame()
        client_throttled, _ = throttled_over(f, ("client",))
        b = bn.classify(
            server_cpu_pct=s.server_cpu_pct_mean if registry.get(self.endpoint.protocol).has_server else None,
            server_cores=bn.server_cores(self.endpoint, self.host_cores, server_limit),
            client_cpu_pct=s.client_cpu_pct_mean, client_cores=client_cores,
            host_cores=self.host_cores, net_gbit_s=s.net_gbit_s_mean, baseline_gbit_s=s.baseline_gbit_s,
            shared_host=self.endpoint.host is None and not self._cores_apart(pid), net_source=s.net_source,
            server_throttled_pct=s.server_throttled_pct, client_throttled_pct=client_throttled)
        b.evidence.update(server_usable_cores=server_limit, client_cpu_quota_cores=client_limit,
                          host_cores=self.host_cores, throughput_ops=self.throughput_ops,
                          server_quota_cores=self._server_quota(pid), server_throttled_s=_r3(s.server_throttled_s),
                          measured_s=_r3(self.window[1] - self.window[0]) if self.window else None)
        where = self.evidence()
        b.evidence.update({k: v for k, v in where.items() if v})
        events = self.server_events()
        if events:
            b.evidence["server_events"] = events
        return bn.io_threads_note(b, self.endpoint, self.host_cores)


@contextmanager
def sampling(endpoint: Endpoint, client_pids: Callable[[], Iterable[int]] | None = None, interval_s: float = 1.0,
             baseline: NetworkBaseline | None = None, container_mode: str = "stream",
             evidence: bool = True, peers: Iterable[Endpoint] = (),
             client_cpus: Iterable[int] | None = None) -> Iterator[Capture]:
    """Sample the server, the DB's own figures, the network and the client while the block runs.

    ``client_pids`` returns the engine's worker PIDs (called once per interval); ``peers``: the other targets of
    the same engine session (their servers are ours, not other programs); ``client_cpus``: the workers' CPU set when
    the point is placed (a server on CPUs apart from it shares no core with the client). Samplers that fail stop with
    one warning in ``capture.warnings``; the block's own exceptions propagate.
    """
    samplers, notes = samplers_for(endpoint, client_pids, interval_s, container_mode, evidence, peers)
    capture = Capture(endpoint, baseline, samplers=samplers, warnings=list(notes), interval_s=interval_s,
                      client_cpus=tuple(client_cpus or ()))
    for s in samplers:
        s.start()
    try:
        yield capture
    finally:
        for s in samplers:
            s.request_stop()  # all at once: the last samples are taken together
        for s in samplers:
            s.join()
        capture.warnings.extend(s.warning for s in samplers if s.warning)
        capture.frame = frame_of(samplers)
