"""Tarantool against what Tarantool itself says: records in YCSB's tarantool layout read back by the
``tarantool`` binary's own client (net.box), statuses on missing and duplicate keys, and the engine's counts
per operation against the server's own request counters (``box.stat()``), the sampler's rates included."""

from __future__ import annotations

import json

import pytest

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.samplers import one_sample
from tests.fixtures.server_counters import tarantool_counters, tarantool_delta
from tests.fixtures.study_clients import tarantool_console
from tests.fixtures.waiting import wait_until
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.stores import registry
from ycsbctl.stores.binding import ChainContext, Status
from ycsbctl.stores.tarantool.stats import TarantoolStatSampler
from ycsbctl.workload.core import READ, UPDATE
from ycsbctl.workload.properties import load_properties

pytestmark = pytest.mark.truth


def props(**overrides: object) -> dict[str, str]:
    p = dict(load_properties("workload-a"))
    p.update({k: str(v) for k, v in overrides.items()})
    return p


def test_a_record_is_one_tuple_of_ycsbs_layout_read_back_by_tarantools_own_client(tarantool):
    url = tarantool.url
    registry.for_url(url).clear(url, "usertable")
    values = field_values()

    names = [b"field%d" % i for i in range(10)]
    chained: list[int] = []
    ctx = ChainContext(record=lambda op, st, *_: chained.append(st), names=[tuple(names)] + [(n,) for n in names],
                       values=lambda f: [b"y" * 5], ack=None, deadline_ns=2**63 - 1, stop_on_error=False)

    async def write(bs):
        return [await bs[0].insert("usertable", b"user1", values),
                await bs[0].update("usertable", b"user1", [(b"field3", b"x" * 7)]),
                # field4, chained; then a chained read of the record, and of one never stored
                await bs[0].chain(ctx, ([UPDATE, READ, READ], [b"user1", b"user1", b"user2"], [1, 1, 2], [-1, -1, 3],
                                        [4, -1, -1]), 0, 3)]

    assert run_bindings(write, url) == [Status.OK, Status.OK, (3, 0)]
    assert chained == [Status.OK, Status.OK, Status.NOT_FOUND]
    tup = json.loads(tarantool_console(url, "print(require('json').encode(c.space.ycsb:get('user1')))"))
    expected = dict(values) | {b"field3": b"x" * 7, b"field4": b"y" * 5}
    # [key, name, value, …] in the workload's field order, the update in place
    assert tup == ["user1", *[s.decode() for n in sorted(expected, key=lambda n: int(n[5:])) for s in (n, expected[n])]]
    assert tarantool_console(url, "print(c.space.ycsb.index.primary.parts[1].type, c.space.ycsb.id)") == "string\t1024"


def test_missing_keys_are_not_found_a_stored_key_refuses_a_second_insert_and_a_scan_is_ok(tarantool):
    url = tarantool.url
    registry.for_url(url).clear(url, "usertable")
    values = field_values(3)

    async def go(bs):
        b = bs[0]
        out = [await b.read("usertable", b"nokey", None), await b.update("usertable", b"nokey", values[:1]),
               await b.delete("usertable", b"nokey"), await b.insert("usertable", b"k1", values),
               await b.insert("usertable", b"k1", values)]
        error = b.last_error
        out += [await b.scan("usertable", b"k0", 10, None), await b.read_values("usertable", b"k1", [b"field1"]),
                await b.delete("usertable", b"k1"), await b.read("usertable", b"k1", None)]
        return out, error

    (nf_read, nf_update, nf_delete, ins, dup, scan, (st, got), deleted, gone), error = run_bindings(go, url)
    assert (nf_read, nf_update, nf_delete) == (Status.NOT_FOUND,) * 3
    assert ins == Status.OK and dup == Status.ERROR and "Duplicate key" in (error or "")
    assert scan == Status.OK and st == Status.OK and got == {b"field1": dict(values)[b"field1"]}
    assert deleted == Status.OK and gone == Status.NOT_FOUND


