"""Judging one measured point: ``ok``, ``degraded``, ``failed`` or ``interrupted``, and why.

- ``failed``: no result, the engine failed, no operation was measured (a warm-up took them all),
  or more ERROR/TIMEOUT than ``--max-error-rate``.
- ``degraded``: measured to the end, but the numbers do not describe a healthy server: it stopped
  answering (no completed operation for ≥ 1 s of the measured window, or an operation timed
  out — see :mod:`ycsbctl.telemetry.stall`), or the client itself stopped running for a
  meaningful share of the point (``client-stall``: its own loop lag, see :func:`client_pause_s`),
  or the dataset was not all there when the point began (emptied or reloaded by someone else) or
  went missing while it ran (its lookups NOT_FOUND, see :mod:`ycsbctl.experiment.missing`), or
  another benchmark shared the host.
  A replica (standby) of the primary lost while it ran degrades it too: the deployment measured is not the one
  asked for (:mod:`ycsbctl.telemetry.replicas_lost`).
- ``ok``: none of these.

The reason always carries the first distinct error text the server sent (``OOM command not
allowed…``), which is what the user must fix.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ycsbctl.experiment.missing import find_missing
from ycsbctl.results.model import PhaseResult, overall_summary
from ycsbctl.results.names import FAULT_LABELS, RunStatus
from ycsbctl.telemetry.bottleneck import (
    client_stall_bottleneck,
    host_busy_bottleneck,
    lock_wait_bottleneck,
    stall_bottleneck,
)
from ycsbctl.telemetry.stall import MIN_STALL_S, Stall, find_stall, straggler_stall

_CLIENT_SIDE = ("timed out after",)  # messages of our own, not the server's words
CLIENT_PAUSE_SHARE = 0.10  # of the measured window: a client pause this long (and ≥ MIN_STALL_S) degrades
STALL_CLIENT_SHARE = 0.5  # of a stall: a client pause this long means the silence was the client's


@dataclass
class Verdict:
    """A point's status, its reason (None when ok), and its bottleneck (a stall replaces the label).

    A failed point is never explained as a measured one: whatever failed it (its clients cut short, more ERROR/TIMEOUT
    than --max-error-rate, nothing measured), it keeps no label of what limited its rate (server-cpu, latency …) and
    gets no why line; only a fault label (:data:`~ycsbctl.results.names.FAULT_LABELS`: a stall its reason names too)
    stays. The one rule for every store and every engine, the cluster's included."""

    status: RunStatus
    reason: str | None
    bottleneck: dict[str, Any] | None
    stall: dict[str, Any] | None = None
    busy_only: bool = False  # degraded only because the host was busy: compared like an ok point in paired rounds

    @property
    def compared(self) -> bool:
        """Whether a verdict compares this point: ok, or degraded by a busy host and nothing else (the rounds'
        pairing controls a busy host, and its spread widens the interval; a stall, a paused client or a
        short dataset does not describe the server)."""
        return self.status == RunStatus.OK or (self.status == RunStatus.DEGRADED and self.busy_only)

    def __post_init__(self) -> None:
        if self.status == RunStatus.FAILED and self.bottleneck is not None:
            label = self.bottleneck.get("label")
            self.bottleneck = ({k: v for k, v in self.bottleneck.items() if k != "why"} if label in FAULT_LABELS
                               else None)


def server_error(result: PhaseResult | None) -> str | None:
    """The first distinct error the server (or the connection) gave, not a timeout of ours."""
    if result is None:
        return None
    for e in result.errors:
        if e and not e.startswith(_CLIENT_SIDE):
            return e
    return None


def client_pause_s(result: PhaseResult) -> float:
    """The longest time (s) the client's own event loop did not run (its CLIENT-LAG maximum: a
    process stopped, paused or starved is seen as a timer served that late); 0 without the probe."""
    lag = result.client_lag
    return lag.max_us / 1e6 if lag is not None and lag.operations else 0.0


def client_stalled(result: PhaseResult, stall: Stall | None) -> bool:
    """Whether the client itself stopped running long enough to spoil the point: a pause of
    ≥ :data:`MIN_STALL_S` and ≥ :data:`CLIENT_PAUSE_SHARE` of the measured window, or one covering
    most of a stall (the server cannot be blamed for replies a stopped client never read)."""
    paused = client_pause_s(result)
    if stall is not None and stall.seconds > 0 and paused >= STALL_CLIENT_SHARE * stall.seconds:
        return True
    return paused >= max(MIN_STALL_S, CLIENT_PAUSE_SHARE * result.runtime_ms / 1000)


