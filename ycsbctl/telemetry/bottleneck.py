"""What limited a run point: ``server-cpu``, ``client-cpu``, ``host-cpu``, ``network`` or ``latency``.

Thresholds (CPU in % of one core, so 350 means three and a half cores):
- ``client-cpu``: the engine's workers use ≥ 90 % of their cores (one per worker process, at most
  the host's and at most what ycsbctl's cgroup CPU quota allows). Checked first: a point where the client is saturated
  is never the server's limit.
- ``server-cpu``: the server uses ≥ 90 % of what it can use: one core for single-threaded
  Redis-protocol servers (Redis, Valkey), all allowed cores for MongoDB, Dragonfly and KeyDB
  (``Endpoint.cpu_limit_cores``, else the host's cores), and never more than the server process's
  cgroup CPU quota (``docker run --cpus 0.5``: 0.5 cores; see :mod:`ycsbctl.telemetry.cpu_limit`).
- Either side whose cgroup CPU quota held it back (``cpu.stat`` ``nr_throttled``) in ≥ 50 % of
  the quota's periods is saturated whatever its CPU figure: a quota is spent in 5 ms slices per
  core, so a throttled process often shows less than its quota.
- ``host-cpu``: neither alone crossed its line, but client + server use ≥ 90 % of the host's
  cores: they compete for the same cores (this machine: 2 cores), so the point shows the host,
  not the server. The evidence carries ``host_cpu_saturated`` whatever the label.
- ``network``: bytes moved per second in the busier direction ≥ 70 % of the iperf3 baseline, counted
  for OUR traffic only (the server's own or per-port byte counters). The whole host's loopback
  counters (``net_source`` ``net-lo``, :data:`HOST_LOOPBACK_SOURCES`) include other processes'
  traffic, so they never make a point ``network``: its text says the network is unknown.
- ``latency``: none of the above crossed its line: what was not saturated is stated, not a cause
  (whether more threads help is for the report to say from the points' throughput as threads grow).
- ``stall``: the server stopped answering during the point (see :mod:`ycsbctl.telemetry.stall`):
  whatever the CPU figures say, the point measured a frozen or unreachable server, never latency.
- ``client-stall``: the load generator itself stopped running during the point (its own event loop
  ran late by ≥ 1 s and by ≥ 10 % of the measured window, or by most of a silence that would
  otherwise read as a ``stall``): a paused, stopped or starved client, never the server's fault.
- ``host-busy``: another benchmark measured on this host at the same time (the user allowed it).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from ycsbctl.cpus import usable_cpus
from ycsbctl.provision.base import Endpoint
from ycsbctl.results.names import BOTTLENECK_SEVERITY, CPU_SATURATED
from ycsbctl.stores import registry
from ycsbctl.stores.capabilities import CoreLimit

if TYPE_CHECKING:
    from ycsbctl.telemetry.stall import Stall

LABELS = ("client-cpu", "server-cpu", "host-cpu", "network", "latency", "stall", "client-stall", "host-busy")
assert set(LABELS) == set(BOTTLENECK_SEVERITY), "a new label needs its place in BOTTLENECK_SEVERITY"
NETWORK_SATURATED = 0.70  # share of the iperf3 baseline
HOST_LOOPBACK_SOURCES = frozenset({"net-lo"})  # whole-host interface counters: everyone's bytes
NETWORK_UNKNOWN = "network unknown (only the host's loopback counters, which include other processes' traffic)"
QUOTA_THROTTLED = 50.0  # % of a CPU quota's periods in which the kernel held a side back


@dataclass
class Bottleneck:
    """``label`` (one of :data:`LABELS`), the figures that led to it, and one sentence saying so."""

    label: str
    evidence: dict[str, Any] = field(default_factory=dict)
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def host_cores() -> int:
    """Cores this process may run on (:func:`ycsbctl.cpus.usable_cpus`: never the servers' set a placed point moved
    the controller onto)."""
    return len(usable_cpus())


def server_cores(endpoint: Endpoint, cores: float | None = None, usable: float | None = None) -> float:
    """The cores the server can use: its CPU limit or the host's cores (never more than the host
    has, nor than ``usable``: what its process's cgroup quota and affinity allow), as its protocol
    counts them (1 for a single-threaded Redis-protocol server, its ``io-threads`` when it has more
    than one, up to the limit). A server on another host
    (``endpoint.host``) is bounded by that host's cores (``cpu_limit_cores``), not this one's."""
    if endpoint.host and endpoint.cpu_limit_cores:
        cores = float(endpoint.cpu_limit_cores)
    cores = float(cores or host_cores())
    limit = min(float(endpoint.cpu_limit_cores or cores), cores, float(usable or cores))
    own = registry.ask(registry.get(endpoint.protocol), CoreLimit.server_cores, endpoint.kind or endpoint.target, limit)
    own = limit if own is None else own
    if endpoint.processes:  # several processes (shards): each its own cores' worth, up to the limit
        own = min(limit, own * len(endpoint.processes))
    io_threads = (endpoint.traits or {}).get("io_threads")
    if isinstance(io_threads, int) and io_threads > 1:  # Redis/Valkey io-threads N: N threads serve clients
        return max(own, min(float(io_threads), limit))
    return own


def io_threads_note(b: Bottleneck, endpoint: Endpoint, host_cores: float) -> Bottleneck:
    """``b`` with what a server with I/O threads (``io-threads`` N > 1) on the client's own host means:
    its threads and the load generator compete for the same cores, so the point says more about the
    host than about the server's threading (a 2-core host leaves the client one core at best). When
    the I/O threads take every core and no figure crossed its line (``latency``), the label is
    ``host-cpu``: client and server took turns on the host's cores (the measured label is kept in
    the evidence as ``measured_label``)."""
    io_threads = (endpoint.traits or {}).get("io_threads")
    if not (isinstance(io_threads, int) and io_threads > 1):
        return b
    b.evidence["server_io_threads"] = io_threads
    if endpoint.host is None:
        share = b.evidence.get("client_share")
        if io_threads < host_cores:
            why = ": client and server compete for those cores"
        elif share is not None and share < 0.5:
            why = (f": no core is left to the client alone, and it ran only {share:.0%} of the time it could — "
                   "client and server threads took turns on the host, so this point measures that contention, "
                   "not what the I/O threads give")
        else:
            why = (": no core is left to the client alone, so this point is likely client-bound (client and "
                   "server take turns on the host), not a measure of what the I/O threads give")
        b.text += f"; the server runs {io_threads} I/O threads on the {host_cores:g} cores the client uses too{why}"
        if io_threads >= host_cores and b.label == "latency":
            # Neither side crossed its line because they took turns on the cores: what limited the
            # point is the host's cores, not the network's or the server's reply time.
            b.evidence["measured_label"] = b.label
            b.label = "host-cpu"
    return b


def _r(v: float | None, nd: int = 1) -> float | None:
    return None if v is None else round(float(v), nd)


def classify(*, server_cpu_pct: float | None, server_cores: float, client_cpu_pct: float | None,
             client_cores: float | None, host_cores: float, net_gbit_s: float | None = None,
             baseline_gbit_s: float | None = None, server_throttled_pct: float | None = None,
             client_throttled_pct: float | None = None, shared_host: bool = True,
             net_source: str | None = None) -> Bottleneck:
    """The label of one run point from its mean figures (CPU in % of one core, network in Gbit/s,
    throttled in % of a cgroup CPU quota's periods: None where there is no quota). ``shared_host``
    False (the server runs on another host) rules out ``host-cpu``: client and server share no cores.
    ``net_source`` in :data:`HOST_LOOPBACK_SOURCES` (whole-host loopback bytes, other processes'
    included) rules out ``network`` whatever the figure: the network is then unknown."""
    host_loopback = net_source in HOST_LOOPBACK_SOURCES
    ev: dict[str, Any] = {
        "server_cpu_pct": _r(server_cpu_pct), "server_cores": server_cores,
        "client_cpu_pct": _r(client_cpu_pct), "client_cores": client_cores, "host_cores": host_cores,
        "net_gbit_s": _r(net_gbit_s, 3), "baseline_gbit_s": _r(baseline_gbit_s, 3),
        "server_throttled_pct": _r(server_throttled_pct), "client_throttled_pct": _r(client_throttled_pct),
        "net_source": net_source, "net_ours": None if net_gbit_s is None else not host_loopback,
    }
    server_share = server_cpu_pct / (100 * server_cores) if server_cpu_pct is not None and server_cores else None
    client_share = client_cpu_pct / (100 * client_cores) if client_cpu_pct is not None and client_cores else None
    host_used = (server_cpu_pct or 0.0) + (client_cpu_pct or 0.0)
    host_share = (host_used / (100 * host_cores) if host_cores and server_cpu_pct is not None and shared_host
                  else None)
    net_share = net_gbit_s / baseline_gbit_s if net_gbit_s is not None and baseline_gbit_s else None
    ev.update(server_share=_r(server_share, 3), client_share=_r(client_share, 3), host_share=_r(host_share, 3),
              net_share=_r(net_share, 3),
              host_cpu_saturated=bool(host_share is not None and host_share >= CPU_SATURATED))
    host_note = (f"; host CPU saturated: client + server use {host_used:.0f}% of {100 * host_cores:.0f}%"
                 if ev["host_cpu_saturated"] else "")

    client_held = client_throttled_pct is not None and client_throttled_pct >= QUOTA_THROTTLED
    server_held = server_throttled_pct is not None and server_throttled_pct >= QUOTA_THROTTLED
    server_saturated = server_held or (server_share is not None and server_share >= CPU_SATURATED)

    def held(pct: float | None) -> str:
        return f"; its CPU quota held it back in {pct:.0f}% of the periods" if pct else ""

    if client_cpu_pct is not None and client_cores and (
            client_held or (client_share is not None and client_share >= CPU_SATURATED)):
        also = (f"; the server is at {server_cpu_pct:.0f}% too, but with the client saturated this is not its limit"
                if server_cpu_pct is not None and server_saturated else "")
        text = (f"client CPU: workers use {client_cpu_pct:.0f}% of {100 * client_cores:.0f}%"
                f"{held(client_throttled_pct)}{also}{host_note}")
        return Bottleneck("client-cpu", ev, text)
    if server_cpu_pct is not None and server_saturated:
        text = (f"server CPU: {server_cpu_pct:.0f}% of the {100 * server_cores:.0f}% it can use"
                f"{held(server_throttled_pct)}{host_note}")
        return Bottleneck("server-cpu", ev, text)
    if ev["host_cpu_saturated"]:
        text = (f"host CPU: client ({client_cpu_pct or 0:.0f}%) and server ({server_cpu_pct:.0f}%) share "
                f"{host_cores:g} cores and use {host_used:.0f}% of {100 * host_cores:.0f}%; neither reached its "
                f"own limit, so this is the host's limit, not the server's")
        return Bottleneck("host-cpu", ev, text)
    if net_share is not None and net_share >= NETWORK_SATURATED and not host_loopback:
        text = f"network: {net_gbit_s:.3f} Gbit/s of the {baseline_gbit_s:.3f} Gbit/s iperf3 baseline ({net_share:.0%})"
        return Bottleneck("network", ev, text)
    parts = [f"server {server_cpu_pct:.0f}% of {100 * server_cores:.0f}%" if server_share is not None else
             "server CPU unknown",
             f"client {client_cpu_pct:.0f}% of "
             f"{100 * client_cores:.0f}%" if client_share is not None and client_cores else
             "client CPU unknown"]
    if host_loopback:
        parts.append(NETWORK_UNKNOWN)
    elif net_share is not None:
        parts.append(f"network {net_share:.0%} of baseline")
    return Bottleneck("latency", ev, "latency: no resource saturated (" + ", ".join(parts) + ")")


def stall_bottleneck(stall: Stall, measured: dict[str, Any] | None, cause: str | None = None) -> dict[str, Any]:
    """The ``stall`` label for a point in which the server stopped answering; the resource figures
    of ``measured`` (the label the CPU and network figures gave) stay as evidence; ``cause``: the store's own
    reason (a primary waiting for a synchronous standby that is gone), said instead of the usual guesses."""
    ev = dict((measured or {}).get("evidence") or {})
    ev.update(stall=stall.to_dict(), measured_label=(measured or {}).get("label"))
    if cause:
        ev.update(stall_cause=cause)
    text = (f"stall: {stall.text()} — {cause or 'the server was frozen, paused or unreachable'}, so this point does "
            "not measure its capacity or latency")
    return Bottleneck("stall", ev, text).to_dict()


def lock_wait_bottleneck(paused_s: float, window_s: float, cause: str,
                         measured: dict[str, Any] | None) -> dict[str, Any]:
    """The ``stall`` label for a pause of the client's loop that the store explains (``cause``: an embedded
    store waiting on a lock another process holds): the store stalled, not the load generator."""
    ev = dict((measured or {}).get("evidence") or {})
    ev.update(client_paused_s=paused_s, measured_label=(measured or {}).get("label"), pause_cause=cause)
    return Bottleneck("stall", ev, f"stall: the store's calls waited {paused_s:.1f} s of the {window_s:.1f} s "
                      f"measured — {cause}").to_dict()


def client_stall_bottleneck(paused_s: float, window_s: float, measured: dict[str, Any] | None,
                            stall: Stall | None = None) -> dict[str, Any]:
    """The ``client-stall`` label: the client's own loop did not run for ``paused_s`` seconds of a
    ``window_s``-second measured window (``stall``: the silence it caused, which is not the server's)."""
    ev = dict((measured or {}).get("evidence") or {})
    ev.update(client_paused_s=paused_s, measured_label=(measured or {}).get("label"))
    if stall is not None:
        ev["stall"] = stall.to_dict()
    text = (f"client stall: the load generator itself did not run for {paused_s:.1f} s of the {window_s:.1f} s "
            "measured (its own event loop ran that late: a paused, stopped or starved client)"
            + (f", which is the {stall.seconds:.1f} s without replies" if stall is not None else "")
            + " — this point does not measure the server")
    return Bottleneck("client-stall", ev, text).to_dict()


def host_busy_bottleneck(other: str, measured: dict[str, Any] | None) -> dict[str, Any]:
    """The ``host-busy`` label: ``other`` (another benchmark) shared this host's cores."""
    ev = dict((measured or {}).get("evidence") or {})
    ev.update(other=other, measured_label=(measured or {}).get("label"), measured_text=(measured or {}).get("text"))
    return Bottleneck("host-busy", ev, f"host busy: {other} measured on this host at the same time").to_dict()
