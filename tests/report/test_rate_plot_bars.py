"""The rate figure's interval bars (report/rate_plots.py) read back from matplotlib's own artists: each bar's
ends are the 95 % t interval of the repetitions' mean log computed here with scipy (latency in the axis's
unit, throughput in ops/s), never shorter than the point itself; a point measured once has none. Each tried
rate that has a latency is marked."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from tests.fixtures.figure_folders import FigureFolder
from ycsbctl.report.rate_plots import rate_latency_figure
from ycsbctl.results.frames import Experiment
from ycsbctl.results.schema import Manifest

# offered rate -> the repetitions' (throughput ops/s, p50 µs, p99 µs); NaN: unpaced, measured once
POINTS: dict[float, list[tuple[float, float, float]]] = {
    1000.0: [(990.0, 5000.0, 30000.0), (1000.0, 6000.0, 36000.0), (1012.0, 7500.0, 45000.0)],
    # skewed: the arithmetic mean (the point) lies above the geometric interval's top
    2000.0: [(1900.0, 4000.0, 21000.0)] * 8 + [(190000.0, 400000.0, 2100000.0)],
    math.nan: [(5000.0, 9000.0, 60000.0)],
}


def _experiment() -> Experiment:
    runs = [{"target": "redis", "workload": "workload-b", "phase": "run", "threads": 8, "target_rate": rate,
             "throughput_ops": tp, "all_p50_us": p50, "all_p99_us": p99, "status": "ok"}
            for rate, reps in POINTS.items() for tp, p50, p99 in reps]
    m = Manifest(experiment_id="hand-made", plan={"targets": ["redis"], "workloads": ["workload-b"]})
    return Experiment(Path("/nonexistent"), m, pd.DataFrame(runs), pd.DataFrame(), pd.DataFrame(), pd.DataFrame())


def _t_interval(values: list[float]) -> tuple[float, float]:
    logs = np.log(values)
    half = stats.t.ppf(0.975, len(values) - 1) * logs.std(ddof=1) / math.sqrt(len(values))
    return float(np.exp(logs.mean() - half)), float(np.exp(logs.mean() + half))


def _segments(fig, gid: str) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    found = [c for c in fig.axes[0].collections if c.get_gid() == gid]
    assert len(found) == 1, gid
    return [tuple(map(tuple, s)) for s in found[0].get_segments()]  # type: ignore[misc]


@pytest.mark.parametrize("col,pct", [(1, "p50"), (2, "p99")])
def test_each_bar_is_the_repetitions_t_interval_never_shorter_than_the_point(col, pct):
    fig = rate_latency_figure(_experiment(), "workload-b", {"redis": "#d62728"})
    assert fig is not None
    div = 1000.0  # the largest latency is past 20 ms: the axis is in ms
    expected_y, expected_x = [], []
    for rate in (1000.0, 2000.0):  # offered-rate order; the unpaced point, measured once, has no bar
        reps = POINTS[rate]
        x, y = np.mean([r[0] for r in reps]), np.mean([r[col] for r in reps]) / div
        lo, hi = _t_interval([r[col] for r in reps])
        expected_y.append(((x, min(lo / div, y)), (x, max(hi / div, y))))
        lo, hi = _t_interval([r[0] for r in reps])
        expected_x.append(((min(lo, x), y), (max(hi, x), y)))
    got_y, got_x = _segments(fig, f"ci-redis-8-{pct}-y"), _segments(fig, f"ci-redis-8-{pct}-x")
    assert len(got_y) == len(got_x) == 2
    for got, want in zip([*got_y, *got_x], [*expected_y, *expected_x], strict=True):
        assert np.allclose(got, want, rtol=1e-9), (got, want)
    # the skewed point: its mean is above its interval, so its bars end at the point (no negative length)
    assert got_y[1][1][1] == pytest.approx(np.mean([r[col] for r in POINTS[2000.0]]) / div)
    notes = [t.get_text() for t in fig.axes[0].texts if t.get_gid() == "interval-note"]
    assert notes == ["bars: 95 % interval of the repetitions"]


def test_repetitions_alike_and_a_throughput_without_an_interval_draw_zero_length_bars():
    """Two alike repetitions: the interval is the point itself, its log-and-back a hair off the mean
    (exp(log(30000)) > 30000): the bar has no length, not a negative one. A rate whose throughput has one
    positive repetition (the other 0 ops/s) has no throughput interval: its horizontal bar has no length."""
    runs = [{"target": "redis", "workload": "workload-b", "phase": "run", "threads": 8, "target_rate": rate,
             "throughput_ops": tp, "all_p50_us": p50, "all_p99_us": p99, "status": "ok"}
            for rate, tp, p50, p99 in [(1000.0, 1003.0, 5000.0, 30000.0), (1000.0, 1003.0, 5000.0, 30000.0),
                                       (3000.0, 0.0, 6000.0, 40000.0), (3000.0, 2900.0, 6600.0, 44000.0)]]
    exp = _experiment()
    exp.runs = pd.DataFrame(runs)
    assert float(np.exp(np.log(np.array([30000.0, 30000.0])).mean())) > 30000.0  # the hair this test is about
    fig = rate_latency_figure(exp, "workload-b", {"redis": "#d62728"})
    assert fig is not None
    (alike_y, other_y), (alike_x, other_x) = _segments(fig, "ci-redis-8-p99-y"), _segments(fig, "ci-redis-8-p99-x")
    assert np.allclose(alike_y, ((1003.0, 30.0), (1003.0, 30.0)), rtol=1e-12)
    assert np.allclose(alike_x, ((1003.0, 30.0), (1003.0, 30.0)), rtol=1e-12)
    assert other_x == ((1450.0, 42.0), (1450.0, 42.0))  # (0 + 2900) / 2 ops/s, no throughput interval
    lo, hi = _t_interval([40000.0, 44000.0])
    assert np.allclose(other_y, ((1450.0, lo / 1000), (1450.0, hi / 1000)), rtol=1e-9)


def test_the_throughput_axis_starts_at_zero_and_the_legend_sits_below_the_axis_label_in_three_rows():
    """The x axis starts at 0 ops/s (its 0 tick shown); the legend below the axes, one row per 4 entries, is
    clear of the x axis's label and ticks as the renderer draws them, with five targets (10 entries, 3 rows)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    one = _experiment()
    five = Experiment(Path("/nonexistent"), one.manifest,
                      pd.concat([one.runs.assign(target=t) for t in "abcde"], ignore_index=True),
                      pd.DataFrame(), pd.DataFrame(), pd.DataFrame())
    fig = rate_latency_figure(five, "workload-b", {t: "#d62728" for t in "abcde"})
    assert fig is not None
    ax = fig.axes[0]
    assert ax.get_xlim()[0] == 0
    r = FigureCanvasAgg(fig).get_renderer()
    fig.draw(r)
    axis = ax.xaxis.get_tightbbox(r)
    legend = fig.legends[-1].get_window_extent(r)
    assert legend.y1 < axis.y0, (legend, axis)  # wholly below the label
    assert legend.y0 >= 0  # inside the figure


