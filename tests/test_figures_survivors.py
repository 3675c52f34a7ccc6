"""Survivors of the whole-map mutation sample (seed 882041) in report/, results/, telemetry/, experiment/
and engine/, each killed by a value worked out here from hand-built irregular inputs (a percentile whose
neighbours differ, a ladder of at least two points, a boundary a nudged constant crosses); each module's map
in scripts/mutation.py lists this file first."""

from __future__ import annotations

import pandas as pd

from ycsbctl.results import histogram as hdr
from ycsbctl.results.client_lag import client_lag_warning, schedule_lag_warning
from ycsbctl.results.model import OpSummary, PhaseResult


def _summary(name: str, values: dict[int, int]) -> OpSummary:
    """A measurement of ``values`` (µs -> how many)."""
    h = hdr.new_histogram()
    for v, n in values.items():
        h.record_value(v, n)
    return OpSummary.from_histogram(name, h)


# 100,000 values: p99 = 1 ms, p99.9 = 5 ms, p99.99 = 40 ms, max 80 ms (every neighbour differs)
_OPS = {50: 98_990, 1_000: 900, 5_000: 90, 40_000: 15, 80_000: 5}


def test_the_client_lag_rules_read_the_p99_9_and_p99_they_name_not_a_neighbour():
    ops = _summary("READ", _OPS)
    assert [round(ops.percentile(p), -2) for p in (99.0, 99.9, 99.99)] == [1_000, 5_000, 40_000]  # HDR's 3 digits
    # loop lag: p99 0.1 ms, p99.9 2.6 ms, p99.99 30 ms, max 30 ms (under half the slowest operation's 80 ms)
    lag = _summary("CLIENT-LAG", {10: 98_990, 100: 900, 2_600: 100, 30_000: 10})
    r = PhaseResult("run", 8, 1000.0, 100_000, ops={"READ": ops}, client_lag=lag)
    said = client_lag_warning(r)
    assert said is not None and "its p99.9 (2.60 ms) is 260% of the operations' p99 (1.00 ms)" in said, said
    assert "maximum" not in said
    # late starts: p99 0.6 ms, p99.9 and above 20 ms; held against the operations' p99 of 1 ms: 60 %
    r.schedule_lag = _summary("SCHEDULE-LAG", {10: 98_900, 600: 1_000, 20_000: 100})
    said = schedule_lag_warning(r)
    assert said is not None and "schedule lag p99 (0.60 ms) is 60% of the operations' p99 (1.00 ms)" in said, said


def test_the_single_command_named_is_the_disturbance_that_stalled_longest():
    from ycsbctl.experiment.explain import mean_latency_us, single_command
    nan = float("nan")
    events = pd.DataFrame({
        "event": ["del:a@2s", "del:b@4s", "del:c@6s", "del:d@8s"],
        "started_s": [2.0, 4.04, 6.0, 8.0], "command_s": [0.05, 1.2345, 0.31, 0.0999],
        "server_s": [0.04, nan, 0.3, 0.09], "stall_s": [0.0999, 1.25, 0.3, nan], "ops_lost": [10, 12_345, 300, 1]})
    assert single_command(events) == ("single command: del:b@4s at 4.0 s held the server 1,234 ms, a 1.25 s stall "
                                      "in which every client waited (12,345 operations lost)")
    # the shortest that counts is 0.1 s, and then the server's own time is said
    events.loc[0, "stall_s"], events.loc[1, "stall_s"], events.loc[2, "stall_s"] = 0.1, 0.05, nan
    assert single_command(events) == ("single command: del:a@2s at 2.0 s held the server 50 ms (SLOWLOG 40 ms), a "
                                      "0.10 s stall in which every client waited (10 operations lost)")
    events["stall_s"] = [0.0999, 0.05, nan, nan]
    assert single_command(events) is None
    # the mean latency weighs each measurement by its operations: (3 x 100 + 1 x 500) / 4 = 200 µs
    r = PhaseResult("run", 8, 1000.0, 4, ops={"READ": _summary("READ", {100: 3}),
                                                "UPDATE": _summary("UPDATE", {500: 1})})
    assert mean_latency_us(r) == 200.0
