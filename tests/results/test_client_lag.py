"""The client-lag rules (results/client_lag.py) on hand-built measurements whose percentiles all differ."""

from __future__ import annotations

from tests.fixtures.summaries import op_summary
from ycsbctl.results.client_lag import client_lag_warning, schedule_lag_warning
from ycsbctl.results.model import PhaseResult

# 100,000 values: p99 = 1 ms, p99.9 = 5 ms, p99.99 = 40 ms, max 80 ms (every neighbour differs)
_OPS = {50: 98_990, 1_000: 900, 5_000: 90, 40_000: 15, 80_000: 5}


def test_the_client_lag_rules_read_the_p99_9_and_p99_they_name_not_a_neighbour():
    ops = op_summary("READ", _OPS)
    assert [round(ops.percentile(p), -2) for p in (99.0, 99.9, 99.99)] == [1_000, 5_000, 40_000]  # HDR's 3 digits
    # loop lag: p99 0.1 ms, p99.9 2.6 ms, p99.99 30 ms, max 30 ms (under half the slowest operation's 80 ms)
    lag = op_summary("CLIENT-LAG", {10: 98_990, 100: 900, 2_600: 100, 30_000: 10})
    r = PhaseResult("run", 8, 1000.0, 100_000, ops={"READ": ops}, client_lag=lag)
    said = client_lag_warning(r)
    assert said is not None and "its p99.9 (2.60 ms) is 260% of the operations' p99 (1.00 ms)" in said, said
    assert "maximum" not in said
    # late starts: p99 0.6 ms, p99.9 and above 20 ms; held against the operations' p99 of 1 ms: 60 %
    r.schedule_lag = op_summary("SCHEDULE-LAG", {10: 98_900, 600: 1_000, 20_000: 100})
    said = schedule_lag_warning(r)
    assert said is not None and "schedule lag p99 (0.60 ms) is 60% of the operations' p99 (1.00 ms)" in said, said


def test_operations_of_one_microsecond_still_have_their_clients_lag_and_late_starts_weighed():
    # an in-process store's 1 µs operations (p99 and max 1 µs): a 3 µs loop lag and 2 µs late starts are 300 % / 200 %
    ops = op_summary("READ", {1: 1_000})
    r = PhaseResult("run", 8, 1000.0, 1_000, ops={"READ": ops}, client_lag=op_summary("CLIENT-LAG", {3: 1_000}))
    r.schedule_lag = op_summary("SCHEDULE-LAG", {2: 1_000})
    said = client_lag_warning(r)
    assert said is not None and "its p99.9 (0.00 ms) is 300% of the operations' p99" in said, said
    assert "its maximum (0.0 ms) is 300% of the slowest operation's" in said, said
    said = schedule_lag_warning(r)
    assert said is not None and "schedule lag p99 (0.00 ms) is 200% of the operations' p99 (0.00 ms)" in said, said


def test_the_client_lag_rule_says_nothing_without_a_lag_histogram():
    assert client_lag_warning(None) is None
    assert client_lag_warning(PhaseResult("run", 8, 1000.0, 100, client_lag=None)) is None
