"""Survivors of the per-module mutation runs of results/ (issue 43), each killed by a value worked out by hand
from an irregular input (every figure differs from its neighbours, counts that are no multiple of each other);
pure and millisecond-quick, listed first in each module's map in scripts/mutation.py."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from tests.test_figures_survivors import _summary  # a measurement of {µs: how many}
from ycsbctl.results.tables import flag_impossible, run_row


def _doc(**result) -> dict:
    """A run JSON: READ 600 (5 NOT_FOUND, 2 ERROR, 3 TIMEOUT), UPDATE 400 (7 ERROR), 0.25 s of client CPU."""
    r = {"operations": 1000, "runtime_ms": 2000.0, "client_cpu_s": 0.25, "throughput_ops": 500.0,
         "ops": {"READ": {"operations": 600, "mean_us": 10.0, "min_us": 3.0, "max_us": 950.0, "percentiles_us": {"99.0": 31.0, "99.9": 88.0},
                          "returns": {"OK": 590, "NOT_FOUND": 5, "ERROR": 2, "TIMEOUT": 3}},
                 "UPDATE": {"operations": 400, "mean_us": 20.0, "min_us": 5.0, "max_us": 700.0, "percentiles_us": {"99.0": 47.0},
                            "returns": {"OK": 393, "ERROR": 7}}}}
    r.update(result)
    return {"run_id": "r1", "target": "redis", "workload": "b", "phase": "run", "threads": 8, "repetition": 0,
            "status": "ok", "result": r}


def test_a_run_row_counts_errors_and_timeouts_of_every_operation_and_client_cpu_per_operation_in_us():
    row = run_row(_doc())
    # errors = ERROR + TIMEOUT over READ and UPDATE: 2 + 3 + 7 = 12 of 1,000 operations
    assert (row["errors"], row["timeouts"], row["not_found"]) == (12, 3, 5)
    assert row["error_rate"] == pytest.approx(0.012)
    # 0.25 s of client CPU over 1,000 operations: 250 µs each
    assert row["client_us_per_op"] == pytest.approx(250.0)
    assert (row["read_p99_us"], row["read_p999_us"], row["update_p99_us"], row["read_mean_us"]) == (31.0, 88.0, 47.0, 10.0)
    assert math.isnan(row["update_p999_us"])  # a percentile the run did not keep is no 0
    # a paced point's target rate: the run JSON's own, else its result's
    assert run_row(_doc(target_rate=2000.0))["target_rate"] == 2000.0
    assert run_row({**_doc(target_rate=2000.0), "target_rate": 1500.0})["target_rate"] == 1500.0
    assert run_row(_doc())["target_rate"] is None
    # no operations: no rate, no CPU per operation (not a division by zero)
    none = run_row(_doc(operations=0, ops={}))
    assert none["error_rate"] == 0.0 and math.isnan(none["client_us_per_op"])


def test_a_run_row_figure_between_minus_one_and_zero_is_flagged_as_impossible(capsys):
    # 0 and 0.5 are possible (no errors; half a microsecond); -0.5 is not, and only it is named
    runs = pd.DataFrame({"run_id": ["a", "b", "c"], "status": ["ok"] * 3, "error": [None] * 3,
                         "throughput_ops": [500.0, -0.5, 20.0], "read_p99_us": [0.5, 0.0, 50.0], "errors": [0, 0, 3]})
    out = flag_impossible(runs, Path("/f"))
    assert list(out["status"]) == ["ok", "failed", "ok"]
    assert out.at[1, "error"] == "impossible figures in its run file (throughput_ops = -0.5): edited or damaged"
    assert "/f/runs/b.json" in capsys.readouterr().err
    assert list(runs["status"]) == ["ok"] * 3  # the caller's frame is not changed
    assert flag_impossible(runs.drop(index=1), Path("/f")) is not None


def test_an_ops_row_keeps_the_mean_and_each_percentile_and_the_returns_of_its_measurement():
    from ycsbctl.results.tables import op_rows

    rows = {r["op"]: r for r in op_rows(_doc())}
    read = rows["READ"]
    assert (read["operations"], read["mean_us"], read["p99_us"], read["p999_us"]) == (600, 10.0, 31.0, 88.0)
    assert math.isnan(read["p50_us"]) and (read["return_NOT_FOUND"], read["return_TIMEOUT"]) == (5, 3)
    assert (rows["UPDATE"]["mean_us"], rows["UPDATE"]["return_ERROR"]) == (20.0, 7)


def test_every_operation_merges_only_the_base_operations_that_measured_something():
    from ycsbctl.results.model import PhaseResult, overall_summary

    # READ: 3 x 100 µs and 1 x 300 µs; a read-modify-write (its halves are READ and UPDATE) and an UPDATE that
    # measured nothing are left out: 4 operations, mean 150 µs, p50 100 µs, max 300 µs
    r = PhaseResult("run", 8, 1000.0, 4, ops={"READ": _summary("READ", {100: 3, 300: 1}),
                                               "READ-MODIFY-WRITE": _summary("READ-MODIFY-WRITE", {900: 2}),
                                               "UPDATE": _summary("UPDATE", {})})
    o = overall_summary(r)
    assert o is not None and (o.operations, o.mean_us, o.min_us, o.max_us) == (4, 150.0, 100.0, 300.0)
    assert (o.percentiles_us[50.0], o.percentiles_us[99.0]) == (100.0, 300.0)


def test_a_run_row_names_its_server_its_first_error_and_keeps_its_known_telemetry():
    doc = {**_doc(errors=["timeout on 10.0.0.1", "second"]), "telemetry_summary": {"server_cpu_pct_mean": 87.5, "new_field": 1},
           "endpoint": {"server_name": "redis", "server_version": "7.2.4"}}
    row = run_row(doc)
    assert (row["server"], row["error"], row["server_cpu_pct_mean"]) == ("redis 7.2.4", "timeout on 10.0.0.1", 87.5)
    assert "new_field" not in row  # a newer version's figure this one does not know is left out
    # a version its name already says is not said twice; a name alone, a version alone
    for ep, server in (({"server_name": "Percona Server for MongoDB 7.0.8", "server_version": "7.0.8"},
                        "Percona Server for MongoDB 7.0.8"),
                       ({"server_name": "valkey"}, "valkey"), ({"server_version": "8.0"}, "8.0"), ({}, "")):
        assert run_row({**_doc(), "endpoint": ep})["server"] == server
    # the run's own error line comes before the engine's first
    assert run_row({**doc, "error": "lost the server"})["error"] == "lost the server"
    assert run_row(_doc(errors=[]))["error"] is None


def test_run_docs_are_read_in_run_order_load_before_run(tmp_path):
    import json

    from ycsbctl.results.tables import read_run_docs

    (tmp_path / "runs").mkdir()
    for name, phase, threads in (("a", "run", 16), ("b", "run", 2), ("c", "load", 8)):
        doc = {**_doc(), "run_id": name, "phase": phase, "threads": threads}
        (tmp_path / "runs" / f"{name}.json").write_text(json.dumps(doc), encoding="utf-8")
    assert [d["run_id"] for d in read_run_docs(tmp_path)] == ["c", "b", "a"]


def test_a_measurement_keeps_its_p95_and_a_result_its_throughput_over_its_own_runtime():
    from ycsbctl.results.model import PhaseResult

    # 100 values: 1..100 µs once each; HDR's p95 is 95 µs, p99 99 µs (no neighbour shares a value)
    s = _summary("READ", {v: 1 for v in range(1, 101)})
    assert s.percentiles_us == {50.0: 50.0, 95.0: 95.0, 99.0: 99.0, 99.9: 100.0, 99.99: 100.0}
    # 1,234 operations in 2,000 ms: 617 ops/s; a result built without a warm-up or late replies says none
    r = PhaseResult("run", 8, 2000.0, 1234)
    assert r.throughput_ops == 617.0
    # half a millisecond still has a rate; no runtime has none (not a division by zero)
    assert PhaseResult("run", 8, 0.5, 3).throughput_ops == 6000.0 and math.isnan(PhaseResult("run", 8, 0.0, 3).throughput_ops)
    d = r.to_dict()
    assert (d["throughput_ops"], d["warmup_s"], d["late_replies"]) == (617.0, 0.0, 0)


def test_records_per_second_counts_each_kinds_records_over_a_runtime_under_a_second():
    from ycsbctl.results.model import records_per_second

    # 30 OK BATCH-STOREs of 10 records and 5 OK STOREs of 1 in 0.5 s: 610 records per second
    assert records_per_second({"BATCH-STORE": 30, "STORE": 5, "READ": 7}, {"BATCH-STORE": 10, "STORE": 1}, 0.5) == 610.0
    assert math.isnan(records_per_second({"STORE": 5}, {"STORE": 1}, 0.0))
    assert math.isnan(records_per_second({"STORE": 5}, {}, 1.0))
    # a run's own: its OK counts (not its errors) over runtime_ms read as seconds, 250 ms here
    from ycsbctl.results.model import OpSummary, PhaseResult
    r = PhaseResult("load", 4, 250.0, 42, ops={"BATCH-STORE": OpSummary("BATCH-STORE", 40, 1.0, 1.0, 1.0, returns={
        "OK": 30, "ERROR": 10}), "STORE": OpSummary("STORE", 2, 1.0, 1.0, 1.0, returns={"OK": 2})})
    assert r.records_per_s({"BATCH-STORE": 10, "STORE": 1}) == (30 * 10 + 2) / 0.25
    # a kind whose every operation failed stored nothing: 0 OK, not a negative count
    failed = PhaseResult("load", 4, 250.0, 42, ops={**r.ops, "STORE": OpSummary("STORE", 2, 1.0, 1.0, 1.0,
                                                                                returns={"ERROR": 2})})
    assert failed.records_per_s({"BATCH-STORE": 10, "STORE": 1}) == 30 * 10 / 0.25


def test_the_real_ycsbs_facts_keep_what_this_version_knows_of_a_newer_documents():
    from ycsbctl.results.model import YcsbFacts

    f = YcsbFacts.from_dict({"exit_code": 0, "version": "0.17.0", "a_later_field": [1]})
    assert (f.exit_code, f.version) == (0, "0.17.0")


def test_a_failed_point_keeps_a_fault_label_host_busy_included_and_no_rate_label():
    from ycsbctl.experiment.judge import Verdict
    from ycsbctl.results.names import RunStatus

    for label, kept in (("stall", True), ("client-stall", True), ("host-busy", True), ("client-cpu", False),
                        ("server-cpu", False), ("latency", False)):
        v = Verdict(RunStatus.FAILED, "lost the server", {"label": label, "why": "w", "text": "t"})
        assert v.bottleneck == ({"label": label, "text": "t"} if kept else None), label
    assert Verdict(RunStatus.OK, None, {"label": "latency", "why": "w"}).bottleneck == {"label": "latency", "why": "w"}


def test_a_runs_operations_per_second_leave_out_its_warm_up_and_its_last_partial_second():
    from ycsbctl.results.cells import _per_second

    series = pd.DataFrame({"run_id": ["a"] * 6 + ["b"], "op": ["OVERALL"] * 5 + ["READ", "OVERALL"],
                           "second": [4, 0, 1, 2, 3, 2, 0], "operations": [7, 50, 110, 120, 130, 99, 5],
                           "warmup": [False, True, False, False, False, False, False]})
    assert _per_second(series, "a") == [110.0, 120.0, 130.0]  # second 4 (7 operations) is the partial last
    assert _per_second(series, "b") == [5.0]
    assert _per_second(series.drop(columns="operations"), "a") == []
    assert _per_second(series.drop(columns="run_id"), "a") == []


def _manifest(experiment_id: str):
    from ycsbctl.experiment.plan import Plan
    from ycsbctl.results.schema import Manifest

    return Manifest(experiment_id=experiment_id, plan=Plan(workloads=["b"], targets=["basic://"]).to_dict())


def test_a_taken_id_gets_a_suffix_up_to_999_and_then_one_line_saying_so(tmp_path):
    from ycsbctl.errors import UserError
    from ycsbctl.results.folder import ResultFolder

    (tmp_path / "x").mkdir()
    for n in range(2, 999):  # x, x-2 … x-998 taken (one of them still being written: its .partial)
        (tmp_path / (f".x-{n}.partial" if n == 500 else f"x-{n}")).mkdir()
    last = ResultFolder.create(tmp_path, "x", _manifest("x"), unique=True)
    try:
        assert last.path.name == ".x-999.partial" and last.manifest.experiment_id == "x-999"
    finally:
        last.close()
    with pytest.raises(UserError, match="result folders x to x-999 all exist"):
        ResultFolder.create(tmp_path, "x", _manifest("x"), unique=True)


def test_a_folder_being_written_is_refused_by_its_own_path_or_its_final_name(tmp_path):
    from ycsbctl.errors import UserError
    from ycsbctl.results.folder import ResultFolder

    writing = ResultFolder.create(tmp_path, "w", _manifest("w"))
    try:
        for path in (writing.path, tmp_path / "w"):  # .w.partial, and the name it will have
            with pytest.raises(UserError, match="is being written by another ycsbctl"):
                ResultFolder.check_free(path)
    finally:
        writing.close()
    ResultFolder.check_free(tmp_path / "w")


def test_a_ladder_fits_the_scaling_law_only_while_its_top_point_is_predicted_within_15_percent():
    from ycsbctl.results import scaling

    # four points exactly on the law (λ 1,000 ops/s, σ 0.05, κ 0.002) predict 16 threads exactly; the measured top
    # point is that prediction / 1.1495 (14.95 % off: fits) or / 1.1505 (15.05 %: does not), the rest fitting well
    threads = [1, 2, 4, 8, 16]
    on_law = [float(scaling.usl(n, 1000.0, 0.05, 0.002)) for n in threads]
    for error, verdict in ((0.1495, scaling.FITS), (0.1505, scaling.NO_FIT)):
        f = scaling.fit(threads, [*on_law[:-1], on_law[-1] / (1 + error)])
        assert f.holdout_error == pytest.approx(error, abs=1e-6) and f.max_residual < 0.1 and f.r2 > 0.99
        assert f.verdict == verdict, error


def test_a_comparison_without_spread_is_beyond_a_margin_exactly_when_its_ratio_is():
    from dataclasses import replace

    from ycsbctl.results import stats

    c = stats.compare({1: 100.0, 2: 200.0, 3: 400.0}, {1: 150.0, 2: 300.0, 3: 600.0}, paired=True)
    flat = replace(c, se_log=0.0)  # every round's ratio 1.5 exactly: no spread to test with
    assert (stats.beyond_margin(flat, 0.1).p_value, stats.beyond_margin(flat, 0.6).p_value) == (0.0, 1.0)
    no_df = replace(c, df=0)
    assert (stats.beyond_margin(no_df, 0.1).p_value, stats.beyond_margin(no_df, 0.6).p_value) == (0.0, 1.0)


def test_an_interval_whose_log_standard_error_is_exactly_one_is_a_real_interval():
    from ycsbctl.results import stats

    # logs 0 and 2: centre e, standard error sqrt(2) / sqrt(2) = 1, t(0.975, 1) = 12.706: e^(1 ± 12.706)
    iv = stats.interval([1.0, math.exp(2)])
    t = stats.t_quantile(0.975, 1)
    assert iv.centre == pytest.approx(math.e) and t == pytest.approx(12.7062, abs=1e-4)
    assert (iv.low, iv.high) == pytest.approx((math.exp(1 - t), math.exp(1 + t)))


def test_mixed_columns_become_what_parquet_stores_numbers_booleans_or_text():
    from ycsbctl.results.durable import arrow_safe

    df = pd.DataFrame({"n": pd.Series([1, 2.5, None], dtype=object), "b": pd.Series([True, None, False], dtype=object),
                       "t": pd.Series(["a", {"k": 1}, math.nan], dtype=object), "f": [0.5, 1.5, 2.5]})
    out = arrow_safe(df)
    assert str(out["n"].dtype) == "float64" and out["n"].tolist()[:2] == [1.0, 2.5] and math.isnan(out["n"][2])
    assert str(out["b"].dtype) == "boolean" and out["b"].tolist() == [True, pd.NA, False]
    assert out["t"].tolist()[:2] == ["a", '{"k": 1}'] and pd.isna(out["t"][2]) and out["f"].tolist() == [0.5, 1.5, 2.5]
    assert df["n"].dtype == object  # the caller's frame is left as it was


def test_a_drift_is_read_from_four_rounds_on_as_the_log_values_straight_line_says():
    """The README: a cell's drift is read from four rounds or more. Four rounds falling 2 % a round: the total change
    is the least-squares line of the logs (numpy's polyfit) over first to last, and three rounds read none."""
    import math

    import numpy as np

    from ycsbctl.results.stats import drift

    values = {1: 100.0, 2: 98.0, 3: 96.5, 4: 94.0}
    slope = np.polyfit(list(values), np.log(list(values.values())), 1)[0]
    d = drift(values)
    assert d is not None and math.isclose(d.change, math.expm1(slope * 3), rel_tol=1e-9), d
    assert drift({r: v for r, v in values.items() if r < 4}) is None


def test_a_new_folder_keeps_the_start_time_its_manifest_gives_and_is_stamped_now_when_it_gives_none(tmp_path):
    import json
    from dataclasses import replace
    from datetime import datetime

    from ycsbctl.results.folder import ResultFolder

    def stored(folder: ResultFolder) -> str:  # the manifest as written to disk
        folder.close()
        return json.loads((folder.path / "manifest.json").read_text(encoding="utf-8"))["started_at"]

    given = "2021-03-04T05:06:07+00:00"  # a resumed plan's own start
    assert stored(ResultFolder.create(tmp_path, "given", replace(_manifest("given"), started_at=given))) == given
    before = datetime.now().astimezone().replace(microsecond=0)
    stamped = datetime.fromisoformat(stored(ResultFolder.create(tmp_path, "new", _manifest("new"))))
    assert before <= stamped <= datetime.now().astimezone()


def test_the_scaling_laws_contention_and_coherency_are_fitted_up_to_one_and_never_past_it():
    from ycsbctl.results import scaling

    threads = [1, 2, 4, 8, 16]
    # a ladder made by the law with σ and κ just under 1 gives them back
    f = scaling.fit(threads, [float(scaling.usl(n, 1000.0, 0.995, 0.995)) for n in threads])
    assert (f.sigma, f.kappa) == pytest.approx((0.995, 0.995), abs=1e-5)
    # one falling faster than σ or κ of 1 allow (a share of the time past the whole of it) is held at 1
    for sigma, kappa in ((1.005, 0.01), (0.3, 1.005)):
        f = scaling.fit(threads, [float(scaling.usl(n, 1000.0, sigma, kappa)) for n in threads])
        assert f.sigma < 1 and f.kappa < 1 and max(f.sigma, f.kappa) > 0.999, (sigma, kappa, f)


def test_a_scaling_fits_r2_is_one_less_its_squared_residuals_over_the_throughputs_variance():
    import numpy as np

    from ycsbctl.results import scaling

    threads = [1, 2, 4, 8, 16]
    x = np.array([1000.0, 1850.0, 3300.0, 4700.0, 4900.0])  # no law's exact ladder: residuals of both signs
    f = scaling.fit(threads, list(x))
    residuals = x - np.array([float(scaling.usl(n, f.lam, f.sigma, f.kappa)) for n in threads])
    assert (residuals > 0).any() and (residuals < 0).any()
    assert f.r2 == pytest.approx(1 - np.square(residuals).mean() / np.var(x), rel=1e-9) and 0.9 < f.r2 < 1


def test_welchs_pooled_sd_is_the_root_of_the_mean_of_both_sides_sample_variances_of_log_values():
    import statistics

    from ycsbctl.results import stats

    a, b = [100.0, 110.0, 95.0, 102.0], [150.0, 140.0, 171.0]
    c = stats.compare(dict(enumerate(a)), dict(enumerate(b)), paired=False)
    logs = [[math.log(v) for v in side] for side in (a, b)]
    assert c.sd_log == pytest.approx(math.sqrt((statistics.variance(logs[0]) + statistics.variance(logs[1])) / 2), rel=1e-12)


def test_a_targets_values_relative_to_the_control_round_by_round_or_over_its_geometric_mean():
    from ycsbctl.results.folder_verdicts import _relative
    from ycsbctl.results.verdicts import interval_text

    # paired: round 2 has no control, round 3's value is 0 and round 4's control 0: round 1 alone
    assert _relative({1: 200.0, 2: 300.0, 3: 0.0, 4: 50.0}, {1: 100.0, 3: 50.0, 4: 0.0}, paired=True) == {1: 2.0}
    # unpaired: over the control's geometric mean, √(100 × 400) = 200; a zero value is left out
    got = _relative({1: 200.0, 2: 300.0, 3: 0.0}, {1: 100.0, 2: 400.0}, paired=False)
    assert got == pytest.approx({1: 1.0, 2: 1.5}) and set(got) == {1, 2}
    # a control that measured nothing above 0 has no geometric mean: nothing is relative to it
    assert _relative({1: 200.0}, {1: 0.0, 2: 0.0}, paired=False) == {} == _relative({1: 200.0}, {}, paired=False)
    # a value under 1 is a value; one under 0 none: over the control's √(1 × 4) = 2
    assert _relative({1: 0.5, 2: -0.5, 3: 3.0}, {1: 1.0, 2: 4.0}, paired=False) == {1: 0.25, 3: 1.5}
    # a bound up to 1,000 is written out, past it ">1,000"
    assert interval_text(0.5, 995.0) == " [0.50, 995.00]" and interval_text(0.5, 1000.5) == " [0.50, >1,000]"


def test_a_scaling_law_without_a_peak_levels_off_from_a_contention_of_one_millionth_and_grows_in_proportion_below():
    from ycsbctl.results import scaling

    def said(sigma: float) -> str:
        return scaling.UslFit(5, 1000.0, sigma, 0.0, 0.999, 0.01, math.nan, scaling.FITS).text()

    assert "throughput levels off towards 995024.9k ops/s" in said(1.005e-6)  # λ / σ = 1,000 / 1.005e-6 ops/s
    assert "throughput grows in proportion to the threads" in said(0.995e-6)


def test_two_paired_rounds_one_degree_of_freedom_get_a_real_margin_test_and_interval():
    from scipy.stats import t as student_t

    from ycsbctl.results import stats

    c = stats.compare({1: 100.0, 2: 110.0}, {1: 150.0, 2: 180.0}, paired=True)
    assert c.df == 1 and c.se_log > 0
    excess = abs(math.log(c.ratio)) - math.log1p(0.1)
    p = stats.beyond_margin(c, 0.1).p_value
    assert p == pytest.approx(2 * student_t.sf(excess / c.se_log, 1), rel=1e-9) and 0 < p < 1
    at90 = stats.at_level(c, 0.9)
    half = student_t.ppf(0.95, 1) * c.se_log
    assert (at90.low, at90.high) == pytest.approx((c.ratio * math.exp(-half), c.ratio * math.exp(half)), rel=1e-9)


def test_a_results_error_rate_is_its_errors_and_timeouts_over_its_operations_as_the_run_table_counts_them():
    from ycsbctl.results.model import PhaseResult

    doc = _doc()
    ops = {k: {**v, "name": k} for k, v in doc["result"]["ops"].items()}
    r = PhaseResult.from_dict({**doc["result"], "phase": "run", "threads": 8, "ops": ops})
    # ERROR + TIMEOUT over READ and UPDATE: 2 + 3 + 7 = 12 of 1,000; NOT_FOUND (5) fails but is no error
    assert r.error_rate == pytest.approx(12 / 1000) == run_row(doc)["error_rate"]
    assert (r.returns("ERROR"), r.returns("TIMEOUT"), r.failed_operations) == (9, 3, 17)
    assert PhaseResult("run", 8, 2000.0, 0).error_rate == 0.0  # no operations: no rate, not a division by zero


def test_a_phase_results_error_rate_counts_timeouts_with_errors_as_the_run_row_does():
    """The same run JSON read as a PhaseResult (what the point's verdict holds against --max-error-rate): 12 of 1,000
    operations failed (2 + 7 ERROR, 3 TIMEOUT), 1.2 % — the runs table's ``error_rate`` of it, computed by run_row."""
    from ycsbctl.results.model import PhaseResult

    doc = _doc()
    ops = {name: {"name": name, **op} for name, op in doc["result"]["ops"].items()}  # as a run JSON names each
    result = PhaseResult.from_dict({"phase": "run", "threads": 8, **doc["result"], "ops": ops})
    assert result.error_rate == pytest.approx(0.012) == pytest.approx(run_row(doc)["error_rate"])


def test_a_runs_disturbance_events_are_written_to_its_own_events_part_with_its_run_id_and_target(tmp_path):
    from ycsbctl.results.events import EVENT_COLUMNS
    from ycsbctl.results.folder import ResultFolder, RunRecord, file_stem

    row = dict.fromkeys(EVENT_COLUMNS) | {"event": "del:set:2M@5s", "action": "del", "size": 2_000_000,
                                          "occurrence": 1, "stall_s": 1.6, "ops_lost": 39_770.5}
    events = pd.DataFrame([row], columns=list(EVENT_COLUMNS))
    run_id = "redis.workloadb.run.t16.r1"
    folder = ResultFolder.create(tmp_path, "x", _manifest("x"))
    try:
        folder.add_run(RunRecord(run_id, "redis", "workloadb", "run", 16, 1, "ok", events=events))
        part = pd.read_parquet(folder.path / "parts" / "events" / f"{file_stem(run_id)}.parquet")
    finally:
        folder.close()
    assert list(part.columns) == [*EVENT_COLUMNS, "run_id", "target"]
    assert part[["event", "size", "stall_s", "ops_lost", "run_id", "target"]].to_dict("records") == [
        {"event": "del:set:2M@5s", "size": 2_000_000, "stall_s": 1.6, "ops_lost": 39_770.5, "run_id": run_id,
         "target": "redis"}]
