"""The two studies' rules a person can read in their documentation, each checked against that text (pure,
milliseconds): online-status's timestamps fill ``[online.start, online.start + online.window_s)``; media-items'
settings accept each bound's least value and refuse the one below it, its dictionary's words are 5 to 9
letters, and the run draws every query of a pool, each about as often."""

from __future__ import annotations

import numpy as np
import pytest

from tests.fixtures.media_items import media_workload
from ycsbctl.errors import UserError
from ycsbctl.workload.media_items.dataset import dictionary
from ycsbctl.workload.media_items.ops import FULLTEXT
from ycsbctl.workload.media_items.settings import Settings
from ycsbctl.workload.media_items.sources import RunSource as MediaRunSource
from ycsbctl.workload.online_status.workload import OnlineStatus
from ycsbctl.workload.properties import Properties, load_properties


def _digest(*parts: bytes) -> str:
    import hashlib

    return hashlib.sha256(b"".join(parts)).hexdigest()[:16]


def test_the_data_set_and_query_pools_of_a_seed_are_the_ones_every_result_was_measured_on():
    """The dictionary is the same everywhere and a seed's items and queries a function of it alone (the
    dataset's docstring): pinned here by digest, so that a change to how they are drawn, which would change
    every query's selectivity and make results of one version incomparable with another's, is seen. First in
    this file: dictionary() and items() are cached, and the mutation tool runs a mutant of their lines with
    the tests that ran them, the first caller alone."""
    from ycsbctl.workload.media_items.dataset import items
    from ycsbctl.workload.media_items.ops import QUERIES
    from ycsbctl.workload.media_items.pool import draw_queries

    assert _digest("\n".join(dictionary()).encode()) == "ff30b299002d1c5b"
    it = items(1, 2000)
    assert _digest(*(a.astype("<i4").tobytes() for a in (it.names, it.years, it.words))) == "a6649ce7f49b3a0b"
    s = Settings.read(Properties({}))
    pools = [(q.op, q.year_gt, q.name, q.words) for op in sorted(QUERIES) for q in draw_queries(s, op, 50)]
    assert _digest(repr(pools).encode()) == "ec428e15c67dd51b"


def test_online_status_timestamps_fill_the_window_from_its_first_second_to_its_last():
    props = dict(load_properties("online-status"))
    props.update({"online.start": "1000", "online.window_s": "3", "online.bucket_s": "2"})
    w = OnlineStatus.from_properties(Properties(props))
    ts = w.timestamps(np.random.default_rng(5), 3000).tolist()
    assert set(ts) == {1000, 1001, 1002}  # [start, start + window_s): its first second and its last, no other
    assert [w.bucket(t) for t in (1000, 1001, 1002)] == [0, 0, 1]


# the least value each setting takes (recordcount, media.limit, media.batchsize, media.queries ≥ 1;
# media.offset, media.checks ≥ 0)
LEAST = {"recordcount": 1, "media.limit": 1, "media.batchsize": 1, "media.queries": 1, "media.offset": 0,
         "media.checks": 0}


@pytest.mark.parametrize("key", list(LEAST))
def test_media_items_settings_take_each_bounds_least_value_and_refuse_the_one_below(key: str):
    least = {k: str(v) for k, v in LEAST.items()}
    s = Settings.read(Properties(least))
    assert (s.records, s.limit, s.store.batch, s.distinct_queries, s.offset, s.checks) == (1, 1, 1, 1, 0, 0)
    with pytest.raises(UserError, match="media-items needs recordcount"):
        Settings.read(Properties({**least, key: str(LEAST[key] - 1)}))


def test_the_dictionarys_words_are_5_to_9_letters_of_every_length_between():
    assert sorted({len(w) for w in dictionary()}) == [5, 6, 7, 8, 9]


