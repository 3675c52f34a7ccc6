"""Rules of the report's figures a person reads, each checked against its own statement (pure,
milliseconds): an axis ends 15 % above the largest value it shows, and the memory panel's two bars per
target are the store's own figure and the process's RSS, in MiB, each blank where it was not measured."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from ycsbctl.report.plot_style import axis_top
from ycsbctl.report.resource_plots import footprint_figure
from ycsbctl.results.frames import Experiment
from ycsbctl.results.schema import Manifest

MIB = 1024 * 1024


def test_an_axis_ends_15_percent_above_its_largest_value_and_at_1_when_there_is_none():
    assert axis_top(200.0) == pytest.approx(230.0, rel=1e-12)
    assert axis_top(0.004) == pytest.approx(0.0046, rel=1e-12)
    assert [axis_top(x) for x in (0.0, -5.0, math.nan, math.inf)] == [1.0, 1.0, 1.0, 1.0]


def test_the_memory_panels_bars_are_the_stores_figure_and_the_rss_in_mib_blank_where_not_measured():
    import pandas as pd

    from ycsbctl.telemetry.footprint import Footprint

    footprints = {"redis": Footprint("redis", "redis", 1000, 1 * MIB, 3 * MIB, 8 * MIB, 9 * MIB, "process").to_dict(),
                  "sqlite": Footprint("sqlite", "sqlite", 1000, None, None, 2 * MIB, 5 * MIB, "process").to_dict()}
    manifest = Manifest.from_dict({"experiment_id": "", "status": "complete", "footprints": footprints,
                                   "plan": {"targets": list(footprints)}})
    runs = pd.DataFrame({"status": pd.Series(dtype=str), "target": pd.Series(dtype=str)})
    exp = Experiment(Path("."), manifest, runs, pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), {})
    fig = footprint_figure(exp, {})
    assert fig is not None
    (ax,) = [a for a in fig.axes if a.get_title().startswith("memory after load")]
    store, rss = (c for c in ax.containers)
    heights = [[r.get_height() for r in bars] for bars in (store, rss)]
    assert heights[0][0] == 3.0 and math.isnan(heights[0][1])  # the store's own figure; sqlite reports none
    assert heights[1] == [9.0, 5.0]  # each process's RSS after the load
    assert (store.get_label(), rss.get_label()) == ("reported by the store", "process RSS")


def test_the_network_used_is_the_busiest_ok_runs_bytes_per_second_in_gbit_s():
    import pandas as pd

    from ycsbctl.report.resource_plots import network_used_gbit

    runs = pd.DataFrame({"status": ["ok", "ok", "failed", "ok"], "target": ["a", "a", "a", "b"],
                         "net_bytes_per_s_mean": [1.25e9, 0.5e9, 9e9, 125e6]})
    exp = Experiment(Path("."), Manifest.from_dict({"experiment_id": ""}), runs, pd.DataFrame(), pd.DataFrame(),
                     pd.DataFrame(), {})
    assert network_used_gbit(exp) == {"a": pytest.approx(10.0), "b": pytest.approx(1.0)}  # bytes × 8 / 1e9


def test_targets_more_than_20_times_apart_are_far_apart():
    import pandas as pd

    from ycsbctl.report.plot_style import far_apart

    assert far_apart(pd.Series([1.0, 20.1])) and far_apart(pd.Series([2.0, 0.0, 41.0]))  # a zero is no value
    assert not far_apart(pd.Series([1.0, 19.9])) and not far_apart(pd.Series([5.0]))


def test_the_cpu_figure_draws_the_server_cpu_of_a_ladder_without_client_cpu():
    import numpy as np
    import pandas as pd

    from ycsbctl.report.resource_plots import cpu_figure

    points = pd.DataFrame({"workload": "w", "status": "ok", "target": "redis", "threads": [8, 16],
                           "server_cpu_pct": [40.0, 75.0], "client_cpu_pct": [np.nan, np.nan]})
    fig = cpu_figure(points, "w", 2, {"redis": "#d62728"})
    assert fig is not None
    lines = [ln for ln in fig.axes[0].get_lines() if ln.get_color() == "#d62728"]  # the target's, not the core lines
    assert [list(ln.get_ydata()) for ln in lines] == [[40.0, 75.0]]  # the server's, and no client line
    assert cpu_figure(points.assign(server_cpu_pct=np.nan), "w", 2, {"redis": "#d62728"}) is None


def test_a_timeline_labels_each_event_with_its_command_and_stall_in_ms():
    import pandas as pd

    from ycsbctl.report.disturbance_report import _label

    assert _label(pd.Series({"event": "DEL big", "command_s": 1.2344, "stall_s": 0.4996})) == \
        "DEL big, command 1,234 ms, stall 500 ms"
    assert _label(pd.Series({"event": "BGSAVE", "command_s": None, "stall_s": "n/a"})) == "BGSAVE"
    assert _label(pd.Series({"event": "FLUSHALL", "command_s": 12.5, "stall_s": 2.0})) == \
        "FLUSHALL, command 12,500 ms, stall 2,000 ms"  # seconds × 1000, to the ms


def test_the_network_baseline_is_the_manifests_iperf3_figure_else_the_runs_largest_never_nan():
    """The manifest's iperf3 figure wins over the runs' telemetry summary; a target the manifest lacks takes its
    runs' largest baseline; a target whose runs hold none (NaN) has no baseline at all."""
    import pandas as pd

    from ycsbctl.report.resource_plots import network_baseline_gbit

    manifest = Manifest.from_dict({"experiment_id": "", "network": {"a": {"gbit_s": 25}, "z": {"gbit_s": "n/a"}}})
    runs = pd.DataFrame({"status": "ok", "target": ["a", "b", "b", "c", "z"],
                         "baseline_gbit_s": [5.0, 3.0, 4.0, math.nan, "?"]})
    exp = Experiment(Path("."), manifest, runs, pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), {})
    assert network_baseline_gbit(exp) == {"a": 25.0, "b": 4.0}


