"""What the user sees while a plan runs: a rich display on a terminal, plain lines elsewhere."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.status import Status

import math
import sys
import time
from dataclasses import dataclass

from rich.console import Console

from ycsbctl.engine.spec import Tick
from ycsbctl.processes import deferred_signals

STATUS_EVERY_S = 10  # plain mode: one status line per point every 10 s, as YCSB's status.interval
SAY_WAIT_S = 2.0  # plain mode: a point still starting after this long says once what it waits for


def _clock(seconds: float) -> str:
    return f"ETA {int(seconds // 60)}m{int(seconds % 60):02d}s"


def _fmt_rate(x: float) -> str:
    return f"{x / 1000:.1f}k" if x >= 1000 else f"{x:.0f}"


@dataclass(frozen=True)
class PointLength:
    """What a point is planned to take: ``seconds`` (warm-up included) and ``operations``; None where
    nothing bounds it (a duration-bound run has no count, a load no duration unless given)."""

    seconds: float | None = None
    operations: int | None = None


class Progress:
    """Plan progress (points done / total, ETA) and the current point (ops/s, p99, errors).

    On a terminal a live status line is redrawn every second; otherwise one plain line is
    written every :data:`STATUS_EVERY_S` seconds, to stderr, so stdout stays for results."""

    def __init__(self, total_points: int, quiet: bool = False) -> None:
        self.console = Console(stderr=True, highlight=False)
        self.live_mode = self.console.is_terminal and not quiet
        self.quiet = quiet
        self.total = total_points
        self.done = 0
        self.t_plan = self.t_last_end = time.monotonic()
        self.point = ""
        self._status: Status | None = None
        self._waiting: Status | None = None  # between points: what the plan waits for (live mode only)
        self.errors = 0  # ERROR/TIMEOUT of the current point so far
        self._silent = False  # the last second had no completed operation
        self.length = PointLength()  # what the current point is planned to take
        self.t_point = self.t_plan  # when it started
        self._said_start = False  # plain mode: this point's start wait was said

    def note(self, message: str) -> None:
        """A line that stays (provisioning choices, skipped targets, failures); it ends a :meth:`waiting` line.
        A Ctrl-C waits for the line to be written: landing inside rich's ``Console.__enter__`` (its buffer counted
        open, ``__exit__`` never run) it left every later line of this console in the buffer, the sweep's
        "interrupted: …" among them (a fresh clone's test_ctrl_c_of_a_sweep_on_urls, 30 Nov)."""
        self._end_wait()
        if not self.quiet:
            with deferred_signals():
                self.console.print(message, markup=False, soft_wrap=not self.console.is_terminal)

    def _eta(self, t: Tick | None = None) -> str:
        """Time left: what the current point has left — by its planned seconds, or its operations left
        at the rate it has run so far, whichever ends it first — plus the mean time of the finished
        points (the current point's planned time while none has finished) for each point after it.
        Without either, the finished points' mean for every point left, less what the current one ran."""
        now = time.monotonic()
        elapsed = now - self.t_point
        ran = t.second + 1 if t is not None else 0.0  # seconds of operations so far (the ticks' clock)
        left: list[float] = []
        if self.length.seconds is not None:
            left.append(max(self.length.seconds - ran, 0.0))
        if self.length.operations is not None and t is not None and t.operations > 0:
            left.append(max(self.length.operations - t.operations, 0) * ran / t.operations)
        after = self.total - self.done - 1
        if left:
            current = min(left)
            per = (self.t_last_end - self.t_plan) / self.done if self.done else elapsed + current
            return _clock(current + per * max(after, 0))
        if not self.done:
            return "ETA —"
        # Mean time of the finished points for each point left, less what the current one has run.
        per = (self.t_last_end - self.t_plan) / self.done
        return _clock(max(per * (after + 1) - (now - self.t_last_end), per * after, 0.0))

    def waiting(self, what: str) -> None:
        """Between points, on a terminal: a live line saying what the plan waits for (a network baseline, the
        host yardstick: seconds each), until the next note or point. Plain mode writes nothing: the note that
        follows says what was measured and how long it took."""
        if self.live_mode and self._status is None:
            self._end_wait()
            self._waiting = self.console.status(what)
            with deferred_signals():  # as note's print: rich's Live state whole when a Ctrl-C lands
                self._waiting.start()

    def _end_wait(self) -> None:
        if self._waiting is not None:
            with deferred_signals():
                self._waiting.stop()
            self._waiting = None

    def start_point(self, label: str, length: PointLength | None = None) -> None:
        self._end_wait()
        self.point = label
        self.errors = 0
        self.length = length or PointLength()
        self.t_point = time.monotonic()
        self._said_start = False
        if self.live_mode:
            # the engine's ticks before the start say what it waits for (Tick.starting): its processes, its clients
            status = self._status = self.console.status(f"[{self.done + 1}/{self.total}] {label}  starting…")
            with deferred_signals():
                status.start()
        else:
            self.note(f"[{self.done + 1}/{self.total}] {label}")

    def tick(self, t: Tick) -> None:
        if t.starting:
            self._starting(t.starting)
            return
        if t.second == 0:
            self.errors = 0
        first_errors = t.errors and self.errors == 0
        self.errors += t.errors  # the point's ERROR/TIMEOUT so far, counted as they happen
        if self._past_window(t):
            # the engine's last report: the few operations that ended after the window's last whole second (none,
            # often) — not a second of silence; what the point waits for now is its figures
            text = (f"[{self.done + 1}/{self.total}] {self.point}  {t.operations:,} operations  errors {self.errors:,}"
                    "  window over: collecting its figures…")
            if self._status is not None:
                self._status.update(text)
            elif not self.quiet and first_errors:
                print(text, file=sys.stderr, flush=True)
            return
        silent = t.ops_per_s == 0 and t.second > 0
        # plain mode also writes at once the first errors and the first second of a silence
        news = first_errors or (silent and not self._silent)
        self._silent = silent
        # a second with no completed operation has no percentile: say what it means instead of "nan" (one
        # with operations but no percentile, YCSB's status line without one, is not "no reply")
        p99 = f"p99 {t.p99_us / 1000:.2f} ms" if t.p99_us == t.p99_us else "no reply" if not t.ops_per_s else "p99 —"
        text = (
            f"[{self.done + 1}/{self.total}] {self.point}  {t.second + 1:>4d} s  "
            f"{_fmt_rate(t.ops_per_s)} ops/s  {p99}  errors {self.errors:,}"
            f"{'  (warm-up)' if t.warmup else ''}  {self._eta(t)}"
        )
        if self._status is not None:
            self._status.update(text)
        elif not self.quiet and ((t.second + 1) % STATUS_EVERY_S == 0 or news):
            print(text, file=sys.stderr, flush=True)

    def _starting(self, what: str) -> None:
        """Before the point's start: the live line says what it waits for (the engine's processes starting,
        their clients connecting, client hosts); plain mode says it once when that takes over SAY_WAIT_S."""
        text = f"[{self.done + 1}/{self.total}] {self.point}  starting: {what}…"
        if self._status is not None:
            self._status.update(text)
        elif not (self.quiet or self._said_start) and time.monotonic() - self.t_point >= SAY_WAIT_S:
            self._said_start = True
            print(text, file=sys.stderr, flush=True)

    def _past_window(self, t: Tick) -> bool:
        """Whether ``t`` is the second after the point's planned seconds (warm-up and duration): the workers' last
        report, of what ended between the window's last whole second and their stop."""
        return self.length.seconds is not None and t.second >= math.ceil(self.length.seconds - 1e-9)

    def end_point(self, summary: str) -> None:
        self._stop_status()
        self.done += 1
        self.t_last_end = time.monotonic()
        self.note(f"  → {summary}")

    def close(self) -> None:
        self._end_wait()
        self._stop_status()

    def _stop_status(self) -> None:
        """The point's live line stopped (a Ctrl-C waits for rich's Live to stop whole, as for :meth:`note`)."""
        if self._status is not None:
            with deferred_signals():
                self._status.stop()
            self._status = None
