"""memcached, PostgreSQL and MariaDB on the docker backend, in images built from this host's Debian
packages by infra/docker/build_local_images.py (no registry here: they keep the official images'
first-start contract for what ycsbctl passes).

Truths: the Docker engine (labels, image flavor, nothing left after ``down``), and each server's own
counters for what the engine counted: memcached ``stats`` (cmd_get, get_hits, cmd_set, curr_items),
PostgreSQL ``pg_stat_user_tables`` (rows inserted and updated, index scans), MariaDB ``SHOW GLOBAL
STATUS`` (Com_insert, Com_update, Com_create_table) and its general log (one SELECT by key per read).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import pandas as pd
import pytest

from tests.fixtures.cli import CONCURRENT, completed, returns, ycsbctl
from tests.fixtures.docker import STORE_IMAGES, load_image_builder, our_containers
from tests.fixtures.server_counters import mariadb_status, memcached_counters
from tests.fixtures.server_counters import postgresql_table_counters as pg_table_counters
from tests.fixtures.waiting import wait_until

pytestmark = pytest.mark.docker
ROOT = Path(__file__).resolve().parents[2]
RECORDS, OPERATIONS = 500, 2000
FIELD_BYTES = 10 * 100  # workload-b: fieldcount=10, fieldlength=100
FLAVORS = {"memcached": "memcached", "postgresql": "postgres", "mariadb": "mariadbd"}
# What `up` says about each server: its durability settings (ycsbctl's in-memory-like configuration)
SHOWN = {"memcached": "memcached 1.6", "postgresql": "fsync=off, synchronous_commit=off",
         "mariadb": "innodb_flush_log_at_trx_commit=0"}


def mariadb_key_selects(url: str) -> int:
    """SELECTs by key the server executed since its general log was emptied (the engine's reads)."""
    from ycsbctl.stores.mariadb.session import query

    return int(query(url, "SELECT COUNT(*) FROM mysql.general_log WHERE command_type = 'Query' "
                          "AND argument LIKE 'SELECT %FROM usertable WHERE YCSB_KEY = %'", 5.0)[0][0])


def mariadb_general_log(url: str, on: bool) -> None:
    from ycsbctl.stores.mariadb.session import query

    for sql in (["SET GLOBAL log_output = 'TABLE'", "TRUNCATE mysql.general_log", "SET GLOBAL general_log = 1"]
                if on else ["SET GLOBAL general_log = 0"]):
        query(url, sql, 5.0)


def check_load(target: str, url: str, before: Any, inserted: dict[str, int]) -> None:
    """The server stored exactly the records the engine counted as inserted."""
    assert inserted == {"OK": RECORDS}
    if target == "memcached":
        after = memcached_counters(SimpleNamespace(port=urlsplit(url).port))
        assert after["cmd_set"] - before["cmd_set"] == RECORDS and after["curr_items"] == RECORDS
    elif target == "postgresql":  # statistics reach pg_stat_user_tables when each backend flushes them
        wait_until(lambda: pg_table_counters(url).get("ins") == RECORDS, what=f"{RECORDS} inserts in pg_stat")
    else:
        after = mariadb_status(url)
        assert after["Com_insert"] - before["Com_insert"] == RECORDS
        assert after["Com_create_table"] - before["Com_create_table"] == 1


def check_run(target: str, url: str, before: Any, ops: dict[str, dict[str, int]]) -> None:
    """Every read and update the engine counted is one the server executed, with the same outcome."""
    reads, updates = ops["READ"], ops["UPDATE"]
    assert sum(reads.values()) + sum(updates.values()) == OPERATIONS and set(ops) == {"READ", "UPDATE"}
    assert reads.get("OK", 0) > 0 and updates.get("OK", 0) > 0
    if target == "memcached":
        after = memcached_counters(SimpleNamespace(port=urlsplit(url).port))
        assert after["cmd_get"] - before["cmd_get"] == sum(reads.values())
        assert after["get_hits"] - before["get_hits"] == reads["OK"] == OPERATIONS - sum(updates.values())
        assert after["cmd_set"] - before["cmd_set"] == sum(updates.values())  # replace is a storage command
        assert after["curr_items"] == RECORDS
    elif target == "postgresql":  # every read and update finds its row through the primary key: one index scan
        after = wait_until(lambda: (c := pg_table_counters(url))["idx_scan"] - before["idx_scan"] == OPERATIONS and c,
                           what=f"{OPERATIONS} index scans in pg_stat_user_tables")
        assert after["upd"] - before["upd"] == updates["OK"]
        assert after["ins"] == RECORDS and after["del"] == 0
    else:
        after = mariadb_status(url)
        assert after["Com_update"] - before["Com_update"] == updates["OK"]
        assert after["Com_insert"] - before["Com_insert"] == 0
        assert mariadb_key_selects(url) == reads["OK"]


COUNTERS: dict[str, Callable[[str], Any]] = {
    "memcached": lambda url: memcached_counters(SimpleNamespace(port=urlsplit(url).port)),
    "postgresql": lambda url: pg_table_counters(url) or {"ins": 0, "upd": 0, "del": 0, "idx_scan": 0},
    "mariadb": mariadb_status,
}


@pytest.mark.parametrize("target", STORE_IMAGES)
def test_a_store_in_its_local_image_counts_what_the_engine_sent_and_down_leaves_no_container(
        target, docker_client, store_images, state_dir):  # noqa: F811 - the imported fixture
    up = ycsbctl("up", target, "--backend", "docker", "--image", store_images[target], "--host-network")
    assert up.returncode == 0, up.stderr
    try:
        label, url, where = up.stdout.rstrip("\n").split("\t")[:3]
        (container,) = our_containers(docker_client)
        assert label == target and container.labels["ycsbctl.target"] == target
        assert container.image.labels["ycsbctl.flavor"] == FLAVORS[target]
        assert where.startswith(f"docker, container {container.id[:12]}") and SHOWN[target] in where
        assert urlsplit(url).hostname == "127.0.0.1" and urlsplit(url).password is None  # this host: no password
        if target == "postgresql":  # the official image's STOPSIGNAL, which `docker import` cannot set
            assert container.attrs["Config"]["StopSignal"] == "SIGINT"

        before = COUNTERS[target](url)
        load = ycsbctl("load", "workload-b", "--target", url, "-p", f"recordcount={RECORDS}", "--threads", "2",
                       "--processes", "1", CONCURRENT)
        assert completed(load), load.stderr
        check_load(target, url, before, returns(load.stdout).get("INSERT", {}))

        if target == "mariadb":
            mariadb_general_log(url, on=True)
        before = COUNTERS[target](url)
        run = ycsbctl("run", "workload-b", "--target", url, "-p", f"recordcount={RECORDS}", "--threads", "2",
                      "--processes", "1", "--operations", str(OPERATIONS), "--no-telemetry",
                      CONCURRENT)
        assert completed(run), run.stderr
        if target == "mariadb":
            mariadb_general_log(url, on=False)
        check_run(target, url, before, returns(run.stdout))
    finally:
        down = ycsbctl("down", "--all")
    assert down.returncode == 0 and f"{target}: stopped container {container.id[:12]}" in down.stdout
    assert our_containers(docker_client) == []


BASIS = {"memcached": "bytes", "postgresql": "pg_total_relation_size", "mariadb": "innodb data_length+index_length"}


def test_a_provisioned_run_of_the_three_shows_footprint_durability_and_container_cpu(
        docker_client, store_images, state_dir, tmp_path):  # noqa: F811 - the imported fixture
    out = tmp_path / "result"
    images = [a for t in STORE_IMAGES for a in ("--image", f"{t}={store_images[t]}")]
    r = ycsbctl("run", "workload-b", "--targets", ",".join(STORE_IMAGES), "--backend", "docker", *images,
                "--threads", "2", "--records", "1000", "--duration", "5", "--warmup", "0", "--processes", "1",
                "--out", str(out), CONCURRENT)
    # 5 s: dockerd's stats stream sends a document a second, late when the host is loaded, and a container's CPU
    # needs two of them inside the point (3 s once left one of the three points without any, its suite beside it)
    assert completed(r), r.stderr
    assert our_containers(docker_client) == []  # every server the run started is gone
    manifest = json.loads((out / "manifest.json").read_text())
    servers = {s["target"]: s for s in (manifest["servers"].values() if isinstance(manifest["servers"], dict)
                                        else manifest["servers"])}
    assert {t: servers[t]["backend"] for t in STORE_IMAGES} == dict.fromkeys(STORE_IMAGES, "docker")
    assert "fsync=off" in servers["postgresql"]["traits"]["durability"]
    assert "innodb_flush_log_at_trx_commit=0" in servers["mariadb"]["traits"]["durability"]
    for target in STORE_IMAGES:
        fp = manifest["footprints"][target]
        # what the server says the dataset takes, from its own figures: at least the field bytes of each record
        assert fp["keys"] == 1000 and fp["basis"] == BASIS[target] and fp["bytes_per_record"] >= FIELD_BYTES
        assert fp["rss_source"] == "container"
    runs = pd.read_parquet(out / "runs.parquet")
    measured = runs[runs.phase == "run"].set_index("target")
    assert set(measured.index) == set(STORE_IMAGES)
    assert set(measured.status) <= {"ok", "degraded"}  # degraded: another benchmark ran on this host meanwhile
    # the server's CPU is its container's (every PostgreSQL backend process, every MariaDB thread)
    assert set(measured.server_cpu_source) == {"server-container"}
    assert (measured.server_cpu_pct_mean > 0).all()


def _sql_cli(target: str, host: str, port: int, sql: str) -> list[str]:
    """The database's own client asking ``sql`` (the password, if any, comes from the environment)."""
    if target == "postgresql":
        return ["psql", "-w", "-h", host, "-p", str(port), "-U", "ycsb", "-d", "postgres", "-tAc", sql]
    return ["mariadb", "-h", host, "-P", str(port), "-u", "root", "-D", "ycsb", "-N", "-e", sql]


INSERTED = {"postgresql": "SELECT n_tup_ins FROM pg_stat_user_tables WHERE relname = 'usertable'",
            "mariadb": "SELECT COUNT(*) FROM usertable"}


@pytest.mark.parametrize("target", ["postgresql", "mariadb"])
def test_on_another_hosts_engine_a_sql_server_gets_a_generated_password_and_refuses_clients_without_it(
        remote_engine, target):
    e = remote_engine
    image = load_image_builder().build_all(e.client, only=[target])[target]
    up = e.ycsbctl("up", target, "--docker-host", e.url, "--image", f"{target}={image}")
    assert up.returncode == 0, up.stderr
    try:
        status = json.loads(e.ycsbctl("status", "--json", "--with-passwords").stdout)
        url = urlsplit(status["url"])
        password = url.password or ""
        assert url.hostname == e.address and len(password) == 32 and password not in up.stdout + up.stderr
        host, port = e.address, url.port or 0
        refused = e.lab.run("ctl", _sql_cli(target, host, port, "SELECT 1"), timeout=30,
                            env={"PATH": "/usr/bin:/bin"})
        assert refused.returncode != 0
        assert re.search(r"password authentication failed|no password supplied|Access denied", refused.stderr)

        load = e.ycsbctl("load", "workload-b", "--target", status["url"], "--records", "200", "--threads", "2",
                         "--processes", "1", "--quiet", CONCURRENT)
        assert load.returncode in (0, 1, 3) and returns(load.stdout).get("INSERT") == {"OK": 200}, load.stderr
        assert password not in load.stdout + load.stderr
        secret = {"PGPASSWORD": password} if target == "postgresql" else {"MYSQL_PWD": password}
        asked = wait_until(lambda: (r := e.lab.run("ctl", _sql_cli(target, host, port, INSERTED[target]), timeout=30,
                                                   env={"PATH": "/usr/bin:/bin", **secret})).stdout.strip() == "200"
                           and r, what="the server's own count of 200 inserted rows")
        assert asked.returncode == 0
    finally:
        e.ycsbctl("down", "--all")
    assert e.ours() == []
