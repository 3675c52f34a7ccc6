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