def test_the_cpu_figure_marks_one_core_and_all_cores_at_100_percent_each_and_tops_12_percent_above():
    """The dotted lines and their labels: "one core" at 100 %, "all 4 cores" at 400 %, each label at the left
    edge of the axis on its line; the axis ends 12 % above the larger of the busiest CPU and all cores."""
    import numpy as np
    import pandas as pd

    from ycsbctl.report.resource_plots import cpu_figure

    points = pd.DataFrame({"workload": ["w", "w", "other", "w"], "status": ["ok", "ok", "ok", "skipped"],
                           "target": "redis", "threads": [8, 16, 32, 64], "server_cpu_pct": [40.0, 75.0, 990.0, 999.0],
                           "client_cpu_pct": [np.nan, 520.0, 990.0, 999.0]})  # another workload's and a skipped point
    for cores, busiest in ((4, 520.0), (8, 800.0), (None, 520.0)):
        fig = cpu_figure(points, "w", cores, {"redis": "#d62728"})
        assert fig is not None
        ax = fig.axes[0]
        marks = {t.get_text(): t.xy for t in ax.texts}
        assert marks == ({"one core": (0.01, 100), f"all {cores} cores": (0.01, 100 * cores)} if cores
                         else {"one core": (0.01, 100)})
        flat = sorted(ln.get_ydata()[0] for ln in ax.get_lines() if ln.get_color() not in ("#d62728",))
        assert flat == ([100, 100 * cores] if cores else [100])
        assert ax.get_ylim() == pytest.approx((0, busiest * 1.12))
        client = [ln for ln in ax.get_lines() if ln.get_color() == "#d62728" and ln.get_linestyle() == "--"]
        assert [list(ln.get_ydata()) for ln in client] == [[pytest.approx(np.nan, nan_ok=True), 520.0]]
        assert list(ax.get_xticks()) == [8, 16]


def test_a_latency_tick_says_its_microseconds_in_the_unit_that_reads_shortest_and_a_rate_tick_in_thousands():
    """µs under 1 ms, ms under 1 s, s from 1 s on (each the value divided by its unit's µs: 1, 1,000, 10⁶); a
    rate from 1,000 on in thousands (negative alike), smaller as it is."""
    from ycsbctl.report.plot_style import duration, kilo

    ticks = {500: "500 µs", 999: "999 µs", 1000: "1 ms", 2500: "2.5 ms", 999_000: "999 ms", 1e6: "1 s", 1.5e6: "1.5 s",
             30e6: "30 s"}
    assert {v: duration(v) for v in ticks} == ticks
    assert [kilo(v) for v in (999, 1000, 2500, 150_000, -2000, -999,
                              0.5)] == ["999", "1k", "2.5k", "150k", "-2k", "-999",
                                                                               "0.5"]


