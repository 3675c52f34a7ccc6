"""Survivors of the whole-map mutation sample (seed 882041) in report/, results/, telemetry/, experiment/
and engine/, each killed by a value worked out here from hand-built irregular inputs (a percentile whose
neighbours differ, a ladder of at least two points, a boundary a nudged constant crosses); each module's map
in scripts/mutation.py lists this file first."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

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


def test_operations_of_one_microsecond_still_have_their_clients_lag_and_late_starts_weighed():
    # an in-process store's 1 µs operations (p99 and max 1 µs): a 3 µs loop lag and 2 µs late starts are 300 % / 200 %
    ops = _summary("READ", {1: 1_000})
    r = PhaseResult("run", 8, 1000.0, 1_000, ops={"READ": ops}, client_lag=_summary("CLIENT-LAG", {3: 1_000}))
    r.schedule_lag = _summary("SCHEDULE-LAG", {2: 1_000})
    said = client_lag_warning(r)
    assert said is not None and "its p99.9 (0.00 ms) is 300% of the operations' p99" in said, said
    assert "its maximum (0.0 ms) is 300% of the slowest operation's" in said, said
    said = schedule_lag_warning(r)
    assert said is not None and "schedule lag p99 (0.00 ms) is 200% of the operations' p99 (0.00 ms)" in said, said


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
    r = PhaseResult("run", 8, 1000.0, 4, ops={"READ": _summary("READ", {100: 3}),
                                                "UPDATE": _summary("UPDATE", {500: 1})})
    assert mean_latency_us(r) == 200.0


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


def test_the_hosts_cpu_seconds_are_procs_user_plus_nice_and_system_plus_interrupts():
    import psutil

    from ycsbctl.telemetry.host import cpu_times
    ours, theirs = cpu_times(), psutil.cpu_times()
    ours_after = cpu_times()
    slack = ours_after["user"] + ours_after["system"] + ours_after["idle"] + ours_after["iowait"] \
        - ours["user"] - ours["system"] - ours["idle"] - ours["iowait"] + 0.05 * (psutil.cpu_count() or 1)
    for key, truth in [("user", theirs.user + theirs.nice), ("system", theirs.system + theirs.irq + theirs.softirq),
                       ("idle", theirs.idle), ("iowait", theirs.iowait), ("steal", theirs.steal)]:
        assert ours[key] - slack <= truth <= ours_after[key] + slack, (key, ours[key], truth)


def test_a_foreign_cpu_that_is_not_a_number_counts_as_none(monkeypatch):
    from ycsbctl.telemetry.host import HOST_BUSY_ENV
    from ycsbctl.telemetry.why import foreign_busy
    monkeypatch.setenv(HOST_BUSY_ENV, "0.005")  # half a % of one core
    ev = {"evidence": {"host_cores": 1, "host": {"foreign_pct": "n/a", "host_steal_pct": None}}}
    assert foreign_busy(ev) is None
    ev["evidence"]["host"]["foreign_pct"] = 0.6
    assert foreign_busy(ev) == ("other programs used 1% of a core (1% of the host's 1 cores, above 0%) during the "
                                "point: processes that ended between two scans")


def test_thread_figures_are_each_counters_change_and_the_threads_in_each_state():
    from ycsbctl.telemetry.threads import ThreadReading, role_figures
    before = {(1, 1): ThreadReading("io", 2.0, 1.5, 9_000_000_000, 700_000_000, 100, 40, start_ticks=5),
              (1, 2): ThreadReading("io", 1.0, 0.5, 4_000_000_000, 100_000_000, 10, 4, start_ticks=5)}
    after = {(1, 1): ThreadReading("io", 2.5, 1.75, 9_900_000_000, 900_000_000, 130, 45, "running", "", 5),
             # a counter that went back (a reused tid) adds nothing, not a nanosecond
             (1, 2): ThreadReading("io", 0.75, 0.25, 3_000_000_000, 50_000_000, 9, 3, "lock", "futex_wait", 5),
             # born after: every counter from zero (none at 0, so that a start of 1 would show)
             (1, 3): ThreadReading("io", 0.25, 0.125, 200_000_000, 40_000_000, 3, 2, "lock", "futex_wait", 20),
             (1, 4): ThreadReading("io", 50.0, 9.0, 1, 1, 1, 1, "idle", "ep_poll", 1)}  # older, first seen: not counted
    fig = role_figures(before, after, 2.0, since_ticks=10)["io"]
    assert fig["threads"] == 3 and (fig["wait_running"], fig["wait_lock"], fig["wait_idle"], fig["wait_io"]) == (1, 2, 0, 0)
    assert fig["wchan"] == "futex_wait=2"
    assert fig["oncpu_pct"] == 45.0 + 0.0 + 10.0 and fig["busiest_pct"] == 100 * 0.9 / 2
    assert (fig["user_pct"], fig["system_pct"]) == (25.0 + 0.0 + 12.5, 12.5 + 0.0 + 6.25)
    assert fig["runq_pct"] == 10.0 + 0.0 + 2.0 and (fig["vcsw_per_s"], fig["ivcsw_per_s"]) == (33 / 2, 7 / 2)


def test_a_ladder_of_two_points_names_its_peak_and_its_why():
    from ycsbctl.report.why_report import why_findings
    points = pd.DataFrame([("workloadb", "redis", 8, 30_000.0, "server CPU"), ("workloadb", "redis", 4, 35_000.0, "locks")],
                          columns=["workload", "target", "threads", "throughput_mean", "why"])
    assert why_findings(points, ["redis"]) == ["workloadb: redis at its peak (4 threads): locks."]


def test_one_server_with_several_io_threads_is_said_alone():
    from types import SimpleNamespace

    from ycsbctl.report.server_traits import trait_differences

    def exp(io_threads: int) -> SimpleNamespace:
        servers = {"valkey": {"kind": "valkey", "traits": {"server": "Valkey", "version": "9.1.2", "io_threads": io_threads}}}
        return SimpleNamespace(manifest=SimpleNamespace(servers=servers, host={"cores": 2}), docs={}, targets=["valkey"])

    said = trait_differences(exp(4))  # type: ignore[arg-type]
    assert len(said) == 1 and said[0].startswith("I/O threads: valkey: io-threads 4. A server with more than one I/O "
                                                 "thread shares the cores with the client on this host's 2 cores")
    assert trait_differences(exp(1)) == []  # type: ignore[arg-type]
    assert trait_differences(exp(2))[0].startswith("I/O threads: valkey: io-threads 2. ")  # type: ignore[arg-type]


class _Folder:
    """Just what the resource figures read of an experiment: runs, per-second series, no telemetry."""

    def __init__(self, runs: pd.DataFrame, series: pd.DataFrame | None = None, searches: list | None = None):
        from types import SimpleNamespace
        self.runs, self.series = runs, series if series is not None else pd.DataFrame()
        self.manifest = SimpleNamespace(slo_searches=searches or [], network={})

    def series_of(self, run_id: str) -> pd.DataFrame:
        return self.series[self.series["run_id"] == run_id].reset_index(drop=True)

    def telemetry_of(self, run_id: str) -> pd.DataFrame:
        return pd.DataFrame()

    def run_doc(self, run_id: str) -> dict:
        return {}


def test_the_network_used_is_the_busiest_ok_runs_bytes_per_second_in_gbit():
    from ycsbctl.report.resource_plots import network_used_gbit
    runs = pd.DataFrame({"target": ["a", "a", "a", "b"], "status": ["ok", "ok", "failed", "ok"],
                         "net_bytes_per_s_mean": [1.25e9, 0.5e9, 9e9, 250e6]})
    assert network_used_gbit(_Folder(runs)) == {"a": 10.0, "b": 2.0}  # type: ignore[arg-type]


def test_a_cpu_figure_with_only_the_servers_cpu_draws_it():
    from ycsbctl.report.resource_plots import cpu_figure
    nan = float("nan")
    points = pd.DataFrame({"workload": "w", "status": "ok", "target": "a", "threads": [1, 4],
                           "server_cpu_pct": [40.0, 90.0], "client_cpu_pct": [nan, nan]})
    fig = cpu_figure(points, "w", None, {"a": "#123456"})
    assert fig is not None
    (ax,) = fig.axes
    drawn = [(list(line.get_xdata()), list(line.get_ydata())) for line in ax.lines if line.get_color() == "#123456"]
    assert drawn == [([1, 4], [40.0, 90.0])]
    assert cpu_figure(points.assign(server_cpu_pct=nan), "w", None, {"a": "#123456"}) is None


def test_the_time_series_names_the_first_runs_axes():
    from ycsbctl.report.resource_plots import timeseries_figure
    series = pd.DataFrame({"run_id": "r1", "op": "OVERALL", "second": [0, 1, 2], "operations": [900, 1000, 1100],
                           "p99_us": [30000.0, 50000.0, 40000.0], "warmup": [True, False, False]})
    fig = timeseries_figure(_Folder(pd.DataFrame(), series), {"a": "r1"}, {"a": "#123456"}, "t")  # type: ignore[arg-type]
    assert fig is not None
    labels = [ax.get_ylabel() for ax in fig.axes]
    assert "ops/s (solid)" in labels and "server CPU (% of one core, solid)" in labels
    assert "p99 latency (ms, dashed)" in labels and "server memory (MiB, dashed)" in labels
    top = next(ax for ax in fig.axes if ax.get_ylabel() == "ops/s (solid)")
    assert [list(line.get_ydata()) for line in top.lines] == [[900, 1000, 1100]]
    # every axis from 0: ops/s and p99 up to 15 % above their largest (1,100 ops/s, 50 ms), CPU and memory from 0
    lat = next(ax for ax in fig.axes if ax.get_ylabel() == "p99 latency (ms, dashed)")
    assert [list(line.get_ydata()) for line in lat.lines] == [[30.0, 50.0, 40.0]]
    # each second's figures at its middle, on both lines
    assert [list(line.get_xdata()) for line in (*top.lines, *lat.lines)] == [[0.5, 1.5, 2.5]] * 2
    assert top.get_ylim() == pytest.approx((0, 1100 * 1.15)) and lat.get_ylim() == pytest.approx((0, 50 * 1.15))
    assert all(ax.get_ylim()[0] == 0 for ax in fig.axes)
    # no telemetry: the panel says so in its middle (axes fraction 0.5, 0.5, centred), not in a corner
    (note,) = [t for ax in fig.axes for t in ax.texts if t.get_text() == "no server telemetry"]
    assert note.get_position() == (0.5, 0.5) and note.get_ha() == "center"


def test_the_rate_figure_marks_each_tried_rate_that_has_a_latency():
    from ycsbctl.report.rate_plots import rate_latency_figure
    runs = pd.DataFrame({"workload": "w", "phase": "run", "target": "a", "threads": 8, "target_rate": [1000.0, 2000.0],
                         "throughput_ops": [990.0, 1980.0], "all_p50_us": [100.0, 150.0], "all_p99_us": [400.0, 900.0]})
    tried = [{"achieved_ops": 990.0, "latency_us": 450.0, "passed": True},
             {"achieved_ops": None, "latency_us": 700.0, "passed": True},
             {"achieved_ops": 1980.0, "latency_us": 15_000.0, "passed": False},
             {"achieved_ops": 2500.0, "latency_us": float("nan"), "passed": False},
             {"achieved_ops": 2600.0, "latency_us": None, "passed": False}]
    searches = [{"workload": "w", "target": "a", "tried": tried, "slo": "p99<10ms", "found_rate": 1000.0}]
    fig = rate_latency_figure(_Folder(runs, searches=searches), "w", {"a": "#123456"})  # type: ignore[arg-type]
    assert fig is not None
    marks = [tuple(float(v) for v in c.get_offsets()[0]) for c in fig.axes[0].collections if len(c.get_offsets())]
    assert marks == [(990.0, 450.0), (1980.0, 15_000.0)]


def _spectrum(counts: dict[int, int], runs_of: dict[str, int] | None = None):
    """The spectrum's axes of each target's READ histogram of ``counts`` (µs: how many), ``runs_of`` its runs
    (target -> how many; one target "a" of one run by default)."""
    from ycsbctl.report.plots import spectrum_figure

    runs_of = runs_of or {"a": 1}

    h = hdr.new_histogram()
    for v, n in counts.items():
        h.record_value(v, n)

    class Exp(_Folder):
        targets = list(runs_of)

        def run_doc(self, run_id: str) -> dict:
            return {"histograms": {"READ": {}}}

        def merged_histogram(self, ids: list, op: str):
            return h

    ids = [(t, f"{t}{i}") for t, n in runs_of.items() for i in range(n)]
    runs = pd.DataFrame({"run_id": [r for _, r in ids], "workload": "w", "phase": "run", "threads": 8, "status": "ok",
                         "target": [t for t, _ in ids]})
    fig = spectrum_figure(Exp(runs), "w", 8, {"a": "#123456"})  # type: ignore[arg-type]
    assert fig is not None
    return fig.axes[0]


def test_a_percentile_under_a_microsecond_is_drawn_at_one_on_the_log_axis_not_left_out():
    """HDR records a reply under 1 µs as 0: on the log axis the spectrum draws it at 1 µs (0 has no place there)."""
    ax = _spectrum({0: 6_000, 100: 4_000})
    (line,) = ax.lines
    ys = [float(y) for y in line.get_ydata()]
    assert (ys[0], ys[-1]) == (1.0, 100.0) and len(ys) == 48 and min(ys) == 1.0
    # between the decades, the 2s and 5s are labelled (200 µs, 5 ms), the others not
    from ycsbctl.report.plot_style import duration

    minor = ax.yaxis.get_minor_formatter()
    assert [minor(v, 0) for v in (200.0, 300.0, 5_000.0, 7_000.0)] == [duration(200.0), "", duration(5_000.0), ""]


def test_the_spectrums_percentile_ticks_stand_at_their_nines():
    """Each tick ``pNN`` at x = -log10(1 - NN/100), and the drawn curve there is the histogram's percentile."""
    import math

    ax = _spectrum({100: 5_000, 300: 4_000, 900: 900, 1_500: 90, 1_900: 9, 2_000: 1})
    ticks = dict(zip([t.get_text() for t in ax.get_xticklabels()], ax.get_xticks()))
    assert ticks.keys() == {"p50", "p90", "p99", "p99.9", "p99.99"}
    for label, x in ticks.items():
        assert math.isclose(x, -math.log10(1 - float(label[1:]) / 100), abs_tol=1e-9), label
    (line,) = ax.lines
    xs, ys = list(line.get_xdata()), list(line.get_ydata())
    assert math.isclose(xs[0], ticks["p50"]) and math.isclose(xs[-1], ticks["p99.99"])
    assert (ys[0], ys[-1]) == (100, 1_900)  # the 5,000th of 10,000 and the 9,999th


