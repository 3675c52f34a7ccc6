"""How busy the host was, as the folder's first finding says it (report/host_busy.py: ``how_busy``)."""

from __future__ import annotations

import pandas as pd

from ycsbctl.report.host_busy import host_busy_findings, how_busy
from ycsbctl.results.causes import HOST_BUSY


def test_one_figure_where_the_mean_and_the_largest_round_alike_else_both():
    # 10, 10 and 11 % of a core: the mean (10.3) and the largest (11) differ once rounded: both are said
    assert how_busy(pd.DataFrame({"host_foreign_pct": [10.0, 10.0, 11.0]})) == \
        "other programs used on average 10% of a core, at most 11%"
    assert how_busy(pd.DataFrame({"host_foreign_pct": [40.2, 39.9]}), 2) == \
        "other programs used 40% of a core, on a host of 2 cores"
    # no foreign CPU: the steal, then the other benchmark; nothing for no runs
    assert how_busy(pd.DataFrame({"host_foreign_pct": [0.0], "host_steal_pct": [30.0]})) == \
        "the hypervisor's steal took 30% of a core"
    assert how_busy(pd.DataFrame({"host_foreign_pct": [0.0]})) == "another benchmark measured on this host"
    assert how_busy(pd.DataFrame()) == ""


def test_the_points_measured_on_a_busy_host_are_named_each_once_one_alone_as_itself() -> None:
    """Which points the host-busy finding names: the targets and thread counts of the rows built here, each once,
    joined with "and" (several) or alone (one) — a table written by hand, so the names are known."""
    def runs(rows: list[tuple[str, int, str]]) -> pd.DataFrame:
        return pd.DataFrame([{"workload": "a", "phase": "run", "status": status, "target": target, "threads": threads,
                              "bottleneck": HOST_BUSY if status == "degraded" else None}
                             for target, threads, status in rows])

    several = host_busy_findings(runs([("redis", 1, "degraded"), ("redis", 2, "degraded"),
                                       ("mongodb", 2, "degraded"), ("basic", 1, "ok")]))
    assert len(several) == 1 and several[0].startswith("3 of the 4 points (redis and mongodb at 1 and 2 threads) "), \
        several
    one = host_busy_findings(runs([("redis", 4, "degraded"), ("redis", 8, "ok")]))
    # "1 of the 2 point" before
    assert len(one) == 1 and one[0].startswith("1 of the 2 points (redis at 4 threads) was measured"), one
    single = host_busy_findings(runs([("redis", 1, "degraded"), ("basic", 1, "ok")]))
    assert len(single) == 1 and single[0].startswith("1 of the 2 points (redis at 1 thread) was measured"), single
    alone = host_busy_findings(runs([("redis", 4, "degraded")]))
    assert len(alone) == 1 and alone[0].startswith("1 point (redis at 4 threads) was measured"), alone
    # the sentence after it speaks of that one point, as the one of several speaks of them
    assert "It is degraded, not failed: its figures are shown, marked, and it is compared" in one[0], one
    assert "They are degraded, not failed: their figures are shown, marked, and each is compared" in several[0]
