"""How busy the host was, as the folder's first finding says it (report/host_busy.py: ``how_busy``)."""

from __future__ import annotations

import pandas as pd

from ycsbctl.report.host_busy import how_busy


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
