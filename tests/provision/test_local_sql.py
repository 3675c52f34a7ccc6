"""The local backend's SQL targets: PostgreSQL started from Debian's package as the postgres user on
tmpfs with durability off (as the report says), SQLite as a file on tmpfs; nothing left after down."""

from __future__ import annotations

import os

import psutil
import pytest

from ycsbctl.provision import catalog
from ycsbctl.provision.auto import provision, server_alive, teardown


def test_postgresql_runs_as_postgres_on_tmpfs_with_durability_off_and_leaves_nothing():
    entry = catalog.get_target("postgresql")
    if catalog.find_server(entry)[0] is None:
        pytest.skip(f"postgres is not installed ({entry.install_hint}, or run scripts/setup.sh --for-tests)")
    ep = provision("postgresql", "local", experiment_id="tests", say=lambda _: None)
    try:
        proc = psutil.Process(ep.pid)
        data_dir = proc.cwd()
        assert data_dir.startswith("/dev/shm/ycsbctl-postgresql-")
        if os.geteuid() == 0:
            assert proc.username() == "postgres"
        settings = ep.config["pg_settings"]
        assert (settings["fsync"], settings["synchronous_commit"], settings["full_page_writes"]) == ("off",) * 3
        assert "fsync=off, synchronous_commit=off, full_page_writes=off" in ep.traits["durability"]
        assert ep.server_name.startswith("PostgreSQL 15")
    finally:
        teardown(ep)
    assert not psutil.pid_exists(ep.pid) or psutil.Process(ep.pid).status() == psutil.STATUS_ZOMBIE
    assert not os.path.exists(data_dir)


def test_sqlite_is_a_file_on_tmpfs_removed_on_down():
    ep = provision("sqlite", "local", experiment_id="tests", say=lambda _: None)
    path = ep.url.removeprefix("sqlite://")
    try:
        assert path.startswith("/dev/shm/ycsbctl-sqlite-") and ep.pid is None
        assert "embedded" in ep.server_name and "tmpfs" in ep.server_name
        assert server_alive(ep)  # `ycsbctl status` says up: no process, but its folder is there
    finally:
        teardown(ep)
    assert not os.path.exists(os.path.dirname(path))
    assert not server_alive(ep)


def test_mariadb_runs_as_mysql_on_tmpfs_with_durability_off_and_leaves_nothing():
    entry = catalog.get_target("mariadb")
    if catalog.find_server(entry)[0] is None:
        pytest.skip(f"mariadbd is not installed ({entry.install_hint}, or run scripts/setup.sh --for-tests)")
    ep = provision("mariadb", "local", experiment_id="tests", say=lambda _: None)
    try:
        proc = psutil.Process(ep.pid)
        data_dir = proc.cwd()
        assert data_dir.startswith("/dev/shm/ycsbctl-mariadb-")
        if os.geteuid() == 0:
            assert proc.username() == "mysql"
        variables = ep.config["variables"]
        assert (variables["innodb_flush_log_at_trx_commit"], variables["innodb_doublewrite"],
                variables["log_bin"]) == ("0", "OFF", "OFF")
        assert ep.server_name.startswith("MariaDB 10.") and "innodb_flush_log_at_trx_commit=0" in ep.server_name
    finally:
        teardown(ep)
    assert not psutil.pid_exists(ep.pid) or psutil.Process(ep.pid).status() == psutil.STATUS_ZOMBIE
    assert not os.path.exists(data_dir)


@pytest.mark.fault
@pytest.mark.parametrize("name", ["postgresql", "mariadb"])
def test_ctrl_c_during_a_point_stops_the_server_and_removes_its_data(name, tmp_path):
    import re
    import signal
    import subprocess
    from pathlib import Path

    from tests.fixtures.waiting import wait_until

    entry = catalog.get_target(name)
    if catalog.find_server(entry)[0] is None:
        pytest.skip(f"{entry.binary} is not installed ({entry.install_hint}, or run scripts/setup.sh --for-tests)")
    root = Path(__file__).resolve().parents[2]
    err = tmp_path / "stderr"
    with open(err, "w") as stderr:
        proc = subprocess.Popen([str(root / ".venv" / "bin" / "ycsbctl"), "run", "workload-b", "--targets", name,
                                 "--backend", "local", "--threads", "2", "--records", "300", "--duration", "60",
                                 "--profile", "smoke", "--allow-concurrent", "--out", str(tmp_path / "exp")],
                                stdout=subprocess.DEVNULL, stderr=stderr, cwd=tmp_path,
                                env={**os.environ, "PYTHONPATH": str(root)})
        try:
            wait_until(lambda: proc.poll() is not None or f"{name} workloadb" in err.read_text(), 120,
                       f"the {name} point")
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    text = err.read_text()
    (folder,) = set(re.findall(rf"(/dev/shm/ycsbctl-{name}-[\w-]+)", text)) or {None}
    assert folder, text[-2000:]
    assert proc.returncode == 130, text[-2000:]
    assert not os.path.exists(folder)
    running = []
    for p in psutil.process_iter(["cmdline"]):
        try:
            running.append(" ".join(p.info["cmdline"] or []))
        except psutil.Error:
            continue
    assert not [cmd for cmd in running if folder in cmd]
