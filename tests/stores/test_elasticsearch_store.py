"""Elasticsearch's store (stores/elasticsearch/store.py): a server without the index holds 0 bytes and
0 documents."""

from __future__ import annotations


def test_an_elasticsearch_server_without_an_index_holds_0_bytes_and_0_documents(monkeypatch):
    # _stats of a node without an index, as Elasticsearch 8 answers it: {"_all": {"primaries": {}, "total": {}}, ...}
    from ycsbctl.stores import registry
    from ycsbctl.stores.base import Reading
    from ycsbctl.stores.elasticsearch import admin

    asked: list[tuple[str, str]] = []

    def answer(url: str, method: str, path: str, *args, **kwargs) -> object:
        asked.append((method, path))
        return {"_shards": {"total": 0}, "_all": {"primaries": {}, "total": {}}, "indices": {}}

    monkeypatch.setattr(admin, "call", answer)
    monkeypatch.setattr(admin, "ok", answer)
    url = "elasticsearch://127.0.0.1:1"
    assert registry.for_url(url).reading(url) == Reading(0.0, None, 0)
    assert asked == [("POST", "/_refresh"), ("GET", "/_stats/docs,store")]
