"""One point of a sweep (``ycsbctl.experiment.point_runner``) against a real redis-server: the record it keeps
is the Point's (run id, target, workload, phase, threads, rate), the engine was handed the case's workload as
the study built it, a dataset emptied before a point flags that point (``ycsbctl.experiment.dataset``), and a
point whose keys hold another type says once, in full, to run with --load."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis

from ycsbctl.engine.contract import NativeEngine, PhaseRun
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.experiment.live_console import Console
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.point_runner import WRONGTYPE_HINT, PointRunner, disturbance_windows
from ycsbctl.experiment.progress import Progress
from ycsbctl.experiment.resolve import resolve_study
from ycsbctl.experiment.result_sink import MemorySink
from ycsbctl.provision import Endpoint
from ycsbctl.results.names import RunStatus
from ycsbctl.results.schema import Manifest
from ycsbctl.workload.keys import build_key_name

RECORDS = 200


class SeenEngine:
    """The native engine, keeping each spec it was handed."""

    name = "native"

    def __init__(self) -> None:
        self.specs: list[PhaseSpec] = []

    def prepare(self, spec: PhaseSpec) -> PhaseRun:
        self.specs.append(spec)
        return NativeEngine().prepare(spec)


def _runner(url: str, **plan: object):
    study = resolve_study(Plan(workloads=["workload-c"], targets=[url], records=RECORDS, duration_s=0.3,
                               telemetry=False, processes=1, threads=[2], **plan))  # type: ignore[arg-type]
    notes: list[str] = []
    console = Console(Progress(10, quiet=True))
    console.progress.note = notes.append  # type: ignore[method-assign]  # the console's notes go there too
    engine, sink = SeenEngine(), MemorySink(Manifest("t"))
    return study, PointRunner(study, engine, sink, console), engine, sink, notes


def _endpoint(url: str) -> Endpoint:
    return Endpoint(target=url, protocol="redis", url=url, backend="external", pid=None)


def test_a_points_record_is_the_points_own_and_the_engine_gets_the_workload_the_study_built(module_redis):
    url = module_redis.url
    study, runner, engine, sink, _ = _runner(url, target_rates=[300.0])
    (target,), (case,) = study.targets, study.cases
    ep = _endpoint(url)
    load = runner.load(ep, study.dataset_load(target, case))
    assert load.status == RunStatus.OK and load.run_id == f"{target.label}.workloadc.load.t8.r1"
    assert sum(1 for _ in redis.Redis.from_url(url).scan_iter(match="user*", count=1000)) == RECORDS
    (cell,) = study.cells(target)
    point = cell.point(2)
    record = runner.point(ep, point)
    assert (record.run_id, record.target, record.workload, record.phase, record.threads, record.repetition,
            record.target_rate) == (point.run_id, target.label, "workloadc", "run", 2, 2, 300.0)
    assert record.status == RunStatus.OK, record.error
    assert set(sink.runs) == {load.run_id, point.run_id} and runner.records == [load, record]
    assert [s.built_workload for s in engine.specs] == [case.built, case.built]  # built once, by the study
    assert engine.specs[1].target_rate == 300.0 and engine.specs[0].target_rate is None  # a load is unpaced


def test_a_dataset_emptied_before_a_point_flags_that_point_and_says_so_once(module_redis):
    url = module_redis.url
    study, runner, _, _, notes = _runner(url, load=True)
    (target,), (case,) = study.targets, study.cases
    ep = _endpoint(url)
    assert runner.load(ep, study.dataset_load(target, case)).status == RunStatus.OK
    rds = redis.Redis.from_url(url)
    for key in list(rds.scan_iter(match="user*", count=1000))[: RECORDS // 2]:
        rds.delete(key)
    held = RECORDS - RECORDS // 2  # the records left (beside them, the binding's _indices set)
    (cell,) = study.cells(target)
    first, second = runner.point(ep, cell.point(1)), runner.point(ep, cell.point(2))
    for record in (first, second):
        assert record.status == RunStatus.DEGRADED
        assert f"the server held {held:,} of the {RECORDS:,} records when the point began" in record.error
        assert record.result.returns("NOT_FOUND") > 0  # the reads of the deleted keys, as the server answered
    assert sum("warning: the server held" in n for n in notes) == 1  # said once, not per point


def test_keys_of_another_type_fail_the_point_with_the_hint_to_load_said_once_in_full(module_redis, tmp_path: Path):
    url = module_redis.url
    rds = redis.Redis.from_url(url)
    rds.flushall()
    study, runner, _, _, notes = _runner(url, load=False)
    (target,) = study.targets
    for i in range(RECORDS):  # a string where workload-c reads a Hash (the key names YCSB's binding uses)
        rds.set(build_key_name(i), "x")
    keys = {k.decode() for k in rds.scan_iter(match="user*", count=1000)}
    ep = _endpoint(url)
    (cell,) = study.cells(target)
    records = [runner.point(ep, cell.point(r)) for r in (1, 2)]
    wrong = [r for r in records if r.error and "WRONGTYPE" in r.error]
    assert len(keys) == RECORDS and wrong, [r.error for r in records]
    assert all(WRONGTYPE_HINT in r.error for r in wrong)
    assert notes.count(f"hint: {WRONGTYPE_HINT}") == 1


def test_a_disturbance_window_is_its_command_and_the_second_after_it():
    import pandas as pd

    events = pd.DataFrame({"t_s": [2.0, None, 5.5], "command_s": [0.25, 1.0, None]})
    assert disturbance_windows(events) == [(2.0, 3.25)]  # an event that did not run has no window
    assert disturbance_windows(None) == [] == disturbance_windows(events.iloc[0:0])
    # a slowdown that outlasts that second: its affected window (an older folder's events have none)
    slowed = events.assign(affected_end_s=[4.5, None, None])
    assert disturbance_windows(slowed) == [(2.0, 4.5)]
    assert disturbance_windows(events.assign(affected_end_s=[2.5, None, None])) == [(2.0, 3.25)]


@pytest.mark.parametrize("load", [True, False])
def test_the_dataset_load_is_named_after_the_dataset_the_case_reads(load):
    study = resolve_study(Plan(workloads=["online-status[online.structure=set]", "workload-b"], targets=["redis"],
                               load=load))
    target = study.targets[0]
    assert [study.dataset_load(target, c).run_id for c in study.cases] == [
        "redis.online-status-set.load.t8.r1", "redis.online-status-set.load.t8.r1"]
    assert target.loads is load


def _dbsize_calls(url: str) -> int:
    """DBSIZE commands the server has answered (its own INFO commandstats)."""
    return int(redis.Redis.from_url(url).info("commandstats").get("cmdstat_dbsize", {}).get("calls", 0))


def test_the_count_after_a_point_serves_the_next_points_start_on_that_server_until_a_load(module_redis):
    """Two points in a row count the dataset three times, not four (the second starts from the first's count after
    it); a load in between makes the next point count again; a dataset cut between them is still flagged."""
    url = module_redis.url
    study, runner, _, _, _ = _runner(url, load=True)
    (target,), (case,) = study.targets, study.cases
    ep = _endpoint(url)
    assert runner.load(ep, study.dataset_load(target, case)).status == RunStatus.OK
    (cell,) = study.cells(target)
    before = _dbsize_calls(url)
    assert runner.point(ep, cell.point(1)).status == RunStatus.OK
    assert runner.point(ep, cell.point(2)).status == RunStatus.OK
    assert _dbsize_calls(url) - before == 3
    assert runner.load(ep, study.dataset_load(target, case)).status == RunStatus.OK
    before = _dbsize_calls(url)
    rds = redis.Redis.from_url(url)
    rds.delete(*list(rds.scan_iter(match="user*", count=1000))[:10])
    cut = runner.point(ep, cell.point(3))
    assert _dbsize_calls(url) - before == 1  # counted at its start (after the load); flagged there, not after
    assert cut.status == RunStatus.DEGRADED and f"{RECORDS - 10:,} of the {RECORDS:,} records when the point began" \
        in cut.error
