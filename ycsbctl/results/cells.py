"""Cells of the runs table: target × workload × threads × offered rate, its repetitions the rounds
(``repetition`` is the round). :func:`cell_table` gives each cell its centre, 95 % interval, coefficient
of variation, ``unstable`` label and drift over the rounds; :func:`percentile_cells` the same of every
latency percentile of every operation. The verdicts between cells are :mod:`ycsbctl.results.verdicts`'s.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import pandas as pd

from ycsbctl.results import over_rounds, stats
from ycsbctl.results.names import ALL_OPS, OPERATIONS
from ycsbctl.results.run_columns import op_key

CELL = ["workload", "target", "threads", "target_rate"]
THROUGHPUT = "throughput"
CELL_COLUMNS = [*CELL, "n", "within_run", "throughput", "throughput_low", "throughput_high", "throughput_cv",
                "unstable", "latency", "latency_low", "latency_high", "latency_cv", "drift",
                "repetitions_for_5pct"]


@dataclass(frozen=True)
class Metric:
    """A compared quantity: its runs column, its name for people, and which way is better."""

    name: str
    column: str
    higher_is_better: bool


def metrics(latency: str = "p99") -> list[Metric]:
    """Throughput and one latency statistic of every base operation merged (``all_p99_us``)."""
    stat = {"avg": "mean", "p99.9": "p999"}.get(latency, latency)
    return [Metric(THROUGHPUT, "throughput_ops", True), Metric(latency, f"{op_key(ALL_OPS)}_{stat}_us", False)]


def compared_mask(runs: pd.DataFrame) -> pd.Series:
    """The points a verdict compares: ``ok`` ones, and those ``degraded`` only because the host was busy
    (the ``compared`` column: the rounds' pairing is their control, their spread widens the interval); a
    folder written before that column compares its ``ok`` points."""
    ok = runs["status"] == "ok"
    if "compared" not in runs:
        return ok
    # a run file edited or damaged is failed whatever it said (tables.flag_impossible): only a degraded point is
    # compared on its flag
    return ok | (runs["status"].eq("degraded") & runs["compared"].map(lambda v: v is True or v == 1 or v == "True"))


def _ok(runs: pd.DataFrame) -> pd.DataFrame:
    if not len(runs):
        return runs
    ok = runs[compared_mask(runs)]
    # 0.0 for an unpaced cell inside this module (NaN is not equal to itself, so it cannot key a cell)
    rate = pd.to_numeric(ok["target_rate"], errors="coerce").fillna(0.0) if "target_rate" in ok else 0.0
    return ok.assign(target_rate=rate)


def sweep_rows(runs: pd.DataFrame) -> pd.DataFrame:
    """Each workload's sweep rows: the run phase, or the load phase of an insert-only workload."""
    if not len(runs):
        return runs
    run_wl = set(runs.loc[runs["phase"] == "run", "workload"])
    keep = runs["phase"].eq("run") | (runs["phase"].eq("load") & ~runs["workload"].isin(run_wl))
    return runs[keep]


def by_round(g: pd.DataFrame, column: str) -> dict[int, float]:
    """round (repetition) -> value of one cell's ok runs."""
    if column not in g:
        return {}
    vals = pd.to_numeric(g[column], errors="coerce")
    return {int(r): float(v) for r, v in zip(g["repetition"], vals) if v == v}


def cell_groups(runs: pd.DataFrame, busy_too: bool = True) -> Iterable[tuple[tuple, pd.DataFrame]]:
    """The cells of ``runs`` (workload, target, threads, rate) and their compared rows; ``busy_too=False``
    leaves out the points degraded by a busy host (an unpaired comparison has no pairing to control them)."""
    if not {"workload", "target", "threads", "phase", "status", "repetition"} <= set(runs.columns):
        return []  # not a runs table of a sweep (a frame made by hand, a folder without its runs): no cell
    rows = _ok(sweep_rows(runs))
    if not busy_too and len(rows):
        rows = rows[rows["status"] == "ok"]
    if not len(rows):
        return []
    return rows.groupby(CELL, sort=False, dropna=False)


def cell_rate(rate: float) -> float:
    """A cell's offered rate as the tables say it: NaN when unpaced."""
    return float(rate) if rate else math.nan


def cell_table(runs: pd.DataFrame, latency: str = "p99", series: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per cell (:data:`CELL_COLUMNS`): centre and interval of throughput (ops/s) and of the
    latency statistic (µs), CV, ``unstable``, drift and the repetitions needed to see a 5 % difference.
    With one repetition and ``series`` (per-second rows) the throughput interval is from batch means of
    that run (``within_run``)."""
    tp_m, lat_m = metrics(latency)
    rows = []
    for key, g in cell_groups(runs):
        tp, lat = by_round(g, tp_m.column), by_round(g, lat_m.column)
        ti, li = stats.interval(list(tp.values())), stats.interval(list(lat.values()))
        if ti.n == 1 and series is not None and len(series):
            ti = stats.batch_interval(_per_second(series, g["run_id"].iloc[0], _runtime_s(g)))
        texts = [t for t in (over_rounds.drift_text(THROUGHPUT, over_rounds.drift(tp)),
                             over_rounds.drift_text(f"{lat_m.name} latency", over_rounds.drift(lat))) if t]
        sd = float(pd.Series([math.log(v) for v in tp.values() if v > 0]).std())  # NaN from fewer than two
        rows.append({**dict(zip(CELL, key)), "target_rate": cell_rate(key[3]), "n": len(tp),
                     "within_run": ti.within_run,
                     "throughput": ti.centre, "throughput_low": ti.low, "throughput_high": ti.high,
                     "throughput_cv": ti.cv, "unstable": ti.unstable or li.unstable,
                     "latency": li.centre, "latency_low": li.low, "latency_high": li.high, "latency_cv": li.cv,
                     "drift": "; ".join(texts) or None,
                     "repetitions_for_5pct": over_rounds.repetitions_needed(sd, 0.05, paired=False)})
    return pd.DataFrame(rows, columns=CELL_COLUMNS)


# Every latency percentile the report shows (the points tables' p50/p95/p99, the figures' p99.9), of every
# operation measured and of all of them merged: each gets a centre and interval per cell and a verdict.
# a measured window this much short of a whole number of seconds still counts its last second as whole
WHOLE_SECOND_SLACK_S = 0.05

PERCENTILES = {"p50": "p50", "p95": "p95", "p99": "p99", "p99.9": "p999"}
PERCENTILE_CELL_COLUMNS = [*CELL, "op", "percentile", "n", "centre", "low", "high", "cv", "unstable", "drift"]


def percentile_metrics(runs: pd.DataFrame) -> list[tuple[str, Metric]]:
    """(operation, metric) for every latency percentile of :data:`PERCENTILES` of every operation in
    ``runs`` (``ALL``: every base operation merged), µs, lower is better."""
    out = []
    for op in (ALL_OPS, *OPERATIONS):
        for name, stat in PERCENTILES.items():
            col = f"{op_key(op)}_{stat}_us"
            if col in runs and pd.to_numeric(runs[col], errors="coerce").notna().any():
                out.append((op, Metric(name, col, False)))
    return out


def percentile_cells(runs: pd.DataFrame) -> pd.DataFrame:
    """One row per cell × operation × percentile (:data:`PERCENTILE_CELL_COLUMNS`): the centre (geometric
    mean, µs) and 95 % interval of that percentile over the repetitions, its CV, ``unstable`` and drift —
    :func:`ycsbctl.results.stats.interval`, as :func:`cell_table` does for throughput."""
    which = percentile_metrics(runs) if len(runs) else []
    rows = []
    for key, g in cell_groups(runs):
        for op, m in which:
            v = by_round(g, m.column)
            if not v:
                continue
            i = stats.interval(list(v.values()))
            rows.append({**dict(zip(CELL, key)), "target_rate": cell_rate(key[3]), "op": op, "percentile": m.name,
                         "n": i.n, "centre": i.centre, "low": i.low, "high": i.high, "cv": i.cv, "unstable": i.unstable,
                         "drift": over_rounds.drift_text(f"{m.name} latency", over_rounds.drift(v))})
    return pd.DataFrame(rows, columns=PERCENTILE_CELL_COLUMNS)


def _runtime_s(g: pd.DataFrame) -> float:
    """The measured window of a cell's one run, seconds (NaN where the table does not say)."""
    if "runtime_ms" not in g:
        return math.nan
    return float(pd.to_numeric(g["runtime_ms"], errors="coerce").iloc[0]) / 1000.0


def _per_second(series: pd.DataFrame, run_id: str, runtime_s: float = math.nan) -> list[float]:
    """Operations per second of one run's whole seconds (warm-up left out). With the measured window's length
    ``runtime_s`` the seconds past its whole ones are left out (a 1.0003 s point's second second holds the
    few operations of its last 0.3 ms: a batch of them made a 141 % CV); without it, the last second once
    there are more than two."""
    if "run_id" not in series or "operations" not in series:
        return []
    s = series[(series["run_id"] == run_id) & (series["op"] == "OVERALL")].sort_values("second")
    if "warmup" in s:
        s = s[~s["warmup"].fillna(False).astype(bool)]
    values = [float(v) for v in pd.to_numeric(s["operations"], errors="coerce") if v == v]
    if runtime_s == runtime_s and runtime_s > 0:
        return values[:max(1, int(runtime_s + WHOLE_SECOND_SLACK_S))]
    return values[:-1] if len(values) > 2 else values
