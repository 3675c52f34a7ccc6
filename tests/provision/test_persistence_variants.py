"""Persistence and durability as target kinds (``redis-aof``, ``redis-rdb``, ``postgresql-durable``,
``mariadb-durable``): each server runs with its settings (read back from the server itself), its data
directory on a disk (the filesystem type from ``stat -f``, not from our own code), a label's
``--server-config`` winning over the variant's, and a fork seen by the INFO sampler as the server
counts it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import psutil
import pytest
import redis

from tests.fixtures.sql_cli import cli_rows
from tests.fixtures.waiting import wait_until
from ycsbctl.provision import catalog
from ycsbctl.provision.auto import provision, teardown
from ycsbctl.provision.target_spec import infer_kind
from ycsbctl.stores.redis.info import RedisInfoSampler


def _fs_type(path: str) -> str:
    """The filesystem type as coreutils' ``stat -f`` names it (ext2/ext3 for ext4, tmpfs …)."""
    return subprocess.run(["stat", "-f", "-c", "%T", path], capture_output=True, text=True, check=True).stdout.strip()


@pytest.mark.parametrize(("label", "kind"), [
    ("redis-aof", "redis-aof"), ("redis-aof-always", "redis-aof-always"), ("redis-aof-x", "redis-aof"),
    ("redis-rdb", "redis-rdb"), ("valkey-aof", "valkey-aof"), ("postgresql-durable", "postgresql-durable"),
    ("redis-aofx", "redis"),
])
def test_a_persistence_variant_is_a_kind_a_label_begins_with(label: str, kind: str) -> None:
    assert infer_kind(label) == kind
    assert catalog.get_target(kind).binary == catalog.get_target(kind.split("-")[0]).binary


def test_redis_aof_writes_its_file_to_a_disk_and_a_label_setting_wins() -> None:
    ep = provision("redis-aof", "local", experiment_id="tests", say=lambda _: None, settings={"appendfsync": "always"})
    try:
        data_dir = psutil.Process(ep.pid).cwd()
        assert _fs_type(data_dir) not in ("tmpfs", "ramfs")
        assert any("a disk, so its fsync reaches it" in n for n in ep.notes)
        assert ep.settings == {"appendonly": "yes", "appendfsync": "always"}
        with redis.Redis.from_url(ep.url) as r:
            assert r.config_get("appendonly") == {"appendonly": "yes"}
            assert r.config_get("appendfsync") == {"appendfsync": "always"}  # the label's, not the variant's
            for i in range(50):
                r.hset(f"user{i}", mapping={"field0": "x" * 100})
            assert r.info("persistence")["aof_enabled"] == 1
        aof = sum(f.stat().st_size for f in Path(data_dir).rglob("*.aof"))
        assert aof > 50 * 100  # every write reached the file
    finally:
        teardown(ep)


@pytest.mark.parametrize(("kind", "read_back"), [
    ("redis-aof", {"appendonly": "yes", "appendfsync": "everysec"}),
    ("redis-aof-always", {"appendonly": "yes", "appendfsync": "always"}),
    ("redis-rdb", {"appendonly": "no", "save": "5 1000"}),
])
def test_each_redis_persistence_variant_runs_with_the_settings_it_names_as_config_get_reads_them(kind,
                                                                                                 read_back) -> None:
    """No label setting: what the server itself says (CONFIG GET) is what the variant's name promises —
    docs/studies/persistence.md's and ``ycsbctl targets``' words (AOF fsync once a second, at every write; RDB every 5 s
    once 1000 keys changed) — and the endpoint records those settings (the manifest's), not others."""
    ep = provision(kind, "local", experiment_id="tests", say=lambda _: None)
    try:
        with redis.Redis.from_url(ep.url, decode_responses=True) as r:
            got = {k: r.config_get(k)[k] for k in read_back}
        assert got == read_back
        assert ep.settings == {k: v for k, v in read_back.items() if k != "appendonly" or v == "yes"}
    finally:
        teardown(ep)


def test_redis_rdb_fork_is_seen_by_the_sampler_as_the_server_counts_it() -> None:
    ep = provision("redis-rdb", "local", experiment_id="tests", say=lambda _: None, settings={"save": "1 100"})
    try:
        data_dir = psutil.Process(ep.pid).cwd()
        sampler = RedisInfoSampler(ep.url)
        sampler.prime()
        with redis.Redis.from_url(ep.url) as r:
            forks0 = r.info("stats")["total_forks"]
            for i in range(200):
                r.set(f"k{i}", "v")
            wait_until(lambda: r.info("stats")["total_forks"] > forks0 and not r.info("persistence")[
                "rdb_bgsave_in_progress"], timeout_s=20, what="an RDB snapshot")
            row = sampler.sample()
            info = {**r.info("stats"), **r.info("persistence")}
        sampler.close()
        assert row["forks"] == info["total_forks"] - forks0 >= 1
        assert row["fork_pause_us"] == info["latest_fork_usec"] > 0
        assert (Path(data_dir) / "dump.rdb").stat().st_size > 0
    finally:
        teardown(ep)


@pytest.mark.parametrize(("kind", "read_back"), [
    ("postgresql-durable", lambda ep: tuple(ep.config["pg_settings"][k] for k in
                                            ("fsync", "synchronous_commit", "full_page_writes"))),
    ("mariadb-durable", lambda ep: (ep.config["variables"]["innodb_flush_log_at_trx_commit"],
                                    ep.config["variables"]["innodb_doublewrite"])),
])
def test_a_durable_sql_store_runs_with_durability_on_a_disk(kind, read_back) -> None:
    entry = catalog.get_target(kind)
    if catalog.find_server(entry)[0] is None:
        pytest.skip(f"{entry.binary} is not installed ({entry.install_hint}, or run scripts/setup.sh --for-tests)")
    ep = provision(kind, "local", experiment_id="tests", say=lambda _: None)
    try:
        data_dir = psutil.Process(ep.pid).cwd()
        assert _fs_type(data_dir) not in ("tmpfs", "ramfs") and not data_dir.startswith("/dev/shm")
        assert read_back(ep) in (("on", "on", "on"), ("1", "ON"))
        # and as the server's own client reads them (psql's SHOW, the mariadb client's SELECT @@…)
        sql = ("SELECT current_setting('fsync'), current_setting('synchronous_commit'), "
               "current_setting('full_page_writes')"
               if kind == "postgresql-durable" else "SELECT @@innodb_flush_log_at_trx_commit, @@innodb_doublewrite")
        assert tuple(cli_rows(kind.split("-")[0], ep.url, sql)[0]) in (("on", "on", "on"), ("1", "1"))
        assert any("a disk" in n for n in ep.notes)
    finally:
        teardown(ep)
    assert not os.path.exists(data_dir)
