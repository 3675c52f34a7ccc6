"""Rules of the report's figures a person reads, each checked against its own statement (pure,
milliseconds): an axis ends 15 % above the largest value it shows, and the memory panel's two bars per
target are the store's own figure and the process's RSS, in MiB, each blank where it was not measured."""

from __future__ import annotations

import math

import pytest

from ycsbctl.report.plot_style import axis_top
from ycsbctl.report.resource_plots import footprint_figure
from ycsbctl.results.frames import Experiment

MIB = 1024 * 1024


def test_an_axis_ends_15_percent_above_its_largest_value_and_at_1_when_there_is_none():
    assert axis_top(200.0) == pytest.approx(230.0, rel=1e-12)
    assert axis_top(0.004) == pytest.approx(0.0046, rel=1e-12)
    assert [axis_top(x) for x in (0.0, -5.0, math.nan, math.inf)] == [1.0, 1.0, 1.0, 1.0]


def test_the_memory_panels_bars_are_the_stores_figure_and_the_rss_in_mib_blank_where_not_measured():
    from pathlib import Path

    import pandas as pd

    from ycsbctl.results.schema import Manifest
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
