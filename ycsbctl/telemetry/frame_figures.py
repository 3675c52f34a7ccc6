"""Figures read off a point's tidy samples (``t_mono``, ``source``, metric columns): the first source that has a
metric, a several-shard target's balance, and what a CPU quota did over the samples' span."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd


def source_values(frame: pd.DataFrame, sources: Iterable[str], column: str) -> tuple[pd.Series, str | None]:
    """Values of ``column`` from the first of ``sources`` that has any."""
    for s in sources:
        if column in frame and "source" in frame:
            v = pd.to_numeric(frame.loc[frame["source"] == s, column], errors="coerce").dropna()
            if len(v):
                return v, s
    return pd.Series(dtype=float), None


def shard_balance(frame: pd.DataFrame) -> dict[str, float | None]:
    """``shards`` and ``shard_ops_share_max`` (the busiest shard's share of the commands the shards
    counted, 1/shards when even) from the ``redis-shard`` rows of a several-shard target; {} without."""
    if "source" not in frame or "node" not in frame:
        return {}
    rows = frame[frame["source"] == "redis-shard"]
    if not len(rows):
        return {}
    per_node = rows.groupby("node")["ops_per_s"].apply(lambda s: pd.to_numeric(s, errors="coerce").sum())
    total = float(per_node.sum())
    return {"shards": float(len(per_node)), "shard_ops_share_max": float(per_node.max()) / total if total > 0 else None}


def throttled_over(frame: pd.DataFrame, sources: Iterable[str]) -> tuple[float | None, float | None]:
    """(% of the quota periods in which the kernel held the first of ``sources`` that has a CPU quota back,
    seconds it was held back) summed over ``frame``'s samples (each the group's ``cpu.stat`` change since
    the sample before: together its change from the first sample's start to the last one's end); (None,
    None) without a quota."""
    periods, _ = source_values(frame, sources, "quota_periods")
    if not len(periods):
        return None, None
    src = frame.loc[periods.index, "source"].iloc[0]
    rows = frame[frame["source"] == src]
    held = pd.to_numeric(rows.get("throttled_periods"), errors="coerce").sum()
    seconds = pd.to_numeric(rows.get("throttled_s"), errors="coerce").sum()
    total = float(periods.sum())
    return (100.0 * float(held) / total if total > 0 else 0.0), float(seconds)
