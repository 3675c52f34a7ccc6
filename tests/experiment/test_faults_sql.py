"""The fault suite's SQL cases, against a real PostgreSQL 15 of our own (ycsbctl's local backend):
connections lost in the middle of a point, a role whose every statement times out.

Every case asserts the exit code, one line naming the cause, no traceback, nothing of ours left running.
"""

from __future__ import annotations

import math
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import psutil
import pytest

from tests.fixtures.cli import start, ycsbctl
from tests.fixtures.faults import Lines, clean, finish, no_workers_left
from tests.fixtures.sql_cli import cli_rows
from tests.fixtures.sql_servers import started
from tests.fixtures.waiting import wait_until
from ycsbctl.results import load as load_folder

pytestmark = pytest.mark.fault

ASYNCPG = ("-p", "postgresql.driver=asyncpg")  # the driver whose lost connection crashed workers (issue 43)
OURS = "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"


def load(url: str, tmp: Path, *extra: str) -> None:
    r = ycsbctl("load", "workloadc", "--target", url, "-p", "recordcount=2000", "--no-telemetry", *extra, cwd=tmp,
                timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]


def point(url: str, tmp: Path, *extra: str) -> subprocess.Popen:
    return start("run", "workloadc", "--target", url, "--threads", "4", "--duration", "5", "--warmup", "0",
                 "--records", "2000", "--no-telemetry", "--allow-concurrent", "--out", str(tmp / "out"), *extra,
                 cwd=tmp)


def busy(url: str, n: int) -> bool:
    return len(cli_rows("postgresql", url, OURS)) >= n


def mid_point(proc: subprocess.Popen, connected: Callable[[], bool], what: str,
              act: Callable[[], object]) -> tuple[str, str]:
    """The point's stdout and stderr, ``act`` done 1 s after ``connected`` held (``what`` names it if it never
    does): inside its window; the command ended either way."""
    try:
        lines = Lines(proc)
        wait_until(connected, 60, what)
        time.sleep(1)  # inside the point's window (4 s and more)
        act()
        return lines.finish()
    finally:
        finish(proc, 1)


def test_backends_terminated_mid_point_are_reconnected_and_named_without_a_traceback(tmp_path):
    with started("postgresql") as ep:
        load(ep.url, tmp_path, *ASYNCPG)
        proc = point(ep.url, tmp_path, *ASYNCPG)
        stdout, stderr = mid_point(proc, lambda: busy(ep.url, 4), "the point's 4 connections",
                                   lambda: cli_rows("postgresql", ep.url,
                                                    f"SELECT pg_terminate_backend(pid) FROM ({OURS}) AS o"))
    clean(stdout + stderr)
    line = [x for x in stderr.splitlines() if "→" in x][-1]
    assert "ERROR: connection lost: " in line and stderr.count("connection lost") == 1, stderr[-2000:]
    assert proc.returncode in (0, 1, 3), stderr[-2000:]
    no_workers_left()


def test_postgresql_killed_mid_point_fails_it_in_one_line_naming_the_lost_server(tmp_path):
    with started("postgresql") as ep:
        load(ep.url, tmp_path, *ASYNCPG)
        data = cli_rows("postgresql", ep.url, "SHOW data_directory")[0][0]
        postmaster = int((Path(data) / "postmaster.pid").read_text().split()[0])
        proc = point(ep.url, tmp_path, *ASYNCPG)
        stdout, stderr = mid_point(proc, lambda: busy(ep.url, 4), "the point's 4 connections",
                                   lambda: os.kill(postmaster, signal.SIGKILL))
    clean(stdout + stderr)
    assert proc.returncode == 1, stderr[-2000:]
    line = [x for x in stderr.splitlines() if "→" in x][-1]
    assert "failed" in line and "lost the PostgreSQL server" in line, stderr[-2000:]
    assert stderr.count("lost the PostgreSQL server") == 1, stderr[-2000:]
    no_workers_left()