def test_a_log_axis_from_targets_more_than_20_times_apart():
    from ycsbctl.report.plot_style import far_apart
    assert far_apart(pd.Series([10.0, 201.0, 0.0]))  # 20.1x (a zero is no value)
    assert not far_apart(pd.Series([10.0, 199.0]))


def test_on_a_log_axis_a_point_that_measured_nothing_sits_at_half_the_smallest_positive_throughput():
    """Targets 10^5 times apart (a log axis): the failed point that measured nothing is drawn at half the smallest
    positive throughput (0.8 ops/s: 0.4), not at a point's 0 ops/s nor at the smallest above 1; the axis starts
    1.5 times below it."""
    from ycsbctl.report.plots import throughput_latency_figure

    rows = []
    for target, tps in (("redis", (110_000.0, 120_000.0, 115_000.0)), ("slow", (0.8, 0.0, math.nan))):
        for t, tp in zip((8, 16, 32), tps):
            ok = t == 8 or target == "redis"
            rows.append(dict(target=target, workload="w", threads=t, reps=1, ok=int(ok), status="ok" if ok else "failed",
                             throughput_mean=tp if ok else math.nan, throughput_seen=tp, throughput_min=tp, throughput_max=tp,
                             latency_mean=500.0, latency_min=500.0, latency_max=500.0, bottleneck="latency"))
    fig = throughput_latency_figure(pd.DataFrame(rows), "w", "p99", {"redis": "#0072B2", "slow": "#E69F00"})
    assert fig is not None
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    nothing = [a.xy for a in ax.texts if a.get_text() == "slow: failed 1/1, nothing measured"]
    assert nothing == [(32, 0.4)]
    assert ax.get_ylim()[0] == 0.4 / 1.5


