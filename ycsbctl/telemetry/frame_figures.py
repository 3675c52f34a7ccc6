"""Figures read off a point's tidy samples (``t_mono``, ``source``, metric columns), for
:class:`ycsbctl.telemetry.capture.Capture`: the first source that has a metric (each source's rows found once per
frame), a several-shard target's balance, and what a CPU quota did over the samples' span."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import pandas as pd

from ycsbctl.stores import registry


def source_values(frame: pd.DataFrame, sources: Iterable[str], column: str) -> tuple[pd.Series, str | None]:
    """Values of ``column`` from the first of ``sources`` that has any."""
    if column in frame and "source" in frame:
        rows = _rows_by_source(frame)
        for s in sources:
            at = rows.get(s)
            if at is not None:
                v = pd.to_numeric(frame[column].iloc[at], errors="coerce").dropna()
                if len(v):
                    return v, s
    return pd.Series(dtype=float), None


_BY_SOURCE: list[tuple[pd.DataFrame, dict[Any, Any]]] = []  # the last frame source_values read, and its rows by source


def _rows_by_source(frame: pd.DataFrame) -> dict[Any, Any]:
    """Positions (ascending) of each source's rows in ``frame``, found once per frame: a point's summary and
    bottleneck read ~30 figures of one frame, and each compared every row's source before."""
    if not _BY_SOURCE or _BY_SOURCE[0][0] is not frame:
        _BY_SOURCE[:] = [(frame, frame.groupby("source", sort=False).indices)]
    return _BY_SOURCE[0][1]


def shard_balance(frame: pd.DataFrame) -> dict[str, float | None]:
    """``shards`` and ``shard_ops_share_max`` (the busiest shard's share of the commands the shards
    counted, 1/shards when even) from the per-shard rows of a several-shard target (the sources the stores declare:
    ``shard_source``, Redis's ``redis-shard``); {} without."""
    if "source" not in frame or "node" not in frame:
        return {}
    rows = frame[frame["source"].isin([p.shard_source for p in registry.all_protocols() if p.shard_source])]
    if not len(rows):
        return {}
    per_node = rows.groupby("node")["ops_per_s"].apply(lambda s: pd.to_numeric(s, errors="coerce").sum())
    total = float(per_node.sum())
    return {"shards": float(len(per_node)), "shard_ops_share_max": float(per_node.max()) / total if total > 0 else None}


def finite(v: Any) -> float | None:
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v)


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
