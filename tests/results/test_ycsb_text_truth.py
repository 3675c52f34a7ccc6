"""ycsb_text against the real YCSB core 0.17.0: its Client's own output (BasicDB), and its own exporters.

Each run's truth is read from the raw text independently of the parser: BasicDB (verbose) prints
YCSB's resolved properties once per client thread (so the number of dumps is the thread count), and
the final block and status lines are split here with plain string operations.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from ycsbctl.results.ycsb_format import export_block, format_phase
from ycsbctl.results.ycsb_text import parse_output
from ycsbctl.workload.properties import WORKLOADS_DIR

pytestmark = pytest.mark.truth

# What the real Client printed for RUNS["zero"] when its run took under 1 ms (recorded on a fast machine of CI's
# kind): RunTime(ms) 0, Throughput NaN and NaN GC percentages. A slower machine prints 1 and 0.0, so the
# live run cannot be relied on for that text.
ZERO_UNDER_1MS = Path(__file__).parents[1] / "data" / "ycsb" / "zero-operations-under-1ms.txt"

DUMP = "***************** properties *****************"

# name → (Client arguments after "-db site.ycsb.BasicDB -P workloada"); each run takes well under a second.
RUNS = {
    # 0 operations; -target 1 (a rate ≤ 1). Its RunTime(ms) is 0 on a fast machine and 1 or more on a slower one:
    # see ZERO_UNDER_1MS for the 0 ms text.
    "zero": ["-t", "-p", "recordcount=10", "-p", "operationcount=0", "-target", "1", "-s"],
    # percentiles in a non-default order with a non-default one; threads only from -p; -target then digits.
    "pcts": ["-t", "-p", "recordcount=10", "-p", "operationcount=40", "-p", "hdrhistogram.percentiles=99,50,90",
             "-target", "100000", "-p", "threadcount=3", "-s"],
    # raw measurements; -target 0 (no target); -threads the last argument.
    "raw": ["-t", "-p", "recordcount=10", "-p", "operationcount=40", "-p", "measurementtype=raw",
            "-p", "target=0", "-threads", "2"],
    # load phase, histogram measurements named only in a second -P file (so only in BasicDB's dump).
    "histogram": ["-load", "-P", "{extra}", "-p", "recordcount=40", "-p", "measurement.histogram.verbose=true",
                  "-p", "histogram.buckets=5", "-s", "-threads", "2"],
    # -threads/-target and -p threadcount=/target= both given: the last on the command line wins (either order).
    "p-last": ["-t", "-p", "recordcount=10", "-p", "operationcount=20", "-threads", "2", "-target", "50000",
               "-p", "threadcount=3", "-p", "target=40000"],
    "flag-last": ["-t", "-p", "recordcount=10", "-p", "operationcount=20", "-p", "threadcount=3", "-p", "target=40000",
                  "-threads", "2", "-target", "50000"],
    # no thread count at all: YCSB's default is 1.
    "default": ["-t", "-p", "recordcount=10", "-p", "operationcount=20"],
}


@pytest.fixture(scope="module")
def ycsb_out(ycsb_classpath: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each run of :data:`RUNS`: stdout and stderr of the real Client, interleaved as printed."""
    cwd = tmp_path_factory.mktemp("ycsb-text")
    extra = cwd / "extra.properties"
    extra.write_text("measurementtype=histogram\n")
    out = {}
    for name, args in RUNS.items():
        cmd = ["java", "-cp", ycsb_classpath, "site.ycsb.Client", "-db", "site.ycsb.BasicDB",
               "-P", str(WORKLOADS_DIR / "workloada"), "-p", "basicdb.verbose=true",
               *[a.format(extra=extra) for a in args]]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60, cwd=cwd)
        assert proc.returncode == 0, proc.stdout[-2000:]
        out[name] = proc.stdout
    out["zero-0ms"] = ZERO_UNDER_1MS.read_text()
    return out


def dump(text: str) -> dict[str, str]:
    """YCSB's resolved properties as BasicDB printed them (first dump)."""
    props: dict[str, str] = {}
    for line in text.splitlines():
        m = re.fullmatch(r'"([^"]+)"="(.*)"', line)
        if m:
            props.setdefault(m[1], m[2])
    return props


