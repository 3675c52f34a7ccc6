"""A load into a target that already holds its records (``ycsbctl load`` twice, a URL loaded before), on every store:
refused before it starts, in one line saying so and how to go on (empty it, run without --load, or ``run --load``,
which empties it first), exit 2, the records it held untouched (counted by the store's own client), no traceback —
or, where an insert of a held key replaces the record (Redis), loaded again with one record per key. Was: the
server's own 409 / SQLSTATE 23505 text after the load began, and ClickHouse (no unique key) stored 2,000 rows for
1,000 keys, read ``ok``, and advised ``-p recordcount=2000`` at the next run. A URL that a run reads without loading
it (no ``--load``) and that holds nothing is refused before anything starts too (fault i61)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.cli import ycsbctl
from tests.fixtures.faults import clean, no_workers_left
from tests.fixtures.server_counters import memcached_counters
from tests.fixtures.sql_cli import cli_rows
from tests.fixtures.study_clients import (
    clickhouse_client,
    elasticsearch_curl,
    sphinx_mysql,
    tarantool_console,
)
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.fault

RECORDS = 60  # not a multiple of the load's threads: every thread's first insert is of a key the target holds
TABLE = "twice43"  # a table (index, database) of this test's own on the session's shared servers
HINT = ("already holds records this load inserts: empty it, or measure what it holds (ycsbctl run "
        "without --load), or load with ycsbctl run --load, which empties it first")


def _sql(store: str) -> Callable[[Any, str], int]:
    return lambda _, url: int(cli_rows(store, url, f"SELECT count(*) FROM {TABLE}")[0][0])


def _sqlite(_: Any, url: str) -> int:
    with sqlite3.connect(url.removeprefix("sqlite://")) as db:
        return db.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0]


def _elasticsearch(_: Any, url: str) -> int:
    elasticsearch_curl(url, f"/{TABLE}/_refresh")  # a count sees refreshed documents only
    return elasticsearch_curl(url, f"/{TABLE}/_count")["count"]


def _mongo(_: Any, url: str) -> int:
    from pymongo import MongoClient

    with MongoClient(url, serverSelectionTimeoutMS=5000) as client:
        return client[TABLE]["usertable"].count_documents({})


def _clickhouse(endpoint: Any, _: str) -> int:
    """Rows, and the same as distinct keys: a key stored twice would be two rows (MergeTree has no unique key)."""
    ((rows, keys),) = clickhouse_client(endpoint, f"SELECT count(), uniqExact(YCSB_KEY) FROM {TABLE}")
    assert rows == keys, (rows, keys)
    return int(rows)


def _redis(_: Any, url: str) -> int:
    import redis

    with redis.Redis.from_url(url) as client:
        return len(client.keys("user*"))


# store → (the fixture serving it, or None; the URL from it; -p properties naming our own table; the store's own count)
STORES: dict[str, tuple[str | None, Callable, tuple[str, ...], Callable[[Any, str], int]]] = {
    "sqlite": (None, lambda _, tmp: f"sqlite://{tmp}/twice.db", ("-p", f"table={TABLE}"), _sqlite),
    "postgresql": ("postgresql", lambda ep, _: ep.url, ("-p", f"table={TABLE}"), _sql("postgresql")),
    "mariadb": ("mariadb", lambda ep, _: ep.url, ("-p", f"table={TABLE}"), _sql("mariadb")),
    "mongodb-wire": ("mongo_wire", lambda s, _: f"mongodb://127.0.0.1:{s.port}/{TABLE}", (), _mongo),
    "tarantool": ("tarantool", lambda ep, _: ep.url, (),
                  lambda _, url: int(tarantool_console(url, "print(c:eval('return box.space.ycsb:len()'))"))),
    "sphinx": ("sphinx", lambda ep, _: ep.url, (), lambda _, url: int(sphinx_mysql(url,
                                                                                   "SELECT COUNT(*) FROM "
                                                                                   "usertable")[0][0])),
    "elasticsearch": ("elasticsearch", lambda ep, _: ep.url, ("-p", f"es.index.key={TABLE}"), _elasticsearch),
    "clickhouse": ("clickhouse", lambda ep, _: ep.url, ("-p", f"table={TABLE}"), _clickhouse),
    "memcached": ("memcached_server", lambda s, _: s.url, (), lambda s, _: memcached_counters(s)["curr_items"]),
}
OVERWRITES = {"redis": ("redis_server", lambda s, _: s.url.rsplit("/", 1)[0] + "/12", (), _redis)}  # HSET: one per key


def _load(url: str, tmp: Path, props: tuple[str, ...], *more: str):
    return ycsbctl("load", "workloadc", "--target", url, "-p", f"recordcount={RECORDS}", "--threads", "4",
                   "--no-telemetry", *props, *more, cwd=tmp, timeout=180)


def _first_load(url: str, props: tuple[str, ...]) -> None:
    first = run_phase(PhaseSpec("load", url, {**load_properties("workloadc"), "recordcount": str(RECORDS),
                                              **dict(p.split("=", 1) for p in props[1::2])}, threads=4, processes=1))
    assert first.ops["INSERT"].returns == {"OK": RECORDS}, first.errors  # in this process: one CLI start saved


@pytest.mark.parametrize("store", [*STORES, *OVERWRITES])
def test_loading_into_a_target_that_holds_the_records_is_refused_in_one_line_or_stores_one_record_per_key(
        store, request, tmp_path):
    fixture, url_of, props, count = STORES.get(store) or OVERWRITES[store]
    served = request.getfixturevalue(fixture) if fixture else None
    url = url_of(served, tmp_path)
    if store in OVERWRITES:
        from ycsbctl.stores.admin import clear_dataset

        clear_dataset(url)
    _first_load(url, props)
    held = count(served, url)
    assert held == RECORDS
    again = _load(url, tmp_path, props)
    clean(again.stdout + again.stderr)
    if store in OVERWRITES:  # the same keys written again: as many records as keys, and the load read ok
        assert again.returncode == 0 and "[INSERT], Return=OK, 60" in again.stdout, again.stderr[-2000:]
        assert count(served, url) == held
        return
    assert again.returncode == 2, again.stderr[-2000:]
    said = [ln for ln in again.stderr.splitlines() if ln.strip()]
    assert len(said) == 1 and HINT in said[0] and "keys read across its range are there" in said[0], again.stderr
    assert count(served, url) == held  # nothing lost, nothing added
    no_workers_left()


def test_a_load_of_the_next_range_into_clickhouse_is_not_refused_and_a_key_stored_twice_counts_once(
    clickhouse, tmp_path
):
    """YCSB's way of loading in parts (``insertstart``/``insertcount``): keys the table does not hold are loaded, and
    ClickHouse counts one row per key over both ranges (its own count() and uniqExact). A key inserted twice anyway
    (the engine alone, past the CLI's check) is two rows of a MergeTree table, which has no unique key: the store's
    count is its distinct keys, as uniqExact says, not its rows (the fault's next run advised recordcount=2000)."""
    from ycsbctl.stores import registry

    table = "twice43parts"
    url, store = clickhouse.url, registry.for_url(clickhouse.url)
    first = {**load_properties("workloadc"), "recordcount": str(RECORDS), "table": table}
    store.clear(url, table)
    load = run_phase(PhaseSpec("load", url, first, threads=4, processes=1))
    assert load.ops["INSERT"].returns == {"OK": RECORDS}, load.errors
    r = ycsbctl("load", "workloadc", "--target", url, "-p", f"recordcount={2 * RECORDS}", "-p",
                f"insertstart={RECORDS}",
                "-p", f"insertcount={RECORDS}", "--threads", "4", "--no-telemetry", "-p", f"table={table}",
                cwd=tmp_path, timeout=180)
    clean(r.stdout + r.stderr)
    assert r.returncode == 0 and f"[INSERT], Return=OK, {RECORDS}" in r.stdout, r.stderr[-2000:]
    ((rows, keys),) = clickhouse_client(clickhouse, f"SELECT count(), uniqExact(YCSB_KEY) FROM {table}")
    assert int(rows) == int(keys) == 2 * RECORDS == store.count(url, table)
    again = run_phase(PhaseSpec("load", url, first, threads=4, processes=1))
    assert again.ops["INSERT"].returns == {"OK": RECORDS}, again.errors  # stored again: no unique key refuses it
    ((rows, keys),) = clickhouse_client(clickhouse, f"SELECT count(), uniqExact(YCSB_KEY) FROM {table}")
    assert (int(rows), int(keys)) == (3 * RECORDS, 2 * RECORDS) and store.count(url, table) == 2 * RECORDS
    store.clear(url, table)


@pytest.mark.parametrize("workload", ["workload-c", "media-items"])
def test_a_run_that_reads_an_empty_url_target_it_does_not_load_is_refused_before_anything_starts(
        workload, redis_server, tmp_path):
    """In one sweep the catalogue target is loaded and the URL target is not (no --load): the URL's points measured
    reads of missing keys with a warning per point, and media-items failed there with "status 1 (None)". Now one
    line naming the URL, that it holds no records and what to do; exit 2; no server started, no folder written,
    nothing written to the URL's database."""
    import redis

    url = redis_server.url.rsplit("/", 1)[0] + "/13"  # a database of this test's own
    out = tmp_path / "never"
    with redis.Redis.from_url(url) as client:
        client.flushdb()
        r = ycsbctl("run", workload, "--target", url, "--target", "redis", "--threads", "1", "--duration", "1",
                    "--records", "50", "--allow-concurrent", "--out", str(out), cwd=tmp_path)
        written = client.dbsize()
    clean(r.stdout + r.stderr)
    assert r.returncode == 2, r.stderr[-2000:]
    said = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(said) == 1 and f"{url} holds no records" in said[0] and "run with --load" in said[0], r.stderr
    assert "is up" not in r.stdout + r.stderr and not out.exists() and written == 0


def test_a_load_refused_for_another_reason_gets_no_such_hint():
    """The hint is the store's own duplicate-key refusal only: a PostgreSQL statement timeout or an unreachable
    server during a load is not "the target already holds records"."""
    from ycsbctl.stores import registry

    pg, es = registry.for_url("postgresql://u@h:1/db"), registry.for_url("elasticsearch://h:1")
    assert pg.already_held('PostgreSQL: duplicate key value violates unique constraint "usertable_pkey" (SQLSTATE '
                           '23505)')
    assert not pg.already_held("PostgreSQL: canceling statement due to statement timeout (SQLSTATE 57014)")
    assert es.already_held("Elasticsearch: version_conflict_engine_exception: [usertable][user1]: version conflict, "
                           "document already exists (current version [1]) (HTTP 409)")
    assert not es.already_held("lost the server (connection reset); reconnecting failed: cannot connect")
    assert not registry.for_url("redis://h:1").already_held("duplicate key value violates unique constraint")
    assert registry.for_url("memcached://h:1").already_held(
        "NOT_STORED: the record exists already (an insert is memcached's add, which never overwrites, as YCSB's)")


def test_the_insert_workload_on_an_empty_target_gives_no_warning_of_missing_keys(redis_server, tmp_path):
    """``ycsbctl run insert`` on a URL (not loaded by us) warned "the server holds 0 records but recordcount is 40;
    reads of missing keys will be NOT_FOUND" (fault43g): the insert workload reads nothing and empties the database
    first. Now no warning, and every insert is on the server (its own KEYS: the records, and the binding's _indices)."""
    import redis

    url = redis_server.url.rsplit("/", 1)[0] + "/11"  # a database of this test's own
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        r = ycsbctl("run", "insert", "--target", url, "--records", "40", "--threads", "1", "--no-telemetry",
                    "--allow-concurrent", "--out", str(tmp_path / "ins"), cwd=tmp_path)
        clean(r.stdout + r.stderr)
        assert r.returncode == 0, r.stderr[-2000:]
        assert "warning" not in r.stderr and "NOT_FOUND" not in r.stderr, r.stderr[-2000:]
        assert "[INSERT], Return=OK, 40" in r.stdout and len(client.keys("user*")) == 40
    finally:
        client.flushdb()
        client.close()


def test_the_held_keys_check_reads_each_key_once_on_one_connection_of_its_own(redis_server):
    """``held_keys`` (what a load would insert twice) asks through one binding: the server counts one connection
    received (INFO's ``total_connections_received``, read on a connection opened before) and one read per key
    (``cmdstat_hgetall``), and the keys it says are held are those written there."""
    import asyncio

    import redis

    from ycsbctl.experiment.url_datasets import held_keys

    url = redis_server.url.rsplit("/", 1)[0] + "/13"  # a database of this test's own
    client = redis.Redis.from_url(url)
    client.flushdb()
    keys = [f"user{i}".encode() for i in range(6)]
    client.hset(keys[1], "field0", "v")
    client.hset(keys[4], "field0", "v")

    def counted() -> tuple[int, int]:
        info = client.info("all")
        return int(info["total_connections_received"]), int(info.get("cmdstat_hgetall", {}).get("calls", 0))

    try:
        before = counted()
        held = asyncio.run(held_keys(url, {"redis.cluster": "false"}, "usertable", keys))
        after = counted()
    finally:
        client.flushdb()
        client.close()
    assert held == [keys[1], keys[4]]
    assert (after[0] - before[0], after[1] - before[1]) == (1, len(keys))


@pytest.mark.parametrize("records", [1, 2, 3, 20])
def test_the_keys_sampled_before_a_load_are_its_first_its_last_and_evenly_between(records: int) -> None:
    """What the refusal of a second load reads first (ycsbctl.experiment.url_datasets.sampled_keys): YCSB's names of
    the load's own first and last record and, up to SAMPLED_KEYS, others between — every key of a small load (a load
    of 2 once read its first key twice, never its last)."""
    from ycsbctl.experiment.plan import Plan
    from ycsbctl.experiment.resolve import resolve_study
    from ycsbctl.experiment.url_datasets import SAMPLED_KEYS, sampled_keys
    from ycsbctl.workload.keys import build_key_name

    (case,) = resolve_study(Plan(workloads=["workload-b"], targets=["basic://"], records=records)).cases
    keys = sampled_keys(case)
    every = [build_key_name(k).encode() for k in range(records)]  # the load's key names, in key-number order
    assert len(keys) == len(set(keys)) == min(records, SAMPLED_KEYS)
    assert set(keys) <= set(every) and {every[0], every[-1]} <= set(keys)
