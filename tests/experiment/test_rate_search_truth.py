"""The SLO search's numbers against truths computed another way (``ycsbctl.experiment.rate_search`` and
``ycsbctl.results.slo``).

- The pass rule at its boundaries: achieved exactly 99 % of the offered rate passes, one op/s less
  fails; a latency exactly at the limit passes (``p99<=1ms`` reads as ``p99<1ms``); a point not ``ok``
  fails whatever its numbers; the *intended* latency is judged when the point recorded it. Latencies
  are constant histograms below 2,048 µs, which HDR keeps exactly: each percentile is the value itself.
- The point budget and the bracket it narrows: ``span`` is 1.04^(2^points) clamped to [4, 1,000]
  (the module docstring), bisection stops at exactly 2 %, rates never go below 1 op/s.
- The search run by :func:`search_point` against a synthetic server whose knee is known in closed
  form (intended p99 = 100 µs / (1 − λ/cap), so ``p99<1ms`` holds up to 0.9·cap exactly; the actual
  p99 stays at 100 µs, so judging it would claim rates up to the ceiling): the number of points it
  measures against ``--slo-points``; its manifest read back from JSON replays the search; a search
  interrupted at any point and resumed gives the uninterrupted search and measures no point twice.
"""

from __future__ import annotations

import json
import math
from types import SimpleNamespace

import pytest

from ycsbctl.errors import UserError
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.rate_search import RateSearch, SearchContext, search_point
from ycsbctl.experiment.resolve import resolve_study
from ycsbctl.experiment.result_sink import MemorySink
from ycsbctl.experiment.study import Point
from ycsbctl.results import histogram as hdr
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.model import OpSummary, PhaseResult
from ycsbctl.results.names import RunStatus
from ycsbctl.results.run_columns import LATENCY_STATS, RUN_COLUMNS
from ycsbctl.results.schema import Manifest
from ycsbctl.results.slo import Slo, Trial, judge_trial, parse_slo, summary_line

pytestmark = pytest.mark.truth


def series(name: str, latency_us: int, n: int = 200) -> OpSummary:
    """A measurement series whose every operation took ``latency_us`` (every percentile is that value)."""
    h = hdr.new_histogram()
    hdr.record_many(h, [latency_us] * n)
    return OpSummary.from_histogram(name, h)


def point(achieved_ops: int, ops: dict[str, int], status: RunStatus = RunStatus.OK, measurement: str | None = "both",
          rate: float | None = None, error: str | None = None) -> RunRecord:
    """A point of one second that ran ``achieved_ops`` operations, with ``ops``: series name → latency (µs)."""
    result = PhaseResult("run", 4, 1000.0, achieved_ops, ops={n: series(n, v) for n, v in ops.items()},
                         measurement=measurement, target_rate=rate)
    return RunRecord(RunRecord.make_id("redis", "workloadb", "run", 4, 1, rate), "redis", "workloadb", "run", 4, 1,
                     status, result=result, error=error, target_rate=rate)


# -- the pass rule --------------------------------------------------------------------------------------
def test_achieved_99_percent_of_the_offered_rate_passes_and_one_op_less_is_saturated():
    slo = parse_slo("READ:p99<1ms")
    lat = {"READ": 200, "Intended-READ": 300}
    assert judge_trial(slo, 10_000, point(9_900, lat, rate=10_000)).passed  # 99 % exactly
    low = judge_trial(slo, 10_000, point(9_899, lat, rate=10_000))
    assert not low.passed and low.achieved_ops == 9_899
    far = judge_trial(slo, 10_000, point(9_000, lat, rate=10_000))
    assert not far.passed and "90.0% of the offered rate" in far.why  # 9,000 / 10,000


