"""A point's evidence from its telemetry frame: where each side's CPU time went per thread role
(:mod:`ycsbctl.telemetry.threads`), what one operation cost the server and the wire
(:mod:`ycsbctl.telemetry.wire`), and what else ran on the host (:mod:`ycsbctl.telemetry.host`).

Figures are means over the samples that overlap the engine's measured window, CPU in % of one core.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ycsbctl.telemetry.host import HOST_INTERVAL_S
from ycsbctl.telemetry.threads import ROLE_COLUMNS, STATES
from ycsbctl.telemetry.wire import WIRE_INTERVAL_S

SIDE_COLUMNS = ("oncpu_pct", "user_pct", "system_pct", "runq_pct", "vcsw_per_s", "ivcsw_per_s")
HOST_COLUMNS = ("host_user_pct", "host_system_pct", "host_iowait_pct", "host_steal_pct", "host_idle_pct",
                "ours_pct", "kernel_pct", "foreign_pct")


def rows_in(frame: pd.DataFrame, source: str, interval_s: float, window: tuple[float, float] | None,
            strict: bool = False) -> pd.DataFrame:
    """Rows of ``source`` whose interval (the ``interval_s`` before each row) lies mostly inside
    ``window``; all of its rows when there is no window or none lies inside (a point shorter than
    an interval), unless ``strict`` (then none)."""
    if "source" not in frame or not len(frame):
        return frame.head(0)
    rows = frame[frame["source"] == source]
    if window is None or not len(rows):
        return rows
    t = rows["t_mono"].to_numpy(dtype=float)  # numpy, not pandas: a point reads four sources (bench point_overhead)
    overlap = np.maximum(np.minimum(t, window[1]) - np.maximum(t - interval_s, window[0]), 0.0)
    inside = rows[overlap >= (0.9 * interval_s if strict else 0.5 * min(interval_s, window[1] - window[0]))]
    return inside if len(inside) or strict else rows


def _num(v: Any) -> float | None:
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(f) else f


def thread_roles(frame: pd.DataFrame, source: str, window: tuple[float, float] | None,
                 interval_s: float = 1.0) -> dict[str, dict[str, float]]:
    """Per thread role: the mean of each figure over the window's samples (a role absent from a
    sample counted as 0 there), busiest first."""
    rows = rows_in(frame, source, interval_s, window)
    if not len(rows) or "thread" not in rows:
        return {}
    samples = rows["t_mono"].nunique()
    waits = {st: f"wait_{st}" for st in STATES if f"wait_{st}" in rows}
    # each column made numeric once for all roles, each role's figures summed over its rows' positions (in
    # the frame's order, as a groupby would): per role and column, pandas cost ~30 ms a side for a point
    num = {c: pd.to_numeric(rows[c], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
           for c in (*ROLE_COLUMNS, *waits.values())}
    filled = {c: np.nan_to_num(v, nan=0.0) for c, v in num.items()}
    codes, roles = pd.factorize(rows["thread"], sort=False)  # first-seen order; a row without a role in none
    wchan = rows.get("wchan")
    out: dict[str, dict[str, Any]] = {}
    for k, role in enumerate(roles):
        at = np.flatnonzero(codes == k)
        fig: dict[str, Any] = {c: round(float(filled[c][at].sum()) / samples, 2)
                               for c in ROLE_COLUMNS if c not in ("busiest_pct", "threads")}
        fig["busiest_pct"] = round(float(filled["busiest_pct"][at].max()), 2)
        threads = num["threads"][at]
        fig["threads"] = float(np.nanmax(threads)) if not np.isnan(threads).all() else math.nan
        # what its threads were doing at the readings: thread-samples in each state, and where they slept
        fig["states"] = {st: int(filled[c][at].sum()) for st, c in waits.items()}
        fig["wchan"] = _merge_counts(wchan.iloc[at] if wchan is not None else pd.Series(dtype=object))
        out[str(role)] = fig
    return dict(sorted(out.items(), key=lambda kv: -kv[1]["oncpu_pct"]))


def _merge_counts(cells: pd.Series) -> dict[str, int]:
    """``name=count;…`` cells (:func:`~ycsbctl.telemetry.threads.wchan_text`'s) summed per name, largest first."""
    from ycsbctl.telemetry.threads import wchan_counts

    counts: dict[str, int] = {}
    for cell in cells.dropna():
        wchan_counts(str(cell), counts)
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def working(roles: dict[str, dict[str, Any]], most: int = 6) -> dict[str, dict[str, Any]]:
    """The roles worth reading (the busiest, and those that ran ≥ 0.5 % of a core), at most ``most``."""
    keep = {role: fig for i, (role, fig) in enumerate(roles.items()) if i == 0 or (fig.get("oncpu_pct") or 0.0) >= 0.5}
    return dict(list(keep.items())[:most])


def over_duty(figures: dict[str, Any], duty: float) -> dict[str, Any]:
    """``figures`` with their rates (``…_pct`` of a core or of the window, ``…_per_s``) divided by ``duty``: over the
    share of the window that was the target's own (its slices of an alternated session), outside which its server
    had no work; counts, shares and states as they were. A duty outside (0, 1), a whole window: ``figures`` as given."""
    if not 0 < duty < 1:
        return figures
    return {k: v / duty if isinstance(v, (int, float)) and not isinstance(v, bool) and k.endswith(("_pct", "_per_s"))
            else v for k, v in figures.items()}


def side_totals(roles: dict[str, dict[str, float]]) -> dict[str, float | None]:
    """A side's totals over its roles (``kernel_share``: system over user + system CPU)."""
    if not roles:
        return {}
    tot = {c: sum(r[c] for r in roles.values()) for c in SIDE_COLUMNS}
    cpu = tot["user_pct"] + tot["system_pct"]
    return {**{c: round(v, 2) for c, v in tot.items()},
            "kernel_share": round(tot["system_pct"] / cpu, 4) if cpu > 0 else None}


def host_figures(frame: pd.DataFrame, window: tuple[float, float] | None) -> dict[str, Any]:
    """The host's means over the window (:data:`HOST_COLUMNS`) and ``foreign_top``: the foreign
    programs by their mean CPU (% of one core), largest first."""
    rows = rows_in(frame, "host", HOST_INTERVAL_S, window)
    if not len(rows):
        return {}
    out: dict[str, Any] = {c: round(float(pd.to_numeric(rows[c], errors="coerce").mean()), 2)
                           for c in HOST_COLUMNS if c in rows}
    names: dict[str, float] = {}
    for cell in rows.get("foreign_top", pd.Series(dtype=object)).dropna():
        for part in str(cell).split(";"):
            name, _, pct = part.rpartition("=")
            if name and _num(pct) is not None:
                names[name] = names.get(name, 0.0) + float(pct)
    out["foreign_top"] = {n: round(v / len(rows), 1) for n, v in sorted(names.items(), key=lambda kv: -kv[1])}
    out["samples"] = len(rows)
    return out


def wire_figures(frame: pd.DataFrame, window: tuple[float, float] | None) -> dict[str, float | None]:
    """Mean bytes and packets per second on our connections over the readings whose whole interval lies in
    the window ({}: none does, a point shorter than two readings: its rates would mix in the start-up)."""
    rows = rows_in(frame, "wire", WIRE_INTERVAL_S, window, strict=True)
    if not len(rows) or "wire_bytes_per_s" not in rows:
        return {}
    conns = pd.to_numeric(rows["wire_connections"], errors="coerce")
    rows = rows[conns > 0]
    if not len(rows):
        return {}
    rtt = pd.to_numeric(rows.get("wire_minrtt_ms", pd.Series(dtype=float)), errors="coerce").dropna()
    return {"bytes_per_s": float(pd.to_numeric(rows["wire_bytes_per_s"], errors="coerce").mean()),
            "packets_per_s": float(pd.to_numeric(rows["wire_packets_per_s"], errors="coerce").mean()),
            "minrtt_ms": float(rtt.mean()) if len(rtt) else None}


def per_operation(server_cpu_pct: float | None, wire: dict[str, float | None],
                  throughput_ops: float | None) -> dict[str, float | None]:
    """What one operation cost: server CPU µs, bytes and packets on our connections."""
    if not throughput_ops or throughput_ops <= 0:
        return {}
    def per(v: float | None, scale: float = 1.0) -> float | None:
        return None if v is None else round(scale * v / throughput_ops, 3)
    return {"server_cpu_us_per_op": per(server_cpu_pct, 1e6 / 100.0), "wire_bytes_per_op": per(wire.get("bytes_per_s")),
            "wire_packets_per_op": per(wire.get("packets_per_s"))}
