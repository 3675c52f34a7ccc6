"""The scaling model in the report, on a folder whose ladders follow a known law: the fixture's closed
loop ``peak · N / (N + half)`` is the Universal Scalability Law with σ = 1 / (1 + half), κ = 0 and a
ceiling of ``peak`` ops/s (tests/fixtures/experiments.py), measured with ±3 % noise."""

from __future__ import annotations

import re

import pytest

from tests.fixtures.experiments import MODELS, build_experiment
from ycsbctl.report.plots import throughput_latency_figure
from ycsbctl.report.summary import findings
from ycsbctl.results.frames import load, points

LADDER = (1, 2, 4, 8, 16, 32)


def test_each_ladder_gets_the_law_of_its_model_and_the_plot_draws_it(tmp_path):
    folder = build_experiment(tmp_path, "exp-usl", threads=LADDER, failed=False, client_bound=False, skipped=False)
    exp = load(folder)
    pts = points(exp.runs)
    lines = [f for f in findings(exp, pts) if "scaling model" in f]
    assert len(lines) == 2, lines
    for target in ("redis", "mongodb"):
        m = MODELS[target]
        line = next(f for f in lines if f.startswith(f"workloadb: {target}: "))
        sigma = float(re.search(r"σ ([0-9.]+)", line).group(1))
        assert sigma == pytest.approx(1 / (1 + m.half), abs=0.02), line
        ceiling = re.search(r"levels off towards ([0-9.]+)k ops/s", line)  # κ 0: no peak, a ceiling
        assert ceiling and float(ceiling.group(1)) * 1000 == pytest.approx(m.peak, rel=0.1), line
    fig = throughput_latency_figure(pts, "workloadb", "p99", {"redis": "#d62728", "mongodb": "#1f77b4"})
    ax = fig.axes[0]
    fits = [ln for ln in ax.get_lines() if ln.get_linestyle() == "-."]
    assert len(fits) == 2 and all(min(ln.get_xdata()) == 1 and max(ln.get_xdata()) == 32 for ln in fits)
    assert "Universal Scalability Law fit" in [t.get_text() for t in fig.legends[0].get_texts()]


def test_three_thread_counts_say_too_few_and_one_says_nothing(tmp_path):
    three = load(build_experiment(tmp_path / "a", "exp-3", threads=(8, 16, 32), failed=False, skipped=False))
    said = [f for f in findings(three, points(three.runs)) if "scaling model" in f]
    assert said == ["workloadb: redis, mongodb: scaling model: too few thread counts (3; the law needs 4)."]
    one = load(build_experiment(tmp_path / "b", "exp-1", threads=(8,), failed=False, skipped=False))
    assert not [f for f in findings(one, points(one.runs)) if "scaling model" in f]


def _pts(rows: list[tuple[str, str, int, float, str, float | None]]):
    import pandas as pd

    return pd.DataFrame(rows, columns=["workload", "target", "threads", "throughput_mean", "status", "target_rate"])


def test_a_ladder_of_two_thread_counts_is_said_in_the_given_target_order_and_alike_ladders_share_a_line():
    """In memory, no folder: two thread counts are a ladder (too few for the law, said), one is not; the targets in
    the order given, not the frame's; workloads whose ladders read the same share a line; a paced or failed point is
    no point of the ladder."""
    from ycsbctl.report.scaling_report import scaling_findings

    rows = [("wa", t, n, 1000.0 * n, "ok", None) for t in ("valkey", "redis") for n in (1, 2)]
    rows += [("wb", t, n, 1000.0 * n, "ok", None) for t in ("valkey", "redis") for n in (1, 2)]
    rows += [("wa", "mongodb", 1, 500.0, "ok", None), ("wa", "mongodb", 2, 900.0, "failed", None),
             ("wa", "mongodb", 4, 900.0, "ok", 800.0)]
    said = scaling_findings(_pts(rows), ["redis", "valkey", "mongodb"])
    assert said == ["wa, wb: redis, valkey: scaling model: too few thread counts (2; the law needs 4)."], said


def test_the_fitted_curve_spans_the_ok_unpaced_thread_counts_only():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ycsbctl.report.scaling_report import draw_fit

    law = [9_000.0 * n / (1 + 0.04 * (n - 1) + 0.0008 * n * (n - 1)) for n in LADDER]
    rows = [("w", "redis", n, x, "ok", None) for n, x in zip(LADDER, law)]
    rows += [("w", "redis", 64, 10.0, "failed", None), ("w", "redis", 128, 10.0, "ok", 5_000.0)]
    fig, ax = plt.subplots()
    try:
        assert draw_fit(ax, _pts(rows), "#d62728")
        (line,) = ax.get_lines()
        assert min(line.get_xdata()) == 1 and max(line.get_xdata()) == 32 and len(line.get_xdata()) == 100
        # a thin dash-dot line under the measured points (zorder 2), as the legend's "Universal Scalability Law fit"
        assert (line.get_linestyle(), line.get_linewidth(), line.get_alpha(), line.get_zorder()) == ("-.", 1.0, 0.8, 2)
        assert max(line.get_ydata()) == pytest.approx(max(law), rel=0.02)  # the law's own curve, not the bad points'
        assert not draw_fit(ax, _pts(rows[:3]), "#d62728")  # three points: too few, nothing drawn
    finally:
        plt.close(fig)
