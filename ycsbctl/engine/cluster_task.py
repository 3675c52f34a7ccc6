"""The Dask task that runs one engine shard on the worker's host and relays its messages.

It starts :mod:`ycsbctl.engine.shard_process` as a subprocess (a nanny's worker may not fork children
with ``multiprocessing``), hands it the plan, and relays every message it prints to the
controller through a Dask ``Queue`` (through the scheduler, so the controller needs no open port
of its own; a few KB per engine process per second). The start time comes back through a Dask
``Variable`` the controller sets once every shard is ready, and a Dask ``Event`` asks the shard to
stop (Ctrl-C on the controller, a lost peer). Only pickled bytes travel in the queue: its elements
must be msgpack-encodable.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from ycsbctl.engine.shard_plan import ShardEnded, ShardPlan, ShardReady

READY_TIMEOUT_S = 120.0  # how long a ready shard waits for the start time
POLL_S = 0.5  # how often a ready shard asks whether the controller gave the point up


def shard_environment() -> dict[str, str]:
    """The worker's environment less what Dask's nanny set for its worker only: the engine runs as it
    does outside Dask. ``MALLOC_TRIM_THRESHOLD_=65536`` (the nanny's default) makes glibc hand memory
    back at every free of 64 KB — bench/cluster measured the engine slower with it."""
    from dask import config

    env = dict(os.environ)
    for name in (config.get("distributed.nanny.pre-spawn-environ", {}) or {}):
        if name == "MALLOC_TRIM_THRESHOLD_":
            env.pop(name, None)
    return env


def _start_time(start: Any, given_up: Callable[[], bool]) -> float:
    """The start time the controller sets (wall s), or -1 once it gave the point up (``given_up()``)
    or :data:`READY_TIMEOUT_S` passed. Asked in short waits: a point the controller gave up before
    this shard was ready may have deleted the Variable, and one long ``get`` then held this worker's
    thread for its whole timeout, and the next point's shard queued behind it (issue 61)."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        asked = time.monotonic()
        with contextlib.suppress(Exception):  # a timeout (distributed's own class on some versions)
            return float(start.get(timeout=POLL_S))
        if time.monotonic() - asked < POLL_S / 2:  # failed at once (the scheduler is gone): not a busy loop
            time.sleep(POLL_S / 2)
        with contextlib.suppress(Exception):  # a scheduler slow to answer: asked again
            if given_up():
                return -1.0
    return -1.0


def run_shard(plan: ShardPlan, queue_name: str, start_name: str, stop_name: str) -> None:
    """Run ``plan`` on this Dask worker's host; every message goes to the queue ``queue_name``."""
    from distributed import Event, Queue, Variable, get_worker
    from distributed.worker import thread_state

    q, start, stop = Queue(queue_name), Variable(start_name), Event(stop_name)
    proc = subprocess.Popen([sys.executable, "-m", "ycsbctl.engine.shard_process"], env=shard_environment(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    finished = threading.Event()
    lock = threading.Lock()

    def tell(line: str) -> None:
        with lock, contextlib.suppress(OSError, ValueError):
            proc.stdin.write(line.encode())  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]

    worker = get_worker()
    key = getattr(thread_state, "key", None)

    def abandoned() -> bool:
        """The controller went away (its client closed or was killed): the scheduler released our task."""
        ts = worker.state.tasks.get(key) if key is not None else None
        return key is not None and (ts is None or ts.state in ("cancelled", "released", "forgotten"))

    def watch_stop() -> None:
        while not finished.is_set():
            with contextlib.suppress(Exception):  # a slow scheduler answer is retried
                if stop.wait(timeout=0.5) or abandoned():
                    tell("stop\n")
                    return

    ended = False
    try:
        pickle.dump(plan, proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        proc.stdin.flush()
        threading.Thread(target=watch_stop, daemon=True).start()
        while True:
            try:
                item: Any = pickle.load(proc.stdout)
            except EOFError:
                break
            q.put(pickle.dumps(item, protocol=pickle.HIGHEST_PROTOCOL))
            if isinstance(item, ShardReady):
                t_start = _start_time(start, lambda: finished.is_set() or stop.is_set() or abandoned())
                tell(f"start {t_start}\n" if t_start > 0 else "stop\n")
            ended = ended or isinstance(item, ShardEnded)
        code = proc.wait()
        if not ended:
            why = f"the shard process on this host exited with code {code} before its end"
            q.put(pickle.dumps(ShardEnded(plan.index, why)))
    finally:
        finished.set()
        with contextlib.suppress(OSError):
            proc.stdin.close()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
