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


class _Primed(Sampler):
    """Says when it has primed; each sample a row of its own."""

    source = "primed"

    def __init__(self, interval_s: float) -> None:
        super().__init__(interval_s)
        import threading

        self.primed = threading.Event()

    def prime(self) -> None:
        self.primed.set()

    def sample(self) -> dict[str, Any]:
        return {"x": 1}


@pytest.mark.parametrize(("interval_s", "tail"), [(10.0, False), (1.0, True)])
def test_a_run_stopped_between_ticks_gets_a_tail_row_when_it_is_a_fifth_of_an_interval_long(interval_s, tail):
    # stopped 0.25 s after its start: the tail is a fifth of an interval and more for a 1 s sampler
    # (a row of its own), less than one for a 10 s one (left to the next point: no row that short)
    sampler = _Primed(interval_s)
    sampler.start()
    assert sampler.primed.wait(10)
    time.sleep(0.25)
    assert len(sampler.stop()) == int(tail)