def test_a_linear_latency_axis_starts_at_zero_and_leaves_a_tenth_above_the_autoscaled_top():
    """Two targets under 20x apart: the latency axis is linear, from 0 to 1.1 x matplotlib's autoscaled top (the
    largest latency plus axes.ymargin of the data's range): room above the highest point for its label."""
    from matplotlib import rcParams

    from ycsbctl.report.plots import throughput_latency_figure

    rows = [dict(target=target, workload="w", threads=t, reps=1, ok=1, status="ok", throughput_mean=tp,
                 throughput_seen=tp, throughput_min=tp, throughput_max=tp, latency_mean=lat * t / 8,
                 latency_min=lat * t / 8, latency_max=lat * t / 8, bottleneck="latency")
            for target, tp, lat in (("redis", 110_000.0, 200.0), ("mongodb", 60_000.0, 450.0)) for t in (8, 16, 32)]
    fig = throughput_latency_figure(pd.DataFrame(rows), "w", "p99", {"redis": "#0072B2", "mongodb": "#E69F00"})
    assert fig is not None
    ax2 = fig.axes[1]
    assert ax2.get_yscale() == "linear"
    low, high = 200.0, 450.0 * 32 / 8  # µs: under 2 ms the axis stays in µs
    assert ax2.get_ylim() == (0, pytest.approx(1.1 * (high + rcParams["axes.ymargin"] * (high - low)), rel=1e-9))


