"""The throughput and spectrum figures (report/plots.py) read back from matplotlib's own artists: their
axes, error bars, degraded points, percentile ticks, titles and context line."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from tests.fixtures.figure_folders import FigureFolder
from ycsbctl.results import histogram as hdr


def _spectrum(counts: dict[int, int], runs_of: dict[str, int] | None = None):
    """The spectrum's axes of each target's READ histogram of ``counts`` (µs: how many), ``runs_of`` its runs
    (target -> how many; one target "a" of one run by default)."""
    from ycsbctl.report.plots import spectrum_figure

    runs_of = runs_of or {"a": 1}

    h = hdr.new_histogram()
    for v, n in counts.items():
        h.record_value(v, n)

    class Exp(FigureFolder):
        targets = list(runs_of)

        def run_doc(self, run_id: str) -> dict:
            return {"histograms": {"READ": {}}}

        def merged_histogram(self, ids: list, op: str):
            return h

    ids = [(t, f"{t}{i}") for t, n in runs_of.items() for i in range(n)]
    runs = pd.DataFrame({"run_id": [r for _, r in ids], "workload": "w", "phase": "run", "threads": 8, "status": "ok",
                         "target": [t for t, _ in ids]})
    fig = spectrum_figure(Exp(runs), "w", 8, {"a": "#123456"})  # type: ignore[arg-type]
    assert fig is not None
    return fig.axes[0]


def test_a_percentile_under_a_microsecond_is_drawn_at_one_on_the_log_axis_not_left_out():
    """HDR records a reply under 1 µs as 0: on the log axis the spectrum draws it at 1 µs (0 has no place there)."""
    ax = _spectrum({0: 6_000, 100: 4_000})
    (line,) = ax.lines
    ys = [float(y) for y in line.get_ydata()]
    assert (ys[0], ys[-1]) == (1.0, 100.0) and len(ys) == 48 and min(ys) == 1.0
    # between the decades, the 2s and 5s are labelled (200 µs, 5 ms), the others not
    from ycsbctl.report.plot_style import duration

    minor = ax.yaxis.get_minor_formatter()
    assert [minor(v, 0) for v in (200.0, 300.0, 5_000.0, 7_000.0)] == [duration(200.0), "", duration(5_000.0), ""]


def test_the_spectrums_percentile_ticks_stand_at_their_nines():
    """Each tick ``pNN`` at x = -log10(1 - NN/100), and the drawn curve there is the histogram's percentile."""
    import math

    ax = _spectrum({100: 5_000, 300: 4_000, 900: 900, 1_500: 90, 1_900: 9, 2_000: 1})
    ticks = dict(zip([t.get_text() for t in ax.get_xticklabels()], ax.get_xticks()))
    assert ticks.keys() == {"p50", "p90", "p99", "p99.9", "p99.99"}
    for label, x in ticks.items():
        assert math.isclose(x, -math.log10(1 - float(label[1:]) / 100), abs_tol=1e-9), label
    (line,) = ax.lines
    xs, ys = list(line.get_xdata()), list(line.get_ydata())
    assert math.isclose(xs[0], ticks["p50"]) and math.isclose(xs[-1], ticks["p99.99"])
    assert (ys[0], ys[-1]) == (100, 1_900)  # the 5,000th of 10,000 and the 9,999th


def test_on_a_log_axis_a_point_that_measured_nothing_sits_at_half_the_smallest_positive_throughput():
    """Targets 10^5 times apart (a log axis): the failed point that measured nothing is drawn at half the smallest
    positive throughput (0.8 ops/s: 0.4), not at a point's 0 ops/s nor at the smallest above 1; the axis starts
    1.5 times below it."""
    from ycsbctl.report.plots import throughput_latency_figure

    rows = []
    for target, tps in (("redis", (110_000.0, 120_000.0, 115_000.0)), ("slow", (0.8, 0.0, math.nan))):
        for t, tp in zip((8, 16, 32), tps):
            ok = t == 8 or target == "redis"
            rows.append(dict(target=target, workload="w", threads=t, reps=1, ok=int(ok),
                             status="ok" if ok else "failed",
                             throughput_mean=tp if ok else math.nan, throughput_seen=tp, throughput_min=tp,
                             throughput_max=tp,
                             latency_mean=500.0, latency_min=500.0, latency_max=500.0, bottleneck="latency"))
    fig = throughput_latency_figure(pd.DataFrame(rows), "w", "p99", {"redis": "#0072B2", "slow": "#E69F00"})
    assert fig is not None
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    nothing = [a.xy for a in ax.texts if a.get_text() == "slow: failed 1/1, nothing measured"]
    assert nothing == [(32, 0.4)]
    assert ax.get_ylim()[0] == 0.4 / 1.5