def test_a_role_whose_every_statement_times_out_is_one_line_and_exit_1(tmp_path):
    """``ALTER ROLE … SET statement_timeout=1``: describing the server (its settings), or the point's
    first statements, are cancelled by the server. Either way one line says so, the target is skipped
    or its point failed, and the run exits 1 (the target cannot be measured; others would go on)."""
    from ycsbctl.errors import UserError
    from ycsbctl.provision import probe

    with started("postgresql") as ep:
        # The role's settings question takes 50 ms whatever the machine's speed: its search_path puts a schema
        # before pg_catalog whose pg_settings is a view that sleeps. (A CPU quota on the server, used before,
        # also starved the connections on a slow host: describe's own 5 s ran out before any statement ran.)
        for sql in ("CREATE ROLE slowrole LOGIN SUPERUSER", "CREATE SCHEMA slow",
                    "CREATE VIEW slow.pg_settings AS SELECT s.name, s.setting FROM pg_catalog.pg_settings s, "
                    "pg_catalog.pg_sleep(0.05) z",
                    "ALTER ROLE slowrole SET search_path = slow, pg_catalog, public",
                    "ALTER ROLE slowrole SET statement_timeout = 1"):
            cli_rows("postgresql", ep.url, sql)
        port = ep.url.rsplit(":", 1)[1].split("/")[0]
        url = f"postgresql://slowrole@127.0.0.1:{port}/postgres"
        said = []
        for _ in range(3):
            try:
                probe.describe("postgresql", url)
            except UserError as exc:
                said.append(str(exc))
        # --load: its first statement is cancelled too (without it, the check that the URL holds records raced
        # the 1 ms timeout: a count that beat it read the table empty and refused the run)
        r = ycsbctl("run", "workloadc", "--target", url, "--threads", "2", "--duration", "2", "--warmup", "0",
                    "--records", "500", "--load", "--allow-concurrent", "--out", str(tmp_path / "out"), cwd=tmp_path,
                    timeout=120)
    assert len(said) == 3 and all(
        "answered but cancelled the questions about its version and settings: statement_timeout" in s
        for s in said), said
    clean(r.stdout + r.stderr)
    assert r.returncode == 1, r.stderr[-2000:]
    told = [ln for ln in r.stderr.splitlines() if "statement timeout" in ln]
    assert len(told) == 1 and ("skipped" in told[0] or "failed" in told[0]), r.stderr[-2000:]
    # the server answered: never 'does not answer … start the server' (the ping too is a statement it may cancel)
    assert "does not answer" not in told[0] and "statement_timeout" in told[0], told
    no_workers_left()


def test_more_threads_than_max_connections_says_the_servers_too_many_clients(tmp_path):
    """max_connections 5 and 16 client threads: the server refuses the sixth connection with an
    ErrorResponse (SQLSTATE 53300) and closes it; the line quotes that refusal and what to change, not a
    bare "connection closed by the server"."""
    with started("postgresql", {"max_connections": "5"}) as ep:
        r = ycsbctl("run", "workloadc", "--target", ep.url, "--load", "--threads", "16", "--duration", "2",
                    "--warmup", "0", "--records", "500", "--no-telemetry", "--allow-concurrent",
                    "--out", str(tmp_path / "out"), cwd=tmp_path, timeout=200)
        limit = cli_rows("postgresql", ep.url, "SHOW max_connections")
    clean(r.stdout + r.stderr)
    assert limit == [["5"]], limit  # the case itself: the server allowed fewer connections than threads
    assert r.returncode == 1, r.stderr[-2000:]
    told = [ln for ln in r.stderr.splitlines() if "too many clients already" in ln]
    assert told and all("SQLSTATE 53300: too many connections" in ln and "max_connections" in ln for ln in told), \
        r.stderr[-2000:]
    assert "connection closed by the server" not in r.stderr
    no_workers_left()


