"""What a disturbance did to the traffic, from the point's 100 ms series (pure functions).

- the reference rate: the median throughput (ops/s) of the whole measured seconds in the
  :data:`BEFORE_S` seconds before the event (its 100 ms intervals when no whole second is there);
- the stall: the longest run of 100 ms intervals below :data:`STALL_FRACTION` of that rate, looked
  for from the event's start to :data:`SEARCH_AFTER_S` after its command returned (whole intervals:
  a 0.25 s stall counts 0.1 or 0.2 s, by where it fell); ``stall_est_s`` adds the share of the
  interval just before and just after that run which the throughput missed (its deficit against the
  reference rate), an estimate of the stall's length finer than the intervals (with no whole
  interval stalled: the deficit of the command's intervals and the next);
- the slowdown: the 100 ms intervals below :data:`SLOW_FRACTION` of that rate (the stall's among them), from
  the event's start for as long as they go on after its command's and its stall's intervals, with gaps of
  at most :data:`SLOW_GAP` interval above the line; one that begins later is not this event's (a DEL freed
  by lazyfree, an UNLINK: the server answers, slower, while a thread of its own frees the key); ``slow_s``
  counts them;
- during (the affected window): from the event's interval to the last of the command's, of the stall's
  and of the slowdown's intervals; operations lost = the reference rate over that window less the
  operations done in it (≥ 0);
- the maximum latency during (and in the interval after it when the command returned in its last interval: the
  requests that waited behind it are answered as it returns, which may fall just past that interval's end), the p99
  before (the reference seconds), during, and after (:data:`AFTER_S` seconds from the end of "during"), from the exactly
  merged HDR counts (µs); the client's own loop lag (CLIENT-LAG) during, so that a pause of the client is not taken for
  the server's.

Events whose affected windows meet are not measured apart here (each would count the other's losses):
:mod:`ycsbctl.results.overlap` measures them as one and charges the cost once.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass

import numpy as np

from ycsbctl.results import histogram as hdr
from ycsbctl.results.fine import FineSeries

STALL_FRACTION = 0.1
SLOW_FRACTION = 0.5
SLOW_GAP = 1  # intervals above the slow line inside a slowdown (100 ms intervals of a slowed server scatter)
BEFORE_S = 3.0
AFTER_S = 3.0
SEARCH_AFTER_S = 1.0


@dataclass
class EventEffect:
    """The effect of one event (times in s since the operations began, rates in ops/s, latencies µs)."""

    pre_ops_per_s: float
    stall_s: float
    stall_start_s: float | None
    stall_est_s: float
    slow_s: float
    during_s: float
    affected_end_s: float  # where the affected window ("during") ends, s since the operations began
    ops_lost: float
    max_latency_us: float
    p99_before_us: float
    p99_during_us: float
    p99_after_us: float
    client_lag_max_us: float

    def to_dict(self) -> dict[str, float | None]:
        return asdict(self)


def longest_run_below(values: Sequence[float], limit: float) -> tuple[int, int]:
    """``(first index, length)`` of the longest run of consecutive values below ``limit`` ((0, 0): none)."""
    best, best_at, run = 0, 0, 0
    at = 0  # set again where each run begins
    for i, v in enumerate(values):
        if v < limit:
            if run == 0:
                at = i
            run += 1
            if run > best:
                best, best_at = run, at
        else:
            run = 0
    return best_at, best


def reference_rate(fine: FineSeries, start_s: float, before_s: float = BEFORE_S,
                   skip: Collection[int] = ()) -> float:
    """Median ops/s of the whole measured seconds in the ``before_s`` seconds before ``start_s``; of
    the measured 100 ms intervals there when no whole second is (NaN: nothing measured before).
    ``skip``: intervals an earlier event affected — a second holding one is left out (its stall is not the
    traffic's rate); when that leaves none, the nearest unaffected seconds before them (as many as
    ``before_s`` holds), and when there are none, the seconds as they are."""
    dt = fine.interval_s
    per_s = round(1 / dt)
    first = max(math.ceil(fine.warmup_s - 1e-9), math.ceil(start_s - before_s - 1e-9))
    seconds: Sequence[int] = range(first, math.floor(start_s + 1e-9))
    if skip:
        measured = range(math.ceil(fine.warmup_s - 1e-9), math.floor(start_s + 1e-9))
        clean = [s for s in measured if not any(s * per_s + i in skip for i in range(per_s))]
        near = [s for s in clean if s >= first] or clean[-max(1, math.ceil(before_s - 1e-9)):]
        seconds = near or seconds
    rates = [sum(fine.operations.get(s * per_s + i, 0) for i in range(per_s)) for s in seconds]
    if rates:
        return float(np.median(rates))
    k_first = max(math.ceil(fine.warmup_s / dt - 1e-9), math.ceil((start_s - before_s) / dt - 1e-9))
    ks = range(k_first, math.floor(start_s / dt + 1e-9))
    kept = [k for k in ks if k not in skip] or list(ks)
    return float(np.median([fine.operations.get(k, 0) / dt for k in kept])) if kept else math.nan


def _max_us(h) -> float:
    return float(h.get_max_value()) if h.get_total_count() else math.nan


def _p99_us(h) -> float:
    return float(hdr.percentiles_us(h, [99.0])[99.0]) if h.get_total_count() else math.nan


def _slow_end(rate, limit: float, k_start: int, k_from: int, k_last: int) -> int | None:
    """The last interval of the slowdown (``rate(k)`` below ``limit``) from ``k_start`` on that goes on past
    ``k_from`` (the last of the command's and the stall's intervals) with gaps of at most :data:`SLOW_GAP`
    intervals (None: no interval below it)."""
    last = None
    for k in range(k_start, k_last + 1):
        if rate(k) < limit:
            last = k
        elif k > k_from and k - max(k_from, last if last is not None else k_from) > SLOW_GAP:
            break
    return last


def effect(fine: FineSeries, start_s: float, end_s: float, until_s: float | None = None,
           skip: Collection[int] = ()) -> EventEffect:
    """The effect of an event that began at ``start_s`` and whose command returned at ``end_s``
    (s since the operations began) on the series ``fine`` (see the module for the definitions);
    ``until_s``: the affected window reaches at least there (overlapping events charged together:
    :mod:`ycsbctl.results.overlap`); ``skip``: intervals earlier events affected, left out of the reference
    (:func:`reference_rate`)."""
    dt = fine.interval_s
    k_start = math.floor(start_s / dt + 1e-9)
    k_end = max(k_start, math.floor(end_s / dt + 1e-9))
    last = fine.last_full()
    k_last = last if last is not None else k_end
    pre = reference_rate(fine, start_s, skip=skip)
    k_search = min(k_last, k_end + round(SEARCH_AFTER_S / dt))
    k_until = k_start if until_s is None else math.ceil(until_s / dt - 1e-9) - 1
    k_search = max(k_search, min(k_last, k_until))
    search = list(range(k_start, k_search + 1))
    rates = [fine.operations.get(k, 0) / dt for k in search]
    # a NaN reference (no interval before the event) has no value below it: no stall, (0, 0)
    stall_at, stall_n = longest_run_below(rates, STALL_FRACTION * pre)
    stall_end = search[stall_at] + stall_n - 1 if stall_n else k_start
    measured = fine.intervals()

    def missed(k: int) -> float:
        """The share of interval k the throughput missed against the reference: a gap (nothing completed,
        which the engine leaves out of ``operations``) missed all of it; past the last measured interval the
        phase had ended and missed nothing."""
        return min(1.0, max(0.0, 1.0 - fine.operations.get(k, 0) / (pre * dt))) if k <= measured[-1] else 0.0

    if math.isnan(pre):
        est = math.nan
    elif not pre:  # nothing completed in the reference's intervals: nothing expected, nothing missed
        est = 0.0
    elif stall_n:  # whole intervals, and the part of each edge that was stalled
        est = stall_n * dt + dt * (missed(search[stall_at] - 1) + missed(stall_end + 1))
    else:  # shorter than an interval, or split over two: what the command's intervals (and the next) missed
        est = dt * sum(missed(k) for k in range(k_start, k_end + 2))
    def rate(k: int) -> float:
        return fine.operations.get(k, 0) / dt

    slow_end = _slow_end(rate, SLOW_FRACTION * pre, k_start, max(k_end, stall_end, k_until), k_last)
    during = list(range(k_start, max(k_end, stall_end, k_until, slow_end if slow_end is not None else k_start) + 1))
    slow_n = sum(1 for k in during if k <= k_last and rate(k) < SLOW_FRACTION * pre)
    done = sum(fine.operations.get(k, 0) for k in during)
    lost = max(0.0, pre * len(during) * dt - done) if not math.isnan(pre) else math.nan
    k_before = max(math.ceil(fine.warmup_s / dt - 1e-9), k_start - round(BEFORE_S / dt))
    before = range(k_before, k_start)
    after = range(during[-1] + 1, min(k_last, during[-1] + round(AFTER_S / dt)) + 1)
    h_during = fine.latency_of(during)
    # the requests that waited behind the command are answered as it returns: when it returned in the last interval
    # of "during", their replies may land in the next one (a DEL that returned 0.1 ms before an interval's end)
    answered = during + [during[-1] + 1] if k_end == during[-1] and during[-1] + 1 <= k_last else during
    return EventEffect(
        pre_ops_per_s=pre,
        stall_s=round(stall_n * dt, 6),
        stall_start_s=round(search[stall_at] * dt, 6) if stall_n else None,
        stall_est_s=round(est, 6),
        slow_s=round(slow_n * dt, 6),
        during_s=round(len(during) * dt, 6),
        affected_end_s=round((during[-1] + 1) * dt, 6),
        ops_lost=lost,
        max_latency_us=_max_us(fine.latency_of(answered)),
        p99_before_us=_p99_us(fine.latency_of(before)),
        p99_during_us=_p99_us(h_during),
        p99_after_us=_p99_us(fine.latency_of(after)),
        client_lag_max_us=_max_us(fine.lag_of(during)),
    )
