"""The report's and `ycsbctl compare`'s figures against a computation done here from the raw files.

Two small real experiments (redis-server and basic://, 2 repetitions; tests/fixtures/truth.py) are run
with the CLI. The
truth is computed in the test with pandas from ``runs.parquet`` (operations / runtime) and with
HdrHistogram's own ``decode``/``add``/``get_value_at_percentile`` from ``histograms/*.hdr``; the
report's numbers are read back from ``report.html`` and ``compare.html`` with an HTML parser.
"""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hdrh.histogram import HdrHistogram
from scipy import stats as sps

from tests.fixtures.cli import YCSBCTL
from tests.fixtures.html_tables import Tables
from tests.fixtures.servers import ROOT
from ycsbctl.report.compare import compare, render_compare_html
from ycsbctl.report.html import build_context, environment
from ycsbctl.report.plot_style import PlotFile
from ycsbctl.results.frames import load
from ycsbctl.results.verdict_words import interval_text

pytestmark = [pytest.mark.truth, pytest.mark.report]

OPS = ("READ", "UPDATE")


def render(folder: Path) -> Tables:
    """report.html's text as the current code writes it, without drawing the plots (fast)."""
    exp = load(folder)
    # The figures the run drew stand in for new ones (the table sits under the first figure).
    figures = {w: [PlotFile(png.stem, png.stem, png, png.with_suffix(".svg"))
                   for png in sorted((folder / "plots").glob(f"{w}.*.png"))] for w in exp.workloads}
    context = build_context(exp, figures, exp.points("p99"), "p99")
    return Tables(environment().get_template("report.html.j2").render(**context))


def points_table(html: Tables) -> list[list[str]]:
    return next(tb for tb in html.tables if tb and tb[0][:3] == ["threads", "target", "ops/s"])


def compare_table(html: Tables) -> list[list[str]]:
    return next(tb for tb in html.tables if tb and tb[0][:4] == ["experiment", "workload", "target", "threads"])


def _hist(folder: Path, run_id: str, op: str) -> HdrHistogram:
    return HdrHistogram.decode((folder / "histograms" / f"{run_id}.{op}.hdr").read_bytes())


def _all_ops(folder: Path, run_id: str) -> HdrHistogram:
    h = HdrHistogram(1, 3_600_000_000, 3)
    for op in OPS:
        h.add(_hist(folder, run_id, op))
    return h


def truth(folder: Path) -> pd.DataFrame:
    """Per target × threads over the ok run-phase repetitions: ops/s (mean, min, max), the mean over
    repetitions of each operation's p50/p95/p99 and of the all-operations p99 (µs)."""
    runs = pd.read_parquet(folder / "runs.parquet")
    runs = runs[(runs["phase"] == "run") & (runs["status"] == "ok")].copy()
    runs["ops_s"] = 1000.0 * runs["operations"] / runs["runtime_ms"]
    runs["client_cpu"] = 100.0 * runs["client_cpu_s"] / (runs["runtime_ms"] / 1000.0)
    for _, r in runs.iterrows():
        for op in OPS:
            h = _hist(folder, r["run_id"], op)
            for p in (50, 95, 99):
                runs.loc[r.name, f"{op}_p{p}"] = h.get_value_at_percentile(p)
        all_ops = _all_ops(folder, r["run_id"])
        runs.loc[r.name, "all_p99"] = all_ops.get_value_at_percentile(99)
        runs.loc[r.name, "all_p95"] = all_ops.get_value_at_percentile(95)
    cols = {c: "mean" for c in runs.columns if "_p" in c and c.split("_")[0] in (*OPS, "all")}
    g = runs.groupby(["target", "threads"])
    out = g.agg(ops_mean=("ops_s", "mean"), ops_min=("ops_s", "min"), ops_max=("ops_s", "max"),
                ops_values=("ops_s", list),
                p99_values=("all_p99", list), p95_values=("all_p95", list),
                reps=("run_id", "count"), client_cpu=("client_cpu", "mean"))
    return out.join(g.agg(cols))


def _n(v: float) -> str:
    return f"{v:,.0f}"


