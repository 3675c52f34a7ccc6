"""How the engine starts its worker processes: forked from one server process that imported the
worker's modules once (multiprocessing's forkserver), rather than a fresh interpreter per worker and point.

A spawned worker starts Python and imports numpy, asyncio and the engine again before it can connect:
that start is paid by every worker of every point (``python -m bench engine_start`` prints both ways
side by side). The forkserver is started by the first point of this process and lives as long as it
does; each later worker is a ``fork`` of it.

A forked worker is the same as a spawned one only while this process's environment is the one the
server started with: a module reads the environment when it is imported (``ycsbctl.native``'s
switch to the pure-Python path, OpenBLAS's thread count). When it differs (a test or a notebook set a
variable since), that point's workers are spawned. The current directory and ``sys.path`` are the
parent's at each start either way (multiprocessing hands them over), and the CPU set is not inherited:
each worker takes the one its plan names (:attr:`ycsbctl.engine.worker.WorkerPlan.cpus`).
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
from collections.abc import Iterator
from multiprocessing.context import ForkServerContext, SpawnContext

# What the server imports once: the worker with its workload, measurement and binding code, and the command
# line's package (a worker of the ``ycsbctl`` script runs that script again before its task: multiprocessing
# does so for every child whose parent's main module is a file; its import is then already done).
PRELOAD = ["ycsbctl.engine.worker", "ycsbctl.cli"]
# Read by numpy's OpenBLAS at import: a worker is one event loop, and idle BLAS threads spinning after a
# numpy call showed up as ~2 % of a worker's CPU. A server process that forks must not hold threads either.
WORKER_ENV = {"OPENBLAS_NUM_THREADS": "1"}

START_ENV = "YCSBCTL_WORKER_START"  # "spawn": every worker a fresh interpreter (the fork server is the default)

_server_env: dict[str, str] | None = None  # the environment the forkserver started with


def worker_environment() -> dict[str, str]:
    """This process's environment as a worker sees it (with :data:`WORKER_ENV`)."""
    return {**os.environ, **WORKER_ENV}


def worker_context() -> ForkServerContext | SpawnContext:
    """The multiprocessing context a point's workers start from: the forkserver while this process's
    environment is the one it started with (its first point starts it), else ``spawn``; ``spawn`` always
    when ``$YCSBCTL_WORKER_START`` says so (a workload plug-in that cannot be forked, or an A/B run)."""
    global _server_env
    env = worker_environment()
    if env.get(START_ENV, "").strip() == "spawn":
        return mp.get_context("spawn")
    if _server_env is None:
        server: ForkServerContext = mp.get_context("forkserver")
        server.set_forkserver_preload(PRELOAD)
        _server_env = env
        return server
    if env == _server_env:
        return mp.get_context("forkserver")
    return mp.get_context("spawn")


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
