"""Latency recording in the workers (the controller's exact merging: :mod:`ycsbctl.engine.aggregate`).

Workers count each operation's latency straight into dense HDR counts (one ``array`` of int64 per
operation × status, indexed as HdrHistogram indexes values): recording is one short function
call per operation. Once a second the full counts are swapped for zeroed ones and sent, compacted
one slot that counted per turn of the loop (so no operation in flight waits for the whole second's
shipping), each read only between the lowest and highest index it counted (the compiled recorder keeps
them: a dense slot is 184 KB). The controller adds the counts of every
worker per second (the per-second series) and over all non-warm-up seconds (the totals): adding
HDR counts is exact, so percentiles are those of one big histogram.

Each worker also watches its own event loop (:class:`LagProbe`): how late the loop serves a kernel
timer that expires every 10 ms is the delay it adds to any reply that arrives then. Its counts ship
with the latencies and come out as ``CLIENT-LAG``.
"""

from __future__ import annotations

import asyncio
import queue
import time
from array import array
from collections.abc import Callable, Generator, Iterable
from typing import Any

import numpy as np

from ycsbctl.engine.messages import SecondCounts, SecondReport, SliceReport
from ycsbctl.engine.timerfd import TimerFd
from ycsbctl.native import core
from ycsbctl.results import histogram as hdr
from ycsbctl.results.names import CLIENT_LAG, SCHEDULE_LAG, Operation
from ycsbctl.slices import drain
from ycsbctl.stores.binding import Status
from ycsbctl.workload.core import READ, READ_MODIFY_WRITE, UPDATE

READ_MODIFY_WRITE_NAME = Operation.READ_MODIFY_WRITE.value
N_STATUS = len(Status)
COMPONENT = 8  # op code offset marking the READ/UPDATE halves of a read-modify-write
N_SLOTS = (COMPONENT + UPDATE + 1) * N_STATUS  # slot = op code · N_STATUS + status
assert N_STATUS == 5, "Recorder.record multiplies by the literal 5 (measured faster than a name)"
# 100 probes a second: each is one read of a timer's fd and a short callback on the loop.
LAG_PROBE_INTERVAL_S = 0.01
_ZEROS = bytes(8 * hdr.COUNTS_LEN)
NO_SPAN = (hdr.COUNTS_LEN, -1)  # the span of counts that hold none (lowest index > highest)
_SMALL = 2048  # values below this are their own HDR index (see hdr.counts_index)


def _zeroed() -> array:
    return array("q", _ZEROS)


Record = Callable[[int, int, int, int, int], None]
SpareSet = tuple[list[array], list[array], array, array]  # zeroed counts: slots, intended slots, lag, schedule lag


def _count(counts: array, span: list[int], v: int, times: int = 1) -> None:
    """Count ``times`` values of ``v`` µs into dense HDR ``counts``, widening ``span`` (its lowest and highest index
    counted) to hold the value's index."""
    i = v if v < _SMALL else hdr.counts_index(v)
    counts[i] += times
    span[0], span[1] = min(span[0], i), max(span[1], i)


def _taken(span: list[int]) -> tuple[int, int]:
    """``span`` as it was, reset in place to :data:`NO_SPAN` (its counts were swapped out with it)."""
    was = (span[0], span[1])
    span[0], span[1] = NO_SPAN
    return was


