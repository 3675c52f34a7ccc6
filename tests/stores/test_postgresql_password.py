"""A PostgreSQL server that asks for a password (SCRAM), from the CLI: the password in the URL or in
``PGPASSWORD`` (asyncpg sends it; the wire path has none), and what each way of getting it wrong says.

The server is ycsbctl's own local PostgreSQL 15 with a ``hba_file`` setting: trust for the ``ycsb``
superuser (the provisioner's probe and the checks below) and SCRAM for a role made here."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from tests.fixtures.cli import env, ycsbctl
from tests.fixtures.sql_cli import cli_rows
from tests.fixtures.sql_servers import started
from ycsbctl.provision.base import Endpoint
from ycsbctl.stores.postgresql.wire import PASSWORD_ASKED

pytestmark = pytest.mark.truth

ROLE, SECRET = "pwuser", "s3cret-for-tests"
PLAIN = "plainuser"  # no superuser, no pg_read_all_settings: most production users


@pytest.fixture(scope="module")
def scram_server() -> Iterator[Endpoint]:
    folder = Path(tempfile.mkdtemp(prefix="ycsbctl-hba-"))
    folder.chmod(0o755)  # the server runs as the postgres user
    hba = folder / "pg_hba.conf"
    hba.write_text(f"local all all trust\nhost all ycsb 127.0.0.1/32 trust\nhost all {ROLE} 127.0.0.1/32 "
                   "scram-sha-256\n"
                   f"host all {PLAIN} 127.0.0.1/32 scram-sha-256\n")
    hba.chmod(0o644)
    try:
        with started("postgresql", {"hba_file": str(hba)}) as endpoint:
            cli_rows("postgresql", endpoint.url, f"CREATE ROLE {ROLE} LOGIN SUPERUSER PASSWORD '{SECRET}'")
            yield endpoint
    finally:
        hba.unlink()
        folder.rmdir()


def _without_pgpassword(password: str | None = None) -> dict[str, str]:
    """The CLI's environment with no ``PGPASSWORD`` but ``password``'s, when given."""
    environ = {k: v for k, v in env().items() if k != "PGPASSWORD"}
    return environ if password is None else {**environ, "PGPASSWORD": password}


def _load(url: str, tmp_path: Path, *extra: str, password: str | None = None) -> subprocess.CompletedProcess:
    return ycsbctl("load", "workloadc", "--target", url, "-p", "recordcount=50", "-p", "table=pwtable",
                   "--no-telemetry", *extra, cwd=tmp_path, timeout=120, environ=_without_pgpassword(password))


def _url(server: Endpoint, password: str | None = None) -> str:
    port = server.url.rsplit(":", 1)[1].split("/")[0]
    who = f"{ROLE}:{password}" if password else ROLE
    return f"postgresql://{who}@127.0.0.1:{port}/postgres"


def _rows(server: Endpoint) -> int:
    cli_rows("postgresql", server.url, "CREATE TABLE IF NOT EXISTS pwtable (ycsb_key VARCHAR(255) PRIMARY KEY)")
    return int(cli_rows("postgresql", server.url, "SELECT count(*) FROM pwtable")[0][0])


def test_without_a_password_the_target_is_skipped_with_where_a_postgresql_password_goes(scram_server, tmp_path):
    r = _load(_url(scram_server), tmp_path)
    assert r.returncode == 1, r.stderr
    line = next(ln for ln in (r.stdout + r.stderr).splitlines() if "refused our credentials" in ln)
    assert "postgresql://USER:PASSWORD@host:port/db" in line and "redis" not in line
    assert _rows(scram_server) == 0


def test_pgpassword_is_sent_by_the_asyncpg_path_and_the_url_password_too(scram_server, tmp_path):
    cli_rows("postgresql", scram_server.url, "DROP TABLE IF EXISTS pwtable")
    r = _load(_url(scram_server), tmp_path, password=SECRET)  # a plain URL: the wire path asked first
    assert r.returncode == 0, r.stdout[-1500:] + r.stderr[-1500:]
    assert _rows(scram_server) == 50
    cli_rows("postgresql", scram_server.url, "DROP TABLE pwtable")
    r = _load(_url(scram_server, SECRET), tmp_path)
    assert r.returncode == 0, r.stdout[-1500:] + r.stderr[-1500:]
    assert _rows(scram_server) == 50 and SECRET not in r.stdout + r.stderr


def test_the_wire_path_asked_for_says_at_once_that_the_server_wants_a_password(scram_server, tmp_path):
    # before: no reply ended the start-up (the server waits for the password), so the point failed after
    # the connect timeout as "cannot reach …: " with no reason
    r = _load(_url(scram_server), tmp_path, "-p", "postgresql.driver=wire", password=SECRET)
    assert r.returncode == 1
    failed = [ln for ln in (r.stdout + r.stderr).splitlines() if "failed:" in ln]
    assert failed and PASSWORD_ASKED in failed[0], r.stdout[-1500:] + r.stderr[-1500:]


def test_a_driver_the_store_does_not_have_is_refused_before_anything_starts(scram_server, tmp_path):
    r = _load(_url(scram_server), tmp_path, "-p", "postgresql.driver=libpq", password=SECRET)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == ["error: postgresql.driver=libpq: use auto, wire or asyncpg"]
    assert not list(tmp_path.iterdir())  # no result folder


def test_a_user_who_is_not_a_superuser_is_measured_with_the_servers_cpu(scram_server, tmp_path):
    """Telemetry asked the server for its data_directory (superusers only) and crashed the run with
    InsufficientPrivilegeError; the postmaster is now found as the parent of the connection's backend."""
    cli_rows("postgresql", scram_server.url, f"CREATE ROLE {PLAIN} LOGIN PASSWORD '{SECRET}'")
    cli_rows("postgresql", scram_server.url, f"CREATE DATABASE plaindb OWNER {PLAIN}")  # its own schema to write in
    port = scram_server.url.rsplit(":", 1)[1].split("/")[0]
    url = f"postgresql://{PLAIN}:{SECRET}@127.0.0.1:{port}/plaindb"
    out = tmp_path / "plain"
    r = ycsbctl("run", "workload-c", "--target", url, "--load", "--records", "100", "--threads", "2", "--duration", "1",
                "--warmup", "0", "--allow-concurrent", "--out", str(out), cwd=tmp_path, timeout=180,
                environ=_without_pgpassword())
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-3000:]
    runs = pd.read_parquet(out / "runs.parquet").set_index("phase")
    assert runs.loc["run", "status"] == "ok" and runs.loc["run", "operations"] > 0
    assert runs.loc["run", "server_cpu_source"] == "server-process"
    # the point's server CPU is the mean of its own samples of the server's process: found and read, not guessed.
    # The point keeps the samples of its measured window, a run of consecutive ones among those stored under its
    # run id (which also holds its connecting and stopping seconds: under load they differ, and all of them
    # averaged read 7.7 % against the window's 11.6 %)
    tel = pd.read_parquet(out / "telemetry.parquet")
    mine = tel[(tel["run_id"] == runs.loc["run", "run_id"]) & (tel["source"] == "server-process")]
    samples = mine.sort_values("t_mono")["cpu_pct"].dropna().to_list()
    stored = runs.loc["run", "server_cpu_pct_mean"]
    means = [sum(samples[i:j]) / (j - i) for i in range(len(samples)) for j in range(i + 1, len(samples) + 1)]
    assert samples and any(m == pytest.approx(stored, rel=1e-9) for m in means), (stored, samples)
    assert int(cli_rows("postgresql", scram_server.url.rsplit("/", 1)[0] + "/plaindb",
                        "SELECT count(*) FROM usertable")[0][0]) == 100


