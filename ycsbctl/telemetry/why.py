"""One line per point that says why, from its evidence (:mod:`ycsbctl.telemetry.evidence`), beside the
short bottleneck label. A cause is named only when a measurement shows it, with the figure; otherwise
the line says what was not saturated and "cause unknown".

- ``server-cpu``: a server whose cgroup CPU quota held it back in ≥ 20 % of the quota's periods (its
  ``cpu.stat``) is named **held by its CPU quota** first, with the share of periods and the seconds; then how much of a
  core, how much of that in the kernel, whether it also waited for a CPU; the server CPU and packets per operation.
- ``client-cpu``: the load generator's workers' CPU against what they may use.
- ``host-cpu``: how long each side was runnable but waiting for a CPU while they shared the cores.
- ``host-busy``: what the point's own evidence would have said (the label it measured: the server's CPU against what it
  may use, a wait, the network), then the foreign program that used the host's CPU (or the steal), or the other
  benchmark.
- ``network``: the traffic on our connections against the iperf3 baseline, bytes and packets per op.
- ``latency``: **throttled** when the server's CPU quota held it back in ≥ 20 % of its periods (a throttled
  thread is runnable, so it would otherwise read as a cpu wait); a **cpu wait** when either side was runnable but
  waiting for a CPU ≥ 20 % of the point (a CPU hog on the client's core, a host shared with other work); an **off-CPU
  wait** when the server's working threads, sampled while they were off a CPU, mostly slept on a lock, a timer or I/O
  (not waiting for a request) — the kernel function named; **network delay** when our connections' smallest round trip
  is at least half of the mean latency; else "cause unknown" with what was not saturated.
- ``stall``, ``client-stall``: the label's own sentence (already evidence).

:func:`foreign_busy` says when the host's other processes (or the hypervisor) took more than the
stated share of its CPU (:func:`ycsbctl.telemetry.host.host_busy_share`).
"""

from __future__ import annotations

from typing import Any

from ycsbctl.telemetry.host import host_busy_share

ACTIVE_PCT = 1.0  # % of one core: a thread role that ran less than this serves no request
# Of the busiest role's CPU: a role that ran less than this beside it is a helper (Redis's bio_lazy_free freeing
# an UNLINKed key, parked on its job queue's futex the rest of the time), not where requests wait.
HELPER_SHARE = 0.1
WAITING_SHARE = 0.5  # of an active role's thread samples: asleep on a lock, a timer or I/O
RUNQ_NOTE_PCT = 10.0  # % of the point: a side waiting for a CPU this long is said
CPU_WAIT_PCT = 20.0  # % of the point: a side that waited for a CPU this long, with nothing saturated, was held up by it
THROTTLED_PCT = 20.0  # % of its CPU quota's periods: a server the kernel held back this often is named throttled
RTT_SHARE = 0.5  # of the mean latency: the connections' round trip this large is the network's delay
NOT_IDLE = ("lock", "sleep", "io", "other")


def _pct(v: Any) -> float:
    try:
        return float(v or 0.0)
    except (TypeError, ValueError):
        return 0.0


def foreign_busy(bottleneck: dict[str, Any] | None) -> str | None:
    """Why the point shared its host (one clause), or None: the foreign processes' CPU or the steal over
    the measured window reached the stated share of the host's cores."""
    share = host_busy_share()
    ev = (bottleneck or {}).get("evidence") or {}
    host, cores = ev.get("host") or {}, ev.get("host_cores") or 0
    if share is None or not host or not cores:
        return None
    capacity = 100.0 * cores
    foreign, steal = _pct(host.get("foreign_pct")), _pct(host.get("host_steal_pct"))
    if foreign >= share * capacity:
        top = host.get("foreign_top") or {}
        names = ", ".join(f"{n} {p:.0f}%" for n, p in list(top.items())[:3]) or "processes that ended between two scans"
        return (f"other programs used {foreign:.0f}% of a core ({foreign / capacity:.0%} of the host's {cores:g} "
                "cores, "
                f"above {share:.0%}) during the point: {names}")
    if steal >= share * capacity:
        return (
            f"the hypervisor gave {steal:.0f}% of a core to other machines (steal: {steal / capacity:.0%} of the host)"
        )
    return None


def _busiest(roles: dict[str, dict[str, Any]]) -> tuple[str, dict[str, Any]] | None:
    return next(iter(roles.items()), None) if roles else None


def _kernel(role: dict[str, Any]) -> float | None:
    cpu = _pct(role.get("user_pct")) + _pct(role.get("system_pct"))
    return _pct(role.get("system_pct")) / cpu if cpu > 0 else None


def _who(target: str, role: str, fig: dict[str, Any]) -> str:
    n = int(fig.get("threads") or 1)
    if role == "main":
        return f"{target}'s main thread" + ("s" if n > 1 else "")
    return f"{target}'s {role} thread" + (f"s ({n})" if n > 1 else "")