class Recorder:
    """One worker process's measurements for the current second.

    :attr:`record` ``(op, status, t0_ns, t1_ns, due_ns)`` is the one call that times an operation,
    from the awaited path and from a binding's chain alike. ``due_ns`` is the intended start (0 or
    ``t0`` without a target rate). Op codes ≥ :data:`COMPONENT` are the halves of a
    read-modify-write: measured and status-counted as READ/UPDATE, not counted as operations.
    :meth:`roll` swaps the counts for zeroed ones (prepared off the loop by :class:`LagProbe`) and
    returns the full ones, with where each slot's counts lie (``SecondCounts.spans``: the compiled recorder
    keeps each slot's lowest and highest index in :attr:`bounds`; CLIENT-LAG and SCHEDULE-LAG keep theirs in
    :attr:`lag_span` and :attr:`sched_span`), so that shipping reads only that part of each 184 KB slot.
    """

    def __init__(self, measurement: str, op_codes: Iterable[int]) -> None:
        if measurement not in ("op", "intended", "both"):
            raise ValueError(f"measurement.interval={measurement!r}: use op, intended or both")
        self.measurement = measurement
        codes = set(op_codes)
        if READ_MODIFY_WRITE in codes:
            codes |= {COMPONENT + half for half in (READ, UPDATE)}  # one sum for both halves (READ is 0)
        self.slot_ids = tuple(sorted(op * N_STATUS + st for op in codes for st in range(N_STATUS)))
        self.both = measurement == "both"
        self.slots: list = [None] * N_SLOTS
        self.islots: list = [None] * N_SLOTS
        self.lag = _zeroed()  # CLIENT-LAG (LagProbe counts into it, as count_lag does)
        self.sched = _zeroed()  # SCHEDULE-LAG (paced runs: record_schedule_lag)
        self.lag_span, self.sched_span = list(NO_SPAN), list(NO_SPAN)  # their lowest and highest index counted
        # per slot, then per intended slot: the lowest and highest index counted since the roll (the compiled
        # recorder keeps them; None on the pure path, whose slots are read whole)
        self.bounds: np.ndarray | None = None
        self.spares: queue.SimpleQueue = queue.SimpleQueue()
        self._install(self.slots)
        if self.both:
            self._install(self.islots)
        self.cpu_mark = time.process_time()
        self.idle_ns: Callable[[], int] | None = None  # the loop's turning towards due times (see Alarm)
        self.idle_mark = 0
        self.record: Record = self._make_record()

    def _install(self, slots: list) -> None:
        for s in self.slot_ids:
            slots[s] = _zeroed()

    def spare_set(self) -> SpareSet:
        """Zeroed counts for one :meth:`roll` (built off the loop by the lag probe's thread)."""
        n = len(self.slot_ids)
        return [_zeroed() for _ in range(n)], [_zeroed() for _ in range(n if self.both else 0)], _zeroed(), _zeroed()

    def record_schedule_lag(self, late_ns: int) -> None:
        """A paced operation started ``late_ns`` after it could have (see SCHEDULE_LAG)."""
        _count(self.sched, self.sched_span, late_ns // 1000)

    def _make_record(self) -> Record:
        slots, islots = self.slots, self.islots
        if core is not None:  # the compiled twin of the functions below (~0.05 µs a call, not ~0.13)
            self.bounds = np.empty(4 * N_SLOTS, dtype=np.int64)
            self.bounds[0::2], self.bounds[1::2] = NO_SPAN
            try:
                return core.Record(slots, islots, self.measurement, self.bounds)
            except TypeError:  # a compiled core built before its bounds (scripts/setup.sh rebuilds it): read whole
                self.bounds = None
                return core.Record(slots, islots, self.measurement)
        return self.pure_record()

    def count_lag(self, lag_us: int, times: int = 1) -> None:
        """Count ``times`` loop lags of ``lag_us`` µs into CLIENT-LAG (what :class:`LagProbe` does): count there
        only through this (or the probe), which keeps the span that shipping reads."""
        _count(self.lag, self.lag_span, lag_us, times)

    def take_lag_span(self) -> tuple[int, int]:
        """CLIENT-LAG's span since the last call (its counts swapped out with it), reset."""
        return _taken(self.lag_span)

    def pure_record(self) -> Record:
        """:attr:`record` in Python (the pure path, and the truth the compiled one is tested against)."""
        slots, islots = self.slots, self.islots
        index = hdr.counts_index
        small = _SMALL
        # Measured: ~0.3-0.4 µs per call in a micro-benchmark (an append to a log cost ~0.1 µs, plus
        # 0.3-1 µs per operation to turn the log into histograms on the loop once a second). Inside
        # a worker an empty body saved ~2-3 µs per op on this machine: not explained yet.
        # op_us: the operation's own latency (µs); intended_us: from its intended start (its due time when paced)
        if self.measurement == "op":
            def record(op: int, st: int, t0: int, t1: int, due: int) -> None:
                op_us = (t1 - t0) // 1000
                slots[op * 5 + st][op_us if op_us < small else index(op_us)] += 1
        elif self.measurement == "intended":
            def record(op: int, st: int, t0: int, t1: int, due: int) -> None:
                intended_us = (t1 - (due or t0)) // 1000
                slots[op * 5 + st][intended_us if intended_us < small else index(intended_us)] += 1
        else:
            def record(op: int, st: int, t0: int, t1: int, due: int) -> None:
                slot = op * 5 + st
                op_us = (t1 - t0) // 1000
                slots[slot][op_us if op_us < small else index(op_us)] += 1
                intended_us = (t1 - (due or t0)) // 1000
                islots[slot][intended_us if intended_us < small else index(intended_us)] += 1
        return record

    def roll(self) -> SecondCounts:
        """The second's counts (picklable), replaced in place by zeroed ones: O(slots) on the loop."""
        try:
            fresh, ifresh, lag, sched = self.spares.get_nowait()
        except queue.Empty:
            fresh, ifresh, lag, sched = self.spare_set()
        out = SecondCounts()
        slots, islots = self.slots, self.islots
        b = self.bounds.tolist() if self.bounds is not None else None
        if self.bounds is not None:
            self.bounds[0::2], self.bounds[1::2] = NO_SPAN
        spans = out.spans
        for i, s in enumerate(self.slot_ids):
            key = divmod(s, N_STATUS)
            out.latency[key] = slots[s]
            slots[s] = fresh[i]
            if b is not None:
                spans["latency", key] = b[2 * s], b[2 * s + 1]
            if self.both:
                out.intended[key] = islots[s]
                islots[s] = ifresh[i]
                if b is not None:
                    spans["intended", key] = b[2 * (N_SLOTS + s)], b[2 * (N_SLOTS + s) + 1]
        out.own = {CLIENT_LAG: self.lag, SCHEDULE_LAG: self.sched}
        self.lag, self.sched = lag, sched
        spans["own", CLIENT_LAG] = self.take_lag_span()
        spans["own", SCHEDULE_LAG] = _taken(self.sched_span)
        cpu, self.cpu_mark = self.cpu_mark, time.process_time()
        out.cpu_s = self.cpu_mark - cpu
        if self.idle_ns is not None:  # turning while waiting for a due time is no load
            idle, self.idle_mark = self.idle_mark, self.idle_ns()
            out.cpu_s = max(0.0, out.cpu_s - (self.idle_mark - idle) / 1e9)
        return out


class LagProbe:
    """Watches a worker's loop and ships its seconds, without taking the GIL from the loop.

    A kernel timer (``timerfd`` on CLOCK_MONOTONIC, ``perf_counter``'s clock) expires every
    :data:`LAG_PROBE_INTERVAL_S`; the loop watches its fd like a socket, so how late the callback
    runs after an expiry (µs, one count per expiry, missed ones included) is the delay the loop adds
    to any reply that arrives then. A thread posting callbacks measured the same thing, but each of
    its wake-ups took the GIL from the busy loop (tens of futex calls per probe at high rates).
    :meth:`ship_steps` compacts and sends a second's report in slices of one slot each (~50 µs
    for a used 184 KB slot, ~6 µs for an empty one), which the ticker runs one per turn of the loop;
    it then zeroes the slots where they counted for the next :meth:`Recorder.roll`. A thread did
    this before, but its GIL handoffs with the busy loop stretched each second's shipping to
    0.5-4.4 ms and paused the loop in 200 µs pieces (measured at 64 threads: the largest client lag
    of each second). :meth:`stop` sends what is left."""

    def __init__(self, loop: asyncio.AbstractEventLoop, rec: Recorder, out: Any,
                 interval_s: float = LAG_PROBE_INTERVAL_S) -> None:
        self.loop, self.rec, self.out = loop, rec, out
        self.interval_ns = int(interval_s * 1e9)
        self.due_ns = 0  # the next expiry not yet counted (perf_counter ns)
        self.timer = TimerFd()
        self._shipping: Generator[None, None, None] | None = None  # the report being sent, a slice at a time

    def start(self) -> None:
        self.rec.spares.put(self.rec.spare_set())
        self.due_ns = time.perf_counter_ns() + self.interval_ns
        self.timer.arm(self.due_ns, self.interval_ns)
        self.loop.add_reader(self.timer.fd, self._expired)

    def _expired(self) -> None:
        n = self.timer.expiries()
        now, due, step, count = time.perf_counter_ns(), self.due_ns, self.interval_ns, self.rec.count_lag
        for _ in range(min(n, 100_000)):
            count((now - due) // 1000)
            due += step
        self.due_ns = due + step * max(0, n - 100_000)

    def ship_steps(self, report: SecondReport) -> Generator[None, None, None]:
        """The slices that send ``report`` (the caller runs them, one per turn of the loop);
        :meth:`stop` finishes them if the caller does not."""
        if self._shipping is not None:  # a report left half-way (the ticker never leaves one)
            drain(self._shipping)
        self._shipping = self._ship(report)
        return self._shipping

    def stop(self) -> None:
        if self.timer.fd >= 0:
            self.loop.remove_reader(self.timer.fd)
            self.timer.close()
        if self._shipping is not None:  # the ticker was stopped half-way through a report
            drain(self._shipping)
            self._shipping = None

    def _ship(self, report: SecondReport) -> Generator[None, None, None]:
        return ship(self.rec, self.out, report)


def ship(rec: Recorder, out: Any, report: SecondReport | SliceReport) -> Generator[None, None, None]:
    """Compact and send ``report`` to ``out``, a slot per slice; then its dense counts, zeroed where they
    counted (~10 µs a slot, where fresh 184 KB arrays cost a copy and first-touch page faults), are the
    spares of ``rec``'s next roll."""
    counts = report.counts
    sparse = report.counts = yield from counts.compact_steps()  # copies what is not zero
    out.put(report)
    fresh = [a for a in counts.latency.values() if isinstance(a, array)]
    ifresh = [a for a in counts.intended.values() if isinstance(a, array)]
    lag, sched = counts.own.get(CLIENT_LAG), counts.own.get(SCHEDULE_LAG)
    whole = len(fresh) == len(counts.latency) and len(ifresh) == len(counts.intended)
    if not (whole and isinstance(lag, array) and isinstance(sched, array)) or not rec.spares.empty():
        return
    yield
    pairs: list[tuple[dict[Any, Any], dict[Any, Any]]] = [
        (counts.latency, sparse.latency), (counts.intended, sparse.intended), (counts.own, sparse.own)]
    for dense, kept in pairs:
        for key, a in dense.items():
            if key in kept:  # zero where it counted: the rest is zero already
                np.frombuffer(a, dtype=np.int64)[kept[key].index] = 0
    rec.spares.put((fresh, ifresh, lag, sched))