def test_two_repetitions_whose_logs_are_2_apart_have_the_t_interval_of_a_standard_error_of_1():
    """ln 1 = 0 and ln e² = 2: the mean log 1, sd √2, standard error exactly 1: the interval is e^(1 ± t)
    with t scipy's 97.5th percentile of Student's t with 1 degree of freedom (12.706), not a point."""
    import math

    from scipy import stats as sps

    from ycsbctl.results.stats import interval
    i = interval([1.0, math.exp(2)])
    t = float(sps.t.ppf(0.975, 1))
    assert (i.n, i.centre) == (2, math.e)
    assert math.isclose(i.low, math.exp(1 - t), rel_tol=1e-9) and math.isclose(i.high, math.exp(1 + t), rel_tol=1e-9)
    same = interval([5.0, 5.0, 5.0])
    assert same.low == same.centre == same.high and math.isclose(same.centre, 5.0) and same.cv == 0.0


def test_the_hold_out_check_allows_a_top_point_missed_by_14_9_percent_not_15_1():
    """Four points on the law exactly (λ 1000, σ 0.05, κ 0.001) and a fifth 14.9 % or 15.1 % off it: the
    law fitted to the four predicts the fifth with that error, and the whole fit is otherwise good."""
    from ycsbctl.results.scaling import FITS, NO_FIT, fit, usl
    threads = [1, 2, 4, 8, 16]
    on = [float(usl(n, 1000.0, 0.05, 0.001)) for n in threads]
    for miss, said in ((0.149, FITS), (0.151, NO_FIT)):
        f = fit(threads, [*on[:-1], on[-1] / (1 + miss)])
        assert abs(f.holdout_error - miss) < 1e-6 and f.r2 > 0.99 and f.max_residual < 0.02
        assert f.verdict == said, (miss, f)


def test_children_are_listed_at_the_first_read_and_every_third_after_it():
    """children_every=3: the reads that list the children are the 1st (the priming), the 4th, the 7th…; a
    child born after the 2nd read is counted from the 4th on (this process is the sampled one)."""
    import os
    import subprocess
    import sys

    from ycsbctl.telemetry.process import ProcessSampler

    sampler = ProcessSampler(os.getpid(), "server-process", 1.0, children_every=3)
    sampler.prime()
    base = sampler.sample()["processes"]  # read 2
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert [sampler.sample()["processes"] for _ in range(3)] == [base, base + 1, base + 1]  # reads 3, 4, 5
    finally:
        child.kill()
        child.wait()


def test_the_wire_sampler_counts_the_bytes_this_process_sent_to_the_port_and_reaps_ss():
    """A loopback listener; after the priming, 10,000 bytes sent to it on one connection and 500 out, 300
    back on one opened since: the sampler's bytes per second times its own interval are those 10,800 (the
    listener's side, whose source port it is, not counted), and each ``ss`` it ran is reaped with its CPU
    counted."""
    import resource
    import socket

    import psutil

    from ycsbctl.telemetry.wire import WireSampler

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        with socket.create_connection(("127.0.0.1", port)) as client:
            peer, _ = server.accept()
            with peer:
                sampler = WireSampler([port], interval_s=1.0)
                sampler.prime()
                t0 = sampler._t_last
                client.sendall(b"x" * 10_000)
                got = 0
                while got < 10_000:
                    got += len(peer.recv(65536))
                # a second connection born after the priming counts from zero: 500 bytes out, 300 back
                with socket.create_connection(("127.0.0.1", port)) as late:
                    other, _ = server.accept()
                    with other:
                        late.sendall(b"y" * 500)
                        got = 0
                        while got < 500:
                            got += len(other.recv(65536))
                        other.sendall(b"z" * 300)
                        got = 0
                        while got < 300:
                            got += len(late.recv(65536))
                        row = sampler.sample()
                elapsed = sampler._t_last - t0
                assert round(row["wire_bytes_per_s"] * elapsed) == 10_000 + 500 + 300
                packets = row["wire_packets_per_s"] * elapsed  # a whole number of segments, at least one each way
                assert abs(packets - round(packets)) < 1e-6 and round(packets) >= 4
                assert row["wire_connections"] == 2
    assert sampler.child_cpu_s > 0
    # the two ss runs' CPU, user and system, as the kernel counts this process's reaped children (each figure
    # cut to the µs: a µs or two apart)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    reaped = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    assert abs(sampler.child_cpu_s - reaped) < 1e-5, (sampler.child_cpu_s, reaped)
    assert not [p for p in psutil.Process().children() if p.status() == psutil.STATUS_ZOMBIE]


