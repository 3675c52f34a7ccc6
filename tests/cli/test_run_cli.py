"""``ycsbctl load`` / ``ycsbctl run --target URL`` end to end, as a user types them, against real servers."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pandas as pd
import pytest
import redis
from pymongo import MongoClient

from tests.fixtures.cli import CLI, ycsb_lines, ycsbctl
from tests.fixtures.servers import free_port, start_redis
from ycsbctl.results import histogram as hdr

pytestmark = pytest.mark.report  # reads the report a sweep draws (see tests/fixtures/session.py)


def _check_result_folder(folder: Path, printed: dict[tuple[str, str], str], threads: int) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["status"] == "complete"
    runs = pd.read_parquet(folder / "runs.parquet")
    assert len(runs) == 1 and int(runs.threads.iloc[0]) == threads and runs.status.iloc[0] == "ok"
    series = pd.read_parquet(folder / "series.parquet")
    assert {"second", "op", "operations", "p99_us", "warmup"} <= set(series.columns) and len(series) > 0
    read_hdr = list((folder / "histograms").glob("*.READ.hdr"))
    assert len(read_hdr) == 1
    assert hdr.decode(read_hdr[0].read_text().strip()).get_total_count() == int(printed[("READ", "Operations")])
    texts = list((folder / "ycsb").glob("*.txt"))
    assert len(texts) == 1
    assert ycsb_lines(texts[0].read_text())[("OVERALL", "RunTime(ms)")] == printed[("OVERALL", "RunTime(ms)")]


def test_load_then_run_against_redis_prints_ycsbs_block_and_writes_the_result_folder(redis_server, tmp_path: Path):
    rds = redis.Redis.from_url(redis_server.url)
    rds.flushall()
    try:
        url = f"redis://127.0.0.1:{redis_server.port}"
        load = ycsbctl("load", "workload-b", "--target", url, "-p", "recordcount=2000", "--threads", "8",
                       "--no-telemetry", cwd=tmp_path)
        assert load.returncode == 0, load.stderr
        loaded = ycsb_lines(load.stdout)
        assert loaded[("INSERT", "Return=OK")] == "2000" and rds.dbsize() == 2001  # records + _indices
        out = tmp_path / "result"
        run = ycsbctl("run", "workload-b", "--target", url, "-p", "recordcount=2000", "--threads", "32",
                      "--duration", "2", "--warmup", "1", "--out", str(out), "--no-telemetry", cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        printed = ycsb_lines(run.stdout)
        assert int(printed[("OVERALL", "RunTime(ms)")]) >= 2000
        assert float(printed[("OVERALL", "Throughput(ops/sec)")]) > 0
        assert printed[("READ", "Return=OK")] == printed[("READ", "Operations")]
        assert ("READ", "Return=NOT_FOUND") not in printed and ("UPDATE", "Return=OK") in printed
        _check_result_folder(out, printed, threads=32)
    finally:
        rds.flushall()
        rds.close()


def test_load_then_run_against_the_mongo_wire_server(mongo_wire, tmp_path: Path):
    url = f"mongodb://127.0.0.1:{mongo_wire.port}/clitest"
    client = MongoClient(url, serverSelectionTimeoutMS=5000)
    try:
        load = ycsbctl("load", "workload-b", "--target", url, "-p", "recordcount=200", "--threads", "4",
                       "--no-telemetry", cwd=tmp_path)
        assert load.returncode == 0, load.stderr
        assert client["clitest"]["usertable"].count_documents({}) == 200
        out = tmp_path / "result"
        run = ycsbctl("run", "workload-b", "--target", url, "-p", "recordcount=200", "--threads", "4",
                      "--duration", "1", "--warmup", "0", "--out", str(out), "--no-telemetry", cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        printed = ycsb_lines(run.stdout)
        assert int(printed[("READ", "Return=OK")]) > 0 and ("READ", "Return=NOT_FOUND") not in printed
        _check_result_folder(out, printed, threads=4)
    finally:
        client.drop_database("clitest")
        client.close()


@pytest.fixture(scope="module")
def auth_redis(tmp_path_factory: pytest.TempPathFactory):
    server = start_redis(tmp_path_factory.mktemp("auth-redis"), extra=("--requirepass", "s3cret"))
    yield server
    server.stop()


@pytest.mark.parametrize(
    ("case", "args", "exit_code", "says"),
    [
        ("closed port", ["run", "workload-b", "--target", "redis://127.0.0.1:{closed}", "--threads", "2"], 1,
         "does not answer"),
        ("wrong password", ["run", "workload-b", "--target", "redis://:nope@127.0.0.1:{auth}", "--threads", "2"], 1,
         "invalid username-password"),
        ("load, wrong password", ["load", "workload-b", "--target", "redis://:nope@127.0.0.1:{auth}"], 1,
         "invalid username-password"),
        ("bad scheme", ["run", "workload-b", "--target", "http://x", "--threads", "2"], 2, "unsupported target URL"),
        ("no threads", ["run", "workload-b", "--target", "basic://", "--threads", "0"], 2, "--threads '0'"),
        ("load, no threads", ["load", "workload-b", "--target", "basic://", "--threads", "0"], 2, "--threads 0"),
    ],
)
def test_errors_are_one_clear_line_with_an_exit_code_and_no_traceback(case, args, exit_code, says, auth_redis,
                                                                       tmp_path: Path):
    filled = [a.format(closed=free_port(), auth=auth_redis.port) for a in args]
    r = ycsbctl(*filled, "--duration", "1", "--no-telemetry", cwd=tmp_path) if filled[0] == "run" else \
        ycsbctl(*filled, "--no-telemetry", cwd=tmp_path)
    assert r.returncode == exit_code, (case, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr + r.stdout
    lines = [ln for ln in r.stderr.splitlines() if says in ln]
    assert lines, r.stderr
    assert "s3cret" not in r.stderr and "nope" not in r.stderr  # passwords are never printed
    if "password" in case:  # where a Redis password goes (each store says its own)
        assert "redis://:PASSWORD@host:port or -p redis.password=" in lines[0]
    if exit_code == 2:
        assert r.stderr.strip() == lines[0] and lines[0].startswith("error: ")
        assert not (tmp_path / "reports").exists()  # bad input leaves nothing behind


def test_a_server_killed_mid_run_ends_the_run_with_what_it_measured_and_exit_1(tmp_path: Path):
    server = start_redis(tmp_path / "victim")
    rds = redis.Redis.from_url(server.url)
    try:
        url = f"redis://127.0.0.1:{server.port}"
        assert ycsbctl("load", "workload-b", "--target", url, "-p", "recordcount=500", "--threads", "4",
                       "--no-telemetry", cwd=tmp_path).returncode == 0
        proc = subprocess.Popen(
            [*CLI, "run", "workload-b", "--target", url, "-p", "recordcount=500", "--threads", "4", "--duration", "5",
             "--warmup", "0", "--no-telemetry"],
            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        try:
            # Wait for the 4 clients to be connected and busy, then kill the server under them.
            deadline = time.monotonic() + 60
            start = None
            while time.monotonic() < deadline and proc.poll() is None:
                info = rds.info()
                if info["connected_clients"] >= 5:
                    start = start if start is not None else info["total_commands_processed"]
                    if info["total_commands_processed"] - start > 2000:
                        break
            server.proc.kill()
            server.proc.wait()
            stdout, stderr = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    finally:
        rds.close()
        server.stop()
    assert proc.returncode == 1, stderr
    assert "Traceback" not in stderr + stdout
    assert "failed — lost the server" in stderr  # the reason the clients stopped, not a transient error
    printed = ycsb_lines(stdout)
    assert int(printed[("READ", "Return=OK")]) > 0  # what it measured before the kill is reported


def test_passwords_given_in_the_url_or_as_properties_are_in_no_file_of_the_result_folder(tmp_path: Path):
    server = start_redis(tmp_path / "auth", extra=("--requirepass", "hunter2pw"))
    try:
        url = f"redis://:hunter2pw@127.0.0.1:{server.port}/0"
        for cmd in (["load", "workload-b"], ["run", "workload-b", "--threads", "2", "--duration", "1",
                                               "--out", str(tmp_path / "result")]):
            done = ycsbctl(*cmd, "--target", url, "-p", "recordcount=200", "-p", "redis.password=hunter2pw",
                           cwd=tmp_path)
            assert done.returncode == 0, done.stderr
    finally:
        server.stop()
    files = [p for p in (tmp_path / "result").rglob("*") if p.is_file()]
    assert len(files) > 5 and not [p.name for p in files if b"hunter2pw" in p.read_bytes()]
    manifest = (tmp_path / "result" / "manifest.json").read_text()
    assert "redis://:***@127.0.0.1" in manifest and "redis.password=***" in manifest


def test_a_sweep_on_sqlite_reports_it_embedded_with_its_durability_and_footprint(tmp_path):
    """``--targets sqlite``: a database file on tmpfs that the engine opens itself, loaded, swept and
    reported; the report names it embedded with its settings, and its footprint is page_count × page_size."""
    import json
    import os
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "exp"
    done = subprocess.run([str(root / ".venv" / "bin" / "ycsbctl"), "run", "workload-b", "--targets", "sqlite",
                           "--threads", "2", "--records", "400", "--duration", "1", "--profile", "smoke",
                           "--allow-concurrent", "--out", str(out)], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(root)})
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    manifest = json.loads((out / "manifest.json").read_text())
    name = manifest["servers"]["sqlite"]["server_name"]
    assert "embedded, no network" in name and "synchronous=OFF" in name and "tmpfs" in name
    footprint = manifest["footprints"]["sqlite"]
    assert footprint["basis"] == "page_count*page_size" and footprint["keys"] == 400
    assert footprint["bytes_per_record"] > 100 * 10  # ten 100-byte fields per record at least
    assert name in (out / "report.html").read_text()
    url = manifest["servers"]["sqlite"]["url"]
    assert url.startswith("sqlite:///dev/shm/ycsbctl-sqlite-")
    assert not Path(url.removeprefix("sqlite://")).parent.exists()  # removed with the run


def test_a_sweep_without_its_report_writes_the_data_and_says_how_to_draw_it(tmp_path: Path):
    """--no-report (or YCSBCTL_REPORT=off, as the test suite runs) leaves report.html undrawn, and says so;
    `ycsbctl report` then draws it from the same files; a bad YCSBCTL_REPORT is one line, exit 2."""
    out = tmp_path / "exp"
    r = ycsbctl("run", "workload-c", "--targets", "basic://", "--threads", "1,2", "--records", "50", "--duration",
                "0.2", "--no-telemetry", "--allow-concurrent", "--quiet", "--no-report", "--out", str(out),
                cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    assert (out / "runs.parquet").exists() and not (out / "report.html").exists()
    assert f"report: not drawn (--no-report or YCSBCTL_REPORT=off): `ycsbctl report {out}` draws it" in r.stderr
    drawn = ycsbctl("report", str(out), cwd=tmp_path)
    assert drawn.returncode == 0 and (out / "report.html").stat().st_size > 1000, drawn.stderr[-2000:]
    import os

    bad = ycsbctl("run", "workload-c", "--targets", "basic://", "--threads", "1,2", "--out", str(tmp_path / "bad"),
                  cwd=tmp_path, environ={**os.environ, "YCSBCTL_REPORT": "maybe"})
    assert bad.returncode == 2 and bad.stderr.strip() == "error: YCSBCTL_REPORT='maybe': give on or off", bad.stderr
    assert not (tmp_path / "bad").exists()


@pytest.mark.parametrize("status", ["ok", "degraded"])
def test_a_run_whose_report_could_not_be_drawn_exits_1_whether_its_points_were_ok_or_degraded(status: str) -> None:
    """Every point measured (exit 0, or 3 with a degraded one) but report.html not written: exit 1, a step the user
    must still take (``ycsbctl report DIR``), whatever the points' status; a run whose report was drawn keeps its
    code (experiment/outcome.py's rule)."""
    from ycsbctl.cli.experiment import _finish
    from ycsbctl.experiment.outcome import Outcome
    from ycsbctl.results.folder import RunRecord
    from ycsbctl.results.names import RunStatus

    record = RunRecord(f"redis.workloadb.run.t8.r1.{status}", "redis", "workloadb", "run", 8, 1, RunStatus(status))
    for failed, code in ((True, 1), (False, 0 if status == "ok" else 3)):
        with pytest.raises(SystemExit) as e:
            _finish(Outcome(folder=None, records=[record], report_failed=failed), False, quiet=True)
        assert e.value.code == code, (status, failed)


def test_an_option_that_would_change_the_stored_plan_is_refused_beside_resume_not_ignored(tmp_path: Path) -> None:
    """``run --resume DIR --budget 20m --repeat 5`` finished DIR's stored plan and ignored both without a word (exit
    0): --resume takes its folder's plan as it was, so such options are named and refused in one line, exit 2, before
    the folder is read; the passwords (--target, -p) and how the run shows itself (--quiet, --no-report) it takes."""
    from click.testing import CliRunner

    from ycsbctl.cli import main

    missing = str(tmp_path / "no-such-folder")
    r = CliRunner().invoke(main, ["run", "--resume", missing, "--budget", "20m", "--repeat", "5", "--quiet"])
    assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
    assert r.output.startswith("error: --resume finishes the plan its folder stores, as it was: --repeat, --budget "
                               "would change it; drop them"), r.output
    taken = CliRunner().invoke(main, ["run", "--resume", missing, "--target", "basic://", "-p", "x=1", "--quiet",
                                      "--no-report", "--allow-concurrent"])
    assert taken.exit_code == 2 and "--resume finishes the plan" not in taken.output, taken.output  # the folder's
