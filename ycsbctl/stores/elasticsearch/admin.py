"""Elasticsearch's admin calls (``/``, ``_stats``, ``_nodes/stats``, ``_count``, index creation and deletion) on
connections of their own (:func:`ycsbctl.stores.http1.request`: each reply whole within its deadline), never in the
timed path."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from ycsbctl.stores import http1

DEFAULT_PORT = 9200
INDEX = "es.ycsb"  # YCSB's elasticsearch binding: es.index.key


def address(url: str) -> tuple[str, int]:
    """(host, port) of an ``elasticsearch://host[:port]`` URL."""
    u = urlsplit(url)
    return u.hostname or "127.0.0.1", u.port or DEFAULT_PORT


def call(url: str, method: str, path: str, body: Any = None, timeout_s: float = 5.0) -> tuple[int, Any]:
    """(HTTP status, decoded JSON body) of one request; a refused request is its status and its error body."""
    host, port = address(url)
    data = json.dumps(body).encode() if body is not None else None
    r = http1.request(host, port, method, path, data, headers={"Content-Type": "application/json"} if data else None,
                      timeout_s=timeout_s, server=f"elasticsearch at {host}:{port}")  # the whole reply within timeout_s
    if r.status < 300:
        return r.status, json.loads(r.body) if r.body else None
    try:
        return r.status, json.loads(r.body) if r.body else None
    except ValueError:
        return r.status, r.body.decode(errors="replace")


def ok(url: str, method: str, path: str, body: Any = None, timeout_s: float = 5.0) -> Any:
    """The decoded body of a request that must succeed; ``ConnectionError`` with Elasticsearch's reason else."""
    status, got = call(url, method, path, body, timeout_s)
    if status >= 300:
        reason = got.get("error") if isinstance(got, dict) else got
        raise ConnectionError(f"Elasticsearch refused {method} {path}: {json.dumps(reason)[:300]} (HTTP {status})")
    return got


def core_workload(properties: dict[str, str]) -> bool:
    """Whether the workload is YCSB's CoreWorkload, whose index the store creates (a workload plug-in such as
    media-items creates its own through its executor)."""
    from ycsbctl.workload.plugin import CORE_PLUGIN, class_path
    from ycsbctl.workload.properties import Properties

    return class_path(Properties(properties)) == CORE_PLUGIN


def mapping(table: str, fields: list[str]) -> dict[str, Any]:
    """YCSB's index: one shard, no replica, its translog synced every 5 s rather than at each request
    (``index.translog.durability: async``: the in-memory-like setting of every store here); the type ``table``
    with the key as a keyword (scans range over it) and each field a string kept in ``_source`` only (neither
    indexed nor in doc values: YCSB never searches it)."""
    props: dict[str, Any] = {"key": {"type": "keyword"}}
    props.update({f: {"type": "keyword", "index": False, "doc_values": False} for f in fields})
    return {"settings": {"number_of_shards": 1, "number_of_replicas": 0, "index.translog.durability": "async"},
            "mappings": {table: {"dynamic": "strict", "properties": props}}}


def ensure_index(url: str, index: str, table: str, fields: list[str], timeout_s: float = 60.0) -> None:
    """Create ``index`` with :func:`mapping` unless it exists, and wait for it to be green."""
    status, _ = call(url, "HEAD", f"/{index}")
    if status == 404:
        status, got = call(url, "PUT", f"/{index}", mapping(table, fields), timeout_s)
        if status >= 300 and not (isinstance(got, dict) and "already_exists" in json.dumps(got)):
            raise ConnectionError(f"Elasticsearch refused to create {index}: {json.dumps(got)[:300]}")
    ok(url, "GET", f"/_cluster/health/{index}?wait_for_status=green&timeout={int(timeout_s)}s", timeout_s=timeout_s + 5)


def index_stats(url: str, index: str = INDEX) -> dict[str, Any]:
    """``_stats`` of ``index`` (``total``: get, indexing, search, docs, store); {} when it does not exist, or none of
    its shards has started: an index a load's first insert has just created (every load's first second), or one whose
    shards cannot be placed, answers 200 with no ``indices`` entry (was a KeyError that stopped the sampler). Another
    refusal raises ``ConnectionError`` with Elasticsearch's reason."""
    path = f"/{index}/_stats/get,indexing,search,docs,store"
    status, got = call(url, "GET", path)
    if status == 404:
        return {}
    if status >= 300 or not isinstance(got, dict):
        raise ConnectionError(f"Elasticsearch refused GET {path}: {json.dumps(got)[:300]} (HTTP {status})")
    return got.get("indices", {}).get(index, {}).get("total", {})


def all_stats(url: str) -> dict[str, Any]:
    """``_stats`` (docs, store) summed over every index (``_all``'s ``total``: YCSB's ``es.ycsb``, a workload
    plug-in's ``items``); {} when there is none."""
    return ok(url, "GET", "/_stats/docs,store").get("_all", {}).get("total", {})


def node_stats(url: str) -> dict[str, Any]:
    """The (single) node's process and JVM figures (``_nodes/_local/stats/process,jvm``)."""
    got = ok(url, "GET", "/_nodes/_local/stats/process,jvm")
    return next(iter(got["nodes"].values()))


def index_of(url: str, table: str) -> str | None:
    """The index holding ``table``'s records: an index of that name (a workload plug-in's: ``items``), else YCSB's
    ``es.ycsb`` when ``table`` is one of its mapping types; None when neither exists."""
    status, _ = call(url, "HEAD", f"/{table}")
    if status == 200 and table != INDEX:
        return table
    status, got = call(url, "GET", f"/{INDEX}/_mapping")
    types = got.get(INDEX, {}).get("mappings", {}) if status == 200 and isinstance(got, dict) else {}
    return INDEX if table in types else None