def without_dump(text: str) -> str:
    """The text as a non-verbose BasicDB (or any other binding) prints it: no property dump."""
    return "\n".join(ln for ln in text.splitlines() if not re.fullmatch(r'"[^"]+"=".*"', ln)) + "\n"


def block(text: str) -> list[tuple[str, str, str]]:
    """(metric, key, value) of each final-block line, split without the parser."""
    rows = []
    for line in text.splitlines():
        if line.startswith("[") and "], " in line:
            head, _, value = line.rpartition(", ")
            metric, _, key = head.partition("], ")
            rows.append((metric[1:], key, value))
    return rows


@pytest.mark.parametrize("name", [n for n in RUNS if n != "zero"])  # 0 operations: no thread, no dump
@pytest.mark.parametrize("dumped", [True, False], ids=["with-dump", "without-dump"])
def test_threads_target_and_phase_are_what_ycsb_ran(ycsb_out, name: str, dumped: bool) -> None:
    text = ycsb_out[name]
    said = dump(text)
    threads = text.count(DUMP)  # BasicDB.init() runs once per client thread
    target = float(said.get("target", "0"))
    parsed = parse_output(text if dumped else without_dump(text))
    assert threads >= 1 and parsed.threads == parsed.result.threads == threads
    assert parsed.target_rate == parsed.result.target_rate == (target if target > 0 else None)
    assert parsed.phase == parsed.result.phase == ("load" if said["dotransactions"] == "false" else "run")
    assert parsed.workload == "workloada"
    if dumped:  # measurementtype of the "histogram" run is in a -P file only: YCSB's dump is the one place
        assert parsed.measurementtype == parsed.result.ycsb.measurementtype == said.get("measurementtype")


@pytest.mark.parametrize("name", ["zero", "zero-0ms", "pcts", "default"])
def test_the_final_block_is_reprinted_line_for_line(ycsb_out, name: str) -> None:
    text = ycsb_out[name]
    real = [f"[{m}], {k}, {v}" for m, k, v in block(text)]
    assert format_phase(parse_output(text).result).splitlines() == real


@pytest.mark.parametrize("name", ["zero", "zero-0ms"])
def test_a_run_of_no_operations_has_no_throughput(ycsb_out, name: str) -> None:
    raw = {(m, k): v for m, k, v in block(ycsb_out[name])}
    runtime_ms = int(raw[("OVERALL", "RunTime(ms)")])
    # YCSB divides 0 operations by the run's time: NaN when it took under 1 ms, else 0.0
    assert raw[("OVERALL", "Throughput(ops/sec)")] == ("NaN" if runtime_ms == 0 else "0.0")
    assert name != "zero-0ms" or runtime_ms == 0
    r = parse_output(ycsb_out[name]).result
    assert (r.status, r.runtime_ms, r.operations) == ("ok", float(runtime_ms), 0)
    assert r.target_rate == 1.0  # "-target 1"


def test_percentiles_keep_ycsbs_order(ycsb_out) -> None:
    text = ycsb_out["pcts"]
    printed = [k for m, k, _ in block(text) if m == "READ" and k.endswith("PercentileLatency(us)")]
    assert printed == ["99thPercentileLatency(us)", "50thPercentileLatency(us)", "90thPercentileLatency(us)"]
    assert parse_output(text).result.ycsb.percentiles == [99.0, 50.0, 90.0]


def test_raw_measurements_give_the_printed_summary(ycsb_out) -> None:
    text = ycsb_out["raw"]
    parsed = parse_output(text).result
    for name in ("READ", "UPDATE", "CLEANUP"):
        lines = {k: v for m, k, v in block(text) if m == name}
        op = parsed.ops[name]
        assert op.operations == int(lines["Total Operations"]) > 0
        assert (op.mean_us, op.min_us, op.max_us) == (float(lines["Average"]), float(lines["Min"]), float(lines["Max"]))
        assert op.percentiles_us == {float(k[1:]): float(v) for k, v in lines.items() if re.fullmatch(r"p[\d.]+", k)}
        assert 99.9 in op.percentiles_us and 1.0 in op.percentiles_us
    assert parsed.ycsb.unknown == []  # "Below is a summary of latency in microseconds:" is a known line


