"""A workload plug-in in an alternated session (ycsbctl.engine.alternating_plugin_worker): the media-items study
between a SQLite file and a redis-server, each through its own store's executor. Every target's operations are what
its own store counted (Redis: INFO commandstats; SQLite: a trigger that counts the rows its UPDATEs changed), the
slices run as the schedule says, the plug-in's prepare runs on each target, an executor that breaks its contract on
one target ends that target alone, and a plug-in that does not say it can alternate is refused in one line."""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.fixtures.servers import Server, start_redis
from ycsbctl.engine.alternated_session import SLICE_COLUMNS
from ycsbctl.engine.alternation import Alternation, schedule
from ycsbctl.engine.runner import PhaseRunner, run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.errors import UserError
from ycsbctl.results.model import PhaseResult
from ycsbctl.workload.properties import load_properties

ITEMS = 400
SLICE_S = 0.2
MIX = {"media.operation": "mix", "media.byidproportion": "1", "media.updateproportion": "1", "media.check": "off"}


def _props(**overrides: str) -> dict[str, str]:
    props = dict(load_properties("media-items"))
    props.update({"recordcount": str(ITEMS), "media.batchsize": "50", "media.queries": "40", "media.checks": "5",
                  **overrides})
    return props


def _calls(port: int) -> Counter[str]:
    """The server's commands served so far, by name (INFO commandstats)."""
    stats = redis.Redis(port=port).info("commandstats")
    return Counter({k.removeprefix("cmdstat_"): v["calls"] for k, v in stats.items()})


def _updates_counted(db: Path) -> int:
    """The rows SQLite's UPDATEs of the items changed, as its own trigger counted them."""
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT n FROM tally").fetchone()[0])


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Server, Path]]:
    """(SQLite's URL, a redis-server, SQLite's file), both loaded with the items by the engine's own load; SQLite
    counts every row an UPDATE changes in ``tally`` (a trigger of its own)."""
    tmp = tmp_path_factory.mktemp("plugin-alternation")
    db = tmp / "items.db"
    server = start_redis(tmp / "redis")
    url = f"sqlite:///{db}"
    try:
        for target in (url, server.url):
            r = run_phase(PhaseSpec("load", target, _props(), threads=2, processes=1))
            assert r.status == "ok" and r.operations == ITEMS // 50, r.errors
        with sqlite3.connect(db) as conn:
            conn.executescript("CREATE TABLE tally (n INTEGER); INSERT INTO tally VALUES (0); "
                               "CREATE TRIGGER tally_updates AFTER UPDATE ON items BEGIN UPDATE tally SET n = n + 1; "
                               "END;")
        yield url, server, db
    finally:
        server.proc.terminate()
        server.proc.wait(10)


def _session(urls: tuple[str, ...], props: dict[str, str], seed: int, duration_s: float, warmup_s: float = 0.0,
             processes: int = 2) -> list[PhaseResult]:
    alt = Alternation(urls, slice_s=SLICE_S, seed=seed)
    spec = PhaseSpec("run", urls[0], _props(**props), threads=4, processes=processes, warmup_s=warmup_s,
                     duration_s=duration_s, seed=seed, alternation=alt)
    return PhaseRunner(spec).run_alternated()


def _operations(r: PhaseResult, op: str) -> int:
    """``op``'s operations over every slice, warm-up included (the series holds them all)."""
    return int(r.series[r.series.op == op].operations.sum())


@pytest.mark.truth
def test_each_stores_operations_are_what_it_counted_itself_and_its_slices_are_the_scheduled_ones(
        stores: tuple[str, Server, Path]) -> None:
    """GET-BY-ID and UPDATE over two workers, 0.4 s of warm-up then 1.6 s in 0.2 s slices: Redis's GETs and SETs
    and SQLite's updated rows are each exactly what the engine credited to that target (nothing to the other)."""
    url, server, db = stores
    calls_before, updates_before = _calls(server.port), _updates_counted(db)
    sqlite_r, redis_r = _session((url, server.url), MIX, seed=5, duration_s=1.6, warmup_s=0.4)
    calls, updates = _calls(server.port) - calls_before, _updates_counted(db) - updates_before
    assert sqlite_r.status == redis_r.status == "ok", (sqlite_r.errors, redis_r.errors)
    assert _operations(redis_r, "GET-BY-ID") == calls["get"] > 0
    assert _operations(redis_r, "UPDATE") == calls["set"] > 0
    assert _operations(sqlite_r, "UPDATE") == updates > 0 and _operations(sqlite_r, "GET-BY-ID") > 0
    order = schedule(2, 5, 10)
    for t, r in enumerate((sqlite_r, redis_r)):
        s = r.slices
        assert s is not None and list(s.columns) == list(SLICE_COLUMNS)
        assert list(s.slice) == [k for k in range(10) if order[k] == t]  # its slices, as scheduled
        assert (s.operations > 0).all() and (s.errors == 0).all()
        assert int(s.operations.sum()) == _operations(r, "GET-BY-ID") + _operations(r, "UPDATE")
        measured = s[~s.warmup]
        assert list(measured.slice) == [k for k in range(2, 10) if order[k] == t]
        assert r.operations == int(measured.operations.sum())
        assert r.runtime_ms == pytest.approx(1000 * SLICE_S * len(measured))