def _per_op(ev: dict[str, Any], pct: float | None) -> float | None:
    tput = ev.get("throughput_ops")
    return None if pct is None or not tput else pct / 100.0 * 1e6 / tput


def _costs(ev: dict[str, Any]) -> str:
    """``; 22 µs of server CPU and 2.1 packets per operation``."""
    parts = []
    us = _per_op(ev, ev.get("server_cpu_pct"))
    if us is not None:
        parts.append(f"{us:.0f} µs of server CPU")
    wire, tput = ev.get("wire") or {}, ev.get("throughput_ops")
    if wire.get("packets_per_s") and tput:
        parts.append(f"{wire['packets_per_s'] / tput:.1f} packets")
    return f"; {' and '.join(parts)} per operation" if parts else ""


def off_cpu_wait(roles: dict[str, dict[str, Any]]) -> tuple[str, dict[str, Any], int, int, str] | None:
    """(role, figures, waiting samples, samples, what it slept in) of the first working role whose
    thread samples were mostly asleep on a lock, a timer or I/O; None when none was."""
    busiest = max((_pct(fig.get("oncpu_pct")) for fig in roles.values()), default=0.0)
    for role, fig in roles.items():
        states = fig.get("states") or {}
        total = sum(states.values())
        waiting = sum(states.get(s, 0) for s in NOT_IDLE)
        ran = _pct(fig.get("oncpu_pct"))
        if not total or (role != "main" and (ran < ACTIVE_PCT or ran < HELPER_SHARE * busiest)):
            continue
        if waiting >= WAITING_SHARE * total:
            where = ", ".join(f"{k} {n}" for k, n in list((fig.get("wchan") or {}).items())[:2])
            kind = max(NOT_IDLE, key=lambda s: states.get(s, 0))
            return role, fig, waiting, total, f"{kind}: {where}" if where else kind
    return None


def quota_held(ev: dict[str, Any]) -> str | None:
    """``held by its CPU quota (0.5 cores): throttled in 83 % of periods, 1.9 s of the 4.0 s measured``, or None:
    no quota, or it held the server back in fewer than :data:`THROTTLED_PCT` % of its periods."""
    pct = ev.get("server_throttled_pct")
    if pct is None or _pct(pct) < THROTTLED_PCT:
        return None
    cores = ev.get("server_quota_cores")
    quota = f" ({cores:g} core{'' if cores == 1 else 's'})" if cores else ""
    secs, measured = ev.get("server_throttled_s"), ev.get("measured_s")
    held = f", {secs:.1f} s" if secs is not None else ""
    if held and measured:
        held += f" of the {measured:.1f} s measured"
    return f"held by its CPU quota{quota}: throttled in {_pct(pct):.0f} % of periods{held}"


def _runq_per_thread(roles: dict[str, dict[str, Any]]) -> float:
    """How long the busiest role's threads each waited for a CPU (% of the point, at most 100)."""
    top = _busiest(roles)
    if top is None:
        return 0.0
    _, fig = top
    return _pct(fig.get("runq_pct")) / max(1.0, float(fig.get("threads") or 1))


