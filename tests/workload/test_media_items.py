"""The media-items study (restream/reindexer-benchmarks' queries) on real stores: the truth agrees with a
plain scan of the generated items, every store's executor answers every query it can exactly as the
truth does (ids of the first page and the total), a wrong answer is caught, and a run marks the cells a
store cannot answer as "cannot" — in one line before anything starts, in the manifest and in the report."""

from __future__ import annotations

import asyncio
import functools
import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from tests.fixtures.media_items import ITEMS, PROPS, load_and_check, media_workload
from ycsbctl.stores.registry import get, open_bindings
from ycsbctl.workload.media_items.contract import Item, Query
from ycsbctl.workload.media_items.dataset import dictionary, items, prefix_of
from ycsbctl.workload.media_items.executor import Checked, WrongAnswer
from ycsbctl.workload.media_items.ops import (
    FULLTEXT,
    FULLTEXT_PREFIX,
    QUERIES,
    QUERY_1COND,
    QUERY_2COND,
)

pytestmark = pytest.mark.report  # reads the report a sweep draws (see tests/fixtures/session.py)


@functools.cache
def _texts() -> list[tuple[Item, list[str]]]:
    data = items(1, ITEMS)
    return [(it, it.description.split()) for it in map(data.item, range(ITEMS))]


def _scan(q: Query) -> list[int]:
    """The query by a plain scan of the items, as text: the second way the truth is computed."""
    out = []
    for i, (it, words) in enumerate(_texts()):
        if q.op == QUERY_1COND:
            hit = it.year > q.year_gt
        elif q.op == QUERY_2COND:
            hit = it.year > q.year_gt and it.name == q.name
        elif q.op == FULLTEXT:
            hit = any(w in words for w in q.words)
        else:
            hit = any(w.startswith(p) for p in q.words for w in words)
        if hit:
            out.append(i)
    return out


def test_the_truth_agrees_with_a_scan_of_the_items() -> None:
    w = media_workload()
    data = items(1, ITEMS)
    assert 400 <= len(json.dumps(data.item(7).document())) <= 560  # the study's ~500-byte JSON document
    assert all(2000 <= y <= 2049 for y in data.years.tolist())
    for op in QUERIES:
        for q, want in zip(w.pools[op].queries, w.pools[op].expected):
            hits = _scan(q)
            assert (want.ids, want.total) == (tuple(hits[:10]), len(hits)), q
    assert any(w.pools[FULLTEXT_PREFIX].expected[i].total > 10 for i in range(40))  # prefixes do match many
    words = dictionary()
    assert len(words) == 100_000 and all(5 <= len(x) <= 9 for x in words[:1000])
    assert prefix_of("abcdefg") == "abcd" and prefix_of("abc") == "abc"


def _check_store(url: str, protocol: str) -> None:
    """Every test but UPDATE in one point's checks, then UPDATE's (which writes the items back as loaded)."""
    said, refused = (load_and_check(url, protocol, "mix"))
    assert said == [""], said
    assert refused == set()
    said, _ = (load_and_check(url, protocol, "update"))
    assert said == [""], said


@pytest.mark.truth
def test_sqlite_answers_as_the_truth(tmp_path: Path) -> None:
    _check_store(f"sqlite:///{tmp_path / 'items.db'}", "sqlite")


@pytest.mark.truth
def test_postgresql_answers_as_the_truth(postgresql) -> None:
    _check_store(postgresql.url, "postgresql")


@pytest.mark.truth
def test_mariadb_answers_as_the_truth(mariadb) -> None:
    _check_store(mariadb.url, "mysql")


@pytest.mark.truth
def test_the_mongodb_wire_answers_as_the_truth(mongo_db) -> None:
    url, db = mongo_db
    said, refused = (load_and_check(url, "mongodb", "mix", ("byid", "1cond", "2cond")))
    assert said == [""] and refused == {FULLTEXT_PREFIX}
    # read back by the store's own client: _id is the id as 10 digits (FerretDB's SQLite backend uses its _id
    # index for a string only), so that its order is the ids'
    loaded = items(1, ITEMS)
    doc = db["items"].find_one({"_id": f"{ITEMS - 1:010d}"})
    assert doc is not None and doc["year"] == int(loaded.years[ITEMS - 1]) and db["items"].count_documents({}) == ITEMS
    assert db["items"].find_one({"_id": ITEMS - 1}) is None
    said, _ = (load_and_check(url, "mongodb", "update"))
    assert said == [""]
    # FerretDB (the local mongo-wire server) has no $text: FULLTEXT is refused on it by its kind
    w = media_workload("text")
    assert "unknown top level operator" in (w.refusal("mongodb", "ferretdb") or "")
    assert w.refusal("mongodb", "") is None and w.executor("mongodb") is not None
    # its year and name filters read the whole collection: refused where the plan's connections cannot wait for them
    big = media_workload("1cond", recordcount="100000")
    assert "4.5 s for one page" in (big.refusal("mongodb", "ferretdb", 50, 10.0) or "")
    assert big.refusal("mongodb", "", 50, 10.0) is None and big.executor("mongodb") is not None
    assert media_workload("2cond").refusal("mongodb", "ferretdb", 50, 10.0) is None  # ITEMS items: it answers