def test_a_processes_children_are_read_whole_however_long_their_list(tmp_path):
    """The children of this process, against psutil's scan of /proc; and a file longer than one read
    (9,988 bytes: three reads of 4,096) comes back whole."""
    import os
    import subprocess
    import sys

    import psutil

    from ycsbctl.telemetry.threads import _children, read_whole

    long = tmp_path / "long"
    long.write_bytes(bytes(range(256)) * 39 + b"end!")
    assert read_whole(str(long)) == long.read_bytes() and len(long.read_bytes()) == 9_988
    kids = [subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"]) for _ in range(2)]
    try:
        assert sorted(_children(os.getpid())) == sorted(p.pid for p in psutil.Process().children(recursive=True))
        assert {k.pid for k in kids} <= set(_children(os.getpid()))
    finally:
        for k in kids:
            k.kill()
            k.wait()


def test_a_plug_ins_error_is_placed_in_its_own_innermost_frame_not_pythons_nor_a_librarys(tmp_path):
    """A plug-in file (outside ycsbctl, Python and site-packages) whose method calls json (Python's) and
    pandas (an installed library), each raising inside: the frame named is the plug-in's own line."""
    import importlib.util

    from ycsbctl.engine.worker_process import _outside_ycsbctl

    (tmp_path / "my_plugin.py").write_text(
        "import json\nimport pandas as pd\n\n\nclass Shop:\n    def order(self):\n        return json.loads('{')\n\n"
        "    def price(self):\n        return pd.Timestamp('not a date')\n")
    spec = importlib.util.spec_from_file_location("my_plugin", tmp_path / "my_plugin.py")
    assert spec is not None and spec.loader is not None
    plugin = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plugin)
    for method, line in (("order", 7), ("price", 10)):
        try:
            getattr(plugin.Shop(), method)()
        except ValueError as exc:
            assert _outside_ycsbctl(exc) == f"Shop.{method} (my_plugin.py:{line})"
        else:
            raise AssertionError(f"{method} raised nothing")


def test_a_servers_endpoint_from_its_runs_only_comes_after_the_plans_and_one_io_thread_reads_too():
    from types import SimpleNamespace

    from ycsbctl.report.server_traits import server_endpoints, traits_text

    exp = SimpleNamespace(manifest=SimpleNamespace(servers={"b": {"kind": "redis"}, "a": {"kind": "valkey"}}),
                          docs={"r1": {"target": "c", "endpoint": {"kind": "memcached"}},
                                "r2": {"target": "a", "endpoint": {"kind": "other"}}}, targets=["a", "b"])
    assert server_endpoints(exp) == {"a": {"kind": "valkey"}, "b": {"kind": "redis"}, "c": {"kind": "memcached"}}  # type: ignore[arg-type]
    assert list(server_endpoints(exp)) == ["a", "b", "c"]  # type: ignore[arg-type]
    one = {"traits": {"io_threads": 1, "io_threads_do_reads": "no"}}
    assert traits_text(one) == "io-threads 1"
    one["traits"]["io_threads"] = 2
    assert traits_text(one) == "io-threads 2 (writes only: io-threads-do-reads no)"


def test_the_evidence_figures_by_hand():
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


def test_the_hosts_cpu_seconds_from_a_stat_line_whose_every_field_differs():
    import os

    from ycsbctl.telemetry.host import cpu_times_of
    tick = 1.0 / os.sysconf("SC_CLK_TCK")
    got = cpu_times_of(b"cpu  1000 70 500 90000 200 30 11 5 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\nintr 1\n")
    assert got == {"user": 1000 * tick + 70 * tick, "system": 500 * tick + 30 * tick + 11 * tick,
                   "idle": 90000 * tick, "iowait": 200 * tick, "steal": 5 * tick}
    old = cpu_times_of(b"cpu  1000 70 500 90000\n")  # a kernel before iowait: the rest are zeros
    assert (old["user"], old["iowait"], old["steal"]) == (1000 * tick + 70 * tick, 0.0, 0.0)


