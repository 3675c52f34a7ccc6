"""How far this host drifts between experiments: the calibration record ``compare`` tests against.

Between two experiments with no control target, the host's own drift is confounded with the change,
so ``compare`` calls a cell ``better``/``worse`` only beyond a margin (:func:`ycsbctl.results.stats.beyond_margin`):
the drift that A/A pairs of experiments on this host stayed within (the largest, or with
:data:`QUANTILE_FROM` cells or more their 95th percentile, so that one wild cell does not blind every later
comparison), per metric, read from a record
that ``python -m bench verdicts`` and ``ycsbctl compare A B --calibrate`` write —
``$YCSBCTL_CACHE_DIR/host_drift.json`` (default ``$XDG_CACHE_HOME/ycsbctl``, else ``~/.cache/ycsbctl``).
Without a record, :data:`DEFAULT_MARGIN`. A record that is damaged (not JSON, not the shape written here) or
implausible (a drift below 0, above :data:`MAX_DRIFT`, NaN or infinite: −0.9 would turn the margin off, 1e308 make
every difference uncallable) is not used: :attr:`Margins.warning` says so in one line, and the default applies.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from ycsbctl.errors import UserError
from ycsbctl.user_input import write_whole

# The default margin (a fraction: 0.10 = ±10 %): the largest throughput drift between A/A pairs of
# experiments minutes apart on a quiet 2-CPU host here (9.3 %, median 2.3 %: `python -m bench verdicts
# --conditions quiet`, docs/studies/comparison.md), rounded up.
DEFAULT_MARGIN = 0.10
QUANTILE_FROM = 20  # from this many recorded cells on, the margin is their 95th percentile, not their largest
KEEP = 200  # drifts kept per metric (the newest): the record follows the host as it changes
FILE = "host_drift.json"
# The largest drift (a fraction) a record may hold: 1.0, a cell twice as fast (or half) in one run of a plan as in
# the other. Beyond it the two runs measured different things (a failure, another build), not the host's drift.
MAX_DRIFT = 1.0


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
    warning: str | None = None  # a record exists but was not used: "the calibration record at … is damaged (…); …"

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


class Unusable(ValueError):
    """A record that exists but cannot be used: ``kind`` is ``damaged`` or ``implausible``, the message why."""

    def __init__(self, kind: str, why: str) -> None:
        super().__init__(why)
        self.kind = kind


def plausible(metric: str, d: object) -> float:
    """``d`` as a drift (a fraction from 0 to :data:`MAX_DRIFT`); :class:`Unusable` naming ``metric`` otherwise
    (NaN and infinities fail too)."""
    if isinstance(d, bool) or not isinstance(d, int | float):
        raise Unusable("damaged", f"a {metric} drift of {str(d)[:20]!r} is not a number")
    if not 0 <= d <= MAX_DRIFT:
        raise Unusable("implausible", f"a {metric} drift of {d!r}: drifts lie between 0 and {MAX_DRIFT:g}")
    return float(d)


def _load(path: Path) -> tuple[dict, dict[str, list[float]]] | None:
    """The record at ``path`` and its drifts per metric (fractions); None where there is none; :class:`Unusable`
    where one exists that cannot be read, is not this module's JSON, or holds a drift no host drifts."""
    try:
        text = path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):  # nothing there (a file where a folder of the path would be)
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise Unusable("damaged", f"cannot be read: {getattr(exc, 'strerror', None) or type(exc).__name__}") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise Unusable("damaged", "not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("metrics"), dict):
        raise Unusable("damaged", "no 'metrics' object")
    metrics = {}
    for k, v in data["metrics"].items():
        if not isinstance(v, dict) or not isinstance(v.get("drifts"), list):
            raise Unusable("damaged", f"{k} has no list of drifts")
        metrics[str(k)] = [plausible(str(k), x) for x in v["drifts"]]
    return data, metrics


def read(path: Path | None = None) -> Margins:
    """The record's margins (per metric, :func:`margin_of` its recorded drifts); the default where there is none,
    and where it is damaged or implausible (not a reason to stop a comparison: :attr:`Margins.warning` says it)."""
    path = path or cache_dir() / FILE
    try:
        loaded = _load(path)
    except Unusable as exc:
        warning = (f"the calibration record at {path} is {exc.kind} ({exc}); using the default "
                   f"±{100 * DEFAULT_MARGIN:.0f} %")
        return Margins({}, f"the default: the calibration record at {path} is {exc.kind}, not used", warning)
    if loaded is None:
        return Margins({}, f"the default, no calibration record at {path}")
    data, metrics = loaded
    margins = {k: margin_of(v) for k, v in metrics.items() if v}
    n = max((len(v) for v in metrics.values()), default=0)
    return Margins(margins, f"{path} ({n} A/A cells, {data.get('source', '?')}, {data.get('updated_at', '?')})")


def record(ratios: Iterable[tuple[str, float]], source: str, path: Path | None = None) -> Path:
    """Add A/A ratios (metric, ratio of one cell between two experiments where nothing changed) to the
    record, keeping the newest :data:`KEEP` per metric; return its path. A ratio beyond ``1 + MAX_DRIFT`` either
    way is no A/A pair: :class:`UserError`, nothing recorded. A damaged or implausible record is set aside as
    ``host_drift.json.damaged`` and a new one begun."""
    path = path or cache_dir() / FILE
    new = [(metric, ratio, drift(ratio)) for metric, ratio in ratios]
    wild = next(((m, r) for m, r, d in new if d > MAX_DRIFT), None)
    if wild is not None:
        raise UserError(f"an A/A cell's {wild[0]} changed {wild[1]:.3g}× between the experiments, beyond any host's "
                        f"drift between runs of one plan (±{100 * MAX_DRIFT:.0f} %); nothing was recorded",
                        fix="calibrate with two runs of one plan on a quiet host")
    try:
        metrics = (_load(path) or ({}, {}))[1]
    except Unusable:
        try:
            os.replace(path, path.with_name(path.name + ".damaged"))
        except OSError as exc:
            raise UserError(f"cannot set the unusable calibration record {path} aside: {exc.strerror}",
                            exit_code=1) from None
        metrics = {}
    for metric, _, d in new:
        if d == d:
            metrics.setdefault(metric, []).append(round(d, 6))
    out = {"version": 1, "source": source, "updated_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
           "metrics": {k: {"drifts": v[-KEEP:], "max": max(v[-KEEP:])} for k, v in metrics.items() if v}}
    return write_whole(path, json.dumps(out, indent=1), "the calibration record")
