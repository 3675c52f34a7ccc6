"""Where a thread ladder's throughput stops growing — said only where the cells' intervals support it.

Each thread count of one target's ladder is a cell with a centre and a 95 % throughput interval
(:func:`ycsbctl.results.cells.cell_table`: over the rounds, or with one round the batch means of its
per-second series). Between two thread counts ``a`` < ``b``:

- throughput **grows** from ``a`` to ``b`` when ``b``'s interval lies above ``a``'s by more than
  :data:`PLATEAU_GAIN` (``b.low > 1.1 × a.high``): the intervals separate, and the growth is larger than
  a tenth whatever the noise;
- ``b`` is **no more than a tenth above** ``a`` when ``b.high ≤ 1.1 × a.low``.

The plateau starts at the fewest threads from which throughput grows to no later thread count; there is
no plateau when it still grows at the top of the ladder. It is a **knee** ("stops growing at N threads")
only when throughput grew into N from the thread count before it *and* every later thread count is no
more than a tenth above N; else the ladder is **flat within noise** from N on (the intervals cannot tell
growth from noise, or the knee's place). Two honest intervals cannot support knees at two places of one
server: a knee at 2N says the step from N grew by more than a tenth, one at N that it did not. A ladder
whose thread counts have no interval (one short round) gets no plateau at all.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

PLATEAU_GAIN = 1.10  # throughput that grows by no more than 10 % beyond its noise has stopped growing


@dataclass(frozen=True)
class Rung:
    """One thread count of a ladder: its throughput's centre and 95 % interval (ops/s; NaN: no interval)."""

    threads: int
    centre: float
    low: float
    high: float

    @property
    def bounded(self) -> bool:
        return not (math.isnan(self.low) or math.isnan(self.high))


def grows(a: Rung, b: Rung) -> bool:
    """Whether throughput grew from ``a`` to ``b`` by more than :data:`PLATEAU_GAIN` beyond both intervals."""
    return a.bounded and b.bounded and b.low > PLATEAU_GAIN * a.high


def within(a: Rung, b: Rung) -> bool:
    """Whether ``b`` is at most :data:`PLATEAU_GAIN` times ``a``, whatever the noise (``b.high ≤ 1.1 × a.low``)."""
    return a.bounded and b.bounded and b.high <= PLATEAU_GAIN * a.low


@dataclass(frozen=True)
class Plateau:
    """Where a ladder's throughput stops growing: from ``threads`` (``ops`` ops/s there) to the top of the
    ladder (``last_threads``, ``last_ops``); ``knee``: growth into ``threads`` and none beyond a tenth after
    it are both shown by the intervals, else the ladder is only flat within noise from ``threads`` on."""

    threads: int
    ops: float
    last_threads: int
    last_ops: float
    knee: bool

    def text(self, fmt: Callable[[float], str]) -> str:
        """``its throughput stops growing at 16 threads (2.0k ops/s; 2.1k ops/s at 32 threads)`` for a knee,
        ``its throughput is flat within noise from 8 threads on (…)`` otherwise (``fmt``: ops/s for prose)."""
        figures = f"({fmt(self.ops)}; {fmt(self.last_ops)} at {_threads(self.last_threads)})"
        if self.knee:
            return f"its throughput stops growing at {_threads(self.threads)} {figures}"
        return f"its throughput is flat within noise from {_threads(self.threads)} on {figures}"


def _threads(n: int) -> str:
    return f"{n} thread" if n == 1 else f"{n} threads"


def plateau(rungs: list[Rung]) -> Plateau | None:
    """The plateau of a ladder (see the module), or None: it still grows at the top, it has fewer than two
    thread counts, or one of them has no interval."""
    rungs = sorted(rungs, key=lambda r: r.threads)
    if len(rungs) < 2 or not all(r.bounded for r in rungs):
        return None
    last = rungs[-1]
    for i, r in enumerate(rungs[:-1]):
        if any(grows(r, later) for later in rungs[i + 1:]):
            continue
        knee = i > 0 and grows(rungs[i - 1], r) and all(within(r, later) for later in rungs[i + 1:])
        return Plateau(r.threads, r.centre, last.threads, last.centre, knee)
    return None


def ladder(points: pd.DataFrame, cells: pd.DataFrame | None = None) -> list[Rung]:
    """One target's rungs of one workload: from ``cells`` (its rows of :func:`ycsbctl.results.cells.cell_table`:
    ``throughput``, ``throughput_low``, ``throughput_high``; unpaced cells only) when given, else from the
    ok rows of ``points`` (a points table: ``throughput_mean`` and ``throughput_ci_low``/``_high`` where it has
    them)."""
    if cells is not None:
        rows = cells[pd.to_numeric(cells["target_rate"], errors="coerce").isna()] if "target_rate" in cells else cells
        return [Rung(int(r.threads), float(r.throughput), float(r.throughput_low), float(r.throughput_high))
                for r in rows.itertuples() if r.throughput == r.throughput]
    ok = points[(points["status"] == "ok") & points["throughput_mean"].notna()]
    low = ok["throughput_ci_low"] if "throughput_ci_low" in ok else pd.Series(math.nan, index=ok.index)
    high = ok["throughput_ci_high"] if "throughput_ci_high" in ok else pd.Series(math.nan, index=ok.index)
    return [Rung(int(t), float(c), float(lo), float(hi))
            for t, c, lo, hi in zip(ok["threads"], ok["throughput_mean"], low, high)]