def test_a_latency_exactly_at_the_limit_passes_and_one_microsecond_more_fails():
    slo = parse_slo("READ:p99<=1ms")
    at = judge_trial(slo, 1000, point(1000, {"READ": 50, "Intended-READ": 1000}, rate=1000))
    assert at.passed and at.latency_us == 1000 and at.latency == "intended"
    assert at.why == "intended p99 1 ms ≤ 1 ms"
    over = judge_trial(slo, 1000, point(1000, {"READ": 50, "Intended-READ": 1001}, rate=1000))
    assert not over.passed and over.why == "intended p99 1 ms > 1 ms"  # 1,001 µs, 3 significant digits
    under = judge_trial(parse_slo("READ:p99<2ms"), 1000, point(1000, {"READ": 50, "Intended-READ": 999}, rate=1000))
    assert under.passed and under.why == "intended p99 999 µs ≤ 2 ms"
    big = judge_trial(parse_slo("READ:p50<1ms"), 1000, point(1000, {"READ": 50, "Intended-READ": 1500}, rate=1000))
    assert not big.passed and big.why == "intended p50 1.5 ms > 1 ms"


@pytest.mark.parametrize("status", [RunStatus.DEGRADED, RunStatus.FAILED])
def test_a_point_not_ok_fails_whatever_its_numbers(status):
    slo = parse_slo("READ:p99<1ms")
    t = judge_trial(slo, 1000, point(1000, {"READ": 50, "Intended-READ": 60}, status=status, rate=1000,
                                     error="server restarted"))
    assert not t.passed and t.status == str(status) and t.why == f"{status}: server restarted"
    t = judge_trial(slo, 1000, point(1000, {"READ": 50, "Intended-READ": 60}, status=status, rate=1000))
    assert not t.passed and t.why == f"{status}: not ok"
    ok = judge_trial(slo, 1000, point(1000, {"READ": 50, "Intended-READ": 60}, rate=1000))
    assert ok.passed and ok.status == "ok"


def test_a_point_that_measured_nothing_fails_naming_why():
    slo = parse_slo("p99<1ms")
    nothing = RunRecord("r", "redis", "workloadb", "run", 4, 1, RunStatus.FAILED, result=None,
                        error="connection refused", target_rate=1000)
    t = judge_trial(slo, 1000, nothing)
    assert not t.passed and t.why == "failed: connection refused" and t.achieved_ops is None
    empty = point(0, {}, rate=1000)
    t = judge_trial(slo, 1000, empty)
    assert not t.passed and t.why == "ok: nothing measured" and t.achieved_ops is None


def test_a_point_without_the_judged_operation_fails_naming_it():
    t = judge_trial(parse_slo("READ:p99<1ms"), 1000, point(1000, {"UPDATE": 50, "Intended-UPDATE": 60}, rate=1000))
    assert not t.passed and t.latency_us is None and t.why == "no READ latency measured"


# -- which latency is judged ------------------------------------------------------------------------------
def test_the_intended_latency_is_judged_when_recorded_else_the_actual_one_named_as_ycsb_names_it():
    read = Slo(99.0, 1000.0, "READ")
    both = point(1000, {"READ": 100, "Intended-READ": 700, "UPDATE": 300, "Intended-UPDATE": 900})
    assert read.latency_us(both.result) == (700, "intended")
    # only the plain series: with measurement.interval=intended it *is* the intended latency (YCSB)
    assert read.latency_us(point(1000, {"READ": 400}, measurement="intended").result) == (400, "intended")
    assert read.latency_us(point(1000, {"READ": 400}, measurement="op").result) == (400, "actual")
    assert read.latency_us(point(1000, {"UPDATE": 400}).result) == (None, "actual")


