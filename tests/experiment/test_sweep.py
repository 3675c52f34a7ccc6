"""The sweep in-process: the real engine over ``basic://`` (YCSB's BasicDB: no server), servers that
hand out ``basic://`` endpoints, and a store in memory or a real folder. Resume, the MongoDB
stand-in, crash restarts and failure accounting are played here without starting a server; the
same behaviours against real servers are in test_experiment.py (beside this file).

The servers and the recording engine are in tests/fixtures/sweep.py; what is measured is the native
engine's own work. A server "dies" by being marked dead; the point it was in fails the way a point
with a dead server fails: the engine's result says the connection was lost.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.fixtures.sweep import BasicServers, RecordingEngine, run_sweep
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.errors import UserError
from ycsbctl.experiment.live_console import Console
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.progress import Progress
from ycsbctl.experiment.resolve import resolve_study
from ycsbctl.experiment.result_sink import MemorySink
from ycsbctl.experiment.run import run_plan
from ycsbctl.experiment.sweep import Sweep
from ycsbctl.results import load
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.names import FolderStatus, RunStatus
from ycsbctl.results.schema import Manifest

SMALL = dict(workloads=["workload-b"], threads=[2, 4], records=60, duration_s=0.1, warmup_s=0.0, telemetry=False,
             processes=1)


def _lost(result: PhaseResult) -> PhaseResult:
    """The result of a point whose server went away: status failed, the connection's words first."""
    result.status = RunStatus.FAILED
    result.errors = ["lost the connection: Connection refused", *result.errors]
    return result


def test_a_plan_runs_its_load_then_every_point_and_keeps_each_in_the_store():
    plan = Plan(targets=["redis"], **SMALL)
    servers, engine = BasicServers(), RecordingEngine()
    outcome, store = run_sweep(plan, servers, engine)
    assert [(s.phase, s.threads) for s in engine.specs] == [("load", 8), ("run", 2), ("run", 4)]
    assert sorted(store.run_ids(RunStatus.OK)) == ["redis.workloadb.load.t8.r1", "redis.workloadb.run.t2.r1",
                                                   "redis.workloadb.run.t4.r1"]
    load_run = store.runs["redis.workloadb.load.t8.r1"].result
    assert load_run is not None and load_run.ops["INSERT"].returns == {"OK": 60}  # BasicDB answered every insert
    assert outcome.exit_code == 0 and outcome.folder_status() == FolderStatus.COMPLETE
    assert servers.log == [("up", "redis"), ("down", "redis")] and servers.running == []
    assert store.manifest.servers["redis"]["server_name"] == "BasicDB as redis"


def test_resume_runs_only_the_points_not_ok_and_loads_again_before_them():
    plan = Plan(targets=["redis"], **SMALL)
    done = RunRecord("redis.workloadb.run.t2.r1", "redis", "workloadb", "run", 2, 1, RunStatus.OK)
    failed = RunRecord("redis.workloadb.run.t4.r1", "redis", "workloadb", "run", 4, 1, RunStatus.FAILED)
    store = MemorySink(Manifest(experiment_id="t", plan=plan.to_dict()), [done, failed])
    engine = RecordingEngine()
    outcome, store = run_sweep(plan, BasicServers(), engine, store)
    assert [(s.phase, s.threads) for s in engine.specs] == [("load", 8), ("run", 4)]
    assert store.runs[done.run_id] is done  # left as it was
    assert store.runs[failed.run_id].status == RunStatus.OK
    assert outcome.exit_code == 0


def test_nothing_left_to_run_provisions_nothing():
    plan = Plan(targets=["redis"], **{**SMALL, "threads": [2]})
    done = RunRecord("redis.workloadb.run.t2.r1", "redis", "workloadb", "run", 2, 1, RunStatus.OK)
    servers, engine = BasicServers(), RecordingEngine()
    run_sweep(plan, servers, engine, MemorySink(Manifest(experiment_id="t"), [done]))
    assert servers.log == [] and engine.specs == []


