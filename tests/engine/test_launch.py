"""The workers' fork server started ahead of the first point (``ycsbctl.engine.launch.start_worker_server``): it
imports the plan's stores' packages once, and the phases after it run on forked workers as before."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.fixtures.cli import env
from ycsbctl.engine import launch
from ycsbctl.engine.launch import worker_context
from ycsbctl.engine.runner import PhaseRunner, run_phase
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


def test_the_fork_server_imports_every_store_module_and_neither_pandas_nor_scipy():
    """What the fork server imports (launch.PRELOAD, then every module of every registered store, as
    start_worker_server hands them over): no worker makes a frame or a test, and pandas alone was ~0.5 s of a core
    at every command's fork server while the stores' samplers imported it at their top."""
    from ycsbctl.stores.registry import all_protocols

    stores = launch.store_modules(all_protocols())
    code = ("import importlib, sys\n"
            f"for name in {launch.PRELOAD!r}: importlib.import_module(name)\n"
            f"print(all(n in sys.modules for n in {stores!r}), 'pandas' in sys.modules, 'scipy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=env(**{launch.PRELOAD_ENV: ",".join(stores)}))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False", "False"], done.stdout
    assert "ycsbctl.stores.redis.info" in stores  # the samplers are among them


def _seen(out, environ) -> None:  # run in a started worker: the variable before and after it takes the environment
    before = os.environ.get("YCSBCTL_TEST_SEEN", "unset")
    launch.take_environment(environ)
    out.put(f"{before} {os.environ.get('YCSBCTL_TEST_SEEN', 'unset')}")


def print_what_workers_see_after_the_environment_changed() -> None:
    """In a process of its own: the fork server started, then a variable read as a worker runs changed (as a test's
    state folder or a notebook's setting does): the start method and what a started worker sees before and after it
    takes the controller's environment; then a variable read at import changed: the start method again."""
    launch.start_worker_server([for_url("basic://")])
    os.environ["YCSBCTL_TEST_SEEN"] = "after"
    ctx = worker_context()
    out = ctx.Queue()
    p = ctx.Process(target=_seen, args=(out, launch.worker_environment()))
    p.start()
    print(ctx.get_start_method(), out.get(timeout=60))
    p.join(timeout=10)
    os.environ[launch.AT_IMPORT[1]] = os.environ.get(launch.AT_IMPORT[1], "") + "1"
    print(worker_context().get_start_method())


def test_a_variable_changed_after_the_fork_server_started_still_forks_and_the_worker_sees_it():
    """Only a variable read as the workers' modules are imported (launch.AT_IMPORT: here the pure-Python switch)
    makes a point spawn its workers. After any other change they fork, hold the fork server's environment until
    they take the controller's, and then see its value (no spawned interpreter, ~0.5 s of a core each, for a
    notebook or a test that set one)."""
    code = "from tests.engine.test_launch import print_what_workers_see_after_the_environment_changed as f; f()"
    given = {k: v for k, v in env().items() if k != "YCSBCTL_TEST_SEEN"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=given)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["forkserver", "unset", "after", "spawn"], done.stdout
    assert launch.AT_IMPORT[1] == "YCSBCTL_PURE_PYTHON"


def test_each_workers_plan_carries_the_environment_a_spawned_worker_would_inherit(monkeypatch):
    monkeypatch.setenv("YCSBCTL_TEST_SEEN", "planned")
    props = dict(load_properties("workload-b")) | {"recordcount": "100", "operationcount": "40"}
    plans = PhaseRunner(PhaseSpec("run", "basic://", props, threads=4, processes=2, seed=1))._plans()
    assert len(plans) == 2
    assert all(p.environ == launch.worker_environment() for p in plans)
    assert plans[0].environ["YCSBCTL_TEST_SEEN"] == "planned" and plans[0].environ["OPENBLAS_NUM_THREADS"] == "1"
