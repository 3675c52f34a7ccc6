"""The evidence of a point (telemetry/evidence.py): which rows a window holds, and the host, wire, side and
thread-role figures worked out by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from ycsbctl.telemetry.evidence import rows_in


def test_a_strict_window_holds_a_row_nine_tenths_inside_it_not_less():
    from ycsbctl.telemetry.evidence import rows_in
    frame = pd.DataFrame({"source": "s", "t_mono": [float(t) for t in range(1, 11)]})
    # row 7 covers (6, 7]: 0.905 of it inside (3, 6.905) counts, 0.895 inside (3, 6.895) does not
    assert list(rows_in(frame, "s", 1.0, (3.0, 6.905), strict=True)["t_mono"]) == [4.0, 5.0, 6.0, 7.0]
    assert list(rows_in(frame, "s", 1.0, (3.0, 6.895), strict=True)["t_mono"]) == [4.0, 5.0, 6.0]
    # not strict: half of the interval, or of a window shorter than it (0.4 s: 0.2 s of a row)
    assert list(rows_in(frame, "s", 1.0, (3.79, 4.19))["t_mono"]) == [4.0]
    assert list(rows_in(frame, "s", 1.0, (3.81, 4.21))["t_mono"]) == [5.0]
    # rows 2 s apart: nine tenths (1.8 s) of a row's 2 s inside a strict window, half of it (1 s) otherwise
    two = pd.DataFrame({"source": "s", "t_mono": [float(t) for t in range(2, 22, 2)]})
    assert list(rows_in(two, "s", 2.0, (3.0, 9.9), strict=True)["t_mono"]) == [6.0, 8.0, 10.0]  # 10: 1.9 s, 4: 1 s
    assert list(rows_in(two, "s", 2.0, (3.1, 9.9))["t_mono"]) == [6.0, 8.0, 10.0]  # 4: 0.9 s
    assert list(rows_in(two, "s", 2.0, (3.0, 9.9))["t_mono"]) == [4.0, 6.0, 8.0, 10.0]  # 4: 1 s
    # a window of no length: half of nothing is inside every row
    assert len(rows_in(frame, "s", 1.0, (5.0, 5.0))) == 10
    # a frame of rows without sources (telemetry of no sampler that names one) holds none of any source
    assert rows_in(pd.DataFrame({"t_mono": [1.0, 2.0]}), "s", 1.0, None).empty


def test_the_working_roles_a_sides_totals_the_hosts_and_the_wires_means_and_each_operations_cost():
    """The roles worth reading (the busiest, then 0.5 % of a core and more), a side's totals to the
    hundredth, the host's means and its foreign programs' mean share, the wire over readings with
    connections, and each operation's cost."""
    from ycsbctl.telemetry.evidence import host_figures, per_operation, side_totals, wire_figures, working
    from ycsbctl.telemetry.wire import WIRE_INTERVAL_S

    roles = {"main": {"oncpu_pct": 0.1}, "io": {"oncpu_pct": 0.5}, "bio": {"oncpu_pct": 0.499}}
    assert list(working(roles)) == ["main", "io"]
    # a role with no figure ran nothing; at most six, the busiest first (as thread_roles orders them)
    assert list(working({"main": {"oncpu_pct": 0.1}, "bio": {"threads": 1}, "io": {"oncpu_pct": None}})) == ["main"]
    many = {f"r{k}": {"oncpu_pct": 10.0 - k} for k in range(8)}
    assert list(working(many)) == [f"r{k}" for k in range(6)] and list(working(many, 2)) == ["r0", "r1"]
    # a point of under one operation a second still has its cost per operation; none of no throughput
    assert per_operation(50.0, {"bytes_per_s": 100.0, "packets_per_s": 2.0}, 0.5) == \
        {"server_cpu_us_per_op": 1_000_000.0, "wire_bytes_per_op": 200.0, "wire_packets_per_op": 4.0}
    assert per_operation(50.0, {}, 1.0)["server_cpu_us_per_op"] == 500_000.0
    assert per_operation(50.0, {}, 0.0) == per_operation(50.0, {}, -0.5) == per_operation(50.0, {}, None) == {}
    fig = {"oncpu_pct": 10.0, "user_pct": 6.1234, "system_pct": 2.0049, "runq_pct": 0.0, "vcsw_per_s": 1.0,
           "ivcsw_per_s": 2.0}
    totals = side_totals({"a": fig, "b": {**fig, "user_pct": 1.0}})
    assert (totals["user_pct"], totals["system_pct"], totals["kernel_share"]) == (7.12, 4.01, 0.3602)
    dt = 3.0  # the host's scan interval (telemetry/host.py: ~15 µs per process, every 3 s)
    host = pd.DataFrame({"source": "host", "t_mono": [dt, 2 * dt, 3 * dt], "host_user_pct": [10.0, 20.0, 40.126],
                         "foreign_top": ["bench=50.0;x=10.0", "bench=30.0", None]})
    got = host_figures(host, (0.0, 3 * dt))
    assert got["host_user_pct"] == 23.38 and got["samples"] == 3
    # a scan 1.5 s after the window's end: its 3 s interval lies half inside, so it counts (as the window rule says);
    # one 1.51 s after, less than half: it does not
    for after, samples in ((1.5, 4), (1.51, 3)):
        edge = pd.concat([host, pd.DataFrame({"source": "host", "t_mono": [3 * dt + after], "host_user_pct": [50.0]})])
        assert host_figures(edge, (0.0, 3 * dt))["samples"] == samples, after
    assert got["foreign_top"] == {"bench": round(80.0 / 3, 1), "x": round(10.0 / 3, 1)}
    w = WIRE_INTERVAL_S
    wire = pd.DataFrame({"source": "wire", "t_mono": [w, 2 * w, 3 * w], "wire_connections": [0, 4, 4],
                         "wire_bytes_per_s": [9e9, 1000.0, 3000.0], "wire_packets_per_s": [9e9, 10.0, 30.0],
                         "wire_minrtt_ms": [9.0, 0.05, None]})
    assert wire_figures(wire, (0.0, 3 * w)) == {"bytes_per_s": 2000.0, "packets_per_s": 20.0, "minrtt_ms": 0.05}
    # 150 % of a core at 7,000 ops/s: 1.5 s of CPU per s over 7,000 operations = 214.286 µs each
    cost = per_operation(150.0, {"bytes_per_s": 1_234_567.0, "packets_per_s": 33_333.0}, 7_000.0)
    assert cost == {"server_cpu_us_per_op": 214.286, "wire_bytes_per_op": 176.367, "wire_packets_per_op": 4.762}
    assert per_operation(150.0, {}, 0.0) == {} and per_operation(150.0, {}, -5.0) == {}