def test_the_p99_curve_is_in_the_axis_unit_and_an_slo_search_draws_its_limit_and_its_found_rate_at_the_top():
    """p99 up to 2.1 s: the axis is in ms, each point the mean p99 of its rate's repetitions / 1,000 (unpaced
    last); a search for p99 ≤ 50 ms draws that limit as a line at 50 and names its found rate at the axes' top."""
    import dataclasses

    exp = _experiment()
    search = {"workload": "workload-b", "target": "redis", "slo": "p99<=50ms", "found_rate": 1500.0, "tried": []}
    exp = dataclasses.replace(exp, manifest=dataclasses.replace(exp.manifest, slo_searches=[search]))
    fig = rate_latency_figure(exp, "workload-b", {"redis": "#0072B2"})
    assert fig is not None
    ax = fig.axes[0]
    (p99,) = [ln for ln in ax.get_lines() if ln.get_linestyle() == "-" and ln.get_marker() == "o"]
    means = [float(np.mean([v[2] for v in POINTS[r]])) / 1000 for r in (1000.0, 2000.0, math.nan)]
    assert list(p99.get_ydata()) == pytest.approx(means) and ax.get_ylabel().startswith("latency (ms")
    limits = [ln for ln in ax.get_lines() if ln.get_linestyle() == "-."]
    assert len(limits) == 1 and list(limits[0].get_ydata()) == [50.0, 50.0]
    (found,) = [a for a in ax.texts if a.get_text() == "redis: 1,500 ops/s"]
    assert found.xy == (1500.0, 1)  # x in data, y the axes' top (axes fraction)


def test_a_workload_is_rate_swept_only_at_two_offered_rates_or_more_unpaced_counting_as_one():
    from types import SimpleNamespace

    from ycsbctl.report.rate_plots import rate_swept

    def swept(rates: list[float]) -> bool:
        runs = pd.DataFrame({"workload": "w", "phase": "run", "target_rate": rates})
        return rate_swept(SimpleNamespace(runs=runs), "w")  # type: ignore[arg-type]

    assert [swept(r) for r in ([1000.0, 1000.0], [1000.0, 2000.0], [math.nan, 1000.0], [math.nan, math.nan])] == [
        False, True, True, False]


def test_the_rate_figure_marks_each_tried_rate_that_has_a_latency():
    from ycsbctl.report.rate_plots import rate_latency_figure
    runs = pd.DataFrame({"workload": "w", "phase": "run", "target": "a", "threads": 8, "target_rate": [1000.0, 2000.0],
                         "throughput_ops": [990.0, 1980.0], "all_p50_us": [100.0, 150.0], "all_p99_us": [400.0, 900.0]})
    tried = [{"achieved_ops": 990.0, "latency_us": 450.0, "passed": True},
             {"achieved_ops": None, "latency_us": 700.0, "passed": True},
             {"achieved_ops": 1980.0, "latency_us": 15_000.0, "passed": False},
             {"achieved_ops": 2500.0, "latency_us": float("nan"), "passed": False},
             {"achieved_ops": 2600.0, "latency_us": None, "passed": False}]
    searches = [{"workload": "w", "target": "a", "tried": tried, "slo": "p99<10ms", "found_rate": 1000.0}]
    fig = rate_latency_figure(FigureFolder(runs, searches=searches), "w", {"a": "#123456"})  # type: ignore[arg-type]
    assert fig is not None
    marks = [tuple(float(v) for v in c.get_offsets()[0]) for c in fig.axes[0].collections if len(c.get_offsets())]
    assert marks == [(990.0, 450.0), (1980.0, 15_000.0)]