def explain(bottleneck: dict[str, Any] | None, target: str, threads: int | None = None,
            mean_latency_us: float | None = None) -> str | None:
    """The point's "why" line (None without a bottleneck)."""
    if not bottleneck:
        return None
    label, ev = bottleneck.get("label"), bottleneck.get("evidence") or {}
    server_roles, server, client = ev.get("server_threads") or {}, ev.get("server") or {}, ev.get("client") or {}
    if label in ("stall", "client-stall"):
        return bottleneck.get("text")
    if label == "host-busy":  # what the point's own evidence says first, then why its host was not its own
        busy = f"host-busy: {ev.get('other') or bottleneck.get('text')}"
        measured = ev.get("measured_label")
        own = explain({"label": measured, "evidence": ev, "text": ev.get("measured_text")}, target, threads,
                      mean_latency_us) if measured and measured != "host-busy" else None
        return f"{own}; {busy}" if own else busy
    if label == "server-cpu":
        top, held = _busiest(server_roles), quota_held(ev)
        if top is None:
            return f"server-cpu: {held}{_costs(ev)}" if held else f"{bottleneck.get('text')}{_costs(ev)}"
        role, fig = top
        k = _kernel(fig)
        ran = fig["busiest_pct"] if int(fig.get("threads") or 1) == 1 else fig["oncpu_pct"]
        text = f"server-cpu: {held + '; ' if held else ''}{_who(target, role, fig)} ran {ran:.0f}% of a core"
        if k is not None:
            text += f", {k:.0%} of it in the kernel"
        if _pct(server.get("runq_pct")) >= RUNQ_NOTE_PCT:
            text += f", and waited for a CPU {_pct(server.get('runq_pct')):.0f}% of the point"
        return text + _costs(ev)
    if label == "client-cpu":
        cores = ev.get("client_cores") or 1
        text = (f"client-cpu: the load generator's workers ran {_pct(ev.get('client_cpu_pct')):.0f}% of the "
                f"{100 * cores:.0f}% they may use")
        if client:
            text += f" ({_pct(client.get('kernel_share')):.0%} in the kernel)"
        if _pct(client.get("runq_pct")) >= RUNQ_NOTE_PCT:
            text += f" and waited for a CPU {_pct(client.get('runq_pct')):.0f}% of the point"
        return text + f"; the server ran {_pct(ev.get('server_cpu_pct')):.0f}%: the client set this number"
    if label == "host-cpu":
        cores = ev.get("host_cores") or 1
        used = _pct(ev.get("server_cpu_pct")) + _pct(ev.get("client_cpu_pct"))
        return (f"host-cpu: the server waited for a CPU {_pct(server.get('runq_pct')):.0f}% of the point and the "
                f"client {_pct(client.get('runq_pct')):.0f}%, while together they ran {used:.0f}% of the host's "
                f"{100 * cores:.0f}%: they took turns on its cores")
    if label == "network":
        wire, tput = ev.get("wire") or {}, ev.get("throughput_ops")
        per = (f"; {wire['bytes_per_s'] / tput:,.0f} bytes and {wire['packets_per_s'] / tput:.1f} packets per operation"
               if wire.get("bytes_per_s") and tput else "")
        return f"{bottleneck.get('text')}{per}"
    return _latency(bottleneck, ev, target, server_roles, mean_latency_us)


def _latency(bottleneck: dict[str, Any], ev: dict[str, Any], target: str, roles: dict[str, dict[str, Any]],
             mean_latency_us: float | None) -> str:
    wait = off_cpu_wait(roles)
    if wait is not None:
        role, fig, waiting, total, where = wait
        n = max(1.0, float(fig.get("threads") or 1))
        off = max(0.0, 100.0 - (_pct(fig.get("oncpu_pct")) + _pct(fig.get("runq_pct"))) / n)
        return (f"off-CPU wait: {_who(target, role, fig)} slept in {waiting} of {total} samples ({where}), "
                f"each off a CPU {off:.0f}% of the point on average, while the server ran "
                f"{_pct(ev.get('server_cpu_pct')):.0f}% "
                f"of the {100 * (ev.get('server_cores') or 1):.0f}% it may use")
    waited = {"client's workers": _runq_per_thread(ev.get("client_threads") or {}),
              "server": _runq_per_thread(roles)}
    held = quota_held(ev)
    if held:  # the kernel held a runnable server back: its run-queue wait is the quota's doing
        return (f"throttled: the server was {held}; it ran {_pct(ev.get('server_cpu_pct')):.0f}% of a core and waited "
                f"for a CPU {waited['server']:.0f}% of the point")
    side, most = max(waited.items(), key=lambda kv: kv[1])
    if most >= CPU_WAIT_PCT:
        other = "server" if side != "server" else "client's workers"
        foreign = (ev.get("host") or {}).get("foreign_pct")
        beside = f"; other programs used {foreign:.0f}% of a core meanwhile" if foreign else ""
        return (f"cpu wait: the {side} waited for a CPU {most:.0f}% of the point (runnable, not running; "
                f"the {other} {waited[other]:.0f}%), while the server ran {_pct(ev.get('server_cpu_pct')):.0f}% "
                "and the client "
                f"{_pct(ev.get('client_cpu_pct')):.0f}% of a core: the host's cores were not theirs when "
                f"needed{beside}")
    rtt = (ev.get("wire") or {}).get("minrtt_ms")
    if rtt and mean_latency_us and rtt * 1000 >= RTT_SHARE * mean_latency_us:
        return (f"network delay: our connections' smallest round trip is {rtt:.2f} ms of the "
                f"{mean_latency_us / 1000:.2f} ms an operation took on average")
    parts = []
    if ev.get("server_share") is not None:
        parts.append(f"server {_pct(ev.get('server_cpu_pct')):.0f}% of {100 * (ev.get('server_cores') or 1):.0f}%")
    if ev.get("client_share") is not None:
        parts.append(f"client {_pct(ev.get('client_cpu_pct')):.0f}% of {100 * (ev.get('client_cores') or 1):.0f}%")
    if ev.get("net_share") is not None and ev.get("net_ours", True):
        parts.append(f"network {ev['net_share']:.0%} of the baseline")
    if rtt:
        parts.append(f"round trip {rtt:.2f} ms")
    return f"latency: nothing measured was saturated ({', '.join(parts) or 'no figures'}) — cause unknown"
