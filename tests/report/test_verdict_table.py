"""The verdict table (report/verdict_table.py): a throughput interval's half width as text."""

from __future__ import annotations


def test_a_throughput_interval_below_one_op_per_second_still_has_its_half_width():
    from ycsbctl.report.verdict_table import noise_text

    # sqrt(2.0 / 0.5) = 2: the interval spans ±100 % of its geometric centre (1 op/s)
    assert noise_text({"throughput_low": 0.5, "throughput_high": 2.0})[0] == "±100.0%"
    assert noise_text({"throughput_low": 0.0, "throughput_high": 2.0})[0] == "—"
