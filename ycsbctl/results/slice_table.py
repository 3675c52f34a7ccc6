"""The slices table of a result folder (``slices.parquet``): one row per slice of every point measured in an
alternated session, where the targets of one cell share one engine session and all its client threads switch
target every slice (``PhaseResult.slices``: one row per slice of that point's target).

Its columns (:data:`COLUMNS`): the point's keys — ``run_id``, ``target``, ``workload``, ``phase``, ``threads``,
``target_rate`` (ops/s, NaN unpaced), ``repetition`` (the round) and ``session`` (the same id on the points of one
session) — then the engine's per-slice figures: ``slice`` (global 0-based index in the session), ``t_start_s``,
``t_end_s`` (the slice's nominal edges, s since the session's start), ``warmup``, ``operations`` and ``errors``
(started in that slice), ``mean_us``, ``p50_us``, ``p99_us`` (latency, NaN when no operation) and ``switch_s``
(what switching over to this target cost, s: how long past the slice's end its last operation ended), ``settle_s``
(the slice's settle window, s: its first moments, whose operations are counted apart — in no histogram, operation
count or throughput of the point, its time left out of the point's runtime; 0 or NaN in a folder without one),
``settle_operations`` and ``settle_p99_us`` (the operations started in that window and their p99: what the window
left out), ``held`` (no operation began in it: another target's late operations kept every client past its start,
:mod:`ycsbctl.results.held_slices`; its time is left out of the point's runtime, its block out of the slice pairs;
False in a folder without the column), ``held_by`` (the label of the target whose late operations held it; None
where not held, and in a folder without the column), and ``role``: ``target`` for a compared target's point,
``reference`` for the reference server's share of the session (:mod:`ycsbctl.experiment.reference`: measured in every
alternated session as one more target, kept here and nowhere else — not in runs.parquet, the verdicts or the
report's curves). The reference's rows live in this table rather than a table of their own because a session's
blocks are counted from its schedule: a session of n targets and the reference has blocks of 2·(n + 1) slices
(:func:`ycsbctl.results.slice_pairs.targets_per_session` counts the points of a session, the reference's
included). A folder of an older version has none: :func:`empty`; its rows are all ``target``.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

KEY_COLUMNS = ("run_id", "target", "workload", "phase", "threads", "target_rate", "repetition", "session")
SLICE_COLUMNS = ("slice", "t_start_s", "t_end_s", "warmup", "operations", "errors", "mean_us", "p50_us", "p99_us",
                 "switch_s", "settle_s", "settle_operations", "settle_p99_us", "held", "held_by")
ROLE = "role"  # target | reference
TARGET, REFERENCE = "target", "reference"
COLUMNS = (*KEY_COLUMNS, *SLICE_COLUMNS, ROLE)
_TYPES = {"run_id": "string", "target": "string", "workload": "string", "phase": "string", "session": "string",
          "threads": "int64", "repetition": "int64", "slice": "int64", "operations": "int64", "errors": "int64",
          "settle_operations": "int64",
          "warmup": "bool", "held": "bool", "held_by": "string", ROLE: "string"}  # the rest float64


def empty() -> pd.DataFrame:
    """The slices table without a row (a folder without alternated sessions), its :data:`COLUMNS` typed."""
    return conform(pd.DataFrame(columns=list(COLUMNS)))


def conform(df: pd.DataFrame | None, strict: bool = False) -> pd.DataFrame:
    """``df`` with :data:`COLUMNS` in order, each of its type (missing ones empty; others kept after them);
    :func:`empty` for None. A value that is not of its column's type (text in a count, ``"x"`` as ``warmup``) is
    NaN (``False``), or with ``strict`` (a table read from a file: an edited or damaged one) a ValueError naming the
    column and the value."""
    if df is None:
        return empty()
    out = df.reset_index(drop=True).copy()
    for c in COLUMNS:
        if c not in out:
            out[c] = pd.Series([None] * len(out), dtype=object)
        kind = _TYPES.get(c, "float64")
        if kind == "string":
            out[c] = out[c].astype(object).where(out[c].notna(), None)
            continue
        if kind == "bool":
            values = out[c].map(lambda v: v if isinstance(v, bool) or v is None or v != v else
                                bool(v) if isinstance(v, int | float) and v in (0, 1) else math.nan)
        else:
            values = pd.to_numeric(out[c], errors="coerce")
        bad = values.isna() & out[c].notna()
        if strict and bad.any():
            raise ValueError(f"its column {c} holds {str(out[c][bad].iloc[0])[:40]!r}, not a "
                             f"{'flag' if kind == 'bool' else 'number'}")
        if kind == "bool":
            # (an object column: fillna(False) on the float column a text-only flag maps to warns in pandas 3)
            out[c] = values.astype(object).where(values.notna(), False).astype(bool)
        elif kind == "int64" and values.notna().all():
            out[c] = values.astype("int64")
        else:
            out[c] = values.astype("float64")
    out[ROLE] = out[ROLE].where(out[ROLE].notna(), TARGET)  # an older folder's slices are all targets'
    return out[[*COLUMNS, *(c for c in out.columns if c not in COLUMNS)]]


def keyed(slices: pd.DataFrame, key: dict[str, Any]) -> pd.DataFrame:
    """One point's slice rows (``PhaseResult.slices``) with its ``key`` (:data:`KEY_COLUMNS`: the unpaced
    ``target_rate`` is NaN), as they go into the table."""
    rate = key.get("target_rate")
    cols = {**{k: key.get(k) for k in KEY_COLUMNS}, "target_rate": float(rate) if rate else math.nan,
            ROLE: key.get(ROLE) or TARGET}
    return conform(slices.assign(**cols))


def targets_only(slices: pd.DataFrame) -> pd.DataFrame:
    """``slices`` without the reference's rows (the compared targets' slices)."""
    return slices[slices[ROLE] != REFERENCE] if ROLE in slices else slices


def reference_only(slices: pd.DataFrame) -> pd.DataFrame:
    """The reference server's rows of ``slices`` (none in a folder without a reference)."""
    return slices[slices[ROLE] == REFERENCE] if ROLE in slices else slices.iloc[:0]
