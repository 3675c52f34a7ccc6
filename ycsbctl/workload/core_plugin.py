"""YCSB's CoreWorkload as a plug-in (``workload=site.ycsb.workloads.CoreWorkload``, the default): a thin
class that hands the engine today's generators (:mod:`ycsbctl.workload.generators`) unchanged."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ycsbctl.results.names import OPERATIONS
from ycsbctl.workload.core import INSERT, CoreWorkload
from ycsbctl.workload.plugin import Executor, Workload
from ycsbctl.workload.properties import Properties

if TYPE_CHECKING:  # the generators (numpy) wait for a workload that runs: bad input is refused without them
    import numpy as np

    from ycsbctl.workload.generators import LoadGenerator, RunGenerator


class CorePlugin(Workload):
    """CoreWorkload through the plug-in contract. Its operations run on the engine's YCSB path (the
    bindings' ``read``/``insert``/``update``/``scan``/``delete``, chained from the reply callback):
    :attr:`builtin_ycsb` says so, and :meth:`executor` has nothing to add."""

    operation_names: ClassVar[tuple[str, ...]] = OPERATIONS
    axis_properties: ClassVar[tuple[str, ...]] = ("requestdistribution", "fieldcount", "fieldlength")
    builtin_ycsb: ClassVar[bool] = True
    alternates: ClassVar[bool] = True  # unless it inserts or checks values: see alternation_refusal

    def __init__(self, core: CoreWorkload) -> None:
        self.core = core
        self.operationcount = core.operationcount
        self.insert_only = core.insert_only

    @classmethod
    def from_properties(cls, p: Properties) -> CorePlugin:
        return cls(CoreWorkload.from_properties(p))

    @property
    def load_operations(self) -> int:
        return self.core.load_operations

    def load_blocks(self, threads_per_process: list[int]) -> list[tuple[int, int]]:
        from ycsbctl.workload.generators import load_blocks

        return load_blocks(self.core, threads_per_process)

    def op_codes(self, phase: str) -> list[int]:
        return [INSERT] if phase == "load" else [op for op, _ in self.core.proportions]

    def source(self, phase: str, rng: np.random.Generator, process: int, processes: int,
               acked: Any = None, load_block: tuple[int, int] | None = None) -> LoadGenerator | RunGenerator:
        from ycsbctl.workload.generators import LoadGenerator, RunGenerator

        if phase == "load":
            first, count = load_block or (self.core.insertstart, 0)
            return LoadGenerator(self.core, rng, first, count)
        return RunGenerator(self.core, rng, process, processes, acked)

    def executor(self, protocol: str) -> Executor[Any] | None:
        return None  # the engine's YCSB path runs it (builtin_ycsb)

    def alternation_refusal(self) -> str | None:
        """A run that inserts (its reads pick keys from every target's inserts) or checks its values
        (``dataintegrity``) cannot alternate."""
        if dict(self.core.proportions).get(INSERT, 0.0) > 0:
            return ("a run that inserts cannot alternate (the targets' key sets would diverge): set "
                    "insertproportion=0")
        if self.core.dataintegrity:
            return "dataintegrity=true cannot alternate targets yet: measure each target on its own"
        return None
