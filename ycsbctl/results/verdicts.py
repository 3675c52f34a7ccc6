"""Cells and their verdicts, from the runs table: the one place the report, the console, ``compare``
and the JSON read "how sure is this" from (statistics: :mod:`ycsbctl.results.stats`).

A *cell* is target × workload × threads × offered rate; its repetitions are rounds (``repetition``
is the round). :func:`cell_table` gives each cell its centre, 95 % interval, coefficient of variation,
``unstable`` label and drift over the rounds. :func:`target_verdicts` compares every target with a
baseline target inside one experiment (paired by round when the rounds interleaved the targets);
:func:`folder_verdicts` compares two experiments, separating the host's drift between them through a
control target both hold when there is one. Each comparison adjusts its cells' p values together.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import pandas as pd

from ycsbctl.results import host_drift, noise, stats
from ycsbctl.results.names import ALL_OPS, OPERATIONS
from ycsbctl.results.run_columns import op_key

# the words of a verdict (ycsbctl.results.verdict_words), importable from here as before
from ycsbctl.results.verdict_words import BOUND_HIGH as BOUND_HIGH
from ycsbctl.results.verdict_words import BOUND_LOW as BOUND_LOW
from ycsbctl.results.verdict_words import interval_text as interval_text
from ycsbctl.results.verdict_words import verdict_text as verdict_text

CELL = ["workload", "target", "threads", "target_rate"]
# Run orders whose rounds pair: repetition r of every target measured in round r (interleaved, or target
# blocks alternating A B B A), so a verdict tests the per-round log ratios.
PAIRED_ORDERS = ("interleaved", "blocks")
THROUGHPUT = "throughput"
VERDICT_COLUMNS = ["workload", "target", "threads", "target_rate", "metric", "baseline", "base_value", "value",
                   "ratio", "ci_low", "ci_high", "ci_level", "p_value", "p_adjusted", "verdict", "detectable_pct", "n", "test",
                   "caveat", "at_peak", "drift_margin_pct", "margin_pct", "margin_source", "decided_by", "busy_rounds",
                   "host_busy_max_pct"]
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


def _sweep_rows(runs: pd.DataFrame) -> pd.DataFrame:
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


def _groups(runs: pd.DataFrame, busy_too: bool = True) -> Iterable[tuple[tuple, pd.DataFrame]]:
    """The cells of ``runs`` (workload, target, threads, rate) and their compared rows; ``busy_too=False``
    leaves out the points degraded by a busy host (an unpaired comparison has no pairing to control them)."""
    if not {"workload", "target", "threads", "phase", "status", "repetition"} <= set(runs.columns):
        return []  # not a runs table of a sweep (a frame made by hand, a folder without its runs): no cell
    rows = _ok(_sweep_rows(runs))
    if not busy_too and len(rows):
        rows = rows[rows["status"] == "ok"]
    if not len(rows):
        return []
    return rows.groupby(CELL, sort=False, dropna=False)


def _rate(rate: float) -> float:
    """A cell's offered rate as the tables say it: NaN when unpaced."""
    return float(rate) if rate else math.nan


