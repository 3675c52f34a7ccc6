"""The figures' shared style (report/plot_style.py): a latency axis's unit, when an axis is logarithmic,
and each operation's line style."""

from __future__ import annotations

import pandas as pd


def test_a_log_axis_from_targets_more_than_20_times_apart():
    from ycsbctl.report.plot_style import far_apart
    assert far_apart(pd.Series([10.0, 201.0, 0.0]))  # 20.1x (a zero is no value)
    assert not far_apart(pd.Series([10.0, 199.0]))


def test_each_operations_line_style_is_its_own_and_every_dash_and_gap_of_a_pattern_is_drawn():
    """A dash pattern (offset, (on, off, ...)) with a 0 in it draws no dash or no gap there: it looks like another
    pattern (a long dash and a dot with a 0-point gap is a long dash)."""
    from ycsbctl.report.plot_style import OP_STYLES

    styles = list(OP_STYLES.values())
    assert len({repr(s) for s in styles}) == len(styles)
    for style in styles:
        if isinstance(style, tuple):
            _, dashes = style
            assert len(dashes) % 2 == 0 and all(d > 0 for d in dashes), style


def test_a_latency_axis_turns_to_ms_at_20000_us():
    from ycsbctl.report.plot_style import latency_unit

    assert latency_unit(20_000.0) == (1000.0, "ms")
    assert latency_unit(19_999.5) == (1.0, "µs")
    assert latency_unit(float("nan")) == (1.0, "µs")


def test_two_labels_on_one_point_are_moved_apart_upwards_keeping_their_x():
    """Two annotations drawn on the same point (two targets measured alike) overlap as drawn; spread: their boxes, as
    the figure's own renderer draws them, are apart, the upper one above, both at the point's x."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from ycsbctl.report.plot_style import spread_labels

    fig = Figure(figsize=(6, 4))
    ax = fig.add_subplot()
    ax.plot([8, 16], [1.0, 2.0])
    labels = [ax.annotate(text, (16, 2.0), xytext=(0, 6), textcoords="offset points") for text in ("redis", "valkey")]
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)  # as the report's figures are by their legend's fitting before their labels are spread
    before = [a.get_window_extent(renderer) for a in labels]
    assert before[0].overlaps(before[1])
    spread_labels(fig, labels)
    after = [a.get_window_extent(renderer) for a in labels]
    assert not after[0].overlaps(after[1]) and after[1].y0 > before[1].y0
    assert [a.xyann[0] for a in labels] == [0, 0] and labels[0].xyann == (0, 6)