def test_a_latency_axis_is_in_ms_from_20000_us_and_each_target_gets_a_colour_of_its_own_at_any_count():
    """Up to eight targets: the Okabe–Ito palette in order; more (a many-store study): as many distinct colours as
    targets, none of them a grey (the colour of a bar without a store) — never two targets in one colour."""
    from matplotlib.colors import to_rgb

    from ycsbctl.report.plot_style import OKABE_ITO, latency_unit, target_colors

    assert [latency_unit(v) for v in (19_999.0, 20_000.0, math.nan)] == [(1.0, "µs"), (1000.0, "ms"), (1.0, "µs")]
    names = [f"t{i}" for i in range(8)]
    assert [target_colors(names)[n] for n in names] == list(OKABE_ITO) and len(set(OKABE_ITO)) == 8
    for n in (9, 10, 18, 20, 45, 80):
        colors = target_colors([f"t{i}" for i in range(n)])
        rgb = {tuple(round(c, 3) for c in to_rgb(v)) for v in colors.values()}
        assert len(colors) == n and len(rgb) == n
        assert not [c for c in rgb if max(c) - min(c) < 0.02]  # no grey
    assert target_colors(["a", "b", "a"]) == target_colors(["a", "b"])  # a name twice is one target


def test_a_threads_axis_is_log2_with_a_tick_per_thread_count_and_a_margin_of_135_percent_each_side():
    from matplotlib.figure import Figure

    from ycsbctl.report.plot_style import threads_axis

    ax = Figure().add_subplot()
    ax.plot([2, 64], [1, 1])
    threads_axis(ax, [2, 8, 64])
    assert ax.get_xscale() == "log" and ax.xaxis.get_transform().base == 2
    assert list(ax.get_xticks()) == [2, 8, 64] and ax.get_xlim() == pytest.approx((2 / 1.35, 64 * 1.35))
    assert [ax.xaxis.get_major_formatter()(v, 0) for v in (2, 8, 64)] == ["2", "8", "64"]
    assert ax.get_xlabel() == "client threads (log₂ scale)"


def test_a_server_panel_draws_the_first_source_and_column_that_has_values_and_none_without_sources():
    """The process's own CPU before the store's (redis-info's), a column without a value skipped, a client
    source never drawn; a telemetry table without a source column, or empty, has no server figure."""
    import pandas as pd

    from ycsbctl.report.resource_plots import CPU_METRICS, MEMORY_METRICS, _server_metric

    tel = pd.DataFrame({"source": ["client-process", "redis-info", "server-process", "redis-info"],
                        "t_s": [0.0, 0.5, 1.0, 1.5], "cpu_pct": [90.0, None, None, None],
                        "db_cpu_pct": [None, 40.0, None, 60.0], "rss_bytes": [1.0, None, 5 * MIB, None],
                        "db_rss_bytes": [None, 7 * MIB, None, 8 * MIB]})
    cpu = _server_metric(tel, CPU_METRICS)
    assert cpu is not None and cpu[1] == "redis-info db_cpu_pct"
    assert list(cpu[0]["value"]) == [40.0, 60.0] and list(cpu[0]["t_s"]) == [0.5, 1.5]
    mem = _server_metric(tel, MEMORY_METRICS)
    assert mem is not None and mem[1] == "server-process rss_bytes" and list(mem[0]["value"]) == [5 * MIB]
    assert _server_metric(tel.drop(columns="source"), CPU_METRICS) is None
    assert _server_metric(tel.iloc[0:0], CPU_METRICS) is None
    assert _server_metric(tel[tel["source"] == "client-process"], CPU_METRICS) is None


