"""The slices table of a result folder (``slices.parquet``): one row per slice of every point measured in an
alternated session, where the targets of one cell share one engine session and all its client threads switch
target every slice (``PhaseResult.slices``: one row per slice of that point's target).

Its columns (:data:`COLUMNS`): the point's keys — ``run_id``, ``target``, ``workload``, ``phase``, ``threads``,
``target_rate`` (ops/s, NaN unpaced), ``repetition`` (the round) and ``session`` (the same id on the points of one
session) — then the engine's per-slice figures: ``slice`` (global 0-based index in the session), ``t_start_s``,
``t_end_s`` (the slice's nominal edges, s since the session's start), ``warmup``, ``operations`` and ``errors``
(started in that slice), ``mean_us``, ``p50_us``, ``p99_us`` (latency, NaN when no operation) and ``switch_s``
(what switching over to this target cost, s). A folder of an older version has none: :func:`empty`.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

KEY_COLUMNS = ("run_id", "target", "workload", "phase", "threads", "target_rate", "repetition", "session")
SLICE_COLUMNS = ("slice", "t_start_s", "t_end_s", "warmup", "operations", "errors", "mean_us", "p50_us", "p99_us",
                 "switch_s")
COLUMNS = (*KEY_COLUMNS, *SLICE_COLUMNS)
_TYPES = {"run_id": "string", "target": "string", "workload": "string", "phase": "string", "session": "string",
          "threads": "int64", "repetition": "int64", "slice": "int64", "operations": "int64", "errors": "int64",
          "warmup": "bool"}  # the rest float64


def empty() -> pd.DataFrame:
    """The slices table without a row (a folder without alternated sessions), its :data:`COLUMNS` typed."""
    return conform(pd.DataFrame(columns=list(COLUMNS)))


def conform(df: pd.DataFrame | None) -> pd.DataFrame:
    """``df`` with :data:`COLUMNS` in order, each of its type (missing ones empty; others kept after them);
    :func:`empty` for None."""
    if df is None:
        return empty()
    out = df.reset_index(drop=True).copy()
    for c in COLUMNS:
        if c not in out:
            out[c] = pd.Series([None] * len(out), dtype=object)
        kind = _TYPES.get(c, "float64")
        if kind == "string":
            out[c] = out[c].astype(object).where(out[c].notna(), None)
        elif kind == "bool":
            out[c] = out[c].fillna(False).astype(bool)
        elif kind == "int64" and out[c].notna().all():
            out[c] = pd.to_numeric(out[c]).astype("int64")
        else:
            out[c] = pd.to_numeric(out[c], errors="coerce").astype("float64")
    return out[[*COLUMNS, *(c for c in out.columns if c not in COLUMNS)]]


def keyed(slices: pd.DataFrame, key: dict[str, Any]) -> pd.DataFrame:
    """One point's slice rows (``PhaseResult.slices``) with its ``key`` (:data:`KEY_COLUMNS`: the unpaced
    ``target_rate`` is NaN), as they go into the table."""
    rate = key.get("target_rate")
    cols = {**{k: key.get(k) for k in KEY_COLUMNS}, "target_rate": float(rate) if rate else math.nan}
    return conform(slices.assign(**cols))
