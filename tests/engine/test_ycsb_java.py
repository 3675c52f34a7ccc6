"""The real YCSB client (core 0.17.0 from Maven Central, BasicDB) driven by ycsb_java, parsed back."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import psutil
import pytest

from ycsbctl.engine.spec import PhaseSpec, Tick
from ycsbctl.engine.ycsb_java import build_command, find_ycsb, run_phase_java
from ycsbctl.errors import UserError
from ycsbctl.results.model import PhaseResult
from ycsbctl.results.ycsb_format import format_phase
from ycsbctl.results.ycsb_text import parse_output

WORKLOAD = {"workload": "site.ycsb.workloads.CoreWorkload", "recordcount": "2000", "operationcount": "2000",
            "readproportion": "0.5", "updateproportion": "0.5", "requestdistribution": "zipfian"}

# name → (phase, threads, target ops/s, measurement.interval, extra properties); ≤ 7 JVM runs.
RUNS = {
    "load-1": ("load", 1, None, "op", {}),
    "load-4": ("load", 4, None, "op", {}),
    "run-1": ("run", 1, None, "op", {}),
    "run-4-target": ("run", 4, 4000, "both", {}),
    "histogram": ("run", 2, None, "op", {"measurementtype": "histogram", "operationcount": "1000"}),
    "timeseries": ("run", 2, None, "op", {"measurementtype": "timeseries", "operationcount": "1000"}),
    "raw": ("run", 2, None, "op", {"measurementtype": "raw", "operationcount": "1000"}),
}
HDR_RUNS = ("load-1", "load-4", "run-1", "run-4-target")


@pytest.fixture(scope="session")
def install(ycsb_classpath: str):
    return find_ycsb(str(Path(ycsb_classpath.split(":")[0]).parent))


@pytest.fixture(scope="session")
def corpus(install) -> dict[str, tuple[PhaseResult, list[Tick]]]:
    """Every run of :data:`RUNS`, once per session: its result and the Ticks it streamed."""
    out = {}
    for name, (phase, threads, target, interval, extra) in RUNS.items():
        ticks: list[Tick] = []
        spec = PhaseSpec(phase=phase, url="basic://", properties={**WORKLOAD, **extra}, threads=threads,
                         target_rate=target, measurement=interval, workload_name="workloada")
        out[name] = (run_phase_java(spec, install, ticks.append), ticks)
    return out


def final_block(text: str) -> dict[tuple[str, str], str]:
    """``[METRIC], key, value`` lines of the raw text, read independently of the parser."""
    rows = {}
    for line in text.splitlines():
        if line.startswith("["):
            head, _, value = line.rpartition(", ")
            metric, _, key = head.partition("], ")
            rows[(metric[1:], key)] = value
    return rows


@pytest.mark.parametrize("name", HDR_RUNS)
def test_parsed_result_matches_the_raw_text(corpus, name: str) -> None:
    result, _ = corpus[name]
    phase, threads, target, _, _ = RUNS[name]
    raw = final_block(result.ycsb.text)
    assert (result.status, result.engine, result.phase, result.threads, result.target_rate) == (
        "ok", "ycsb", phase, threads, target)
    assert result.runtime_ms == int(raw[("OVERALL", "RunTime(ms)")])
    assert result.throughput_ops == float(raw[("OVERALL", "Throughput(ops/sec)")])
    assert result.operations == 2000 and result.client_cpu_s > 0
    checked = 0
    for (metric, key), value in raw.items():
        if metric == "OVERALL" or metric.startswith("TOTAL_GC"):
            continue
        op = result.ops[metric]
        if key == "Operations":
            assert op.operations == int(value)
        elif key.startswith("Return="):
            assert op.returns[key[7:]] == int(value)
        elif key.endswith("PercentileLatency(us)"):
            p = float(re.sub(r"(st|nd|rd|th)$", "", key.split("Percentile")[0]))
            assert op.percentiles_us[p] == int(value)
            checked += 1
        elif key == "AverageLatency(us)":
            assert op.mean_us == float(value)
    assert checked >= 4 * 2  # 50/95/99/99.9 of at least the operation and CLEANUP
    base = "INSERT" if phase == "load" else "READ"
    assert result.ops[base].returns["OK"] == result.ops[base].operations > 0


@pytest.mark.parametrize("name", HDR_RUNS)
def test_format_phase_reprints_the_real_final_block(corpus, name: str) -> None:
    result, _ = corpus[name]
    text = result.ycsb.text
    real = [ln for ln in text.splitlines() if ln.startswith("[")]
    assert format_phase(parse_output(text).result).splitlines() == real
    assert format_phase(result).splitlines() == real


@pytest.mark.parametrize("name", HDR_RUNS)
def test_status_lines_become_the_series_and_the_ticks(corpus, name: str) -> None:
    result, ticks = corpus[name]
    base = "INSERT" if RUNS[name][0] == "load" else "READ"
    series = result.series
    assert series[series.op == base]["operations"].sum() == result.ops[base].operations
    assert list(series.columns) == ["second", "op", "operations", "mean_us", "p50_us", "p95_us", "p99_us",
                                    "max_us", "warmup", "timeouts"]
    assert series["timeouts"].isna().all()  # YCSB's status lines do not say when operations timed out
    assert ticks and ticks[-1].operations == result.operations
    counted = [t for t in ticks if not t.starting]  # before its first operation YCSB's threads were starting
    assert ticks[: len(ticks) - len(counted)] == [t for t in ticks if t.starting]
    assert [t.second for t in counted] == sorted({t.second for t in counted})
    assert all(t.errors == 0 for t in ticks)
    # YCSB's first line with operations has no rate ("Infinity"): it was shown as a second of 0 ops/s
    assert all(math.isfinite(t.ops_per_s) for t in counted)
    assert counted[0].ops_per_s > 0 or counted[0].operations == result.operations


def test_intended_latency_is_measured_with_a_target_rate(corpus) -> None:
    result, _ = corpus["run-4-target"]
    assert {"READ", "UPDATE", "Intended-READ", "Intended-UPDATE"} <= set(result.ops)
    assert result.ops["Intended-READ"].returns == {}
    assert result.ops["Intended-READ"].operations == result.ops["READ"].operations
    cmd = result.ycsb.command
    assert cmd[cmd.index("-target") + 1] == "4000" and "measurement.interval=both" in cmd


def test_basicdb_echo_is_off_for_throughput_runs(corpus) -> None:
    result, _ = corpus["run-1"]
    assert "usertable user" not in result.ycsb.text
    assert "basicdb.verbose=false" in result.ycsb.command


def test_histogram_measurement_is_parsed(corpus) -> None:
    result, _ = corpus["histogram"]
    raw = final_block(result.ycsb.text)
    assert result.status == "ok" and result.operations == 1000
    assert result.ops["READ"].operations == int(raw[("READ", "Operations")])
    assert set(result.ops["READ"].percentiles_us) == {95.0, 99.0}
    assert result.ycsb.latency_variance_us["READ"] == float(raw[("READ", "LatencyVariance(us)")])
    assert result.series[result.series.op == "READ"]["mean_us"].notna().all()


def test_timeseries_measurement_is_parsed(corpus) -> None:
    result, _ = corpus["timeseries"]
    raw = final_block(result.ycsb.text)
    assert result.status == "ok" and result.operations == 1000
    assert result.ops["UPDATE"].operations == int(raw[("UPDATE", "Operations")])
    assert result.ycsb.points["READ"]  # [time offset ms, average µs] points


def test_raw_measurement_is_parsed(corpus) -> None:
    result, _ = corpus["raw"]
    raw = final_block(result.ycsb.text)
    read = result.ops["READ"]
    assert result.status == "ok" and read.operations == int(raw[("READ", "Total Operations")]) > 0
    assert read.percentiles_us[99.9] == int(raw[("READ", "p99.9")])
    assert read.mean_us == float(raw[("READ", "Average")]) and read.returns["OK"] == read.operations


def test_a_ycsb_that_cannot_start_gives_a_failed_result(install) -> None:
    # CoreWorkload refuses the distribution in its init: the JVM exits before any operation
    spec = PhaseSpec(phase="run", url="basic://", properties={**WORKLOAD, "requestdistribution": "nosuch"})
    result = run_phase_java(spec, install)
    assert result.status == "failed"
    assert any("WorkloadException: Unknown request distribution \"nosuch\"" in e for e in result.errors), result.errors


def _jvms() -> set[int]:
    """The JVMs among this process's descendants (PIDs)."""
    return {p.pid for p in psutil.Process().children(recursive=True) if "java" in p.name()}