def test_a_linear_latency_axis_starts_at_zero_and_leaves_a_tenth_above_the_autoscaled_top():
    """Two targets under 20x apart: the latency axis is linear, from 0 to 1.1 x matplotlib's autoscaled top (the
    largest latency plus axes.ymargin of the data's range): room above the highest point for its label."""
    from matplotlib import rcParams

    from ycsbctl.report.plots import throughput_latency_figure

    rows = [dict(target=target, workload="w", threads=t, reps=1, ok=1, status="ok", throughput_mean=tp,
                 throughput_seen=tp, throughput_min=tp, throughput_max=tp, latency_mean=lat * t / 8,
                 latency_min=lat * t / 8, latency_max=lat * t / 8, bottleneck="latency")
            for target, tp, lat in (("redis", 110_000.0, 200.0), ("mongodb", 60_000.0, 450.0)) for t in (8, 16, 32)]
    fig = throughput_latency_figure(pd.DataFrame(rows), "w", "p99", {"redis": "#0072B2", "mongodb": "#E69F00"})
    assert fig is not None
    ax2 = fig.axes[1]
    assert ax2.get_yscale() == "linear"
    low, high = 200.0, 450.0 * 32 / 8  # µs: under 2 ms the axis stays in µs
    assert ax2.get_ylim() == (0, pytest.approx(1.1 * (high + rcParams["axes.ymargin"] * (high - low)), rel=1e-9))


def test_the_context_line_says_the_repetitions_from_two_on():
    from ycsbctl.report.plots import context_line
    from ycsbctl.results.schema import Manifest

    def line(repeat: int) -> str:
        return context_line(Manifest.from_dict({"experiment_id": "x", "plan": {"repeat": repeat}}))

    assert "2 repetitions (mean, bars: 95 % interval)" in line(2)
    assert "repetition" not in line(1)


def _study_points(degraded_seen: float) -> pd.DataFrame:
    """redis ok at 8/16/32 threads (≤ 120,000 ops/s); mongodb ok at 8 and 16, degraded at 32 having measured
    ``degraded_seen`` ops/s; five targets' worth of legend (three more, ok, alike)."""
    rows = []
    for target, tps in (("redis", (100_000.0, 115_000.0, 120_000.0)), ("mongodb", (60_000.0, 80_000.0, degraded_seen)),
                        ("a", (70_000.0,) * 3), ("b", (75_000.0,) * 3), ("c", (65_000.0,) * 3)):
        for t, tp in zip((8, 16, 32), tps):
            ok = not (target == "mongodb" and t == 32)
            rows.append(dict(target=target, workload="w", threads=t, reps=2, ok=2 if ok else 0,
                             status="ok" if ok else "degraded", throughput_mean=tp if ok else math.nan,
                             throughput_seen=tp, throughput_min=tp, throughput_max=tp,
                             latency_mean=500.0 if ok else math.nan,
                             latency_min=500.0, latency_max=500.0, bottleneck="latency"))
    return pd.DataFrame(rows)