def test_the_network_panel_shows_a_baseline_without_a_measured_rate_and_the_unlike_note_is_centred_below():
    """A folder with an iperf3 baseline and no run's network rate still gets the network panel (its used bar
    blank, the baseline's drawn); two stores whose memory figures are unlike quantities get the note centred
    under the figure, clear of every panel and legend as the renderer draws them."""
    import pandas as pd
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from ycsbctl.telemetry.footprint import Footprint

    footprints = {"redis": Footprint("redis", "redis", 1000, 1 * MIB, 3 * MIB, 8 * MIB, 9 * MIB, "process",
                                     bytes_per_record=2097.0, basis="used_memory").to_dict(),
                  "mongo": Footprint("mongo", "mongodb", 1000, 2 * MIB, 4 * MIB, 6 * MIB, 7 * MIB, "process",
                                     bytes_per_record=2097.0, basis="dbStats").to_dict()}
    manifest = Manifest.from_dict({"experiment_id": "", "status": "complete", "footprints": footprints,
                                   "network": {"redis": {"gbit_s": 20.0}}, "plan": {"targets": list(footprints)}})
    runs = pd.DataFrame({"status": pd.Series(dtype=str), "target": pd.Series(dtype=str)})
    exp = Experiment(Path("."), manifest, runs, pd.DataFrame(), pd.DataFrame(), pd.DataFrame(), {})
    fig = footprint_figure(exp, {})
    assert fig is not None
    (ax,) = [a for a in fig.axes if a.get_title() == "network: peak used vs iperf3 baseline"]
    used, base = ax.containers[0], ax.containers[1]
    assert math.isnan(used[0].get_height()) and base[0].get_height() == 20.0
    (note,) = [t for t in fig.texts if t.get_text().startswith("Unlike quantities")]
    r = FigureCanvasAgg(fig).get_renderer()
    fig.draw(r)
    box, width = note.get_window_extent(r), fig.bbox.width
    assert abs((box.x0 + box.x1) / 2 - width / 2) < 1.0  # centred to the pixel
    assert not any(box.overlaps(a.get_tightbbox(r)) for a in fig.axes)
    assert not any(box.overlaps(leg.get_window_extent(r)) for a in fig.axes if (leg := a.get_legend()) is not None)


def test_a_figures_title_and_subtitle_are_centred_the_subtitle_under_the_title_and_above_the_axes():
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from ycsbctl.report.plot_style import titles

    fig = Figure(figsize=(9, 5.2))
    fig.add_subplot()
    fig.subplots_adjust(top=0.86)
    titles(fig, "workload-a: throughput vs client threads", "redis 7.2 on 2 cores; 3 repetitions of 30 s")
    r = FigureCanvasAgg(fig).get_renderer()
    fig.draw(r)
    (head,) = [t for t in fig.texts if t.get_text().startswith("workload-a")]
    (sub,) = [t for t in fig.texts if t.get_text().startswith("redis")]
    title, sub_box, axes = head.get_window_extent(r), sub.get_window_extent(r), fig.axes[0].get_window_extent(r)
    for box in (title, sub_box):
        assert abs((box.x0 + box.x1) / 2 - fig.bbox.width / 2) < 1.0  # centred to the pixel
    assert title.y0 > sub_box.y1 and sub_box.y0 > axes.y1  # title, then subtitle, then the axes: none overlapping
    titles(empty := Figure(), "t", "")
    assert [t.get_text() for t in empty.texts] == ["t"]  # no subtitle, no empty text


def test_a_timelines_throughput_axis_starts_at_0_and_ends_15_percent_above_the_windows_largest_rate():
    from types import SimpleNamespace

    import pandas as pd

    from ycsbctl.report.disturbance_report import timeline_figure

    # 100 ms intervals at 1.0..1.3 s of a run with 1 s of warm-up and 0.3 s measured: the one at 1.3 s is past the end
    fine = pd.DataFrame({"t_s": [1.0, 1.1, 1.2, 1.3] * 2, "op": ["OVERALL"] * 4 + ["CLIENT-LAG"] * 4,
                         "ops_per_s": [500.0, 800.0, 600.0, 9000.0] + [math.nan] * 4,
                         "p99_us": [900.0, 1200.0, 1000.0, 5000.0] + [math.nan] * 4,
                         "max_us": [math.nan] * 4 + [50.0, 70.0, 60.0, 80.0]})
    exp = SimpleNamespace(fine_series_of=lambda _: fine, events_of=lambda _: pd.DataFrame(),
                          run_doc=lambda _: {"target": "redis", "result": {"warmup_s": 1.0, "duration_s": 0.3}})
    fig = timeline_figure(exp, "r1")  # type: ignore[arg-type]
    assert fig is not None
    top = fig.axes[0]
    assert top.get_ylim() == pytest.approx((0.0, 800.0 * 1.15))
    assert list(top.lines[0].get_xdata()) == pytest.approx([0.05, 0.15, 0.25])  # interval middles, window seconds
