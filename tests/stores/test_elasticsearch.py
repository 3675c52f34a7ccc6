"""Elasticsearch against what Elasticsearch itself says: documents in YCSB's index read back with ``curl``,
statuses on missing and existing keys, the engine's operations as the index's own ``_stats`` count them (gets,
documents indexed and refused, searches), and the footprint as ``_stats`` says. One node for the module (its
JVM's start is the slow part)."""

from __future__ import annotations

import glob
import os
import time

import psutil
import pytest

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.server_counters import elasticsearch_counts
from tests.fixtures.study_clients import elasticsearch_curl
from tests.fixtures.waiting import wait_until
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.provision import state
from ycsbctl.stores import registry
from ycsbctl.stores.binding import Status
from ycsbctl.stores.elasticsearch.admin import node_stats
from ycsbctl.stores.elasticsearch.stats import ElasticsearchStatsSampler
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.truth


def props(**overrides: object) -> dict[str, str]:
    p = dict(load_properties("workload-a"))
    p.update({k: str(v) for k, v in overrides.items()})
    return p


def test_a_record_is_one_document_of_ycsbs_index_read_back_with_curl(elasticsearch):
    url = elasticsearch.url
    registry.for_url(url).clear(url, "usertable")
    values = field_values()

    async def go(bs):
        b = bs[0]
        return [await b.insert("usertable", b"user1", values), await b.insert("usertable", b"user1", values),
                await b.update("usertable", b"user1", [(b"field3", b"x'\"\\y")]),
                await b.read("usertable", b"user2", None), await b.update("usertable", b"user2", values[:1]),
                await b.delete("usertable", b"user2"), await b.read_values("usertable", b"user1", [b"field3"]),
                await b.scan("usertable", b"user0", 5, None)]

    ins, dup, upd, missing, nf_update, nf_delete, (st, got), scan = run_bindings(go, url)
    assert (ins, dup, upd, st, scan) == (Status.OK, Status.ERROR, Status.OK, Status.OK, Status.OK)
    assert (missing, nf_update, nf_delete) == (Status.NOT_FOUND,) * 3 and got == {b"field3": b"x'\"\\y"}
    doc = elasticsearch_curl(url, "/es.ycsb/usertable/user1")
    expected = {n.decode(): v.decode() for n, v in values} | {"field3": "x'\"\\y", "key": "user1"}
    assert doc["found"] and doc["_source"] == expected
    mapping = elasticsearch_curl(url, "/es.ycsb/_mapping")["es.ycsb"]["mappings"]["usertable"]["properties"]
    assert mapping["key"] == {"type": "keyword"} and mapping["field0"]["index"] is False
    # the JVM's temporary folder is in the server's data folder (removed at stop), and its start left none in /tmp
    server, data_dir = psutil.Process(elasticsearch.pid), state.find(f"local:{elasticsearch.pid}")["data_dir"]
    assert f"-Djava.io.tmpdir={data_dir}/tmp" in server.cmdline()
    since, uid = server.create_time(), server.uids().real
    assert [p for p in glob.glob("/tmp/elasticsearch-*")
            if os.stat(p).st_uid == uid and os.stat(p).st_ctime >= since - 1] == []


