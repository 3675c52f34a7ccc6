"""Placement: the servers ycsbctl starts on one CPU set, the client's workers on the others — resolved
once per plan, all targets alike or none, and really applied (the kernel's affinity of each process)."""

from __future__ import annotations

import os
from contextlib import suppress

import pytest

from ycsbctl.engine.runner import PhaseRunner
from ycsbctl.engine.spec import PhaseSpec, Tick
from ycsbctl.errors import UserError
from ycsbctl.experiment.placement import ALTERNATED_WHY, CONTROLLER_ENV, Placement, controller_placed, resolve_placement
from ycsbctl.experiment.plan import Plan
from ycsbctl.experiment.resolve import resolve_study
from ycsbctl.experiment.servers import ProvisionedServers

CPUS = sorted(os.sched_getaffinity(0))


def test_auto_splits_the_cpus_in_halves_servers_first_from_four_cpus_and_split_from_two():
    assert resolve_placement("auto", [], None, "native", False,
                             [0, 1, 2, 3, 4]) == Placement("split", (0, 1), (2, 3, 4))
    two = resolve_placement("auto", [], None, "native", False, [0, 1])  # measured: see AUTO_MIN_CPUS
    assert not two.split and two.why.startswith("2 usable CPUs: split only from 4") and "--placement split" in two.why
    assert two.headline() == "off (auto: 2 CPUs, splits from 4)"  # the console's line; the manifest keeps the why
    # … but a plan that alternates its targets in one session splits from 2 (ALTERNATED_WHY: measured), saying why
    alternated = resolve_placement("auto", [], None, "native", False, [0, 1], alternates=True)
    assert alternated == Placement("split", (0,), (1,), ALTERNATED_WHY)
    assert alternated.headline() == f"servers on CPU 0, client on CPU 1 ({ALTERNATED_WHY})"
    assert resolve_placement("auto", [], None, "native", False, [0, 1, 2, 3], alternates=True).why == ""
    assert not resolve_placement("auto", ["x (a server you run)"], None, "native", False, [0, 1], True).split
    assert not resolve_placement("auto", [], None, "native", False, [0], alternates=True).split
    assert resolve_placement("split", [], None, "native", False, [0, 1]) == Placement("split", (0,), (1,))
    p = resolve_placement("split", [], [3], "native", False, [0, 1, 2, 3])
    assert (p.server_cpus, p.client_cpus, p.server_cpuset) == ((3,), (0, 1, 2), "3")
    assert p.describe() == p.headline() == "servers on CPU 3, client on CPU 0,1,2 (--server-cpus)"


@pytest.mark.parametrize(("unplaceable", "server_cpus", "engine", "cluster", "cpus", "why"), [
    ([], None, "native", False, [0], "1 usable CPU"),
    (["redis-127-0-0-1-6379 (a server you run)"], None, "native", False, [0, 1, 2, 3],
     "redis-127-0-0-1-6379 (a server you run) is not started"),
    ([], None, "ycsb", False, [0, 1, 2, 3], "--engine ycsb"),
    ([], None, "native", True, [0, 1, 2, 3], "--cluster"),
    ([], [0, 1], "native", False, [0, 1], "leaves no CPU for the client"),
])
def test_auto_turns_placement_off_where_it_cannot_place_every_server_and_split_refuses(
        unplaceable, server_cpus, engine, cluster, cpus, why):
    off = resolve_placement("auto", unplaceable, server_cpus, engine, cluster, cpus)
    assert not off.split and off.server_cpuset is None and why in off.why
    assert off.describe().startswith("servers and client float over all CPUs")
    with pytest.raises(UserError, match="--placement split: .*" + why.split(" (")[0][:12]):
        resolve_placement("split", unplaceable, server_cpus, engine, cluster, cpus)
    assert resolve_placement("off", [], None, "native", False, [0, 1]).why == "--placement off"