def test_report_points_table_is_the_mean_over_repetitions_of_the_raw_figures(truth_experiments):
    folder = truth_experiments[0]
    t = truth(folder)
    table = points_table(render(folder))
    assert table[1] == ["p50", "p95", "p99"] * 2
    rows = table[2:]
    assert len(rows) == len(t) == 4
    for row in rows:
        threads, target = int(row[0]), row[1]
        want = t.loc[(target, threads)]
        assert row[2] == _n(want["ops_mean"]), (target, threads)
        # the 95 % t interval of the mean log of the two repetitions, by hand with scipy's t quantile
        logs = np.log(want["ops_values"])
        half = sps.t.ppf(0.975, len(logs) - 1) * logs.std(ddof=1) / math.sqrt(len(logs))
        pct = math.expm1(half) * 100  # above 100 % the column says only that it is huge
        assert row[3].rstrip(" ⚠") == (f"±{pct:.1f}%" if pct <= 100 else "> ±100%"), (target, threads)
        assert row[4] == "2/2"
        assert row[5:11] == [_n(want[f"{op}_p{p}"]) for op in OPS for p in (50, 95, 99)], (target, threads)
        assert row[11] == "—" and row[12] == _n(want["client_cpu"])  # no telemetry: client CPU from the engine
        assert row[-1] == "ok"


def _fmt_ops(v: float) -> str:
    return f"{v / 1000:.1f}k ops/s" if v >= 1000 else f"{v:.0f} ops/s"


def _fmt_us(v: float) -> str:
    return f"{v / 1000:.1f} ms" if v >= 1000 else f"{v:.0f} µs"


def test_report_finding_names_the_peaks_and_their_ratio(truth_experiments):
    folder = truth_experiments[0]
    t = truth(folder).reset_index()
    peaks = t.loc[t.groupby("target")["ops_mean"].idxmax()].sort_values("ops_mean", ascending=False)
    lead, other = peaks.iloc[0], peaks.iloc[1]
    assert lead["target"] == "basic"  # no server: far faster than any round trip
    sentence = next(f for f in render(folder).findings if "peaks at" in f)
    # the peak's latency is its main operation's, named as on the console: READ, 95 % of workload B's
    # operations by its histograms' own counts
    run = pd.read_parquet(folder / "runs.parquet").query("phase == 'run' and status == 'ok'")["run_id"].iloc[0]
    assert _hist(folder, run, "READ").get_total_count() > 5 * _hist(folder, run, "UPDATE").get_total_count()
    assert sentence.startswith(f"workloadb: basic peaks at {_fmt_ops(lead['ops_mean'])} at {lead['threads']} "
                               f"threads (READ p99 {_fmt_us(lead['READ_p99'])})")
    # the other's peak as a share of the lead's: the ratio of the geometric means of their repetitions
    ratio = math.exp(np.log(other["ops_values"]).mean() - np.log(lead["ops_values"]).mean())
    assert (f"{other['target']} ({_fmt_ops(other['ops_mean'])} at {other['threads']} threads, "
            f"READ p99 {_fmt_us(other['READ_p99'])}): {ratio:.2f}× [") in sentence
    # the verdict is the peak-against-peak one of verdicts.parquet (two rounds on a busy host may not call a
    # 28-fold gap: df 1), and basic:// has no server: the line says that it is not like for like
    v = pd.read_parquet(folder / "verdicts.parquet").query("at_peak and metric == 'throughput'")["verdict"].iloc[0]
    said = "a real difference" if v in ("better", "worse") else v
    assert sentence.endswith(f"of basic's peak, {said} — unlike quantities: basic is embedded (no server), "
                             "so it has no network round trip.")


