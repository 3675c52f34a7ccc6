"""The workload plug-in contract (``workload=package.module:Class``): YCSB's CoreWorkload through it
draws the same operations as before, and a class that is no workload is refused."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.engine.worker import Worker, WorkerPlan
from ycsbctl.errors import UserError
from ycsbctl.workload.core import CoreWorkload
from ycsbctl.workload.core_plugin import CorePlugin
from ycsbctl.workload.generators import LoadGenerator, RunGenerator
from ycsbctl.workload.inserts import local_insert_state
from ycsbctl.workload.plugin import axis_values, load_workload, op_names
from ycsbctl.workload.properties import Properties, load_properties


def _batches(gen, n: int = 3, size: int = 700) -> list[tuple]:
    out = []
    for _ in range(n):
        b = gen.next_batch(size)
        out.append((list(b.ops), list(b.keys), list(b.keynums), b.read_field, b.write_field, b.scan_length))
    return out


@pytest.mark.parametrize("workload", ["workload-a", "workload-b", "workload-d", "workload-e"])
@pytest.mark.parametrize("phase", ["run", "load"])
def test_core_workload_through_the_plugin_draws_the_same_operations_per_seed(workload: str, phase: str) -> None:
    """The engine's worker (which now asks the plug-in for its generator) draws, for one seed, the
    same operations, keys and fields in the same order as the generators built directly, as before."""
    props = dict(load_properties(workload))
    props.update(recordcount="5000", operationcount="10000")
    spec = PhaseSpec(phase, "redis://127.0.0.1:1", props, threads=4, seed=1234)
    block = (0, 5000) if phase == "load" else None
    worker = Worker(WorkerPlan(spec, 1, 2, [0] * 4, block, 0), local_insert_state(), SimpleNamespace(value=0), None)
    assert isinstance(worker.workload, CorePlugin)
    w = CoreWorkload.from_properties(Properties(props))
    rng = np.random.default_rng([1234, 1])
    direct = LoadGenerator(w, rng, 0, 5000) if phase == "load" else RunGenerator(w, rng, 1, 2, local_insert_state())
    assert _batches(worker.gen) == _batches(direct)


@pytest.mark.parametrize("value", [None, "site.ycsb.workloads.CoreWorkload", "ycsbctl.workload.core_plugin:CorePlugin"])
def test_ycsb_s_class_name_and_no_name_mean_core_workload(value: str | None) -> None:
    props = load_properties("workload-b")
    props.pop("workload", None)
    if value is not None:
        props["workload"] = value
    w = load_workload(props)
    assert isinstance(w, CorePlugin) and w.builtin_ycsb
    assert op_names(props) == ("READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE", "DELETE", "VERIFY")


@pytest.mark.parametrize(("value", "says"), [
    ("nosuch.module:Thing", "cannot import nosuch.module"),
    ("ycsbctl.workload.core:CoreWorkload", "no ycsbctl workload class"),
    ("ycsbctl.workload.core:Missing", "has no class Missing"),
    ("justaname", "write workload=package.module:Class"),
])
def test_a_class_that_is_no_workload_is_one_line_naming_the_fix(value: str, says: str) -> None:
    props = load_properties("workload-b")
    props["workload"] = value
    with pytest.raises(UserError, match=says) as err:
        load_workload(props)
    assert "\n" not in str(err.value)


def test_online_status_names_its_operations_and_its_load_covers_every_user_once() -> None:
    props = load_properties("online-status")
    props.update(recordcount="1234", **{"online.batchsize": "100"})
    w = load_workload(props)
    assert op_names(props)[:5] == ("STORE", "BATCH-STORE", "COUNT", "GET-AND-CLEAR", "INSERT")
    blocks = w.load_blocks([3, 2])
    assert sum(c for _, c in blocks) == w.load_operations == 13
    users = []
    for first, count in blocks:
        src = w.source("load", np.random.default_rng(1), 0, 1, load_block=(first, count))
        while len(b := src.next_batch(4)):
            users += [u for pairs in b.args for u, _ in pairs]
    assert sorted(users) == list(range(1234)) and len(users) == 1234
    assert w.loaded_records(13) == 1234


def test_only_the_workload_s_axis_properties_with_commas_are_axes() -> None:
    props = load_properties("online-status")
    props.update({"online.structure": "hash,set,zset", "hdrhistogram.percentiles": "50,99"})
    assert axis_values(props) == [("online.structure", ["hash", "set", "zset"])]
    core = load_properties("workload-b")
    core.update({"requestdistribution": "zipfian,uniform", "hdrhistogram.percentiles": "50,99"})
    assert axis_values(core) == [("requestdistribution", ["zipfian", "uniform"])]


def test_dry_run_of_a_plugin_prints_its_operations_names_and_arguments() -> None:
    from ycsbctl.workload.dryrun import plugin_dry_run_lines

    props = load_properties("online-status")
    props.update({"recordcount": "250", "online.batchsize": "100", "operationcount": "3000"})
    w = load_workload(props)
    load = list(plugin_dry_run_lines(w, "load", None, 1))
    assert [line.split(" ", 1)[0] for line in load] == ["INSERT"] * 3 and load[2].count("(") == 50
    run = list(plugin_dry_run_lines(w, "run", None, 1))
    assert len(run) == 3000 and {line.split(" ", 1)[0] for line in run} == {"STORE", "BATCH-STORE", "COUNT"}
    assert run == list(plugin_dry_run_lines(w, "run", None, 1))  # a seed repeats the stream


def test_a_workload_given_as_a_path_object_loads_as_its_name_does() -> None:
    """Callers (bench/, notebooks) pass a ``Path``; a variant's ``[key=value]`` is read from names only."""
    from pathlib import Path

    from ycsbctl.workload.properties import WORKLOADS_DIR, load_properties

    assert load_properties(Path(WORKLOADS_DIR / "workloadb")) == load_properties("workload-b")
