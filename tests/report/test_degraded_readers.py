"""Every reader of a folder gets its figures when the points are degraded, single or failed: the HTML
points table keeps every column of a degraded point (from runs.parquet, the same figures the console
has), the ladder figure draws degraded points hollow on both axes at what they measured, and the
findings say a host-busy cause once, with how busy the host was.

Folders: :mod:`tests.fixtures.reader_folders` (real runs of redis-server and basic://)."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from matplotlib.collections import PathCollection

from tests.fixtures.cli import ycsbctl
from tests.fixtures.html_tables import Tables
from ycsbctl.report.html import build_context, environment
from ycsbctl.report.plot_style import target_colors
from ycsbctl.report.plots import DEGRADED_NOTE, throughput_latency_figure
from ycsbctl.report.summary import findings
from ycsbctl.results.frames import load
from ycsbctl.results.verdicts import baseline_of

pytestmark = [pytest.mark.report]


def _page(folder) -> Tables:
    exp = load(folder)
    return Tables(environment().get_template("report.html.j2").render(**build_context(exp, {}, exp.points(), "p99")))


def _points_table(page: Tables) -> list[dict[str, str]]:
    rows = next(tb for tb in page.tables if tb and tb[0][:3] == ["threads", "target", "ops/s"])
    head = rows[0][:5] + [f"{op} {s}" for op in ("READ", "UPDATE") for s in ("p50", "p95", "p99")] + rows[0][-5:]
    return [dict(zip(head, r)) for r in rows[2:]]


def _num(v: float) -> str:
    return "—" if v != v else f"{v:,.0f}"


@pytest.mark.parametrize("kind", ["busy", "one"])
def test_a_point_keeps_every_column_of_the_points_table_degraded_or_not(reader_folders, kind) -> None:
    """Each row's latencies, server CPU, client CPU and client lag are the means of its runs in runs.parquet
    (degraded runs where the point has no ok run: the console's and runs.parquet's figures)."""
    runs = load(reader_folders[kind]).runs
    runs = runs[runs["phase"] == "run"]
    rows = _points_table(_page(reader_folders[kind]))
    assert len(rows) == len(runs.groupby(["target", "threads"]))
    for r in rows:
        mine = runs[(runs["target"] == r["target"]) & (runs["threads"] == int(r["threads"]))]
        assert r["status"].startswith(mine["status"].iloc[0])
        assert r["server CPU %"] == _num(mine["server_cpu_pct_mean"].mean())
        assert r["client CPU %"] == _num(mine["client_cpu_pct_mean"].mean()) != "—"
        assert r["client lag p99.9 (µs)"].rstrip(" ⚠") == _num(mine["client_lag_p999_us"].mean()) != "—"
        assert r["READ p99"] == _num(mine["read_p99_us"].mean()) != "—"
        assert r["UPDATE p50"] == _num(mine["update_p50_us"].mean())
    if kind == "busy":  # the server's own CPU is measured for redis (basic:// has no server)
        assert {r["server CPU %"] != "—" for r in rows} == {True, False}


def test_degraded_rows_are_marked_as_such(reader_folders) -> None:
    html = environment().get_template("report.html.j2").render(
        **build_context(load(reader_folders["busy"]), {}, load(reader_folders["busy"]).points(), "p99"))
    assert html.count('<tr class="degraded">') == 4 and "Rows shaded amber are degraded points" in html


def _lines(ax) -> list:
    return [ln for ln in ax.get_lines() if len(ln.get_xdata())]


@pytest.mark.parametrize("stretch", [1.0, 1000.0])
def test_an_all_degraded_ladder_draws_every_point_hollow_on_both_axes(reader_folders, stretch: float) -> None:
    """The p99 axis is not empty: each target's degraded points sit at its runs' p99 (runs.parquet), hollow, on the
    axis's unit — also when every latency is stretched ×1000, so that the axis reads ms (each diamond and the dotted
    line through it divided by 1000)."""
    exp = load(reader_folders["busy"])
    points = exp.points()
    points[[c for c in points if c.startswith("latency")]] *= stretch
    fig = throughput_latency_figure(points, "workloadb", "p99", target_colors(exp.targets))
    ax, ax2 = fig.axes
    runs = exp.runs[exp.runs["phase"] == "run"]
    hollow = [ln for ln in _lines(ax2) if ln.get_marker() == "D" and ln.get_markerfacecolor() in ("white", "w")]
    assert len(hollow) == runs["target"].nunique()
    drawn = sorted(float(y) for ln in hollow for y in ln.get_ydata())
    scale = 1000.0 if "ms" in ax2.get_ylabel() else 1.0
    assert scale == 1000.0 or stretch == 1.0
    want = sorted(runs.groupby(["target", "threads"])["all_p99_us"].mean() * stretch / scale)
    assert drawn == pytest.approx(want)
    dotted = sorted(float(y) for ln in _lines(ax2) if ln.get_linestyle() == ":" for y in ln.get_ydata())
    assert dotted == pytest.approx(want)  # every point of this ladder is degraded: the line joins the diamonds
    tp = sorted(float(y) for ln in _lines(ax) if ln.get_marker() == "o" and ln.get_markerfacecolor() in ("white", "w")
                for y in ln.get_ydata())
    assert tp == pytest.approx(sorted(runs.groupby(["target", "threads"])["throughput_ops"].mean()))
    assert DEGRADED_NOTE in [t.get_text() for t in fig.legends[0].get_texts()]


def test_a_failed_point_keeps_its_cross_and_an_ok_one_its_filled_marker(reader_folders) -> None:
    exp = load(reader_folders["failed"])
    fig = throughput_latency_figure(exp.points(), "workloada", "p99", target_colors(exp.targets))
    ax, _ = fig.axes
    crosses = [c for c in ax.collections if isinstance(c, PathCollection) and len(c.get_offsets())]
    assert len(crosses) == int((exp.points()["status"] == "failed").sum()) == 2
    assert DEGRADED_NOTE not in [t.get_text() for t in fig.legends[0].get_texts()]


def test_host_busy_points_are_said_once_with_how_busy_the_host_was(reader_folders) -> None:
    """The first finding says every point was measured, how many are degraded and how busy the host was during them
    (mean and largest foreign CPU runs.parquet holds for them, % of one core) — not "partial, 0 runs are ok"; one
    sentence then names the sweep's host-busy points, without a figure of its own: said once, not per point."""
    exp = load(reader_folders["busy"])
    said = findings(exp, exp.points())
    assert len([f for f in said if "% of a core" in f]) == 1, said
    runs = exp.runs
    busy = runs[runs["status"].eq("degraded") & runs["bottleneck"].eq("host-busy")]
    foreign = pd.to_numeric(busy["host_foreign_pct"], errors="coerce")
    mean, top = round(foreign.mean()), round(foreign.max())
    how = f"{top}% of a core" if mean == top else f"on average {mean}% of a core, at most {top}%"
    which = "them" if len(busy) == (runs["status"] == "degraded").sum() else f"{len(busy)} of them"
    assert said[0].startswith(f"All {len(runs)} points measured; {(runs['status'] == 'degraded').sum()} degraded — "
                              f"the host was busy during {which} (other programs used {how}"), said[0]
    assert not [f for f in said if "partial" in f or "runs are ok" in f]
    sweep = runs[runs["phase"] == "run"]
    named = next(f for f in said if "measured while the host was busy" in f)
    assert named.startswith(f"{len(sweep)} points (") and "(other programs used CPU)" in named, named
    assert not [f for f in said if re.search(r"at \d+ threads: the run degraded", f)]