def test_every_operation_merged_judges_the_merged_intended_histogram():
    """900 intended READs at 300 µs and 100 intended UPDATEs at 1,500 µs: the top 10 % of the merged
    histogram is 1,500 µs, so p95 and p99 are 1,500 µs and p50 is 300 µs; the actual series (100 and
    200 µs) must not be judged."""
    ops = {"READ": series("READ", 100, 900), "UPDATE": series("UPDATE", 200, 100),
           "Intended-READ": series("Intended-READ", 300, 900), "Intended-UPDATE": series("Intended-UPDATE", 1500, 100)}
    r = PhaseResult("run", 4, 1000.0, 1000, ops=ops, measurement="both")
    assert Slo(99.0, 1000.0).latency_us(r) == (1500, "intended")
    assert Slo(95.0, 1000.0).latency_us(r) == (1500, "intended")
    assert Slo(50.0, 1000.0).latency_us(r) == (300, "intended")
    actual = PhaseResult("run", 4, 1000.0, 1000, ops={k: v for k, v in ops.items() if "-" not in k}, measurement="op")
    assert Slo(99.0, 1000.0).latency_us(actual) == (200, "actual")


@pytest.mark.parametrize("text", ["p50<1ms", "p95<1ms", "p99<1ms", "p99.9<1ms", "p99.99<1ms", "READ:p99<1ms",
                                  "UPDATE:p99.9<1ms", "READ-MODIFY-WRITE:p95<1ms"])
def test_the_judged_column_is_the_runs_column_of_that_percentile(text):
    """``judged`` names a runs.parquet column whose percentile (the schema's LATENCY_STATS) is the SLO's."""
    slo = parse_slo(text)
    prefix, _, stat = slo.column.removesuffix("_us").rpartition("_")
    assert LATENCY_STATS[stat] == slo.percentile
    assert prefix == (slo.operation or "all").lower().replace("-", "_")
    if slo.operation in (None, "READ", "UPDATE"):
        assert slo.column in {c.name for c in RUN_COLUMNS}


# -- the objective as written -------------------------------------------------------------------------
@pytest.mark.parametrize("text,spelled", [("p99<1ms", "p99<1ms"), ("p99<1000us", "p99<1ms"), ("p99<999us", "p99<999us"),
                                          ("p99<1.5ms", "p99<1.5ms"), ("READ:p50<1us", "READ:p50<1us"),
                                          ("p99.9<2s", "p99.9<2000ms")])
def test_the_manifest_spells_the_objective_in_us_below_1_ms_and_in_ms_from_1_ms(text, spelled):
    assert str(parse_slo(text)) == spelled


def test_an_unknown_operation_is_named_as_written():
    with pytest.raises(UserError) as e:
        parse_slo("fetch:p99<1ms")
    assert "unknown operation fetch: " in e.value.message


# -- the bracket and the budget ---------------------------------------------------------------------------
@pytest.mark.parametrize("points", [2, 5, 6, 7, 8, 9, 30, 64, 100])
def test_the_span_under_a_ceiling_is_what_the_budget_narrows_to_4_percent(points):
    """1.04^(2^points) between 4 and 1,000: 151.4 for 7 paced points (the module docstring)."""
    want = min(max(1.04 ** (2 ** min(points, 10)), 4.0), 1000.0)  # 1.04^1024 > 1,000 already
    search = RateSearch(points=points, ceiling=50_000.0)
    assert search.span == pytest.approx(want, rel=1e-9)
    assert search.floor == pytest.approx(50_000.0 / want, rel=1e-9)
    # the first paced point is the geometric middle of [floor, ceiling]
    assert search.next_rate() == round(50_000.0 / math.sqrt(want))


def test_bisection_stops_at_exactly_2_percent_and_not_before():
    at = RateSearch(points=8, start=10_000)
    at.record(Trial(10_000, True, "pass"))
    at.record(Trial(10_200, False, "fail"))  # 2 % above: done, with points to spare
    assert at.next_rate() is None and at.ended == "converged" and at.found == 10_000
    over = RateSearch(points=8, start=10_000)
    over.record(Trial(10_000, True, "pass"))
    over.record(Trial(10_201, False, "fail"))  # 2.01 % above: one more, at the geometric mean
    assert over.next_rate() == round(math.sqrt(10_000 * 10_201))
    under = RateSearch(points=8, start=10_000)
    under.record(Trial(10_000, True, "pass"))
    under.record(Trial(10_199, False, "fail"))
    assert under.next_rate() is None


