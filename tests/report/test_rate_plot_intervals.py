"""The latency-vs-offered-rate figure draws interval bars where points were repeated (read from the
rendered SVG), and says it draws none when each point ran once."""

from __future__ import annotations

import io
import math
import re
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from ycsbctl.report.plot_style import latency_unit
from ycsbctl.report.rate_plots import rate_latency_figure

RATES = (1_000.0, 2_000.0, 4_000.0)


def _exp(reps: int) -> SimpleNamespace:
    rows = []
    for target, f in (("a", 1.0), ("b", 1.3)):
        for rate in RATES:
            for r in range(reps):
                w = 1 + 0.05 * (r - 1)
                rows.append({"workload": "w", "phase": "run", "target": target, "threads": 8, "repetition": r + 1,
                             "status": "ok", "target_rate": rate, "throughput_ops": rate * (0.99 + 0.01 * r),
                             "all_p50_us": 100 * f * w, "all_p99_us": 400 * f * w * rate / 1_000})
    return SimpleNamespace(runs=pd.DataFrame(rows), manifest=SimpleNamespace(slo_searches=[]))


def _svg(exp: SimpleNamespace) -> tuple[str, str]:
    """The figure as SVG, and its note on the bars."""
    fig = rate_latency_figure(exp, "w", {"a": "#1f77b4", "b": "#d62728"})
    assert fig is not None
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    note = next(t.get_text() for ax in fig.axes for t in ax.texts if t.get_gid() == "interval-note")
    return buf.getvalue(), note


def _segments(svg: str, gid: str) -> list[tuple[float, float, float, float]]:
    """The line segments of the group ``gid`` (each bar one ``M x y L x y`` path)."""
    group = re.search(rf'<g id="{re.escape(gid)}">(.*?)</g>', svg, re.S)
    assert group, gid
    return [tuple(map(float, m)) for m in re.findall(r'd="M ([\d.]+) ([\d.]+)\s+L ([\d.]+) ([\d.]+)', group.group(1))]


def test_repeated_points_have_a_bar_per_point_and_percentile_in_the_svg():
    svg, note = _svg(_exp(3))
    for target in ("a", "b"):
        for pct in ("p99", "p50"):
            vertical, horizontal = _segments(svg, f"ci-{target}-8-{pct}-y"), _segments(svg, f"ci-{target}-8-{pct}-x")
            assert len(vertical) == len(horizontal) == len(RATES)
            assert all(x0 == pytest.approx(x1) and y0 != pytest.approx(y1) for x0, y0, x1, y1 in vertical)
            assert all(y0 == pytest.approx(y1) and x0 != pytest.approx(x1) for x0, y0, x1, y1 in horizontal)
    assert note == "bars: 95 % interval of the repetitions"


def test_a_bar_spans_scipys_interval_of_the_repetitions():
    from scipy import stats as sps

    exp = _exp(3)
    fig = rate_latency_figure(exp, "w", {"a": "#1f77b4", "b": "#d62728"})
    col = next(c for ax in fig.axes for c in ax.collections if c.get_gid() == "ci-a-8-p99-y")
    div, _unit = latency_unit(float(exp.runs["all_p99_us"].max()))
    lows = [min(y0, y1) * div for (_, y0), (_, y1) in col.get_segments()]
    highs = [max(y0, y1) * div for (_, y0), (_, y1) in col.get_segments()]
    runs = exp.runs[exp.runs["target"] == "a"]
    for rate, lo, hi in zip(RATES, lows, highs):
        logs = np.log(runs.loc[runs["target_rate"] == rate, "all_p99_us"].to_numpy())
        want = sps.t.interval(0.95, len(logs) - 1, loc=logs.mean(), scale=sps.sem(logs))
        assert (lo, hi) == pytest.approx((math.exp(want[0]), math.exp(want[1])))


def test_one_repetition_draws_no_bar_and_says_so():
    svg, note = _svg(_exp(1))
    assert 'id="ci-' not in svg and 'id="interval-note"' in svg
    assert note.startswith("one repetition per point: no interval")