def cell_table(runs: pd.DataFrame, latency: str = "p99", series: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per cell (:data:`CELL_COLUMNS`): centre and interval of throughput (ops/s) and of the
    latency statistic (µs), CV, ``unstable``, drift and the repetitions needed to see a 5 % difference.
    With one repetition and ``series`` (per-second rows) the throughput interval is from batch means of
    that run (``within_run``)."""
    tp_m, lat_m = metrics(latency)
    rows = []
    for key, g in _groups(runs):
        tp, lat = by_round(g, tp_m.column), by_round(g, lat_m.column)
        ti, li = stats.interval(list(tp.values())), stats.interval(list(lat.values()))
        if ti.n == 1 and series is not None and len(series):
            ti = stats.batch_interval(_per_second(series, g["run_id"].iloc[0], _runtime_s(g)))
        texts = [t for t in (stats.drift_text(THROUGHPUT, stats.drift(tp)),
                             stats.drift_text(f"{lat_m.name} latency", stats.drift(lat))) if t]
        sd = float(pd.Series([math.log(v) for v in tp.values() if v > 0]).std())  # NaN from fewer than two
        rows.append({**dict(zip(CELL, key)), "target_rate": _rate(key[3]), "n": len(tp), "within_run": ti.within_run,
                     "throughput": ti.centre, "throughput_low": ti.low, "throughput_high": ti.high,
                     "throughput_cv": ti.cv, "unstable": ti.unstable or li.unstable,
                     "latency": li.centre, "latency_low": li.low, "latency_high": li.high, "latency_cv": li.cv,
                     "drift": "; ".join(texts) or None,
                     "repetitions_for_5pct": stats.repetitions_needed(sd, 0.05, paired=False)})
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
    for key, g in _groups(runs):
        for op, m in which:
            v = by_round(g, m.column)
            if not v:
                continue
            i = stats.interval(list(v.values()))
            rows.append({**dict(zip(CELL, key)), "target_rate": _rate(key[3]), "op": op, "percentile": m.name,
                         "n": i.n, "centre": i.centre, "low": i.low, "high": i.high, "cv": i.cv, "unstable": i.unstable,
                         "drift": stats.drift_text(f"{m.name} latency", stats.drift(v))})
    return pd.DataFrame(rows, columns=PERCENTILE_CELL_COLUMNS)


def percentile_verdicts(runs: pd.DataFrame, baseline: str, paired: bool = True,
                        alpha: float = stats.ALPHA, how: Judging | None = None) -> pd.DataFrame:
    """Every other target against ``baseline`` at every latency percentile of every operation
    (:func:`percentile_metrics`), cell by cell, by the tests of :func:`target_verdicts` — ratio other ÷
    baseline with its interval and verdict, :data:`VERDICT_COLUMNS` plus ``op``. They are a family of their
    own (Benjamini–Hochberg over these cells), so that adding them leaves the headline verdicts (throughput
    and the chosen latency) as they were."""
    how = how or judging(paired, alpha)
    which = percentile_metrics(runs) if len(runs) else []
    cells = {k: g for k, g in _groups(runs, how.paired)}
    rows, ops = [], []
    for (workload, target, threads, rate), g in cells.items():
        b = cells.get((workload, baseline, threads, rate))
        if target == baseline or b is None:
            continue
        for op, m in which:
            base, other, c = judged(b, g, m, how)
            if not base or not other:
                continue
            rows.append(_row({"workload": workload, "target": target, "threads": int(threads), "target_rate": _rate(rate)},
                             m, baseline, base, other, c, groups=(b, g), how=how))
            ops.append(op)
    df = _decided(rows, how.alpha)
    return df.assign(op=ops) if len(df) else df.assign(op=pd.Series(dtype=str))


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


@dataclass(frozen=True)
class Judging:
    """How one comparison's cells are judged: the rounds pair (``paired``), the equivalence margin (a
    fraction) and where it came from, the host's noise bound per metric (None: no bound) and the level."""

    paired: bool = True
    margin: float = stats.EQUIVALENCE_MARGIN
    margin_source: str = "the default"
    noise: noise.NoiseModel | None = None
    alpha: float = stats.ALPHA


def judging(paired: bool = True, alpha: float = stats.ALPHA, margin: float | None = None,
            margin_source: str | None = None, margins: host_drift.Margins | None = None) -> Judging:
    """How to judge a comparison: the equivalence ``margin`` (None: :data:`~ycsbctl.results.stats.EQUIVALENCE_MARGIN`)
    and the host's noise bound from the calibration record (``margins``; None: read it)."""
    return Judging(paired, margin if margin is not None else stats.EQUIVALENCE_MARGIN,
                   margin_source or ("--margin" if margin is not None else "the default"),
                   noise.noise_model(margins), alpha)


