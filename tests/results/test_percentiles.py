"""Every latency percentile the report shows (p50, p95, p99, p99.9) of every operation gets a centre and
95 % interval per cell and a verdict against the baseline, by the path throughput takes — checked against
scipy's own interval, paired t test and Benjamini–Hochberg on fixed data."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from ycsbctl.results import cells as cl
from ycsbctl.results import verdicts as vd

ROUNDS = 5
WOBBLE = np.array([1.0, 1.04, 0.97, 1.02, 0.99])  # what the host did in each round, to both targets
SPREAD = np.array([1.01, 0.99, 1.0, 1.015, 0.985])  # the part that does not pair
# each percentile's column in runs.parquet, written out here (not read from the module under test)
COLUMN_STAT = {"p50": "p50", "p95": "p95", "p99": "p99", "p99.9": "p999"}


def _runs() -> pd.DataFrame:
    """a and b at 8 threads; b's READ p99 and p99.9 are 20 % higher, everything else the same."""
    rows = []
    for target in ("a", "b"):
        for r in range(ROUNDS):
            w = WOBBLE[r] * (SPREAD[r] if target == "b" else 1.0)
            row = {"run_id": f"{target}.{r}", "target": target, "workload": "w", "phase": "run", "threads": 8,
                   "repetition": r + 1, "target_rate": math.nan, "status": "ok", "throughput_ops": 10_000 / w}
            for op, base in (("all", 100.0), ("read", 90.0), ("update", 150.0)):
                for stat, f in (("p50", 1.0), ("p95", 2.0), ("p99", 3.0), ("p999", 6.0)):
                    slower = 1.2 if (target == "b" and op == "read" and stat in ("p99", "p999")) else 1.0
                    row[f"{op}_{stat}_us"] = base * f * w * slower
            rows.append(row)
    return pd.DataFrame(rows)


def test_every_percentile_of_every_operation_has_scipys_interval():
    runs = _runs()
    cells = cl.percentile_cells(runs)
    assert len(cells) == 2 * 3 * 4  # targets × operations × percentiles
    assert set(cells["percentile"]) == {"p50", "p95", "p99", "p99.9"} and set(cells["op"]) == {"ALL", "READ", "UPDATE"}
    for r in cells.to_dict("records"):
        col = f"{r['op'].lower()}_{COLUMN_STAT[r['percentile']]}_us"
        logs = np.log(runs.loc[runs["target"] == r["target"], col].to_numpy())
        lo, hi = sps.t.interval(0.95, len(logs) - 1, loc=logs.mean(), scale=sps.sem(logs))
        assert r["centre"] == pytest.approx(sps.gmean(np.exp(logs)))
        assert (r["low"], r["high"]) == pytest.approx((math.exp(lo), math.exp(hi)))
        assert r["n"] == ROUNDS


def test_each_percentile_has_a_verdict_from_scipys_paired_test_adjusted_together():
    runs = _runs()
    v = vd.percentile_verdicts(runs, "a")
    assert len(v) == 3 * 4 and set(v["target"]) == {"b"}
    a, b = (runs[runs["target"] == t] for t in ("a", "b"))
    tests = [sps.ttest_rel(np.log(b[f"{r['op'].lower()}_{COLUMN_STAT[r['metric']]}_us"].to_numpy()),
                           np.log(a[f"{r['op'].lower()}_{COLUMN_STAT[r['metric']]}_us"].to_numpy()))
             for r in v.to_dict("records")]
    assert v["p_value"].to_numpy() == pytest.approx([t.pvalue for t in tests])
    assert v["p_adjusted"].to_numpy() == pytest.approx(sps.false_discovery_control([t.pvalue for t in tests]))
    called = v.set_index(["op", "metric"])["verdict"]
    assert called[("READ", "p99")] == called[("READ", "p99.9")] == "worse"  # 20 % higher, lower is better
    # the rest: the same server's percentiles within a few % (inside the ±10 % margin)
    assert (called.drop([("READ", "p99"), ("READ", "p99.9")]) == "equivalent").all()
    read99 = v[(v["op"] == "READ") & (v["metric"] == "p99")].iloc[0]
    assert read99["ratio"] == pytest.approx(1.2 * sps.gmean(SPREAD)) and read99["ci_low"] > 1


def test_the_folder_tables_hold_them_beside_unchanged_headline_verdicts():
    runs = _runs()
    plan = {"targets": ["a", "b"], "run_order": "interleaved"}
    tables = vd.verdict_tables(plan, runs, pd.DataFrame())
    pd.testing.assert_frame_equal(tables["verdicts"], vd.plan_verdicts(plan, runs))  # a family of their own
    assert len(tables["percentile_cells"]) == 24 and len(tables["percentile_verdicts"]) == 12
    assert vd.verdict_tables({"targets": []}, runs.iloc[:0], pd.DataFrame())["percentile_verdicts"].empty


def test_two_wild_rounds_among_many_cells_give_huge_bounds_not_an_overflow():
    """Two rounds (df 1) at a family's level over many cells put t in the thousands: the detectable
    difference and the interval's bounds stay numbers (this once ended a run: math range error)."""
    from ycsbctl.results import stats

    c = stats.compare({1: 100.0, 2: 100.0}, {1: 100.0, 2: 100_000.0}, paired=True)
    wide = stats.at_level(c, 1 - 0.05 / 200)
    assert 0 < wide.low < 1e-100 and wide.high > 1e100
    assert stats._detectable(c.se_log, c.df, 0.05 / 200) > 1e100
    done = stats.decide([c] * 200, [True] * 200)
    assert all(x.detectable > 1e100 and x.verdict == stats.UNDECIDED for x in done)
