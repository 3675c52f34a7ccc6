"""Which targets' servers a CPU quota held back: the median share of throttled periods over a target's compared sweep
points, held from HELD_PCT (10 %) on, and a change only where one folder held it and the other did not."""

from __future__ import annotations

import math

import pandas as pd

from ycsbctl.results.quota_held import HELD_PCT, held_differently, held_text, throttled_pct


def runs(pcts: dict[str, list[float]], status: str = "ok") -> pd.DataFrame:
    rows = [{"target": t, "status": status, "phase": "run", "workload": "workloadb", "server_throttled_pct": p}
            for t, ps in pcts.items() for p in ps]
    return pd.DataFrame(rows)


def test_the_median_over_compared_points_with_no_quota_read_as_none_held():
    r = runs({"a": [math.nan, math.nan], "twin": [0.0, 100.0, 90.0]})
    r.loc[len(r)] = {"target": "twin", "status": "failed", "phase": "run", "workload": "workloadb",
                     "server_throttled_pct": 0.0}  # a failed point is not compared: not counted
    assert throttled_pct(r) == {"a": 0.0, "twin": 90.0}
    # a folder written before the column: every target, none held (the four columns a sweep's rows need, no more)
    assert throttled_pct(r[["target", "status", "phase", "workload"]]) == {"a": 0.0, "twin": 0.0}
    assert throttled_pct(pd.DataFrame()) == {}


def test_held_from_exactly_the_threshold_and_only_a_change_between_folders_counts():
    assert HELD_PCT == 10.0
    base = runs({"a": [0.0], "twin": [0.0], "both": [50.0], "edge": [9.99]})
    other = runs({"a": [0.0], "twin": [HELD_PCT], "both": [80.0], "edge": [0.0]})
    assert held_differently(base, other) == {"twin": (0.0, 10.0)}
    assert held_differently(other, base) == {"twin": (10.0, 0.0)}  # either side
    assert held_differently(base, runs({"a": [0.0]})) == {}  # only common targets
    assert held_text("twin", (math.nan,
                              99.6)) == "server twin: held by its CPU quota in 0 % vs 100 % of periods (cpu.stat)"
