"""A YCSB user's command line means what it means in YCSB: ``-P`` names the workload, ``-p
operationcount``/``recordcount``/``threadcount``/``target``/``maxexecutiontime``/
``hdrhistogram.percentiles``/``exporter`` are honoured (the ycsbctl flag wins when both are given), a
count-bounded run measures all its operations, and no number is ever printed as NaN. Counts are
checked against Redis's own ``INFO commandstats``; percentiles against the stored HDR histogram read
with the ``hdrhistogram`` library."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import redis

from tests.fixtures.cli import ycsb_lines, ycsbctl
from tests.fixtures.docs import docs_page
from tests.fixtures.pacing import holdable_rate, unpaced_ops
from tests.fixtures.servers import free_port
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.results import histogram as hdr
from ycsbctl.workload.properties import WORKLOADS_DIR, load_properties

WORKLOADA = str(WORKLOADS_DIR / "workloada")


@pytest.fixture
def loaded(module_redis, tmp_path: Path):
    """The module_redis holding 5,000 workloada records, its statistics reset. They are loaded again only when the
    test before left the server holding anything else: the tests that use them read and update records, which
    adds and removes none; a test that flushes the server and loads other counts (2,000, 1,000) is seen here."""
    rds = redis.Redis(port=module_redis.port)
    if not (rds.dbsize() == 5000 + 1 and rds.zcard("_indices") == 5000):  # the records and YCSB's _indices sorted set
        rds.flushall()
        out = ycsbctl("load", "workloada", "--target", f"redis://127.0.0.1:{module_redis.port}", "-p",
                      "recordcount=5000", "--threads", "4", "--no-telemetry", cwd=tmp_path)
        assert out.returncode == 0, out.stderr
    assert rds.dbsize() == 5000 + 1 and rds.zcard("_indices") == 5000
    rds.config_resetstat()
    yield rds
    rds.close()


def calls(rds: redis.Redis, command: str) -> int:
    """How many times the module_redis ran ``command`` since the last reset (its own count)."""
    return int(rds.info("commandstats").get(f"cmdstat_{command}", {}).get("calls", 0))


def real_number(text: str) -> float:
    value = float(text)
    assert math.isfinite(value), text
    return value


def test_the_done_when_command_line_runs_exactly_20000_operations_with_real_numbers(module_redis, loaded, tmp_path):
    url = f"redis://127.0.0.1:{module_redis.port}"
    r = ycsbctl("run", "-P", WORKLOADA, "-p", "recordcount=5000", "-p", "operationcount=20000", "-p", "threadcount=4",
                "--target", url, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    block = ycsb_lines(r.stdout)
    reads, updates = int(block[("READ", "Operations")]), int(block[("UPDATE", "Operations")])
    assert reads + updates == 20_000
    assert calls(loaded, "hgetall") == reads and calls(loaded, "hmset") == updates  # what the module_redis ran
    runtime_ms = real_number(block[("OVERALL", "RunTime(ms)")])
    assert runtime_ms > 0
    assert real_number(block[("OVERALL", "Throughput(ops/sec)")]) == pytest.approx(20_000 * 1000 / runtime_ms, rel=1e-3)
    for op in ("READ", "UPDATE"):
        for metric in ("AverageLatency(us)", "MinLatency(us)", "MaxLatency(us)", "99thPercentileLatency(us)"):
            assert real_number(block[(op, metric)]) > 0
    assert "NaN" not in r.stdout and "nan" not in r.stderr.lower().replace("nanny", "")
    assert "4 threads" in r.stderr  # threadcount was the point's thread count
    assert "workloada" in r.stderr  # -P named the workload


def test_operationcount_without_operations_measures_every_operation_with_no_warm_up(module_redis, loaded, tmp_path):
    r = ycsbctl("run", "workloadc", "--target", f"redis://127.0.0.1:{module_redis.port}", "--threads", "2",
                "-p", "recordcount=5000", "-p", "operationcount=700", "--no-telemetry", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    block = ycsb_lines(r.stdout)
    assert int(block[("READ", "Operations")]) == 700 == calls(loaded, "hgetall")
    assert real_number(block[("OVERALL", "Throughput(ops/sec)")]) > 0
    assert "warm-up" not in r.stderr


def test_a_warm_up_that_takes_every_operation_fails_the_point_in_words_not_nan(module_redis, loaded, tmp_path):
    r = ycsbctl("run", "workloadc", "--target", f"redis://127.0.0.1:{module_redis.port}", "--threads", "2",
                "-p", "recordcount=5000", "--operations", "100", "--warmup", "3", "--no-telemetry", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert calls(loaded, "hgetall") == 100  # it did run them…
    assert "no operation was measured" in r.stderr and "lower --warmup" in r.stderr  # …and says none was measured
    assert "nan" not in (r.stdout + r.stderr).lower()
    assert r.stdout == ""  # no YCSB block of NaNs


def test_the_flag_wins_over_the_property(module_redis, loaded, tmp_path):
    r = ycsbctl("run", "workloadc", "--target", f"redis://127.0.0.1:{module_redis.port}", "-p", "threadcount=4",
                "--threads", "2", "-p", "operationcount=5000", "--operations", "300", "-p", "recordcount=5000",
                "--no-telemetry", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "2 threads" in r.stderr and "4 threads" not in r.stderr
    assert int(ycsb_lines(r.stdout)[("READ", "Operations")]) == 300 == calls(loaded, "hgetall")


@pytest.mark.speed
def test_maxexecutiontime_and_target_bound_the_run_as_in_ycsb(module_redis, loaded, tmp_path):
    url = f"redis://127.0.0.1:{module_redis.port}"
    # 200 ops/s, or half of what the same point does unpaced on this machine if that is lower
    unpaced = unpaced_ops(PhaseSpec("run", url, {**load_properties("workloadc"), "recordcount": "5000"}, threads=2,
                                    duration_s=1))
    target = holdable_rate(200, unpaced)
    loaded.config_resetstat()
    r = ycsbctl("run", "workloadc", "--target", url, "-p", "threadcount=2",
                "-p", "maxexecutiontime=2", "-p", f"target={target:g}", "-p", "recordcount=5000", "--no-telemetry",
                cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    block = ycsb_lines(r.stdout)
    runtime_ms = real_number(block[("OVERALL", "RunTime(ms)")])
    # 2 s by the client's own clock, no warm-up (not the profile's 2 s + 10 s): it ends at the bound, once
    # the operations in flight then are answered (the slowest one it measured) and its loop got to it (its lag)
    bound_ms = 2000
    slowest_ms = real_number(block[("READ", "MaxLatency(us)")]) / 1000
    lag_ms = real_number(block[("CLIENT-LAG", "MaxLatency(us)")]) / 1000
    tick_ms = 1000 * 2 / target  # each of the 2 threads' operations are due this far apart
    assert 0.95 * bound_ms <= runtime_ms <= bound_ms + slowest_ms + lag_ms + tick_ms, (runtime_ms, slowest_ms, lag_ms)
    ops = calls(loaded, "hgetall")
    assert ops == int(block[("READ", "Operations")])
    assert ops == pytest.approx(target * runtime_ms / 1000, rel=0.1)  # the target over both threads


def test_hdrhistogram_percentiles_choose_the_printed_lines_and_match_the_histogram(module_redis, loaded, tmp_path):
    out = tmp_path / "result"
    r = ycsbctl("run", "workloadc", "--target", f"redis://127.0.0.1:{module_redis.port}", "--threads", "2",
                "-p", "recordcount=5000", "-p", "operationcount=2000", "-p", "hdrhistogram.percentiles=90,99.99",
                "--out", str(out), "--no-telemetry", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    block = ycsb_lines(r.stdout)
    assert ("READ", "50thPercentileLatency(us)") not in block
    hist = hdr.decode(next((out / "histograms").glob("*.READ.hdr")).read_text().strip())
    assert hist.get_total_count() == 2000 == calls(loaded, "hgetall")
    assert int(block[("READ", "90thPercentileLatency(us)")]) == hist.get_value_at_percentile(90)
    assert int(block[("READ", "99.99PercentileLatency(us)")]) == hist.get_value_at_percentile(99.99)


def test_the_json_exporters_write_ycsbs_json_to_the_exportfile(module_redis, loaded, tmp_path):
    for exporter in ("JSONArrayMeasurementsExporter", "site.ycsb.measurements.exporter.JSONMeasurementsExporter"):
        loaded.config_resetstat()
        dest = tmp_path / f"{exporter}.json"
        r = ycsbctl("run", "workloadc", "--target", f"redis://127.0.0.1:{module_redis.port}", "--threads", "1",
                    "-p", "recordcount=5000", "-p", "operationcount=300", "-p", f"exporter={exporter}",
                    "-p", f"exportfile={dest}", "--no-telemetry", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert r.stdout == ""  # the block went to the file
        text = dest.read_text()
        if exporter.startswith("JSONArray"):
            rows = json.loads(text)
        else:  # one object after another, as Jackson writes them
            decoder, rows, i = json.JSONDecoder(), [], 0
            while text[i:].strip():
                obj, i = decoder.raw_decode(text, i + len(text[i:]) - len(text[i:].lstrip()))
                rows.append(obj)
        values = {(row["metric"], row["measurement"]): row["value"] for row in rows}
        assert values[("READ", "Operations")] == 300 == calls(loaded, "hgetall")
        assert math.isfinite(values[("OVERALL", "Throughput(ops/sec)")])


def test_an_unreachable_server_is_reported_once(tmp_path):
    r = ycsbctl("run", "workloadc", "--target", f"redis://127.0.0.1:{free_port()}", "--threads", "1",
                "--operations", "10", "--no-telemetry", cwd=tmp_path)
    assert r.returncode == 1
    assert len([ln for ln in r.stderr.splitlines() if "does not answer" in ln]) == 1, r.stderr


def test_a_length_the_user_gives_measures_from_the_first_operation_unless_warmup_as_the_docs_say(
        module_redis, loaded, tmp_path):
    """One rule, stated in the table of docs/guide/everyday.md and in ``--help``: the default profile's warm-up goes
    with its own point length; ``--duration`` (like YCSB's ``maxexecutiontime``) and ``--operations`` measure from the
    first operation unless ``--warmup`` is given, which the per-second series keep, marked."""
    from ycsbctl.experiment.plan import PROFILES, Plan
    from ycsbctl.results import load

    row = next(line for line in docs_page("guide/everyday.md").splitlines() if line.startswith("| `maxexecutiontime`"))
    assert "`--duration`, with no warm-up unless `--warmup`" in row
    assert "none with --duration or --operations" in " ".join(ycsbctl("run", "--help", cwd=tmp_path).stdout.split())
    warm = PROFILES["default"].warmup_s
    assert warm > 0 and Plan(targets=["redis"], workloads=["workloadc"]).point_warmup_s == warm
    assert Plan(targets=["redis"], workloads=["workloadc"],
                duration_s=1.0).point_warmup_s == 0 == Plan(targets=["redis"], workloads=["workloadc"],
                                                            operations=9).point_warmup_s
    url = f"redis://127.0.0.1:{module_redis.port}"
    for i, (bound, want) in enumerate(((["--duration", "1"], 0.0), (["-p", "maxexecutiontime=1"], 0.0),
                                       (["--duration", "1", "--warmup", "1"], 1.0))):
        out = tmp_path / f"w{i}"
        r = ycsbctl("run", "workloadc", "--target", url, "--threads", "2", "-p", "recordcount=5000", *bound,
                    "--no-telemetry", "--out", str(out), cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        run = load(out).runs.iloc[-1]
        assert run["warmup_s"] == want
        measured = load(out).series
        assert int(measured["warmup"].astype(bool).sum() > 0) == int(want > 0)  # the series keep it, marked


# The two tests below flush the module's server and load other counts: last, so that the tests above share one load
# of 5,000 records (`loaded` would load them again after either).
def test_load_takes_the_workload_from_p_and_the_threads_from_threadcount(module_redis, tmp_path):
    rds = redis.Redis(port=module_redis.port)
    rds.flushall()
    r = ycsbctl("load", "-P", WORKLOADA, "--target", f"redis://127.0.0.1:{module_redis.port}", "-p", "recordcount=2000",
                "-p", "threadcount=3", "--no-telemetry", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "workloada 3 threads" in r.stderr
    assert int(ycsb_lines(r.stdout)[("INSERT", "Operations")]) == 2000 == rds.dbsize() - 1
    rds.close()


def test_recordcount_given_with_p_is_the_count_the_manifest_progress_and_title_say(module_redis, tmp_path):
    rds = redis.Redis(port=module_redis.port)
    rds.flushall()
    out = tmp_path / "result"
    r = ycsbctl("run", "workloadc", "--target", f"redis://127.0.0.1:{module_redis.port}", "--threads", "1,2", "--load",
                "-p", "recordcount=1000", "-p", "operationcount=200", "--out", str(out), "--no-telemetry",
                cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert rds.dbsize() == 1000 + 1  # what was loaded, counted by the module_redis
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["plan"]["record_count"] == 1000
    assert "load of 1,000 records" in r.stderr  # the progress label
    assert "workloadc — 1,000 records" in r.stderr and "100,000" not in r.stdout + r.stderr  # the console title
    rds.close()