def test_the_hosts_scan_reads_a_process_as_psutil_does_and_its_shares_add_up_to_the_cores(monkeypatch):
    """scan(): a child's name, parent, user + system CPU (it spent 0.2 s of CPU reading /dev/urandom, so
    its system time is large, its waited children's none) and start, as psutil reads them; a HostSampler's
    five shares of the host's CPU over an interval add up to 100 % per core; with no busy-share setting the
    default 10 %."""
    import os
    import subprocess
    import sys
    import time

    import psutil

    from ycsbctl.telemetry.host import (
        HOST_BUSY_ENV,
        HOST_BUSY_SHARE,
        HostSampler,
        host_busy_share,
        in_container,
        scan,
    )

    busy = ("import os, time\nf = open('/dev/urandom', 'rb', 0)\nwhile time.process_time() < 0.2:\n"
            "    f.read(1 << 20)\n"
            "print('done', flush=True)\ntime.sleep(30)\n")
    child = subprocess.Popen([sys.executable, "-c", busy], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "done\n"
        p = psutil.Process(child.pid)
        name, ppid, cpu_s, start = scan()[child.pid]
        t = p.cpu_times()
        assert (name, ppid) == (p.name(), os.getpid()) and t.system > 0.08
        assert abs(cpu_s - (t.user + t.system)) <= 0.02
        assert abs(psutil.boot_time() + start / os.sysconf("SC_CLK_TCK") - p.create_time()) < 0.05
    finally:
        child.kill()
        child.wait()
    sampler = HostSampler(lambda: [])
    sampler.prime()
    time.sleep(0.3)
    row = sampler.sample()
    total = sum(row[f"host_{k}_pct"] for k in ("user", "system", "iowait", "steal", "idle"))
    cores = psutil.cpu_count()
    assert 0.8 * 100 * cores <= total <= 1.2 * 100 * cores, (total, cores)
    for part in ("ours", "kernel", "foreign"):  # each a part of what the host ran: none above all its cores
        assert 0.0 <= row[f"{part}_pct"] <= 1.2 * 100 * cores, (part, row)
    mine = Path(f"/proc/{os.getpid()}/cgroup").read_text().split("\n")[0]  # this process's own cgroup line
    assert in_container(os.getpid(), [mine]) and not in_container(os.getpid(), ["0123456789abcdef-not-here"])
    monkeypatch.delenv(HOST_BUSY_ENV, raising=False)
    assert host_busy_share() == HOST_BUSY_SHARE


def test_io_threads_are_said_for_one_server_of_two_and_shared_cores_only_for_a_server_on_this_host():
    from types import SimpleNamespace

    from ycsbctl.report.server_traits import trait_differences

    def exp(servers: dict) -> SimpleNamespace:
        return SimpleNamespace(manifest=SimpleNamespace(servers=servers, host={"cores": 2}), docs={}, targets=list(servers))

    alone = exp({"v": {"traits": {"io_threads": 2}}})
    said = trait_differences(alone)  # type: ignore[arg-type]
    assert len(said) == 1 and said[0].startswith("I/O threads: v: io-threads 2. A server with more than one")
    # the server with four I/O threads runs on a host of its own: nothing shares the client's cores
    remote = exp({"a": {"traits": {"io_threads": 1}}, "b": {"host": "10.0.0.2", "traits": {"io_threads": 4}}})
    assert trait_differences(remote) == ["I/O threads: a: io-threads 1; b: io-threads 4."]  # type: ignore[arg-type]


def test_ss_output_is_read_per_connection_and_an_absent_counter_is_zero():
    from ycsbctl.telemetry.wire import min_rtts_ms, parse_ss
    text = (b"0      0      127.0.0.1:58874 127.0.0.1:6379\n"
            b"\t bbr wscale:10,10 rtt:0.027/0.015 bytes_sent:100 bytes_acked:101 bytes_received:7 segs_out:3 "
            b"segs_in:2 data_segs_out:1 minrtt:0.006\n"
            b"0      0      127.0.0.1:58880 127.0.0.1:6379\n"
            b"\tcubic rtt:0.5/0.2 segs_out:1 segs_in:1 minrtt:0.25\n")  # nothing sent nor received yet
    assert parse_ss(text) == {(b"127.0.0.1:58874", b"127.0.0.1:6379"): (100, 7, 3, 2),
                              (b"127.0.0.1:58880", b"127.0.0.1:6379"): (0, 0, 1, 1)}
    assert min_rtts_ms(text) == [0.006, 0.25]


def test_pacing_may_turn_the_loop_for_what_the_load_ceiling_leaves_at_most_its_budget():
    from ycsbctl.engine.timerfd import Alarm
    from ycsbctl.engine.worker import TURN_LOAD_CEILING, turn_budget

    assert (Alarm.TURN_BUDGET, TURN_LOAD_CEILING) == (0.5, 0.9)
    assert turn_budget(0.1) == 0.5 and turn_budget(0.4) == 0.5  # at most the budget
    assert abs(turn_budget(0.6) - 0.3) < 1e-12 and abs(turn_budget(0.75) - 0.15) < 1e-12  # what the ceiling leaves
    assert turn_budget(0.9) == 0.0 and turn_budget(1.4) == 0.0  # none at or past the ceiling


def test_the_hosts_cpu_per_kind_is_each_processes_change_and_a_new_ones_all():
    from ycsbctl.telemetry.host import cpu_use, descendants

    # pid -> (name, parent, CPU s, start tick)
    before = {1: ("systemd", 0, 5.0, 10), 2: ("kthreadd", 0, 0.0, 10), 50: ("kworker/0:1", 2, 1.0, 20),
              100: ("ycsbctl", 1, 3.0, 100), 101: ("python", 100, 2.0, 110), 200: ("stress", 1, 10.0, 300),
              300: ("redis-server", 1, 4.0, 400), 400: ("old", 1, 7.0, 500), 600: ("gone", 1, 9.0, 500)}
    now = {1: ("systemd", 0, 5.0, 10),  # did not run: not named
           2: ("kthreadd", 0, 0.0, 10), 50: ("kworker/0:1", 2, 1.25, 20),  # the kernel's: +0.25
           100: ("ycsbctl", 1, 3.5, 100), 101: ("python", 100, 2.75, 110),  # ours: +0.5, +0.75
           200: ("stress", 1, 11.5, 300),  # foreign: +1.5
           300: ("redis-server", 1, 4.5, 400),  # ours by is_ours (a container's): +0.5
           400: ("stress", 1, 0.125, 900),  # PID 400 used again by another process: all of its 0.125
           500: ("cc1", 1, 0.375, 950)}  # started since: all of it
    kernel, ours = descendants([2], now), descendants([0, 100], now)  # (0: no such root)
    assert (kernel, ours) == ({2, 50}, {100, 101})
    used, foreign = cpu_use(before, now, kernel, lambda pid: pid in ours or pid == 300)
    assert used == {"ours": 0.5 + 0.75 + 0.5, "kernel": 0.25, "foreign": 1.5 + 0.125 + 0.375}
    assert foreign == {"stress": 1.625, "cc1": 0.375}


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
         "runq_pct": 3.0, "busiest_pct": 30.0, "threads": 1, "wait_running": 2, "wait_lock": 3, "wchan": "futex=2;ep=1"},
        {**base, "t_mono": 2.0, "thread": "io", "oncpu_pct": 5.0, "user_pct": 4.0, "system_pct": 1.0,
         "runq_pct": 0.5, "busiest_pct": 3.0, "threads": 2, "wait_running": 1, "wait_lock": 0, "wchan": None},
    ])
    roles = thread_roles(frame, "server-threads", None, 1.0)
    assert list(roles) == ["main", "io"]
    main, io = roles["main"], roles["io"]
    assert (main["oncpu_pct"], main["user_pct"], main["system_pct"], main["runq_pct"]) == (40.06, 25.0, 15.06, 1.5)
    assert (main["busiest_pct"], main["threads"], main["vcsw_per_s"]) == (50.12, 1.0, 10.0)
    assert main["states"] == {"running": 6, "lock": 4} and main["wchan"] == {"futex": 3, "ep": 1}
    assert (io["oncpu_pct"], io["runq_pct"], io["busiest_pct"], io["threads"], io["vcsw_per_s"]) == (2.5, 0.25, 3.0, 2.0, 5.0)
    # a side's kernel share: of any CPU above none (0.75 % of a core: 2/3 in the kernel), none of no CPU
    from ycsbctl.telemetry.evidence import side_totals
    fig = {"oncpu_pct": 1.0, "user_pct": 0.25, "system_pct": 0.5, "runq_pct": 0.0, "vcsw_per_s": 0.0, "ivcsw_per_s": 0.0}
    assert side_totals({"main": fig})["kernel_share"] == 0.6667
    assert side_totals({"main": {**fig, "user_pct": 0.0, "system_pct": 0.0}})["kernel_share"] is None
    # the host's foreign programs: a part without a name or without a number is no program
    from ycsbctl.telemetry.evidence import host_figures
    host = pd.DataFrame({"source": "host", "t_mono": [3.0, 6.0], "foreign_top": ["bench=50.0;=7.0;x=oops", "bench=30.0"]})
    assert host_figures(host, None)["foreign_top"] == {"bench": 40.0}


