"""A variant sweep (``-p requestdistribution=zipfian,uniform``, ``-p online.structure=hash,set``) in the paired
orders runs variant by variant (``Study.stages``): each variant's dataset is loaded into every target once, then that
variant's rounds, so no pair of points waits on a reload and the progress total is the points run. In process on
``basic://`` servers for the order and the budget's sharing; on two real redis-servers end to end for the
alternated sessions and the slice-paired verdicts."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pandas as pd
import pytest

from tests.fixtures.cli import CONCURRENT, completed, ycsbctl_in
from tests.fixtures.servers import start_redis
from tests.fixtures.sweep import BasicServers, RecordingEngine, run_sweep
from ycsbctl.experiment.live_console import Console
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.progress import Progress
from ycsbctl.experiment.resolve import expand_axes, resolve_study
from ycsbctl.experiment.result_sink import MemorySink
from ycsbctl.experiment.sweep import Sweep
from ycsbctl.experiment.targets import target_label
from ycsbctl.results.schema import Manifest
from ycsbctl.workload.properties import PropertySources

AXIS = ["requestdistribution=zipfian,uniform"]


def _plan(order: str, targets: list[str], repeat: int = 2, threads: tuple[int, ...] = (1, 2), **kw: object) -> Plan:
    workloads = expand_axes(["workload-c"], PropertySources.read(["workload-c"], [], AXIS))
    return Plan(workloads=workloads, targets=targets, threads=list(threads), repeat=repeat, order=order, records=40,
                duration_s=0.1, warmup_s=0.0, telemetry=False, yardstick=False, processes=1, seed=3,
                properties=AXIS, **kw)  # type: ignore[arg-type]


# blocks: one round of one thread count (each engine session costs ~1 s of worker start on a busy host)
@pytest.mark.parametrize(("order", "repeat", "threads"), [("interleaved", 2, (1, 2)), ("blocks", 1, (1,))])
def test_each_variant_is_loaded_once_per_target_then_its_rounds_run(order: str, repeat: int,
                                                                   threads: tuple[int, ...]) -> None:
    """Interleaved: the two loads of a variant, then its rounds (a cell's targets next to each other), then the next
    variant's; blocks: the same stages, each block on a server started anew loading it. The planned loads are the
    loads made, so the progress total is every point run."""
    plan = _plan(order, ["redis", "valkey"], repeat, threads)
    study = resolve_study(plan)
    assert study.order == order and study.order_note and "variant by variant" in study.order_note
    outcome, _ = run_sweep(plan, BasicServers(), RecordingEngine())
    seen = [(r.workload, r.phase, r.target, r.repetition) for r in outcome.records]
    variants = ["workloadc-zipfian", "workloadc-uniform"]
    stages = [[s for s in seen if s[0] == v] for v in variants]
    assert seen == stages[0] + stages[1]  # one variant after the other, never mixed
    for stage in stages:
        loads = [s for s in stage if s[1] == "load"]
        if order == "interleaved":  # every target's dataset first, once
            assert [s[1] for s in stage[:2]] == ["load", "load"] and len(loads) == 2
        else:  # each block on a server started for it: its load, then its points
            assert [s[1:3] for s in stage] == [("load", "redis"), ("run", "redis"), ("load", "valkey"),
                                               ("run", "valkey")]
        runs = [s for s in stage if s[1] == "run"]
        assert sorted(s[3] for s in runs) == sorted(r for r in range(1, repeat + 1) for _ in range(2 * len(threads)))
    assert study.dataset_loads == sum(1 for s in seen if s[1] == "load")
    assert plan.points() + study.dataset_loads == len(outcome.records)
    two = resolve_study(_plan(order, ["redis", "valkey"]))  # two rounds: blocks reload every round, the others once
    assert [two.loads_in_round(r, "run", stage) for stage in two.stages() for r in (1, 2)] == (
        [2, 0, 2, 0] if order == "interleaved" else [2, 2, 2, 2])
    assert two.dataset_loads == (4 if order == "interleaved" else 8)


def test_the_budget_is_shared_by_the_stages_each_from_what_is_left() -> None:
    """Three stages, 300 s: the first takes a third; a later one what is left over the stages left (a stage that
    decided early leaves its rest to the others); one stage takes the whole budget and says it as before."""
    plan = _plan("interleaved", ["redis", "valkey"], repeat=1, sequential=True, budget_s=300.0, max_repeat=5)
    sweep = Sweep(resolve_study(plan), BasicServers(), RecordingEngine(),
                  MemorySink(Manifest(experiment_id="t", plan=plan.to_dict())), Console(Progress(10, quiet=True)))
    sweep.stage_at = (0, 3)
    first = sweep._stage_rounds()
    assert first.budget_s == pytest.approx(100.0, abs=0.5) and first.whole_budget_s == 300.0
    assert "this stage's share of the --budget (100 s of 300 s)" in first.budget_text
    sweep.stage_at, sweep.rounds_began = (1, 3), time.monotonic() - 60.0  # the first stage spent 60 s
    assert sweep._stage_rounds().budget_s == pytest.approx(120.0, abs=0.5)
    sweep.stage_at, sweep.rounds_began = (2, 3), time.monotonic() - 400.0  # spent: the last stage still runs round 1
    assert sweep._stage_rounds().budget_s == 0.0
    sweep.stage_at, sweep.rounds_began = (0, 1), None
    alone = sweep._stage_rounds()
    assert alone.budget_s == pytest.approx(300.0, abs=0.5) and alone.budget_text == "the --budget of 300 s"


def test_auto_rounds_plan_once_and_no_stage_runs_past_the_plan() -> None:
    """``--repeat auto`` over two variants: the rounds planned after the first stage's first round (recorded once in
    the manifest: the looks spend alpha over them) bound every stage; every stage runs."""
    plan = _plan("interleaved", ["redis", "valkey"], repeat=1, threads=(1,), sequential=True, budget_s=6.0,
                 max_repeat=3)
    outcome, store = run_sweep(plan, BasicServers(), RecordingEngine())
    planned = store.manifest.plan["planned_rounds"]
    assert 1 <= planned <= 3
    run = [r for r in outcome.records if r.phase == "run"]
    for variant in ("workloadc-zipfian", "workloadc-uniform"):
        reps = {r.repetition for r in run if r.workload == variant}
        assert reps and max(reps) <= planned and reps == set(range(1, max(reps) + 1)), (variant, reps, planned)


def test_an_order_given_and_not_run_as_given_is_said_on_the_console_and_in_the_manifest(tmp_path: Path) -> None:
    """``--order alternate`` with one target runs interleaved: said, even with one target and one round (it was
    silent there)."""
    r = ycsbctl_in(tmp_path, "run", "workload-c", "--target", "basic://", "--order", "alternate", "--threads", "1",
                   "--duration", "0.2", "--records", "20", "--no-telemetry", "--no-yardstick", "--out",
                   str(tmp_path / "out"), CONCURRENT)
    assert completed(r), r.stderr[-2000:]
    note = "rounds run interleaved, not alternate (a cell's targets in one engine session): there is one target"
    assert note in r.stderr
    plan = json.loads((tmp_path / "out" / "manifest.json").read_text())["plan"]
    assert plan["run_order"] == "interleaved" and plan["run_order_note"] == note


@pytest.fixture(scope="module")
def structures(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The structure study at small scale on two redis-servers the test starts (URLs, loaded with --load), in the
    default order: (the folder, the console's stderr)."""
    tmp = tmp_path_factory.mktemp("variant-stages")
    servers = [start_redis(tmp / name) for name in ("a", "b")]
    try:
        r = ycsbctl_in(tmp, "run", "online-status", "-p", "online.structure=hash,set",
                       *(a for s in servers for a in ("--target", s.url)), "--load", "--threads", "2",
                       "--repeat", "2", "--duration", "1", "--slice", "0.2", "--records", "300", "--seed", "5",
                       "--no-telemetry", "--no-yardstick", "--out", str(tmp / "exp"), CONCURRENT, timeout=600)
        assert completed(r), r.stderr[-3000:]
        return tmp / "exp", r.stderr
    finally:
        for s in servers:
            s.stop()