def test_thread_roles_are_each_figures_mean_over_the_windows_samples_a_missing_reading_or_role_counted_as_0():
    """Two samples of a side's threads: 'main' in both (its run-queue figure unread in the first), 'io' in the
    second only. Each figure is its sum over the samples / 2 (mean ≠ max here), to the hundredth; the busiest
    thread's figure the max; the states summed; the wait channels merged; the busiest role first."""
    from ycsbctl.telemetry.evidence import thread_roles

    nan = float("nan")
    base = {"source": "server-threads", "vcsw_per_s": 10.0, "ivcsw_per_s": 1.0}
    frame = pd.DataFrame([
        {**base, "t_mono": 1.0, "thread": "main", "oncpu_pct": 50.125, "user_pct": 30.0, "system_pct": 20.125,
         "runq_pct": nan, "busiest_pct": 50.125, "threads": 1, "wait_running": 4, "wait_lock": 1, "wchan": "futex=1"},
        {**base, "t_mono": 2.0, "thread": "main", "oncpu_pct": 30.0, "user_pct": 20.0, "system_pct": 10.0,
         "runq_pct": 3.0, "busiest_pct": 30.0, "threads": 1, "wait_running": 2, "wait_lock": 3,
         "wchan": "futex=2;ep=1"},
        {**base, "t_mono": 2.0, "thread": "io", "oncpu_pct": 5.0, "user_pct": 4.0, "system_pct": 1.0,
         "runq_pct": 0.5, "busiest_pct": 3.0, "threads": 2, "wait_running": 1, "wait_lock": 0, "wchan": None},
    ])
    roles = thread_roles(frame, "server-threads", None, 1.0)
    assert list(roles) == ["main", "io"]
    main, io = roles["main"], roles["io"]
    assert (main["oncpu_pct"], main["user_pct"], main["system_pct"], main["runq_pct"]) == (40.06, 25.0, 15.06, 1.5)
    assert (main["busiest_pct"], main["threads"], main["vcsw_per_s"]) == (50.12, 1.0, 10.0)
    assert main["states"] == {"running": 6, "lock": 4} and main["wchan"] == {"futex": 3, "ep": 1}
    assert (io["oncpu_pct"], io["runq_pct"], io["busiest_pct"], io["threads"],
            io["vcsw_per_s"]) == (2.5, 0.25, 3.0, 2.0, 5.0)
    # a side's kernel share: of any CPU above none (0.75 % of a core: 2/3 in the kernel), none of no CPU
    from ycsbctl.telemetry.evidence import side_totals
    fig = {"oncpu_pct": 1.0, "user_pct": 0.25, "system_pct": 0.5, "runq_pct": 0.0, "vcsw_per_s": 0.0,
           "ivcsw_per_s": 0.0}
    assert side_totals({"main": fig})["kernel_share"] == 0.6667
    assert side_totals({"main": {**fig, "user_pct": 0.0, "system_pct": 0.0}})["kernel_share"] is None
    # the host's foreign programs: a part without a name or without a number is no program
    from ycsbctl.telemetry.evidence import host_figures
    host = pd.DataFrame({"source": "host", "t_mono": [3.0, 6.0], "foreign_top": ["bench=50.0;=7.0;x=oops",
                                                                                 "bench=30.0"]})
    assert host_figures(host, None)["foreign_top"] == {"bench": 40.0}


