"""How far this host drifts between experiments: the calibration record ``compare`` tests against.

Between two experiments with no control target, the host's own drift is confounded with the change,
so ``compare`` calls a cell ``better``/``worse`` only beyond a margin (:func:`ycsbctl.results.stats.beyond_margin`):
the drift that A/A pairs of experiments on this host stayed within (the largest, or with
:data:`QUANTILE_FROM` cells or more their 95th percentile, so that one wild cell does not blind every later
comparison), per metric, read from a record
that ``python -m bench verdicts`` and ``ycsbctl compare A B --calibrate`` write —
``$YCSBCTL_CACHE_DIR/host_drift.json`` (default ``$XDG_CACHE_HOME/ycsbctl``, else ``~/.cache/ycsbctl``).
Without a record, :data:`DEFAULT_MARGIN`.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

# The default margin (a fraction: 0.10 = ±10 %): the largest throughput drift between A/A pairs of
# experiments minutes apart on a quiet 2-CPU host here (9.3 %, median 2.3 %: `python -m bench verdicts
# --conditions quiet`, README "How sure is this?"), rounded up.
DEFAULT_MARGIN = 0.10
QUANTILE_FROM = 20  # from this many recorded cells on, the margin is their 95th percentile, not their largest
KEEP = 200  # drifts kept per metric (the newest): the record follows the host as it changes
FILE = "host_drift.json"


def cache_dir() -> Path:
    """Where the record lives (``$YCSBCTL_CACHE_DIR``, else ``$XDG_CACHE_HOME/ycsbctl``, else ``~/.cache/ycsbctl``)."""
    if os.environ.get("YCSBCTL_CACHE_DIR"):
        return Path(os.environ["YCSBCTL_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ycsbctl"


@dataclass(frozen=True)
class Margins:
    """Per metric, the margin (fraction) a cell between folders must be beyond; where it came from."""

    by_metric: Mapping[str, float]
    source: str  # "host_drift.json (12 A/A cells, bench verdicts)" or "default"

    def of(self, metric: str) -> float:
        """The margin of ``metric``: its recorded drift (see :func:`margin_of`), else :data:`DEFAULT_MARGIN`."""
        return float(self.by_metric.get(metric, DEFAULT_MARGIN))


def drift(ratio: float) -> float:
    """A ratio's drift either way, as a fraction: 1.05 and 1/1.05 are both 0.05; NaN for no ratio."""
    return math.expm1(abs(math.log(ratio))) if ratio > 0 else math.nan


def margin_of(drifts: list[float]) -> float:
    """The margin of recorded drifts (fractions): the largest, or from :data:`QUANTILE_FROM` on their 95th
    percentile (numpy's ``higher`` method: a drift that was seen). ≤ 5 % of A/A cells drifted beyond it."""
    if len(drifts) < QUANTILE_FROM:
        return max(drifts)
    return float(np.quantile(drifts, 0.95, method="higher"))


def _load(path: Path) -> tuple[dict, dict[str, list[float]]] | None:
    """The record at ``path`` and its drifts per metric (fractions, NaN left out); None where there is none
    or it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data, {str(k): [float(x) for x in v["drifts"] if x == x] for k, v in data["metrics"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def read(path: Path | None = None) -> Margins:
    """The record's margins (per metric, :func:`margin_of` its recorded drifts); the default where there is none
    or it cannot be read (a broken record is not a reason to stop a comparison)."""
    path = path or cache_dir() / FILE
    loaded = _load(path)
    if loaded is None:
        return Margins({}, f"the default, no calibration record at {path}")
    data, metrics = loaded
    margins = {k: margin_of(v) for k, v in metrics.items() if v}
    n = max((len(v) for v in metrics.values()), default=0)
    return Margins(margins, f"{path} ({n} A/A cells, {data.get('source', '?')}, {data.get('updated_at', '?')})")


def record(ratios: Iterable[tuple[str, float]], source: str, path: Path | None = None) -> Path:
    """Add A/A ratios (metric, ratio of one cell between two experiments where nothing changed) to the
    record, keeping the newest :data:`KEEP` per metric; return its path."""
    path = path or cache_dir() / FILE
    metrics = (_load(path) or ({}, {}))[1]
    for metric, ratio in ratios:
        d = drift(ratio)
        if d == d:
            metrics.setdefault(metric, []).append(round(d, 6))
    out = {"version": 1, "source": source, "updated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
           "metrics": {k: {"drifts": v[-KEEP:], "max": max(v[-KEEP:])} for k, v in metrics.items() if v}}
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".host_drift.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1)
    os.replace(tmp, path)
    return path
