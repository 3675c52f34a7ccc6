"""Sphinx against what searchd itself says: documents of the real-time index read back by the ``mysql`` client
over SphinxQL, statuses on missing and duplicate keys, the engine's searches and deletes as ``SHOW STATUS``
counts them, its inserts as the index's own document count, the footprint as ``SHOW INDEX … STATUS`` says,
and the plan refusing updates before anything starts."""

from __future__ import annotations

import subprocess

import pytest

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.cli import YCSBCTL
from tests.fixtures.server_counters import SPHINX_COUNTERS, sphinx_counters
from tests.fixtures.study_clients import sphinx_mysql
from tests.fixtures.waiting import wait_until
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.stores import registry
from ycsbctl.stores.binding import Status
from ycsbctl.stores.sphinx.admin import status
from ycsbctl.stores.sphinx.stats import SphinxStatusSampler
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.truth




def props(workload: str = "workload-c", **overrides: object) -> dict[str, str]:
    p = dict(load_properties(workload))
    p.update({k: str(v) for k, v in overrides.items()})
    return p


def test_a_record_is_one_document_read_back_by_the_mysql_client(sphinx):
    url = sphinx.url
    registry.for_url(url).clear(url, "usertable")
    values = field_values()

    async def go(bs):
        b = bs[0]
        return [await b.insert("usertable", b"user41", values), await b.insert("usertable", b"user41", values),
                await b.read("usertable", b"user9", None), await b.read_values("usertable", b"user41", [b"field4"]),
                await b.scan("usertable", b"user0", 10, None), await b.delete("usertable", b"user9"),
                await b.insert("usertable", b"user43", values), await b.delete("usertable", b"user43")]

    ins, dup, missing, (st, got), scan, nf_delete, ins2, deleted = run_bindings(go, url)
    assert (ins, dup, missing, st, scan, nf_delete) == (Status.OK, Status.ERROR, Status.NOT_FOUND, Status.OK,
                                                          Status.OK, Status.NOT_FOUND)
    assert (ins2, deleted) == (Status.OK, Status.OK) and got == {b"field4": dict(values)[b"field4"]}
    (row,) = sphinx_mysql(url, "SELECT * FROM usertable WHERE id = 42")
    assert row == ["42", "user41", *(v.decode() for _, v in values)]  # id = the key's number + 1
    assert sphinx_mysql(url, "SELECT COUNT(*) FROM usertable") == [["1"]]


def test_engine_counts_are_searchds_searches_and_the_indexs_documents(sphinx):
    url = sphinx.url
    registry.for_url(url).clear(url, "usertable")
    load = run_phase(PhaseSpec("load", url, props(recordcount=300), threads=3, processes=1))
    assert load.status == "ok", load.errors
    assert load.ops["INSERT"].returns == {"OK": 300}
    assert sphinx_mysql(url, "SELECT COUNT(*) FROM usertable") == [["300"]]
    sampler = SphinxStatusSampler(url, interval_s=0.5)
    sampler.start()
    wait_until(lambda: len(sampler.rows) >= 1, what="the sampler's first row")
    before = sphinx_counters(url)
    run = run_phase(PhaseSpec("run", url, props(recordcount=600, operationcount=2000, readproportion=0.8,
                                                scanproportion=0.1, insertproportion=0.1, maxscanlength=10,
                                                requestdistribution="uniform"), threads=4, processes=2))

    async def deletes(bs):  # 150 deletes of keys never stored: searchd counts each (command_delete)
        return [await bs[0].delete("usertable", b"gone%d" % i) for i in range(150)]

    assert set(run_bindings(deletes, url)) == {Status.NOT_FOUND}
    after = sphinx_counters(url)
    seen = len(sampler.rows)
    wait_until(lambda: len(sampler.rows) >= seen + 1, what="a row after the run")
    frame = sampler.stop()
    assert run.status == "ok", run.errors
    reads, scans, inserts = (run.ops[k].returns for k in ("READ", "SCAN", "INSERT"))
    assert sum(reads.values()) + sum(scans.values()) + sum(inserts.values()) == 2000
    assert reads.get("OK", 0) > 0 and reads.get("NOT_FOUND", 0) > 0
    d = {k: after[k] - before[k] for k in SPHINX_COUNTERS}
    assert (
        d["command_search"] == d["queries"] == sum(reads.values()) + sum(scans.values()) and d["command_delete"] == 150
    )
    assert (
        int(sphinx_mysql(url, "SELECT COUNT(*) FROM usertable")[0][0])
        == 300 + inserts["OK"]
        == 300 + sum(inserts.values())
    )
    # the sampler's SHOW STATUS is no search: its rates add up to the engine's searches (± the rows' timing)
    elapsed = frame["t_mono"].diff().fillna(0.0)
    assert sampler.warning is None
    assert (frame["command_search_per_s"] * elapsed).sum() == pytest.approx(d["command_search"], rel=0.1)
    assert (frame["command_delete_per_s"] * elapsed).sum() == pytest.approx(150, rel=0.1)
    assert (frame["ops_per_s"] * elapsed).sum() == pytest.approx(d["command_search"] + 150, rel=0.1)