def test_the_reports_first_screen_says_once_that_every_point_was_measured(reader_folders) -> None:
    """report.html of the busy folder: the status line above the answer (what of the plan was measured, how busy the
    host was), not again among the findings, and never "partial"."""
    from markupsafe import escape

    from ycsbctl.report.folder_status import status_findings

    exp = load(reader_folders["busy"])
    page = environment().get_template("report.html.j2").render(**build_context(exp, {}, exp.points(), "p99"))
    (line,) = status_findings(str(exp.status), exp.runs, [], exp.manifest.host.get("cores"))
    assert line.startswith("All ") and page.count(str(escape(line))) == 1
    assert page.index(str(escape(line))) < page.index("<h2") and "is partial" not in page  # above the answer


def _expected_exit(runs: pd.DataFrame, skipped: list) -> tuple[int, str]:
    """The exit code and folder status the points table's statuses call for (docs/guide/result-folder.md)."""
    statuses = set(runs["status"])
    if skipped or statuses & {"failed", "interrupted"}:
        return 1, "partial"
    return (3 if "degraded" in statuses else 0), "complete"


@pytest.mark.parametrize("kind", ["busy", "one", "failed"])
def test_each_folders_real_exit_code_and_status_are_what_its_points_table_says(reader_folders, kind) -> None:
    """Issue 72, against the points' own statuses: the exit code of the real ``ycsbctl run`` that wrote each folder
    and its manifest's status. busy (every point degraded by a busy host): 3 and complete; failed (redis's points
    failed): 1 and partial; one (an ok point): 0 and complete."""
    from tests.fixtures.reader_folders import exit_code_file

    exp = load(reader_folders[kind])
    code, status = _expected_exit(exp.runs, exp.manifest.skipped_targets)
    assert {"busy": 3, "one": 0, "failed": 1}[kind] == code, exp.runs["status"].tolist()  # each is what it says
    assert int(exit_code_file(reader_folders[kind]).read_text()) == code
    assert str(exp.manifest.status) == status