def test_a_window_holds_the_rows_whose_interval_lies_half_inside_it():
    # 1 s rows at t = 1..10 cover (t-1, t]; the window (3.0, 6.5) overlaps row 4 fully, 7 by half, 8 not at all
    frame = pd.DataFrame({"source": "s", "t_mono": [float(t) for t in range(1, 11)]})
    got = list(rows_in(frame, "s", 1.0, (3.0, 6.5))["t_mono"])
    assert got == [4.0, 5.0, 6.0, 7.0]
    assert list(rows_in(frame, "s", 1.0, (3.0, 6.5), strict=True)["t_mono"]) == [4.0, 5.0, 6.0]
    # a window far from every row: none inside, so all of them (a point shorter than an interval), or none if strict
    assert len(rows_in(frame, "s", 1.0, (50.0, 50.2))) == 10 and rows_in(frame, "s", 1.0, (50.0, 50.2), True).empty


def test_wire_figures_are_the_means_of_the_readings_with_our_connections_and_none_without_the_bytes_column():
    from ycsbctl.telemetry.evidence import wire_figures

    # 3 s readings at t = 3, 6, 9, 12, all inside (0, 12]; the one at 6 saw none of our connections: left out
    frame = pd.DataFrame({"source": "wire", "t_mono": [3.0, 6.0, 9.0, 12.0], "wire_connections": [2, 0, 2, 2],
                          "wire_bytes_per_s": [100.0, 9999.0, 200.0, 600.0],
                          "wire_packets_per_s": [1.0, 50.0, 2.0, 9.0]})
    assert wire_figures(frame, (0.0, 12.0)) == {"bytes_per_s": 300.0, "packets_per_s": 4.0, "minrtt_ms": None}
    # readings of the wire but no byte rates (an older capture): nothing to say, not a KeyError
    assert wire_figures(frame.drop(columns=["wire_bytes_per_s"]), (0.0, 12.0)) == {}


def test_over_duty_divides_the_rates_and_keeps_counts_shares_and_states():
    """A role's or a side's figures over a target's own slices: ``…_pct`` and ``…_per_s`` over the duty, the rest as
    read (threads, a kernel share, states, a flag)."""
    from ycsbctl.telemetry.evidence import over_duty

    fig = {"oncpu_pct": 30.0, "busiest_pct": 24.0, "runq_pct": 3, "vcsw_per_s": 90.0, "threads": 7,
           "kernel_share": 0.4, "states": {"S": 3}, "bytes_per_s": 1e6, "packets_per_s": 80.0, "flag_pct": True,
           "missing_pct": None}
    got = over_duty(fig, 0.3)
    assert set(got) == set(fig)
    for k in ("oncpu_pct", "busiest_pct", "runq_pct", "vcsw_per_s", "bytes_per_s", "packets_per_s"):
        assert got[k] == pytest.approx(fig[k] / 0.3)
    for k in ("threads", "kernel_share", "states", "flag_pct", "missing_pct"):
        assert got[k] == fig[k]
    assert over_duty(fig, 1.0) == over_duty(fig, 0.0) == fig  # a whole window (or none): as read