def test_the_footprint_is_the_indexes_own_bytes_and_documents(sphinx):
    url = sphinx.url
    proto = registry.for_url(url)
    proto.clear(url, "usertable")
    load = run_phase(PhaseSpec("load", url, props(recordcount=100), threads=2, processes=1))
    assert load.status == "ok", load.errors
    reading = proto.reading(url)
    # every index searchd serves (usertable and the media-items study's items), each as the mysql client reads it
    each = {name: dict(sphinx_mysql(url, f"SHOW INDEX {name} STATUS")) for name, *_ in sphinx_mysql(url, "SHOW TABLES")}
    assert set(each) == {"usertable", "items"} and int(each["usertable"]["indexed_documents"]) == 100
    assert reading.keys == sum(int(s["indexed_documents"]) for s in each.values())
    own = sum(float(s["ram_bytes"]) + float(s["disk_bytes"]) for s in each.values())
    assert reading.db_memory_bytes == own >= 100 * 10 * 100


def test_a_workload_with_updates_is_refused_before_anything_starts(sphinx):
    url = sphinx.url
    before = status(url)["connections"]
    r = subprocess.run([YCSBCTL, "run", "workload-a", "--target", url, "--records", "10", "--operations", "10"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "workloada has UPDATE operations, which" in r.stderr and "numeric attributes only" in r.stderr
    assert int(status(url)["connections"]) - int(before) == 1  # only this count's own connection came


def test_sphinx_is_named_by_the_version_its_greeting_says_without_the_build_suffix(sphinx):
    # searchd's SphinxQL greeting says e.g. "2.2.11-id64-release (95ae9a6)": the release number is its first part
    from ycsbctl.stores.sphinx.admin import server_version

    said = server_version(sphinx.url)
    facts = registry.for_url(sphinx.url).describe(sphinx.url)
    number = said.split("-", 1)[0]
    assert number.replace(".", "").isdigit() and said.startswith(number + "-")
    assert (facts.name, facts.version) == (f"Sphinx {number} (real-time index, no binary log)", number)


def test_the_samplers_operations_are_its_searches_plus_its_deletes_exactly(sphinx):
    """Between the sampler's two reads: 5 reads (SphinxQL SELECTs: searches) and 7 deletes. Its rates times the span
    between its reads are those counts exactly — ops 12, not 5 (deletes left out) nor 7 — as searchd's own SHOW
    STATUS, read by the mysql client around them, counts them (its SHOW STATUS is no search)."""
    url = sphinx.url
    registry.for_url(url).clear(url, "usertable")
    sampler = SphinxStatusSampler(url)

    def shown() -> dict[str, int]:  # searchd's counters as the mysql client reads them
        return {k: int(v) for k, v in sphinx_mysql(url, "SHOW STATUS") if k in ("command_search", "command_delete")}

    async def go(bs):
        sampler.prime()
        t0 = sampler._t
        for i in range(5):
            await bs[0].read("usertable", b"user%d" % i, None)
        for i in range(7):
            await bs[0].delete("usertable", b"gone%d" % i)
        return sampler.sample(), sampler._t - t0

    before = shown()
    row, span = run_bindings(go, url)
    after = shown()
    counts = {k: round(row[k] * span, 6) for k in ("ops_per_s", "command_search_per_s", "command_delete_per_s")}
    assert counts == {"ops_per_s": 12, "command_search_per_s": 5, "command_delete_per_s": 7}, counts
    assert {k: after[k] - before[k] for k in after} == {"command_search": 5, "command_delete": 7}