def test_a_role_that_may_only_read_the_table_opens_its_clients_and_reads_what_the_superuser_wrote(scram_server):
    """A role with CONNECT and SELECT on YCSB's table, and no CREATE on the schema (PostgreSQL 15's public
    schema gives PUBLIC none): its clients open and read. Was: every point failed at connect with
    'permission denied for schema public', from a CREATE TABLE IF NOT EXISTS for a table that was there.
    The record read back is the one the superuser inserted with psql; a write is the server's refusal."""
    from tests.fixtures.bindings import run_bindings
    from ycsbctl.stores.binding import Status

    cli_rows("postgresql", scram_server.url, "CREATE TABLE IF NOT EXISTS rotable (ycsb_key VARCHAR(255) PRIMARY KEY, "
                                             "FIELD0 TEXT)")
    cli_rows("postgresql", scram_server.url, "INSERT INTO rotable VALUES ('user1', 'hello') ON CONFLICT DO NOTHING")
    cli_rows("postgresql", scram_server.url, f"DO $$ BEGIN CREATE ROLE {PLAIN} LOGIN PASSWORD '{SECRET}'; "
                                             "EXCEPTION WHEN duplicate_object THEN NULL; END $$")
    cli_rows("postgresql", scram_server.url, f"GRANT SELECT ON rotable TO {PLAIN}")  # in postgres: no CREATE there
    port = scram_server.url.rsplit(":", 1)[1].split("/")[0]
    url = f"postgresql://{PLAIN}:{SECRET}@127.0.0.1:{port}/postgres"

    async def read_and_write(bindings):
        b = bindings[0]
        got = await b.read_values("rotable", b"user1", [b"field0"])
        wrote = await b.insert("rotable", b"user2", [(b"field0", b"x")])
        return got, wrote, str(b.last_error)

    (status, values), wrote, said = run_bindings(read_and_write, url, clients=2,
                                                 props={"table": "rotable", "fieldcount": "1"})
    assert status is Status.OK and values == {b"field0": b"hello"}
    assert wrote is Status.ERROR and "permission denied for table rotable" in said, said
