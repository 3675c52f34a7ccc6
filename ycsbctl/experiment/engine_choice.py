"""Which engine a study runs on. Apart from :mod:`ycsbctl.experiment.measure` (which imports pandas and the
telemetry) so that :func:`ycsbctl.experiment.run.run_plan` can pick it, and start its workers' fork server, before
it imports the sweep's modules."""

from __future__ import annotations

from ycsbctl.engine.contract import Engine, NativeEngine
from ycsbctl.experiment.study import Study


def engine_for(study: Study) -> Engine:
    """The engine the study's plan names: the real YCSB (``--engine ycsb``), ycsbctl's over a Dask cluster
    (``--cluster``), or ycsbctl's own on this host."""
    plan = study.plan
    if plan.engine == "ycsb":
        from ycsbctl.engine.ycsb_java import YcsbEngine

        return YcsbEngine(plan.ycsb_home)
    if plan.cluster:
        from ycsbctl.engine.cluster import ClusterEngine

        return ClusterEngine(plan.cluster)
    return NativeEngine()