def test_engine_counts_per_operation_equal_box_stat_and_the_samplers_rates_add_up(tarantool):
    url = tarantool.url
    registry.for_url(url).clear(url, "usertable")
    before = tarantool_counters(url)
    load = run_phase(PhaseSpec("load", url, props(recordcount=300), threads=3, processes=1))
    after = tarantool_counters(url)
    assert load.status == "ok", load.errors
    assert tarantool_delta(before, after)["INSERT"] == load.ops["INSERT"].returns["OK"] == 300
    assert registry.for_url(url).count(url, "usertable") == 300

    # Reads and updates over twice the keys loaded (half miss), inserts past the end; two worker processes,
    # chained (the engine's fast path) — with the sampler running around them.
    sampler = TarantoolStatSampler(url, interval_s=0.5)
    sampler.start()
    wait_until(lambda: len(sampler.rows) >= 1, what="the sampler's first row")
    before = tarantool_counters(url)
    run = run_phase(PhaseSpec("run", url, props(recordcount=600, operationcount=2000, readproportion=0.6,
                                                updateproportion=0.3, insertproportion=0.1,
                                                requestdistribution="uniform"), threads=4, processes=2))
    after = tarantool_counters(url)
    seen = len(sampler.rows)
    wait_until(lambda: len(sampler.rows) >= seen + 1, what="a row after the run")
    frame = sampler.stop()
    d = tarantool_delta(before, after)
    reads, updates, inserts = (run.ops[k].returns for k in ("READ", "UPDATE", "INSERT"))
    assert run.operations == 2000 and sum(reads.values()) + sum(updates.values()) + sum(inserts.values()) == 2000
    assert reads.get("NOT_FOUND", 0) > 0 and updates.get("NOT_FOUND", 0) > 0 and reads.get("OK", 0) > 0
    assert d["SELECT"] == sum(reads.values()) and d["UPDATE"] == sum(updates.values())
    assert d["INSERT"] == sum(inserts.values()) == inserts["OK"] and d["ERROR"] == 0 and d["REPLACE"] == 0
    assert registry.for_url(url).count(url, "usertable") == 300 + inserts["OK"]
    # the sampler's own EVALs are no data requests: its rates add up to the engine's operations (± row timing)
    assert sampler.warning is None
    elapsed = frame["t_mono"].diff().fillna(0.0)
    assert (frame["ops_per_s"] * elapsed).sum() == pytest.approx(2000, rel=0.1)
    assert (frame["select_per_s"] * elapsed).sum() == pytest.approx(d["SELECT"], rel=0.1)
    assert frame["keys"].iloc[-1] == 300 + inserts["OK"]


def _user_space_bytes(url: str) -> int:
    """Every user space (ids from 512, as the server's _space and _index list them) with each of its indexes."""
    return int(tarantool_console(url, "print(c:eval('local b = 0 for _, t in box.space._space:pairs(512, "
                                      "{iterator = \"GE\"}) do local s = box.space[t[1]] b = b + s:bsize() "
                                      "for _, x in box.space._index:pairs({t[1]}) do b = b + s.index[x[2]]:bsize() "
                                      "end end return b'))"))


def test_the_footprint_is_the_user_spaces_and_their_indexes_own_bytes_and_tuples(tarantool):
    url = tarantool.url
    proto = registry.for_url(url)
    proto.clear(url, "usertable")
    empty = proto.reading(url)
    assert empty.db_memory_bytes == _user_space_bytes(url)  # what an empty space and its indexes hold, even 0
    load = run_phase(PhaseSpec("load", url, props(recordcount=200), threads=2, processes=1))
    assert load.status == "ok", load.errors
    full = proto.reading(url)
    assert empty.keys == 0 and full.keys == 200 and full.db_memory_bytes == _user_space_bytes(url)
    assert full.db_memory_bytes - empty.db_memory_bytes >= 200 * 10 * 100  # at least the field bytes


def test_the_samplers_memory_is_the_ycsb_spaces_own_bytes_and_its_indexes_and_its_keys_its_tuples(tarantool):
    """Empty (the space cleared: 0 bytes of tuples, 0 keys), then after a load of 150 records: ``db_used_memory_bytes``
    is ``space:bsize()`` plus each index's ``bsize()`` as the server's console says (not one of them alone), ``keys``
    the space's ``len()``."""
    url = tarantool.url
    registry.for_url(url).clear(url, "usertable")
    bsizes = ("print(require('json').encode(c:eval('local s = box.space.ycsb local ix = 0 for k, i in pairs(s.index) "
              "do if type(k) == \"number\" then ix = ix + i:bsize() end end return {s:bsize(), ix, s:len()}')))")
    empty = one_sample(TarantoolStatSampler(url))
    space, index, tuples = json.loads(tarantool_console(url, bsizes))
    assert space == 0 and tuples == 0 and (empty["db_used_memory_bytes"], empty["keys"]) == (index, 0)  # nothing stored
    load = run_phase(PhaseSpec("load", url, props(recordcount=150), threads=2, processes=1))
    assert load.status == "ok", load.errors
    space, index, tuples = json.loads(tarantool_console(url, bsizes))
    row = one_sample(TarantoolStatSampler(url))
    assert space > 0 and index > 0 and tuples == 150
    assert (row["db_used_memory_bytes"], row["keys"]) == (space + index, 150)