def test_the_run_draws_every_query_of_a_pool_about_equally_often():
    w = media_workload("text")
    size = len(w.pools[FULLTEXT].queries)
    batch = MediaRunSource(w, np.random.default_rng(11)).next_batch(200 * size)
    assert set(batch.ops) == {FULLTEXT}
    counts = np.bincount(batch.args, minlength=size)
    assert len(counts) == size and counts.min() > 0
    # uniform: each index's count within 5 standard deviations of 200 (binomial, p = 1/size)
    assert np.abs(counts - 200).max() < 5 * np.sqrt(200 * (1 - 1 / size))


def test_online_status_without_its_workload_file_has_the_files_settings():
    """``-p workload=ycsbctl.workload.online_status:OnlineStatus`` alone: the same study as the file's."""
    bare = OnlineStatus.from_properties(Properties({}))
    filed = OnlineStatus.from_properties(Properties(dict(load_properties("online-status"))))
    fields = ("users", "structure", "batchsize", "mix", "window_s", "bucket_s", "key", "table")
    assert [getattr(bare, f) for f in fields] == [getattr(filed, f) for f in fields]


def test_media_items_without_its_workload_file_has_the_files_settings_but_its_first_test_and_size():
    """Every setting the file gives is the code's default (the file's operation list and 100,000 items aside:
    alone, the first test, byid)."""
    bare = Settings.read(Properties({}))
    props = dict(load_properties("media-items"))
    filed = Settings.read(Properties(props))
    fields = ("records", "seed", "year_gt", "limit", "offset", "sort", "mix")
    assert [getattr(bare, f) for f in fields] == [getattr(filed, f) for f in fields]
    assert bare.store.batch == filed.store.batch == int(props["media.batchsize"])


def test_the_run_reads_every_item_id_from_the_first_to_the_last():
    w = media_workload("byid", recordcount="50")
    batch = MediaRunSource(w, np.random.default_rng(12)).next_batch(50 * 40)
    assert sorted(set(batch.args)) == list(range(50))  # ids uniform over [0, recordcount)


@pytest.mark.parametrize("key", ["recordcount", "online.batchsize", "online.bucket_s", "online.window_s"])
def test_online_status_settings_take_1_and_refuse_0(key: str):
    ones = {"recordcount": "1", "online.batchsize": "1", "online.bucket_s": "1", "online.window_s": "1"}
    w = OnlineStatus.from_properties(Properties(ones))
    assert (w.users, w.batchsize, w.bucket_s, w.window_s) == (1, 1, 1, 1)
    with pytest.raises(UserError, match="online-status needs recordcount"):
        OnlineStatus.from_properties(Properties({**ones, key: "0"}))


def test_online_status_run_draws_every_user_and_starts_its_window_on_2026_11_01_utc():
    from datetime import datetime, timezone

    from ycsbctl.workload.online_status.ops import STORE

    props = dict(load_properties("online-status"))
    props.update({"recordcount": "20", "online.storeproportion": "1", "online.batchstoreproportion": "0",
                  "online.countproportion": "0"})
    w = OnlineStatus.from_properties(Properties(props))
    assert w.start == datetime(2026, 11, 1, tzinfo=timezone.utc).timestamp()  # the window's first second, by default
    b = w.source("run", np.random.default_rng(3), 0, 1).next_batch(20 * 40)
    assert set(b.ops) == {STORE}
    assert sorted({u for ((u, _),) in b.args}) == list(range(20))  # users uniform over [0, recordcount)


def test_online_status_batch_stores_draw_every_user_and_timestamps_of_the_window():
    from ycsbctl.workload.online_status.ops import BATCH_STORE

    props = dict(load_properties("online-status"))
    props.update({"recordcount": "20", "online.batchsize": "8", "online.storeproportion": "0",
                  "online.batchstoreproportion": "1", "online.countproportion": "0", "online.start": "500",
                  "online.window_s": "2"})
    w = OnlineStatus.from_properties(Properties(props))
    b = w.source("run", np.random.default_rng(4), 0, 1).next_batch(100)
    assert set(b.ops) == {BATCH_STORE} and {len(pairs) for pairs in b.args} == {8}
    pairs = [p for batch in b.args for p in batch]
    assert sorted({u for u, _ in pairs}) == list(range(20)) and {t for _, t in pairs} == {500, 501}


