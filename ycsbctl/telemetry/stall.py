"""Did the server stop answering during a point? Read from the engine's per-second series.

A *stall* is a run of whole seconds of the measured window in which no reply came (no operation
completed, or every one that ended timed out: with ``--timeout`` the clients keep failing through an
outage), among seconds where many replies came (a frozen, paused or cut-off server), or any
operation that timed out. Its length is the longest of the empty run and the slowest operation that ended right after
it (an operation in flight when the server froze waited the whole stall), so a 3 s freeze reads
about 3 s whatever its alignment on the second boundaries.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

import pandas as pd

MIN_BUSY_OPS = 5  # a second is "busy" from this many operations; an empty second among busy ones is a stall
MIN_STALL_S = 1.0
# A silence at most this many times the point's median latency is its operations' own length, not a pause:
# 50 clients whose every query takes ~4 s (ClickHouse's FULLTEXT over 100,000 items: p50 4.0 s) start
# together, and no reply can come before the first of them ends
OWN_LENGTH = 1.5


@dataclass
class Stall:
    """The longest time without a reply (s), when it began (s from the point's start, warm-up
    included, as the series counts), how many operations timed out, and the point's warm-up (s)."""

    seconds: float
    from_s: float
    timeouts: int = 0
    warmup_s: float = 0.0

    @property
    def window_s(self) -> float:
        """When it began on the console's one clock: s into the measured window, the warm-up negative."""
        return self.from_s - self.warmup_s

    def began(self) -> str:
        """When it began, in words: ``7.0 s into the measured window``; one that began in the warm-up is said
        so, with the part of it inside the window (never a negative offset): ``1.0 s before the measured
        window (in the warm-up; 4.0 s of it inside)``."""
        at = self.window_s
        if at >= -0.05:
            return f"{max(at, 0.0):.1f} s into the measured window"
        inside = max(0.0, self.seconds + at)
        return f"{-at:.1f} s before the measured window (in the warm-up; {inside:.1f} s of it inside)"

    def text(self) -> str:
        """One phrase for the point's reason: ``no reply for 11.9 s, from 7.0 s into the measured window``."""
        parts = []
        if self.seconds >= MIN_STALL_S:
            parts.append(f"no reply for {self.seconds:.1f} s, from {self.began()}")
        if self.timeouts:
            parts.append(f"{self.timeouts:,} operation{'s' if self.timeouts != 1 else ''} timed out")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _overall(series: pd.DataFrame | None) -> pd.DataFrame:
    if series is None or series.empty or "op" not in series:
        return pd.DataFrame(columns=["second", "operations", "max_us", "warmup", "timeouts"])
    return series[series["op"] == "OVERALL"].sort_values("second")


