"""The media-items study on the four stores ycsbctl added for it (Tarantool, ClickHouse, Sphinx, Elasticsearch),
each a real server: its executor answers every query it can exactly as the truth does (the ids of the first
page and the total, checked by the workload's own checks before a point and on every timed operation), reads
back every item whole, updates where it can — and what it cannot answer is refused, with its reason."""

from __future__ import annotations

import pytest

from tests.fixtures.media_items import load_and_check
from ycsbctl.workload.media_items.ops import FULLTEXT, FULLTEXT_PREFIX, UPDATE
from ycsbctl.workload.media_items.workload import store_class

pytestmark = pytest.mark.truth
EVERY_QUERY = ("byid", "1cond", "2cond", "text", "text_prefix")


def test_tarantool_answers_as_the_truth_and_cannot_search_text(tarantool) -> None:
    said, refused = load_and_check(tarantool.url, "tarantool", "mix", ("byid", "1cond", "2cond"))
    assert said == [""] and refused == {FULLTEXT, FULLTEXT_PREFIX}
    said, _ = load_and_check(tarantool.url, "tarantool", "update")
    assert said == [""]
    assert "no full-text index" in store_class("tarantool").refused("")[FULLTEXT]


def test_clickhouse_answers_every_query_as_the_truth_and_cannot_update(clickhouse) -> None:
    said, refused = load_and_check(clickhouse.url, "clickhouse", "mix", EVERY_QUERY)
    assert said == [""] and refused == set()
    assert set(store_class("clickhouse").refused("")) == {UPDATE}


def test_sphinx_answers_every_query_as_the_truth_and_updates_by_replace(sphinx) -> None:
    said, refused = load_and_check(sphinx.url, "sphinx", "mix", EVERY_QUERY)
    assert said == [""] and refused == set()
    said, _ = load_and_check(sphinx.url, "sphinx", "update")
    assert said == [""]


def test_elasticsearch_answers_every_query_as_the_truth(elasticsearch) -> None:
    said, refused = load_and_check(elasticsearch.url, "elasticsearch", "mix", EVERY_QUERY)
    assert said == [""] and refused == set()
    said, _ = load_and_check(elasticsearch.url, "elasticsearch", "update")
    assert said == [""]
