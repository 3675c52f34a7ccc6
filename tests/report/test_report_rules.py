"""Rules of the report's figures a person reads, each checked against its own statement (pure,
milliseconds): an axis ends 15 % above the largest value it shows, and the memory panel's two bars per
target are the store's own figure and the process's RSS, in MiB, each blank where it was not measured."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from ycsbctl.report.plot_style import axis_top
from ycsbctl.report.resource_plots import footprint_figure
from ycsbctl.results.frames import Experiment
from ycsbctl.results.schema import Manifest

MIB = 1024 * 1024


def test_an_axis_ends_15_percent_above_its_largest_value_and_at_1_when_there_is_none():
    assert axis_top(200.0) == pytest.approx(230.0, rel=1e-12)
    assert axis_top(0.004) == pytest.approx(0.0046, rel=1e-12)
    assert [axis_top(x) for x in (0.0, -5.0, math.nan, math.inf)] == [1.0, 1.0, 1.0, 1.0]


def test_the_memory_panels_bars_are_the_stores_figure_and_the_rss_in_mib_blank_where_not_measured():
    import pandas as pd

    from ycsbctl.telemetry.footprint import Footprint

    footprints = {"redis": Footprint("redis", "redis", 1000, 1 * MIB, 3 * MIB, 8 * MIB, 9 * MIB, "process").to_dict(),
                  "sqlite": Footprint("sqlite", "sqlite", 1000, None, None, 2 * MIB, 5 * MIB, "process").to_dict()}
    manifest = Manifest.from_dict({"experiment_id": "", "status": "complete", "footprints": footprints,
                                   "plan": {"targets": list(footprints)}})
    runs = pd.DataFrame({"status": pd.Series(dtype=str), "target": pd.Series(dtype=str)})
    exp = Experiment(Path("."), manifest, runs, pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), {})
    fig = footprint_figure(exp, {})
    assert fig is not None
    (ax,) = [a for a in fig.axes if a.get_title().startswith("memory after load")]
    store, rss = (c for c in ax.containers)
    heights = [[r.get_height() for r in bars] for bars in (store, rss)]
    assert heights[0][0] == 3.0 and math.isnan(heights[0][1])  # the store's own figure; sqlite reports none
    assert heights[1] == [9.0, 5.0]  # each process's RSS after the load
    assert (store.get_label(), rss.get_label()) == ("reported by the store", "process RSS")


def test_the_network_used_is_the_busiest_ok_runs_bytes_per_second_in_gbit_s():
    import pandas as pd

    from ycsbctl.report.resource_plots import network_used_gbit

    runs = pd.DataFrame({"status": ["ok", "ok", "failed", "ok"], "target": ["a", "a", "a", "b"],
                         "net_bytes_per_s_mean": [1.25e9, 0.5e9, 9e9, 125e6]})
    exp = Experiment(Path("."), Manifest.from_dict({"experiment_id": ""}), runs, pd.DataFrame(), pd.DataFrame(),
                     pd.DataFrame(), {})
    assert network_used_gbit(exp) == {"a": pytest.approx(10.0), "b": pytest.approx(1.0)}  # bytes × 8 / 1e9


def test_targets_more_than_20_times_apart_are_far_apart():
    import pandas as pd

    from ycsbctl.report.plot_style import far_apart

    assert far_apart(pd.Series([1.0, 20.1])) and far_apart(pd.Series([2.0, 0.0, 41.0]))  # a zero is no value
    assert not far_apart(pd.Series([1.0, 19.9])) and not far_apart(pd.Series([5.0]))


def test_the_cpu_figure_draws_the_server_cpu_of_a_ladder_without_client_cpu():
    import numpy as np
    import pandas as pd

    from ycsbctl.report.resource_plots import cpu_figure

    points = pd.DataFrame({"workload": "w", "status": "ok", "target": "redis", "threads": [8, 16],
                           "server_cpu_pct": [40.0, 75.0], "client_cpu_pct": [np.nan, np.nan]})
    fig = cpu_figure(points, "w", 2, {"redis": "#d62728"})
    assert fig is not None
    lines = [ln for ln in fig.axes[0].get_lines() if ln.get_color() == "#d62728"]  # the target's, not the core lines
    assert [list(ln.get_ydata()) for ln in lines] == [[40.0, 75.0]]  # the server's, and no client line
    assert cpu_figure(points.assign(server_cpu_pct=np.nan), "w", 2, {"redis": "#d62728"}) is None


def test_a_timeline_labels_each_event_with_its_command_and_stall_in_ms():
    import pandas as pd

    from ycsbctl.report.disturbance_report import _label

    assert _label(pd.Series({"event": "DEL big", "command_s": 1.2344, "stall_s": 0.4996})) == \
        "DEL big, command 1,234 ms, stall 500 ms"
    assert _label(pd.Series({"event": "BGSAVE", "command_s": None, "stall_s": "n/a"})) == "BGSAVE"
