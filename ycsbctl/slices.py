"""Work cut into slices: a generator that yields between slices, so that the engine's event loop
can run one slice between operations instead of pausing every operation in flight for the whole."""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

T = TypeVar("T")


def drain(steps: Generator[None, None, T]) -> T:
    """Run a step generator to its end, all at once; what it returns."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
