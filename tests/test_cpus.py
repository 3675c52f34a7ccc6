"""ycsbctl.cpus: the CPUs this process may use, held whole while a placed point narrows the controller (the kernel's
affinity, read back with os.sched_getaffinity, is the truth)."""

from __future__ import annotations

import os
import threading

import pytest

from ycsbctl.cpus import narrowed, usable_cpus

CPUS = sorted(os.sched_getaffinity(0))


def test_usable_cpus_is_the_affinity_in_order_outside_a_narrowed_block():
    assert usable_cpus() == CPUS


@pytest.mark.skipif(len(CPUS) < 2, reason="narrowing needs 2 usable CPUs; this host has 1")
def test_a_narrowed_block_runs_on_its_cpus_says_the_whole_set_and_gives_it_back_whatever_happens():
    seen: list[set[int]] = []
    with narrowed([CPUS[0]]):
        assert os.sched_getaffinity(0) == {CPUS[0]} and usable_cpus() == CPUS
        t = threading.Thread(target=lambda: seen.append(os.sched_getaffinity(0)))  # a thread started meanwhile
        t.start()
        t.join()
        with narrowed([CPUS[-1]]):  # nested: the outer set still the one it had before either
            assert os.sched_getaffinity(0) == {CPUS[-1]} and usable_cpus() == CPUS
        assert os.sched_getaffinity(0) == {CPUS[0]} and usable_cpus() == CPUS
    assert seen == [{CPUS[0]}] and os.sched_getaffinity(0) == set(CPUS) and usable_cpus() == CPUS
    with pytest.raises(RuntimeError), narrowed([CPUS[0]]):
        raise RuntimeError("a point that failed")
    assert os.sched_getaffinity(0) == set(CPUS) and usable_cpus() == CPUS
