"""Which targets' servers a CPU quota held back in an experiment, from the points' own ``cpu.stat`` figures
(``server_throttled_pct``: the share of quota periods in which the server's cgroup was throttled).

A server held by its quota in one experiment and not in the other ran under a different condition, whatever
its build and settings say (a quota set from outside ycsbctl — a systemd slice, ``docker update --cpus``, a
cgroup written by hand — is in no manifest): between two folders it is a *changed* server, never the control
that stands for the host's drift.
"""

from __future__ import annotations

import math

import pandas as pd

from ycsbctl.results.cells import compared_mask, sweep_rows

HELD_PCT = 10.0  # % of quota periods throttled (median over a target's compared points) from which it was held


def throttled_pct(runs: pd.DataFrame) -> dict[str, float]:
    """target -> the median ``server_throttled_pct`` (% of periods) of its compared sweep points; 0.0 for a
    target with no quota (the column empty) or a folder written before the column."""
    if not len(runs) or not {"target", "status", "phase", "workload"} <= set(runs.columns):
        return {}
    rows = sweep_rows(runs)
    rows = rows[compared_mask(rows)]
    if "server_throttled_pct" not in rows:
        return dict.fromkeys(rows["target"].unique().tolist(), 0.0)
    pct = pd.to_numeric(rows["server_throttled_pct"], errors="coerce").fillna(0.0)
    return {str(t): float(v) for t, v in pct.groupby(rows["target"], sort=False).median().items()}


def held_differently(base: pd.DataFrame, other: pd.DataFrame) -> dict[str, tuple[float, float]]:
    """target -> (base %, other %) of the common targets held by their quota (at least :data:`HELD_PCT` of
    periods throttled) in one of the two experiments only."""
    a, b = throttled_pct(base), throttled_pct(other)
    return {t: (a[t], b[t]) for t in a if t in b and (a[t] >= HELD_PCT) != (b[t] >= HELD_PCT)}


def held_phrase(pcts: tuple[float, float]) -> str:
    """``held by its CPU quota in 0 % vs 100 % of periods (cpu.stat)``: a server's (base %, other %)."""
    a, b = (0.0 if math.isnan(p) else p for p in pcts)
    return f"held by its CPU quota in {a:.0f} % vs {b:.0f} % of periods (cpu.stat)"


def held_text(target: str, pcts: tuple[float, float]) -> str:
    """``server twin: held by its CPU quota in 0 % vs 100 % of periods (cpu.stat)``."""
    return f"server {target}: {held_phrase(pcts)}"