def test_mariadb_killed_mid_point_with_telemetry_on_ends_each_point_in_one_line(tmp_path):
    """MariaDB killed (SIGKILL) inside the first of two points, telemetry on (its sampler asks the server
    too; issue 43: the next point crashed in ``local_server_pid``, pymysql's "Can't connect"): the first
    point fails naming the lost server, the second ends in one line of its own, no traceback, exit 1,
    nothing of ours left running. The first point measured ~1 s of its 4 s window: it says how long and how
    many operations, never a rate, bottleneck or why line from that part (was: ``→ 13,896 ops/s … latency,
    failed`` and a "why: cpu wait" line), in its line, the summary table and its runs row."""
    WINDOW_S = 4  # the point's measured window (s): the kill lands inside it, so the point stops short of it
    with started("mariadb") as ep:
        load(ep.url, tmp_path)
        mysqld = int(Path(cli_rows("mariadb", ep.url, "SELECT @@pid_file")[0][0]).read_text().split()[0])
        proc = start("run", "workloadc", "--target", ep.url, "--threads", "2,4", "--duration", str(WINDOW_S),
                     "--warmup", "0",
                     "--records", "2000", "--allow-concurrent", "--out", str(tmp_path / "out"), cwd=tmp_path)
        ours = "SELECT id FROM information_schema.processlist WHERE command <> 'Daemon' AND id <> CONNECTION_ID()"
        stdout, stderr = mid_point(proc, lambda: len(cli_rows("mariadb", ep.url, ours)) >= 2,
                                   "the point's 2 connections",
                                   lambda: os.kill(mysqld, signal.SIGKILL))
    clean(stdout + stderr)
    assert proc.returncode == 1, stderr[-2000:]
    told = [x for x in stderr.splitlines() if "→" in x or "skipped" in x]
    assert len(told) == 2, stderr[-2000:]  # one line per point, the second too
    assert "failed" in told[0] and "lost the MariaDB server" in told[0], stderr[-2000:]
    assert "failed" in told[1] and "cannot reach the MariaDB server" in told[1], stderr[-2000:]
    assert not psutil.pid_exists(mysqld)
    no_workers_left()
    cut = re.search(r"; stopped (\d+\.\d) s into the 4 s window after ([\d,]+) operations", told[0])
    assert cut and "ops/s" not in told[0] and ", latency" not in told[0], told[0]
    assert "why:" not in stderr, stderr[-2000:]
    row = load_folder(tmp_path / "out").runs.set_index("threads").loc[2]
    # what the line says is the row's own measure, and it is shorter than the window: a part, not the point
    assert int(cut[2].replace(",", "")) == row["operations"] > 0, (cut[0], row["operations"])
    assert abs(float(cut[1]) - row["runtime_ms"] / 1000) <= 0.05 and row["runtime_ms"] < WINDOW_S * 1000, row[
        "runtime_ms"
    ]
    assert math.isnan(row["throughput_ops"]) and pd.isna(row["bottleneck"]), row[["throughput_ops", "bottleneck"]]
    partial_rate = f"{row['operations'] / (row['runtime_ms'] / 1000):,.0f}"
    assert partial_rate not in stderr, stderr[-2000:]  # nor in the summary table's ops/s column