def test_a_spent_budget_is_said_and_converging_on_the_last_point_is_not():
    """--slo-start 1000, 3 points: 1000 passes, ×4 = 4000 fails, √(1000·4000) = 2000 passes; the
    bounds 2000..4000 are 100 % apart: the budget ran out."""
    spent = RateSearch(points=3, start=1000)
    for passed in (True, False, True):
        spent.record(Trial(spent.next_rate(), passed, ""))
    assert [t.rate for t in spent.tried] == [1000, 4000, 2000]
    assert spent.next_rate() is None and spent.bounds == (2000, 4000) and spent.ended == "budget"
    last = RateSearch(points=2, start=10_000)
    last.record(Trial(10_000, True, ""))
    last.record(Trial(10_200, False, ""))  # 2 % exactly, on the last point allowed
    assert last.next_rate() is None and last.ended == "converged"


def test_nothing_passing_down_to_the_floor_leaves_bisection_for_the_ladder_within_2_percent_of_it():
    """3 points: span 4 (1.04^8 < 4), so under a 4,000 ops/s ceiling the floor is 1,000 ops/s."""
    search = RateSearch(points=3, ceiling=4000.0)
    assert search.floor == 1000.0 and search.next_rate() == 2000
    at = RateSearch(points=3, ceiling=4000.0)
    at.record(Trial(1020, False, ""))  # 2 % above the floor: bracket narrowed, on to ÷4 below it
    assert at.next_rate() == 255
    above = RateSearch(points=3, ceiling=4000.0)
    above.record(Trial(1021, False, ""))  # still wider than 2 %: bisect towards the floor
    assert above.next_rate() == round(math.sqrt(1000 * 1021))


def test_the_ladder_down_bottoms_at_one_op_per_second_and_tries_it_once():
    """10 ÷ 4 = 2.5 → 2 (rates are whole), 2 ÷ 4 = 0.5 → 1 (never below 1 op/s), 1 ÷ 4 → 1 again: stop."""
    search = RateSearch(points=8, start=10)
    while (rate := search.next_rate()) is not None:
        search.record(Trial(rate, False, "fails everywhere"))
    assert [t.rate for t in search.tried] == [10, 2, 1] and search.ended == "none-passed"


# -- the summary line ---------------------------------------------------------------------------------
def _doc(tried: list[tuple[float, bool, str]], found: float | None, ended: str, unpaced: bool = True) -> dict:
    return {"slo": "p99<1ms", "tried": [{"rate": r, "passed": p, "why": w} for r, p, w in tried], "found_rate": found,
            "ended": ended, "unpaced_run_id": "redis.workloadb.run.t4.r1" if unpaced else None,
            "unpaced_ops": 50_000.0 if unpaced else None}


def test_the_summary_names_the_points_spent_and_the_nearest_failing_rate():
    doc = _doc([(4069, True, "ok"), (14_261, False, "p99 3 ms > 1 ms"), (7618, False, "p99 1.2 ms > 1 ms")], 4069,
               "budget")
    assert summary_line(doc) == ("p99<1ms holds up to 4,069 ops/s (4 points, point budget spent; "
                                 "7,618 ops/s failed: p99 1.2 ms > 1 ms)")  # 3 paced + the unpaced one
    start = _doc([(1000, True, ""), (4000, True, ""), (16_000, True, "")], 16_000, "all-passed", unpaced=False)
    assert (
        summary_line(start)
        == "p99<1ms holds up to 16,000 ops/s (every rate tried passed: raise --slo-start) (3 points)"
    )
    none = _doc([(1000, False, ""), (250, False, ""), (62, False, "")], None, "none-passed", unpaced=False)
    assert summary_line(none) == "p99<1ms not met at any rate tried (lowest 62 ops/s; 3 points)"
    failed = {**_doc([], None, "unpaced-failed"), "unpaced_ops": None}
    assert summary_line(failed) == "p99<1ms: not searched (the unpaced point failed)"