@pytest.mark.truth
def test_redis_and_memcached_read_and_update_items_as_loaded(rds, redis_server, memcached_server) -> None:
    for url, protocol in ((redis_server.url, "redis"), (memcached_server.url, "memcached")):
        said, refused = (load_and_check(url, protocol, "byid"))
        assert said == [""] and refused == set(QUERIES)
        said, _ = (load_and_check(url, protocol, "update"))
        assert said == [""]
    assert rds.dbsize() == ITEMS and json.loads(rds.get("items:5"))["id"] == 5
    assert "QUERY-1COND: Redis has no secondary index" in (media_workload("1cond").refusal("redis") or "")


@pytest.mark.truth
def test_a_wrong_answer_fails_the_check_and_the_operation(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'items.db'}"
    (load_and_check(url, "sqlite", "1cond"))
    first = items(1, ITEMS).years.tolist().index(next(y for y in items(1, ITEMS).years.tolist() if y > 2010))
    with sqlite3.connect(tmp_path / "items.db") as conn:  # the first item of QUERY-1COND's page leaves it
        conn.execute("UPDATE items SET year = 2001 WHERE id = ?", (first,))

    async def check() -> tuple[str | None, str]:
        w = media_workload("1cond")
        ex = w.executor("sqlite")
        bs = await open_bindings(url, 1, PROPS, 5.0)
        try:
            said = await ex.prepare(bs.bindings[0], "run")  # type: ignore[union-attr]
            with pytest.raises(WrongAnswer) as raised:
                await ex(bs.bindings[0], QUERY_1COND, 0)  # type: ignore[misc]
            return said, str(raised.value)
        finally:
            await bs.close()

    said, raised = asyncio.run(check())
    assert said is not None and said.startswith("QUERY-1COND: sqlite answered year > 2010") and "matching items" in said
    assert "page [" in raised and f"{first}" in raised.split("not")[1]


def test_a_mix_that_updates_what_it_checks_is_refused() -> None:
    from ycsbctl.errors import UserError

    with pytest.raises(UserError, match="media.check=off"):
        media_workload("mix", **{"media.updateproportion": "1"})
    assert media_workload("mix", **{"media.updateproportion": "1", "media.check": "off"}).s.ops


