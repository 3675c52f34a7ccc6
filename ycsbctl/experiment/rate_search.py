"""The SLO rate search (``--slo 'p99<1ms'``): the highest offered rate (ops/s) whose latency meets an objective.

For each target × workload × thread count:

1. **Ceiling.** Without ``--slo-start``, one unpaced point measures what the server does with these
   threads (``unpaced_ops``); no offered rate above it can be achieved, so it is the first failing
   bound, and the search bisects (geometric mean) between it and a floor ``ceiling / span``, where
   ``span`` is what the point budget can narrow to 4 % (1.04^(2^points), between 4 and 1,000: 151
   for 7 paced points). With ``--slo-start R`` the search starts at R.
2. **Coarse ladder.** While no rate has passed (below the floor, or from a start rate), the next is
   the lowest tried ÷ 4; while none has failed, the highest tried × 4.
3. **Bisection** between the highest passing rate and the lowest failing rate above it, at their
   geometric mean, until they are within ``tolerance`` (2 %) of each other or the point budget
   (``--slo-points``, 8 by default, the unpaced point included) is spent.

A point passes or fails as :mod:`ycsbctl.results.slo` judges it (:func:`~ycsbctl.results.slo.judge_trial`).

PerfKitBenchmarker's YCSB modes are the anchor: ``ycsb_dynamic_load`` lowers the target until
achieved / target ≥ a sustain ratio (0.95 there, 0.99 here), ``ycsb_lowest_latency_load`` steps the
target up by a fixed amount until latency leaves a band, and its CPU mode bisects between bounds. A
fixed step needs many points; here bisection on a logarithmic scale narrows the whole bracket under
the ceiling at once: in 8 points (the unpaced one included) a knee anywhere from 1/140 of the ceiling
to the ceiling is found within 4 % of a fine ladder's answer (``tests/experiment/test_rate_search.py``, on a
synthetic server whose knee is known exactly).

Reproducible from the manifest: the plan keeps ``slo``, ``slo_start`` and ``slo_points``; each search
(``manifest.slo_searches``) keeps its parameters, the unpaced ceiling, and every tried rate in order
with what was measured and why it passed or failed. ``--resume`` replays a search from those records
and runs only the points it lacks.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ycsbctl.experiment.result_sink import ResultSink
from ycsbctl.experiment.study import Point
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.names import RunStatus
from ycsbctl.results.slo import MIN_ACHIEVED, Trial, ended_words, judge_trial, parse_slo, summary_line

FACTOR = 4.0  # the coarse ladder's step (×4 up or ÷4 down)
PRECISION = 1.04  # under a ceiling: the bracket the point budget narrows to (see RateSearch.span)
MAX_SPAN = 1000.0
TOLERANCE = 0.02  # bisection stops once the failing rate is within 2 % above the passing one


@dataclass
class RateSearch:
    """The search's logic alone: propose a rate (:meth:`next_rate`), learn its verdict (:meth:`record`).

    ``ceiling``: the unpaced throughput (ops/s), an upper bound no rate reaches; ``start``: the first
    rate when there is no ceiling. ``points``: paced points allowed."""

    points: int
    start: float | None = None
    ceiling: float | None = None
    factor: float = FACTOR
    tolerance: float = TOLERANCE
    tried: list[Trial] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.start is None and self.ceiling is None:
            raise ValueError("a search needs a start rate or an unpaced ceiling")

    @property
    def bounds(self) -> tuple[float | None, float | None]:
        """(highest passing rate below the lowest failing one, that failing rate or the ceiling)."""
        fails = [t.rate for t in self.tried if not t.passed] + ([self.ceiling] if self.ceiling else [])
        hi = min(fails) if fails else None
        passes = [t.rate for t in self.tried if t.passed and (hi is None or t.rate < hi)]
        return (max(passes) if passes else None), hi

    @property
    def span(self) -> float:
        """Under a ceiling: how far below it the bisection starts (ceiling ÷ span is its floor), as wide
        as ``points`` geometric bisections narrow to :data:`PRECISION`, between 4 and :data:`MAX_SPAN`."""
        log_span = math.log(PRECISION) * 2.0 ** min(self.points, 64)  # in logs: 1.04^(2^30) overflows a float
        return max(self.factor, math.exp(min(log_span, math.log(MAX_SPAN))))

    @property
    def floor(self) -> float | None:
        """The lower end of the first bracket (ops/s) when searching under a ceiling, else None."""
        return self.ceiling / self.span if self.ceiling is not None and self.start is None else None

    @property
    def found(self) -> float | None:
        """The highest offered rate that met the SLO (ops/s), None when none did."""
        return self.bounds[0]

    def next_rate(self) -> float | None:
        """The next rate to try (ops/s, whole), or None when the search is done."""
        if len(self.tried) >= self.points:
            return None
        lo, hi = self.bounds
        floor = self.floor
        if not self.tried and self.start is not None:
            rate = self.start
        elif lo is None and floor is not None and hi is not None and hi > floor * (1 + self.tolerance):
            rate = math.sqrt(floor * hi)  # nothing passed yet: bisect down to the floor first
        elif lo is None:
            rate = min(t.rate for t in self.tried) / self.factor
        elif hi is None:
            rate = max(t.rate for t in self.tried) * self.factor
        else:
            if hi <= lo * (1 + self.tolerance):
                return None
            rate = math.sqrt(lo * hi)
        rate = float(max(1, round(rate)))
        if any(t.rate == rate for t in self.tried) or (lo is not None and hi is not None and not lo < rate < hi):
            return None  # the bounds are closer than 1 op/s, or a rate below 1 op/s failed
        return rate

    def record(self, trial: Trial) -> None:
        self.tried.append(trial)

    @property
    def ended(self) -> str:
        """Why it stopped: ``converged``, ``budget`` (points spent), ``none-passed`` or ``all-passed``."""
        lo, hi = self.bounds
        if lo is None:
            return "none-passed"
        if hi is None:
            return "all-passed"
        return "converged" if hi <= lo * (1 + self.tolerance) or len(self.tried) < self.points else "budget"


@dataclass
class SearchContext:
    """What a search needs besides its point: the objective (``slo``, as ``--slo`` gives it), the first rate
    (``start``, ops/s; None: under the unpaced ceiling) and the point ``budget`` (the unpaced point
    included), the run ids already ``ok`` (``--resume`` replays those), where the searches are kept
    (the manifest's ``slo_searches``: read and updated after every point) and the user's console."""

    slo: str
    start: float | None
    budget: int
    done_ids: set[str]
    sink: ResultSink
    note: Callable[[str], None]

    def stored(self, key: dict[str, Any]) -> dict[str, Any]:
        """The search kept under ``key`` (target, workload, threads), or {}."""
        return next((s for s in self.sink.manifest.slo_searches if {k: s.get(k) for k in key} == key), {})

    def keep(self, doc: dict[str, Any]) -> None:
        key = (doc["target"], doc["workload"], doc["threads"])
        others = [s for s in self.sink.manifest.slo_searches
                  if (s.get("target"), s.get("workload"), s.get("threads")) != key]
        self.sink.update_manifest(slo_searches=[*others, dict(doc)])


def search_point(base: Point, measure: Callable[[Point], RunRecord | None], ctx: SearchContext) -> bool:
    """Run (or, on ``--resume``, replay) the SLO search of ``base``'s target × workload × thread count,
    measuring each point with ``measure`` (None: the target is skipped from here on); the search is kept
    in ``manifest.slo_searches`` after every point. False when the target is skipped from here on."""
    slo = parse_slo(ctx.slo)
    label, workload, threads = base.target.label, base.workload_name, base.threads
    key = {"target": label, "workload": workload, "threads": threads}
    stored = ctx.stored(key)
    known = {t["rate"]: t for t in stored.get("tried", [])}
    doc: dict[str, Any] = {**key, "slo": str(slo), "judged": slo.column, "parameters": {
        "start": ctx.start, "points": ctx.budget, "factor": FACTOR, "tolerance": TOLERANCE,
        "precision": PRECISION, "max_span": MAX_SPAN, "min_achieved": MIN_ACHIEVED}, "unpaced_run_id": None,
                           "unpaced_ops": None, "unpaced_status": stored.get("unpaced_status"), "tried": [],
        "found_rate": None, "ended": None, "finished": False}
    budget = ctx.budget
    ceiling = None
    if ctx.start is None:  # the ceiling: one unpaced point
        unpaced = replace(base, repetition=1, rate=None)
        if unpaced.run_id in ctx.done_ids and stored.get("unpaced_ops"):
            ceiling = float(stored["unpaced_ops"])
        else:
            record = measure(unpaced)
            if record is None:
                return False
            if record.status == RunStatus.OK and record.result is not None and record.result.operations:
                ceiling = record.result.throughput_ops
            doc.update(unpaced_status=str(record.status) if ceiling is None else "ok")
        doc.update(unpaced_run_id=unpaced.run_id, unpaced_ops=ceiling)
        budget -= 1
        if ceiling is None:
            doc.update(ended="unpaced-failed", finished=True)
            ctx.keep(doc)
            status = ended_words(str(doc.get("unpaced_status") or "failed"))
            ctx.note(f"{label} {workload} {threads} threads: {slo}: the unpaced point {status}, so there "
                     "is no ceiling to search under: fix it, or give --slo-start RATE")
            return True
        ctx.keep(doc)  # the ceiling, before the first paced point: a search resumed from here does not measure it again
    search = RateSearch(points=budget, start=ctx.start, ceiling=ceiling)
    while (rate := search.next_rate()) is not None:
        paced = replace(base, repetition=1, rate=rate)
        if paced.run_id in ctx.done_ids and rate in known:
            trial = Trial(**known[rate])
        else:
            record = measure(paced)
            if record is None:
                return False
            trial = judge_trial(slo, rate, record)
            ctx.note(f"  {slo} at {rate:,.0f} ops/s: {'pass' if trial.passed else 'fail'} ({trial.why})")
        search.record(trial)
        doc.update(tried=[asdict(t) for t in search.tried], found_rate=search.found)
        ctx.keep(doc)
    doc.update(ended=search.ended, finished=True)
    ctx.keep(doc)
    ctx.note(f"{label} {workload} {threads} threads: {summary_line(doc)}")
    return True