# -- the search as a sweep runs it --------------------------------------------------------------------
CAP_PER_THREAD = 20_000.0  # the synthetic server's capacity (ops/s) per client thread
BASE_US = 100  # its latency when idle; the queue's intended p99 is BASE_US / (1 − λ/cap)


STUDY = resolve_study(Plan(workloads=["workload-b"], targets=["redis"]))  # resolved only: no server is started


def knee(threads: int) -> float:
    """The highest rate meeting p99 ≤ 1 ms on the synthetic server: 100 / (1 − λ/cap) ≤ 1000 ⇔ λ ≤ 0.9·cap."""
    return 0.9 * CAP_PER_THREAD * threads


class FakeSweep:
    """What :func:`search_point` is given by a sweep — ``measure(point)`` and a :class:`SearchContext` (the
    plan's objective and budget, the sink, the done ids, the console) — measuring the synthetic server.
    ``stop_after``: measure returns None (target skipped) from that point on."""

    def __init__(self, plan: SimpleNamespace, store: MemorySink, stop_after: int | None = None,
                 unpaced_fails: bool = False, unpaced_status: RunStatus = RunStatus.FAILED,
                 degraded_from: float | None = None) -> None:
        self.plan, self.store, self.stop_after, self.unpaced_fails = plan, store, stop_after, unpaced_fails
        self.unpaced_status, self.degraded_from = unpaced_status, degraded_from
        self.done_ids = store.run_ids(RunStatus.OK)
        self.measured: list[str] = []
        self.notes: list[str] = []

    def context(self) -> SearchContext:
        plan = self.plan
        return SearchContext(plan.slo, plan.slo_start, plan.slo_points, self.done_ids, self.store, self.notes.append)

    def measure(self, p: Point) -> RunRecord | None:
        if self.stop_after is not None and len(self.measured) >= self.stop_after:
            return None
        threads, rate = p.threads, p.rate
        cap = CAP_PER_THREAD * threads
        achieved = cap if rate is None else min(rate, cap)
        lat = {"READ": BASE_US}
        if rate is not None:
            lat["Intended-READ"] = math.ceil(BASE_US / (1 - rate / cap)) if rate < cap else 10**6
        status = self.unpaced_status if rate is None and self.unpaced_fails else RunStatus.OK
        if rate is not None and self.degraded_from is not None and rate >= self.degraded_from:
            status = RunStatus.DEGRADED  # another load generator on the host: measured, not judged
        error = "host busy: redis-benchmark (pid 4242) ran beside it" if status == RunStatus.DEGRADED else None
        r = point(round(achieved), lat, status=status, rate=rate)
        record = RunRecord(p.run_id, p.target.label, p.workload_name, p.phase, threads, p.repetition, status,
                           result=r.result, target_rate=rate, error=error)
        self.store.add_run(record)
        self.measured.append(p.run_id)
        return record


def _plan(**kw) -> SimpleNamespace:
    return SimpleNamespace(**{"slo": "READ:p99<1ms", "slo_start": None, "slo_points": 8, **kw})


def _search(sweep: FakeSweep, threads: int) -> dict:
    (doc,) = [s for s in sweep.store.manifest.slo_searches if s["threads"] == threads]
    return doc


def _reread(store: MemorySink) -> MemorySink:
    """The store as --resume finds it: the manifest read back from its JSON, the runs kept."""
    manifest = Manifest.from_dict(json.loads(json.dumps(store.manifest.to_dict())))
    return MemorySink(manifest, list(store.runs.values()))


def _sweep(plan: SimpleNamespace, sweep: FakeSweep, threads=(1, 2)) -> bool:
    (target,), (case,) = STUDY.targets, STUDY.cases  # redis × workloadb
    return all(search_point(Point(target, case, t), sweep.measure, sweep.context()) for t in threads)