@pytest.mark.truth
def test_the_plugins_prepare_runs_on_each_target_and_names_the_one_it_refuses(
        stores: tuple[str, Server, Path], tmp_path: Path) -> None:
    """A checked UPDATE point: the prepare writes items back as loaded and reads them, on each target with that
    target's executor; an emptied SQLite copy is refused before the start, named as the second alternated target,
    after Redis (the first) took its own checks."""
    url, server, db = stores
    sets_before = _calls(server.port)["set"]
    empty = tmp_path / "empty.db"
    with sqlite3.connect(db) as src, sqlite3.connect(empty) as dst:
        src.backup(dst)
        dst.execute("DELETE FROM items")
    spec = PhaseSpec("run", server.url, _props(**{"media.operation": "update"}), threads=2, processes=1,
                     duration_s=0.8, alternation=Alternation((server.url, f"sqlite:///{empty}"), slice_s=SLICE_S))
    with pytest.raises(UserError) as e:
        PhaseRunner(spec).run_alternated()
    said = str(e.value)
    assert "UPDATE: sqlite did not update item" in said and f"(alternated target 2: sqlite:///{empty})" in said, said
    assert "\n" not in said
    assert _calls(server.port)["set"] - sets_before >= 5  # Redis's items were written back by its own check


@pytest.mark.fault
def test_an_executor_that_breaks_on_one_target_ends_that_target_alone(
        stores: tuple[str, Server, Path], tmp_path: Path) -> None:
    """A SQLite copy holding only half the items: its first GET-BY-ID of a missing one is a wrong answer that fails
    SQLite's result (its later slices idle), while Redis keeps every slice of the session."""
    url, server, db = stores
    half = tmp_path / "half.db"
    with sqlite3.connect(db) as src, sqlite3.connect(half) as dst:
        src.backup(dst)
        dst.execute("DELETE FROM items WHERE id % 2 = 1")
    halved, whole = _session((f"sqlite:///{half}", server.url), {"media.operation": "byid", "media.check": "off"},
                             seed=1, duration_s=1.6, processes=1)
    assert halved.status == "failed" and whole.status == "ok", (halved.errors, whole.errors)
    assert "the workload plug-in MediaItems: its executor GET-BY-ID call raised WrongAnswer" in halved.errors[0]
    assert "not found" in halved.errors[0] and not whole.errors
    assert halved.slices is not None and whole.slices is not None
    assert (halved.slices.operations.iloc[1:] == 0).all()  # ended in its first slice
    assert len(whole.slices) == 4 and (whole.slices.operations > 0).all()


def test_a_plugin_that_does_not_say_it_can_alternate_is_refused_in_one_line(
        stores: tuple[str, Server, Path]) -> None:
    _, server, _ = stores
    props = {"workload": "tests.workload.faulty_plugin:Faulty"}
    spec = PhaseSpec("run", server.url, props, threads=2, duration_s=1.0,
                     alternation=Alternation((server.url, server.url.replace("/0", "/1"))))
    with pytest.raises(UserError) as e:
        PhaseRunner(spec)
    assert "Faulty does not say its operations can alternate targets" in str(e.value)
    assert "\n" not in str(e.value)


def test_a_plugin_needs_an_executor_for_every_alternated_targets_store(stores: tuple[str, Server, Path]) -> None:
    """online-status has no SQLite executor: refused before anything starts, as a point of its own would be."""
    url, server, _ = stores
    props = {"workload": "ycsbctl.workload.online_status:OnlineStatus"}
    spec = PhaseSpec("run", server.url, props, threads=2, duration_s=1.0, alternation=Alternation((server.url, url)))
    with pytest.raises(UserError) as e:
        PhaseRunner(spec)
    assert "cannot run on a sqlite target" in str(e.value) and "\n" not in str(e.value)


ALTERNATING_FAULTY = "tests.workload.faulty_plugin:AlternatingFaulty"


@pytest.mark.fault
@pytest.mark.parametrize(("mode", "said"), [
    ("badcode", "the workload plug-in AlternatingFaulty: its source gave op code 5, none of its op_codes('run'): [0]"),
    ("hang", "the workload plug-in AlternatingFaulty: an operation of its executor had not returned 0.3 s (--timeout) "
             "after the point's end; its clients were stopped"),
])
def test_a_source_that_breaks_or_a_client_that_hangs_fails_every_target(
        stores: tuple[str, Server, Path], mode: str, said: str) -> None:
    """The source is every target's, and a client held past the session's end holds the whole session: each
    target's result fails, saying why (a hang is stopped --timeout after the session's end, not left for an hour)."""
    _, server, _ = stores
    props = {"workload": ALTERNATING_FAULTY, "recordcount": "0", "operationcount": "0", "faulty.mode": mode}
    urls = (server.url, server.url.replace("/0", "/1"))
    spec = PhaseSpec("run", urls[0], props, threads=2, processes=1, duration_s=0.8, timeout_s=0.3,
                     alternation=Alternation(urls, slice_s=SLICE_S))
    results = PhaseRunner(spec).run_alternated()
    assert [r.status for r in results] == ["failed", "failed"], [r.errors for r in results]
    assert all(r.errors[0] == said for r in results), [r.errors for r in results]