def test_histogram_measurements_give_buckets_variance_and_interval_means(ycsb_out) -> None:
    text = ycsb_out["histogram"]
    parsed = parse_output(text)
    r = parsed.result
    lines = [(k, v) for m, k, v in block(text) if m == "INSERT"]
    buckets = [[k, int(v)] for k, v in lines if re.fullmatch(r">?\d+", k)]
    assert len(buckets) == 6 and r.ycsb.points["INSERT"] == buckets  # 0..4 and >5
    assert r.ycsb.latency_variance_us["INSERT"] == float(dict(lines)["LatencyVariance(us)"])
    assert r.ycsb.unknown == []
    # status lines of the histogram type print the interval's mean only ("[INSERT AverageLatency(us)=…]")
    means = [float(m) for m in re.findall(r"\[INSERT AverageLatency\(us\)=([\d.]+)\]", text)]
    series = r.series[r.series.op == "INSERT"]
    assert means and list(series["mean_us"]) == means
    assert (series["operations"] == 0).all()  # no count printed: none invented


def test_an_unknown_line_of_an_operation_block_is_kept_aside(ycsb_out) -> None:
    text = ycsb_out["default"]
    odd = "[READ], SomeFutureLatency(us), 12"
    parsed = parse_output(text.replace("[READ], Operations", f"{odd}\n[READ], Operations", 1)
                          .replace("[READ], MinLatency", f"{odd}\n[READ], MinLatency", 1))
    assert parsed.result.ycsb.unknown == [odd]


# ----------------------------------------------------------------------------- YCSB's JSON exporters

EXPORT = """
import site.ycsb.measurements.exporter.*;
public class Export { public static void main(String[] a) throws Exception {
  java.util.List<String[]> rows = new java.util.ArrayList<>();
  java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
  for (String l; (l = r.readLine()) != null;) rows.add(l.split("\\t"));
  for (String kind : new String[]{"json", "jsonarray"}) {
    java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
    MeasurementsExporter e = kind.equals("json") ? new JSONMeasurementsExporter(buf)
                                                : new JSONArrayMeasurementsExporter(buf);
    for (String[] row : rows) {
      if (row[2].matches("-?\\\\d+")) e.write(row[0], row[1], Long.parseLong(row[2]));
      else e.write(row[0], row[1], Double.parseDouble(row[2]));
    }
    e.close();
    System.out.print(buf.toString("UTF-8") + "\\n\\u0000\\n");
  }
} }
"""


def json_values(text: str) -> list:
    """Every JSON value of a text of concatenated values (YCSB's json exporter separates them by spaces)."""
    dec, out, i = json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return out
        value, i = dec.raw_decode(text, i)
        out.append(value)


@pytest.mark.parametrize("name", ["zero", "zero-0ms", "pcts"])
def test_exporters_write_what_ycsbs_own_exporters_write(ycsb_out, ycsb_classpath: str, tmp_path: Path,
                                                        name: str) -> None:
    text = ycsb_out[name]
    result = parse_output(text).result
    real_text = "".join(f"[{m}], {k}, {v}\n" for m, k, v in block(text))
    assert export_block(result) == export_block(result, "text") == real_text
    src = tmp_path / "Export.java"
    src.write_text(EXPORT)
    rows = "".join(f"{m}\t{k}\t{v}\n" for m, k, v in block(text))
    proc = subprocess.run(["java", "-cp", ycsb_classpath, str(src)], input=rows, capture_output=True, text=True,
                          check=True, timeout=60)
    real_json, real_array, _ = proc.stdout.split("\n\x00\n")
    ours_json, ours_array = export_block(result, "json"), export_block(result, "jsonarray")
    objects = json_values(real_json)
    assert len(objects) == len(block(text)) > 2 and json_values(ours_json) == objects
    assert len(ours_json.splitlines()) == len(objects)  # one object per line
    assert json_values(ours_array) == json_values(real_array) == [objects]
    nans = [{"metric": m, "measurement": k, "value": "NaN"} for m, k, v in block(text) if v == "NaN"]
    assert all(o in objects for o in nans)  # Jackson writes NaN as the string "NaN"
    assert name != "zero-0ms" or len(nans) == 4  # Throughput and three GC percentages