def _join(*parts: str | None) -> str | None:
    text = "; ".join(p for p in parts if p)
    return text or None


def caused_by_disturbance(stall: Stall, windows: list[tuple[float, float]]) -> bool:
    """Whether ``stall`` (no timeout in it) falls in one of the point's disturbance ``windows`` ((start,
    end) s since the operations began): the effect the point was run to measure, not a sick server."""
    if stall.timeouts:
        return False
    end = stall.from_s + stall.seconds
    return any(stall.from_s < w_end and end > w_start for w_start, w_end in windows)


def _found_stall(result: PhaseResult, disturbances: list[tuple[float, float]] | None,
                 held: set[int] | None = None) -> tuple[Stall | None, str | None]:
    """The server's silence in a point that ran to its end (:func:`find_stall`), or None; and the note that
    says one inside the point's own ``disturbances`` (then not held against the point: no stall). ``held``: seconds
    of its series that say nothing of its server (an alternated target's slices that another target's late
    operations took whole: :mod:`ycsbctl.results.held_slices`), read as unknown."""
    overall = overall_summary(result) if result.status == RunStatus.OK else None
    typical_us = overall.percentiles_us.get(50.0) if overall is not None else None  # µs; None: no median
    stall = None
    if result.status == RunStatus.OK:
        series, typical_s = result.series, (typical_us or 0.0) / 1e6
        if held and "second" in series:
            series = series[~series["second"].isin(held)]
        stall = find_stall(series, result.returns("TIMEOUT"), result.timeout_s, result.warmup_s or 0.0,
                           paced=result.target_rate is not None, typical_s=typical_s)
        late = straggler_stall(result.slices, result.warmup_s or 0.0, typical_s)  # an alternated target's own slices
        if late is not None and (stall is None or late.seconds > stall.seconds):
            late.timeouts = stall.timeouts if stall is not None else 0
            stall = late
    if stall is not None and disturbances and caused_by_disturbance(stall, disturbances):
        return None, (f"no reply for {stall.seconds:.1f} s from {stall.began()}, during the point's own "
                      "disturbance (see the Disturbances table)")
    return stall, None


def _blamed(result: PhaseResult, stall: Stall | None, paused: bool, cause: str | None,
            bottleneck: dict[str, Any] | None,
            stall_cause: Callable[[], str | None] | None) -> tuple[dict[str, Any] | None, str | None]:
    """Who a silence is put on, as (the bottleneck that says it, the text of the reason): the store's lock
    (a client pause the store named the ``cause`` of), the client (a pause it did not), or the server (a stall
    in a point that measured operations, with the store's own reason from ``stall_cause``)."""
    stall_text = stall.text() if stall else None
    if paused and cause:
        window_s = result.runtime_ms / 1000
        bottleneck = lock_wait_bottleneck(client_pause_s(result), window_s, cause, bottleneck)
        stall_text = (
            f"the client's calls waited {client_pause_s(result):.1f} s of the {window_s:.1f} s measured: {cause}"
        )
    elif paused:
        window_s = result.runtime_ms / 1000
        bottleneck = client_stall_bottleneck(client_pause_s(result), window_s, bottleneck, stall)
        stall_text = (f"the client itself did not run for {client_pause_s(result):.1f} s of the {window_s:.1f} s "
                      "measured (a paused, stopped or starved load generator" +
                      (f": the {stall.seconds:.1f} s without replies was the client's, not the server's)"
                       if stall is not None else ")"))
    elif stall is not None and result.operations:
        said = stall_cause() if stall_cause is not None else None
        bottleneck = stall_bottleneck(stall, bottleneck, said)
        stall_text = f"{stall_text}: {said}" if said and stall_text else stall_text
    return bottleneck, stall_text


