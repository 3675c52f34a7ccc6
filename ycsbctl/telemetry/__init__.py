"""Telemetry: samplers around each engine run, the dataset footprint, the network baseline, bottleneck labels.

``with telemetry.sampling(endpoint, client_pids=runner.pids) as capture: runner.run()``.

The names below load with their module on first use (PEP 562), not with the package: a module of it that
imports little (:mod:`~ycsbctl.telemetry.baseline_length`) is then imported without the samplers' pandas, as
a run's checks before anything starts are (:func:`ycsbctl.experiment.run.run_plan`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ycsbctl.telemetry.bottleneck import Bottleneck, classify
    from ycsbctl.telemetry.capture import Capture, sampling, target_pids
    from ycsbctl.telemetry.footprint import Footprint, footprint_after, footprint_before
    from ycsbctl.telemetry.network import NetworkBaseline, iperf_baseline

_MODULE_OF = {"Bottleneck": "bottleneck", "classify": "bottleneck", "Capture": "capture", "sampling": "capture",
              "target_pids": "capture", "Footprint": "footprint", "footprint_after": "footprint",
              "footprint_before": "footprint", "NetworkBaseline": "network", "iperf_baseline": "network"}

__all__ = ["Bottleneck", "Capture", "Footprint", "NetworkBaseline", "classify", "footprint_after",
           "footprint_before", "iperf_baseline", "sampling", "target_pids"]


def __getattr__(name: str) -> Any:
    """``telemetry.NAME``: imported from its module the first time it is asked for."""
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
    globals()[name] = value
    return value
