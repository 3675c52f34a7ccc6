"""The workers' fork server started ahead of the first point (``ycsbctl.engine.launch.start_worker_server``): it
imports the plan's stores' packages once, and the phases after it run on forked workers as before."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.fixtures.cli import env
from ycsbctl.engine import launch
from ycsbctl.engine.launch import worker_context
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



def _frozen(out) -> None:  # run in a forked worker (module level: the fork server finds it by name)
    import gc

    out.put(gc.get_freeze_count())


def print_a_forked_workers_frozen_count() -> None:
    """In a process of its own (whose environment no test changes: its workers are forked), the count a worker
    forked from its fork server finds frozen."""
    launch.start_worker_server([for_url("basic://")])
    ctx = worker_context()
    assert ctx.get_start_method() == "forkserver"
    out = ctx.Queue()
    p = ctx.Process(target=_frozen, args=(out,))
    p.start()
    print(out.get(timeout=60))
    p.join(timeout=10)


def test_a_forked_worker_finds_the_fork_servers_preloaded_heap_frozen_so_its_collection_walks_only_its_own():
    """The fork server freezes what it imported (gc.freeze): a worker's collection before its start walks only its
    own objects, and copies none of the server's pages. Frozen: every object of the preloaded modules, thousands."""
    code = "from tests.engine.test_launch import print_a_forked_workers_frozen_count as f; f()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env())
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) > 1000, done.stdout