def test_a_variant_sweep_alternates_each_variants_targets_with_one_load_per_variant_and_target(
        structures: tuple[Path, str]) -> None:
    folder, stderr = structures
    plan = json.loads((folder / "manifest.json").read_text())["plan"]
    assert plan["run_order"] == "alternate" and "variant by variant" in plan["run_order_note"]
    assert "not alternated (the engine alternates targets, not workloads)" in stderr  # said, not only kept
    runs = pd.read_parquet(folder / "runs.parquet").sort_values("order_index")
    labels = [target_label(t) for t in plan["targets"]]
    loads = runs[runs["phase"] == "load"]
    assert sorted(loads.groupby(["workload", "target"]).size().items()) == sorted(
        ((w, t), 1) for w in ("online-status-hash", "online-status-set") for t in labels)
    run = runs[runs["phase"] == "run"]
    assert len(run) == 2 * 2 * 2 and run["session"].notna().all()
    for _, session in run.groupby("session"):  # each session: one variant's cell, both targets
        assert sorted(session["target"]) == sorted(labels) and session["workload"].nunique() == 1
    assert run["session"].nunique() == 4
    # each variant's loads come before its sessions and after the variant before it (a load has no order index:
    # its start time, to the second)
    at = pd.to_datetime(runs["started_at"])
    hash_, set_ = (runs["workload"] == f"online-status-{s}" for s in ("hash", "set"))
    for variant in (hash_, set_):
        assert at[variant & (runs["phase"] == "load")].max() <= at[variant & (runs["phase"] == "run")].min()
    assert at[hash_].max() <= at[set_ & (runs["phase"] == "load")].min()
    assert run[run["workload"] == "online-status-hash"]["order_index"].max() < \
        run[run["workload"] == "online-status-set"]["order_index"].min()

def test_a_variant_sweeps_verdicts_are_slice_paired_and_its_progress_counts_every_point(
        structures: tuple[Path, str]) -> None:
    folder, stderr = structures
    v = pd.read_parquet(folder / "verdicts.parquet")
    tp = v[(v["metric"] == "throughput") & ~v["at_peak"].astype(bool)]
    assert set(tp["workload"]) == {"online-status-hash", "online-status-set"}
    assert set(tp["test"]) == {"slice-paired t (AR(1) blocks)"}
    places = [(int(k), int(n)) for k, n in re.findall(r"^\[(\d+)/(\d+)\] ", stderr, re.MULTILINE)]
    total = len(pd.read_parquet(folder / "runs.parquet"))
    assert places and {n for _, n in places} == {total}, stderr[-3000:]
    assert places[-1][0] + 1 == total  # the last line is a session of both targets: places total - 1 and total
