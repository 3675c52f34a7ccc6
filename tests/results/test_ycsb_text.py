"""YCSB's text format: Java number printing, status lines, the final block, and the round trip."""

from __future__ import annotations

import math
import random
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from ycsbctl.errors import UserError
from ycsbctl.results import histogram as hdr
from ycsbctl.results.model import OpSummary, PhaseResult
from ycsbctl.results.ycsb_format import format_phase, java_double, percentile_name
from ycsbctl.results.ycsb_text import (
    is_failure_measurement,
    parse_locale_number,
    parse_output,
    parse_status_line,
    status_measurements,
)

DATA = Path(__file__).parents[1] / "data" / "ycsb"
MASTER_LOG = DATA / "master-workloada-redis.log"

# Real 0.17.0 status lines (BasicDB, status.interval=1), one per measurement type.
HDR_0170 = (
    "2026-11-22 03:25:52:817 1 sec: 986 operations; 748 current ops/sec; est completion in 2 second "
    "[READ: Count=357, Max=6563, Min=3, Avg=50.06, 90=38, 99=165, 99.9=6563, 99.99=6563] "
    "[UPDATE: Count=388, Max=6235, Min=17, Avg=133.77, 90=167, 99=1687, 99.9=6235, 99.99=6235] "
    "[Intended-READ: Count=348, Max=6747, Min=64, Avg=394.32, 90=1041, 99=4463, 99.9=6747, 99.99=6747] "
)
FIRST_0170 = ("2026-11-22 03:25:52:068 0 sec: 238 operations; ∞ current ops/sec; est completion in 0 second "
              "[READ: Count=113, Max=280, Min=17, Avg=34.65, 90=55, 99=261, 99.9=280, 99.99=280] ")
HISTOGRAM_0170 = ("2026-11-22 03:26:13:010 0 sec: 300 operations; ∞ current ops/sec; "
                  "[CLEANUP AverageLatency(us)=2] [INSERT AverageLatency(us)=1.87] ")
RAW_0170 = ("2026-11-22 03:26:13:551 0 sec: 300 operations; ∞ current ops/sec; "
            "CLEANUP count: 2, average latency(us): 1.00 INSERT count: 300, average latency(us): 2.09 ")


def final_lines(text: str) -> list[str]:
    return [ln.rstrip() for ln in text.splitlines() if ln.startswith("[")]


@pytest.mark.parametrize(
    ("value", "text"),
    [(656.5988181221273, "656.5988181221273"), (1.2345e7, "1.2345E7"), (1e7, "1.0E7"), (9999999.0, "9999999.0"),
     (0.001, "0.001"), (0.0001, "1.0E-4"), (100.0, "100.0"), (0.0, "0.0"), (-2.5, "-2.5"),
     (float("nan"), "NaN"), (float("inf"), "Infinity"), (float("-inf"), "-Infinity"), (1.5e21, "1.5E21"),
     (-0.0, "-0.0"), (1.0, "1.0"), (-1.0, "-1.0"), (-0.5, "-0.5"), (-0.001, "-0.001"), (0.000999, "9.99E-4"),
     (0.00099999, "9.9999E-4")],
)
def test_java_double_prints_like_double_tostring(value: float, text: str) -> None:
    assert java_double(value) == text


