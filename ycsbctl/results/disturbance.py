"""What a disturbance did to the traffic, from the point's 100 ms series (pure functions).

- the reference rate: the median throughput (ops/s) of the whole measured seconds in the
  :data:`BEFORE_S` seconds before the event (its 100 ms intervals when no whole second is there);
- the stall: the longest run of 100 ms intervals below :data:`STALL_FRACTION` of that rate, looked
  for from the event's start to :data:`SEARCH_AFTER_S` after its command returned (whole intervals:
  a 0.25 s stall counts 0.1 or 0.2 s, by where it fell); ``stall_est_s`` adds the share of the
  interval just before and just after that run which the throughput missed (its deficit against the
  reference rate), an estimate of the stall's length finer than the intervals (with no whole
  interval stalled: the deficit of the command's intervals and the next);
- the affected window ("during") ends when the store is back: from the event's interval, past the last of the
  command's, the stall's and (``busy_until_s``) the store's own background work's intervals (a key freed by a thread
  of its own after an UNLINK: Redis INFO ``lazyfree_pending_objects`` back to 0), to the first run of
  :data:`BACK_SAMPLES` intervals back within the band of the window before it — at or above ``the reference rate −
  max(`` :data:`BAND_SIGMAS` ``× the robust spread (scaled median absolute deviation) of its 100 ms samples, one
  operation an interval)``, never below :data:`SLOW_FRACTION` of it; a window still below the band (or the store
  still busy) when the point ends is **open**: ``window_open`` is true and its cost a lower bound ("at least");
- the slowdown: the 100 ms intervals of that window below :data:`SLOW_FRACTION` of the reference rate
  (``slow_s``; the stall's among them) and the longest run of them (``slow_run_s``);
- operations lost (the cost): the area between the reference rate and the series over the whole window: the
  reference rate × its length less the operations done in it (≥ 0);
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
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass

import numpy as np
from scipy.stats import median_abs_deviation

from ycsbctl.results import histogram as hdr
from ycsbctl.results.fine import FineSeries

STALL_FRACTION = 0.1
SLOW_FRACTION = 0.5
BAND_SIGMAS = 3.0  # the band of the window before an event: the reference rate less this many robust spreads
BACK_SAMPLES = 3  # 100 ms intervals in a row back within that band: the store is back
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
    ops_lost: float  # the cost: operations short of the reference rate over the window (a lower bound when open)
    max_latency_us: float
    p99_before_us: float
    p99_during_us: float
    p99_after_us: float
    client_lag_max_us: float
    slow_run_s: float = 0.0  # the longest run of intervals below SLOW_FRACTION of the reference rate, s
    window_open: bool = False  # the point ended before the store was back: the cost is "at least"
    band_low_ops_per_s: float = math.nan  # the band's lower edge, ops/s: an interval at or above it is back

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


def _interval_at(t_s: float, dt: float) -> int:
    """The interval (``dt`` s long) that holds ``t_s`` s since the operations began; a time on an interval's start, to
    a float's noise, is in that interval."""
    return math.floor(t_s / dt + 1e-9)


def reference_rate(fine: FineSeries, start_s: float, before_s: float = BEFORE_S,
                   skip: Collection[int] = ()) -> float:
    """Median ops/s of the whole measured seconds in the ``before_s`` seconds before ``start_s``; of
    the measured 100 ms intervals there when no whole second is (NaN: nothing measured before).
    ``skip``: intervals an earlier event affected — a second holding one is left out (its stall is not the
    traffic's rate); when that leaves none, the nearest unaffected seconds before them (as many as
    ``before_s`` holds), and when there are none, the seconds as they are."""
    dt = fine.interval_s
    per_s = round(1 / dt)
    warm = math.ceil(fine.warmup_s - 1e-9)  # the first whole second after the warm-up
    end = math.floor(start_s + 1e-9)  # the second the event began in: the seconds before it end there
    first = max(warm, math.ceil(start_s - before_s - 1e-9))
    seconds: Sequence[int] = range(first, end)
    if skip:
        clean = [s for s in range(warm, end) if not any(s * per_s + i in skip for i in range(per_s))]
        near = [s for s in clean if s >= first] or clean[-max(1, math.ceil(before_s - 1e-9)):]
        seconds = near or seconds
    rates = [sum(fine.operations.get(s * per_s + i, 0) for i in range(per_s)) for s in seconds]
    if rates:
        return float(np.median(rates))
    k_warm = math.ceil(fine.warmup_s / dt - 1e-9)  # the first interval after the warm-up
    k_first = max(k_warm, math.ceil((start_s - before_s) / dt - 1e-9))
    ks = range(k_first, _interval_at(start_s, dt))
    kept = [k for k in ks if k not in skip] or list(ks)
    return float(np.median([fine.rate(k) for k in kept])) if kept else math.nan


def _max_us(h) -> float:
    return float(h.get_max_value()) if h.get_total_count() else math.nan


