"""The insert workload (its sweep measures loads) honours --duration and --operations as YCSB's load
honours maxexecutiontime and insertcount, on the real engine over basic:// (no server), and the ETA
follows the point that runs."""

from __future__ import annotations

import pytest

from tests.fixtures.sweep import BasicServers, RecordingEngine, run_sweep
from ycsbctl.engine.spec import Tick
from ycsbctl.experiment import progress as progress_module
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.progress import PointLength, Progress

INSERT = dict(workloads=["insert"], threads=[2], telemetry=False, processes=1)


def test_an_insert_point_ends_at_the_duration_the_user_gave():
    """A billion records cannot be inserted in 0.3 s: the point stops at the duration, with what it inserted."""
    plan = Plan(targets=["redis"], records=1_000_000_000, duration_s=0.3, **INSERT)
    engine = RecordingEngine()
    outcome, _ = run_sweep(plan, BasicServers(), engine)
    (spec,) = engine.specs
    assert (spec.phase, spec.duration_s, spec.warmup_s) == ("load", 0.3, 0.0)
    (record,) = outcome.records
    r = record.result
    assert record.status == "ok" and 0 < r.ops["INSERT"].operations < 1_000_000_000
    assert r.runtime_ms == pytest.approx(300, abs=150)  # measured from the first insert to the deadline


def test_an_insert_point_makes_operations_inserts_at_most_the_records():
    engine = RecordingEngine()
    outcome, _ = run_sweep(Plan(targets=["redis"], records=500, operations=120, **INSERT), BasicServers(), engine)
    assert engine.specs[0].properties["insertcount"] == "120" and engine.specs[0].duration_s is None
    assert outcome.records[0].result.ops["INSERT"].returns == {"OK": 120}
    capped = RecordingEngine()
    outcome, _ = run_sweep(Plan(targets=["redis"], records=50, operations=120, **INSERT), BasicServers(), capped)
    assert outcome.records[0].result.ops["INSERT"].returns == {"OK": 50}  # every record there is, once


def test_a_run_phase_ladders_dataset_load_stays_whole_whatever_the_duration():
    engine = RecordingEngine()
    run_sweep(Plan(targets=["redis"], workloads=["workload-b"], threads=[2], records=60, duration_s=0.2,
                   operations=30, telemetry=False, processes=1), BasicServers(), engine)
    load, run = engine.specs
    assert (load.phase, load.duration_s, load.properties.get("insertcount")) == ("load", None, None)
    assert (run.phase, run.duration_s) == ("run", 0.2)


def test_the_eta_of_a_count_bounded_point_follows_its_rate_and_a_timed_one_its_clock(monkeypatch):
    """The finished points took 10 s each; a load of 1,000 inserts at 25 ops/s has 30 s left after 10 s,
    whatever the mean of the points before (the ETA that stayed at '1m14s' while a point ran 240 s)."""
    now = [0.0]
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: now[0])
    p = Progress(4, quiet=True)
    for _ in range(2):
        p.start_point("earlier")
        now[0] += 10
        p.end_point("ok")
    p.start_point("load", PointLength(operations=1_000))
    now[0] += 10
    tick = Tick(second=9, operations=250, ops_per_s=25, p99_us=1.0, errors=0)
    assert p._eta(tick) == "ETA 0m40s"  # 30 s left of this one, then one more point at the mean (10 s)
    now[0] += 230
    late = Tick(second=239, operations=800, ops_per_s=3, p99_us=1.0, errors=0)
    assert p._eta(late) == "ETA 1m10s"  # 200 left at 800 per 240 s: 60 s, then 10 s
    timed = Progress(1, quiet=True)
    timed.start_point("run", PointLength(seconds=12.0))
    assert timed._eta(Tick(second=1, operations=9, ops_per_s=9, p99_us=1.0, errors=0)) == "ETA 0m10s"
    assert Progress(2, quiet=True)._eta() == "ETA —"  # nothing known yet
