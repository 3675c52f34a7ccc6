"""A load into a target that already holds its records (``ycsbctl load`` twice, a URL loaded before), on every store
that refuses an insert of a key it holds: one line saying the target already holds the records and how to go on
(empty it, run without --load, or ``run --load``, which empties it first), exit 1, the records it held untouched
(counted by the store's own client), no traceback. Was: the server's own 409 / SQLSTATE 23505 text, no hint."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.fixtures.cli import ycsbctl
from tests.fixtures.faults import clean, no_workers_left
from tests.fixtures.sql_cli import cli_rows
from tests.fixtures.study_clients import elasticsearch_curl, sphinx_mysql, tarantool_console
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.fault

RECORDS = 60  # not a multiple of the load's threads: every thread's first insert is of a key the target holds
TABLE = "twice43"  # a table (index, database) of this test's own on the session's shared servers
HINT = ("the target already holds records this load inserts: empty it, or measure what it holds (ycsbctl run "
        "without --load), or load with ycsbctl run --load, which empties it first")


def _sql(store: str) -> Callable[[str], int]:
    return lambda url: int(cli_rows(store, url, f"SELECT count(*) FROM {TABLE}")[0][0])


def _sqlite(url: str) -> int:
    with sqlite3.connect(url.removeprefix("sqlite://")) as db:
        return db.execute(f"SELECT count(*) FROM {TABLE}").fetchone()[0]


def _elasticsearch(url: str) -> int:
    elasticsearch_curl(url, f"/{TABLE}/_refresh")  # a count sees refreshed documents only
    return elasticsearch_curl(url, f"/{TABLE}/_count")["count"]


def _mongo(url: str) -> int:
    from pymongo import MongoClient

    with MongoClient(url, serverSelectionTimeoutMS=5000) as client:
        return client[TABLE]["usertable"].count_documents({})


# store → (the fixture serving it, or None; the URL from it; -p properties naming our own table; the store's own count)
STORES: dict[str, tuple[str | None, Callable, tuple[str, ...], Callable[[str], int]]] = {
    "sqlite": (None, lambda _, tmp: f"sqlite://{tmp}/twice.db", ("-p", f"table={TABLE}"), _sqlite),
    "postgresql": ("postgresql", lambda ep, _: ep.url, ("-p", f"table={TABLE}"), _sql("postgresql")),
    "mariadb": ("mariadb", lambda ep, _: ep.url, ("-p", f"table={TABLE}"), _sql("mariadb")),
    "mongodb-wire": ("mongo_wire", lambda s, _: f"mongodb://127.0.0.1:{s.port}/{TABLE}", (), _mongo),
    "tarantool": ("tarantool", lambda ep, _: ep.url, (), lambda url: int(tarantool_console(url, "print(c:eval('return box.space.ycsb:len()'))"))),
    "sphinx": ("sphinx", lambda ep, _: ep.url, (), lambda url: int(sphinx_mysql(url, "SELECT COUNT(*) FROM usertable")[0][0])),
    "elasticsearch": ("elasticsearch", lambda ep, _: ep.url, ("-p", f"es.index.key={TABLE}"), _elasticsearch),
}


def _load(url: str, tmp: Path, props: tuple[str, ...]):
    return ycsbctl("load", "workloadc", "--target", url, "-p", f"recordcount={RECORDS}", "--threads", "4",
                   "--no-telemetry", *props, cwd=tmp, timeout=180)


@pytest.mark.parametrize("store", list(STORES))
def test_loading_into_a_target_that_holds_the_records_says_so_in_one_line_and_keeps_them(store, request, tmp_path):
    fixture, url_of, props, count = STORES[store]
    url = url_of(request.getfixturevalue(fixture) if fixture else None, tmp_path)
    first = run_phase(PhaseSpec("load", url, {**load_properties("workloadc"), "recordcount": str(RECORDS),
                                              **dict(p.split("=", 1) for p in props[1::2])}, threads=4, processes=1))
    assert first.ops["INSERT"].returns == {"OK": RECORDS}, first.errors  # in this process: one CLI start saved
    held = count(url)
    assert held == RECORDS
    again = _load(url, tmp_path, props)
    clean(again.stdout + again.stderr)
    assert again.returncode == 1, again.stderr[-2000:]
    told = [ln for ln in again.stderr.splitlines() if HINT in ln]
    assert len(told) == 1 and "failed — " in told[0], again.stderr[-2000:]
    said = told[0].split(HINT, 1)[1]  # the store's own words follow the hint, on the same line
    assert "an insert failed (" in said, told[0]
    assert count(url) == held  # nothing lost, nothing added
    no_workers_left()


def test_a_load_refused_for_another_reason_gets_no_such_hint():
    """The hint is the store's own duplicate-key refusal only: a PostgreSQL statement timeout or an unreachable
    server during a load is not "the target already holds records"."""
    from ycsbctl.stores import registry

    pg, es = registry.for_url("postgresql://u@h:1/db"), registry.for_url("elasticsearch://h:1")
    assert pg.already_held('PostgreSQL: duplicate key value violates unique constraint "usertable_pkey" (SQLSTATE 23505)')
    assert not pg.already_held("PostgreSQL: canceling statement due to statement timeout (SQLSTATE 57014)")
    assert es.already_held("Elasticsearch: version_conflict_engine_exception: [usertable][user1]: version conflict, "
                           "document already exists (current version [1]) (HTTP 409)")
    assert not es.already_held("lost the server (connection reset); reconnecting failed: cannot connect")
    assert not registry.for_url("redis://h:1").already_held("duplicate key value violates unique constraint")


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