def judged(b: pd.DataFrame, g: pd.DataFrame, m: Metric, how: Judging) -> tuple[dict, dict, stats.Comparison]:
    """(baseline's and other's values by round, their comparison) of one cell pair for ``m``: the test, the
    equivalence margin and, with a noise model, the host's noise bound (:mod:`ycsbctl.results.noise`)."""
    base, other = by_round(b, m.column), by_round(g, m.column)
    c = stats.compare(base, other, paired=how.paired)
    c = replace(c, equivalence=how.margin)
    if how.noise is not None:
        bounds = noise.bound(base, other, noise.shares_by_round(b), noise.shares_by_round(g), how.noise.of(m.name),
                             m.higher_is_better, how.paired)
        if bounds is not None:
            c = stats.noise_bounded(c, *bounds)
    return base, other, c


def _busy(*groups: pd.DataFrame) -> tuple[int, float]:
    """(rounds in which a point of these cells was degraded by a busy host, the largest share of the host
    other programs took in any of their points, %: NaN where unknown)."""
    rounds: set[int] = set()
    top = math.nan
    for g in groups:
        if "status" in g:
            rounds |= {int(r) for r in g.loc[g["status"] == "degraded", "repetition"]}
        if noise.SHARE_COLUMN in g:
            v = pd.to_numeric(g[noise.SHARE_COLUMN], errors="coerce").max()
            if v == v:
                top = max(v, top) if top == top else float(v)
    return len(rounds), 100 * top if top == top else math.nan


def _row(key: dict, metric: Metric, baseline: str, base: dict, other: dict, c: stats.Comparison,
         caveat: str | None = None, at_peak: bool = False, groups: tuple[pd.DataFrame, ...] = (),
         how: Judging | None = None) -> dict:
    busy_rounds, busy_pct = _busy(*groups)
    how = how or Judging()
    return {**key, "metric": metric.name, "baseline": baseline, "margin_pct": 100 * c.equivalence,
            "margin_source": how.margin_source, "busy_rounds": busy_rounds, "host_busy_max_pct": busy_pct,
            "base_value": stats.interval(list(base.values())).centre, "value": stats.interval(list(other.values())).centre,
            "ratio": c.ratio, "ci_low": c.low, "ci_high": c.high, "ci_level": c.level, "p_value": c.p_value, "n": c.n, "test": c.test,
            "detectable_pct": _pct(c.detectable),
            "caveat": caveat, "at_peak": at_peak, "_c": c, "_hib": metric.higher_is_better}


def _pct(fraction: float) -> float:
    """0.05 -> 5.0 (%); NaN stays NaN."""
    return 100 * fraction if fraction == fraction else math.nan


def _decided(rows: list[dict], alpha: float) -> pd.DataFrame:
    """Adjust the cells' p values together and write the verdicts (rows marked ``_fixed`` keep theirs)."""
    family = [r for r in rows if not r.get("_fixed")]
    done = stats.decide([r["_c"] for r in family], [r["_hib"] for r in family], alpha)
    for r, c in zip(family, done):
        r.update(p_adjusted=c.p_adjusted, verdict=c.verdict, ci_low=c.low, ci_high=c.high, ci_level=c.level,
                 detectable_pct=_pct(c.detectable), decided_by=c.decided_by)  # the family's: what a cell must reach
    for r in rows:  # a row that repeats another's test takes its adjusted p, verdict, interval and detectable
        if "_same_as" in r:
            r.update({k: rows[r["_same_as"]][k]
                      for k in ("p_adjusted", "verdict", "ci_low", "ci_high", "ci_level", "detectable_pct", "decided_by")})
    df = pd.DataFrame(rows)
    if not len(df):
        return pd.DataFrame(columns=VERDICT_COLUMNS)
    return df.reindex(columns=VERDICT_COLUMNS)