def test_the_2cond_pool_names_every_name():
    from ycsbctl.workload.media_items.dataset import NAMES, name_text
    from ycsbctl.workload.media_items.ops import QUERY_2COND
    from ycsbctl.workload.media_items.pool import draw_queries

    # names uniform over [0, 1024): 20 draws each on average, one missing with odds 1024·e^-20 ≈ 2e-6
    drawn = {q.name for q in draw_queries(Settings.read(Properties({})), QUERY_2COND, 20 * NAMES)}
    assert drawn == {name_text(i) for i in range(NAMES)}


def test_a_media_items_mix_draws_each_operation_in_its_proportion():
    from ycsbctl.workload.media_items.ops import GET_BY_ID, UPDATE

    w = media_workload("mix", ("byid", "update"), **{"media.byidproportion": "3", "media.updateproportion": "1"})
    ops = np.array(MediaRunSource(w, np.random.default_rng(13)).next_batch(4000).ops)
    share = float((ops == GET_BY_ID).mean())
    assert set(ops.tolist()) == {GET_BY_ID, UPDATE}
    assert abs(share - 0.75) < 5 * np.sqrt(0.75 * 0.25 / 4000)  # 3 : 1, within 5 standard errors


def test_the_items_descriptions_use_every_word_of_the_dictionary():
    from ycsbctl.workload.media_items.dataset import DICTIONARY_WORDS, items

    # 60,000 items × 50 words: 30 draws per word on average, one missing with odds 1e5·e^-30 ≈ 1e-8
    words = items(7, 60_000).words.ravel()
    assert np.bincount(words, minlength=DICTIONARY_WORDS).min() > 0 and words.max() == DICTIONARY_WORDS - 1




def test_media_items_reads_the_documented_defaults_and_a_stores_own_settings():
    s = Settings.read(Properties({"media.sqlite.cache_size": "-20000", "media.limit": "5"}))
    assert (s.distinct_queries, s.checks) == (2000,
                                              # docs/studies/media-items.md: media.queries (2,000), media.checks (10)
                                              10)
    assert s.store.extra == {"sqlite.cache_size": "-20000"}  # -p media.<store>.<key>=…, the store's own


def test_a_media_items_load_without_a_block_starts_at_item_0_and_a_refused_store_has_no_executor():
    from ycsbctl.workload.media_items.executor import Checked
    from ycsbctl.workload.media_items.ops import INSERT
    from ycsbctl.workload.media_items.workload import store_class

    w = media_workload("byid")
    b = w.source("load", np.random.default_rng(1), 0, 1).next_batch(2)
    assert b.ops == [INSERT, INSERT] and [it.id for it in b.args[0]][:3] == [0, 1, 2] and b.args[1][0].id == 50
    assert media_workload("1cond").executor("redis") is None  # Redis cannot answer QUERY-1COND
    assert store_class("sql") is None  # the SQL stores' shared executor (stores/sql/media_items.py) is no store's
    ex = w.executor("sqlite")
    assert isinstance(ex, Checked) and "shape" not in ex.__dict__
    w.executor_ready(ex)
    assert "shape" in ex.__dict__  # what the timed GET-BY-ID checks read, made before the point
    text = media_workload("text")
    other = text.executor("sqlite")
    assert isinstance(other, Checked)
    text.executor_ready(other)
    assert "shape" not in other.__dict__  # a point without GET-BY-ID makes none


def test_the_checked_items_are_spread_from_the_first_to_the_last_item():
    from ycsbctl.workload.media_items.executor import _spread

    got = _spread(400, 10, 3)
    regular = [i for i in got if i != 3 * 7919 % 400]  # the salt's own id aside
    steps = {b - a for a, b in zip(regular, regular[1:])}
    assert got == sorted(set(got)) and (got[0], got[-1]) == (0, 399) and 3 * 7919 % 400 in got
    assert len(regular) == 10 and steps <= {44, 45}  # 399 / 9 = 44.3 apart
    assert _spread(400, 1, 3) == [399] and _spread(400, 0, 3) == []