def _p99_us(h) -> float:
    return float(hdr.percentiles_us(h, [99.0])[99.0]) if h.get_total_count() else math.nan


def back_line(fine: FineSeries, start_s: float, pre: float, before_s: float = BEFORE_S,
              skip: Collection[int] = ()) -> float:
    """The lower edge of the band of the window before ``start_s`` (ops/s): ``pre`` (the reference rate) less
    :data:`BAND_SIGMAS` robust spreads of the measured 100 ms samples of the ``before_s`` seconds before it (the scaled
    median absolute deviation, :func:`scipy.stats.median_abs_deviation`; the intervals in ``skip`` left out while any
    other is there), at least one operation an interval below ``pre`` and never below :data:`SLOW_FRACTION` of it."""
    dt = fine.interval_s
    k_start = _interval_at(start_s, dt)
    ks = range(max(math.ceil(fine.warmup_s / dt - 1e-9), k_start - round(before_s / dt)), k_start)
    kept = [k for k in ks if k not in skip] or list(ks)
    rates = [fine.rate(k) for k in kept]
    spread = float(median_abs_deviation(rates, scale="normal")) if len(rates) > 1 else 0.0
    return max(SLOW_FRACTION * pre, pre - max(BAND_SIGMAS * spread, 1 / dt))


def back_at(rate: Callable[[int], float], line: float, k_from: int, k_last: int) -> int | None:
    """The first interval after ``k_from`` that begins a run of :data:`BACK_SAMPLES` intervals at or above ``line``
    (ops/s), all of them by ``k_last`` (None: not back by then: the window is open)."""
    run = 0
    for k in range(k_from + 1, k_last + 1):
        run = run + 1 if rate(k) >= line else 0
        if run == BACK_SAMPLES:
            return k - BACK_SAMPLES + 1
    return None


def window_end(fine: FineSeries, start_s: float, pre: float, k_from: int, busy_until_s: float | None = None,
               skip: Collection[int] = ()) -> tuple[int, bool, float]:
    """(the last interval of the affected window of an event that began at ``start_s``, whether it is open, the band's
    lower edge (ops/s)): the window goes on past ``k_from`` (the command's, the stall's and an overlap's intervals) and
    past ``busy_until_s`` (s since the operations began: the store's own background work for it done; ``inf``: it was
    not when the store stopped being asked) until the series is back (:func:`back_at`, :func:`back_line`); open when
    that is not by the last full interval. With a NaN reference rate nothing tells it back: the window ends at
    ``k_from``, not said open."""
    dt = fine.interval_s
    last = fine.last_full()
    k_last = last if last is not None else k_from
    busy_open = False
    if busy_until_s is not None and not math.isnan(busy_until_s):
        k_busy = (math.ceil(busy_until_s / dt - 1e-9) - 1 if math.isfinite(busy_until_s)  # the interval it ended in
                  else k_last + 1)  # not done when the store stopped being asked: past the last full interval
        busy_open = k_busy > k_last
        k_from = max(k_from, min(k_busy, k_last))
    if math.isnan(pre):
        return k_from, False, math.nan
    line = back_line(fine, start_s, pre, skip=skip)
    back = back_at(fine.rate, line, k_from, k_last)
    if back is None or busy_open:
        return k_last, True, line
    return back - 1, False, line


def effect(fine: FineSeries, start_s: float, end_s: float, until_s: float | None = None,
           skip: Collection[int] = (), busy_until_s: float | None = None) -> EventEffect:
    """The effect of an event that began at ``start_s`` and whose command returned at ``end_s``
    (s since the operations began) on the series ``fine`` (see the module for the definitions);
    ``until_s``: the affected window reaches at least there (overlapping events charged together:
    :mod:`ycsbctl.results.overlap`); ``skip``: intervals earlier events affected, left out of the reference
    (:func:`reference_rate`); ``busy_until_s``: when the store said its own background work for the event was done
    (s since the operations began; ``inf``: not done when it stopped looking): the window reaches at least there."""
    dt = fine.interval_s
    k_start = _interval_at(start_s, dt)
    k_end = max(k_start, _interval_at(end_s, dt))
    last = fine.last_full()
    k_last = last if last is not None else k_end
    pre = reference_rate(fine, start_s, skip=skip)
    k_search = min(k_last, k_end + round(SEARCH_AFTER_S / dt))
    k_until = k_start if until_s is None else math.ceil(until_s / dt - 1e-9) - 1
    k_search = max(k_search, min(k_last, k_until))
    search = list(range(k_start, k_search + 1))
    rates = [fine.rate(k) for k in search]
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

    rate = fine.rate
    k_stop, window_open, line = window_end(fine, start_s, pre, max(k_end, stall_end, k_until), busy_until_s, skip)
    during = list(range(k_start, max(k_start, k_stop) + 1))
    _, slow_run = longest_run_below([rate(k) for k in during if k <= k_last], SLOW_FRACTION * pre)
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
        slow_run_s=round(slow_run * dt, 6),
        window_open=window_open,
        band_low_ops_per_s=line,
    )