def test_engine_counts_per_operation_equal_the_indexs_own_stats(elasticsearch):
    url = elasticsearch.url
    registry.for_url(url).clear(url, "usertable")
    load = run_phase(PhaseSpec("load", url, props(recordcount=100), threads=2, processes=1))
    assert load.status == "ok", load.errors
    assert load.ops["INSERT"].returns == {"OK": 100} and elasticsearch_counts(url)["indexed"] == 100
    sampler = ElasticsearchStatsSampler(url, interval_s=0.5)
    sampler.start()
    wait_until(lambda: len(sampler.rows) >= 1, what="the sampler's first row")
    before = elasticsearch_counts(url)
    run = run_phase(PhaseSpec("run", url, props(recordcount=200, operationcount=300, readproportion=0.5,
                                                updateproportion=0.3, insertproportion=0.1, scanproportion=0.1,
                                                requestdistribution="uniform", maxscanlength=10),
                              # one client: no update meets another's (a retry would get again)
                              threads=1, processes=1))
    after = elasticsearch_counts(url)
    seen = len(sampler.rows)
    wait_until(lambda: len(sampler.rows) >= seen + 1, what="a row after the run")
    frame = sampler.stop()
    assert run.status == "ok", run.errors
    reads, updates, inserts, scans = (run.ops[k].returns for k in ("READ", "UPDATE", "INSERT", "SCAN"))
    assert sum(map(sum, (r.values() for r in (reads, updates, inserts, scans)))) == 300
    assert reads.get("NOT_FOUND", 0) > 0 and updates.get("NOT_FOUND", 0) > 0 and reads.get("OK", 0) > 0
    d = {k: after[k] - before[k] for k in after}
    # an update is a get then, when the document exists, an index of the merged document
    assert (
        d["get_exists"] == reads["OK"] + updates["OK"] and d["get_missing"] == reads["NOT_FOUND"] + updates["NOT_FOUND"]
    )
    assert d["indexed"] == inserts["OK"] + updates["OK"] and d["index_failed"] == inserts.get("ERROR", 0) == 0
    assert d["searches"] == sum(scans.values()) and d["deleted"] == 0
    # the sampler's rates add up to the index's own counters over the run (± the rows' timing)
    elapsed = frame["t_mono"].diff().fillna(0.0)
    assert sampler.warning is None
    assert (frame["get_per_s"] * elapsed).sum() == pytest.approx(d["get_exists"] + d["get_missing"], rel=0.1)
    assert (frame["index_per_s"] * elapsed).sum() == pytest.approx(d["indexed"], rel=0.1)
    assert frame["db_cpu_pct"].max() > 0 and frame["db_used_memory_bytes"].iloc[-1] > 0
    assert registry.for_url(url).count(url, "usertable") == 100 + inserts["OK"]


def test_the_footprint_is_every_indexs_store_size_and_documents(elasticsearch):
    url = elasticsearch.url
    proto = registry.for_url(url)
    reading = proto.reading(url)  # (after the previous test's records; it refreshes the indexes first)
    # every index of the node (es.ycsb, and the media-items study's items when its tests ran first), as curl sums them
    indices = elasticsearch_curl(url, "/_stats/store,docs")["indices"]
    assert "es.ycsb" in indices and indices["es.ycsb"]["total"]["docs"]["count"] > 0
    assert reading.keys == sum(s["total"]["docs"]["count"] for s in indices.values())
    size = sum(s["total"]["store"]["size_in_bytes"] for s in indices.values())
    assert reading.db_memory_bytes == size >= reading.keys * 10 * 100 / 4  # compressed


def test_count_is_the_indexs_own_count_and_clear_deletes_the_index(elasticsearch):
    url = elasticsearch.url
    proto = registry.for_url(url)
    proto.clear(url, "usertable")
    assert proto.count(url, "usertable") == 0  # no index at all
    run_bindings(lambda bs: _insert_three(bs[0]), url)
    assert proto.count(url, "usertable") == elasticsearch_curl(url, "/es.ycsb/_count")["count"] == 3  # count refreshed
    proto.clear(url, "usertable")
    assert elasticsearch_curl(url, "/es.ycsb")["status"] == 404 and proto.count(url, "usertable") == 0


async def _insert_three(b) -> None:
    for key in (b"user1", b"user2", b"user3"):
        assert await b.insert("usertable", key, field_values()) == Status.OK


def test_the_nodes_cpu_seconds_are_its_process_cpu_time_as_the_kernel_counts_it(elasticsearch):
    # _nodes/stats gives the JVM's process CPU in ms, read again when its figure is a second old: after a
    # second with no call it is read during the call, between the kernel's counts before and after it (a
    # unit off by 1 % is ~0.1 s outside: the JVM's start alone is several CPU seconds)
    from ycsbctl.stores.elasticsearch.admin import index_stats, node_stats
    from ycsbctl.stores.elasticsearch.stats import counters

    jvm = psutil.Process(elasticsearch.pid)
    jvm = next((c for c in jvm.children(recursive=True) if "java" in c.name()), jvm)

    def kernel() -> float:
        t = jvm.cpu_times()
        return t.user + t.system

    stats = index_stats(elasticsearch.url)
    time.sleep(1.1)  # the node's cached figure has expired
    low = kernel()
    cpu_s = counters(stats, node_stats(elasticsearch.url))["cpu_s"]
    high = kernel()
    assert low > 3.0 and low - 0.04 <= cpu_s <= high + 0.02  # ± the counters' ticks (10 ms)