def _peak_key(cells: dict[tuple, pd.DataFrame], target: str, workload: str) -> tuple | None:
    """The cell of ``target``'s highest mean throughput in ``workload`` (unpaced points)."""
    best, key = -math.inf, None
    for k, g in cells.items():
        if k[0] == workload and k[1] == target and not k[3]:
            v = pd.to_numeric(g["throughput_ops"], errors="coerce").mean()
            if v == v and v > best:
                best, key = float(v), k
    return key


def target_verdicts(runs: pd.DataFrame, baseline: str, latency: str = "p99", paired: bool = True,
                    alpha: float = stats.ALPHA, how: Judging | None = None) -> pd.DataFrame:
    """Every other target against ``baseline`` in each workload × threads × rate cell both measured, and
    at each one's peak (``at_peak``; threads is the target's peak, the baseline's own peak compared):
    ratio other ÷ baseline with its interval (``ci_level``: the family's, see
    :func:`ycsbctl.results.stats.family_level`; narrowed by the host's noise bound) and one of the four
    verdicts (:data:`VERDICT_COLUMNS`). ``paired`` (or ``how.paired``): the rounds interleaved the targets,
    so repetition r of each was measured close in time, and a point degraded only by a busy host is
    compared too."""
    how = how or judging(paired, alpha)
    cells = {k: g for k, g in _groups(runs, how.paired)}
    rows = []
    for (workload, target, threads, rate), g in cells.items():
        if target == baseline:
            continue
        b = cells.get((workload, baseline, threads, rate))
        if b is None:
            continue
        for m in metrics(latency):
            base, other, c = judged(b, g, m, how)
            rows.append(_row({"workload": workload, "target": target, "threads": int(threads), "target_rate": _rate(rate)},
                             m, baseline, base, other, c, groups=(b, g), how=how))
    index = {(r["workload"], r["target"], r["threads"], r["metric"]): i for i, r in enumerate(rows)}
    for workload in dict.fromkeys(k[0] for k in cells):
        bk = _peak_key(cells, baseline, workload)
        for target in dict.fromkeys(k[1] for k in cells if k[0] == workload and k[1] != baseline):
            tk = _peak_key(cells, target, workload)
            if bk is None or tk is None:
                continue
            m = metrics(latency)[0]
            base, other, c = judged(cells[bk], cells[tk], m, how)
            row = _row({"workload": workload, "target": target, "threads": int(tk[2]), "target_rate": math.nan},
                       m, baseline, base, other, c, caveat=f"peak against peak: {baseline} at {int(bk[2])} threads",
                       at_peak=True, groups=(cells[bk], cells[tk]), how=how)
            same = index.get((workload, target, int(tk[2]), m.name))
            if bk[2] == tk[2] and same is not None:  # both peak at one thread count: that cell's test, not a second
                row.update(_same_as=same, _fixed=True)
            rows.append(row)
    return _decided(rows, how.alpha)


# What a deployment costs per operation, besides throughput and latency (lower is better): CPU µs.
CPU_METRICS = (Metric("client CPU/op", "client_us_per_op", False), Metric("server CPU/op", "server_us_per_op", False))


def with_server_us_per_op(runs: pd.DataFrame) -> pd.DataFrame:
    """``runs`` with ``server_us_per_op``: µs of server CPU per operation (its mean CPU, % of one core,
    over the throughput); NaN where either is missing."""
    if not len(runs) or "server_cpu_pct_mean" not in runs:
        return runs.assign(server_us_per_op=math.nan)
    cpu = pd.to_numeric(runs["server_cpu_pct_mean"], errors="coerce")
    ops = pd.to_numeric(runs["throughput_ops"], errors="coerce")
    return runs.assign(server_us_per_op=(cpu / 100 * 1e6 / ops).where(ops > 0))