def test_online_status_counts_the_users_each_operation_really_carries():
    """records_per_operation (what the report's "storing N users/s" multiplies by) against the operations the
    sources draw: a STORE carries one (user, timestamp), a BATCH-STORE and a load INSERT ``batchsize``; the load
    of 20 users in batches of 8 is 8 + 8 + 4, which loaded_records gives back from its 3 OK operations."""
    from ycsbctl.workload.online_status.ops import NAMES

    props = dict(load_properties("online-status"))
    props.update({"recordcount": "20", "online.batchsize": "8", "online.storeproportion": "1",
                  "online.batchstoreproportion": "1", "online.countproportion": "0"})
    w = OnlineStatus.from_properties(Properties(props))
    per_op = w.records_per_operation()
    run = w.source("run", np.random.default_rng(4), 0, 1).next_batch(200)
    carried = {NAMES[op]: {len(a) for a, o in zip(run.args, run.ops) if o == op} for op in set(run.ops)}
    assert carried == {"STORE": {per_op["STORE"]}, "BATCH-STORE": {per_op["BATCH-STORE"]}} == {"STORE": {1},
                                                                                               "BATCH-STORE": {8}}
    load = w.source("load", np.random.default_rng(4), 0, 1).next_batch(10)
    assert [len(a) for a in load.args] == [per_op["INSERT"], per_op["INSERT"], 4] and w.load_operations == 3
    assert w.loaded_records(3) == sum(len(a) for a in load.args) == 20 and w.loaded_records(1) == 8


def test_an_updates_new_item_draws_from_the_first_name_year_and_word_to_the_last():
    """random_item (the study's newItem, an UPDATE's new values) draws names 0 … 1,023, years 2000 … 2049 and the
    dictionary's words from its first, as the load's items do: in 1,000 draws of seed 5, the first and the last
    name and year come up, and the dictionary's first word (item 7's)."""
    from ycsbctl.workload.media_items.dataset import NAMES, YEARS, dictionary, name_text, random_item

    rng = np.random.default_rng(5)
    drawn = [random_item(rng, 5) for _ in range(1000)]
    names, years = {it.name for it in drawn}, {it.year for it in drawn}
    assert {name_text(0), name_text(NAMES - 1)} <= names and {it.id for it in drawn} == {5}
    assert (min(years), max(years)) == (YEARS[0], YEARS[1] - 1)
    assert dictionary()[0] in set(" ".join(it.description for it in drawn).split())


def test_a_media_items_load_of_a_size_not_a_multiple_of_its_batch_inserts_each_item_once_the_last_batch_short():
    """103 items in batches of 50: INSERTs of 50, 50 and 3 items, ids 0 … 102 once each (the load count says 3)."""
    w = media_workload("byid", recordcount="103")
    b = w.source("load", np.random.default_rng(1), 0, 1).next_batch(10)
    assert [len(chunk) for chunk in b.args] == [50, 50, 3] and w.load_operations == 3
    assert [it.id for chunk in b.args for it in chunk] == list(range(103))


def test_a_query_is_described_in_a_line_as_its_sql_would_say_it():
    from ycsbctl.workload.media_items.contract import Query
    from ycsbctl.workload.media_items.executor import describe
    from ycsbctl.workload.media_items.ops import FULLTEXT_PREFIX, QUERY_1COND, QUERY_2COND

    assert describe(Query(QUERY_1COND, year_gt=2010)) == "year > 2010 ORDER BY id LIMIT 10"
    assert describe(Query(QUERY_2COND, year_gt=2010, name="red fox", limit=5, offset=20, sort="none")) == \
        "year > 2010 AND name = 'red fox' LIMIT 5 OFFSET 20"
    assert describe(Query(FULLTEXT, words=("ab", "cd"))) == "'ab' OR 'cd'"
    assert describe(Query(FULLTEXT_PREFIX, words=("ab", "cd"))) == "'ab*' OR 'cd*'"


