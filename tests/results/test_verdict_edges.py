"""Edges of the verdicts (results/verdicts.py) and of compare's verdict text (report/compare.py), each
against a figure worked out here: the p99.9 metric reads the p99.9 column (not the p99); a cell whose
baseline lacks a percentile gets no verdict on it; server CPU per operation below 1 op/s is still a
figure (and none at 0 ops/s); a "no difference" tested against the host's drift names the margin."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from tests.fixtures.verdict_runs import runs_table
from ycsbctl.results import cells as cl
from ycsbctl.results import folder_verdicts as fv
from ycsbctl.results import over_rounds
from ycsbctl.results import verdicts as vd
from ycsbctl.results.names import ALL_OPS


def _with_p999(runs: pd.DataFrame, missing: str | None = None) -> pd.DataFrame:
    """``runs`` with a p99.9 twice each run's p99 (NaN for the ``missing`` target)."""
    p999 = runs["all_p99_us"] * 2
    return runs.assign(all_p999_us=p999.where(runs["target"] != missing))


def test_the_p999_metric_reads_the_p999_column_and_its_verdict_is_the_t_test_of_its_logs():
    runs = _with_p999(runs_table({("a", 8): [10_000.0, 9_000.0, 11_000.0], ("b", 8): [8_000.0, 7_500.0, 8_800.0]}))
    metrics = {m.name: m.column for op, m in cl.percentile_metrics(runs) if op == ALL_OPS}
    assert metrics == {"p99": "all_p99_us", "p99.9": "all_p999_us"}
    v = vd.percentile_verdicts(runs, "a")
    cell = v[(v["op"] == ALL_OPS) & (v["metric"].str.contains("p99.9"))].iloc[0]
    a = runs[runs["target"] == "a"]["all_p999_us"].to_numpy()
    b = runs[runs["target"] == "b"]["all_p999_us"].to_numpy()
    assert cell["ratio"] == pytest.approx(math.exp((pd.Series(b).map(math.log) - pd.Series(a).map(math.log)).mean()))
    assert cell["p_value"] == pytest.approx(sps.ttest_rel([math.log(x) for x in b], [math.log(x) for x in a]).pvalue)


def test_a_cell_whose_baseline_lacks_a_percentile_gets_no_verdict_on_it():
    runs = _with_p999(runs_table({("a", 8): [10_000.0, 9_000.0, 11_000.0], ("b", 8): [8_000.0, 7_500.0, 8_800.0]}),
                      missing="a")
    v = vd.percentile_verdicts(runs, "a")
    assert sorted(v["metric"].map(lambda m: "p99.9" if "p99.9" in m else "p99")) == ["p99"]


def test_server_cpu_per_operation_is_a_figure_below_one_op_per_second_and_none_at_zero():
    runs = pd.DataFrame({"server_cpu_pct_mean": [1.0, 50.0, 20.0], "throughput_ops": [0.5, 10_000.0, 0.0]})
    got = vd.with_server_us_per_op(runs)["server_us_per_op"].tolist()
    # 1 % of a core is 10,000 µs of CPU each second; at 0.5 ops/s that is 20,000 µs per operation
    assert got[:2] == pytest.approx([0.01 * 1e6 / 0.5, 0.5 * 1e6 / 10_000])
    assert math.isnan(got[2])
    # runs without server telemetry: no figure, not a missing column's KeyError
    bare = vd.with_server_us_per_op(runs.drop(columns="server_cpu_pct_mean"))["server_us_per_op"]
    assert len(bare) == 3 and bare.isna().all()


def test_the_repetitions_for_5_percent_come_from_the_positive_throughputs_logs_and_a_bare_runs_table_is_a_sweep():
    # an ok round that measured nothing (0 ops/s), the others about 1 op/s: the sd of the logs of the positive ones
    runs = runs_table({("a", 8): [1.0, 2.0, 4.5, 3.0]}).assign(throughput_ops=[0.0, 0.9, 1.0, 1.1])
    cell = cl.cell_table(runs).iloc[0]
    sd = float(np.log([0.9, 1.0, 1.1]).std(ddof=1))
    assert cell["n"] == 4 and cell["repetitions_for_5pct"] == over_rounds.repetitions_needed(sd, 0.05, paired=False)
    one = cl.cell_table(runs_table({("a", 8): [1.0, 2.0]}).assign(throughput_ops=[0.0, 3.0])).iloc[0]
    assert one["repetitions_for_5pct"] is None  # one positive round: no sd, nothing to say
    # exactly the columns that key a cell (no measurement): still a sweep's runs, one cell of no value
    keys = runs[["workload", "target", "threads", "phase", "status", "repetition"]]
    bare = cl.cell_table(keys)
    assert list(bare["n"]) == [0] and bare["throughput"].isna().all()


def test_a_verdict_tested_against_the_hosts_drift_names_the_drift_else_its_margin_and_what_was_detectable():
    from ycsbctl.report.compare import _verdict

    cell = {"ops_ratio": 1.01, "ops_ci_low": 0.95, "ops_ci_high": 1.07}
    assert _verdict({**cell, "ops_verdict": "equivalent", "ops_drift_margin_pct": 10.0}, "ops") == \
        "equivalent (host drift ±10.0 %)"
    assert _verdict({**cell, "ops_verdict": "undecided", "ops_margin_pct": 10.0, "ops_detectable_pct": 7.0}, "ops") == \
        "undecided (margin ±10 %; could detect ±7 %)"
    assert _verdict({"ops_verdict": "not compared"}, "ops") == "not compared"


def test_an_interval_below_the_readable_bound_is_shown_in_the_digits_it_was_asked_for():
    """A ratio of 0.008 with its interval [0.0075, 0.0085] (a store 125× slower) reads [0.007, 0.009] at three
    decimals — never "[<0.01, 0.008]", a lower bound that reads above the upper one; "<0.01" stays for two."""
    from ycsbctl.results.verdicts import interval_text

    assert interval_text(0.0075, 0.0085, 3) == " [0.007, 0.009]"  # 0.0075 is a hair below it in binary
    assert interval_text(0.0075, 0.0085, 4) == " [0.0075, 0.0085]"
    assert interval_text(0.004, 0.3, 2) == " [<0.01, 0.30]"
    assert interval_text(0.0004, 0.3, 3) == " [<0.001, 0.300]"
    # fewer digits than 0.01 shows: "<0.01" from BOUND_LOW down, the digits' rounding from it up
    assert interval_text(0.00999, 0.3, 1) == " [<0.01, 0.3]" and interval_text(0.01, 0.3, 1) == " [0.0, 0.3]"
    assert interval_text(0.01005, 3.0, 0) == " [0, 3]"


def test_a_cell_tested_against_the_hosts_drift_says_that_metrics_margin_in_percent():
    from ycsbctl.results.host_drift import Margins

    base = runs_table({("a", 8): [10_000.0, 9_400.0, 10_800.0]})
    other = runs_table({("a", 8): [10_500.0, 9_900.0, 11_200.0]})
    margins = Margins({"throughput": 0.125, "p99": 0.2}, "host_drift.json (12 A/A cells)")
    v = fv.folder_verdicts(base, other, None, "b", margins=margins).set_index("metric")
    for metric, pct in (("throughput", "12.5"), ("p99", "20.0")):
        assert v.loc[metric, "drift_margin_pct"] == pytest.approx(float(pct))
        assert f"±{pct} % (host_drift.json (12 A/A cells))" in v.loc[metric, "caveat"]