def find_stall(series: pd.DataFrame | None, timeouts: int = 0, timeout_s: float | None = None,
               warmup_s: float = 0.0, paced: bool = False, typical_s: float = 0.0) -> Stall | None:
    """The longest stall in a point's per-second ``series`` (``SERIES_COLUMNS``), or None.

    Only the measured window counts (warm-up seconds are skipped); the last second is partial
    (the run ends inside it), so an empty last second is not evidence on its own. When the silent
    seconds begin with operations that timed out (``timeout_s``, the per-operation timeout), those
    were sent ``timeout_s`` earlier and never answered: the silence began that much before.
    ``warmup_s``: the point's warm-up (s), so that the stall's text counts from the measured window.

    Silent seconds are a stall where the seconds that had replies were mostly busy (a paced, nearly
    idle point proves nothing): counted among the seconds with replies, so that a silence longer than
    the rest of the window is one too. ``paced``: the point had a target rate; an unpaced point's
    clients each always wait on an operation, so a silence over half of its measured window or more
    is a stall even with no busy second (a server frozen from the window's start). ``typical_s``: the
    point's median latency (s); a silence no longer than :data:`OWN_LENGTH` times it, with nothing timed
    out, is the operations' own length (every client waiting on a slow operation), not a stall."""
    df = _overall(series)
    measured = df[~df["warmup"].astype(bool)] if "warmup" in df else df
    best: Stall | None = None
    if len(measured) >= 2:
        timed_out = measured["timeouts"].fillna(0) if "timeouts" in measured else 0  # NaN: not known
        replies = (measured["operations"] - timed_out).clip(lower=0).astype(int)
        counts = dict(zip(measured["second"].astype(int), replies))
        expired = dict(zip(measured["second"].astype(int), (measured["operations"] - replies).astype(int)))
        slowest = dict(zip(measured["second"].astype(int), measured["max_us"].astype(float)))
        busy = [c for c in counts.values() if c >= MIN_BUSY_OPS]
        heard = [c for c in counts.values() if c > 0]
        seconds = sorted(counts)
        evidence = bool(busy) and len(busy) * 2 >= len(heard) - 1
        if evidence or not paced:
            first, last = seconds[0], seconds[-1]
            k = first
            while k < last:  # the final (partial) second is never the start of a stall
                if counts.get(k, 1) > 0:  # a second absent from the series (coarser status lines) is unknown
                    k += 1
                    continue
                start = k
                while k <= last and counts.get(k, 1) == 0:
                    k += 1
                empty = k - start
                after = slowest.get(k, math.nan)
                waited = after / 1e6 if not math.isnan(after) else 0.0
                length = max(float(empty), waited)
                # The op that ended the stall completed within second k, ``waited`` after it began;
                # the last reply before the stall came before the first empty second.
                # never before the run itself began (second 0: a point with no warm-up has nothing before its window)
                floor = max(float(first) - 1.0, 0.0)
                began = (max(floor, min(float(start), k + 0.5 - waited)) if waited
                         else max(floor, start - 0.5))
                if timeout_s and expired.get(start, 0):  # unanswered since timeout_s before they expired
                    began = max(floor, start - timeout_s)
                    length = max(length, k - began)
                if not evidence and length * 2 < len(seconds):  # unpaced, no busy second: a silence over half
                    continue
                if typical_s and length <= OWN_LENGTH * typical_s and not expired.get(start, 0):
                    continue
                if best is None or length > best.seconds:
                    best = Stall(round(length, 1), round(float(began), 1), warmup_s=warmup_s)
    if timeouts:
        best = best or Stall(0.0, 0.0, warmup_s=warmup_s)
        best.timeouts = int(timeouts)
    return best


def straggler_stall(slices: pd.DataFrame | None, warmup_s: float = 0.0, typical_s: float = 0.0) -> Stall | None:
    """The longest silence an alternated target's own slices show (``slices``: its rows of the session's slices
    table, the ``t_end_s``, ``operations``, ``switch_s`` and ``warmup`` columns), or None.

    In an alternated session an operation belongs to the slice it started in, so the replies a frozen server gives
    when it wakes land in the second its silence began, which then reads busy (its per-second series may show no
    empty second at all). The silence shows instead as an operation that ran on ``switch_s`` ≥ :data:`MIN_STALL_S`
    past its slice's end while every later slice of the target that ended before that operation did measured
    nothing: no client had a reply from the server in all that time. Its length is that ``switch_s``, from the
    slice's end (the operation began earlier: a floor, as a freeze's first second is in :func:`find_stall`); one no
    longer than :data:`OWN_LENGTH` times the point's median latency ``typical_s`` is its operations' own length."""
    if slices is None or slices.empty:
        return None
    rows = sorted(zip(slices["t_end_s"].astype(float), slices["operations"].astype(int),
                      slices["switch_s"].astype(float),
                      slices["warmup"].astype(bool) if "warmup" in slices else [False] * len(slices)))
    best: Stall | None = None
    for end, n, switch_s, warm in rows:
        if warm or not n or math.isnan(switch_s) or switch_s < MIN_STALL_S or switch_s <= OWN_LENGTH * typical_s:
            continue
        until = end + switch_s
        if all(m == 0 for e, m, _, _ in rows if end < e <= until) and (best is None or switch_s > best.seconds):
            best = Stall(round(switch_s, 1), round(end, 1), warmup_s=warmup_s)
    return best