def test_the_context_line_says_the_repetitions_from_two_on():
    from ycsbctl.report.plots import context_line
    from ycsbctl.results.schema import Manifest

    def line(repeat: int) -> str:
        return context_line(Manifest.from_dict({"experiment_id": "x", "plan": {"repeat": repeat}}))

    assert "2 repetitions (mean, bars: 95 % interval)" in line(2)
    assert "repetition" not in line(1)


def _study_points(degraded_seen: float) -> pd.DataFrame:
    """redis ok at 8/16/32 threads (≤ 120,000 ops/s); mongodb ok at 8 and 16, degraded at 32 having measured
    ``degraded_seen`` ops/s; five targets' worth of legend (three more, ok, alike)."""
    rows = []
    for target, tps in (("redis", (100_000.0, 115_000.0, 120_000.0)), ("mongodb", (60_000.0, 80_000.0, degraded_seen)),
                        ("a", (70_000.0,) * 3), ("b", (75_000.0,) * 3), ("c", (65_000.0,) * 3)):
        for t, tp in zip((8, 16, 32), tps):
            ok = not (target == "mongodb" and t == 32)
            rows.append(dict(target=target, workload="w", threads=t, reps=2, ok=2 if ok else 0,
                             status="ok" if ok else "degraded", throughput_mean=tp if ok else math.nan,
                             throughput_seen=tp, throughput_min=tp, throughput_max=tp, latency_mean=500.0 if ok else math.nan,
                             latency_min=500.0, latency_max=500.0, bottleneck="latency"))
    return pd.DataFrame(rows)


