"""A point's "why" (:mod:`ycsbctl.telemetry.why`) once it is judged, and whether its host was busy: another
benchmark (the host claim) or foreign CPU measured during the point (:func:`~ycsbctl.telemetry.why.foreign_busy`)."""

from __future__ import annotations

from typing import Any

from ycsbctl.results.model import PhaseResult
from ycsbctl.telemetry.why import explain, foreign_busy


def host_busy(others: list[str], bottleneck: dict[str, Any] | None) -> str | None:
    """Why the point shared its host, or None: another benchmark first, else the foreign CPU."""
    if others:
        return f"another benchmark ran on this host meanwhile ({others[0]})"
    return foreign_busy(bottleneck)


def mean_latency_us(result: PhaseResult | None) -> float | None:
    """The mean latency (µs) of every measured operation of ``result``."""
    if result is None:
        return None
    ops = [s for s in result.ops.values() if s.operations and s.mean_us == s.mean_us]
    n = sum(s.operations for s in ops)
    return sum(s.mean_us * s.operations for s in ops) / n if n else None


SINGLE_COMMAND_STALL_S = 0.1  # a disturbance whose stall lasted this long is what the point's tail says


def single_command(events: Any) -> str | None:
    """``single command: del:set:2M@5s held the server 1,657 ms (SLOWLOG 1,653 ms) …`` for the point's
    disturbance that stalled the traffic longest (≥ :data:`SINGLE_COMMAND_STALL_S`), from its events
    (:mod:`ycsbctl.results.disturbance`); None when none did."""
    if events is None or not len(events) or "stall_s" not in events:
        return None
    stalled = events[events["stall_s"].fillna(0) >= SINGLE_COMMAND_STALL_S]
    if not len(stalled):
        return None
    e = stalled.loc[stalled["stall_s"].idxmax()]
    slow = "" if e.get("server_s") != e.get("server_s") or e.get("server_s") is None else \
        f" (SLOWLOG {1000 * e['server_s']:,.0f} ms)"
    return (f"single command: {e['event']} at {e['started_s']:.1f} s held the server {1000 * e['command_s']:,.0f} ms"
            f"{slow}, a {e['stall_s']:.2f} s stall in which every client waited ({e['ops_lost']:,.0f} operations lost)")


def with_why(bottleneck: dict[str, Any] | None, target: str, threads: int,
             result: PhaseResult | None, events: Any = None) -> dict[str, Any] | None:
    """``bottleneck`` with its ``why`` line (unchanged when there is none); a disturbance that stalled the
    traffic (``events``) comes first: it is what the point's tail says."""
    if not bottleneck:
        return bottleneck
    line = explain(bottleneck, target, threads, mean_latency_us(result))
    command = single_command(events)
    if command:
        line = f"{command}; otherwise {line}" if line else command
    return {**bottleneck, "why": line} if line else bottleneck