def test_the_default_plans_mongodb_refused_here_brings_its_stand_in_labelled_as_itself():
    plan = Plan(**{**SMALL, "threads": [2]})  # the default targets: redis, mongodb
    refusal = UserError("mongod is MongoDB Community without the inMemory storage engine",
                        fix="install Percona Server for MongoDB", exit_code=1)
    servers, engine = BasicServers(refuse={"mongodb": refusal}), RecordingEngine()
    outcome, store = run_sweep(plan, servers, engine)
    assert [t for verb, t in servers.log if verb == "up"] == ["redis", "mongodb", "ferretdb"]
    (skipped,) = outcome.skipped
    assert (skipped.target, skipped.reason, skipped.fix) == ("mongodb", str(refusal),
                                                             "install Percona Server for MongoDB")
    assert store.manifest.skipped_targets == [skipped]
    (sub,) = store.manifest.substitutions
    assert (sub.wanted, sub.used) == ("mongodb", "ferretdb") and "not MongoDB's" in sub.note
    assert {r.target for r in store.runs.values()} == {"redis", "ferretdb"}
    assert outcome.exit_code == 1 and outcome.folder_status() == FolderStatus.PARTIAL  # a target was skipped


def test_a_plan_naming_mongodb_itself_gets_no_stand_in():
    plan = Plan(targets=["mongodb"], **{**SMALL, "threads": [2]})
    servers = BasicServers(refuse={"mongodb": UserError("no mongod", fix="install it")})
    outcome, store = run_sweep(plan, servers, RecordingEngine())
    assert [t for _, t in servers.log] == ["mongodb"] and not store.manifest.substitutions
    assert outcome.skipped[0].fix == "install it"


def test_a_server_that_died_in_a_point_fails_that_point_is_restarted_and_loaded_again():
    plan = Plan(targets=["redis"], **{**SMALL, "threads": [2, 4, 8]})
    servers = BasicServers()

    def crash_in_first_run_point(n: int, spec: PhaseSpec, result: PhaseResult) -> PhaseResult:
        if n == 1:
            servers.dead.add("redis")
            return _lost(result)
        return result

    engine = RecordingEngine(crash_in_first_run_point)
    outcome, store = run_sweep(plan, servers, engine)
    assert [(s.phase, s.threads) for s in engine.specs] == [("load", 8), ("run", 2), ("load", 8), ("run", 4),
                                                            ("run", 8)]
    assert ("restart", "redis") in servers.log and servers.running == []
    assert [r.status for r in outcome.records] == ["ok", "failed", "ok", "ok", "ok"]
    assert store.runs["redis.workloadb.run.t2.r1"].error.startswith("lost the connection")
    assert outcome.exit_code == 1 and outcome.folder_status() == FolderStatus.PARTIAL


@pytest.mark.parametrize("order", ["target", "interleaved"])
def test_a_server_that_cannot_be_restarted_skips_the_rest_of_its_target_with_the_fix(order: str):
    plan = Plan(targets=["redis", "valkey"], order=order, **SMALL)
    servers = BasicServers(restart_error=UserError("port 6379 on 127.0.0.1 is in use by pid 1", fix="stop it"))

    def crash(n: int, spec: PhaseSpec, result: PhaseResult) -> PhaseResult:
        if spec.phase == "run" and spec.url == "basic://redis" and "redis" not in servers.dead:
            servers.dead.add("redis")  # redis's first measured point: its server dies
            return _lost(result)
        return result

    outcome, store = run_sweep(plan, servers, RecordingEngine(crash))
    (skipped,) = outcome.skipped
    assert skipped.target == "redis" and skipped.fix == "stop it"
    assert skipped.reason == "could not restart after a crash: port 6379 on 127.0.0.1 is in use by pid 1: stop it"
    (crashed,) = [r for r in store.runs if r.startswith("redis.workloadb.run.")]  # the rest of redis is skipped …
    assert store.runs[crashed].status == RunStatus.FAILED
    assert {"valkey.workloadb.run.t2.r1", "valkey.workloadb.run.t4.r1"} <= store.run_ids(RunStatus.OK)  # … not valkey
    assert servers.running == []