@pytest.mark.parametrize("points", [3, 8])
def test_a_search_under_the_unpaced_ceiling_spends_its_budget_and_finds_the_intended_knee(points):
    plan = _plan(slo_points=points)
    sweep = FakeSweep(plan, MemorySink(Manifest("slo")))
    assert _sweep(plan, sweep, threads=(2,))
    doc = _search(sweep, 2)
    # the budget counts the unpaced point: it is measured first, as repetition 1 of the unpaced point
    assert len(sweep.measured) == points and doc["ended"] == "budget" and doc["finished"]
    assert sweep.measured[0] == doc["unpaced_run_id"] == RunRecord.make_id("redis", "workloadb", "run", 2, 1)
    assert doc["unpaced_ops"] == 2 * CAP_PER_THREAD and len(doc["tried"]) == points - 1
    assert [t["run_id"] for t in doc["tried"]] == sweep.measured[1:]
    # each paced point is repetition 1 of its rate, as the unpaced one: one round, numbered as every round is
    assert {sweep.store.runs[i].repetition for i in sweep.measured} == {1}
    for t in doc["tried"]:  # each verdict is the server's truth: the knee, in closed form
        assert t["passed"] == (t["rate"] <= knee(2)), t
    if points == 8:  # 7 paced points narrow the 151× bracket to 4 %: below the knee, within 4 %
        assert knee(2) / 1.04 <= doc["found_rate"] <= knee(2)
    failed = sorted((t for t in doc["tried"] if not t["passed"]), key=lambda t: t["rate"])
    nearest = f"{failed[0]['rate']:,.0f} ops/s failed: {failed[0]['why']}" if failed else \
        f"the unpaced maximum is {2 * CAP_PER_THREAD:,.0f} ops/s"  # nothing failed: the ceiling bounds it
    assert (
        summary_line(doc)
        == f"READ:p99<1ms holds up to {doc['found_rate']:,.0f} ops/s ({points} points, point budget spent; {nearest})"
    )


def test_a_search_from_a_start_rate_measures_no_unpaced_point():
    plan = _plan(slo_start=10_000.0, slo_points=8)
    sweep = FakeSweep(plan, MemorySink(Manifest("slo")))
    assert _sweep(plan, sweep, threads=(1,))
    doc = _search(sweep, 1)
    rates = [t["rate"] for t in doc["tried"]]
    assert doc["unpaced_run_id"] is None and len(sweep.measured) == len(rates) <= 8 and rates[0] == 10_000
    assert all(t["passed"] == (t["rate"] <= knee(1)) for t in doc["tried"])
    assert doc["found_rate"] is not None and knee(1) / 1.04 <= doc["found_rate"] <= knee(1)
    assert f"({len(rates)} points" in summary_line(doc)


def test_a_failed_unpaced_point_ends_the_search_before_any_paced_point():
    plan = _plan()
    sweep = FakeSweep(plan, MemorySink(Manifest("slo")), unpaced_fails=True)
    assert _sweep(plan, sweep, threads=(1,))
    doc = _search(sweep, 1)
    assert len(sweep.measured) == 1 and doc["ended"] == "unpaced-failed" and doc["finished"] and doc["tried"] == []
    assert doc["unpaced_ops"] is None and doc["found_rate"] is None
    assert summary_line(doc) == "READ:p99<1ms: not searched (the unpaced point failed)"


def test_a_degraded_point_is_never_called_failed():
    """A host-busy unpaced point ends the search as 'was degraded'; a host-busy paced point is 'not judged',
    with its reason, and the line says the search counted it as a miss."""
    plan = _plan()
    busy = FakeSweep(plan, MemorySink(Manifest("slo")), unpaced_fails=True, unpaced_status=RunStatus.DEGRADED)
    assert _sweep(plan, busy, threads=(1,))
    doc = _search(busy, 1)
    assert doc["ended"] == "unpaced-failed" and doc["unpaced_status"] == "degraded"
    assert summary_line(doc) == "READ:p99<1ms: not searched (the unpaced point was degraded)"
    assert any("the unpaced point was degraded, so there is no ceiling" in n for n in busy.notes), busy.notes
    paced = FakeSweep(plan, MemorySink(Manifest("slo")), degraded_from=0.5 * knee(1))
    assert _sweep(plan, paced, threads=(1,))
    doc = _search(paced, 1)
    misses = sorted((t for t in doc["tried"] if not t["passed"]), key=lambda t: t["rate"])
    assert misses and misses[0]["status"] == "degraded"
    line = summary_line(doc)
    assert "failed" not in line, line
    assert (f"{misses[0]['rate']:,.0f} ops/s not judged, the point was degraded (host busy: redis-benchmark (pid 4242) "
            "ran beside it); the search counted it as a miss)") in line


