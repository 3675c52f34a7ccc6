"""What the engine's fork server imports besides the worker, once, so that no forked worker imports it at each
point: uvloop (the workers' loop), every store module of the registry (a worker's first URL lookup imports all
of them), and the modules ``$YCSBCTL_WORKER_PRELOAD`` names (the plan's stores' packages, with their bindings:
:func:`ycsbctl.engine.launch.start_worker_server`). Each forked worker used to import these itself before it
could connect: ~50 modules for a Redis point, every worker of every point (``python -m bench point_overhead``
measures what a point costs beyond its duration).

Imported by the fork server only (:data:`ycsbctl.engine.launch.PRELOAD`); anything that fails here is left to the
worker, which then imports it as before and says what went wrong in its own words."""

from __future__ import annotations

import contextlib
import gc
import importlib
import os

from ycsbctl.processes import sigint_ignored_and_unblocked

with contextlib.suppress(ImportError):
    import uvloop  # noqa: F401 - imported for the workers forked from this process

with contextlib.suppress(Exception):  # a store that cannot be imported fails in the worker, in one line
    from ycsbctl.stores.registry import all_protocols

    all_protocols()

for _name in filter(None, os.environ.pop("YCSBCTL_WORKER_PRELOAD", "").split(",")):  # not inherited by the workers
    with contextlib.suppress(Exception):
        importlib.import_module(_name)

# Started with SIGINT blocked (ycsbctl.engine.launch: a Ctrl-C during these imports is the controller's to
# handle); ignored from here on, as the fork server is about to make it, and unblocked for the workers it forks.
sigint_ignored_and_unblocked()

# Everything imported above is frozen (gc.freeze: moved to a generation the collector never walks), as Python's
# gc documentation advises before forking without exec. A worker collects once before it says it is ready
# (engine/worker.py: no collection while operations are in flight): in a forked child that walked every object
# of this heap, and its every touch of an object's header copied that memory page, each worker, each point. Now
# it walks what the worker itself made (``python -m bench point_overhead`` measures a point's start).
gc.collect()
gc.freeze()