def test_a_degraded_point_that_measured_more_than_any_ok_one_is_on_its_dotted_curve_and_under_the_axis_top():
    """Only mongodb has a point beyond its ok ones: one dotted curve (its), through its degraded 32-thread point,
    and the throughput axis reaches that point's 200,000 ops/s (the ok points end at 120,000)."""
    from ycsbctl.report.plots import throughput_latency_figure

    colors = {"redis": "#0072B2", "mongodb": "#E69F00", "a": "#009E73", "b": "#CC79A7", "c": "#56B4E9"}
    fig = throughput_latency_figure(_study_points(200_000.0), "w", "p99", colors)
    assert fig is not None
    ax = fig.axes[0]
    dotted = [ln for ln in ax.get_lines() if ln.get_linestyle() == ":"]
    assert len(dotted) == 1 and list(dotted[0].get_ydata()) == [60_000.0, 80_000.0, 200_000.0]
    assert ax.get_yscale() == "linear" and ax.get_ylim()[1] >= 200_000.0
    # ten handles and the failed one: three rows of legend below the axes, clear of the x axis's label
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    r = FigureCanvasAgg(fig).get_renderer()  # the x axis's ticks and label, placed without drawing the figure
    assert not fig.legends[-1].get_window_extent(r).overlaps(ax.xaxis.get_tightbbox(r))


def test_a_log_latency_axis_leaves_a_factor_of_two_above_its_highest_point():
    """Latencies 100 times apart (a log axis): its top is twice matplotlib's autoscaled one, room above the slowest
    point (10,000 µs) for its label."""
    from ycsbctl.report.plots import throughput_latency_figure

    rows = [dict(target=target, workload="w", threads=t, reps=1, ok=1, status="ok", throughput_mean=tp, throughput_seen=tp,
                 throughput_min=tp, throughput_max=tp, latency_mean=lat, latency_min=lat, latency_max=lat, bottleneck="latency")
            for target, tp, lat in (("redis", 110_000.0, 100.0), ("slow", 60_000.0, 10_000.0)) for t in (8, 16)]
    fig = throughput_latency_figure(pd.DataFrame(rows), "w", "p99", {"redis": "#0072B2", "slow": "#E69F00"})
    assert fig is not None
    ax2 = fig.axes[1]
    highest = max(float(y) for ln in ax2.get_lines() for y in ln.get_ydata())  # the 10,000 µs, in the axis's unit
    assert ax2.get_yscale() == "log" and ax2.get_ylim()[1] >= 2 * highest


def test_the_spectrums_title_says_merged_repetitions_when_any_target_has_several_and_its_legend_hugs_the_axes():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    def title(ax) -> str:
        return " ".join(t.get_text() for t in ax.figure.texts)

    assert "(all repetitions merged)" in title(_spectrum({100: 10}, {"a": 1, "b": 2}))
    ax = _spectrum({100: 10}, {"a": 1, "b": 1})
    assert "(one run)" in title(ax)
    # two handles, one legend row: the axes' x label sits just above it (no empty band of the figure between)
    fig = ax.figure
    r = FigureCanvasAgg(fig).get_renderer()  # the x axis's ticks and label, placed without drawing the figure
    legend, axis = fig.legends[-1].get_window_extent(r), ax.xaxis.get_tightbbox(r)
    assert 0 <= axis.y0 - legend.y1 < 0.08 * fig.bbox.height


def test_error_bars_are_the_interval_else_the_range_around_the_mean_in_the_plots_unit() -> None:
    """``_bars``: the lower and upper lengths (mean − low, high − mean) of the 95 % interval where a point has one,
    else of its min–max range, divided by ``div`` (µs to ms: 1,000), never negative."""
    import pandas as pd

    from ycsbctl.report.plots import _bars

    g = pd.DataFrame({"latency_mean": [2000.0, 5000.0, 900.0], "latency_ci_low": [1500.0, None, 1000.0],
                      "latency_ci_high": [2600.0, None, 950.0], "latency_min": [1000.0, 4000.0, 800.0],
                      "latency_max": [3000.0, 7000.0, 990.0]})
    low, high = _bars(g, "latency", 1000.0)
    assert low.tolist() == pytest.approx([0.5, 1.0, 0.0]) and high.tolist() == pytest.approx([0.6, 2.0, 0.05])
    no_ci = _bars(g.drop(columns=["latency_ci_low", "latency_ci_high"]), "latency", 1000.0)
    assert no_ci[0].tolist() == pytest.approx([1.0, 1.0, 0.1]) and no_ci[1].tolist() == pytest.approx([1.0, 2.0, 0.09])


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


def test_the_time_series_keeps_a_last_second_the_run_spent_95_percent_of_and_drops_a_shorter_one():
    """Seconds 0-11 of a run that ended at 0.5 s of warm-up + its runtime: second 10 (10-11 s) is whole when the run
    ended at 10.95 s or later (5 % of a second short, at most), and is a part-second when it ended at 10.9498 s."""
    from types import SimpleNamespace

    from ycsbctl.report.resource_plots import _whole_seconds

    overall = pd.DataFrame({"second": range(12), "operations": 100})

    def kept(runtime_ms: float, warmup_s: float = 0.5) -> list[int]:
        exp = SimpleNamespace(run_doc=lambda run_id: {"result": {"warmup_s": warmup_s, "runtime_ms": runtime_ms}})
        return list(_whole_seconds(exp, "r1", overall)["second"])  # type: ignore[arg-type]

    assert kept(10_450.0) == list(range(11))  # 0.5 + 10.45 = 10.95 s: second 10 is 95 % run, kept
    assert kept(10_449.8) == list(range(10))  # 10.9498 s: second 10 is 94.98 % run, dropped
    assert kept(11_000.0, warmup_s=0.0) == list(range(11))  # ended on the second: 11 whole seconds
    assert kept(1_000.0, warmup_s=0.0) == [0]  # a run of exactly one second: its one whole second
    assert kept(0.0, warmup_s=0.0) == list(range(12))  # no end known: every second kept
