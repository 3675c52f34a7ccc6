"""Two experiments compared cell by cell (``ycsbctl compare`` of folders): the host's drift between them
taken out through a control target both hold, else through the yardsticks' host speed, else tested against
the host's drift margin. The verdicts inside one experiment are :mod:`ycsbctl.results.verdicts`'s.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd

from ycsbctl.results import host_drift, stats
from ycsbctl.results.cells import by_round, cell_groups, cell_rate, metrics
from ycsbctl.results.verdicts import decided, verdict_row


def same_server(a: dict | None, b: dict | None) -> bool:
    """Two endpoints of the manifest run the same build with the same settings."""
    if not a or not b:
        return False
    keys = ("server_name", "server_version", "kind", "settings")
    return all(a.get(k) == b.get(k) for k in keys)


def folder_verdicts(base_runs: pd.DataFrame, other_runs: pd.DataFrame, control: str | None, experiment: str,
                    latency: str = "p99", paired: bool = True, alpha: float = stats.ALPHA,
                    margins: host_drift.Margins | None = None, host_factor: float | None = None,
                    host_se: float = math.nan, host_df: float = math.nan) -> pd.DataFrame:
    """``other_runs`` (experiment ``experiment``) against ``base_runs``, cell by cell (Welch's t test on the
    log values). With a ``control`` target in both (the same build and settings), each other target's
    change is measured against the control's change in the same cell — the host's drift between the two
    experiments cancels — and the control's own rows say how far the host drifted (verdict ``host drift``,
    outside the family of tests). Without one, the host's drift is confounded with the change, so each
    cell is a minimum-effect test against it (:func:`ycsbctl.results.stats.beyond_margin`): ``better`` or
    ``worse`` only when its interval lies wholly beyond the metric's margin (``margins``: the host's
    calibration record, :func:`ycsbctl.results.host_drift.read`; None: the default margin), which
    ``drift_margin_pct`` holds.

    ``host_factor`` (the other folder's host speed over the base folder's, from their yardsticks:
    :func:`ycsbctl.results.yardstick.host_factor`) is the automatic control where no target is: each other
    value is first brought to the base folder's host speed (throughput ÷ factor, latency × factor), then
    tested as above; a cell's caveat says so, and says where the host's own speed moved beyond the margin.
    The factor's own uncertainty (``host_se``: the standard error of its log from the readings' spread,
    ``host_df`` its degrees of freedom; NaN: unknown) widens each such cell's interval
    (:func:`ycsbctl.results.stats.with_added_error`): a correction is not taken as exact. Where the host moved
    beyond the margin, a latency cell has no test (a tail does not scale with the host's speed).
    Beside a control target it is only reported. The ``host_factor`` column holds it (NaN: none)."""
    from ycsbctl.results.yardstick import at_base_speed

    margins = margins or host_drift.Margins({}, "default")
    host = f"host speed {host_factor:.2f}× between the folders (yardstick)" if host_factor else ""
    a = {k: g for k, g in cell_groups(base_runs)}
    b = {k: g for k, g in cell_groups(other_runs)}
    rows = []
    for key in a:
        if key not in b:
            continue
        workload, target, threads, rate = key
        ckey = (workload, control, threads, rate)
        use_control = control is not None and target != control and ckey in a and ckey in b
        for m in metrics(latency):
            base, other = by_round(a[key], m.column), by_round(b[key], m.column)
            cell = {"workload": workload, "target": target, "threads": int(threads), "target_rate": cell_rate(rate),
                    "experiment": experiment}
            if use_control:
                rb = _relative(base, by_round(a[ckey], m.column), paired)
                ro = _relative(other, by_round(b[ckey], m.column), paired)
                c = stats.compare(list(rb.values()), list(ro.values()))
                caveat = f"against control {control} (the host's drift between the experiments taken out)"
                rows.append(verdict_row(cell, m, "", base, other, c, caveat + (f"; {host} beside it" if host else "")))
                continue
            if control is not None and target == control:
                c = stats.compare(list(base.values()), list(other.values()))
                said = ("control: the same build and settings in both; its change is the host's drift between the "
                        "experiments" + (f"; {host}" if host else ""))
                rows.append({**verdict_row(cell, m, "", base, other, c, said), "verdict": "host drift", "_fixed": True})
                continue
            # the yardstick as the control: the other folder's values at the base folder's host speed
            seen = at_base_speed(other, host_factor, m.higher_is_better) if host_factor else other
            c = stats.compare(list(base.values()), list(seen.values()))
            if host_factor:
                c = stats.with_added_error(c, host_se, host_df)
            margin = margins.of(m.name)
            caveat = (f"no control target in both experiments: tested against the host's drift between experiments, "
                      f"±{100 * margin:.1f} % ({margins.source}); a difference within it cannot be told from the host")
            if host:
                moved = host_drift.drift(host_factor or math.nan)
                spread = (f" (±{100 * math.expm1(host_se):.1f} % from its readings' spread, which widens the interval)"
                          if host_se > 0 else " (too few readings to know its spread: taken as exact)")
                caveat = f"{host}, divided out{spread}; " + caveat + (
                    f"; the host's own speed moved {100 * moved:.1f} %, beyond that margin: this verdict rests on the "
                    "yardstick's correction" if moved > margin else "")
                if moved > margin and not m.higher_is_better:
                    # a tail grows with contention far faster than the host's speed falls (one core busy: speed
                    # 1.7× lower, READ p99 9× higher: `python -m bench verdicts --conditions across`): no test
                    c = replace(c, p_value=math.nan, low=math.nan, high=math.nan)
                    caveat += ("; a latency tail does not scale with the host's speed, so across a host that moved "
                               "this much it is left undecided: keep an unchanged target in both to compare it")
            rows.append({**verdict_row(cell, m, "", base, other, stats.beyond_margin(c, margin), caveat),
                         "drift_margin_pct": 100 * margin})
    df = decided(rows, alpha)
    if len(df):
        df["experiment"] = [r["experiment"] for r in rows]
    return df.assign(host_factor=float(host_factor) if host_factor else math.nan)


def _relative(values: dict[int, float], control: dict[int, float], paired: bool) -> dict[int, float]:
    """A target's values over the control's: round by round when the rounds interleaved them, else each
    value over the control's geometric mean."""
    if paired:
        return {r: v / control[r] for r, v in values.items() if r in control and control[r] > 0 and v > 0}
    centre = stats.interval(list(control.values())).centre  # > 0, or NaN when no control value is
    if math.isnan(centre):
        return {}
    return {r: v / centre for r, v in values.items() if v > 0}


FEW_ROUNDS = 3  # rounds a side from which a cell between two folders can be decided (Welch's df: 2 rounds give ~1)


def few_rounds(runs: pd.DataFrame, label: str) -> str | None:
    """``across-3 has 1 round in some cells …`` where a folder's compared cells have fewer than :data:`FEW_ROUNDS`
    rounds (a ``--repeat auto`` run stops once its own cells are decided: one round may settle a large gap inside the
    folder and leave nothing to compare it with another folder by); None otherwise or without compared cells."""
    rounds = [len(g) for _, g in cell_groups(runs)]
    if not rounds or min(rounds) >= FEW_ROUNDS:
        return None
    n = min(rounds)
    return (f"{label} has {n} round{'s' if n != 1 else ''} in some cells (a --repeat auto run stops once its own "
            f"cells are decided): between folders a cell needs {FEW_ROUNDS} rounds a side or more to be decided, "
            f"so run both with --repeat 5 or more to compare them")