def test_a_run_marks_the_cells_a_store_cannot_answer(tmp_path: Path, redis_server, rds) -> None:
    from ycsbctl.experiment.targets import target_label

    out, redis_label = tmp_path / "study", target_label(redis_server.url)
    r = subprocess.run(
        [sys.executable, "-m", "ycsbctl", "run", "media-items", "--target", f"sqlite:///{tmp_path / 'm.db'}",
         "--target", redis_server.url, "--records", "300", "--threads", "2", "--duration", "0.5", "--no-telemetry",
         "--load", "--allow-concurrent", "--processes", "1", "-p", "media.operation=1cond,byid", "--out", str(out)],
        capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert f"{redis_label} media-items-1cond: cannot — QUERY-1COND: Redis has no secondary index" in r.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert [(c["target"], c["workload"]) for c in manifest["cannot"]] == [(redis_label, "media-items-1cond")]
    html = (out / "report.html").read_text()
    assert "The many-store study" in html and "cannot: Redis has no secondary index" in html
    said = r.stdout + r.stderr
    assert "QUERY-1COND at 2 threads: fastest sqlite" in said and f"cannot: {redis_label}" in said
    # GET-BY-ID, which both answer: the headline's fastest store and the other's ratio are the runs table's
    runs = pd.read_csv(out / "runs.csv")
    byid = runs[(runs["workload"] == "media-items-byid") & (runs["phase"] == "run")].set_index("target")[
        "throughput_ops"
    ]
    assert set(byid.index) == {"sqlite", redis_label}, byid
    best, other = byid.idxmax(), byid.idxmin()
    line = next(x for x in said.splitlines() if x.startswith("GET-BY-ID at 2 threads: "))
    assert line.startswith(f"GET-BY-ID at 2 threads: fastest {best}, {byid[best]:,.0f} ops/s"), line
    # one repetition, but the two stores alternated in one session (the default order): its cell is judged slice
    # by slice, and the line gives the verdicts table's ratio with its interval (never a bare ratio)
    v = pd.read_parquet(out / "verdicts.parquet")
    cell = v[(v["workload"] == "media-items-byid") & (v["metric"] == "throughput") & ~v["at_peak"].astype(bool)]
    (ratio,) = cell["ratio"]
    shown = ratio if other != cell["baseline"].iloc[0] else 1 / ratio
    assert f"against it {other} {shown:.2f}× [" in line, (line, cell.to_dict("records"))
    assert cell["test"].iloc[0] == "slice-paired t (AR(1) blocks)" and "untested ratios" not in line, line
    one = runs[runs["workload"] == "media-items-1cond"]
    assert set(one["target"]) == {"sqlite"}  # redis's 1COND cell was never run


def test_an_unordered_page_is_judged_by_its_size_and_members_as_a_scan_finds_them() -> None:
    from ycsbctl.workload.media_items.contract import Page
    from ycsbctl.workload.media_items.truth import Truth

    truth = Truth(items(1, ITEMS))
    q = Query(QUERY_1COND, year_gt=2045, limit=10, offset=3, sort="none")
    hits = _scan(q)  # the second way: a plain scan of the items
    want = truth.expected(q)
    assert want.total == len(hits) > 13 and want.members == frozenset(hits)
    some = tuple(reversed(hits[-10:]))  # any ten matching items, in any order
    assert truth.wrong(q, Page(some, len(hits))) is None and truth.wrong(q, Page(some)) is None
    assert truth.wrong(q, Page(some[:9])) == "9 items on the page, not 10"
    assert truth.wrong(q, Page(some[:9] + some[:1])) == "10 items on the page, not 10"  # one twice
    stray = next(i for i in range(ITEMS) if i not in want.members)
    assert truth.wrong(q, Page(some[:9] + (stray,))) == f"items [{stray}] do not match"
    assert truth.wrong(q, Page(some, len(hits) + 1)) == f"{len(hits) + 1:,} matching items, not {len(hits):,}"
    last = Query(QUERY_1COND, year_gt=2045, limit=10, offset=len(hits) - 4, sort="none")
    assert truth.wrong(last, Page(tuple(hits[:4]))) is None  # the last page holds what is left
    beyond = Query(QUERY_1COND, year_gt=2045, limit=10, offset=len(hits) + 5, sort="none")
    assert truth.wrong(beyond, Page(())) is None and truth.wrong(beyond, Page(some[:1])) == \
        "1 items on the page, not 0"


def test_the_truth_names_what_is_wrong_with_an_item_and_unions_ids_once_each() -> None:
    import numpy as np

    from ycsbctl.workload.media_items.truth import Truth, _ids, _union

    data = items(1, ITEMS)
    truth = Truth(data)
    seven = data.item(7)
    assert truth.wrong_item(7, seven) is None and truth.wrong_item(ITEMS + 3, None) is None
    assert truth.wrong_item(7, None) == "item 7 missing"
    assert truth.wrong_item(ITEMS + 3, seven) == f"item {ITEMS + 3} found, but it was never loaded"
    other = data.item(8)
    assert truth.wrong_item(7, other).startswith("item 7 differs in id")
    assert _union([]).tolist() == [] and _union([np.array([5])]).tolist() == [5]
    assert _union([np.array([5]), np.array([5])]).tolist() == [5]
    assert _union([np.array([1, 4]), np.array([4, 9]), np.array([2])]).tolist() == [1, 2, 4, 9]
    assert _ids(tuple(range(10))) == "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]"
    assert _ids(tuple(range(11))) == "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, …]"


async def _loaded(url: str, protocol: str) -> Checked:
    """A GET-BY-ID point's executor on ``url``'s store (emptied by the caller), its table made and items 0-49
    loaded (10 s timeout)."""
    from ycsbctl.workload.plugin import OK

    ex = media_workload("byid").executor(protocol)
    assert isinstance(ex, Checked)
    loader = await open_bindings(url, 1, PROPS, 10.0)
    try:
        b = loader.bindings[0]
        assert await ex.prepare(b, "load") is None
        assert await ex(b, 7, [items(1, ITEMS).item(i) for i in range(50)]) == OK, b.last_error
    finally:
        await loader.close()
    return ex


@pytest.mark.truth
@pytest.mark.parametrize("driver", ["wire", "asyncpg"])
def test_postgresqls_indexes_and_analyse_that_outlast_the_timeout_are_waited_for(postgresql, driver) -> None:
    """ready()'s statements (three CREATE INDEX, VACUUM ANALYZE) wait on a lock another session takes in turn
    (SHARE UPDATE EXCLUSIVE, 0.3 s each) past the binding's 0.15 s: a statement times out, ready() waits for its
    effect and answers OK; the server's own catalogue then lists the four indexes and the table analysed. The
    first statement is sure to wait (it is sent while the lock is held); a later one may find the lock free
    when this one event loop sends it before the blocker's next LOCK (a loaded host), so only the first wait
    is asserted (ready() ends a whole hold after the lock was first taken). On both drivers: asyncpg cancels a statement
    at the timeout (the wire binding's goes on in the server), and ready() waited 30 s for an effect that could not
    come, then failed (fault43e)."""
    import asyncpg

    from ycsbctl.workload.plugin import OK

    get("postgresql").clear(postgresql.url, "items")
    timeout_s, hold_s = 0.15, 0.3  # the binding's timeout; the blocker's hold of the lock, twice that

    async def main() -> tuple[int, float, int, bool]:
        ex = await _loaded(postgresql.url, "postgresql")
        bs = await open_bindings(postgresql.url, 1, {**PROPS, "postgresql.driver": driver}, timeout_s)
        blocker = await asyncpg.connect(postgresql.url)
        held, done, first_held = asyncio.Event(), asyncio.Event(), 0.0
        try:
            b = bs.bindings[0]

            async def block() -> None:  # the lock, taken again as soon as it is let go (queued first)
                nonlocal first_held
                while not done.is_set():
                    async with blocker.transaction():
                        await blocker.execute("LOCK TABLE items IN SHARE UPDATE EXCLUSIVE MODE")
                        if not held.is_set():
                            first_held = time.monotonic()
                            held.set()
                        await asyncio.sleep(hold_s)

            task = asyncio.create_task(block())
            await held.wait()
            st = await ex.store.ready(b)
            waited = time.monotonic() - first_held
            done.set()
            await task
            n = await blocker.fetchval("SELECT count(*) FROM pg_indexes WHERE tablename = 'items'")
            analysed = await blocker.fetchval("SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables "
                                              "WHERE relname = 'items'")
            return st, waited, n, analysed
        finally:
            await blocker.close()
            await bs.close()

    st, waited, indexes, analysed = asyncio.run(main())
    assert st == OK and waited >= hold_s  # the first statement waited out a whole hold, past its timeout
    assert (indexes, analysed) == (4, True)  # the primary key's, name, year, words; and the planner's statistics


@pytest.mark.truth
def test_mariadbs_indexes_that_outlast_the_timeout_are_waited_for(mariadb) -> None:
    """The ALTER TABLE that adds the study's three indexes waits on the table's metadata lock, held by
    another session's open transaction for 0.4 s, past the binding's 0.15 s: it times out, ready() waits for
    its effect and answers OK, and the server's own information_schema then lists the three indexes. A next
    point's setup and ready() find the table and its indexes made: the server counts no CREATE TABLE nor
    ALTER TABLE more (its Com_ counters); one whose table lost one of the three indexes adds it back."""
    import time

    import pymysql

    from ycsbctl.stores.mariadb.session import connect_args
    from ycsbctl.workload.plugin import OK

    get("mysql").clear(mariadb.url, "items")
    store = media_workload("byid").executor("mysql").store
    a = connect_args(mariadb.url)
    blocker = pymysql.connect(host=a["host"], port=a["port"], user=a["user"], password=a["password"] or "",
                              database=a["db"], autocommit=False)

    def let_go_after(s: float) -> float:
        time.sleep(s)
        blocker.commit()
        return time.monotonic()

    async def main() -> tuple[int, float, float]:
        await _loaded(mariadb.url, "mysql")
        with blocker.cursor() as cur:  # an open transaction that read the table: its metadata lock is held
            cur.execute("SELECT id FROM items LIMIT 1")
        bs = await open_bindings(mariadb.url, 1, PROPS, 0.15)  # the run's worker: its ready() times out
        try:
            released = asyncio.create_task(asyncio.to_thread(let_go_after, 0.4))
            st = await store.ready(bs.bindings[0])
            return st, await released, time.monotonic()
        finally:
            await bs.close()

    def count_indexes(cur: Any) -> int:
        cur.execute("SELECT count(DISTINCT index_name) FROM information_schema.statistics WHERE table_schema = "
                    "DATABASE() AND table_name = 'items' AND index_name <> 'PRIMARY'")
        return int(cur.fetchone()[0])

    def ddl_counts() -> dict[str, int]:
        with blocker.cursor() as cur:
            cur.execute("SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_create_table', 'Com_alter_table')")
            return {name: int(v) for name, v in cur.fetchall()}

    async def again() -> tuple[int, int]:
        bs = await open_bindings(mariadb.url, 1, PROPS, 10.0)
        try:
            return await store.setup(bs.bindings[0]), await store.ready(bs.bindings[0])
        finally:
            await bs.close()

    try:
        st, released_at, ready_at = asyncio.run(main())
        with blocker.cursor() as cur:
            cur.execute("SELECT count(DISTINCT index_name) FROM information_schema.statistics WHERE table_schema = "
                        "DATABASE() AND table_name = 'items' AND index_name <> 'PRIMARY'")
            (indexes,) = cur.fetchone()
        before = ddl_counts()
        next_point = asyncio.run(again())
        after = ddl_counts()
        with blocker.cursor() as cur:  # one of the three dropped (by hand): the next point's ready() adds it back
            cur.execute("ALTER TABLE items DROP INDEX name")
            dropped = count_indexes(cur)
            mended = asyncio.run(again())
            back = count_indexes(cur)
    finally:
        blocker.close()
    assert st == OK and ready_at > released_at  # answered only once the lock was let go
    assert indexes == 3
    assert next_point == (OK, OK) and after == before and set(before) == {"Com_create_table", "Com_alter_table"}
    assert (dropped, mended, back) == (2, (OK, OK), 3)


@pytest.mark.truth
def test_memcached_refuses_to_load_an_item_twice_and_updates_only_what_it_holds(memcached_server) -> None:
    """memcached's own answers: ``add`` of a key it holds is NOT_STORED (the load's INSERT is ERROR, saying
    so), ``replace`` of a key it does not hold NOT_STORED (an UPDATE of no item, NOT_FOUND), of an item over
    its size limit a SERVER_ERROR (ERROR, its line the error)."""
    import uuid

    from ycsbctl.workload.plugin import ERROR, NOT_FOUND, OK

    table = f"dup{uuid.uuid4().hex[:8]}"  # keys of its own: nothing to clear
    store = media_workload("byid", table=table).executor("memcached").store  # the store alone: no check raises
    data = items(1, ITEMS)

    huge = Item(3, "huge", 2001, "word " * 300_000)  # 1.5 MB: over memcached's 1 MB item limit (-I)

    async def main() -> tuple[list[int], list[str | None]]:
        bs = await open_bindings(memcached_server.url, 1, PROPS, 10.0)
        try:
            b = bs.bindings[0]
            got = [await store.insert(b, [data.item(3)]), await store.insert(b, [data.item(3)])]
            said = [b.last_error]
            got += [await store.update(b, data.item(3)),
                    await store.update(b, Item(ITEMS + 5, "no such", 2001, "item "))]
            got.append(await store.update(b, huge))
            said.append(b.last_error)
            # a get: the item, none (END alone: NOT_FOUND), and a key memcached refuses (over 250 bytes: ERROR)
            got += [await store.get(b, 3), await store.get(b, ITEMS + 5), await long_keys.get(b, 3)]
            said.append(b.last_error)
            return got, said
        finally:
            await bs.close()

    long_keys = media_workload("byid", table="k" * 250).executor("memcached").store
    got, said = asyncio.run(main())
    # the server's own refusal of an item too large, word for word
    assert got == [OK, ERROR, OK, NOT_FOUND, ERROR, (OK, data.item(3)), (NOT_FOUND, None), (ERROR, None)]
    assert said == ["add 3: NOT_STORED", "SERVER_ERROR object too large for cache",
                    "CLIENT_ERROR bad command line format"]


@pytest.mark.truth
def test_redis_updates_and_reads_only_the_items_it_holds(redis_server) -> None:
    """Redis's own answers: SET … XX of a key it does not hold is nil (an UPDATE of no item, NOT_FOUND), GET
    of it nil (NOT_FOUND); a value that is no item's JSON is ERROR, saying so."""
    import uuid

    import redis as redis_py

    from ycsbctl.workload.plugin import ERROR, NOT_FOUND, OK

    table = f"rx{uuid.uuid4().hex[:8]}"  # keys of its own: nothing to clear
    store = media_workload("byid", table=table).executor("redis").store
    held, absent = items(1, ITEMS).item(3), Item(ITEMS + 5, "no such", 2001, "item ")
    with redis_py.Redis.from_url(redis_server.url) as r:
        r.set(f"{table}:9", b"not json")

    async def main() -> tuple[list[object], str | None]:
        bs = await open_bindings(redis_server.url, 1, PROPS, 10.0)
        try:
            b = bs.bindings[0]
            got: list[object] = [await store.insert(b, [held]), await store.update(b, held),
                                 await store.update(b, absent),
                                 await store.get(b, 3), await store.get(b, ITEMS + 5), (await store.get(b, 9))[0]]
            return got, b.last_error
        finally:
            await bs.close()

    try:
        got, said = asyncio.run(main())
    finally:
        with redis_py.Redis.from_url(redis_server.url) as r:
            r.delete(f"{table}:3", f"{table}:9")
    assert got == [OK, OK, NOT_FOUND, (OK, held), (NOT_FOUND, None), ERROR]
    assert said is not None and said.startswith(f"the value of {table}:9 is no item")
    with redis_py.Redis.from_url(redis_server.url) as r:
        assert not r.exists(f"{table}:{ITEMS + 5}")  # the update of no item stored nothing


@pytest.mark.truth
def test_the_mongodb_wire_pages_by_id_whatever_the_load_order_and_updates_only_what_it_holds(mongo_db) -> None:
    """Items loaded in reverse id order (the server's natural order is then not the id order): a QUERY-1COND
    page sorted by id is the truth's; an UPDATE of no item is NOT_FOUND (the server's n: 0) and a GET of it
    NOT_FOUND; the update of a held item changes what the server's own client reads back."""
    from ycsbctl.workload.media_items.ops import QUERY_1COND
    from ycsbctl.workload.plugin import NOT_FOUND, OK

    url, db = mongo_db
    w = media_workload("1cond")
    store = w.executor("mongodb").store
    data = items(1, ITEMS)
    q = w.pools[QUERY_1COND].queries[0]
    new = Item(3, "a new name", 2049, "new words ")

    async def main() -> list[object]:
        bs = await open_bindings(url, 1, PROPS, 10.0)
        try:
            b = bs.bindings[0]
            assert await store.setup(b) == OK, b.last_error
            for first in range(ITEMS - 50, -1, -50):  # the last items first
                assert await store.insert(b, [data.item(i) for i in range(first, first + 50)]) == OK, b.last_error
            return [await store.query(b, q, True), await store.update(b, new),
                    await store.update(b, Item(ITEMS + 5, "no such", 2001, "item ")), await store.get(b, ITEMS + 5)]
        finally:
            await bs.close()

    (st, page), updated, absent, missing = asyncio.run(main())
    want = w.truth.expected(q)
    assert st == OK and (page.ids, page.total) == (want.ids, want.total) and list(want.ids) == sorted(want.ids)
    assert (updated, absent, missing) == (OK, NOT_FOUND, (NOT_FOUND, None))
    assert db["items"].find_one({"_id": "0000000003"}) == {"_id": "0000000003", "name": "a new name", "year": 2049,
                                                            "description": "new words "}


def test_an_update_points_check_updates_each_checked_item_and_a_read_points_check_writes_nothing(
    tmp_path: Path,
) -> None:
    """Before an UPDATE point the check writes each checked item back as loaded (SQLite's own total_changes()
    counts them) and reads it; an item missing is "did not update", said so. Before a GET-BY-ID point the
    check only reads: no row changes."""
    url = f"sqlite:///{tmp_path / 'items.db'}"
    load_and_check(url, "sqlite", "byid")
    gone = ITEMS - 1  # the last item, which the checks always read
    with sqlite3.connect(tmp_path / "items.db") as conn:
        conn.execute("DELETE FROM items WHERE id = ?", (gone,))

    async def check(operation: str) -> tuple[str | None, int]:
        ex = media_workload(operation).executor("sqlite")
        bs = await open_bindings(url, 1, PROPS, 5.0)
        try:
            said = await ex.prepare(bs.bindings[0], "run")  # type: ignore[union-attr]
            st, rows, _ = await bs.bindings[0].sql("SELECT total_changes()")
            return said, int(rows[0][0])
        finally:
            await bs.close()

    missing = ("not found: the store does not hold the items this plan loads (an empty target, or one loaded with "
               "another recordcount) — run with --load")  # was "status 1 (None)": nothing said what to do
    said, changed = asyncio.run(check("byid"))
    assert (said, changed) == (f"GET-BY-ID: sqlite read item {gone}: {missing}", 0)
    said, changed = asyncio.run(check("update"))
    assert said == f"UPDATE: sqlite did not update item {gone} ({missing})" and changed > 0


def test_a_get_by_id_points_item_checks_are_made_before_the_run_not_by_its_first_timed_operation(
    tmp_path: Path,
) -> None:
    """The workload's prepare (as the engine calls it): for the load, the table alone; for the run, the checks'
    per-item shapes are made there (not by the first timed GET-BY-ID, whose latency would carry them)."""
    w = media_workload("byid")
    ex = w.executor("sqlite")
    assert isinstance(ex, Checked)

    async def main() -> tuple[str | None, bool, str | None, bool]:
        bs = await open_bindings(f"sqlite:///{tmp_path / 'items.db'}", 1, PROPS, 5.0)
        try:
            b = bs.bindings[0]
            loaded = await w.prepare(ex, b, "load")
            before = "shape" in ex.__dict__
            assert await ex(b, 7, [items(1, ITEMS).item(i) for i in range(ITEMS)]) == 0, b.last_error
            return loaded, before, await w.prepare(ex, b, "run"), "shape" in ex.__dict__
        finally:
            await bs.close()

    assert asyncio.run(main()) == (None, False, None, True)


def test_waiting_for_a_count_asks_again_every_half_second_until_it_is_reached(tmp_path: Path) -> None:
    """until(): a count below what is wanted is asked again after 0.5 s (not at once, which would spend its 60
    tries in milliseconds): a row that another connection adds 0.1 s later is waited for, and then OK."""
    import threading
    import time

    from ycsbctl.workload.plugin import OK

    db = tmp_path / "w.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (id INTEGER)")
    store = media_workload("byid").executor("sqlite").store  # type: ignore[union-attr]

    def add_later() -> None:
        time.sleep(0.1)
        with sqlite3.connect(db) as other:
            other.execute("INSERT INTO t VALUES (1)")

    async def main() -> tuple[int, float]:
        bs = await open_bindings(f"sqlite:///{db}", 1, PROPS, 5.0)
        try:
            adder = threading.Thread(target=add_later)
            t0 = time.monotonic()
            adder.start()
            st = await store.until(bs.bindings[0], "SELECT count(*) FROM t", (), 1)
            took = time.monotonic() - t0
            adder.join()
            return st, took
        finally:
            await bs.close()

    st, took = asyncio.run(main())
    assert st == OK and took >= 0.5  # answered on a later asking, half a second after the first


