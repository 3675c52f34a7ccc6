"""Files of a result folder written whole or not at all, on disk before they are renamed into place
(:func:`write_atomic`, :func:`write_table`, :func:`write_arrow`), and the JSON and parquet forms of what
they hold (:func:`json_text`, :func:`arrow_safe`).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pandas as pd

from ycsbctl.urls import redact_text


def write_atomic(path: Path, data: str | bytes, redact: bool = True) -> None:
    """Write ``path`` whole or not at all, on disk (fsynced) before it is renamed into place; text
    is stripped of passwords first (URLs, properties), unless ``redact`` is False: data that holds
    no words (a base64 histogram: ``…PWdl…==`` read as a ``pwd…=`` property lost its padding)."""
    tmp = path.with_name(path.name + ".tmp")
    raw = (redact_text(data) if redact else data).encode("utf-8") if isinstance(data, str) else data
    try:
        with open(tmp, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)  # a full disk must not also keep half a file
        raise


def fsync_path(path: Path) -> None:
    """Flush a file, or a folder's entries (the renames in it), to disk."""
    fd = os.open(path, os.O_RDONLY)  # a folder opens read-only too (O_DIRECTORY would only refuse a file)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _json_default(o: Any) -> Any:
    if hasattr(o, "item"):  # numpy scalars
        return o.item()
    if isinstance(o, (set, tuple)):
        return list(o)
    if isinstance(o, Path):
        return str(o)
    return str(o)


def json_text(obj: Any) -> str:
    """``obj`` as the folder's JSON: indented, numpy scalars as numbers, NaN kept."""
    return json.dumps(obj, indent=1, default=_json_default, allow_nan=True)


def arrow_safe(df: pd.DataFrame) -> pd.DataFrame:
    """Columns parquet can store: mixed object columns become numbers when they all are, else text."""
    out = df.copy()
    for col in out.columns:
        s = out[col]
        if s.dtype != object:
            continue
        vals = s.dropna()
        if vals.map(lambda v: isinstance(v, bool)).all() and len(vals):
            out[col] = s.astype("boolean")
        elif vals.map(lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)).all():
            out[col] = pd.to_numeric(s, errors="coerce")
        else:
            out[col] = s.map(lambda v: None if v is None or (isinstance(v, float) and math.isnan(v)) else
                             (v if isinstance(v, str) else json.dumps(v, default=_json_default)))
    return out



def write_table(df: pd.DataFrame, path: Path, csv: bool = False) -> None:
    """A table as parquet (or CSV: ``pandas.read_csv`` reads the same columns), whole or not at all."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        if csv:
            df.to_csv(tmp, index=False)
        else:
            df.to_parquet(tmp, index=False)
        fsync_path(tmp)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise


def write_arrow(table: Any, path: Path) -> None:
    """A pyarrow table to ``path``, whole or not at all (as :func:`write_table`)."""
    import pyarrow.parquet as pq

    tmp = path.with_name(path.name + ".tmp")
    try:
        pq.write_table(table, tmp)
        fsync_path(tmp)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
        raise
