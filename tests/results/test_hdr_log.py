"""Per-second HdrHistogram interval logs, read by foreign readers: the ``hdrh`` package's
HistogramLogReader and the Java HdrHistogram library's own HistogramLogReader (a small program
compiled here). Each interval's count is the per-second series' (series.parquet), its maximum too;
all intervals together are what Redis counted (``INFO commandstats``) and the point's whole histogram.
``-p hdrhistogram.fileoutput=true`` writes the same logs under YCSB's names."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
import redis
from hdrh.log import HistogramLogReader

from tests.fixtures.cli import ycsbctl
from tests.fixtures.servers import ROOT, start_redis
from ycsbctl.results import histogram as hdr

HDR_JAR = ROOT / ".cache" / "hdrhistogram" / "lib" / "HdrHistogram-2.2.2.jar"
RECORDS = 2000

# Prints one line per interval: start and end (ms since the epoch), total count, max value (µs),
# then the log's StartTime — what the Java library itself reads from the file.
READ_LOG_JAVA = """
import java.io.File;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

public class ReadLog {
  public static void main(String[] args) throws Exception {
    HistogramLogReader reader = new HistogramLogReader(new File(args[0]));
    EncodableHistogram e;
    while ((e = reader.nextIntervalHistogram()) != null) {
      Histogram h = (Histogram) e;
      System.out.println(h.getStartTimeStamp() + " " + h.getEndTimeStamp() + " " + h.getTotalCount() + " "
                         + h.getMaxValue());
    }
    System.out.println("start " + (long) Math.round(reader.getStartTimeSec() * 1000));
  }
}
"""


@pytest.fixture(scope="module")
def java_read_log(tmp_path_factory: pytest.TempPathFactory):
    """A function: log file → [(start_ms, end_ms, count, max_us)], start_ms, as Java HdrHistogram reads it."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("a JDK (javac, java) is not installed (apt-get install default-jdk-headless)")
    if not HDR_JAR.exists():
        pytest.skip(f"{HDR_JAR} is missing (mvn -f infra/hdrhistogram/pom.xml dependency:copy-dependencies, "
                    "or scripts/setup.sh --for-tests)")
    d = tmp_path_factory.mktemp("java-hdr")
    (d / "ReadLog.java").write_text(READ_LOG_JAVA)
    subprocess.run(["javac", "-cp", str(HDR_JAR), "ReadLog.java"], cwd=d, check=True, capture_output=True, timeout=120)

    def read(path: Path) -> tuple[list[tuple[int, ...]], int]:
        out = subprocess.run(["java", "-cp", f"{HDR_JAR}:{d}", "ReadLog", str(path)], check=True,
                             capture_output=True, text=True, timeout=60).stdout.splitlines()
        return [tuple(int(v) for v in line.split()) for line in out[:-1]], int(out[-1].split()[1])

    return read


def hdrh_intervals(path: Path) -> list:
    """Every interval histogram of a log, as the ``hdrh`` package reads it."""
    reader = HistogramLogReader(str(path), hdr.new_histogram())
    out = []
    while (h := reader.get_next_interval_histogram()) is not None:
        out.append(h)
    reader.close()
    return out


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory):
    """One 2-second point against a real redis-server, with YCSB's log output asked for: its folder,
    the YCSB-named log prefix and what the server counted."""
    tmp = tmp_path_factory.mktemp("hdr-log")
    server = start_redis(tmp / "redis")
    try:
        url = f"redis://127.0.0.1:{server.port}"
        load = ycsbctl("load", "workload-b", "--target", url, "-p", f"recordcount={RECORDS}", "--threads", "2",
                       "--no-telemetry", "--quiet", cwd=tmp)
        assert load.returncode == 0, load.stderr
        rds = redis.Redis(port=server.port)
        rds.config_resetstat()
        (tmp / "logs").mkdir()
        prefix = str(tmp / "logs" / "ycsb-")
        r = ycsbctl("run", "workload-b", "--target", url, "-p", f"recordcount={RECORDS}", "--duration", "2",
                    "--warmup", "0", "--threads", "2", "--no-telemetry", "--out", str(tmp / "point"),
                    "-p", "hdrhistogram.fileoutput=true", "-p", f"hdrhistogram.output.path={prefix}", cwd=tmp,
                    timeout=300)
        assert r.returncode == 0, r.stderr
        stats = rds.info("commandstats")
        rds.close()
        yield tmp / "point", prefix, {op: int(stats[f"cmdstat_{c}"]["calls"]) for op, c in
                                      (("READ", "hgetall"), ("UPDATE", "hmset"))}
    finally:
        server.stop()


@pytest.mark.parametrize("op", ["READ", "UPDATE"])
def test_each_interval_is_that_seconds_series_row_and_all_of_them_are_what_the_server_ran(measured, op, java_read_log):
    folder, prefix, server_calls = measured
    (log,) = (folder / "histograms").glob(f"*.{op}.hlog")
    series = pd.read_parquet(folder / "series.parquet")
    rows = series[(series["op"] == op) & ~series["warmup"]].sort_values("second")
    seconds = sorted(series.loc[~series["warmup"], "second"].unique())  # every measured second has an interval

    py = hdrh_intervals(log)
    java, start_ms = java_read_log(log)
    assert len(py) == len(java) == len(seconds) >= 2  # the point's 2 s, at least
    by_second = dict(zip(rows["second"], zip(rows["operations"], rows["max_us"])))
    for k, h, (j_start, j_end, j_count, j_max) in zip(seconds, py, java):
        count, max_us = by_second.get(k, (0, 0))
        assert h.get_total_count() == j_count == count, k
        assert h.get_max_value() == j_max == (max_us if count else 0), k
        assert j_start - start_ms == 1000 * k and 0 <= j_end - j_start <= 1000  # one interval a second
    # all the intervals: what the server ran, and the point's whole histogram
    assert sum(h.get_total_count() for h in py) == sum(j[2] for j in java) == server_calls[op]
    (whole,) = (folder / "histograms").glob(f"*.{op}.hdr")
    assert hdr.decode(whole.read_text().strip()).get_total_count() == server_calls[op]

    # hdrhistogram.fileoutput: the same log under YCSB's name, <hdrhistogram.output.path><NAME>.hdr
    assert Path(prefix + f"{op}.hdr").read_text() == log.read_text()


def test_a_sweep_with_fileoutput_names_each_points_logs_by_run_id(tmp_path: Path):
    r = ycsbctl("run", "workload-c", "--target", "basic://", "--threads", "1,2", "--operations", "300",
                "-p", "recordcount=100", "--no-telemetry", "--quiet", "--out", str(tmp_path / "f"),
                "-p", "hdrhistogram.fileoutput=true", "-p", f"hdrhistogram.output.path={tmp_path}/", cwd=tmp_path,
                timeout=300)
    assert r.returncode == 0, r.stderr
    logs = sorted(p.name for p in tmp_path.glob("*.READ.hdr"))
    assert len(logs) == 2 and all(".t1." in n or ".t2." in n for n in logs)
    for name in logs:
        assert sum(h.get_total_count() for h in hdrh_intervals(tmp_path / name)) == 300