def test_a_count_never_reached_is_error_saying_what_it_waited_for(tmp_path: Path) -> None:
    """until() asked once (tries=1) of a count that stays 0 when 1 is wanted: the server answered every time, so
    the wait ends in ERROR (TIMEOUT is for a count that never answered), its error naming the statement."""
    from ycsbctl.workload.plugin import ERROR

    db = tmp_path / "w.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE t (id INTEGER)")
    store = media_workload("byid").executor("sqlite").store  # type: ignore[union-attr]

    async def main() -> tuple[int, str | None]:
        bs = await open_bindings(f"sqlite:///{db}", 1, PROPS, 5.0)
        try:
            b = bs.bindings[0]
            return await store.until(b, "SELECT count(*) FROM t", (), 1, tries=1), b.last_error
        finally:
            await bs.close()

    st, said = asyncio.run(main())
    assert st == ERROR and said is not None and said.startswith("still waiting for 'SELECT count(*) FROM t' to "
                                                                "reach 1"), said


def test_ferretdb_refuses_year_and_name_queries_from_the_items_its_connections_cannot_wait_for_exactly() -> None:
    """One query at a time at 45 µs per item: the first item count refused is the first whose last connection
    waits the whole timeout (ceil(10 s / (45 µs × 50)) = 4,445 at the study's 50 connections, 10 s; 222,223 at
    one), naming the items, connections, wait and timeout; on any other server, or with the scale not known,
    the year and name queries are never refused."""
    from ycsbctl.stores.mongodb.media_items import (
        FERRETDB_SCAN_US_PER_ITEM,
        MongoItems,
        ferretdb_scans_from,
    )
    from ycsbctl.workload.media_items.ops import QUERY_1COND, QUERY_2COND

    assert FERRETDB_SCAN_US_PER_ITEM == 45.0
    assert ferretdb_scans_from(50, 10.0) == 4_445 and ferretdb_scans_from(1, 10.0) == 222_223
    assert ferretdb_scans_from(25, 10.0) == 8_889 and ferretdb_scans_from(50, 20.0) == 8_889
    below, at = MongoItems.refused("ferretdb", 4_444, 50, 10.0), MongoItems.refused("ferretdb", 4_445, 50, 10.0)
    assert QUERY_1COND not in below and QUERY_2COND not in below
    assert at[QUERY_1COND] == at[QUERY_2COND]
    five = MongoItems.refused("ferretdb", 5_000, 50, 10.0)[QUERY_1COND]  # the run: 11 s > 10 s
    assert "at 5,000 items the last of 50 connections would wait ~11.2 s, past the 10 s operation timeout" in five
    assert "below 4,445 items at 50 connections" in five
    assert QUERY_1COND not in MongoItems.refused("ferretdb", 5_000, 4, 10.0)  # 0.9 s: it answers
    assert QUERY_1COND in MongoItems.refused("ferretdb", 222_223, 1, 10.0)  # one connection is a scale too
    assert QUERY_1COND in MongoItems.refused("ferretdb", 223, 50, 0.5)  # and a timeout under a second
    assert QUERY_1COND not in MongoItems.refused("ferretdb", 10**6)  # the scale not known (a worker's executor)
    assert QUERY_1COND not in MongoItems.refused("ferretdb", 10**6, timeout_s=10.0)  # nor the connections
    assert QUERY_1COND not in MongoItems.refused("ferretdb", 10**6, 50)  # nor the timeout
    assert QUERY_1COND not in MongoItems.refused("", 10**6, 50, 10.0)
    assert QUERY_1COND not in MongoItems.refused("mongodb", 10**6, 50, 10.0)


