"""A worker process of an alternated session (:mod:`ycsbctl.engine.alternation`) for a workload plug-in: the slice
loop is :class:`~ycsbctl.engine.alternating_worker.SliceLoop`'s, each slice's operations are the plug-in's
(:class:`~ycsbctl.engine.plugin_worker.PluginWorker`'s loop), drawn from the one operation source of the process and
executed against the slice's target through that target's own executor (the plug-in's ``executor(protocol)`` for
its store), on that target's own binding set.

Before the start, the plug-in's ``prepare`` runs once per target, on that target's first binding, with its executor
(a table's indexes built, answers checked): a target it refuses stops the session before its start, named. While
the session runs, an executor that breaks its contract on one target (a wrong answer, a raise, no status) ends that
target alone, as a lost connection does: its later slices idle and its result fails, the others go on. A source
that breaks, or a client still held ``--timeout`` after the session's end, ends every target.
"""

from __future__ import annotations

from typing import Any

from ycsbctl.engine.alternating_worker import SliceLoop, SliceRun
from ycsbctl.engine.measurements import Recorder
from ycsbctl.engine.plugin_worker import PluginWorker
from ycsbctl.engine.worker import Worker, WorkerPlan
from ycsbctl.stores.binding import Binding, ConnectionLost
from ycsbctl.stores.binding_set import BindingSet
from ycsbctl.stores.registry import protocol_of
from ycsbctl.workload.plugin import Executor


class AlternatingPluginWorker(SliceLoop, PluginWorker):
    """A workload plug-in's clients in an alternated session: each target through its own store's executor."""

    def __init__(self, plan: WorkerPlan, acked: Any, stop_flag: Any, out: Any) -> None:
        super().__init__(plan, acked, stop_flag, out)
        executors = [self.plugin.executor(protocol_of(url)) for url in self.alt.urls]
        if any(e is None for e in executors):  # the runner refuses this before any worker starts
            raise ValueError(f"{type(self.plugin).__name__} cannot run on every alternated target")
        self.executors: list[Executor[Any]] = [e for e in executors if e is not None]

    def slice_codes(self) -> list[int]:
        return sorted(self.codes)

    async def before_target(self, t: int, bs: BindingSet) -> str | None:
        """The plug-in's prepare on target ``t``'s first binding, with ``t``'s executor."""
        return await self.prepare_with(self.executors[t], bs)

    def slice_runner(self, binds: list[Binding], t0: int) -> SliceRun:
        executors = self.executors

        async def run(t: int, rec: Recorder, end: int) -> None:
            await self.execute_until(binds[t], executors[t], 0, None, end)

        return run

    def executor_failed(self, why: str) -> None:
        """An executor broke its contract against the target the client runs: that target ends, the others go on."""
        self.lost(ConnectionLost(why))

    def fails_all(self, why: str) -> None:
        """The source broke, or a client hung: every target ends (each result fails, saying why)."""
        self.stopping = True
        Worker.lost(self, ConnectionLost(why))  # the session's own words, once
        for t in range(len(self.alt.urls)):
            self.end_target(t, why)