def test_media_items_loads_in_inserts_of_batchsize_the_last_one_short_and_counts_the_items_they_stored():
    # 120 items in INSERTs of 50: three (50, 50, 20); k of them OK stored min(50 k, 120) items
    w = media_workload(**{"recordcount": "120", "media.batchsize": "50"})
    assert w.load_operations == 3 and w.records_per_operation() == {"INSERT": 50}
    assert [w.loaded_records(k) for k in range(4)] == [0, 50, 100, 120]
    assert sum(n for _, n in w.load_blocks([2, 1])) == 3
    exact = media_workload(**{"recordcount": "100", "media.batchsize": "50"})
    assert exact.load_operations == 2 and exact.loaded_records(2) == 100


def test_online_status_timestamps_fall_in_one_bucket_of_30_days_by_default_as_the_docs_say():
    # docs/studies/structure.md: "Timestamps fall in one bucket by default (online.window_s = online.bucket_s = 30
    # days)"
    props = {k: v for k, v in load_properties("online-status").items() if k not in ("online.window_s",
                                                                                    "online.bucket_s")}
    w = OnlineStatus.from_properties(Properties(props))
    assert w.bucket_s == w.window_s == 30 * 24 * 3600
    assert w.bucket(w.start + 30 * 24 * 3600 - 1) == 0 and w.bucket(w.start + 30 * 24 * 3600) == 1


def test_an_item_of_the_wrong_shape_is_told_in_the_truths_words_else_as_differing():
    from types import SimpleNamespace

    from ycsbctl.workload.media_items.contract import Item
    from ycsbctl.workload.media_items.executor import Checked

    said: list[str | None] = ["item 7 differs in id: 8", None]  # the truth's finding, then none (shape only)
    c = object.__new__(Checked)
    c.w = SimpleNamespace(truth=SimpleNamespace(wrong_item=lambda item_id,
                                                got: said.pop(0)))  # type: ignore[assignment]
    c.shape = (np.zeros(8), np.zeros(8), [""] * 8, [""] * 8)  # type: ignore[misc]
    other = Item(8, "x", 2001, "y")  # another id: wrong before any field is looked at
    assert [c._item_shape_wrong(7, other), c._item_shape_wrong(7, other)] == ["item 7 differs in id: 8",
                                                                              "item 7 differs"]


def test_the_media_items_study_loads_ycsbs_100000_records_unless_told():
    assert Settings.read(Properties({})).records == 100_000
    assert Settings.read(Properties({"recordcount": "1234"})).records == 1234


def test_a_store_without_a_media_items_executor_has_none_and_sqlite_has_its_own():
    from ycsbctl.workload.media_items.contract import MediaStore
    from ycsbctl.workload.media_items.workload import store_class

    assert store_class("nosuchstore") is None
    got = store_class("sqlite")
    assert got is not None and issubclass(got, MediaStore) and got.__module__ == "ycsbctl.stores.sqlite.media_items"


@pytest.mark.parametrize("given, count", [(None, None), ("", None), ("  ", None), ("0", 0), (" 1 ", 1), ("25", 25)])
def test_both_studies_read_operationcount_as_a_count_and_blank_as_left_out(given: str | None, count: int | None):
    """``operationcount`` absent or blank is no count (the phase runs for its time), as
    :meth:`~ycsbctl.workload.properties.Properties.get_int` reads a blank value (its default), not a count of 0;
    a given one is that count, 0 and 1 included."""
    props = {} if given is None else {"operationcount": given}
    assert Properties(props).get_int("operationcount", -1) == (-1 if count is None else count)  # the rule
    assert Settings.read(Properties(props)).operationcount == count
    assert OnlineStatus.from_properties(Properties(props)).operationcount == count
