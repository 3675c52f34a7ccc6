"""What a deployment costs against its baseline: the server's CPU per operation is its mean CPU over
its throughput, and each metric's ratio is the geometric mean of the per-round ratios (paired), checked
against numpy; the four metrics are decided as one family, with a clear difference called."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ycsbctl.results.verdicts import cost_verdicts, with_server_us_per_op


def _runs() -> pd.DataFrame:
    rows = []
    for target, ops, cpu, client, p99 in (("redis", (10000, 10400, 9800), (90, 92, 91), (14.0, 14.5, 13.8),
                                           (500, 520, 480)),
                                          ("redis-tls", (7000, 7100, 6900), (95, 96, 94), (24.0, 25.0, 23.5),
                                           (800, 790, 820))):
        for rep in range(3):
            rows.append({"workload": "workloadb", "target": target, "threads": 16, "phase": "run", "status": "ok",
                         "repetition": rep, "target_rate": None, "throughput_ops": float(ops[rep]),
                         "server_cpu_pct_mean": float(cpu[rep]), "client_us_per_op": client[rep],
                         "all_p99_us": float(p99[rep])})
    return pd.DataFrame(rows)


def test_server_cpu_per_operation_is_its_cpu_over_its_throughput() -> None:
    r = with_server_us_per_op(_runs())
    assert r["server_us_per_op"].iloc[0] == pytest.approx(0.90 * 1e6 / 10000)  # 90 % of a core at 10k ops/s: 90 µs


def test_each_cost_is_the_geometric_mean_of_the_per_round_ratios_and_a_clear_one_is_called() -> None:
    runs = _runs()
    v = cost_verdicts(runs, "redis").set_index("metric")
    assert list(v.index) == ["throughput", "p99", "client CPU/op", "server CPU/op"]
    base, tls = runs[runs.target == "redis"].reset_index(), runs[runs.target == "redis-tls"].reset_index()
    for metric, column in (("throughput", "throughput_ops"), ("client CPU/op", "client_us_per_op")):
        expected = float(np.exp(np.mean(np.log(tls[column] / base[column]))))
        assert v.loc[metric, "ratio"] == pytest.approx(expected)
    server = (tls.server_cpu_pct_mean / tls.throughput_ops) / (base.server_cpu_pct_mean / base.throughput_ops)
    assert v.loc["server CPU/op", "ratio"] == pytest.approx(float(np.exp(np.mean(np.log(server)))))
    assert v.loc["client CPU/op", "verdict"] == "worse" and v.loc["throughput", "verdict"] == "worse"
    assert (v["ci_low"] <= v["ratio"]).all() and (v["ratio"] <= v["ci_high"]).all()
