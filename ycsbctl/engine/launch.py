"""How the engine starts its worker processes: forked from one server process that imported the
worker's modules once (multiprocessing's forkserver), rather than a fresh interpreter per worker and point.

A spawned worker starts Python and imports numpy, asyncio and the engine again before it can connect:
that start is paid by every worker of every point (``python -m bench engine_start`` prints both ways
side by side). The forkserver is started by the first point of this process and lives as long as it
does; each later worker is a ``fork`` of it.

A forked worker is the same as a spawned one only while the variables read as its modules are imported
(:data:`AT_IMPORT`: ``ycsbctl.native``'s switch to the pure-Python path, OpenBLAS's thread count) are those the
server started with. When one differs (a test or a notebook set it since), that point's workers are spawned.
Any other variable is read as a worker runs, and a forked worker first takes this process's environment of the
moment (:func:`take_environment`), so a notebook or test that changed one (a state folder, a certificate file)
still gets forked workers that see it. The current directory and ``sys.path`` are the parent's at each start
either way (multiprocessing hands them over), and the CPU set is not inherited: each worker takes the one its
plan names (:attr:`ycsbctl.engine.worker.WorkerPlan.cpus`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import multiprocessing as mp
import os
import pkgutil
from collections.abc import Iterable, Iterator
from multiprocessing.context import ForkServerContext, SpawnContext
from typing import Any

from ycsbctl.processes import children_spared_ctrl_c

# What the server imports once: the worker with its workload, measurement and binding code, and the command
# line's package (a worker of the ``ycsbctl`` script runs that script again before its task: multiprocessing
# does so for every child whose parent's main module is a file; its import is then already done).
PRELOAD = ["ycsbctl.engine.worker_process", "ycsbctl.cli", "ycsbctl.engine.preload"]
# Read by numpy's OpenBLAS at import: a worker is one event loop, and idle BLAS threads spinning after a
# numpy call showed up as ~2 % of a worker's CPU. A server process that forks must not hold threads either.
WORKER_ENV = {"OPENBLAS_NUM_THREADS": "1"}

PRELOAD_ENV = "YCSBCTL_WORKER_PRELOAD"  # modules the fork server imports besides PRELOAD (comma-separated)
START_ENV = "YCSBCTL_WORKER_START"  # "spawn": every worker a fresh interpreter (the fork server is the default)

# Prefixes of the variables read as a worker's modules are imported, once in the fork server: Python's own, the
# pure-Python switch (ycsbctl.native), numpy's BLAS and OpenMP threads, Arrow's, the loader's and the allocator's.
AT_IMPORT = ("PYTHON", "YCSBCTL_PURE_PYTHON", "OMP_", "OPENBLAS_", "MKL_", "NUMEXPR_", "ARROW_", "LD_", "MALLOC_")

_server_env: dict[str, str] | None = None  # the variables of AT_IMPORT the forkserver started with


def worker_environment() -> dict[str, str]:
    """This process's environment as a worker sees it (with :data:`WORKER_ENV`)."""
    return {**os.environ, **WORKER_ENV}


def read_at_import(environ: dict[str, str]) -> dict[str, str]:
    """The variables of ``environ`` that a worker's modules read as they are imported (:data:`AT_IMPORT`)."""
    return {k: v for k, v in environ.items() if k.startswith(AT_IMPORT)}


def worker_context() -> ForkServerContext | SpawnContext:
    """The multiprocessing context a point's workers start from: the forkserver while the variables of
    :data:`AT_IMPORT` are those it started with (its first point starts it, importing :data:`PRELOAD`), else
    ``spawn``; ``spawn`` always when ``$YCSBCTL_WORKER_START`` says so (a workload plug-in that cannot be
    forked, or an A/B run)."""
    global _server_env
    env = worker_environment()
    if env.get(START_ENV, "").strip() == "spawn":
        return mp.get_context("spawn")
    if _server_env is None:
        server: ForkServerContext = mp.get_context("forkserver")
        server.set_forkserver_preload(PRELOAD)
        _server_env = read_at_import(env)
        return server
    if read_at_import(env) == _server_env:
        return mp.get_context("forkserver")
    return mp.get_context("spawn")


def take_environment(environ: dict[str, str] | None) -> None:
    """In a worker, before anything else: this process's environment becomes ``environ``, the controller's at the
    point's start (:func:`worker_environment`; None: left as it is). A forked worker otherwise holds the fork
    server's, as it was when the server started; a spawned one has it already, and this changes nothing."""
    if environ is not None and environ != os.environ:
        os.environ.clear()
        os.environ.update(environ)


def store_modules(stores: Iterable[Any]) -> list[str]:
    """Every module of each store's package (``ycsbctl.stores.redis.binding``, ``….cluster``, …): what its
    workers import to connect, whichever binding its properties pick. ``stores``: registry stores
    (:class:`~ycsbctl.stores.base.ServerProtocol`)."""
    names: list[str] = []
    for store in stores:
        package = type(store).__module__.rpartition(".")[0]
        spec = importlib.util.find_spec(package) if package else None
        if spec is None or not spec.submodule_search_locations:
            continue
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules(spec.submodule_search_locations)
                  if f"{package}.{m.name}" not in names]
    return names


def start_worker_server(stores: Iterable[Any] = ()) -> None:
    """Start the fork server now, importing what the workers of ``stores`` need (:func:`store_modules`, handed
    to :mod:`ycsbctl.engine.preload` in ``$YCSBCTL_WORKER_PRELOAD``), so that its imports run while the servers
    start rather than in the first point; nothing when this process started it already or its workers are
    spawned."""
    if _server_env is not None or worker_environment().get(START_ENV, "").strip() == "spawn":
        return
    from multiprocessing import forkserver

    worker_context()
    with started_with_worker_environment():
        os.environ[PRELOAD_ENV] = ",".join(store_modules(stores))
        try:
            with children_spared_ctrl_c():  # a Ctrl-C during its imports is ours to handle: no traceback of its own
                forkserver.ensure_running()
        finally:
            os.environ.pop(PRELOAD_ENV, None)


@contextlib.contextmanager
def started_with_worker_environment() -> Iterator[None]:
    """Around the workers' start: this process's environment with :data:`WORKER_ENV` (a spawned worker,
    or the forkserver the first start makes, inherits it), given back afterwards."""
    saved = {k: os.environ.get(k) for k in WORKER_ENV}
    os.environ.update(WORKER_ENV)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
