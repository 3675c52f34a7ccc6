"""A point's explanation (experiment/explain.py): the disturbance named and a busy host named."""

from __future__ import annotations

import pandas as pd

from tests.fixtures.summaries import op_summary
from ycsbctl.results.model import PhaseResult


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
    # no events table, an empty one, or one without stalls measured (no 100 ms series): nothing is named
    for nothing in (None, pd.DataFrame(), events.drop(columns="stall_s")):
        assert single_command(nothing) is None
    # the mean latency weighs each measurement by its operations: (3 x 100 + 1 x 500) / 4 = 200 µs
    r = PhaseResult("run", 8, 1000.0, 4, ops={"READ": op_summary("READ", {100: 3}),
                                                "UPDATE": op_summary("UPDATE", {500: 1})})
    assert mean_latency_us(r) == 200.0


def test_a_busy_host_names_the_first_other_benchmark():
    from ycsbctl.experiment.explain import host_busy

    assert host_busy(["pid 7: redis-benchmark", "pid 9: memtier"], None) == \
        "another benchmark ran on this host meanwhile (pid 7: redis-benchmark)"
