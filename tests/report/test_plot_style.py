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