def cost_verdicts(runs: pd.DataFrame, baseline: str, latency: str = "p99", paired: bool = True,
                  alpha: float = stats.ALPHA, how: Judging | None = None) -> pd.DataFrame:
    """What every other target costs against ``baseline`` in each workload × threads × rate cell both
    measured: throughput, latency, and client and server CPU per operation (µs), each a ratio other ÷
    baseline with its interval and verdict (:data:`VERDICT_COLUMNS`), decided as one family — the same
    statistics as :func:`target_verdicts`."""
    how = how or judging(paired, alpha)
    runs = with_server_us_per_op(runs)
    cells = {k: g for k, g in _groups(runs, how.paired)}
    rows = []
    for (workload, target, threads, rate), g in cells.items():
        b = cells.get((workload, baseline, threads, rate))
        if target == baseline or b is None:
            continue
        for m in (*metrics(latency), *CPU_METRICS):
            base, other, c = judged(b, g, m, how)
            if not base or not other:
                continue
            rows.append(_row({"workload": workload, "target": target, "threads": int(threads), "target_rate": _rate(rate)},
                             m, baseline, base, other, c, groups=(b, g), how=how))
    return _decided(rows, how.alpha)


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
    (:func:`ycsbctl.results.stats.with_added_error`): a correction is not taken as exact.
    Beside a control target it is only reported. The ``host_factor`` column holds it (NaN: none)."""
    from ycsbctl.results.yardstick import at_base_speed

    margins = margins or host_drift.Margins({}, "default")
    host = f"host speed {host_factor:.2f}× between the folders (yardstick)" if host_factor else ""
    a = {k: g for k, g in _groups(base_runs)}
    b = {k: g for k, g in _groups(other_runs)}
    rows = []
    for key in a:
        if key not in b:
            continue
        workload, target, threads, rate = key
        ckey = (workload, control, threads, rate)
        use_control = control is not None and target != control and ckey in a and ckey in b
        for m in metrics(latency):
            base, other = by_round(a[key], m.column), by_round(b[key], m.column)
            cell = {"workload": workload, "target": target, "threads": int(threads), "target_rate": _rate(rate),
                    "experiment": experiment}
            if use_control:
                rb = _relative(base, by_round(a[ckey], m.column), paired)
                ro = _relative(other, by_round(b[ckey], m.column), paired)
                c = stats.compare(list(rb.values()), list(ro.values()))
                caveat = f"against control {control} (the host's drift between the experiments taken out)"
                rows.append(_row(cell, m, "", base, other, c, caveat + (f"; {host} beside it" if host else "")))
                continue
            if control is not None and target == control:
                c = stats.compare(list(base.values()), list(other.values()))
                rows.append({**_row(cell, m, "", base, other, c, "control: the same build and settings in both; its "
                                    "change is the host's drift between the experiments" + (f"; {host}" if host else "")),
                             "verdict": "host drift", "_fixed": True})
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
            rows.append({**_row(cell, m, "", base, other, stats.beyond_margin(c, margin), caveat),
                         "drift_margin_pct": 100 * margin})
    df = _decided(rows, alpha)
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


def baseline_of(plan: dict, runs: pd.DataFrame) -> str | None:
    """The target a folder's others are compared with: the plan's resolved baseline when it has runs,
    else the first target of the plan (then of the runs) that has runs."""
    have = list(dict.fromkeys(runs["target"])) if len(runs) else []
    ordered = [t for t in plan.get("targets") or [] if t in have] + have
    chosen = plan.get("baseline_target")
    return chosen if chosen in have else (ordered[0] if ordered else None)


def plan_judging(plan: dict, runs: pd.DataFrame) -> Judging:
    """How a folder's verdicts are judged, from its manifest's ``plan``: paired when its rounds interleaved the
    targets, its ``--margin``, and its level — in a sequential run (``--repeat auto``) the part of ``alpha``
    the analysis after its last round spends (:func:`ycsbctl.results.stats.spent_alpha`)."""
    alpha = float(plan.get("alpha") or stats.ALPHA)
    rounds = int(pd.to_numeric(runs["repetition"], errors="coerce").max()) if len(runs) and "repetition" in runs else 1
    given = plan.get("margin")
    return judging(plan.get("run_order") in PAIRED_ORDERS, stats.spent_alpha(alpha, rounds, bool(plan.get("sequential"))),
                   margin=float(given) if given is not None else None)


def plan_verdicts(plan: dict, runs: pd.DataFrame, latency: str = "p99") -> pd.DataFrame:
    """Every target of a folder (its manifest's ``plan``) against its baseline (:func:`plan_judging`)."""
    base = baseline_of(plan, runs)
    if base is None:
        return pd.DataFrame(columns=VERDICT_COLUMNS)
    return target_verdicts(runs, base, latency, how=plan_judging(plan, runs))


def verdict_tables(plan: dict, runs: pd.DataFrame, series: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The ``cells`` and ``verdicts`` tables (p99) of a finished folder whose manifest holds ``plan``, and
    ``percentile_cells``/``percentile_verdicts``: every latency percentile of every operation."""
    base = baseline_of(plan, runs)
    pv = (percentile_verdicts(runs, base, how=plan_judging(plan, runs))
          if base is not None else pd.DataFrame(columns=[*VERDICT_COLUMNS, "op"]))
    return {"cells": cell_table(runs, series=series), "verdicts": plan_verdicts(plan, runs),
            "percentile_cells": percentile_cells(runs), "percentile_verdicts": pv}


def uncompared(runs: pd.DataFrame, baseline: str | None) -> list[str]:
    """Why a target has no verdict against ``baseline``: one sentence per such target — or one for all
    when none was compared — counting the measured points that were not compared by status and cause
    (:func:`ycsbctl.results.causes.counts_text`: ``12 degraded (host busy: other programs used CPU)``, one
    group per cause, never one per figure). A point is compared where the runs table's ``compared`` says so
    (ok points, and host-busy ones of rounds that interleave the targets), else (an older folder) when ok."""
    from ycsbctl.results.causes import HOST_BUSY, counts_text

    if baseline is None or not {"workload", "target", "threads", "phase", "status"} <= set(runs.columns):
        return []
    sweep = _sweep_rows(runs)
    sweep = sweep[sweep["status"] != "skipped"]  # a target never started is said where it was skipped
    used = compared_mask(sweep)
    rate = pd.to_numeric(sweep["target_rate"], errors="coerce").fillna(0.0) if "target_rate" in sweep else 0.0
    keyed = sweep.assign(target_rate=rate)[used]
    cells = {t: set(map(tuple, g[["workload", "threads", "target_rate"]].itertuples(index=False)))
             for t, g in keyed.groupby("target", sort=False)}
    others = [t for t in dict.fromkeys(sweep["target"]) if t != baseline]
    missing = [t for t in others if not cells.get(t, set()) & cells.get(baseline, set())]
    if not missing:
        return []

    def why(targets: list[str]) -> str:
        mine = sweep["target"].isin(targets)
        parts = counts_text(sweep[mine & ~used])
        names = f"{', '.join(targets[:-1])} and {targets[-1]}"  # the baseline and one other target or more
        points = f"the {int(mine.sum())} measured points of {names}"
        return f"of {points}, {parts}" if parts else f"{points} share no cell"
    rule = "only ok points (and host-busy ones of rounds that interleave the targets) are compared"
    busy = ("; run again with --order interleaved (host-busy points are compared there), or when the host is quiet"
            if sweep.get("bottleneck", pd.Series(dtype=str)).eq(HOST_BUSY).any() else "")
    if len(missing) == len(others):
        return [f"No target was compared with {baseline}: {why([baseline, *others])}; {rule}, so there is no "
                f"verdict and no cost table{busy}."]
    return [f"{t} was not compared with {baseline}: {why([baseline, t])}; {rule}{busy}." for t in missing]