def test_compare_shows_each_sides_mean_change_and_verdict(truth_experiments, tmp_path):
    a, b = truth_experiments
    out = render_compare_html(compare([a, b]), tmp_path / "compare.html")
    ta, tb = truth(a), truth(b)
    rows = compare_table(Tables(out.read_text(encoding="utf-8")))[1:]
    assert len(rows) == 1  # redis at 4 threads; the other points are in A only
    for row in rows:
        target, threads = row[2], int(row[3])
        x, y = ta.loc[(target, threads)], tb.loc[(target, threads)]
        # each side's figure is what the ratio is made of: the geometric mean of its repetitions
        assert row[4] == _n(sps.gmean(x["ops_values"])) and row[5] == _n(sps.gmean(y["ops_values"]))
        assert row[8] == _n(sps.gmean(x["p99_values"])) and row[9] == _n(sps.gmean(y["p99_values"]))
        # each metric: Welch's t test on the log values of the two experiments' repetitions (scipy's own), the
        # ratio of the geometric means with its interval at the family's level (1 - max(called, 1) · alpha / 2:
        # the level that agrees with the verdicts); the two p values adjusted together (BH)
        # B holds no target that stayed while another changed (no control): each is a minimum-effect test
        # against the host's drift, the default ±10 % (the suite reads no calibration record): twice the t tail
        # of |mean log ratio| beyond log 1.1
        # B's values as A's host speed would have measured them: the yardstick's factor between the folders (median
        # speed B ÷ A, from their own yardstick.parquet) divides a rate and multiplies a latency; the factor is known
        # only as well as its readings agree: a median's standard error of the log speeds on each side (√(π/2) × the
        # mean's), added in quadrature to the cell's, the degrees of freedom by Welch–Satterthwaite
        sa, sb = (np.log(pd.read_parquet(f / "yardstick.parquet")["speed"].to_numpy(float)) for f in (a, b))
        host = math.log(float(np.median(np.exp(sb))) / float(np.median(np.exp(sa))))
        va, vb = sa.var(ddof=1) / len(sa), sb.var(ddof=1) / len(sb)
        f_se = math.sqrt(math.pi / 2 * (va + vb))
        f_df = (va + vb) ** 2 / (va ** 2 / (len(sa) - 1) + vb ** 2 / (len(sb) - 1))
        ys = {"ops_values": np.log(y["ops_values"]) - host, "p99_values": np.log(y["p99_values"]) + host}
        if abs(host) > math.log(1.1):
            # a host that moved beyond the ±10 % margin between the folders: no cell rests on it (the yardstick
            # cannot divide that much out): every one is held undecided, saying why, with its ratio and interval
            # (which of the two branches a run takes is the host's random outcome: each asserts what holds in it)
            for ratio_cell, verdict_cell in ((row[6], row[7]), (row[10], row[11])):
                assert "nan" not in ratio_cell and "×" in ratio_cell and "[" in ratio_cell, ratio_cell
                assert verdict_cell.startswith("undecided"), verdict_cell
            assert row[12] == "2/2 → 2/2"
            continue
        cols = ("ops_values", "p99_values")
        tests = {col: sps.ttest_ind(ys[col], np.log(x[col]), equal_var=False) for col in cols}
        diffs = {col: ys[col].mean() - np.log(x[col]).mean() for col in cols}
        se = {col: math.hypot(diffs[col] / tests[col].statistic, f_se) for col in cols}
        dof = {col: se[col] ** 4 / ((diffs[col] / tests[col].statistic) ** 4 / tests[col].df + f_se ** 4 / f_df)
               for col in cols}
        margin_p = [min(1.0, 2 * sps.t.sf((abs(diffs[c]) - math.log(1.1)) / se[c], dof[c])) for c in cols]
        adjusted = dict(zip(cols, sps.false_discovery_control(margin_p)))
        level = 1 - max(int(sum(p < 0.05 for p in adjusted.values())), 1) * 0.05 / len(cols)
        # an equivalent cell states the two one-sided tests' interval (1 − 2α: 90 %), which may lie inside the margin
        # where the family's does not: which cells end equivalent is the run's random outcome, read per cell here
        tost = {col: (math.exp(diffs[col] - sps.t.ppf(0.95, dof[col]) * se[col]),
                      math.exp(diffs[col] + sps.t.ppf(0.95, dof[col]) * se[col])) for col in cols}
        same = {col: tost[col][0] >= 1 / 1.1 and tost[col][1] <= 1.1 for col in cols}
        header = (f"ratio [{100 * level:g} %]" if not any(same.values()) else "ratio [90 %]" if all(same.values())
                  else f"ratio [{100 * level:g} % (an equivalent cell's: 90 %)]")
        assert header in " ".join(compare_table(Tables(out.read_text(encoding="utf-8")))[0])
        for col, ratio_cell, verdict_cell, better_up in zip(
                ("ops_values", "p99_values"), (row[6], row[10]), (row[7], row[11]), (True, False)):
            gm = math.exp(ys[col].mean() - np.log(x[col]).mean())
            if col not in cols:
                assert ratio_cell.startswith(f"{gm:.2f}×") and verdict_cell.startswith("undecided"), verdict_cell
                continue
            half = sps.t.ppf(1 - (1 - level) / 2, dof[col]) * se[col]
            lo, hi = tost[col] if same[col] else (math.exp(diffs[col] - half), math.exp(diffs[col] + half))
            assert ratio_cell == f"{gm:.2f}×" + interval_text(lo, hi), ratio_cell
            # the four verdicts: the two one-sided tests' interval inside the host's drift either way equivalent; else
            # the family's interval wholly beyond it better or worse (its margin-test p below α), else undecided
            p = adjusted[col]
            want = ("equivalent" if same[col] else "undecided" if p >= 0.05
                    else ("better" if (hi < 1) != better_up else "worse"))
            assert verdict_cell.startswith(f"{want} (host drift ±10.0 %") and "nan" not in verdict_cell
            assert (want == "undecided") == ("could detect" in verdict_cell)
        assert row[12] == "2/2 → 2/2"