def test_waiting_for_a_count_asks_sixty_times_through_timeouts_stops_at_an_error_and_redoes_a_cancelled_statement():
    """until()'s whole contract on a binding that answers as scripted (each asking counted): a count that times
    out every time is asked 60 times (the default: 60 operation timeouts) and the wait is TIMEOUT, naming the
    statement and the last error; a count that answers after k timeouts is OK at the (k+1)th; an ERROR ends it
    at once; a count below what is wanted runs ``redo`` (the cancelled statement) and asks again, and a redo that
    fails ends the wait with its status."""
    from ycsbctl.workload.plugin import ERROR, OK, TIMEOUT

    store = media_workload("byid").executor("sqlite").store  # type: ignore[union-attr]

    class Scripted:
        def __init__(self, answers: list[tuple[int, list]]) -> None:
            self.answers, self.asked, self.last_error = answers, 0, None

        async def sql(self, statement: str, params: tuple) -> tuple[int, list, None]:
            st, rows = self.answers[min(self.asked, len(self.answers) - 1)]
            self.asked += 1
            self.last_error = "timed out" if st == TIMEOUT else None
            return st, rows, None

    def wait(answers: list, want: int = 3, **kw) -> tuple[int, int, str | None]:
        b = Scripted(answers)
        st = asyncio.run(store.until(b, "SELECT count(*) FROM t", (), want, **kw))  # type: ignore[arg-type]
        return st, b.asked, b.last_error

    st, asked, said = wait([(TIMEOUT, [])])
    assert (st, asked) == (TIMEOUT, 60) and said == "still waiting for 'SELECT count(*) FROM t' to reach 3 (timed out)"
    assert wait([(TIMEOUT, [])], tries=7)[:2] == (TIMEOUT, 7)
    assert wait([(TIMEOUT, [])] * 59 + [(OK, [(3,)])])[:2] == (OK, 60)  # the 60th asking still counts
    assert wait([(TIMEOUT, [])] * 4 + [(OK, [(5,)])])[:2] == (OK, 5)  # more than wanted is reached too
    assert wait([(TIMEOUT, []), (ERROR, [])])[:2] == (ERROR, 2)
    redone: list[int] = []

    async def redo(st: int = OK) -> int:
        redone.append(st)
        return st

    assert wait([(OK, [(1,)]), (OK, [(2,)]), (OK, [(3,)])], redo=redo)[:2] == (OK, 3) and len(redone) == 2
    assert wait([(OK, [(2,)])], redo=lambda: redo(ERROR))[:2] == (ERROR, 1)
    assert wait([(OK, [(2,)])], redo=lambda: redo(TIMEOUT), tries=4)[:2] == (TIMEOUT, 4)
    assert wait([(OK, [(2,)])], redo=redo, tries=4)[:2] == (ERROR, 4)  # answered every time: not a timeout