def test_ctrl_c_terminates_the_jvm(install) -> None:
    seen: list[int] = []
    # the JVMs this worker already runs are not the phase's: the session's Elasticsearch node (or a container's,
    # under the session's dockerd) when a module that uses one ran on this worker before
    before = _jvms()

    def interrupt(tick: Tick) -> None:
        seen.extend(_jvms() - before)
        raise KeyboardInterrupt

    spec = PhaseSpec(phase="run", url="basic://", properties={**WORKLOAD, "operationcount": "1000000"},
                     target_rate=100)
    with pytest.raises(KeyboardInterrupt):
        run_phase_java(spec, install, interrupt)
    assert seen and not any(psutil.pid_exists(pid) for pid in seen)


# --------------------------------------------------------------------------- finding an install


def _release(tmp_path: Path, jars_from: Path, shebang: str) -> Path:
    home = tmp_path / "ycsb-0.17.0"
    (home / "bin").mkdir(parents=True)
    (home / "lib").mkdir()
    for jar in jars_from.glob("*.jar"):
        (home / "lib" / jar.name).symlink_to(jar)
    (home / "bin" / "ycsb").write_text(f"#!{shebang}\n")
    (home / "bin" / "ycsb").chmod(0o755)
    return home


def test_a_folder_of_jars_is_an_install_for_basic_only(install) -> None:
    assert (install.kind, install.version, install.package) == ("jars", "0.17.0", "site.ycsb")
    cmd = build_command(PhaseSpec(phase="load", url="basic://"), install)
    assert cmd[cmd.index("-db") + 1] == "site.ycsb.BasicDB" and "-load" in cmd
    with pytest.raises(UserError, match="no mongodb binding.*release folder"):
        build_command(PhaseSpec(phase="run", url="mongodb://127.0.0.1:27017/ycsb"), install)


