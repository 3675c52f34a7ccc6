"""Two experiments compared cell by cell (``ycsbctl compare`` of folders): the host's drift between them
taken out through a control target both hold, else through the yardsticks' host speed, else tested against
the host's drift margin. The verdicts inside one experiment are :mod:`ycsbctl.results.verdicts`'s.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd

from ycsbctl.results import host_drift, stats
from ycsbctl.results import reference_pairs as rp
from ycsbctl.results.cells import THROUGHPUT, Metric, by_round, cell_groups, cell_rate, metrics
from ycsbctl.results.reference_cells import ReferenceCell
from ycsbctl.results.verdict_words import HELD
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
                    host_se: float = math.nan, host_df: float = math.nan,
                    references: dict[tuple, ReferenceCell] | None = None,
                    untrusted: str | None = None) -> pd.DataFrame:
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
    Beside a control target it is only reported. The ``host_factor`` column holds it (NaN: none).

    ``references`` (:func:`ycsbctl.results.reference_cells.reference_cells`): the cells both folders measured with
    their reference server beside them; their throughput is read against it instead (:func:`_reference_row`) — or,
    where the cell's sessions hold the ``control`` too, against the control's blocks — and one it holds is
    ``undecided`` with why, its interval kept. A cell with one round a side and no reference is
    read against the host's drift record (:func:`_one_round`), so it too has an interval and a detectable size.
    ``untrusted``: why the yardstick's reading cannot be trusted (:func:`ycsbctl.results.yardstick.untrusted`): it is
    then not divided out; either way, where the host's speed moved beyond the margin, a cell that would rest on it is
    held ``undecided`` (:func:`_drift_row`)."""
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
            if m.name == THROUGHPUT and references and key in references:
                rows.append(_reference_row(cell, m, base, other, references[key], margins))
                continue
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
            rows.append(_drift_row(cell, m, base, other, margins, host_factor, host_se, host_df, untrusted))
    df = decided(rows, alpha)
    if len(df):
        df["experiment"] = [r["experiment"] for r in rows]
        _hold(df, rows)
    return df.assign(host_factor=float(host_factor) if host_factor else math.nan)


def _drift_row(cell: dict, m: Metric, base: dict[int, float], other: dict[int, float], margins: host_drift.Margins,
               host_factor: float | None, host_se: float, host_df: float, untrusted: str | None) -> dict:
    """A cell without a control or a reference: a minimum-effect test against the host's drift margin, the
    yardstick's host factor divided out first where it is trusted. Where the host's speed moved beyond the margin
    the cell is held (``_held``): a busy host is no uniformly slower one — a server and its client sharing cores
    slow unlike the yardstick (one core busy: speed 0.60×, Redis 0.35–0.43×: issue 71) — so no verdict rests on it."""
    from ycsbctl.results.yardstick import at_base_speed

    host = f"host speed {host_factor:.2f}× between the folders (yardstick)" if host_factor else ""
    divide = bool(host_factor) and untrusted is None
    seen = at_base_speed(other, host_factor, m.higher_is_better) if divide and host_factor else other
    c = _one_round(stats.compare(list(base.values()), list(seen.values())), margins.of(m.name))
    if divide:
        c = stats.with_added_error(c, host_se, host_df)
    margin = margins.of(m.name)
    caveat = (f"no control target in both experiments: tested against the host's drift between experiments, "
              f"±{100 * margin:.1f} % ({margins.source}); a difference within it cannot be told from the host")
    held = None
    if c.test == ONE_ROUND and m.name not in margins.by_metric:
        held = (f"one round a side and no record of this host's drift between experiments (`ycsbctl compare A B "
                f"--calibrate` on two runs of one plan): the interval is the default ±{100 * margin:.0f} % around the "
                "ratio, not a test")
    if host:
        moved = host_drift.drift(host_factor or math.nan)
        spread = (f" (±{100 * math.expm1(host_se):.1f} % from its readings' spread, which widens the interval)"
                  if host_se > 0 else " (too few readings to know its spread: taken as exact)")
        caveat = (f"{host}, divided out{spread}; " if divide else f"{host}, not divided out: {untrusted}; ") + caveat
        if moved > margin:
            caveat += f"; the host's own speed moved {100 * moved:.1f} %, beyond that margin"
        if moved > margin and held is None:
            held = (f"the host differed between the folders: its speed moved {100 * moved:.0f} % (yardstick), beyond "
                    f"the ±{100 * margin:.1f} % drift margin, and a busy host slows a server and its client unlike "
                    "the yardstick")
    return {**verdict_row(cell, m, "", base, other, stats.beyond_margin(c, margin), caveat),
            "drift_margin_pct": 100 * margin, "_held": held}


