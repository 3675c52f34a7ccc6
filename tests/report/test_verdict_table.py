"""The verdict table (report/verdict_table.py): a throughput interval's half width as text."""

from __future__ import annotations


def test_a_throughput_interval_below_one_op_per_second_still_has_its_half_width():
    from ycsbctl.report.verdict_table import noise_text

    # sqrt(2.0 / 0.5) = 2: the interval spans ±100 % of its geometric centre (1 op/s)
    assert noise_text({"throughput_low": 0.5, "throughput_high": 2.0})[0] == "±100.0%"
    assert noise_text({"throughput_low": 0.0, "throughput_high": 2.0})[0] == "—"


def test_the_decision_text_says_how_the_verdicts_were_reached():
    import pandas as pd

    from ycsbctl.report.verdict_table import decision_text
    from ycsbctl.results import looks, stats

    v = pd.DataFrame({"n": [11, 11], "margin_pct": [10.0, 10.0], "margin_source": ["the default"] * 2,
                      "decided_by": [stats.ADJUSTED, "paired t (log ratio per round)"]})
    plan = {"sequential": True, "planned_rounds": 11, "spending": looks.SPENDING, "alpha": 0.05}
    text = decision_text(plan, v)
    last = looks.spent_alpha(0.05, 11, True, 11, looks.SPENDING)
    assert "Lan–DeMets" in text and f"the last one tested at α = {last:.2g}" in text and "11 rounds" in text
    assert "two one-sided tests (each at α: 1 − 2α)" in text and "analysis of covariance" in text
    # a folder written before the scheme: the union bound it was judged by; no adjusted cell: no such sentence
    older = decision_text({"sequential": True, "planned_rounds": 11, "alpha": 0.05}, v.iloc[1:])
    assert "a union bound" in older and "Lan–DeMets" not in older and "covariance" not in older
    assert f"α = {looks.spent_alpha(0.05, 11, True, 11):.2g}" in older


def test_a_cells_busy_rounds_are_counted_in_words_one_round_singular():
    from ycsbctl.report.verdict_table import busy_note

    assert busy_note({"busy_rounds": 1, "n": 1, "host_busy_max_pct": 62.0}) == \
        "1 of 1 round on a busy host (others took up to 62 % of it)"
    assert busy_note({"busy_rounds": 1, "n": 2, "host_busy_max_pct": float("nan")}) == "1 of 2 rounds on a busy host"
    assert busy_note({"busy_rounds": 2, "n": float("nan")}) == "2 of 2 rounds on a busy host"  # n unknown
    assert busy_note({"busy_rounds": 0, "n": 5}) == "" and busy_note(None) == ""
