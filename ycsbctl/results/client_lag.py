"""Whether a point's tail is the client's own delay: its event-loop lag (and, paced, its late starts)
against the latency it measured.

Every engine worker probes its own loop (``CLIENT-LAG``: how late it serves a kernel timer, µs). A
reply that arrives while the loop is busy waits that long before it is timed, so lag is latency the
server never caused. A point is flagged when

- the lag's p99.9 reaches :data:`TAIL_SHARE` of the operations' p99 (the tail is partly the client's), or
- the lag's maximum reaches :data:`MAX_SHARE` of the operations' maximum (the worst operation may be
  the client's pause, not the server's).

A paced point also measures how late the client started its operations (``SCHEDULE-LAG``, µs): the
intended latency YCSB reports runs from the due time, so a late start is counted as latency. It is
labelled :data:`PACING_LABEL` when that lag's p99 reaches :data:`TAIL_SHARE` of the operations' p99.

An embedded store (its store records ``has_server`` False: SQLite) runs inside the client's own process and
event loop: a loop that ran late was running the store's calls (one at a time, whichever client made them), so
the lag is the store's own time, no fault of the client's. Its line says so (:data:`IN_CLIENT_MARK`) rather than blaming
the client.
"""

from __future__ import annotations

import math

from ycsbctl.results.model import PhaseResult
from ycsbctl.results.names import Operation, is_base_operation

TAIL_SHARE = 0.5
MAX_SHARE = 0.5
LABEL = "client-lag"
PACING_LABEL = "client-pacing"
# how the line of a store that runs inside the client begins (the report's finding tells the two kinds apart by it)
IN_CLIENT_MARK = "client lag (the store's own time)"


def _measured(result: PhaseResult) -> list:
    """The actual-latency measurements that ran: READ, READ-FAILED, UPDATE, … or a plug-in's (no ``Intended-``)."""
    return [s for n, s in result.ops.items() if s.operations and (
        (op := n.removesuffix("-FAILED")) == Operation.READ_MODIFY_WRITE or is_base_operation(op))]


def _base_percentile(result: PhaseResult, p: float) -> float:
    """The highest ``p`` percentile (µs) over the measurements that ran."""
    return max((s.percentile(p) for s in _measured(result)), default=math.nan)


def _base_max(result: PhaseResult) -> float:
    return max((s.max_us for s in _measured(result)), default=math.nan)


def client_lag_warning(result: PhaseResult | None, store_in_client: bool = False) -> str | None:
    """One sentence when the client's own loop lag is a sizeable share of the point's tail, else None.
    ``store_in_client``: the store runs inside the client's process and loop (its endpoint's ``has_server`` is
    False), so the sentence names the lag the store's time, not the client's."""
    lag = result.client_lag if result is not None else None
    if lag is None or not lag.operations:
        return None
    lag999, lag_max = lag.percentile(99.9), lag.max_us
    p99, op_max = _base_percentile(result, 99.0), _base_max(result)  # type: ignore[arg-type]
    parts = []
    if p99 > 0 and lag999 >= TAIL_SHARE * p99:
        parts.append(f"its p99.9 ({lag999 / 1000:.2f} ms) is {lag999 / p99:.0%} of the operations' p99 "
                     f"({p99 / 1000:.2f} ms)")
    if op_max > 0 and lag_max >= MAX_SHARE * op_max:
        parts.append(f"its maximum ({lag_max / 1000:.1f} ms) is {lag_max / op_max:.0%} of the slowest "
                     f"operation's ({op_max / 1000:.1f} ms)")
    if not parts:
        return None
    if store_in_client:
        return (f"{IN_CLIENT_MARK}: the event loop ran late — " + "; ".join(parts) + ": the store runs inside the "
                "client's own process and loop, so that time is the loop running the store's own calls (one at a "
                "time), not a client that could not keep up")
    return ("client lag: the load generator's own event loop ran late — " + "; ".join(parts) +
            ": that part of the latency is the client's, not the server's")


def schedule_lag_warning(result: PhaseResult | None) -> str | None:
    """One sentence when a paced point's late starts are a sizeable share of its tail, else None."""
    lag = result.schedule_lag if result is not None else None
    if lag is None or not lag.operations:
        return None
    lag99, p99 = lag.percentile(99.0), _base_percentile(result, 99.0)  # type: ignore[arg-type]
    if not (p99 > 0 and lag99 >= TAIL_SHARE * p99):
        return None
    return (f"{PACING_LABEL}: the load generator started operations late — its schedule lag p99 "
            f"({lag99 / 1000:.2f} ms) is {lag99 / p99:.0%} of the operations' p99 ({p99 / 1000:.2f} ms): the "
            "intended latency counts that lateness as the server's")
