"""The line of a point cut short says when its clients stopped, never a time past its own window as if inside it:
Tarantool killed 1 s into a 5 s window, its clients waiting on the dying server's port for their reconnect's timeout,
read "stopped 11.0 s into the 5 s window" (tried from outside, issue 43)."""

from __future__ import annotations

import numpy as np

from tests.fixtures.experiments import make_result
from ycsbctl.experiment.live_console import point_summary
from ycsbctl.results.folder import RunRecord
from ycsbctl.results.names import RunStatus


def _cut(runtime_ms: float) -> str:
    r = make_result(np.random.default_rng(7), "run", 4, 1000.0, {"READ": 1.0})
    r.status, r.runtime_ms, r.duration_s = RunStatus.FAILED, runtime_ms, 5.0
    record = RunRecord("t", "tarantool", "workloadc", "run", 4, 1, RunStatus.FAILED, result=r,
                       error="lost the Tarantool server")
    return point_summary(record)


def test_clients_that_gave_up_after_the_window_are_not_said_to_stop_inside_it():
    late = _cut(11_037.0)
    assert "its clients stopped 6.0 s after the 5 s window ended (waiting on the server)" in late, late
    assert "into the 5 s window" not in late and "no rate for a point cut short" in late
    inside = _cut(1_100.0)
    assert "stopped 1.1 s into the 5 s window after" in inside and "after the 5 s window ended" not in inside
