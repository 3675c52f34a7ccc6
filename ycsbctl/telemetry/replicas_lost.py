"""A primary's replica (or standby) lost while a point ran: the deployment measured is not the one asked for.

The store names the replicas its primary has connected before and after the point
(:meth:`ycsbctl.stores.capabilities.Replication.replicas`: Redis's ``INFO replication``, PostgreSQL's
``pg_stat_replication``); the telemetry's per-second samples of the same lists' sizes (``replicas``) say when the
first went. A point whose operations only read (none wrote) measured the primary alone, which its figures are still
true of; a point that wrote stopped copying its writes to the lost replica from then on. Either way the point is
``degraded`` (see docs/guide/troubleshooting.md), and its reason says which replica, when, and what its figures
are then true of.
"""

from __future__ import annotations

import math

import pandas as pd

REPLICATION_SOURCES = ("redis-info", "postgresql")  # the samplers that count the primary's replicas (``replicas``)


def first_drop_s(telemetry: pd.DataFrame | None, had: int, t0_mono: float | None) -> float | None:
    """Seconds after ``t0_mono`` (the point's operations began) of the first sample counting fewer than ``had``
    replicas (a sample without the count, once the primary had some, counts none: the samplers say None without
    a replica); None without such a sample (no telemetry, or the loss came after the last sample)."""
    if telemetry is None or t0_mono is None or not len(telemetry) or "replicas" not in telemetry:
        return None
    for source in REPLICATION_SOURCES:
        rows = telemetry[telemetry["source"] == source].sort_values("t_mono")
        if not len(rows):
            continue
        counts = pd.to_numeric(rows["replicas"], errors="coerce").fillna(0.0)
        fewer = rows.loc[counts < had, "t_mono"]
        if len(fewer):
            return max(0.0, float(fewer.iloc[0]) - t0_mono)
    return None


def replicas_lost_note(before: list[str] | None, after: list[str] | None, wrote: bool,
                       telemetry: pd.DataFrame | None = None, t0_mono: float | None = None) -> str | None:
    """One sentence when replicas the primary had before the point (``before``) are gone after it (``after``),
    else None (``None`` either side: the store could not say). ``wrote``: the point's operations wrote."""
    if not before or after is None:
        return None
    gone = [r for r in before if r not in after]
    if not gone:
        return None
    at = first_drop_s(telemetry, len(before), t0_mono)
    when = (f"from {at:.1f} s into the point" if at is not None and math.isfinite(at)
            else "by its end")
    what = ("its writes were no longer copied to it from its loss on, so its figures are not the deployment's"
            if wrote else "its operations only read from the primary, so its figures are still true of the primary "
                          "alone — not of the deployment asked for")
    names = ", ".join(gone)
    return (f"lost the replica {names} during the point (the primary listed {len(before)} replica(s) at its start, "
            f"{len(after)} {when}): {what}")