def _reference_row(cell: dict, m: Metric, base: dict[int, float], other: dict[int, float], rc: ReferenceCell,
                   margins: host_drift.Margins) -> dict:
    """A cell's throughput read against each folder's reference (:mod:`ycsbctl.results.reference_pairs`): better
    or worse only beyond the between-run bound of reference-paired A/A cells (the calibration record's
    :data:`~ycsbctl.results.reference_pairs.METRIC`, else its default); ``_held``: why no verdict rests on it."""
    bound = float(margins.by_metric.get(rp.METRIC, rp.DEFAULT_MARGIN))
    source = margins.source if rp.METRIC in margins.by_metric else "the default: no reference-paired A/A record"
    c = stats.beyond_margin(rc.comparison, bound)
    against = (f"read against control {rc.control}, block by block in the same sessions (its change is the host's, "
               f"divided out; the reference read {rc.reference_ratio:.2f}× between the folders)" if rc.control else
               f"read against each folder's reference server, block by block (the reference read "
               f"{rc.reference_ratio:.2f}× between the folders, divided out)")
    caveat = "; ".join(w for w in (against, rc.released,
                                    f"better/worse only beyond ±{100 * bound:.1f} % between runs ({source})") if w)
    return {**verdict_row(cell, m, "", base, other, c, caveat), "drift_margin_pct": 100 * bound, "_held": rc.held}


def _hold(df: pd.DataFrame, rows: list[dict]) -> None:
    """Rows whose host reading cannot be trusted (``_held``: why) are ``undecided`` whatever their interval; the
    interval and detectable size stay, the why goes to ``decided_by`` and the caveat."""
    for i, r in enumerate(rows):
        why = r.get("_held")
        if why:
            df.loc[i, "verdict"] = stats.UNDECIDED
            df.loc[i, "decided_by"] = f"{HELD}{why}"
            df.loc[i, "caveat"] = "; ".join(w for w in (r.get("caveat"), f"held undecided: {why}") if w)


ONE_ROUND = "one round a side, against the host's drift between experiments"


def _one_round(c: stats.Comparison, margin: float) -> stats.Comparison:
    """``c`` (Welch's t of rounds), or where a side has one round (no test): the ratio with the host's drift
    record's between-run bound around it — ``ratio ÷ (1 + margin)`` to ``ratio × (1 + margin)`` (A/A pairs of
    experiments stayed within ``margin`` in ≥ 95 % of cells) — so that an undecided cell still carries an interval
    and the size it could have detected: ``(1 + margin)² − 1`` (a true ratio that far from 1 is read beyond the
    margin whatever the drift within it)."""
    if not math.isnan(c.low) or not c.ratio > 0 or c.n != 1:
        return c
    return replace(c, low=c.ratio / (1 + margin), high=c.ratio * (1 + margin), test=ONE_ROUND,
                   detectable=(1 + margin) ** 2 - 1, decided_by=ONE_ROUND)


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


def few_rounds(runs: pd.DataFrame, label: str, auto: bool = False) -> str | None:
    """``across-3 has 1 round in some cells …`` where a folder's compared cells have fewer than :data:`FEW_ROUNDS`
    rounds; None otherwise or without compared cells. ``auto``: the folder's rounds were ``--repeat auto``'s, which
    stop once its own cells are decided (one round may settle a large gap inside the folder and leave nothing to
    compare it with another folder by) — said as the why only then (a ``--repeat 1`` folder ran one round as asked)."""
    rounds = [len(g) for _, g in cell_groups(runs)]
    if not rounds or min(rounds) >= FEW_ROUNDS:
        return None
    n = min(rounds)
    why = " (a --repeat auto run stops once its own cells are decided)" if auto else ""
    return (f"{label} has {n} round{'s' if n != 1 else ''} in some cells{why}: such a cell is read against each "
            "folder's reference server where both had one, "
            "else against the host's drift between experiments, and its interval says what that supports; "
            f"{FEW_ROUNDS} rounds a side or more (--repeat 5) narrow the intervals")