def judge(result: PhaseResult | None, *, max_error_rate: float, error: str | None = None,
          bottleneck: dict[str, Any] | None = None, dataset_note: str | None = None,
          host_busy: str | None = None, after_note: str | None = None,
          disturbances: list[tuple[float, float]] | None = None,
          pause_cause: Callable[[], str | None] | None = None,
          stall_cause: Callable[[], str | None] | None = None,
          own_wait: Callable[[], str | None] | None = None, replica_note: str | None = None,
          held: set[int] | None = None, held_note: str | None = None) -> Verdict:
    """The verdict on one point. ``error``: why the point could not run (already one line);
    ``dataset_note``: the record count was short before the point; ``after_note``: short (or the
    server another) after it; ``host_busy``: another
    benchmark was measuring on this host (the user overrode the refusal); ``disturbances``: the
    windows of the point's own disturbances (a stall inside one is said, not held against the point);
    ``pause_cause``: asked only when the client's loop paused, the store's own reason for it (an
    embedded store's lock held by another process), which then names the pause instead of the client;
    ``stall_cause``: asked only when the server stopped answering, the store's own reason for it (a primary
    waiting for a synchronous standby that is gone), said after the stall; ``own_wait``: asked only when the client's
    loop paused and ``pause_cause`` named nothing, the store's own reason why our own clients waited on each other
    inside it (SQLite's one write lock shared by the engine's worker processes): a wait of the store's, measured as its
    latency, so the point is neither a client-stall nor degraded for it, and the reason says it; ``replica_note``: a
    replica (standby) of the primary was lost while the point ran (:mod:`ycsbctl.telemetry.replicas_lost`), which
    degrades it: the deployment measured is not the one asked for; ``held``: the seconds of its series that another
    target of its alternated session took whole (not read for a stall), and ``held_note`` what its reason says of
    them (:mod:`ycsbctl.results.held_slices`): no stall of its server, and not held against the point (the engine
    left their time out of its rate, the slice pairs their blocks), said in its reason."""
    if result is None:
        # workers that never connected to a server that answers: its own reason (a connection's first commit
        # waiting for a synchronous standby that is gone), else "did not connect" alone
        said = stall_cause() if stall_cause is not None and error and "did not connect" in error else None
        return Verdict(RunStatus.FAILED, _join(error, said) if said else (error or "no result"), bottleneck)
    said = server_error(result)
    first = said if said and said not in (error or "") else None
    stall, disturbed_note = _found_stall(result, disturbances, held)
    paused = result.status == RunStatus.OK and client_stalled(result, stall)
    cause = pause_cause() if paused and pause_cause is not None else None
    own = own_wait() if paused and not cause and own_wait is not None else None
    own_note = None
    if own:  # not the client's pause: our own writers waiting on the store's lock, inside its calls
        paused = False
        own_note = f"the client's calls waited up to {client_pause_s(result):.1f} s on the store's lock: {own}"
    bottleneck, stall_text = _blamed(result, stall, paused, cause, bottleneck, stall_cause)
    if result.status == RunStatus.OK and not result.operations:
        why = (f"all of them ran in the {result.warmup_s:g} s warm-up: lower --warmup or ask for more operations"
               if result.warmup_s else "a load inserts -p recordcount records: give recordcount ≥ 1"
               if result.phase == "load" else
               # alternated: its partner's late operations kept every client through its slices, not its own fault
               f"{held_note}, and none started in its other slices: give longer points (--duration) or slices "
               "(--slice)" if held_note else "check the target and the workload's operationcount")
        return Verdict(RunStatus.FAILED, _join(error, f"no operation was measured ({why})"), bottleneck)
    if result.status in (RunStatus.FAILED, RunStatus.INTERRUPTED):
        reason = _join(error or (result.errors[0] if result.errors else None), stall_text)
        # cut short: no label or why line for a rate that is not the point's (a 1 s of 4 s "latency"); failed: none
        return Verdict(result.status, reason, None if result.cut_short else bottleneck,
                       stall.to_dict() if stall else None)
    if result.error_rate > max_error_rate:
        rate = (f"{result.error_rate:.1%} of operations failed (ERROR/TIMEOUT), above --max-error-rate "
                f"{max_error_rate:.1%}")
        return Verdict(RunStatus.FAILED, _join(error, rate + (f": {first}" if first else ""), stall_text, dataset_note),
                       bottleneck, stall.to_dict() if stall else None)
    if dataset_note is None:  # when the records were short before the point began, that says it
        missing = find_missing(result)
        dataset_note = _join(missing.text() if missing is not None else None, after_note)
    if host_busy and stall is None and not paused:
        bottleneck = host_busy_bottleneck(host_busy, bottleneck)
    if stall is not None or paused or dataset_note or host_busy or replica_note:
        errors = result.returns("ERROR")
        err = f"{errors:,} ERROR: {first}" if first and errors else None
        return Verdict(RunStatus.DEGRADED, _join(stall_text, replica_note, held_note, dataset_note, host_busy, err,
                                                 error, disturbed_note, own_note),
                       bottleneck,
                       stall.to_dict() if stall else None,
                       busy_only=bool(host_busy) and stall is None and not paused and not dataset_note
                       and not replica_note)
    errors = result.returns("ERROR")
    return Verdict(RunStatus.OK, _join(error, held_note, disturbed_note,
                                       f"{errors:,} ERROR: {first}" if first and errors else None,
                                       own_note), bottleneck)