def test_a_primary_waiting_for_a_synchronous_standby_that_is_gone_is_named_in_the_stall(tmp_path):
    """``synchronous_standby_names`` set and no standby connected (a postgresql-standby whose standby died,
    with synchronous_commit=remote_apply): every commit waits while the server answers reads. The stall names
    that, in the server's own settings (was: "the server was frozen, paused or unreachable"), exit 1, one line."""
    with started("postgresql", {"synchronous_commit": "remote_apply"}) as ep:
        r = ycsbctl("load", "workloada", "--target", ep.url, "-p", "recordcount=300", "--no-telemetry", cwd=tmp_path,
                    timeout=120)  # no standby named yet: the load's commits do not wait
        assert r.returncode in (0, 3), r.stderr[-2000:]  # 3: degraded by a busy host
        for sql in ("ALTER SYSTEM SET synchronous_standby_names = 'gone'", "SELECT pg_reload_conf()"):
            cli_rows("postgresql", ep.url, sql)
        wait_until(lambda: cli_rows("postgresql", ep.url, "SHOW synchronous_standby_names") == [["gone"]], 10,
                   "the reloaded setting")
        r = ycsbctl("run", "workloada", "--target", ep.url, "--threads", "2", "--duration", "2", "--warmup", "0",
                    "--records", "300", "--timeout", "1", "--no-telemetry", "--allow-concurrent",
                    "--out", str(tmp_path / "out"), cwd=tmp_path, timeout=120)
        replicas = cli_rows("postgresql", ep.url, "SELECT count(*) FROM pg_stat_replication")
        # commits still waiting would hold the server's shutdown for its whole stop timeout (~10 s): released
        for sql in ("ALTER SYSTEM RESET synchronous_standby_names", "SELECT pg_reload_conf()"):
            cli_rows("postgresql", ep.url, sql)
    clean(r.stdout + r.stderr)
    assert replicas == [["0"]], replicas  # the case itself: no standby at all
    assert r.returncode == 1, r.stderr[-2000:]
    line = [x for x in r.stderr.splitlines() if "→" in x][-1]
    assert "stall" in line and "TIMEOUT" in line, r.stderr[-2000:]
    assert ("the primary's commits wait for a synchronous standby (synchronous_standby_names = 'gone', "
            "synchronous_commit = remote_apply) and none is connected") in line, line
    assert "frozen, paused or unreachable" not in r.stderr, r.stderr[-2000:]
    no_workers_left()


def test_a_mariadb_user_without_process_is_told_which_privilege_and_what_is_not_measured(mariadb):
    """The footprint's query of information_schema.innodb_sys_tablespaces (the FULLTEXT indexes' space) needs PROCESS:
    a user without it read 'telemetry: could not read … (OperationalError: (1227, "Access denied; you need …'
    (fault43g). Now the line names the privilege and what is not measured; a database without a FULLTEXT index
    does not ask for it, and its size is measured."""
    from types import SimpleNamespace

    from ycsbctl.experiment.measure import guarded
    from ycsbctl.stores.mariadb.session import connect_args, query
    from ycsbctl.stores.mariadb.store import MariaProtocol

    a, db, user = connect_args(mariadb.url), "noproc_f43g", "noproc_f43g"
    for sql in (f"CREATE DATABASE IF NOT EXISTS {db}", f"CREATE USER IF NOT EXISTS '{user}'@'%' IDENTIFIED BY 'pw'",
                f"GRANT ALL ON `{db}`.* TO '{user}'@'%'",
                f"CREATE TABLE IF NOT EXISTS {db}.t (id INT PRIMARY KEY, body TEXT, FULLTEXT (body)) ENGINE=InnoDB",
                f"CREATE TABLE IF NOT EXISTS {db}.plain (id INT PRIMARY KEY) ENGINE=InnoDB"):
        query(mariadb.url, sql, 5.0)
    url, said = f"mysql://{user}:pw@{a['host']}:{a['port']}/{db}", []
    try:
        assert guarded("database's size", lambda: MariaProtocol().reading(url),
                       SimpleNamespace(note=said.append)) is None
        query(mariadb.url, f"DROP TABLE {db}.t", 5.0)
        size = MariaProtocol().reading(url).db_memory_bytes  # analysed: the server's own figure, read as root
        (truth,) = query(mariadb.url, "SELECT sum(data_length + index_length) FROM information_schema.tables WHERE "
                         f"table_schema = '{db}'", 5.0)[0]
    finally:
        query(mariadb.url, f"DROP USER IF EXISTS '{user}'@'%'", 5.0)
        query(mariadb.url, f"DROP DATABASE IF EXISTS {db}", 5.0)
    assert said == [f"telemetry: could not read the database's size (PrivilegeMissing: MariaDB user '{user}' lacks the "
                    "PROCESS privilege that information_schema.innodb_sys_tablespaces needs, so the space of the "
                    "FULLTEXT indexes (and so the database's size) is not measured: grant it (GRANT PROCESS ON *.* "
                    "TO the user)); the point is kept"], said
    assert size == truth > 0  # without a FULLTEXT index, no privilege asked for
