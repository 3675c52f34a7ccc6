"""Telemetry: samplers around each engine run, the dataset footprint, the network baseline, bottleneck labels.

``with telemetry.sampling(endpoint, client_pids=runner.pids) as capture: runner.run()``.
"""

from ycsbctl.telemetry.bottleneck import Bottleneck, classify
from ycsbctl.telemetry.capture import Capture, sampling, target_pids
from ycsbctl.telemetry.footprint import Footprint, footprint_after, footprint_before
from ycsbctl.telemetry.network import NetworkBaseline, iperf_baseline

__all__ = ["Bottleneck", "Capture", "Footprint", "NetworkBaseline", "classify", "footprint_after",
           "footprint_before", "iperf_baseline", "sampling", "target_pids"]