@pytest.mark.skipif(shutil.which("java") is None, reason="java is not installed (apt-get install default-jre-headless)")
def test_java_double_matches_the_jvm_for_latencies_and_throughputs(tmp_path: Path) -> None:
    # JDK ≤ 18 prints some values ≥ 1e16 with a digit too many (JDK-4511638); latencies never get there.
    rnd = random.Random(8)
    values = [rnd.uniform(0, 2000) for _ in range(500)] + [rnd.lognormvariate(3, 6) for _ in range(500)]
    values += [1000.0 * rnd.randint(1, 10**7) / rnd.randint(1, 10**5) for _ in range(500)]
    values = [v for v in values if v < 1e15] + [1e-3, 1e7, 0.0, float("nan"), float("inf")]
    values += [-v for v in values[::7]] + [-0.0, -0.5, -0.999, 0.000999, 0.00099999, 0.0009999999, 9999999.999]
    src = tmp_path / "Dbl.java"
    src.write_text(
        "public class Dbl { public static void main(String[] a) throws Exception {\n"
        "  java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));\n"
        "  for (String l; (l = r.readLine()) != null;)\n"
        "    System.out.println(Double.toString(Double.longBitsToDouble(Long.parseLong(l))));\n} }\n"
    )
    bits = "\n".join(str(struct.unpack("<q", struct.pack("<d", v))[0]) for v in values) + "\n"
    out = subprocess.run(["java", str(src)], input=bits, capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.split() == [java_double(v) for v in values]


def test_percentile_names_follow_ycsb_ordinals() -> None:
    names = [percentile_name(p) for p in (50, 95, 99, 99.9, 99.99, 1, 2, 3, 11, 12, 13, 21, 22, 33)]
    assert names == [
        "50thPercentileLatency(us)", "95thPercentileLatency(us)", "99thPercentileLatency(us)",
        "99.9PercentileLatency(us)", "99.99PercentileLatency(us)", "1stPercentileLatency(us)",
        "2ndPercentileLatency(us)", "3rdPercentileLatency(us)", "11thPercentileLatency(us)",
        "12thPercentileLatency(us)", "13thPercentileLatency(us)", "21stPercentileLatency(us)",
        "22ndPercentileLatency(us)", "33rdPercentileLatency(us)",
    ]


def test_hdr_status_line_of_0_17_0_gives_counts_and_percentiles() -> None:
    row = parse_status_line(HDR_0170)
    assert row is not None
    assert (row["elapsed_s"], row["operations"], row["ops_per_s"], row["est_remaining"]) == (1, 986, 748.0, "2 second")
    assert (row["READ.count"], row["READ.max_us"], row["READ.min_us"], row["READ.avg_us"]) == (357, 6563, 3, 50.06)
    assert (row["READ.p90_us"], row["READ.p99_us"], row["READ.p99.9_us"]) == (38, 165, 6563)
    assert row["Intended-READ.p99.99_us"] == 6747
    assert "READ.p50_us" not in row  # 0.17.0 prints no median in status lines


def test_first_status_line_has_an_infinite_rate() -> None:
    row = parse_status_line(FIRST_0170)
    assert row is not None and row["operations"] == 238 and math.isinf(row["ops_per_s"])


def test_status_line_with_comma_decimals_and_nan() -> None:
    line = ("2024-05-02 14:03:21:482 10 sec: 98765 operations; 9876,5 current ops/sec; est completion in "
            "1 minute [READ: Count=49333, Max=12031, Min=95, Avg=402,17, 50=357, 90=562, 99=1198, 99.9=3367, "
            "99.99=8783] [UPDATE: Count=0, Max=0, Min=0, Avg=NaN, 50=0, 90=0, 99=0, 99.9=0, 99.99=0] "
            "[SCAN: Count=0, Max=0, Min=0, Avg=\ufffd, 50=0, 90=0, 99=0, 99.9=0, 99.99=0] ")
    row = parse_status_line(line)
    assert row is not None
    assert (row["ops_per_s"], row["est_remaining"], row["READ.avg_us"],
            row["READ.p50_us"]) == (9876.5, "1 minute", 402.17, 357)
    assert math.isnan(row["UPDATE.avg_us"]) and math.isnan(row["SCAN.avg_us"])
    assert parse_locale_number("-∞") == float("-inf") and parse_locale_number("1\u00a0234,5") == 1234.5


def test_status_lines_of_histogram_and_raw_measurements() -> None:
    hist, raw = parse_status_line(HISTOGRAM_0170), parse_status_line(RAW_0170)
    assert hist is not None and hist["INSERT.avg_us"] == 1.87 and hist["CLEANUP.avg_us"] == 2
    assert raw is not None and (raw["INSERT.count"], raw["INSERT.avg_us"], raw["CLEANUP.count"]) == (300, 2.09, 2)


def test_status_line_without_rate_and_with_a_huge_estimate() -> None:
    row = parse_status_line("2026-11-22 03:34:46:232 0 sec: 0 operations; est completion in 106751991167300 days 15 "
                            "hours ")
    assert row is not None and row["operations"] == 0 and row["ops_per_s"] == 0.0
    assert row["est_remaining"] == "106751991167300 days 15 hours"


@pytest.mark.parametrize("line", [
    "READ usertable user6169460138291029373 [ <all fields>]",
    "UPDATE usertable user4756227309262813867 [ field8=30|.\"()>.%=l7 6,J+\"?04C;5;.%Lo.^g.8v ]",
    "Command line: -t -db site.ycsb.BasicDB -threads 4 -s",
    "DBWrapper: report latency for each error is false and specific error codes to track for latency are: []",
    "[OVERALL], RunTime(ms), 2023",
])
def test_other_lines_are_not_status_lines(line: str) -> None:
    assert parse_status_line(line) is None


def test_master_log_becomes_a_phase_result() -> None:
    parsed = parse_output(MASTER_LOG.read_text())
    r = parsed.result
    assert (parsed.threads, parsed.workload, parsed.phase, parsed.version) == (16, "workloada", "run",
                                                                               "0.18.0-SNAPSHOT")
    assert "-threads 16" in parsed.command_line and r.threads == 16
    assert (r.engine, r.status, r.runtime_ms, r.operations) == ("ycsb", "ok", 2009.0, 20000)
    assert r.throughput_ops == 9955.201592832254
    assert list(r.ops) == ["READ", "READ-FAILED", "CLEANUP", "UPDATE"]
    assert r.ops["READ"].returns == {"OK": 10000, "NOT_FOUND": 2} and r.ops["READ-FAILED"].returns == {}
    assert r.ops["READ"].percentiles_us == {50.0: 356, 95.0: 893, 99.0: 1195, 99.9: 3351}
    assert r.ops["UPDATE"].mean_us == 430.6502300460092 and r.ops["UPDATE"].histogram is None
    assert r.failed_operations == 2
    assert parsed.gc["TOTAL_GC_TIME_%_G1_Young_Generation"] == {"Time(%)": 0.5973120955699353}
    # status lines → per-second series; interval counts add up to the final totals
    assert list(parsed.status["second"]) == [0, 1, 2, 3] and list(parsed.status["elapsed_s"]) == [0, 1, 2, 2]
    assert parsed.status["ops_per_s"].iloc[-1] == 13777.78
    by_op = r.series.groupby("op")["operations"].sum()
    assert by_op["READ"] == 10000 and by_op["UPDATE"] == 9998 and by_op["READ-FAILED"] == 2
    assert r.series.query("op == 'READ' and second == 1")[["mean_us", "p50_us", "p99_us",
                                                           "max_us"]].values.tolist() == [
        [402.17, 357, 1198, 12031]]


def test_master_log_round_trips_line_for_line() -> None:
    text = MASTER_LOG.read_text()
    assert final_lines(format_phase(parse_output(text).result)) == final_lines(text)


def _native_result() -> PhaseResult:
    reads, failed, intended = hdr.new_histogram(), hdr.new_histogram(), hdr.new_histogram()
    hdr.record_many(reads, [100 + (i * 37) % 5000 for i in range(4000)])
    hdr.record_many(failed, [900, 1200])
    hdr.record_many(intended, [150 + (i * 53) % 90000 for i in range(4000)])
    ops = {
        "READ": OpSummary.from_histogram("READ", reads, {"OK": 4000, "NOT_FOUND": 2}),
        "READ-FAILED": OpSummary.from_histogram("READ-FAILED", failed),
        "Intended-READ": OpSummary.from_histogram("Intended-READ", intended),
        "SCAN": OpSummary("SCAN", 0, float("nan"), float("nan"), float("nan"), {}, {}),
    }
    return PhaseResult(phase="run", threads=8, runtime_ms=1000.0, operations=12_345_000, ops=ops)


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


def test_native_result_round_trips_through_the_text() -> None:
    native = _native_result()
    text = format_phase(native)
    assert "[OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), 1.2345E7\n" in text
    assert "[READ], 99.9PercentileLatency(us), " in text and "99.99Percentile" not in text
    assert "[SCAN], AverageLatency(us), NaN" in text
    back = parse_output(text).result
    assert back.operations == native.operations and list(back.ops) == list(native.ops)
    for name, op in native.ops.items():
        got = back.ops[name]
        assert (got.operations, got.returns) == (op.operations, op.returns)
        assert all(_same(getattr(got, f), getattr(op, f)) for f in ("mean_us", "min_us", "max_us"))
        assert got.percentiles_us == {p: v for p, v in op.percentiles_us.items() if p in (50, 95, 99, 99.9)}
    assert format_phase(back) == text


def test_percentiles_not_summarised_come_from_the_histogram() -> None:
    from hdrh.histogram import HdrHistogram

    native = _native_result()
    truth = HdrHistogram(1, 3_600_000_000, 3)  # HdrHistogram's own library, the same latencies (µs)
    for i in range(4000):
        truth.record_value(100 + (i * 37) % 5000)
    lines = format_phase(native, percentiles=(90, 99.99, 50)).splitlines()
    read = [ln.split(", ")[1:] for ln in lines if ln.startswith("[READ], ") and "Percentile" in ln]
    assert read == [[percentile_name(p), str(truth.get_value_at_percentile(p))] for p in (90, 99.99, 50)]


def test_flavor_0_17_0_prints_95th_and_99th_only() -> None:
    lines = format_phase(_native_result(), flavor="0.17.0").splitlines()
    read = [ln for ln in lines if ln.startswith("[READ], ") and "Percentile" in ln]
    assert [ln.split(", ")[1] for ln in read] == ["95thPercentileLatency(us)", "99thPercentileLatency(us)"]


def test_status_lines_printed_on_both_streams_count_once() -> None:
    text = MASTER_LOG.read_text()
    status = [ln for ln in text.splitlines() if " sec: " in ln]
    parsed = parse_output(text + "\n".join(status) + "\n")
    assert len(parsed.status) == len(status)


def test_two_runs_in_one_text_is_a_user_error() -> None:
    text = MASTER_LOG.read_text()
    with pytest.raises(UserError, match="one file per run"):
        parse_output(text + text)


def test_log_cut_before_the_final_block_is_failed_with_the_last_status_totals() -> None:
    text = "\n".join(ln for ln in MASTER_LOG.read_text().splitlines() if not ln.startswith("["))
    r = parse_output(text).result
    assert (r.status, r.operations, r.runtime_ms) == ("failed", 20000, 2000.0)
    assert "no [OVERALL] block" in r.errors[0]


def test_log_cut_after_any_status_line_takes_that_lines_totals() -> None:
    lines = [ln for ln in MASTER_LOG.read_text().splitlines() if not ln.startswith("[")]
    status_at = [i for i, ln in enumerate(lines) if " sec: " in ln]
    for k, i in enumerate(status_at):
        sec, ops = re.search(r" (\d+) sec: (\d+) operations;", lines[i]).groups()
        r = parse_output("\n".join(lines[: i + 1])).result
        assert (r.status, r.runtime_ms, r.operations, len(r.series["second"].unique())) == (
            "failed", 1000.0 * int(sec), int(ops), k + 1)


def test_text_with_no_totals_and_no_status_has_no_runtime_and_no_threads() -> None:
    ops_only = "\n".join(ln for ln in final_lines(MASTER_LOG.read_text()) if not ln.startswith("[OVERALL]"))
    r = parse_output(ops_only).result
    assert (r.status, r.runtime_ms, r.threads, r.operations) == ("failed", 0.0, 0, 10002 + 9998)  # Return= lines


def test_an_overall_block_of_no_runtime_says_nothing_of_the_operations_its_blocks_count_them() -> None:
    """A runtime of 0 ms (YCSB's own arithmetic prints no finite throughput over it; an edited log can): the
    throughput times the runtime is no count, the Return= lines are."""
    text = re.sub(r"\[OVERALL\], RunTime\(ms\), .*", "[OVERALL], RunTime(ms), 0",
                  "\n".join(final_lines(MASTER_LOG.read_text())))
    text = re.sub(r"\[OVERALL\], Throughput\(ops/sec\), .*", "[OVERALL], Throughput(ops/sec), 0.0", text)
    r = parse_output(text).result
    assert (r.runtime_ms, r.operations) == (0.0, 10002 + 9998)
    # from 1 ms on, the count is the [OVERALL] block's: 7,000 ops/s over 1 ms are 7 operations, whatever the blocks say
    one_ms = text.replace("RunTime(ms), 0", "RunTime(ms), 1").replace("Throughput(ops/sec), 0.0",
                                                                      "Throughput(ops/sec), 7000.0")
    r = parse_output(one_ms).result
    assert (r.runtime_ms, r.operations) == (1.0, 7)


def test_a_second_run_cut_inside_its_overall_block_is_still_a_second_run() -> None:
    text = MASTER_LOG.read_text()
    with pytest.raises(UserError, match="2 YCSB runs"):
        parse_output(text + text[: text.index("[OVERALL], Throughput")])


def test_status_frame_columns_are_the_same_with_and_without_lines() -> None:
    full, empty = parse_output(MASTER_LOG.read_text()).status, parse_output("").status
    assert list(full.columns[: len(empty.columns)]) == list(empty.columns)


def test_status_measurements_are_the_bracketed_names_in_printed_order() -> None:
    for line in (HDR_0170, FIRST_0170, HISTOGRAM_0170):
        printed = re.findall(r"\[([^\s:\]]+)[: ]", line)
        assert status_measurements(parse_status_line(line)) == printed
    assert status_measurements(parse_status_line(RAW_0170)) == ["CLEANUP", "INSERT"]


@pytest.mark.parametrize(("name", "failed"), [
    # DBWrapper names latencies of failed operations "<OP>-<Status.getName()>" (master: "<OP>-FAILED")
    ("READ-FAILED", True), ("UPDATE-NOT_FOUND", True), ("INSERT-ERROR", True), ("SCAN-UNEXPECTED_STATE", True),
    ("READ-MODIFY-WRITE-FAILED", True), ("DELETE-FAILED", True),
    ("READ", False), ("UPDATE", False), ("READ-MODIFY-WRITE", False), ("Intended-READ", False), ("CLEANUP", False),
])
def test_failure_measurements_are_named_by_dbwrapper(name: str, failed: bool) -> None:
    assert is_failure_measurement(name) is failed


def test_throughput_is_over_the_whole_milliseconds_printed() -> None:
    # site.ycsb.Client: RunTime(ms) is a long and Throughput = 1000.0 * opcount / RunTime(ms); the
    # values are Java's: 1000.0*3/1 = 3000.0 and 1000.0*7/3 = 2333.3333333333335 (Double.toString).
    for runtime_ms, operations, printed in [(1.4, 3, ("1", "3000.0")), (2.6, 7, ("3", "2333.3333333333335"))]:
        r = PhaseResult(phase="run", threads=1, runtime_ms=runtime_ms, operations=operations, ops={})
        lines = format_phase(r).splitlines()
        assert lines[:2] == [f"[OVERALL], RunTime(ms), {printed[0]}", f"[OVERALL], Throughput(ops/sec), {printed[1]}"]


# --------------------------------------------------------------------------- ycsbctl import-ycsb


def test_import_ycsb_writes_a_result_folder_that_loads(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ycsbctl.cli import main
    from ycsbctl.results.frames import load

    second = tmp_path / "again.log"
    second.write_text(MASTER_LOG.read_text())
    out = tmp_path / "reports" / "imported"
    res = CliRunner().invoke(main, ["import-ycsb", str(MASTER_LOG), str(second), "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "redis.workloada.run.t16.r0 ok, 20000 operations, 9955.2 ops/s" in res.output
    exp = load(out)
    assert exp.status == "complete" and exp.targets == ["redis"] and exp.workloads == ["workloada"]
    assert sorted(exp.runs["run_id"]) == ["redis.workloada.run.t16.r0", "redis.workloada.run.t16.r1"]
    row = exp.runs.iloc[0]
    assert (row["threads"], row["operations"], row["throughput_ops"],
            row["engine"]) == (16, 20000, 9955.201592832254, "ycsb")
    assert row["read_p99_us"] == 1195 and row["not_found"] == 2
    assert set(exp.series["op"]) >= {"READ", "UPDATE"}
    stored = (out / "ycsb" / "redis.workloada.run.t16.r0.txt").read_text()
    assert final_lines(stored) == final_lines(MASTER_LOG.read_text())
    # another tool's figures: --resume would add our own points to them as repetitions of the same cells
    resumed = CliRunner().invoke(main, ["run", "--resume", str(out)])
    assert resumed.exit_code == 2 and resumed.output == (
        f"error: {out} holds YCSB output read by import-ycsb: there is no plan of ours to finish: start a new "
        "experiment (ycsbctl run … --out DIR) and compare the two\n"), resumed.output
    assert sorted(p.name for p in (out / "runs").iterdir()) == ["redis.workloada.run.t16.r0.json",
                                                                 "redis.workloada.run.t16.r1.json"]


def test_import_ycsb_asks_for_what_a_bare_final_block_does_not_say(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ycsbctl.cli import main

    bare = tmp_path / "bare.txt"
    bare.write_text("\n".join(final_lines(MASTER_LOG.read_text())) + "\n")
    runner = CliRunner()
    res = runner.invoke(main, ["import-ycsb", str(bare), "--out", str(tmp_path / "a")])
    assert res.exit_code == 2 and "error: cannot tell the target of" in res.output and "--target NAME" in res.output
    res = runner.invoke(main, ["import-ycsb", str(bare), "--out", str(tmp_path / "b"), "--target", "redis",
                               "--workload", "workloada", "--threads", "32"])
    assert res.exit_code == 0, res.output
    assert "redis.workloada.run.t32.r0 ok, 20000 operations" in res.output


@pytest.mark.parametrize(("given", "rate"), [("5000", 5000.0), ("1", 1.0), ("0", None), ("fast", None), ("", None)])
def test_a_target_rate_is_the_command_lines_positive_number_and_none_otherwise(given: str, rate: float | None) -> None:
    """-target 5000 is a paced run at 5,000 ops/s (and 1 at 1 ops/s); 0 (YCSB's unpaced), a word or nothing is no
    rate."""
    text = (f"Command line: -db site.ycsb.BasicDB -P workloads/workloada -t -threads 2 -target {given}\n"
            "[OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), 10.0\n")
    assert parse_output(text).result.target_rate == rate


def test_a_second_p_file_named_like_a_property_is_a_file_not_the_property() -> None:
    """YCSB's Client reads ``-P FILE`` as a file whatever its name; only ``-p key=value`` sets a property (the first
    -P names the workload, a second is another file): ``-P target=5`` sets no target rate."""
    from ycsbctl.results.ycsb_text import _command_facts

    facts = _command_facts("-db site.ycsb.BasicDB -P workloads/workloadb -P target=5 -p threadcount=3 -t", {})
    assert (facts["threads"], facts["workload"], facts["phase"], facts["target"]) == (3, "workloadb", "run", None)
    assert _command_facts("-P workloads/workloadb -p target=5 -t", {})["target"] == 5.0
