"""report.html: every section rendered from the data, honest about failures, self-contained, and
readable by a real browser."""

from __future__ import annotations

import base64
import math
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tests.fixtures.chromium import chromium, needs_chromium, overlapping, text_boxes
from tests.fixtures.experiments import FAILED_ERROR, SKIPPED, build_experiment
from ycsbctl.cli import main
from ycsbctl.report.html import render_report
from ycsbctl.report.summary import fmt_us
from ycsbctl.results import load

pytestmark = pytest.mark.report  # reads the report a sweep draws (see tests/fixtures/session.py)


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.srcs: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.srcs.append(a.get("src", ""))
        if tag == "a":
            self.links.append(a.get("href", ""))


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'").replace("&amp;", "&")


@pytest.fixture(scope="module")
def rendered(synthetic_experiment_template: Path, tmp_path_factory) -> tuple[Path, str]:
    """The small experiment rendered once for the read-only checks of this module."""
    dest = tmp_path_factory.mktemp("rendered") / synthetic_experiment_template.name
    shutil.copytree(synthetic_experiment_template, dest)
    out = render_report(dest)
    return out, out.read_text(encoding="utf-8")


def test_report_says_who_peaks_where_and_by_how_much(rendered):
    out, html = rendered
    text = _text(html)
    exp = load(out.parent)
    pts = exp.points()
    redis = pts[(pts.workload == "workloadb") & (pts.target == "redis")]
    peak = redis.loc[redis.throughput_mean.idxmax()]
    assert f"workloadb: redis peaks at {peak.throughput_mean / 1000:.1f}k ops/s at {peak.threads} threads" in text
    # mongodb's peak as a share of redis's: the ratio of the geometric means of each peak's ok repetitions
    runs = exp.runs[(exp.runs.workload == "workloadb") & (exp.runs.phase == "run") & (exp.runs.status == "ok")]
    mongo = pts[(pts.workload == "workloadb") & (pts.target == "mongodb")]
    m_peak = mongo.loc[mongo.throughput_mean.idxmax()]

    def gm(target: str, threads: int) -> float:
        v = runs[(runs.target == target) & (runs.threads == threads)].throughput_ops
        return float(np.exp(np.log(v).mean()))

    ratio = gm("mongodb", m_peak.threads) / gm("redis", peak.threads)
    assert f"): {ratio:.2f}× of redis's peak, undecided" in text
    # the peak's latency is its main operation's (the console's rule: the one with the most operations), named
    ops = exp.ops[exp.ops.run_id.isin(runs[(runs.target == "mongodb") & (runs.threads == m_peak.threads)].run_id)]
    main = ops.groupby("op").operations.sum().idxmax()
    assert main == "READ"  # workload B: 95 % reads
    assert f"at {m_peak.threads} threads, READ p99 {fmt_us(ops[ops.op == main].p99_us.mean())}" in text
    assert "mongodb is server-CPU-bound from 16 threads" in text


def test_skipped_target_and_failed_point_are_shown_honestly(rendered):
    _, html = rendered
    text = _text(html)
    assert f"dragonfly was skipped: {SKIPPED['reason']}" in text
    assert SKIPPED["fix"] in text  # how to include it
    assert "mongodb at 32 threads: 1 of 2 repetitions failed" in text
    assert FAILED_ERROR in text
    assert "mongodb.workloada.run.t32.r0" in text  # the failures table names the run
    assert html.count('class="failed"') >= 2  # the failed points' rows are marked
    assert "client-cpu (lower bound)" in text  # the client-bound point is not sold as a server result
    assert "redis is limited by the client (load generator) CPU" in text


def test_report_names_the_server_that_actually_answered(rendered):
    _, html = rendered
    assert "FerretDB (mongo-wire, SQLite) 1.24.0 — not MongoDB" in _text(html)


def test_report_has_plan_environment_tables_and_data_links(rendered):
    out, html = rendered
    text = _text(html)
    for needle in ("Test CPU @ 2.0GHz", "ycsbctl run workloada workloadb", "Points (threads × target)",
                   "READ latency (µs)", "UPDATE latency (µs)", "Load phase", "bytes per record", "iperf3 baseline"):
        assert needle in text, needle
    parser = _Images()
    parser.feed(html)
    for link in ("runs.parquet", "runs.csv", "ops.csv", "series.parquet", "telemetry.parquet", "manifest.json"):
        assert link in parser.links
        assert (out.parent / link).exists()
    for svg in [h for h in parser.links if h.endswith(".svg")]:
        assert (out.parent / svg).read_text().lstrip().startswith("<?xml")


