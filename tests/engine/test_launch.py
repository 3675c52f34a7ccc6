"""The workers' fork server started ahead of the first point (``ycsbctl.engine.launch.start_worker_server``): it
imports the plan's stores' packages once, and the phases after it run on forked workers as before."""

from __future__ import annotations

import os

from ycsbctl.engine import launch
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.stores.registry import for_url
from ycsbctl.workload.properties import load_properties


def test_a_stores_modules_are_its_packages_with_the_binding_its_workers_connect_with():
    names = launch.store_modules([for_url("redis://127.0.0.1:6379"), for_url("redis://127.0.0.1:6380")])
    assert "ycsbctl.stores.redis.binding" in names and "ycsbctl.stores.redis.store" in names
    assert len(names) == len(set(names))  # a store named twice is imported once
    assert all(n.startswith("ycsbctl.stores.redis.") for n in names)


def test_phases_after_the_fork_server_started_ahead_run_and_its_preload_list_is_not_left_behind():
    launch.start_worker_server([for_url("basic://")])
    assert launch.PRELOAD_ENV not in os.environ
    props = dict(load_properties("workload-b")) | {"recordcount": "100", "operationcount": "40"}
    for processes in (1, 2):
        r = run_phase(PhaseSpec("run", "basic://", props, threads=2 * processes, processes=processes, seed=1))
        assert r.status == "ok" and r.operations == 40, r.errors
