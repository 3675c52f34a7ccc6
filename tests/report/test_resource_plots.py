"""The resource figures (report/resource_plots.py) read back from matplotlib's own artists: the network
used, the CPU figure, the time series's axes and its last second."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.fixtures.figure_folders import FigureFolder


def test_the_network_used_is_the_busiest_ok_runs_bytes_per_second_in_gbit():
    from ycsbctl.report.resource_plots import network_used_gbit
    runs = pd.DataFrame({"target": ["a", "a", "a", "b"], "status": ["ok", "ok", "failed", "ok"],
                         "net_bytes_per_s_mean": [1.25e9, 0.5e9, 9e9, 250e6]})
    assert network_used_gbit(FigureFolder(runs)) == {"a": 10.0, "b": 2.0}  # type: ignore[arg-type]


def test_a_cpu_figure_with_only_the_servers_cpu_draws_it():
    from ycsbctl.report.resource_plots import cpu_figure
    nan = float("nan")
    points = pd.DataFrame({"workload": "w", "status": "ok", "target": "a", "threads": [1, 4],
                           "server_cpu_pct": [40.0, 90.0], "client_cpu_pct": [nan, nan]})
    fig = cpu_figure(points, "w", None, {"a": "#123456"})
    assert fig is not None
    (ax,) = fig.axes
    drawn = [(list(line.get_xdata()), list(line.get_ydata())) for line in ax.lines if line.get_color() == "#123456"]
    assert drawn == [([1, 4], [40.0, 90.0])]
    assert cpu_figure(points.assign(server_cpu_pct=nan), "w", None, {"a": "#123456"}) is None


def test_the_time_series_names_the_first_runs_axes():
    from ycsbctl.report.resource_plots import timeseries_figure
    series = pd.DataFrame({"run_id": "r1", "op": "OVERALL", "second": [0, 1, 2], "operations": [900, 1000, 1100],
                           "p99_us": [30000.0, 50000.0, 40000.0], "warmup": [True, False, False]})
    fig = timeseries_figure(FigureFolder(pd.DataFrame(), series), {"a": "r1"}, {"a": "#123456"},
                            "t")  # type: ignore[arg-type]
    assert fig is not None
    labels = [ax.get_ylabel() for ax in fig.axes]
    assert "ops/s (solid)" in labels and "server CPU (% of one core, solid)" in labels
    assert "p99 latency (ms, dashed)" in labels and "server memory (MiB, dashed)" in labels
    top = next(ax for ax in fig.axes if ax.get_ylabel() == "ops/s (solid)")
    assert [list(line.get_ydata()) for line in top.lines] == [[900, 1000, 1100]]
    # every axis from 0: ops/s and p99 up to 15 % above their largest (1,100 ops/s, 50 ms), CPU and memory from 0
    lat = next(ax for ax in fig.axes if ax.get_ylabel() == "p99 latency (ms, dashed)")
    assert [list(line.get_ydata()) for line in lat.lines] == [[30.0, 50.0, 40.0]]
    # each second's figures at its middle, on both lines
    assert [list(line.get_xdata()) for line in (*top.lines, *lat.lines)] == [[0.5, 1.5, 2.5]] * 2
    assert top.get_ylim() == pytest.approx((0, 1100 * 1.15)) and lat.get_ylim() == pytest.approx((0, 50 * 1.15))
    assert all(ax.get_ylim()[0] == 0 for ax in fig.axes)
    # no telemetry: the panel says so in its middle (axes fraction 0.5, 0.5, centred), not in a corner
    (note,) = [t for ax in fig.axes for t in ax.texts if t.get_text() == "no server telemetry"]
    assert note.get_position() == (0.5, 0.5) and note.get_ha() == "center"


def test_the_time_series_keeps_a_last_second_the_run_spent_95_percent_of_and_drops_a_shorter_one():
    """Seconds 0-11 of a run that ended at 0.5 s of warm-up + its runtime: second 10 (10-11 s) is whole when the run
    ended at 10.95 s or later (5 % of a second short, at most), and is a part-second when it ended at 10.9498 s."""
    from types import SimpleNamespace

    from ycsbctl.report.resource_plots import _whole_seconds

    overall = pd.DataFrame({"second": range(12), "operations": 100})

    def kept(runtime_ms: float, warmup_s: float = 0.5) -> list[int]:
        exp = SimpleNamespace(run_doc=lambda run_id: {"result": {"warmup_s": warmup_s, "runtime_ms": runtime_ms}})
        return list(_whole_seconds(exp, "r1", overall)["second"])  # type: ignore[arg-type]

    assert kept(10_450.0) == list(range(11))  # 0.5 + 10.45 = 10.95 s: second 10 is 95 % run, kept
    assert kept(10_449.8) == list(range(10))  # 10.9498 s: second 10 is 94.98 % run, dropped
    assert kept(11_000.0, warmup_s=0.0) == list(range(11))  # ended on the second: 11 whole seconds
    assert kept(1_000.0, warmup_s=0.0) == [0]  # a run of exactly one second: its one whole second
    assert kept(0.0, warmup_s=0.0) == list(range(12))  # no end known: every second kept