def test_a_host_busy_points_why_line_keeps_the_servers_own_evidence_first(reader_folders) -> None:
    """Issue 72: the why line of a redis point the busy host degraded gives what its own evidence says (the label
    measured under the busy host, with the server's CPU against what it may use) before the busy-host sentence —
    the same line :func:`explain` gives that evidence under its measured label."""
    from ycsbctl.telemetry.why import explain

    exp = load(reader_folders["busy"])
    runs = exp.runs[(exp.runs["target"] != "basic") & exp.runs["bottleneck"].eq("host-busy") &
                    (exp.runs["phase"] == "run")]
    assert len(runs), exp.runs[["target", "bottleneck"]]
    for _, r in runs.iterrows():
        bn = exp.docs[r["run_id"]]["bottleneck"]
        ev = bn["evidence"]
        assert ev.get("measured_label") not in (None, "host-busy"), ev  # telemetry measured the redis-server
        why = str(r["why"])
        own, busy = why.split("; host-busy: ", 1)
        assert busy.startswith("other programs used") and "server" in own, why
        alone = explain({"label": ev["measured_label"], "evidence": ev, "text": ev.get("measured_text")},
                        r["target"], int(r["threads"]))
        # the same kind of line (a network delay needs the point's mean latency, which this call is not given)
        assert alone is not None and own.split(":")[0] in {alone.split(":")[0], "network delay"}, (own, alone)


@pytest.mark.parametrize("kind, cause", [("busy", "degraded (host busy: other programs used CPU)"),
                                         ("failed", "failed (errors above --max-error-rate)")])
def test_compare_json_with_nothing_compared_says_why_in_each_object_and_on_stderr(reader_folders, kind, cause) -> None:
    """Instead of a bare ``[]``: one object per cell and metric, ``compared`` false, ``verdict`` null and ``why``
    naming the points' status and cause; one stderr line counts them; the exit code stays 0."""
    p = ycsbctl("compare", str(reader_folders[kind]), "--format", "json")
    assert p.returncode == 0, p.stderr
    cells = json.loads(p.stdout)
    runs = load(reader_folders[kind]).runs
    others = runs[
        (runs["phase"] == "run") & (runs["target"] != baseline_of(load(reader_folders[kind]).manifest.plan, runs))
    ]
    assert len(cells) == 2 * len(others)  # throughput and p99 of each other target's point
    assert {c["compared"] for c in cells} == {False} and {c["verdict"] for c in cells} == {None}
    assert all(cause in c["why"] and "% of a core" not in c["why"] for c in cells)
    assert p.stderr.startswith(f"note: {len(others)} of {len(others)} cells were not compared")
    assert f"{len(others)} with {cause}" in p.stderr


def test_compare_json_of_compared_cells_says_they_were(synthetic_experiment) -> None:
    p = ycsbctl("compare", str(synthetic_experiment), "--format", "json")
    assert p.returncode == 0, p.stderr
    cells = json.loads(p.stdout)
    compared = [c for c in cells if c["compared"]]
    assert compared and all(c["why"] is None and c["verdict"] for c in compared)
    assert all(c["why"] and c["verdict"] is None for c in cells if not c["compared"])  # the failed point's cell


def test_the_console_summary_says_the_busy_host_once(reader_folders) -> None:
    from rich.console import Console

    from ycsbctl.report.summary_table import print_summary

    console = Console(record=True, width=400)
    print_summary(reader_folders["busy"], console)
    text = console.export_text()
    assert text.count("measured while the host was busy") == 1
    assert text.count("% of a core") == 1  # how busy, once (the closing status line); not each point's own share
    assert "points measured;" in text and "partial" not in text
    assert "degraded" in text and "host-busy" in text  # each row keeps its status and label


def test_an_all_degraded_ladder_draws_its_cpu_figure_hollow_at_what_the_runs_used(reader_folders) -> None:
    from ycsbctl.report.resource_plots import DEGRADED_CPU_NOTE, cpu_figure

    exp = load(reader_folders["busy"])
    fig = cpu_figure(exp.points(), "workloadb", exp.manifest.host.get("cores"), target_colors(exp.targets))
    assert fig is not None
    runs = exp.runs[exp.runs["phase"] == "run"]
    hollow = [ln for ln in _lines(fig.axes[0]) if ln.get_markerfacecolor() in ("white", "w") and ln.get_marker() == "D"]
    drawn = sorted(float(y) for ln in hollow for y in ln.get_ydata())
    assert drawn == pytest.approx(sorted(runs.groupby(["target", "threads"])["client_cpu_pct_mean"].mean()))
    assert DEGRADED_CPU_NOTE in [t.get_text() for t in fig.legends[0].get_texts()]
