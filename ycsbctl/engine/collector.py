"""The controller's side of the engine messages of one phase (:class:`Collector`): per-second aggregates, the
workers' last words, and progress once a second."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from ycsbctl.engine.aggregate import FineAggregate, SecondAggregate
from ycsbctl.engine.messages import Done, Failed, Ready, SecondReport, SliceReport
from ycsbctl.engine.spec import Tick
from ycsbctl.workload.core import OP_NAMES


class Collector:
    """The controller's side of the engine messages (see :func:`~ycsbctl.engine.messages.dispatch`):
    per-second aggregates, the workers' last words, and progress once every live worker has
    reported a second."""

    def __init__(self, workers: int, measurement: str, warmup_seconds: int,
                 progress: Callable[[Tick], None] | None, names: tuple[str, ...] = OP_NAMES) -> None:
        """``names``: the workload's measurement names by op code (``workload.plugin.op_names``)."""
        self.workers, self.measurement, self.warmup_seconds = workers, measurement, warmup_seconds
        self.progress = progress
        self.seconds: dict[int, SecondAggregate] = defaultdict(lambda: SecondAggregate(names=names))
        # by 100 ms, if shipped so
        self.fine: dict[int, FineAggregate] = defaultdict(lambda: FineAggregate(names=names))
        self.closed: dict[int, int] = defaultdict(int)  # second -> workers whose last report of it came
        self.finals: dict[int, Done] = {}
        self.setup_errors: list[str] = []
        self.heard: set[int] = set()
        self.pids: list[int] = []
        self.ready = 0
        self.status = "ok"
        self.total_ops = 0
        self.emitted = -1
        self.started = False  # set once every worker is ready and the start is given

    def on_ready(self, msg: Ready) -> None:
        self.heard.add(msg.worker)
        self.ready += 1
        self.pids.append(msg.pid)

    def on_second(self, msg: SecondReport) -> None:
        agg = self.seconds[msg.second]
        before = agg.count
        agg.add(msg.counts, self.measurement)
        if msg.tenth is not None:
            self.fine[msg.second * 10 + msg.tenth].add(msg.counts)
        if msg.closes_second:
            self.closed[msg.second] += 1
        self.total_ops += agg.count - before
        live = self.workers - len(self.finals)
        while self.progress is not None and self.emitted + 1 in self.seconds and \
                self.closed[self.emitted + 1] >= live:
            self.emitted += 1
            a = self.seconds[self.emitted]
            self.progress(Tick(self.emitted, self.total_ops, float(a.count), a.p99_us(), a.errors(),
                               self.emitted < self.warmup_seconds))

    def on_slice(self, msg: SliceReport) -> None:
        """Slices come from an alternated session's workers only (``engine.alternated_session``)."""
        raise TypeError(f"a slice report from worker {msg.worker} in a phase that does not alternate")

    def on_done(self, msg: Done) -> None:
        self.finals[msg.worker] = msg

    def on_failed(self, msg: Failed) -> None:
        self.heard.add(msg.worker)
        if not self.started:  # could not connect: the phase does not start
            self.setup_errors.append(msg.message)
            return
        self.finals[msg.worker] = Done(msg.worker, errors=[msg.message])
        self.status = "failed"