def test_a_plan_resolves_its_placement_once_and_refuses_what_it_cannot_place():
    plan = Plan(workloads=["b"], targets=["redis", "valkey"])
    assert plan.placed is plan.placed  # resolved once
    assert plan.run_order[0] == "alternate"  # the default order: its targets alternate, split from 2 CPUs
    want = "split" if len(CPUS) >= 2 else "off"
    assert plan.placed.mode == want and plan.to_dict()["placement_resolved"]["mode"] == want
    for solo in (Plan(workloads=["b"], targets=["redis"]),  # one target, or two not alternated: from 4
                 Plan(workloads=["b"], targets=["redis", "valkey"], order="blocks")):
        assert solo.placed.mode == ("split" if len(CPUS) >= 4 else "off"), solo.run_order
    asked = Plan(workloads=["b"], targets=["redis", "valkey"], placement="split")
    assert asked.placed.split == (len(CPUS) > 1) and asked.to_dict()["placement_resolved"]["text"].startswith(
        "servers on CPU" if len(CPUS) > 1 else "servers and client float")
    with pytest.raises(UserError, match="--placement split: redis-127-0-0-1-6390 \\(a server you run\\)"):
        Plan(workloads=["b"], targets=["redis", "redis://127.0.0.1:6390"], placement="split")
    for embedded in ("basic://", "sqlite"):  # the store runs inside the client: half the CPUs would halve it
        with pytest.raises(UserError, match="runs inside the client"):
            Plan(workloads=["b"], targets=["redis", embedded], placement="split")
    with pytest.raises(UserError, match="unknown --placement 'half'"):
        Plan(workloads=["b"], targets=["redis"], placement="half")


needs_two = pytest.mark.skipif(len(CPUS) < 2, reason="placement needs 2 usable CPUs; this host has 1")


@needs_two
def test_the_workers_run_on_the_clients_cpus_one_per_cpu():
    client = (CPUS[-1],)
    spec = PhaseSpec("run", "basic://", {"recordcount": "100", "operationcount": "0"}, threads=4, duration_s=1.5,
                     cpus=client)
    runner = PhaseRunner(spec)
    seen: list[set[int]] = []

    def tick(t: Tick) -> None:
        if not t.starting:  # the workers place themselves before they connect, not before they exist
            for pid in runner.pids():
                with suppress(ProcessLookupError):  # a worker that ended its part between the listing and here
                    seen.append(os.sched_getaffinity(pid))

    r = runner.run(tick)
    assert r.operations > 0 and runner.processes == 1  # one worker per CPU of the client's set
    assert seen and all(s == set(client) for s in seen)
    unplaced = PhaseRunner(PhaseSpec("run", "basic://", {"recordcount": "100"}, threads=4, duration_s=0.2))
    assert unplaced.processes == len(CPUS)  # basic:// has no server: a worker per usable CPU


@needs_two
def test_a_server_ycsbctl_starts_runs_on_the_servers_cpus(tmp_path):
    plan = Plan(workloads=["b"], targets=["redis"], backend="local", placement="split")
    study = resolve_study(plan)
    servers = ProvisionedServers(study, "placement-test", say=lambda _line: None)
    ep = servers.up(study.targets[0])
    try:
        assert ep.pid and os.sched_getaffinity(ep.pid) == set(study.placement.server_cpus)
        assert ep.cpu_limit_cores == len(study.placement.server_cpus)  # its CPU share is judged against its own set
    finally:
        servers.down(ep)


@needs_two
def test_the_controller_waits_on_the_servers_cpus_during_a_placed_point_and_gets_its_own_back(monkeypatch):
    before = os.sched_getaffinity(0)
    placed = Placement("split", (CPUS[0],), tuple(CPUS[1:]))
    with controller_placed(placed):
        assert os.sched_getaffinity(0) == {CPUS[0]}
    assert os.sched_getaffinity(0) == before
    with pytest.raises(RuntimeError), controller_placed(placed):
        raise RuntimeError("a point that failed")
    assert os.sched_getaffinity(0) == before  # given back whatever happens
    with controller_placed(Placement("off", why="--placement off")):
        assert os.sched_getaffinity(0) == before
    monkeypatch.setenv(CONTROLLER_ENV, "float")  # the benchmark's other arm
    with controller_placed(placed):
        assert os.sched_getaffinity(0) == before
