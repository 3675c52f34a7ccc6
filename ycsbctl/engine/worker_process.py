"""The entry point of a worker process (:func:`worker_main`): it runs its :class:`~ycsbctl.engine.worker.Worker`
on uvloop (else asyncio), exits when the process that runs its phase is gone, and always sends a last message.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from ycsbctl.engine.launch import take_environment
from ycsbctl.engine.messages import Done, Failed
from ycsbctl.engine.worker import Worker, WorkerPlan
from ycsbctl.errors import short_error
from ycsbctl.processes import sigint_ignored_and_unblocked

GIL_SWITCH_S = 0.0002


def _loop_runner() -> Callable[[Coroutine[Any, Any, Any]], Any]:
    """uvloop's ``run`` when installed (faster wake-ups and I/O), else asyncio's."""
    try:
        from uvloop import run
    except ImportError:
        return asyncio.run
    return run


ORPHANED_EXIT = 3  # a worker's exit status when the process that ran its phase is gone (nobody hears it)


async def _ended_with(controller: int | None, work: Coroutine[Any, Any, Done | Failed]) -> Done | Failed:
    """``work``, unless the process ``controller`` ends first: then this worker exits at once. A forked worker's
    parent is the fork server, which lives as long as any worker does (each holds its lifeline): a controller
    killed (SIGKILL: no clean-up runs) left its workers running to their point's deadline, and waiting for
    the start 120 s, the fork server beside them. Linux's pidfd says when the controller ends, to the loop."""
    fd = None
    if controller is not None and hasattr(os, "pidfd_open"):
        try:
            fd = os.pidfd_open(controller)
        except ProcessLookupError:  # gone already
            os._exit(ORPHANED_EXIT)
        except OSError:  # a kernel before 5.3: the worker ends at its deadline, as before
            pass
    if fd is not None:
        asyncio.get_running_loop().add_reader(fd, os._exit, ORPHANED_EXIT)
    try:
        return await work
    finally:
        if fd is not None:
            asyncio.get_running_loop().remove_reader(fd)
            os.close(fd)


def worker_main(plan: WorkerPlan, acked: Any, stop_flag: Any, start_event: Any, t_start: Any, out: Any) -> None:
    """Entry point of a worker process (forked or spawned: ``engine.launch``): runs :meth:`Worker.run` on uvloop (else
    asyncio) and sends its last message; a crash is reported as :class:`Failed`."""
    take_environment(plan.environ)  # forked: the fork server's environment until now
    sigint_ignored_and_unblocked()  # the parent handles Ctrl-C and tells us to stop
    # The loop's thread waits at most this long for the GIL when another thread holds it (the queue's
    # feeder, pickling a second's report); at Python's default of 5 ms a second's shipping, then done
    # in a thread, paused every operation in flight.
    sys.setswitchinterval(GIL_SWITCH_S)
    try:
        if plan.cpus:  # before any connection is made (ycsbctl.experiment.placement; engine.launch)
            os.sched_setaffinity(0, plan.cpus)
        worker = (plan.worker or Worker)(plan, acked, stop_flag, out)
        out.put(_loop_runner()(_ended_with(plan.controller, worker.run(start_event, t_start))))
    except BaseException as exc:  # noqa: BLE001 - the parent must always hear back
        where = _outside_ycsbctl(exc)
        if where is None:
            out.put(Failed(plan.index, f"worker crashed: {type(exc).__name__}: {exc}"))
            raise  # our bug: its traceback too
        # a workload plug-in's own code raised: the parent's one line says where; no traceback of the worker
        out.put(Failed(plan.index, f"worker crashed: the workload plug-in's {where} raised {short_error(exc)}"))
        sys.exit(1)


def _outside_ycsbctl(exc: BaseException) -> str | None:
    """Where ``exc`` was raised in a workload plug-in's own code (``Class.method (file.py:12)``: the
    innermost frame of its traceback in a Python source file that is neither ycsbctl's, Python's nor an
    installed library's: a compiled library's frame names its .pyx); None when it went through no such
    frame (ycsbctl's own bug, or a built-in workload's)."""
    if not isinstance(exc, Exception):
        return None
    ours = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep, os.path.dirname(os.__file__) + os.sep)
    found = None
    tb = exc.__traceback__
    while tb is not None:
        path = tb.tb_frame.f_code.co_filename
        # a plug-in is Python source; a compiled library's frame names its .pyx (pandas' parsing.pyx), relative
        if path.endswith(".py") and not path.startswith(ours) and f"{os.sep}site-packages{os.sep}" not in path:
            found = f"{tb.tb_frame.f_code.co_qualname} ({os.path.basename(path)}:{tb.tb_lineno})"
        tb = tb.tb_next
    return found