def test_a_failed_point_on_a_server_still_alive_is_counted_and_the_ladder_goes_on():
    plan = Plan(targets=["redis"], **SMALL)

    def errors_at_two_threads(n: int, spec: PhaseSpec, result: PhaseResult) -> PhaseResult:
        if spec.phase == "run" and spec.threads == 2:
            read = result.ops["READ"]
            read.returns = {"OK": read.returns["OK"] // 2, "ERROR": read.returns["OK"] - read.returns["OK"] // 2}
            result.errors = ["ERR max number of clients reached"]
        return result

    servers = BasicServers()
    outcome, store = run_sweep(plan, servers, RecordingEngine(errors_at_two_threads))
    assert ("restart", "redis") not in servers.log
    bad = store.runs["redis.workloadb.run.t2.r1"]
    assert bad.status == RunStatus.FAILED and "above --max-error-rate" in bad.error
    assert "ERR max number of clients reached" in bad.error
    assert store.runs["redis.workloadb.run.t4.r1"].status == RunStatus.OK
    assert outcome.exit_code == 1


def test_a_failed_load_skips_the_target_and_keeps_the_load_point():
    plan = Plan(targets=["redis"], **SMALL)
    outcome, store = run_sweep(plan, BasicServers(),
                               RecordingEngine(lambda n, spec, r: _lost(r) if spec.phase == "load" else r))
    assert list(store.runs) == ["redis.workloadb.load.t8.r1"]
    assert store.runs["redis.workloadb.load.t8.r1"].status == RunStatus.FAILED
    assert outcome.skipped[0].reason.startswith("loading the dataset failed: lost the connection")
    assert outcome.exit_code == 1


def test_ctrl_c_in_a_point_keeps_what_is_done_stops_the_servers_and_resume_finishes(tmp_path: Path):
    plan = Plan(targets=["redis"], **SMALL)
    out = tmp_path / "exp"

    def interrupted_at_four(n: int, spec: PhaseSpec, result: PhaseResult) -> PhaseResult:
        if spec.threads == 4:
            result.status = RunStatus.INTERRUPTED
        return result

    servers = BasicServers()
    first = run_plan(plan, out, "ycsbctl run workload-b", quiet=True, servers=servers,
                     engine=RecordingEngine(interrupted_at_four))
    assert first.interrupted and first.exit_code == 130 and servers.running == []
    exp = load(out)
    assert exp.manifest.status == FolderStatus.INTERRUPTED
    assert dict(zip(exp.runs["run_id"], exp.runs["status"])) == {
        "redis.workloadb.load.t8.r1": "ok", "redis.workloadb.run.t2.r1": "ok",
        "redis.workloadb.run.t4.r1": "interrupted"}

    engine = RecordingEngine()
    again = run_plan(plan, None, "ycsbctl run --resume", resume=out, quiet=True, servers=BasicServers(), engine=engine)
    assert [(s.phase, s.threads) for s in engine.specs] == [("load", 8), ("run", 4)]
    assert again.exit_code == 0
    exp = load(out)
    assert exp.manifest.status == FolderStatus.COMPLETE and len(exp.manifest.resumed_at) == 1
    assert set(exp.runs["status"]) == {"ok"} and len(exp.runs) == 3


class _InterruptedOnceStarted(BasicServers):
    """Ctrl-C lands the moment ``valkey``'s server has started, before the sweep has its endpoint."""

    def up(self, target):
        endpoint = super().up(target)
        if target.name == "valkey":
            raise KeyboardInterrupt
        return endpoint


@pytest.mark.parametrize(("order", "targets"), [("target", ["valkey", "redis"]), ("blocks", ["valkey", "redis"]),
                                               ("interleaved", ["redis", "valkey"])])  # redis up first, then valkey
def test_ctrl_c_between_a_servers_start_and_the_sweep_keeping_it_still_stops_it_and_every_other(order: str,
                                                                                               targets: list[str]):
    servers = _InterruptedOnceStarted()
    outcome, _ = run_sweep(Plan(targets=targets, order=order, **SMALL), servers, RecordingEngine())
    assert outcome.interrupted and servers.running == []
    assert ("stop_all", "valkey") in servers.log  # the one whose endpoint never reached the sweep: the servers' own
    assert ("up", "redis") not in servers.log or ("down", "redis") in servers.log  # the one it kept: by the sweep


def test_a_single_point_without_out_is_kept_in_memory_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    plan = Plan(targets=["basic://"], **{**SMALL, "threads": [2]})
    outcome = run_plan(plan, None, "ycsbctl run", write=False, quiet=True, engine=RecordingEngine())
    assert outcome.folder is None and [r.status for r in outcome.records] == ["ok"]
    assert not list(tmp_path.iterdir())  # no folder written, no reports/ made


def test_a_point_stopped_before_it_measured_anything_says_so_never_none():
    from ycsbctl.experiment.live_console import point_summary

    stopped = RunRecord("redis.workloadb.load.t8.r1", "redis", "workloadb", "load", 8, 1, RunStatus.INTERRUPTED)
    assert point_summary(stopped) == "interrupted: stopped before any operation was measured"
    failed = RunRecord("redis.workloadb.run.t8.r1", "redis", "workloadb", "run", 8, 1, RunStatus.FAILED,
                       error="lost the server")
    assert point_summary(failed) == "failed: lost the server"


def test_a_points_line_shows_the_p99_of_the_operation_that_dominates_its_mix():
    """Workload E: 95 % SCAN, 5 % INSERT — the line's p99 is SCAN's (it showed INSERT's whenever present)."""
    import numpy as np

    from tests.fixtures.experiments import make_result
    from ycsbctl.experiment.live_console import point_summary

    result = make_result(np.random.default_rng(5), "run", 8, 400.0, {"INSERT": 0.05, "SCAN": 0.95})
    line = point_summary(RunRecord("r", "redis", "workloade", "run", 8, 1, RunStatus.OK, result=result))
    want = result.ops["SCAN"].percentile(99) / 1000
    assert f", p99 {want:.2f} ms (SCAN)" in line and "(INSERT)" not in line


def test_a_plugins_own_operation_is_the_lines_p99_when_it_has_none_of_ycsbs():
    """media-items' GET-BY-ID point showed no p99 at all (only YCSB's operations were looked for)."""
    import numpy as np

    from tests.fixtures.experiments import make_result
    from ycsbctl.experiment.live_console import point_summary

    result = make_result(np.random.default_rng(6), "run", 8, 400.0, {"GET-BY-ID": 0.9, "UPDATE-BY-ID": 0.1})
    line = point_summary(RunRecord("r", "redis", "media-items-byid", "run", 8, 1, RunStatus.OK, result=result))
    want = result.ops["GET-BY-ID"].percentile(99) / 1000
    assert f", p99 {want:.2f} ms (GET-BY-ID)" in line, line


def test_a_batch_workloads_line_says_the_records_it_stored_per_second_beside_its_operations():
    """online-status: a BATCH-STORE stores 100 users, a STORE one: '79 ops/s' alone hid 7,900 users/s."""
    import numpy as np

    from tests.fixtures.experiments import make_result
    from ycsbctl.experiment.live_console import RecordUnits, point_summary

    result = make_result(np.random.default_rng(7), "run", 8, 400.0, {"STORE": 0.7, "BATCH-STORE": 0.3})
    record = RunRecord("r", "redis", "online-status-hash", "run", 8, 1, RunStatus.OK, result=result)
    users = (result.ops["STORE"].returns["OK"] + 100 * result.ops["BATCH-STORE"].returns["OK"]) / (
        result.runtime_ms / 1000
    )
    line = point_summary(record, RecordUnits("users", {"STORE": 1, "BATCH-STORE": 100}))
    assert line.startswith(f"{result.throughput_ops:,.0f} ops/s ({users:,.0f} users/s), p99 ")
    assert point_summary(record).startswith(f"{result.throughput_ops:,.0f} ops/s, p99 ")  # one record per operation
    # a point of the same study that stores nothing (media-items' GET-BY-ID) says no "0 items/s"
    reads = make_result(np.random.default_rng(8), "run", 8, 400.0, {"GET-BY-ID": 1.0})
    line = point_summary(RunRecord("r", "redis", "media-items-byid", "run", 8, 1, RunStatus.OK, result=reads),
                         RecordUnits("items", {"INSERT": 100, "UPDATE": 1}))
    assert line.startswith(f"{reads.throughput_ops:,.0f} ops/s, p99 ") and "items/s" not in line


def test_the_load_runs_with_load_threads_when_given():
    plan = Plan(targets=["redis"], load_threads=3, **SMALL)
    servers, engine = BasicServers(), RecordingEngine()
    run_sweep(plan, servers, engine)
    assert [(s.phase, s.threads) for s in engine.specs] == [("load", 3), ("run", 2), ("run", 4)]
    assert Plan.from_dict(plan.to_dict()).load_threads == 3  # kept for --resume


def test_precision_adds_rounds_until_every_interval_is_narrow_or_the_cap_and_target_order_refuses_it():
    """--repeat auto / --precision: repetitions that agree stop at --repeat rounds; ones that differ by 30 %
    run --max-repeat rounds against ±5 %, each extra round said with the cells still too wide."""
    wide = dict(SMALL, threads=[2])

    def throughput(spread: float):
        seen: dict[str, int] = {}

        def set_rate(n: int, spec: PhaseSpec, result: PhaseResult) -> PhaseResult:
            # each target's points: 100k ops/s, or 30 % more every other time
            seen[spec.url] = k = seen.get(spec.url, 0) + 1
            result.runtime_ms = result.operations / 100.0 / (1 + spread * (k % 2))
            return result
        return set_rate

    plan = Plan(targets=["redis", "valkey"], repeat=2, precision=0.05, max_repeat=3, **wide)
    outcome, _ = run_sweep(plan, BasicServers(), RecordingEngine(throughput(0.0)))
    assert sorted({r.repetition for r in outcome.records if r.phase == "run"}) == [1, 2]
    notes: list[str] = []
    store = MemorySink(Manifest(experiment_id="t", plan=plan.to_dict()))
    console = Console(Progress(10, quiet=True))
    console.note = notes.append  # type: ignore[method-assign]
    outcome = Sweep(resolve_study(plan), BasicServers(), RecordingEngine(throughput(0.3)), store, console).run()
    runs = [r for r in outcome.records if r.phase == "run"]
    assert sorted({r.repetition for r in runs}) == [1, 2, 3] and len(runs) == 2 * 3
    extra = [n for n in notes if "still wider than ±5%" in n]
    assert [n.split(":")[0] for n in extra] == ["round 3"] and "2 cell(s)" in extra[0]
    # what ran where, said also when the default (auto) left placement off on a host of fewer than 4 CPUs (from 2,
    # a plan that alternates its targets is split)
    cpus = len(os.sched_getaffinity(0))
    off = cpus < 4 and plan.run_order[0] != "alternate"
    assert [n for n in notes if n.startswith("placement: ")] == [
        f"placement: off (auto: {cpus} CPUs, splits from 4)" if off else f"placement: {plan.placed.describe()}"]
    with pytest.raises(UserError, match=r"--precision add rounds over interleaved points.*\(--order target\)"):
        Plan(targets=["redis"], repeat=3, precision=0.05, order="target", **wide)


def test_a_point_cut_short_says_how_far_it_got_and_never_a_rate():
    """A server lost 1.4 s into a 4 s window: the line says so in the result's own figures (its runtime, its
    operations, its ERROR count) and gives no ops/s, p99, label or why line (a MariaDB point read '13,896 ops/s
    … latency, failed' and 'why: cpu wait'); the same result run to its end keeps its rate."""
    import numpy as np

    from tests.fixtures.experiments import make_result
    from ycsbctl.experiment.live_console import point_summary

    result = make_result(np.random.default_rng(9), "run", 4, 5000.0, {"READ": 1.0}, duration_s=4)
    result.status, result.runtime_ms, result.duration_s = RunStatus.FAILED, 1412.0, 4.0
    errors = result.returns("ERROR")
    bottleneck = {"label": "latency", "why": "cpu wait: the client's workers waited for a CPU 39% of the point"}
    record = RunRecord("r", "mariadb", "workloadc", "run", 4, 1, RunStatus.FAILED, result=result,
                       error="lost the MariaDB server", bottleneck=bottleneck)
    line = point_summary(record)
    assert (result.operations, result.returns("NOT_FOUND"), errors) == (20_000, 2, 0)  # what the line must say
    assert line == ("failed — lost the MariaDB server; stopped 1.4 s into the 4 s window after 20,000 operations "
                    "(2 NOT_FOUND); no rate for a point cut short"), line
    assert "ops/s" not in line and "why" not in line and "latency" not in line
    result.operations, result.duration_s = 1, None  # a load (an operation count) stopped at its first insert
    assert "stopped 1.4 s into its window after 1 operation" in point_summary(record)
    result.status = RunStatus.OK  # judged failed on its error rate, run to its end: its rate is the point's
    assert point_summary(record).startswith(f"{result.throughput_ops:,.0f} ops/s, p99 ")
