"""One engine shard on a client host: the local engine (its worker processes and client threads),
started at a time the controller chose, forwarding what its workers measure.

Run as ``python -m ycsbctl.engine.shard_process`` by the Dask task (:mod:`ycsbctl.engine.cluster_task`): a
Dask worker under its nanny is a daemonic process, and ``multiprocessing`` refuses to give a
daemonic process children (dask/distributed#2142), so the shard is a subprocess of it.

Pipes: stdin carries the pickled :class:`~ycsbctl.engine.shard_plan.ShardPlan`, then text lines
``start <epoch s>`` and ``stop``; end of stdin (the Dask worker is gone) stops the shard too.
stdout carries pickled messages: :class:`ShardReady`, :class:`ShardStarted`, the engine's
``(shard, SecondReport | Done | Failed)`` with ``Done.end_ns`` made relative to the start, and a
last :class:`ShardEnded`. Nothing else is written to stdout.
"""

from __future__ import annotations

import os
import pickle
import queue
import signal
import socket
import sys
import threading
import time
from dataclasses import replace
from typing import IO, Any

from ycsbctl import __version__
from ycsbctl.cpus import usable_cpus
from ycsbctl.engine.messages import Done, Failed, Message, Ready
from ycsbctl.engine.runner import PhaseRunner
from ycsbctl.engine.shard_plan import ShardEnded, ShardPlan, ShardReady, ShardStarted
from ycsbctl.errors import UserError

STOP = None


class Shard:
    """The shard's side of the protocol above, around one :class:`PhaseRunner`."""

    def __init__(self, plan: ShardPlan, out: IO[bytes]) -> None:
        self.plan = plan
        self.out = out
        self.starts: queue.Queue[float | None] = queue.Queue()
        self.runner = PhaseRunner(plan.spec, start_at=self._start_at, on_message=self._forward)
        self.t0_ns = 0
        self.finals: set[int] = set()
        self.lock = threading.Lock()

    def send(self, obj: Any) -> None:
        with self.lock:  # the main thread and the start watcher both send
            pickle.dump(obj, self.out, protocol=pickle.HIGHEST_PROTOCOL)
            self.out.flush()

    def listen(self, inp: IO[bytes]) -> None:
        """Read ``start``/``stop`` lines until end of input (a thread)."""
        for line in inp:
            word, _, arg = line.decode().strip().partition(" ")
            if word == "start":
                self.starts.put(float(arg))
            elif word == "stop":
                break
        self.runner.stop()
        self.starts.put(STOP)

    def _start_at(self) -> float:
        cores = len(usable_cpus())
        self.send(ShardReady(self.plan.index, socket.gethostname(), cores, self.runner.processes, __version__))
        t_wall = self.starts.get()
        if t_wall is STOP:
            raise KeyboardInterrupt  # the runner stops its workers as after Ctrl-C
        now_wall, now = time.time(), time.perf_counter()
        given_late = max(0.0, now_wall - t_wall)
        t0 = max(now + (t_wall - now_wall), now + 0.001)  # given late: start now (and say how late)
        self.t0_ns = int(t0 * 1e9)
        threading.Thread(target=self._watch_start, args=(t0, given_late), daemon=True).start()
        return t0

    def _watch_start(self, t0: float, given_late: float) -> None:
        """Wake at ``t0`` as the workers do and report how late that was (plus a start given late)."""
        while (left := t0 - time.perf_counter()) > 0:
            time.sleep(left)
        self.send(ShardStarted(self.plan.index, given_late + time.perf_counter() - t0))

    def _forward(self, msg: Message) -> None:
        if isinstance(msg, Ready):
            return  # the shard's own barrier; the controller hears ShardReady
        if isinstance(msg, Done):
            self.finals.add(msg.worker)
            if msg.end_ns:  # perf_counter clocks differ between hosts: send it relative to the start
                msg = replace(msg, end_ns=max(1, msg.end_ns - self.t0_ns))
        elif isinstance(msg, Failed):
            self.finals.add(msg.worker)
        self.send((self.plan.index, msg))

    def run(self) -> None:
        try:
            result = self.runner.run()
        except UserError as exc:
            self.send(ShardEnded(self.plan.index, str(exc)))
            return
        # A worker that died without a word was given a Done by the runner itself: forward its reason.
        for i in range(self.runner.processes):
            if i not in self.finals:
                why = result.errors[:1] or [f"engine worker {i} on {socket.gethostname()} ended without a report"]
                self.send((self.plan.index, Done(i, errors=why)))
        self.send(ShardEnded(self.plan.index))


def main() -> None:
    out = os.fdopen(os.dup(1), "wb")  # the message channel
    os.dup2(2, 1)  # anything else printed goes to stderr
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the controller stops shards (stop line / end of stdin)
    inp = sys.stdin.buffer
    plan: ShardPlan = pickle.load(inp)
    shard = Shard(plan, out)
    threading.Thread(target=shard.listen, args=(inp,), daemon=True).start()
    try:
        shard.run()
    except BrokenPipeError:  # the Dask worker went away: nobody to tell
        pass
    except Exception as exc:  # noqa: BLE001 - the controller must hear why
        shard.send(ShardEnded(plan.index, f"shard crashed: {type(exc).__name__}: {exc}"))


if __name__ == "__main__":
    main()