def test_a_degraded_point_that_measured_more_than_any_ok_one_is_on_its_dotted_curve_and_under_the_axis_top():
    """Only mongodb has a point beyond its ok ones: one dotted curve (its), through its degraded 32-thread point,
    and the throughput axis reaches that point's 200,000 ops/s (the ok points end at 120,000)."""
    from ycsbctl.report.plots import throughput_latency_figure

    colors = {"redis": "#0072B2", "mongodb": "#E69F00", "a": "#009E73", "b": "#CC79A7", "c": "#56B4E9"}
    fig = throughput_latency_figure(_study_points(200_000.0), "w", "p99", colors)
    assert fig is not None
    ax = fig.axes[0]
    dotted = [ln for ln in ax.get_lines() if ln.get_linestyle() == ":"]
    assert len(dotted) == 1 and list(dotted[0].get_ydata()) == [60_000.0, 80_000.0, 200_000.0]
    assert ax.get_yscale() == "linear" and ax.get_ylim()[1] >= 200_000.0
    # ten handles and the failed one: three rows of legend below the axes, clear of the x axis's label
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    r = FigureCanvasAgg(fig).get_renderer()  # the x axis's ticks and label, placed without drawing the figure
    assert not fig.legends[-1].get_window_extent(r).overlaps(ax.xaxis.get_tightbbox(r))


def test_a_log_latency_axis_leaves_a_factor_of_two_above_its_highest_point():
    """Latencies 100 times apart (a log axis): its top is twice matplotlib's autoscaled one, room above the slowest
    point (10,000 µs) for its label."""
    from ycsbctl.report.plots import throughput_latency_figure

    rows = [dict(target=target, workload="w", threads=t, reps=1, ok=1, status="ok", throughput_mean=tp,
                 throughput_seen=tp,
                 throughput_min=tp, throughput_max=tp, latency_mean=lat, latency_min=lat, latency_max=lat,
                 bottleneck="latency")
            for target, tp, lat in (("redis", 110_000.0, 100.0), ("slow", 60_000.0, 10_000.0)) for t in (8, 16)]
    fig = throughput_latency_figure(pd.DataFrame(rows), "w", "p99", {"redis": "#0072B2", "slow": "#E69F00"})
    assert fig is not None
    ax2 = fig.axes[1]
    highest = max(float(y) for ln in ax2.get_lines() for y in ln.get_ydata())  # the 10,000 µs, in the axis's unit
    assert ax2.get_yscale() == "log" and ax2.get_ylim()[1] >= 2 * highest


def test_the_spectrums_title_says_merged_repetitions_when_any_target_has_several_and_its_legend_hugs_the_axes():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    def title(ax) -> str:
        return " ".join(t.get_text() for t in ax.figure.texts)

    assert "(all repetitions merged)" in title(_spectrum({100: 10}, {"a": 1, "b": 2}))
    ax = _spectrum({100: 10}, {"a": 1, "b": 1})
    assert "(one run)" in title(ax)
    # two handles, one legend row: the axes' x label sits just above it (no empty band of the figure between)
    fig = ax.figure
    r = FigureCanvasAgg(fig).get_renderer()  # the x axis's ticks and label, placed without drawing the figure
    legend, axis = fig.legends[-1].get_window_extent(r), ax.xaxis.get_tightbbox(r)
    assert 0 <= axis.y0 - legend.y1 < 0.08 * fig.bbox.height


def test_error_bars_are_the_interval_else_the_range_around_the_mean_in_the_plots_unit() -> None:
    """``_bars``: the lower and upper lengths (mean − low, high − mean) of the 95 % interval where a point has one,
    else of its min–max range, divided by ``div`` (µs to ms: 1,000), never negative."""
    import pandas as pd

    from ycsbctl.report.plots import _bars

    g = pd.DataFrame({"latency_mean": [2000.0, 5000.0, 900.0], "latency_ci_low": [1500.0, None, 1000.0],
                      "latency_ci_high": [2600.0, None, 950.0], "latency_min": [1000.0, 4000.0, 800.0],
                      "latency_max": [3000.0, 7000.0, 990.0]})
    low, high = _bars(g, "latency", 1000.0)
    assert low.tolist() == pytest.approx([0.5, 1.0, 0.0]) and high.tolist() == pytest.approx([0.6, 2.0, 0.05])
    no_ci = _bars(g.drop(columns=["latency_ci_low", "latency_ci_high"]), "latency", 1000.0)
    assert no_ci[0].tolist() == pytest.approx([1.0, 1.0, 0.1]) and no_ci[1].tolist() == pytest.approx([1.0, 2.0, 0.09])
