"""Did the data go missing during a point? Read from its own NOT_FOUND counts.

CoreWorkload reads, updates and scans only keys that were loaded or whose insert was acknowledged,
so on a healthy server not one of them is ``NOT_FOUND``. A share above :data:`MISSING_SHARE` of
those operations means the dataset was emptied, flushed, evicted or replaced by a restarted server
while the point ran — something the record count checked before the point cannot see. The first
second in which such operations failed (the ``<OP>-FAILED`` rows of the per-second series, YCSB's
DBWrapper names) says when.
"""

from __future__ import annotations

from dataclasses import dataclass

from ycsbctl.results.model import PhaseResult
from ycsbctl.results.names import Operation

MISSING_SHARE = 0.001  # of the operations that look a key up: above this, the data went missing
LOOKUPS = (Operation.READ, Operation.UPDATE, Operation.SCAN, Operation.READ_MODIFY_WRITE)


@dataclass
class MissingData:
    """``not_found`` of ``lookups`` operations found no record, from ``from_s`` (s into the measured
    window, the warm-up negative, as the console counts; None when the series cannot say)."""

    not_found: int
    lookups: int
    from_s: float | None
    from_first_second: bool = False  # missed in the point's first second (its warm-up's, if it had one)

    def text(self) -> str:
        share = f"{self.not_found:,} of {self.lookups:,} lookups found no record (NOT_FOUND, " \
                f"{self.not_found / self.lookups:.1%})"
        if self.from_first_second:  # the record count checked before the point cannot tell which records are there
            return (f"{share}, from the point's first second: records it reads were missing when it began (the "
                    "server held a dataset loaded with another recordcount or other keys, or one cut before the "
                    "point) or went at once (emptied, flushed, evicted or a restarted server)")
        when = f", from {self.from_s:.0f} s into the measured window" if self.from_s is not None else ""
        return (f"{share}{when}: the data went missing during the point "
                "(emptied, flushed, evicted or a restarted server)")


def find_missing(result: PhaseResult | None) -> MissingData | None:
    """The point's NOT_FOUND lookups when they are more than :data:`MISSING_SHARE` of its lookups."""
    if result is None or result.phase != "run":
        return None
    ops = [result.ops[o] for o in LOOKUPS if o in result.ops]
    lookups = sum(sum(s.returns.values()) for s in ops)  # every status (READ's own count is the OK ones)
    not_found = sum(s.returns.get("NOT_FOUND", 0) for s in ops)
    if not lookups or not_found <= MISSING_SHARE * lookups:
        return None
    first = _first_failed_second(result)
    return MissingData(not_found, lookups, None if first is None else first - (result.warmup_s or 0.0),
                       first is not None and first <= float(result.series["second"].min()))


def _first_failed_second(result: PhaseResult) -> float | None:
    """The first second (on the series' clock, from the point's start) in which a lookup found no record."""
    series = result.series
    if series is None or series.empty or "op" not in series:
        return None
    failed = {f"{o}-FAILED" for o in LOOKUPS}
    rows = series[series["op"].isin(failed) & (series["operations"] > 0)]
    return float(rows["second"].min()) if not rows.empty else None