def test_release_without_python_runs_java_with_the_binding_jars(install, tmp_path: Path) -> None:
    home = _release(tmp_path, install.home, "/usr/bin/env python2-is-not-installed")
    found = find_ycsb(str(home))
    spec = PhaseSpec(phase="run", url="redis://:s3cret@127.0.0.1:6390/0", threads=8)
    with pytest.raises(UserError, match="no redis binding"):
        build_command(spec, found)
    (home / "redis-binding" / "lib").mkdir(parents=True)
    (home / "redis-binding" / "lib" / "redis-binding-0.17.0.jar").write_bytes(b"")
    cmd = build_command(spec, found)
    assert cmd[0].endswith("java") and str(home / "redis-binding" / "lib" / "redis-binding-0.17.0.jar") in cmd[2]
    assert cmd[cmd.index("-db") + 1] == "site.ycsb.db.RedisClient"
    for prop in ("redis.host=127.0.0.1", "redis.port=6390", "redis.password=s3cret", "status.interval=1",
                 "measurementtype=hdrhistogram", "hdrhistogram.percentiles=50,95,99,99.9"):
        assert prop in cmd
    assert cmd[cmd.index("-threads") + 1] == "8" and "-s" in cmd


def test_release_with_its_python_runs_bin_ycsb(install, tmp_path: Path, monkeypatch) -> None:
    home = _release(tmp_path, install.home, "/bin/sh")
    (home / "mongodb-binding" / "lib").mkdir(parents=True)
    (home / "mongodb-binding" / "lib" / "mongodb-binding-0.17.0.jar").write_bytes(b"")
    monkeypatch.setenv("YCSB_HOME", str(home))
    cmd = build_command(PhaseSpec(phase="load", url="mongodb://127.0.0.1:27017"), find_ycsb(None))
    assert cmd[:3] == [str(home / "bin" / "ycsb"), "load", "mongodb"]
    assert "mongodb.url=mongodb://127.0.0.1:27017/ycsb" in cmd


def test_a_folder_without_ycsb_says_how_to_point_at_one(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="--ycsb-home.*YCSB_HOME"):
        find_ycsb(str(tmp_path))
    with pytest.raises(UserError, match="YCSB_HOME"):
        find_ycsb(str(tmp_path / "missing"))


def test_missing_java_names_the_package(install, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(UserError, match="apt-get install default-jre-headless"):
        build_command(PhaseSpec(phase="run", url="basic://"), install)


def test_redis_database_other_than_0_is_refused(install) -> None:
    with pytest.raises(UserError, match="database 0"):
        build_command(PhaseSpec(phase="run", url="redis://127.0.0.1:6379/3"), install)


def test_duration_becomes_maxexecutiontime_including_warmup(install) -> None:
    spec = PhaseSpec(phase="run", url="basic://", properties=dict(WORKLOAD), duration_s=9.5, warmup_s=2)
    cmd = build_command(spec, install)
    assert "maxexecutiontime=12" in cmd and "operationcount=2000" in cmd
    assert os.path.basename(cmd[0]) == "java"


def test_real_logs_import_into_a_result_folder(corpus, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ycsbctl.cli import main
    from ycsbctl.results.frames import load

    logs = []
    for name in ("load-1", "run-4-target"):
        logs.append(tmp_path / f"{name}.log")
        logs[-1].write_text(corpus[name][0].ycsb.text)
    res = CliRunner().invoke(main, ["import-ycsb", *map(str, logs), "--out", str(tmp_path / "imp"),
                                    "--workload", "workloada"])
    assert res.exit_code == 0, res.output
    runs = load(tmp_path / "imp").runs.set_index("run_id")
    assert list(runs.index) == ["basic.workloada.load.t1.r0", "basic.workloada.run.t4.r0"]
    for log_name, run_id in zip(("load-1", "run-4-target"), runs.index):
        result = corpus[log_name][0]
        assert runs.loc[run_id, "throughput_ops"] == result.throughput_ops
        assert runs.loc[run_id, "operations"] == 2000
    assert runs.loc["basic.workloada.run.t4.r0", "target_rate"] == 4000
