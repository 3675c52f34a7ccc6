"""The CPUs this ycsbctl may use: its affinity as it started (``taskset`` narrows it), also while a placed point has
moved the controller onto the servers' CPUs for a while (:func:`narrowed`), so that the host's cores, the client's
and a reading's CPU count are never read off that temporary set."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

_outer: frozenset[int] | None = None  # this process's CPUs before narrowed() moved it; None outside


def usable_cpus() -> list[int]:
    """The CPUs this process may run on, in order: its affinity, or what it was before :func:`narrowed` (all of them
    where the OS cannot say)."""
    if _outer is not None:
        return sorted(_outer)
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


@contextmanager
def narrowed(cpus: Iterable[int]) -> Iterator[None]:
    """This thread (and the threads it starts meanwhile) on ``cpus`` for the block, its affinity given back
    afterwards whatever happens; meanwhile :func:`usable_cpus` still says the CPUs it had. A no-op where the OS cannot
    set an affinity."""
    global _outer
    if not hasattr(os, "sched_setaffinity"):
        yield
        return
    before, outer = os.sched_getaffinity(0), _outer
    _outer = frozenset(before) if outer is None else outer
    os.sched_setaffinity(0, set(cpus))
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)
        _outer = outer
