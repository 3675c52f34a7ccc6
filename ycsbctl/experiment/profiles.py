"""The named scales of an experiment (``--profile``): records, and each point's length and warm-up."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    """A named scale. ``duration_s`` None means each point runs ``operations`` operations."""

    name: str
    records: int
    operations: int | None
    duration_s: float | None
    warmup_s: float
    description: str


PROFILES = {
    "default": Profile(
        "default", 100_000, None, 10.0, 2.0,
        "100,000 records; 10 s per point after a 2 s warm-up: a two-target sweep in a few minutes",
    ),
    "smoke": Profile("smoke", 2_000, None, 2.0, 0.0, "2,000 records, 2 s per point: checks that everything works"),
    "percona2017": Profile(
        "percona2017", 2_500_000, 25_000_000, None, 0.0,
        "the reference study: 2,500,000 records for insert, 25,000,000 operations for A and B, "
        "Redis with AOF/RDB off, MongoDB inMemory standalone",
    ),
}