def test_mariadbs_indexes_built_past_the_timeout_are_waited_for_until_all_three_are_there(monkeypatch):
    """ready() on a binding that answers as scripted: no index yet, the ALTER TABLE that adds the three outlasts
    the operation timeout, and the server's count of them reads 2 (FULLTEXT and year built, name still building),
    then 3: the wait ends at the third, half a second after the second (asked of a stand-in clock here)."""
    from types import SimpleNamespace

    from ycsbctl.stores.sql import media_items as sql_module
    from ycsbctl.workload.plugin import OK, TIMEOUT

    store = media_workload("byid").executor("mysql").store  # type: ignore[union-attr]
    slept: list[float] = []

    async def sleep(s: float) -> None:
        slept.append(s)

    monkeypatch.setattr(sql_module, "asyncio", SimpleNamespace(sleep=sleep))

    class Scripted:
        def __init__(self) -> None:
            self.answers = [(OK, [(0,)]), (TIMEOUT, []), (OK, [(2,)]), (OK, [(3,)])]
            self.asked: list[str] = []
            self.last_error = None

        async def sql(self, statement: str, params: tuple = ()) -> tuple[int, list, None]:
            self.asked.append(statement.split()[0])
            st, rows = self.answers[len(self.asked) - 1]
            return st, rows, None

    b = Scripted()
    assert asyncio.run(store.ready(b)) == OK  # type: ignore[arg-type]
    assert (b.asked, slept) == (["SELECT", "ALTER", "SELECT", "SELECT"], [0.5])