def test_cli_report_and_compare_show_the_same_tables(truth_experiments, tmp_path):
    """What `ycsbctl run` wrote and `ycsbctl compare` writes are the tables checked above."""
    a, b = truth_experiments
    written = Tables((a / "report.html").read_text(encoding="utf-8"))
    assert points_table(written) == points_table(render(a))
    assert written.findings == render(a).findings
    out = tmp_path / "cli-compare.html"
    proc = subprocess.run([YCSBCTL, "compare", str(a), str(b), "-o", str(out)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    same = render_compare_html(compare([a, b]), tmp_path / "compare.html")
    assert compare_table(Tables(out.read_text(encoding="utf-8"))) == compare_table(
        Tables(same.read_text(encoding="utf-8"))
    )
    row = compare_table(Tables(same.read_text(encoding="utf-8")))[1]
    assert row[4].split(" ±")[0] in proc.stdout and row[5].split(" ±")[0] in proc.stdout, proc.stdout  # the console too


def test_load_table_is_each_load_runs_own_figures(truth_experiments):
    folder = truth_experiments[0]
    runs = pd.read_parquet(folder / "runs.parquet")
    loads = runs[runs["phase"] == "load"].set_index("target")
    table = next(tb for tb in render(folder).tables if tb and tb[0][:3] == ["target", "threads", "records/s"])
    rows = table[1:]
    assert sorted(r[0] for r in rows) == sorted(loads.index)
    for row in rows:
        r = loads.loc[row[0]]
        h = _hist(folder, r["run_id"], "INSERT")
        assert h.get_total_count() == r["operations"] == 200
        assert row[1:6] == [str(r["threads"]), _n(1000.0 * r["operations"] / r["runtime_ms"]), _n(200),
                            _n(h.get_value_at_percentile(50)), _n(h.get_value_at_percentile(99))]
        assert row[6] == "ok"


@pytest.mark.parametrize(("value", "text"), [
    (0, "0 B"), (1023, "1,023 B"), (1024, "1.0 KiB"), (1536 * 1024, "1.5 MiB"), (3 * 1024 ** 3, "3.0 GiB"),
    (5 * 1024 ** 4, "5.0 TiB"), (2048 * 1024 ** 4, "2,048.0 TiB"), (None, "—"), (float("nan"), "—")])
def test_sizes_are_shown_in_binary_units(value, text):
    from ycsbctl.report.html import _bytes

    assert _bytes(value) == text


def test_numbers_are_shown_with_thousands_separators_and_a_dash_for_none():
    from ycsbctl.report.html import _num

    assert (_num(1234567.6), _num(0.4), _num(1234.56, 1), _num(None), _num(float("nan"))) == \
        ("1,234,568", "0", "1,234.6", "—", "—")


def test_the_interval_column_says_how_sure_and_warns_where_it_cannot_be():
    from ycsbctl.report.html import noise_text

    assert noise_text(None) == ("—", "")
    assert noise_text({"throughput_low": 90.0, "throughput_high": 110.0 * 1.0, "within_run": False, "unstable": False,
                       "drift": None}) == (f"±{(math.sqrt(110 / 90) - 1) * 100:.1f}%", "")
    one = noise_text({"throughput_low": 95.0, "throughput_high": 105.0, "within_run": True})
    assert one[1].startswith("within one run only")  # batch means of one run: blind to the noise between runs
    shaky = noise_text({"throughput_low": 50.0, "throughput_high": 150.0, "unstable": True, "throughput_cv": 0.23,
                        "drift": "throughput fell 9 % from the first round to the last"})
    assert shaky[1] == ("unstable: the repetitions vary by more than 10 % (throughput CV 23.0%); "
                        "throughput fell 9 % from the first round to the last")
    # unstable by its latency alone: the note names the latency's CV, never only a steady throughput's
    by_latency = noise_text({"throughput_low": 95.0, "throughput_high": 105.0, "unstable": True, "throughput_cv": 0.02,
                             "latency_cv": 0.253})
    assert by_latency[1] == "unstable: the repetitions vary by more than 10 % (latency CV 25.3%)"
    # one run: its interval and CV are over its seconds, not over repetitions it does not have
    one_shaky = noise_text({"throughput_low": 50.0, "throughput_high": 150.0, "within_run": True, "unstable": True,
                            "throughput_cv": 1.403})
    assert one_shaky[1] == ("within one run only: batch means of its seconds, blind to the noise between runs; "
                            "unstable: its seconds vary by more than 10 % (throughput CV 140.3%)")
    assert noise_text({"throughput_low": float("nan"), "throughput_high": float("nan")})[0] == "—"
    # two batches of a short run: a t interval with one degree of freedom can span 30 orders of magnitude
    assert noise_text({"throughput_low": 1e-20, "throughput_high": 1e20})[0] == "> ±100%"
    edge = 2.0 ** 2  # half width exactly 100 %: still a figure
    assert noise_text({"throughput_low": 1.0, "throughput_high": edge})[0] == "±100.0%"
    assert noise_text({"throughput_low": 1.0, "throughput_high": 2.005 ** 2})[0] == "> ±100%"  # ±100.5 %: past it


def test_fractional_sizes_and_missing_columns():
    from ycsbctl.report.html import _bytes, _mean

    assert (_bytes(1536.0), _bytes(100.0)) == ("1.5 KiB", "100 B")
    frame = pd.DataFrame({"a": [1.0, 3.0]})
    assert _mean(frame, "a") == 2.0 and math.isnan(_mean(frame, "b")) and math.isnan(_mean(frame.iloc[0:0], "a"))


def _folder(runs: list[tuple[str, str, str]], docs: dict, manifest: dict):
    from ycsbctl.results.frames import Experiment
    from ycsbctl.results.schema import Manifest

    frame = pd.DataFrame(runs, columns=["run_id", "target", "status"]).assign(workload="workloadb")
    return Experiment(Path("."), Manifest.from_dict({"experiment_id": "", **manifest}), frame, pd.DataFrame(),
                      pd.DataFrame(), pd.DataFrame(), docs)


def test_failures_list_the_points_own_error_first_then_at_most_five():
    from ycsbctl.report.html import failures

    errors = [f"e{i}" for i in range(7)]
    exp = _folder([("a", "redis", "failed"), ("b", "redis", "interrupted"), ("c", "redis", "ok"),
                   ("d", "redis", "failed")],
                  {"a": {"error": "max-error-rate", "result": {"errors": errors}}, "b": {"result": None},
                   "d": {"error": "e1", "result": {"errors": ["e0", "e1"]}}}, {})
    assert failures(exp) == [
        {"run_id": "a", "status": "failed", "errors": ["max-error-rate", "e0", "e1", "e2", "e3"]},
        {"run_id": "b", "status": "interrupted", "errors": ["no error recorded"]},
        {"run_id": "d", "status": "failed", "errors": ["e0", "e1"]}]


def test_servers_come_from_the_manifest_then_the_run_records_in_target_order():
    from ycsbctl.report.html import servers

    exp = _folder([("a", "valkey", "ok"), ("b", "redis", "ok")],
                  {"a": {"target": "valkey", "endpoint": {"server_name": "Valkey", "server_version": "8.0",
                                                          "container_id": "0123456789abcdef"}},
                   "b": {"target": "redis", "endpoint": {"server_name": "ignored"}}},
                  {"plan": {"targets": ["redis", "valkey"]},
                   "servers": {"redis": {"server_name": "Redis", "server_version": "7.2", "pid": 42,
                                         "cpu_limit_cores": 1.5, "notes": ["n"]}, "extra": {}}})
    rows = servers(exp)
    assert [r["target"] for r in rows] == ["redis", "valkey", "extra"]
    assert (rows[0]["answered_by"], rows[0]["where"], rows[0]["cpu_limit"], rows[0]["notes"]) == \
        ("Redis 7.2", "pid 42", 1.5, ["n"])
    assert (rows[1]["answered_by"], rows[1]["where"], rows[1]["warning"]) == ("Valkey 8.0", "container 0123456789ab",
                                                                              None)
    assert (rows[2]["answered_by"], rows[2]["where"], rows[2]["config"]) == ("unknown server", "", {})


def test_footprint_rows_format_each_figure_by_its_kind():
    from ycsbctl.report.html import footprint_rows

    detail = {"k": "x" * 300}
    exp = _folder([], {}, {"footprints": {
        "redis": {"target": "redis", "used_memory_bytes": 2048, "bytes_per_record": 123.456, "records": 1000,
                  "detail": detail, "note": None},
        "valkey": {"used_memory_bytes": 1536.0, "engine": "s"}}})
    targets, rows = footprint_rows(exp)
    assert targets == ["redis", "valkey"]
    assert [r["name"] for r in rows] == ["used memory bytes", "bytes per record", "records loaded", "detail", "note",
                                         "engine"]  # read as words; the field's own name beside (a tooltip)
    cells = {r["field"]: r["cells"] for r in rows}
    assert list(cells) == ["used_memory_bytes", "bytes_per_record", "records", "detail", "note", "engine"]
    assert cells["used_memory_bytes"] == ["2.0 KiB", "1.5 KiB"]
    assert cells["bytes_per_record"] == ["123.5", "—"] and cells["records"] == ["1,000", "—"]
    assert cells["detail"][0] == json.dumps(detail)[:200] and len(cells["detail"][0]) == 200
    assert cells["note"] == ["—", "—"] and cells["engine"] == ["—", "s"]


def test_compare_with_another_latency_statistic_shows_that_statistic(truth_experiments, tmp_path):
    from click.testing import CliRunner

    from ycsbctl.cli import main

    a, b = truth_experiments
    out = tmp_path / "p95.html"
    res = CliRunner().invoke(main, ["compare", str(a), str(b), "--latency", "p95", "-o", str(out)])
    assert res.exit_code == 0, res.output
    table = compare_table(Tables(out.read_text(encoding="utf-8")))
    assert table[0][8:10] == ["baseline p95 (µs)", "p95 (µs)"]
    x, y = truth(a).loc[(table[1][2], int(table[1][3]))], truth(b).loc[(table[1][2], int(table[1][3]))]
    assert table[1][8:10] == [_n(sps.gmean(x["p95_values"])), _n(sps.gmean(y["p95_values"]))]


def test_client_hosts_table_has_a_row_per_point_and_host_in_point_order():
    from ycsbctl.report.html import client_host_rows

    def shard(name: str, host: str, threads: int, cpu: float, cores: int, late: float | None, lost=None) -> dict:
        return {"name": name, "host": host, "cores": cores, "processes": min(cores, threads), "threads": threads,
                "client_cpu_pct": cpu, "client_share": round(cpu / (100 * min(cores, threads)), 3),
                "start_late_ms": late, "lost": lost}

    docs = {  # in the order the folder lists them, not the points' order
        "b": {"target": "redis", "workload": "workloadb", "phase": "run", "threads": 16,
              "result": {"cluster": {"start_skew_ms": 4.5, "shards": [
                  shard("w0", "10.0.0.1", 8, 150.0, 2, 0.0), shard("w1", "10.0.0.2", 8, 90.0, 4, 4.5,
                                                                   "worker died")]}}},
        "a": {"target": "redis", "workload": "workloadb", "phase": "run", "threads": 8,
              "result": {"extra": {"cluster": {"start_skew_ms": 0.0, "shards": [  # an older run's record
                  shard("w0", "10.0.0.1", 8, 60.0, 2, None)]}}}},
        "c": {"target": "redis", "workload": "workloadb", "phase": "load", "threads": 8, "result": {}},  # one host
        "d": {"target": "redis", "workload": "workloadb", "phase": "run", "threads": 32, "result": None},  # failed
    }
    exp = _folder([], docs, {})
    rows = client_host_rows(exp)
    assert [(r["point"], r["host"]) for r in rows] == [("redis workloadb run 8 threads", "w0"),
                                                      ("redis workloadb run 16 threads", "w0"),
                                                      ("redis workloadb run 16 threads", "w1")]
    assert rows[0] == {"point": "redis workloadb run 8 threads", "host": "w0", "hostname": "10.0.0.1", "cores": 2,
                       "processes": 2, "threads": 8, "cpu": 60.0, "share": 0.3, "late": None, "skew": 0.0,
                       "lost": ""}
    assert (rows[1]["cpu"], rows[1]["share"], rows[1]["late"], rows[1]["skew"], rows[1]["lost"]) == \
        (150.0, 0.75, 0.0, 4.5, "")
    assert (rows[2]["hostname"], rows[2]["cores"], rows[2]["processes"], rows[2]["share"], rows[2]["late"],
            rows[2]["lost"]) == ("10.0.0.2", 4, 4, 0.225, 4.5, "worker died")


def test_client_host_baselines_are_each_hosts_iperf3_figure():
    from ycsbctl.report.html import client_host_baselines

    exp = _folder([], {}, {"network": {
        "redis": {"gbit_s": 9.4, "client_hosts": [{"name": "w0", "gbit_s": 9.1, "note": None},
                                                  {"name": "w1", "gbit_s": None, "note": "iperf3 failed"}]},
        "valkey": {"gbit_s": 9.4}}})
    assert client_host_baselines(exp) == [{"target": "redis", "host": "w0", "gbit_s": 9.1, "note": ""},
                                          {"target": "redis", "host": "w1", "gbit_s": None, "note": "iperf3 failed"}]
    assert client_host_baselines(_folder([], {}, {})) == []


def _point(target: str, threads: int, rate: float, status: str = "ok", bottleneck: str | None = "latency",
           run_id: str = "") -> dict:
    return {"target": target, "workload": "workloadb", "threads": threads, "target_rate": rate, "reps": 1,
            "ok": int(status == "ok"), "status": status, "throughput_mean": 1000.0, "throughput_min": 1000.0,
            "throughput_max": 1000.0, "server_cpu_pct": 50.0, "client_cpu_pct": 50.0, "bottleneck": bottleneck,
            "bottleneck_text": None, "error": None, "run_ids": [run_id]}


def test_workload_table_hides_all_skipped_targets_and_orders_by_threads_rate_then_target():
    from ycsbctl.report.html import workload_table

    exp = _folder([("r1", "redis", "ok"), ("v1", "valkey", "ok"), ("r2", "redis", "ok"), ("v2", "valkey", "ok"),
                   ("m1", "mongodb", "skipped")], {}, {"plan": {"targets": ["valkey", "redis", "mongodb"]}})
    exp.runs = exp.runs.assign(phase="run", schedule_lag_p99_us=float("nan"))
    points = pd.DataFrame([_point("redis", 8, 2000.0, run_id="r2"), _point("valkey", 8, 2000.0, run_id="v2"),
                           _point("redis", 8, 1000.0, bottleneck=None, run_id="r1"),
                           _point("valkey", 8, 1000.0, "failed", "client-cpu", run_id="v1"),
                           _point("mongodb", 8, 1000.0, "skipped", run_id="m1")])
    points["bottleneck"] = pd.Series(list(points["bottleneck"]), dtype=object).where(points["bottleneck"].notna(), None)
    table = workload_table(exp, points, "workloadb")
    assert table["hidden"] == ["mongodb"]  # skipped at every point: named, no rows
    assert [(r["offered"], r["target"]) for r in table["rows"]] == [(1000.0, "valkey"), (1000.0, "redis"),
                                                                   (2000.0, "valkey"), (2000.0, "redis")]
    css = {(r["offered"], r["target"]): r["css"] for r in table["rows"]}
    assert css == {(1000.0, "valkey"): "failed", (1000.0, "redis"): "", (2000.0, "valkey"): "",
                   (2000.0, "redis"): ""}  # a failed client-bound point is shown as failed; latency ones plainly
    unlabelled = table["rows"][1]
    assert (unlabelled["bottleneck"], unlabelled["bottleneck_text"], unlabelled["error"]) == ("", "", "")
    assert table["paced"] is False and table["rated"] is True  # no schedule lag measured: not paced
    exp.runs.loc[0, "schedule_lag_p99_us"] = 12.0
    assert workload_table(exp, points, "workloadb")["paced"] is True
    exp.runs = exp.runs.drop(columns=["schedule_lag_p99_us"])
    assert workload_table(exp, points, "workloadb")["paced"] is False  # no such column at all: not paced


def test_a_client_bound_ok_point_is_marked_and_the_first_lag_warning_shown():
    from ycsbctl.report.html import _first_text, workload_table

    exp = _folder([("r1", "redis", "ok"), ("r2", "redis", "ok")], {}, {"plan": {"targets": ["redis"]}})
    exp.runs = exp.runs.assign(phase="run")
    points = pd.DataFrame([_point("redis", 8, float("nan"), bottleneck="client-cpu", run_id="r1"),
                           _point("redis", 16, float("nan"), run_id="r2")])
    rows = workload_table(exp, points, "workloadb")["rows"]
    assert [(r["threads"], r["css"], r["offered"]) for r in rows] == [(8, "client-bound", None), (16, "", None)]
    assert _first_text(pd.DataFrame({"w": [float("nan"), "", "client lag 3 ms"]}), "w") == "client lag 3 ms"
    assert _first_text(pd.DataFrame({"w": [float("nan")]}), "w") == "" and _first_text(pd.DataFrame(), "w") == ""


def test_slo_searches_are_the_workloads_own():
    from ycsbctl.report.html import slo_searches

    search = {"slo": "p99<1ms", "found_rate": 42000.0, "tried": [{"rate": 42000.0, "passed": True}]}
    exp = _folder([], {}, {"slo_searches": [{**search, "workload": "workloada"}, {**search, "workload": "workloadb"}]})
    (found,) = slo_searches(exp, "workloadb")
    assert found["workload"] == "workloadb" and found["line"] == "p99<1ms holds up to 42,000 ops/s (1 points)"


def test_plan_rows_show_lists_joined_objects_as_json_and_a_dash_for_nothing():
    from ycsbctl.report.html import _kv

    assert _kv({"targets": ["redis", "valkey"], "limits": {"cpus": 2}, "note": None, "tag": "", "reps": 0,
                "ok": False}) == [("targets", "redis, valkey"), ("limits", '{"cpus": 2}'), ("note", "—"),
                                  ("tag", "—"), ("reps", "0"), ("ok", "False")]
    assert _kv(None) == [] and _kv({}) == []


def test_network_rows_are_the_targets_with_a_baseline_or_traffic():
    from ycsbctl.report.html import network_rows

    exp = _folder([("r1", "redis", "ok"), ("v1", "valkey", "ok"), ("m1", "mongodb", "failed"), ("b1", "basic", "ok")],
                  {}, {"plan": {"targets": ["basic", "mongodb", "valkey", "redis"]},
                       "network": {"redis": {"gbit_s": 9.4, "note": "loopback"}}})
    nan = float("nan")
    exp.runs = exp.runs.assign(net_gbit_s_mean=[1.5, 0.5, 3.0, nan], baseline_gbit_s=[nan, nan, 9.0, nan])
    assert network_rows(exp) == [  # the manifest's first, then the plan's order; basic:// moved nothing
        {"target": "redis", "baseline": 9.4, "note": "loopback", "used": 1.5},
        {"target": "mongodb", "baseline": 9.0, "note": "", "used": None},  # its one run failed: no traffic shown
        {"target": "valkey", "baseline": None, "note": "", "used": 0.5}]