def test_each_thread_count_keeps_its_own_search_in_the_manifest():
    plan = _plan()
    sweep = FakeSweep(plan, MemorySink(Manifest("slo")))
    assert _sweep(plan, sweep)
    searches = sweep.store.manifest.slo_searches
    assert sorted(s["threads"] for s in searches) == [1, 2] and all(s["finished"] for s in searches)
    for t in (1, 2):
        assert _search(sweep, t)["unpaced_ops"] == t * CAP_PER_THREAD
        assert knee(t) / 1.04 <= _search(sweep, t)["found_rate"] <= knee(t)


def test_the_manifest_read_back_replays_the_search_and_measures_nothing():
    plan = _plan()
    first = FakeSweep(plan, MemorySink(Manifest("slo")))
    assert _sweep(plan, first)
    again = FakeSweep(plan, _reread(first.store))
    assert _sweep(plan, again)
    assert again.measured == []
    assert again.store.manifest.slo_searches == _reread(first.store).manifest.slo_searches


def _uninterrupted() -> tuple[list[str], list[dict]]:
    plan = _plan()
    sweep = FakeSweep(plan, MemorySink(Manifest("slo")))
    assert _sweep(plan, sweep)
    return sweep.measured, sorted(sweep.store.manifest.slo_searches, key=lambda s: s["threads"])


@pytest.mark.parametrize("stop_after", [1, 2, 3, 8, 9, 10, 12])
def test_a_search_interrupted_anywhere_resumes_to_the_same_search_measuring_no_point_twice(stop_after):
    """Two thread counts (8 points each): interrupted after ``stop_after`` points — in the first
    search, right after the second's unpaced point (9), or inside the second — and resumed from the
    manifest read back and the runs kept, it measures exactly the points not yet measured."""
    want_measured, want_searches = _uninterrupted()
    plan = _plan()
    cut = FakeSweep(plan, MemorySink(Manifest("slo")), stop_after=stop_after)
    assert not _sweep(plan, cut)
    assert cut.measured == want_measured[:stop_after]
    resumed = FakeSweep(plan, _reread(cut.store))
    assert _sweep(plan, resumed)
    assert resumed.measured == want_measured[stop_after:]
    assert sorted(resumed.store.manifest.slo_searches, key=lambda s: s["threads"]) == want_searches


def test_a_point_whose_run_was_lost_is_measured_again_on_resume():
    """The manifest names each point's run; a run no longer in the folder (its file damaged, say) is
    measured again rather than taken from the manifest alone, the unpaced one included: after the
    resume every run the searches name is in the folder, and only the lost ones were measured."""
    want_measured, want_searches = _uninterrupted()
    plan = _plan()
    first = FakeSweep(plan, MemorySink(Manifest("slo")))
    assert _sweep(plan, first)
    lost = [want_measured[0], want_measured[3], want_measured[8]]  # t1's unpaced and 3rd points, t2's unpaced
    store = _reread(first.store)
    for run_id in lost:
        del store.runs[run_id]
    resumed = FakeSweep(plan, store)
    assert _sweep(plan, resumed)
    assert resumed.measured == lost
    named = [s["unpaced_run_id"] for s in store.manifest.slo_searches] + \
        [t["run_id"] for s in store.manifest.slo_searches for t in s["tried"]]
    assert len(named) == 16 and set(named) <= set(store.runs)
    assert sorted(store.manifest.slo_searches, key=lambda s: s["threads"]) == want_searches
