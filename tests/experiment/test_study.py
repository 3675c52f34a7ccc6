"""A plan resolved once (``ycsbctl.experiment.resolve``) into the values a sweep measures
(``ycsbctl.experiment.study``): its targets named, each workload's properties read and its workload built
there and only there, the points each target × case makes and their run ids."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.fixtures.cli import run_cli
from ycsbctl.errors import UserError
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.resolve import resolve_study
from ycsbctl.results import load
from ycsbctl.results.folder import RunRecord
from ycsbctl.workload.core import CoreWorkload


def test_a_run_reads_each_property_file_once_and_builds_each_workload_once_per_case(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch):
    """``ycsbctl run`` of a workload and a -P file, a dataset load then a point, in this process: each file is
    read once and the workload built once in the controller for its two engine runs (the engine's workers,
    other processes, build their own). Before the study was resolved once, such a run read workloadb 14
    times and built it 12 times (18 with three thread counts)."""
    extra = tmp_path / "extra.properties"
    extra.write_text("fieldcount=3\n")
    reads: Counter[str] = Counter()
    real_read = Path.read_bytes

    def read_bytes(path: Path) -> bytes:
        reads[path.name] += 1
        return real_read(path)

    built: list[int] = []
    real_build = CoreWorkload.from_properties.__func__  # type: ignore[attr-defined]

    def from_properties(cls, p):
        w = real_build(cls, p)
        built.append(w.fieldcount)
        return w

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr(CoreWorkload, "from_properties", classmethod(from_properties))
    out = tmp_path / "exp"
    result = run_cli("run", "workload-b", "-P", str(extra), "--target", "basic://", "--load", "--threads", "2",
                     "--records", "50", "--duration", "0.2", "--no-telemetry", "--quiet", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(load(out).runs["run_id"]) == ["basic.workloadb.load.t8.r1", "basic.workloadb.run.t2.r1"]
    assert (reads["workloadb"], reads["extra.properties"]) == (1, 1)
    assert built == [3]  # once, with the -P file's fieldcount


def test_targets_are_named_once_with_their_kind_settings_url_and_whether_they_load():
    plan = Plan(workloads=["workload-b"], targets=["redis-lazyfree", "redis://:pw@127.0.0.1:6390/2", "basic://"],
                server_settings={"redis-lazyfree": {"lazyfree-lazy-user-del": "yes"}}, properties=["redis.timeout=2"])
    lazy, url, basic = resolve_study(plan).targets
    assert (lazy.label, lazy.kind, lazy.protocol, dict(lazy.settings), lazy.is_url, lazy.loads) == (
        "redis-lazyfree", "redis", "redis", {"lazyfree-lazy-user-del": "yes"}, False, True)
    assert (url.label, url.protocol, url.is_url, url.loads) == ("redis-127-0-0-1-6390", "redis", True, False)
    assert url.url == "redis://:pw@127.0.0.1:6390/2" and url.kind is None and not url.settings
    assert (basic.label, basic.protocol, basic.store.has_server) == ("basic", "basic", False)


def test_a_target_ycsbctl_starts_carries_where_it_goes_and_a_url_carries_none_of_it():
    plan = Plan(workloads=["workload-b"], targets=["redis", "valkey", "redis://127.0.0.1:6390"], tls=True,
                images={"redis": "redis:7.2-alpine"}, docker_hosts={"valkey": "tcp://10.0.0.2:2375"})
    redis, valkey, url = resolve_study(plan).targets
    assert (redis.image, redis.docker_host, redis.tls) == ("redis:7.2-alpine", None, True)
    assert (valkey.image, valkey.docker_host, valkey.tls) == (None, "tcp://10.0.0.2:2375", True)
    assert (url.image, url.docker_host, url.tls) == (None, None, False)  # a server you run: used as it is


def test_the_run_order_placement_and_baseline_are_resolved_with_the_study_and_kept_in_its_manifest():
    plan = Plan(workloads=["workload-b"], targets=["basic://", "redis://127.0.0.1:6390"], repeat=2,
                baseline="redis-127-0-0-1-6390")
    study = resolve_study(plan)
    assert (study.order, study.order_note) == plan.run_order and study.paired == (study.order != "target")
    assert study.placement == plan.placed and study.baseline == "redis-127-0-0-1-6390"
    kept = study.plan_dict()
    assert (kept["run_order"], kept["run_order_note"], kept["baseline_target"]) == (
        study.order, study.order_note, study.baseline)
    assert kept["placement_resolved"] == study.placement.to_dict() and list(kept) == list(plan.to_dict())


def test_a_url_without_a_password_takes_the_binding_property_as_ycsbs_binding_does():
    (target,) = resolve_study(Plan(workloads=["workload-b"], targets=["redis://127.0.0.1:6390"],
                                   properties=["redis.password=s3cret"])).targets
    assert target.name == "redis://127.0.0.1:6390" and target.url is not None and "s3cret" in target.url
    assert "s3cret" not in target.label


def test_each_case_carries_its_merged_properties_its_built_workload_its_phase_and_its_dataset():
    plan = Plan(workloads=["workload-b", "insert", "workload-a"], targets=["basic://"], records=500, duration_s=1,
                properties=["fieldcount=4"])
    b, insert, a = resolve_study(plan).cases
    assert [c.name for c in (b, insert, a)] == ["workloadb", "insert", "workloada"]
    assert [c.phase for c in (b, insert, a)] == ["run", "load", "run"]  # an insert-only workload measures its load
    assert b.properties["recordcount"] == "500" and b.properties["operationcount"] == "0"  # the plan's scale
    assert b.properties["fieldcount"] == "4" and b.built.core.fieldcount == 4  # built from those properties
    assert a.dataset == b.dataset == "workloadb" and a.dataset_key == ""  # one dataset, the first workload's
    assert b.record_count == 500 and b.table == "usertable" and b.file.name == "workloadb"


def test_a_variant_has_a_dataset_of_its_own_and_the_load_of_ycsbctl_load_empties_nothing():
    plan = Plan(workloads=["online-status[online.structure=set]", "workload-b"], targets=["redis"])
    study = resolve_study(plan)
    variant, plain = study.cases
    assert (variant.name, dict(variant.variant), variant.dataset_key) == ("online-status-set",
                                                                          {"online.structure": "set"},
                                                                          "online-status-set")
    assert plain.dataset_key == "" and plain.dataset == "online-status-set"  # the load is named after the first
    assert study.dataset_loads == 2  # one per dataset, per target that loads
    load = resolve_study(Plan(workloads=["workload-b"], targets=["basic://"], phase="load", threads=[4]))
    (cell,) = load.cells(load.targets[0])
    assert (cell.phase, cell.fresh) == ("load", False)  # `ycsbctl load`: into the target as it is
    assert load.dataset_loads == 0


def test_a_points_run_id_says_its_target_workload_phase_threads_rate_and_repetition():
    study = resolve_study(Plan(workloads=["workload-b"], targets=["redis"], threads=[8, 16], target_rates=[2500.0]))
    (target,), (case,) = study.targets, study.cases
    cells = study.cells(target)
    assert [(c.threads, c.rate) for c in cells] == [(8, 2500.0), (16, 2500.0)]
    point = cells[0].point(3)
    assert point.run_id == RunRecord.make_id("redis", "workloadb", "run", 8, 3,
                                             2500.0) == "redis.workloadb.run.t8.rate2500.r3"
    assert point.cell == cells[0] and point.key == cells[0].key == ("redis", "workloadb", "run", 8, 2500.0)
    load = study.dataset_load(target, case)
    assert (load.phase, load.threads, load.run_id) == ("load", 8, "redis.workloadb.load.t8.r1")


def test_the_stand_in_is_resolved_with_the_default_plan_and_only_then():
    assert resolve_study(Plan(workloads=["workload-b"])).target("ferretdb").protocol == "mongodb"
    with pytest.raises(KeyError):
        resolve_study(Plan(workloads=["workload-b"], targets=["redis"])).target("ferretdb")


def test_a_store_that_cannot_do_an_operation_or_a_plug_in_without_an_executor_is_refused_when_resolved():
    with pytest.raises(UserError, match="workloade has SCAN operations, which memcached cannot do"):
        resolve_study(Plan(workloads=["workload-e"], targets=["memcached"]))
    with pytest.raises(UserError, match="cannot run on a basic target"):
        resolve_study(Plan(workloads=["online-status"], targets=["basic://"]))