def test_describe_count_and_clear_say_what_net_box_reads_from_the_server(tarantool):
    url = tarantool.url
    proto = registry.get("tarantool")
    truth = json.loads(tarantool_console(url, "local v, cfg = c:eval('return box.info.version, box.cfg') "
                                              "print(require('json').encode({v = v, cfg = cfg}))"))
    facts = proto.describe(url)
    version = truth["v"].split("-")[0]
    assert (facts.name, facts.version) == (f"Tarantool {version} (wal_mode={truth['cfg']['wal_mode']})", version)
    assert {k: facts.traits[k] for k in ("wal_mode", "memtx_memory", "readahead", "net_msg_max")} == \
        {k: truth["cfg"][k] for k in ("wal_mode", "memtx_memory", "readahead", "net_msg_max")}
    assert "listen" not in facts.traits and facts.config["box.cfg"]["listen"] == truth["cfg"]["listen"]
    proto.clear(url, "usertable")
    run_bindings(lambda bs: _insert(bs[0], [b"user1", b"user2", b"user3"]), url)
    assert proto.count(url, "usertable") == int(tarantool_console(url,
                                                                  "print(c:eval('return box.space.ycsb:len()'))")) == 3
    proto.clear(url, "usertable")
    assert proto.count(url, "usertable") == int(tarantool_console(url,
                                                                  "print(c:eval('return box.space.ycsb:len()'))")) == 0
    assert proto.count(url, "no_such_space") == 0


async def _insert(b, keys: list[bytes]) -> None:
    for key in keys:
        assert await b.insert("usertable", key, field_values()) == Status.OK


def test_the_server_is_one_core_at_most_its_transaction_thread_within_the_limit():
    proto = registry.get("tarantool")
    assert [proto.server_cores("local:1", limit) for limit in (8.0, 1.0, 0.5)] == [1.0, 1.0, 0.5]


def test_the_samplers_rates_are_the_requests_sent_between_its_two_reads(tarantool):
    """Between prime() and sample(): 3 reads (one of a missing key), 3 inserts (the third a duplicate: an ERROR),
    2 updates (one of a missing key) and a delete. Times the span between the sampler's two reads, its rates are
    those counts exactly, each kind its own (the sampler's own EVALs are no data requests). close() lets its
    admin connection go: the server's open connections are back to what they were."""
    url = tarantool.url

    def connections() -> int:  # open on the server, as it counts them (this console's own included)
        return int(tarantool_console(url, "print(c:eval('return box.stat.net().CONNECTIONS.current'))"))

    open_before = connections()
    registry.for_url(url).clear(url, "usertable")
    values = field_values(2)
    sampler = TarantoolStatSampler(url)

    async def go(bs):
        b = bs[0]
        sampler.prime()
        t0 = sampler._t
        for key in (b"s1", b"s2"):
            await b.insert("usertable", key, values)
        await b.insert("usertable", b"s1", values)
        for key in (b"s1", b"s2", b"nokey"):
            await b.read("usertable", key, None)
        for key in (b"s1", b"nokey"):
            await b.update("usertable", key, values[:1])
        await b.delete("usertable", b"s2")
        row = sampler.sample()
        return row, sampler._t - t0

    try:
        row, span = run_bindings(go, url)
    finally:
        sampler.close()
    wait_until(lambda: connections() == open_before, timeout_s=5, what="the sampler's connection closed")
    counts = {k: round(row[k] * span, 6) for k in ("ops_per_s", "select_per_s", "insert_per_s", "replace_per_s",
                                                   "update_per_s", "delete_per_s", "error_per_s")}
    assert counts == {"ops_per_s": 9, "select_per_s": 3, "insert_per_s": 3, "replace_per_s": 0, "update_per_s": 2,
                      "delete_per_s": 1, "error_per_s": 1}, counts


def test_the_samplers_network_in_is_what_the_server_received_and_out_what_it_sent(tarantool):
    """Ten reads of a record of 10 × 100 bytes between the sampler's two reads: the server sent each record back
    (at least the 10 × 1,000 value bytes the test itself received) and received ten short requests of a key each —
    net_out_bytes is at least 10,000 bytes over the span and net_in_bytes at most a tenth of it (swapped, both
    assertions fail); box.stat.net() read again by the test says the same direction (SENT grew more than RECEIVED)."""
    url = tarantool.url
    registry.for_url(url).clear(url, "usertable")
    values = field_values()
    payload = sum(len(v) for _, v in values)
    sampler = TarantoolStatSampler(url)

    async def go(bs):
        await bs[0].insert("usertable", b"big", values)
        sampler.prime()
        t0 = sampler._t
        got = [await bs[0].read_values("usertable", b"big", [n for n, _ in values]) for _ in range(10)]
        return got, sampler.sample(), sampler._t - t0, None, None

    def net() -> tuple[int, int]:  # (SENT, RECEIVED) bytes as the tarantool binary's own client reads them
        out = tarantool_console(url, "local n = c:eval('return box.stat.net()') print(n.SENT.total, n.RECEIVED.total)")
        return int(out.split()[0]), int(out.split()[1])

    sent0, received0 = net()
    try:
        got, row, span, _, _ = run_bindings(go, url)
    finally:
        sampler.close()
    sent1, received1 = net()
    assert all(st == Status.OK and sum(map(len, vals.values())) == payload for st, vals in got)
    sent, received = row["net_out_bytes_per_s"] * span, row["net_in_bytes_per_s"] * span
    assert sent >= 10 * payload and received <= sent / 10, (sent, received)
    # the server's own figures over a wider span (the insert and the sampler's connection too): the same direction
    assert sent1 - sent0 >= sent and received1 - received0 >= received and sent1 - sent0 > received1 - received0
