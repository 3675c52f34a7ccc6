"""A result folder's run and operation rows (results/tables.py) from run documents built by hand: errors,
timeouts, client CPU, percentiles, impossible figures, and the run order."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from ycsbctl.results.tables import flag_impossible, other_share, run_row


def _doc(**result) -> dict:
    """A run JSON: READ 600 (5 NOT_FOUND, 2 ERROR, 3 TIMEOUT), UPDATE 400 (7 ERROR), 0.25 s of client CPU."""
    r = {"operations": 1000, "runtime_ms": 2000.0, "client_cpu_s": 0.25, "throughput_ops": 500.0,
         "ops": {"READ": {"operations": 600, "mean_us": 10.0, "min_us": 3.0, "max_us": 950.0,
                          "percentiles_us": {"99.0": 31.0, "99.9": 88.0},
                          "returns": {"OK": 590, "NOT_FOUND": 5, "ERROR": 2, "TIMEOUT": 3}},
                 "UPDATE": {"operations": 400, "mean_us": 20.0, "min_us": 5.0, "max_us": 700.0,
                            "percentiles_us": {"99.0": 47.0},
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
    assert (row["read_p99_us"], row["read_p999_us"], row["update_p99_us"],
            row["read_mean_us"]) == (31.0, 88.0, 47.0, 10.0)
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


def test_a_run_row_names_its_server_its_first_error_and_keeps_its_known_telemetry():
    doc = {**_doc(errors=["timeout on 10.0.0.1", "second"]), "telemetry_summary": {"server_cpu_pct_mean": 87.5,
                                                                                   "new_field": 1},
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


def test_a_run_file_whose_number_is_text_is_left_out_its_warning_quoting_the_texts_first_40_characters(tmp_path,
                                                                                                     capsys):
    """A run JSON whose ``throughput_ops`` is 50 characters of text (edited by hand) is left out, and the one
    warning line quotes the first 40 of them (a long value cut, not the whole line); one of 40 is quoted whole."""
    import json

    from ycsbctl.results.tables import read_run_docs

    (tmp_path / "runs").mkdir()
    long_text, short_text = "fast" + "-" * 36 + "0123456789", "f" * 40  # 50 characters, 40
    for name, text in (("long", long_text), ("short", short_text)):
        doc = {**_doc(throughput_ops=text), "run_id": name}
        (tmp_path / "runs" / f"{name}.json").write_text(json.dumps(doc), encoding="utf-8")
    assert read_run_docs(tmp_path) == []
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    quoted = "fast" + "-" * 36  # the first 40 characters, by hand
    assert f"(ValueError: throughput_ops = '{quoted}' is not a number)" in lines[0], lines[0]
    assert f"(ValueError: throughput_ops = '{short_text}' is not a number)" in lines[1], lines[1]


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


def test_the_hosts_other_share_adds_steal_to_other_programs_over_the_hosts_cores():
    """host_other_share (the verdicts' covariate): (other programs' % + steal %) over 100 × the host's cores; a steal
    not measured counts as none, an unknown foreign share or core count gives no share."""
    assert other_share({"host_foreign_pct": 30.0, "host_steal_pct": 20.0}, 2) == 0.25
    assert other_share({"host_foreign_pct": 30.0, "host_steal_pct": math.nan}, 2) == 0.15
    assert other_share({"host_foreign_pct": 30.0, "host_steal_pct": None}, "2") == 0.15
    assert math.isnan(other_share({"host_foreign_pct": math.nan, "host_steal_pct": 5.0}, 2))
    assert math.isnan(other_share({"host_foreign_pct": 30.0}, None))
    assert math.isnan(other_share({"host_foreign_pct": 30.0, "host_steal_pct": 5.0}, 0))  # no cores: no share
