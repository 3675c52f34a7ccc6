"""How long the network baseline's iperf3 runs: ``YCSBCTL_BASELINE_S``. A module of its own, importing nothing heavy,
so that a run can refuse a bad value before it starts anything (:func:`ycsbctl.experiment.run.run_plan`) without
importing the samplers (pandas)."""

from __future__ import annotations

import os

from ycsbctl.errors import UserError
from ycsbctl.user_input import whole_number

BASELINE_S_ENV = "YCSBCTL_BASELINE_S"
BASELINE_S = 3


def baseline_seconds() -> int:
    """Seconds of iperf3 traffic a baseline asks for: ``YCSBCTL_BASELINE_S`` (whole seconds, 1-60, iperf3's
    ``-t``), else 3. The test suite sets 1: the shortest run iperf3 makes."""
    raw = os.environ.get(BASELINE_S_ENV, "").strip()
    if not raw:
        return BASELINE_S
    try:
        seconds = whole_number(raw)
    except ValueError:
        seconds = 0
    if not 1 <= seconds <= 60:
        raise UserError(f"{BASELINE_S_ENV}={raw!r}: give whole seconds of iperf3 traffic from 1 to 60")
    return seconds
