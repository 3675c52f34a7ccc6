"""A sampler's own cost (stores/sampler.py: ``cpu_s``, the CPU its loop spent, with ``child_cpu_s``, the
programs it ran) against the CPU its hooks measured themselves: a sampler that never ran cost nothing;
one that ran counts its loop's CPU from the loop's start (not the thread's whole life) plus its
children's."""

from __future__ import annotations

import time
from typing import Any

import pytest

from ycsbctl.stores.sampler import Sampler

CHILD_S = 0.25  # the CPU each sample's program is said to have used


class _Spinner(Sampler):
    """Spins a known share of CPU in each hook, measured by its own thread clock."""

    source = "spinner"

    def __init__(self) -> None:
        super().__init__(interval_s=0.05)
        self.spun = 0.0

    def _spin(self, s: float) -> None:
        t0 = time.thread_time()
        while time.thread_time() - t0 < s:
            pass
        self.spun += time.thread_time() - t0

    def prime(self) -> None:
        self._spin(0.1)

    def sample(self) -> dict[str, Any]:
        self._spin(0.02)
        self.child_cpu_s += CHILD_S
        if len(self.rows) >= 3:
            self.request_stop()  # this row is the last
        return {"x": 1}

    def close(self) -> None:
        self._spin(0.03)


def test_a_sampler_that_never_ran_cost_nothing():
    s = _Spinner()
    assert (s.cpu_s, s.child_cpu_s) == (0.0, 0.0)
    assert s.stop().empty and s.cpu_s == 0.0


def test_a_samplers_cost_is_its_loops_cpu_and_its_childrens():
    """The loop runs on this (long-lived, busy) thread, so its CPU before the loop is large: only the
    loop's own counts. Its rows' programs add CHILD_S each."""
    before = time.thread_time()
    assert before > 0.2  # this thread imported pandas: the loop's start is far from 0
    s = _Spinner()
    s._loop()
    assert s.warning is None and len(s.rows) >= 4
    children = CHILD_S * len(s.rows)
    assert s.child_cpu_s == pytest.approx(children)
    # the hooks' own spinning, plus the loop's bookkeeping (a few ms)
    assert s.spun <= s.cpu_s - children <= s.spun + 0.05
