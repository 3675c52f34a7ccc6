"""Degraded and failed points stay on the throughput curve, marked, and no two labels of the throughput
figure overlap — checked with matplotlib's own renderer (each annotation's drawn box), on points that
used to put their labels on top of each other: three targets degraded at one thread count with nothing
measured (all drawn at the floor), and two degraded at another with nearly the same throughput."""

from __future__ import annotations

import re

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.text import Annotation

from tests.fixtures.crowded_plot import COLORS, crowded_points
from ycsbctl.report import plots


def _label_boxes(fig) -> list:
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    return [(a.get_text(), a.get_window_extent(renderer)) for a in fig.axes[0].texts if isinstance(a, Annotation)]


def _overlapping(boxes: list) -> list[tuple[str, str]]:
    return [(a, b) for i, (a, x) in enumerate(boxes) for b, y in boxes[:i] if x.overlaps(y)]


def test_no_two_labels_of_the_throughput_figure_overlap(monkeypatch):
    fig = plots.throughput_latency_figure(crowded_points(), "workloadb", "p99", COLORS)
    boxes = _label_boxes(fig)
    assert len(boxes) == 5  # three degraded at 16 threads, two at 32
    assert _overlapping(boxes) == []
    monkeypatch.setattr(plots, "spread_labels", lambda fig, labels: None)  # as it was: the same boxes overlap
    assert _overlapping(_label_boxes(plots.throughput_latency_figure(crowded_points(), "workloadb", "p99", COLORS)))


def test_a_degraded_point_stays_on_its_curve_at_what_it_measured_and_says_so():
    fig = plots.throughput_latency_figure(crowded_points(), "workloadb", "p99", COLORS)
    ax = fig.axes[0]
    labels = {a.get_text(): a.xy for a in ax.texts if isinstance(a, Annotation)}
    assert labels["redis: degraded 1/1"] == (32, 50_000) and labels["valkey: degraded 1/1"] == (32, 50_100)
    floor = [xy for text, xy in labels.items() if text.endswith("nothing measured")]
    assert len(floor) == 3 and len({xy for xy in floor}) == 1 and floor[0][1] < 40_000  # marked, at the bottom
    dotted = [line for line in ax.get_lines() if line.get_linestyle() == ":"]
    assert {tuple(line.get_xdata()) for line in dotted} == {(8, 32)}  # redis and valkey: ok at 8, degraded at 32
    assert any(re.search("failed or degraded point", t.get_text()) for t in fig.legends[0].get_texts())


def test_the_legend_of_five_targets_and_a_failed_point_fits_in_the_figure_below_the_axis():
    """Five targets (ten entries) and the failed-point entry in four columns were 1,148 px wide in a 900 px figure,
    both ends cut off (fault43g): the legend takes fewer columns, inside the figure as its renderer draws it, and the
    axes make room for its rows (clear of the x axis's label and ticks)."""
    import math

    import pandas as pd

    from tests.fixtures.crowded_plot import _point

    names = ["redis-7.2-aof", "valkey-8.0-aof", "keydb-6.3-aof", "dragonfly-1.2", "garnet-1.0-aof"]
    rows = [_point(t, th, "ok", 10_000 * (1 + i) * th, 0) for i, t in enumerate(names) for th in (8, 16)]
    rows[-1] = _point(names[-1], 16, "failed", math.nan, math.nan)
    colors = dict(zip(names, ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00"], strict=True))
    fig = plots.throughput_latency_figure(pd.DataFrame(rows), "workloadb", "p99", colors)
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    (legend,) = fig.legends
    box = legend.get_window_extent(renderer)
    assert len(legend.get_texts()) == 11
    assert box.x0 >= 0 and box.x1 <= fig.bbox.width and box.y0 >= 0, (box, fig.bbox)
    assert box.y1 < fig.axes[0].xaxis.get_tightbbox(renderer).y0  # below the axis, not over it
    columns = len({round(t.get_window_extent(renderer).x0) for t in legend.get_texts()})
    assert 2 <= columns < 4  # as many as fit: one more is wider than the figure
    wider = fig.legend(handles=legend.legend_handles, ncol=columns + 1, frameon=False, fontsize=8.5)
    assert wider.get_window_extent(renderer).width > fig.bbox.width
    assert fig.subplotpars.bottom == pytest.approx(0.16 + 0.035 * math.ceil(11 / columns))  # room for its rows


def test_a_legend_whose_entries_are_each_wider_than_half_the_figure_takes_one_column():
    """The narrowing goes down to one column (four entries, four rows), one column at a time, and no further."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    from ycsbctl.report.plot_style import legend_below

    fig = Figure(figsize=(4, 3))
    handles = [Line2D([], [], label=f"target {i}: " + "a long name of a server variant " * 2) for i in range(4)]
    assert legend_below(fig, handles, 4) == 4
    renderer = FigureCanvasAgg(fig).get_renderer()
    (legend,) = fig.legends
    assert len({round(t.get_window_extent(renderer).x0) for t in legend.get_texts()}) == 1


@pytest.mark.parametrize("degraded", [1, 2, 3])
def test_degraded_points_are_each_named_only_while_fewer_than_half_of_the_measured_points(degraded):
    """One target at four thread counts, the first ``degraded`` of them degraded (no ok run; each measured): each is
    named on the figure ("redis: degraded 1/1") only while the degraded ones are fewer than half of the four points
    that measured — one of four is; two or three of four are not, the legend's note says it once for all."""
    import pandas as pd

    from tests.fixtures.crowded_plot import _point

    rows = [_point("redis", th, "degraded" if i < degraded else "ok", 10_000.0 * (i + 1), 10_000.0 * (i + 1))
            for i, th in enumerate((8, 16, 32, 64))]
    fig = plots.throughput_latency_figure(pd.DataFrame(rows), "workloadb", "p99", {"redis": "#0072B2"})
    named = [a.get_text() for a in fig.axes[0].texts if isinstance(a, Annotation)]
    counted = 2 * degraded < len(rows)  # the rule, counted here from the rows
    assert named == (["redis: degraded 1/1"] * degraded if counted else [])
    assert plots.DEGRADED_NOTE in [t.get_text() for t in fig.legends[0].get_texts()]