def test_the_truth_of_every_name_and_of_words_past_the_dictionary_is_a_scan_of_the_items():
    """QUERY-2COND for name numbers across the range (the first and the last two too) against a plain scan of the items'
    names and years; FULLTEXT of a word that sorts after every dictionary word matches nothing (and its prefix
    nothing)."""
    import numpy as np

    from ycsbctl.workload.media_items.contract import Query
    from ycsbctl.workload.media_items.dataset import NAMES, dictionary, items, name_text
    from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, QUERY_2COND
    from ycsbctl.workload.media_items.truth import Truth

    data = items(7, 2000)
    truth = Truth(data)
    for number in [*range(0, NAMES, 31), NAMES - 2, NAMES - 1]:
        want = np.flatnonzero((data.names == number) & (data.years > 2005)).tolist()
        assert truth.matching(Query(QUERY_2COND, year_gt=2005, name=name_text(number))).tolist() == want, number
    last = dictionary()[-1]
    assert truth.word_range("zzzzzz", False) == truth.word_range("zzzzzz", True) == (len(dictionary()),) * 2
    assert truth.matching(Query(FULLTEXT, words=("zzzzzz",))).tolist() == []
    assert truth.matching(Query(FULLTEXT_PREFIX, words=("zzzzzz",))).tolist() == []
    assert truth.word_range(last, False) == (len(dictionary()) - 1, len(dictionary()))


def test_an_item_check_of_two_items_reads_the_first_and_the_last(tmp_path: Path) -> None:
    """``media.checks=2``: the items checked before a GET-BY-ID point are spread over the items, the first among
    them: with item 0 deleted from the loaded table (SQLite's own DELETE), the check says it is not found; with one
    check, the last item alone is read, and item 0 missing goes unseen."""
    url = f"sqlite:///{tmp_path / 'items.db'}"
    load_and_check(url, "sqlite", "byid")
    with sqlite3.connect(tmp_path / "items.db") as conn:
        assert conn.execute("DELETE FROM items WHERE id = 0").rowcount == 1

    async def check(checks: int) -> str | None:
        ex = media_workload("byid", **{"media.checks": str(checks)}).executor("sqlite")
        bs = await open_bindings(url, 1, PROPS, 5.0)
        try:
            return await ex.prepare(bs.bindings[0], "run")  # type: ignore[union-attr]
        finally:
            await bs.close()

    said = asyncio.run(check(2))
    assert said is not None and said.startswith("GET-BY-ID: sqlite read item 0: not found"), said
    assert asyncio.run(check(1)) is None