def test_every_image_is_inlined_as_a_valid_png_or_svg(rendered):
    _, html = rendered
    parser = _Images()
    parser.feed(html)
    assert len(parser.srcs) >= 2 * 4 + 1  # per workload: figure, CPU, spectrum, time series; + footprint
    for src in parser.srcs:
        m = re.fullmatch(r"data:image/(png|svg\+xml);base64,([A-Za-z0-9+/=]+)", src)
        assert m, src[:80]
        data = base64.b64decode(m.group(2), validate=True)
        if m.group(1) == "png":
            assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 5000
        else:
            assert b"<svg" in data[:500]
    assert "http://" not in re.sub(r'xmlns[^ ]*="http://[^"]*"', "", html).replace("https://www.dragonfly", "")


@needs_chromium
def test_report_opens_in_headless_chromium(rendered, tmp_path):
    out, _ = rendered
    shot = tmp_path / "report.png"
    chromium(out, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,4000")
    from matplotlib.image import imread

    img = imread(shot)
    assert img.shape[:2] == (4000, 1280)
    rgb = img[..., :3]
    non_white = (rgb < 0.95).any(axis=2)
    assert non_white.mean() > 0.03  # text, tables and figures drew
    colourful = (rgb.max(axis=2) - rgb.min(axis=2)) > 0.3  # the Okabe–Ito lines of the inlined plots
    assert colourful.sum() > 2000
    assert non_white[3000:].any()  # the page is long: content far down, so images have a size


@needs_chromium
def test_no_two_labels_of_the_reports_figures_overlap_in_headless_chromium(rendered, tmp_path):
    """Every figure the report shows (its SVG, as the report links it), laid out by chromium: no two of its
    texts — tick labels, titles, legend entries, the labels of degraded and failed points, the footprint's
    unlike-quantities note — overlap. A figure whose point labels are not spread apart is measured beside
    them and must show an overlap: the check sees one where there is one."""
    from tests.fixtures.crowded_plot import COLORS, crowded_points
    from ycsbctl.report import plots

    out, html = rendered
    svgs = {rel: out.parent / rel for rel in dict.fromkeys(re.findall(r'href="(plots/[^"]+\.svg)"', html))}
    assert len(svgs) >= 4 and "plots/footprint-network.svg" in svgs
    real_spread = plots.spread_labels
    plots.spread_labels = lambda fig, labels: None  # the labels as they were drawn before they were spread
    try:
        crowded = plots.throughput_latency_figure(crowded_points(), "workloadb", "p99", COLORS)
    finally:
        plots.spread_labels = real_spread
    crowded.savefig(tmp_path / "crowded.svg", format="svg")
    boxes = text_boxes({**svgs, "control": tmp_path / "crowded.svg"}, tmp_path)
    assert overlapping(boxes.pop("control"))  # chromium drew the unspread labels on top of each other
    assert {name: overlapping(b) for name, b in boxes.items() if overlapping(b)} == {}
    assert all(len(b) >= 10 for b in boxes.values())  # every figure's texts were found and measured


def test_report_command_renders_with_the_chosen_latency(tmp_path):
    folder = build_experiment(tmp_path, "one", workloads=("workloadb",), threads=(8, 16), repetitions=1,
                              failed=False, skipped=False)  # the smallest ladder: what is checked is the command
    r = CliRunner().invoke(main, ["report", str(folder), "--latency", "p999"])
    assert r.exit_code == 0, r.output
    assert f"report: {folder / 'report.html'}" in r.output
    assert "p99.9 latency" in (folder / "report.html").read_text()


def test_report_of_a_missing_folder_is_one_error_line(tmp_path):
    r = CliRunner().invoke(main, ["report", str(tmp_path / "nope")])
    assert r.exit_code == 2
    assert r.output.strip().startswith("error: no result folder at")


def test_report_of_a_stopped_experiment_says_it_is_not_complete(tmp_path):
    path = build_experiment(tmp_path, "stopped", finalize=False, workloads=("workloadb",), threads=(8, 16),
                            repetitions=1)
    out = render_report(tmp_path / "stopped")
    assert out.parent == path  # rendered into the .partial folder it found
    assert "This experiment is running: it stopped before" in _text(out.read_text())


def test_insert_workload_sweeps_the_load_phase(tmp_path):
    path = build_experiment(tmp_path, "ins", workloads=("insert",), threads=(8, 16), repetitions=1, skipped=False,
                            failed=False)
    out = render_report(path)
    assert (path / "plots" / "insert.throughput-latency.png").exists()
    text = _text(out.read_text())
    assert "INSERT latency (µs)" in text and "insert: redis peaks at" in text
    assert np.isfinite(load(path).points()["throughput_mean"]).all()


def _points(peaks: dict[str, tuple[float, float]]) -> pd.DataFrame:
    rows = []
    for target, (ops_s, p99_us) in peaks.items():
        for t in (8, 16, 32):
            rows.append(dict(target=target, workload="workloadb", threads=t, reps=1, ok=1, status="ok",
                             throughput_mean=ops_s, throughput_min=ops_s, throughput_max=ops_s,
                             latency_mean=p99_us * t / 8, latency_min=p99_us * t / 8, latency_max=p99_us * t / 8,
                             bottleneck="latency"))
    return pd.DataFrame(rows)


def _bounded(pts: pd.DataFrame, spread: float = 0.01) -> pd.DataFrame:
    """``pts`` with each throughput's 95 % interval ±``spread`` of it (a knee is said only where one supports it)."""
    return pts.assign(throughput_ci_low=pts["throughput_mean"] * (1 - spread),
                      throughput_ci_high=pts["throughput_mean"] * (1 + spread))


def test_targets_forty_times_apart_get_log_axes_and_close_ones_linear():
    from ycsbctl.report.plots import throughput_latency_figure

    colors = {"redis": "#0072B2", "ferretdb": "#E69F00"}
    far = throughput_latency_figure(_points({"redis": (110_000, 200), "ferretdb": (2_600, 9_000)}), "workloadb",
                                    "p99", colors)
    ax, ax2 = far.axes
    assert (ax.get_yscale(), ax2.get_yscale()) == ("log", "log")
    assert "log scale" in ax.get_ylabel() and "log scale" in ax2.get_ylabel()
    assert ax.get_ylim()[0] < 2_600  # the slower target is drawn, not flattened at zero

    near = throughput_latency_figure(_points({"redis": (110_000, 200), "ferretdb": (60_000, 450)}), "workloadb",
                                     "p99", colors)
    ax, ax2 = near.axes
    assert (ax.get_yscale(), ax2.get_yscale()) == ("linear", "linear") and ax.get_ylim()[0] == 0


def test_only_a_latency_bound_ladder_names_its_evidences_cause_and_one_without_why_lines_has_none():
    """Two ladders still growing, both server-CPU-bound, whose busiest points' why lines name different causes:
    one sentence for both (a cause belongs to a latency-bound ladder only); both latency-bound without any why
    line: one sentence, cause unknown. A plateau's network is unknown only where a point's label text says so."""
    from ycsbctl.report.summary import workload_findings

    pts = _points({"redis": (110_000, 200), "mongodb": (60_000, 450)}).assign(bottleneck="server-cpu", error=None,
                                                                              server_cpu_share=0.95)
    for col in ("throughput_mean", "throughput_min", "throughput_max"):
        pts[col] = pts[col] * pts["threads"] / 8  # still growing at 32 threads: no plateau sentence
    pts["why"] = ["cpu wait: runnable 40 % of the time"] * 3 + ["off-CPU wait: blocked in epoll"] * 3
    found = workload_findings(pts, "workloadb", ["redis", "mongodb"], "p99")
    assert found[1:] == ["workloadb: redis and mongodb are server-CPU-bound at every thread count."]
    found = workload_findings(pts.drop(columns="why").assign(bottleneck="latency"), "workloadb", ["redis", "mongodb"],
                              "p99")
    assert found[1:] == ["workloadb: redis and mongodb are latency-bound (nothing measured was saturated; cause "
                         "unknown) "
                         "at every thread count."]
    # a plateau: the network is said unknown only where a point's label text says so (a text without it, or none,
    # is a network measured and not saturated)
    flat = _bounded(_points({"redis": (110_000, 200)}).assign(bottleneck="latency", server_cpu_share=0.5, error=None))
    for texts, unknown in (([None, "latency: nothing saturated", math.nan], False),
                           (["latency: nothing saturated", "latency: network unknown (host loopback)", None], True)):
        (said,) = workload_findings(flat.assign(bottleneck_text=texts), "workloadb", ["redis"], "p99")[1:]
        assert ("(the network is unknown: only the host's loopback counters" in said) is unknown, said
        assert ("the host's nor the network was saturated at every thread count" in said) is not unknown, said


def test_a_client_bound_target_whose_server_was_saturated_too_is_said_to_share_the_host():
    from ycsbctl.report.summary import workload_findings

    pts = _points({"redis": (110_000, 200)}).assign(bottleneck="client-cpu", server_cpu_share=0.91, error=None)
    (peak, bound) = workload_findings(pts, "workloadb", ["redis"], "p99")
    assert "limited by the client (load generator) CPU at every thread count" in bound
    assert "The server was saturated too (91%+ of the CPU it can use)" in bound
    pts["server_cpu_share"] = [0.91, 0.5, 0.91]  # one point with the server below the line: no such claim
    assert "saturated too" not in workload_findings(pts, "workloadb", ["redis"], "p99")[1]


def test_a_target_that_stops_scaling_with_no_resource_saturated_is_not_said_to_wait_on_round_trips():
    from ycsbctl.report.summary import workload_findings

    pts = _points({"ferretdb": (3_500, 9_000)}).assign(server_cpu_share=0.7, error=None)
    pts["throughput_mean"] = [3_500.0, 3_200.0, 2_900.0]  # more clients, less throughput
    (_, bound) = workload_findings(_bounded(pts), "workloadb", ["ferretdb"], "p99")
    assert "its throughput is flat within noise from 8 threads on (3.5k ops/s; 2.9k ops/s at 32 threads)" in bound
    assert "the cause is unknown" in bound and "was saturated" in bound and "latency-bound" not in bound
    assert "inside the server" not in bound and "more client threads do not help" in bound

    pts["throughput_mean"] = [3_500.0, 6_800.0, 12_000.0]  # still growing: what was measured, no cause guessed
    (_, bound) = workload_findings(_bounded(pts), "workloadb", ["ferretdb"], "p99")
    assert bound == "workloadb: ferretdb is latency-bound (nothing measured was saturated; cause unknown) " \
                    "at every thread count."

    pts["throughput_mean"] = [3_500.0, 6_800.0, 7_200.0]  # grows to 16, then within 10 %
    pts["bottleneck"] = "server-cpu"
    (_, bound) = workload_findings(_bounded(pts), "workloadb", ["ferretdb"], "p99")
    assert bound.endswith("is server-CPU-bound at every thread count. Its throughput stops growing at 16 threads "
                          "(6.8k ops/s; 7.2k ops/s at 32 threads): more client threads from there add latency, not "
                          "throughput.")


def test_the_report_shows_p99_unless_told_otherwise(rendered):
    _, html = rendered
    assert "Latency in the figures: p99 over all database operations" in _text(html)


def test_an_embedded_store_against_a_networked_one_says_it_has_no_round_trip_on_the_same_line():
    from ycsbctl.report.summary import workload_findings
    from ycsbctl.report.unlike import unlike_note

    pts = pd.concat([_points({"sqlite": (5_500, 900)}), _points({"redis": (1_000, 9_000)})]).assign(error=None)
    lines = workload_findings(pts, "workloadb", ["sqlite", "redis"], "p99", serverless={"sqlite"})
    peak = next(line for line in lines if "peaks at" in line)
    assert "× redis" in peak and "sqlite is embedded (no server), so it has no network round trip" in peak
    assert unlike_note("redis", "valkey", {"sqlite"}) == ""


def test_whether_a_target_had_a_server_is_what_its_endpoint_recorded_or_for_an_old_folder_its_store_then():
    from ycsbctl.provision.base import Endpoint
    from ycsbctl.report.unlike import LEGACY_SERVERLESS, has_server
    from ycsbctl.stores import registry

    recorded = {p.name: Endpoint(target=p.name, protocol=p.name, url=p.example, backend="external").to_dict()
                for p in registry.all_protocols()}
    assert {n for n, ep in recorded.items() if not has_server(ep)} == \
        {p.name for p in registry.all_protocols() if not p.has_server} >= {"basic", "sqlite"}
    old = {n: {k: v for k, v in ep.items() if k != "has_server"} for n, ep in recorded.items()}
    assert {n for n, ep in old.items() if not has_server(ep)} == LEGACY_SERVERLESS
    assert not registry.get("basic").has_server and not registry.get("sqlite").has_server
    assert has_server({**recorded["basic"], "has_server": True}) and has_server(None)


def test_a_figure_is_inlined_with_its_own_type_and_a_folder_without_runs_badges_no_runs_unless_running(tmp_path):
    """An SVG is inlined as image/svg+xml and a PNG as image/png, each decoding to the file's bytes; a finished
    folder without a run says "no runs", a running one (nothing finished yet) "running", one with runs its status."""
    from ycsbctl.report.html import NO_RUNS, badge, data_uri
    from ycsbctl.results.frames import Experiment
    from ycsbctl.results.schema import Manifest

    for name, mime in (("f.svg", "image/svg+xml"), ("f.png", "image/png")):
        (tmp_path / name).write_bytes(b"<svg/>\x00\xff")
        head, _, body = data_uri(tmp_path / name).partition(",")
        assert head == f"data:{mime};base64" and base64.b64decode(body) == b"<svg/>\x00\xff"

    def exp(status: str, runs: pd.DataFrame) -> Experiment:
        m = Manifest.from_dict({"experiment_id": "", "status": status})
        return Experiment(tmp_path, m, runs, pd.DataFrame(), pd.DataFrame(), pd.DataFrame())

    none, one = pd.DataFrame(), pd.DataFrame({"run_id": ["r1"]})
    assert [badge(exp(s, none)) for s in ("complete", "partial", "running")] == [NO_RUNS, NO_RUNS, "running"]
    assert [badge(exp(s, one)) for s in ("complete", "running")] == ["complete", "running"]