def test_the_sampler_gives_no_figures_while_the_index_has_no_started_shard_then_the_indexs_own(elasticsearch):
    """An index that exists before any shard of it has started (every load's first second: its first insert creates
    it) answers ``_stats`` 200 without an entry for it; the sampler stopped there with a KeyError on the index, at
    every load. Held so here (its shard required on a node that does not exist): rows without figures and no warning;
    once the shard is placed, the documents the sampler reads are the index's own ``_count``."""
    import uuid

    from ycsbctl.stores.elasticsearch.admin import ok

    url, index = elasticsearch.url, f"unplaced-{uuid.uuid4().hex[:8]}"
    ok(url, "PUT", f"/{index}?wait_for_active_shards=0", {"settings": {"number_of_shards": 1, "number_of_replicas": 0,
                                             "index.routing.allocation.require._name": "no-such-node"}})
    sampler = ElasticsearchStatsSampler(url, interval_s=0.2, index=index)
    try:
        assert elasticsearch_curl(url, f"/{index}/_stats")["indices"] == {}  # the node's own answer: no figures
        sampler.start()
        wait_until(lambda: len(sampler.rows) >= 2 or sampler.warning, what="two rows while the shard is unplaced")
        unplaced = list(sampler.rows)
        ok(url, "PUT", f"/{index}/_settings", {"index.routing.allocation.require._name": None})
        ok(url, "PUT", f"/{index}/_doc/1?refresh=true", {"a": 1}, timeout_s=30.0)
        wait_until(lambda: (sampler.rows and sampler.rows[-1].get("keys") == 1) or sampler.warning,
                   what="the document in a row")
        frame = sampler.stop()
        counted = elasticsearch_curl(url, f"/{index}/_count")["count"]
    finally:
        sampler.stop()
        ok(url, "DELETE", f"/{index}")
    assert sampler.warning is None
    assert unplaced and all(r["keys"] is None and r["index_per_s"] is None for r in unplaced), unplaced
    assert frame["keys"].iloc[-1] == counted == 1


def test_the_samplers_rates_are_the_index_requests_sent_between_its_two_reads(elasticsearch, monkeypatch):
    """Between prime() and sample(): 2 inserts, 3 reads (one of a missing key), an update (a get, then an index of
    the merged document), a delete and a scan. Times the span between the sampler's two reads, its rates are those
    counts as the index's own stats count them (gets 4, indexed 3, deleted 1, searches: one per shard); its CPU %
    is the node's process CPU milliseconds between the two _nodes/stats it read (kept as the node answered them),
    per second of the span, times 100; its heap and documents those of the second."""
    import asyncio
    import uuid

    from ycsbctl.stores.elasticsearch import stats

    nodes: list[dict] = []
    monkeypatch.setattr(stats, "node_stats", lambda url: nodes.append(node_stats(url)) or nodes[-1])

    url = elasticsearch.url  # keys of this test's own: the index is not cleared (making it again takes ~3 s)
    values, e1, e2 = field_values(2), b"e1" + uuid.uuid4().hex.encode(), b"e2" + uuid.uuid4().hex.encode()
    sampler = ElasticsearchStatsSampler(url)

    async def go(bs):
        b = bs[0]
        sampler.prime()
        t0 = sampler._t
        for key in (e1, e2):
            assert await b.insert("usertable", key, values) == Status.OK
        for key in (e1, e2, b"nokey"):
            await b.read("usertable", key, None)
        await b.update("usertable", e1, [(values[0][0], b"changed")])  # the same value would be a noop: no index
        await b.delete("usertable", e2)
        await b.scan("usertable", b"e0", 5, None)
        # the node refreshes its process CPU figure once a second (monitor.process.refresh_interval): a later one
        await asyncio.sleep(max(0.0, 1.1 - (time.monotonic() - t0)))
        row = sampler.sample()
        return row, sampler._t - t0

    row, span = run_bindings(go, url)
    shards = int(elasticsearch_curl(url, "/es.ycsb/_settings")["es.ycsb"]["settings"]["index"]["number_of_shards"])
    counts = {k: round(row[k] * span, 6) for k in ("get_per_s", "index_per_s", "delete_per_s", "search_per_s")}
    assert counts == {"get_per_s": 4, "index_per_s": 3, "delete_per_s": 1, "search_per_s": shards}, counts
    cpu_ms = [n["process"]["cpu"]["total_in_millis"] for n in nodes]
    assert len(nodes) == 2 and cpu_ms[1] > cpu_ms[0]  # the node worked between them (a second apart): a rate, not 0
    assert row["db_cpu_pct"] == pytest.approx((cpu_ms[1] - cpu_ms[0]) / 1000.0 / span * 100.0, rel=1e-9)
    assert row["db_used_memory_bytes"] == nodes[1]["jvm"]["mem"]["heap_used_in_bytes"] > 0
