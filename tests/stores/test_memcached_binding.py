"""The memcached binding against a real memcached, its records read back with another client library
(pymemcache) as the truth of the layout YCSB's memcached binding uses: key ``<table>-<key>``, one JSON object
of the fields, flags 0, ``add`` on insert, ``replace`` on update. Without a server, replies cut at any byte
reach their own waiters whole, a chain's late replies are counted once, an update of field f writes field f,
and a plug-in command is OK with the server's reply."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from pymemcache.client.base import Client
from pymemcache.exceptions import MemcacheUnknownCommandError

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.waiting import wait_until
from tests.fixtures.wire_waiter import Written
from ycsbctl.engine.runner import run_phase
from ycsbctl.engine.spec import PhaseSpec
from ycsbctl.errors import UserError
from ycsbctl.stores import registry
from ycsbctl.stores.binding import Status
from ycsbctl.stores.memcached.record import JsonRecords, encode_any
from ycsbctl.stores.memcached.store import CLEAR_WAIT_S
from ycsbctl.workload.keys import build_key_name
from ycsbctl.workload.properties import load_properties


class FlagsSerde:
    """pymemcache serde that hands values back raw and keeps the flags each came with."""

    def __init__(self) -> None:
        self.flags: dict[bytes, int] = {}

    def serialize(self, key, value):  # pragma: no cover - the tests only read
        return value, 0

    def deserialize(self, key, value, flags):
        self.flags[key if isinstance(key, bytes) else key.encode()] = flags
        return value


def reader(server) -> tuple[Client, FlagsSerde]:
    serde = FlagsSerde()
    return Client(("127.0.0.1", server.port), serde=serde, connect_timeout=5, timeout=5), serde


def record_of(client: Client, key: str) -> dict[str, str]:
    raw = client.get(key)
    assert raw is not None, f"{key} is not stored"
    return json.loads(raw)


def test_insert_stores_one_json_object_under_table_dash_key(memcached_server):
    values = field_values() + [(b"quote", b'say "hi" \\ back'), (b"per%cent", b"100%")]
    st = run_bindings(lambda b: b[0].insert("usertable", b"user42", values), memcached_server.url)
    assert st is Status.OK
    client, serde = reader(memcached_server)
    assert record_of(client, "usertable-user42") == {n.decode(): v.decode() for n, v in values}
    assert serde.flags[b"usertable-user42"] == 0  # spymemcached's flags for a String
    assert client.get("user42") is None  # the table is part of the key


def test_statuses_of_a_missing_record_and_of_a_second_insert(memcached_server):
    async def ops(b):
        one = b[0]
        return [await one.read("usertable", b"nobody", None), await one.update("usertable", b"nobody", [(b"f", b"v")]),
                await one.delete("usertable", b"nobody"), await one.insert("usertable", b"k", [(b"f", b"1")]),
                await one.insert("usertable", b"k", [(b"f", b"2")]), await one.read("usertable", b"k", None),
                await one.delete("usertable", b"k"), await one.read("usertable", b"k", None)]

    async def with_error(b):
        return await ops(b), b[0].last_error

    got, why = run_bindings(with_error, memcached_server.url)
    assert got == [Status.NOT_FOUND, Status.NOT_FOUND, Status.NOT_FOUND, Status.OK,
                   Status.ERROR, Status.OK, Status.OK, Status.NOT_FOUND]
    assert why.startswith("NOT_STORED: the record exists already")
    assert Client(("127.0.0.1", memcached_server.port)).get("usertable-nobody") is None  # replace created nothing


def test_update_replaces_the_record_with_the_fields_it_writes_as_ycsb(memcached_server):
    async def ops(b):
        await b[0].insert("usertable", b"u", field_values())
        return await b[0].update("usertable", b"u", [(b"field3", b"new")]), await b[0].read_values(
            "usertable", b"u", [b"field3", b"field4"])

    st, (rst, cells) = run_bindings(ops, memcached_server.url)
    assert st is Status.OK and rst is Status.OK
    assert cells == {b"field3": b"new"}
    client, _ = reader(memcached_server)
    assert record_of(client, "usertable-u") == {"field3": "new"}


def test_the_fast_encoder_writes_what_the_json_library_writes():
    names = [b"field%d" % i for i in range(4)]
    rows = [[b"plain", b'q"uote', b"back\\slash", b"\x7f~ "], [b"", b"%s%d", b"a" * 300, b'\\"']]
    enc = JsonRecords()
    for vals in rows:
        assert json.loads(enc.encode(names, vals)) == {n.decode(): v.decode() for n, v in zip(names, vals)}
    odd = [b"tab\there", b"nul\0", b"\xe9t\xe9", b"ok"]  # outside YCSB's 0x20-0x7F: the general path
    assert enc.encode(names, odd) == encode_any(names, odd)
    assert json.loads(enc.encode(names, odd))["field1"] == "nul\0"
    one_odd = [b"tab\there", b"a", b"b", b"c"]  # one byte to escape: as many bytes outside 0x20-0x7F as values
    assert enc.encode(names, one_odd) == encode_any(names, one_odd)


def test_a_stored_record_decodes_as_ycsbs_fromjson_nulls_left_out_and_only_the_fields_asked():
    from ycsbctl.stores.memcached.record import decode

    value = json.dumps({"field0": "a", "field1": None, "field2": "c", "field3": 7}).encode()
    assert decode(value) == {b"field0": b"a", b"field2": b"c", b"field3": b"7"}
    assert decode(value, [b"field1", b"field2"]) == {b"field2": b"c"}


def test_a_load_through_the_engine_reads_back_whole_with_pymemcache(memcached_server):
    props = dict(load_properties("workload-a"))
    props.update(recordcount="300", operationcount="0")
    load = run_phase(PhaseSpec("load", memcached_server.url, props, threads=4, processes=1))
    assert load.status == "ok", load.errors
    assert load.ops["INSERT"].returns == {"OK": 300}
    client, serde = reader(memcached_server)
    keys = [f"usertable-{build_key_name(n)}" for n in range(300)]
    got = client.get_many(keys)
    assert sorted(got) == sorted(keys)
    for raw in got.values():
        rec = json.loads(raw)
        assert sorted(rec) == [f"field{i}" for i in range(10)]
        assert all(len(v) == 100 and all(0x20 <= ord(c) <= 0x7F for c in v) for v in rec.values())
    assert set(serde.flags.values()) == {0}
    assert int(client.stats()[b"curr_items"]) == registry.get("memcached").count(memcached_server.url,
                                                                                 "usertable") == 300


def test_clear_leaves_no_item_and_reading_says_bytes_per_item(memcached_server):
    proto = registry.get("memcached")
    run_bindings(lambda b: b[0].insert("usertable", b"x", field_values()), memcached_server.url)
    reading = proto.reading(memcached_server.url)
    client, _ = reader(memcached_server)
    assert reading.keys == 1 and reading.db_memory_bytes == int(client.stats()[b"bytes"]) > 1000
    t0 = time.monotonic()
    proto.clear(memcached_server.url, "usertable")
    assert time.monotonic() - t0 < CLEAR_WAIT_S  # it stopped waiting once the crawler had reclaimed the item
    assert proto.count(memcached_server.url, "usertable") == 0
    assert client.get("usertable-x") is None


@pytest.mark.parametrize("url", ["memcached://u:pw@127.0.0.1:11211", "memcached://127.0.0.1:x",
                                 "memcached://127.0.0.1:11211/db", "memcached://"])
def test_bad_urls_are_one_line(url):
    with pytest.raises(UserError, match="memcached://host:port"):
        registry.for_url(url).validate(url)


def test_describe_names_the_server_and_its_settings(memcached_server):
    """The name and version, ``stats settings`` whole, and the traits two memcached servers can differ in (its worker
    threads and pointer size), each as the server's own ``stats`` says over a plain socket."""
    import socket

    facts = registry.get("memcached").describe(memcached_server.url)
    assert facts.name.startswith("memcached 1.") and facts.version == facts.name.split()[1]
    assert facts.config["stats settings"]["maxbytes"] == str(256 * 1024 * 1024)
    with socket.create_connection(("127.0.0.1", memcached_server.port), timeout=5) as s:
        s.sendall(b"stats\r\n")
        said = b""
        while not said.endswith(b"END\r\n"):
            said += s.recv(65536)
    stats = dict(line.split()[1:3] for line in said.decode().splitlines() if line.startswith("STAT "))
    assert facts.traits == {"server": "memcached", "version": stats["version"], "threads": stats["threads"],
                            "pointer_size": stats["pointer_size"]}


@pytest.mark.fault
def test_a_stalled_server_times_out_and_its_late_reply_is_dropped(memcached_server):
    """SIGSTOP: the read in flight ends as TIMEOUT; after SIGCONT its late reply is discarded and
    the next read on the same connection gets its own answer."""
    import os
    import signal

    from tests.fixtures.servers import wait_stopped

    async def ops(b):
        one = b[0]
        await one.insert("usertable", b"k", [(b"f", b"v")])
        os.kill(memcached_server.proc.pid, signal.SIGSTOP)
        wait_stopped(memcached_server.proc.pid)
        try:
            stalled = await one.read("usertable", b"k", None)
        finally:
            os.kill(memcached_server.proc.pid, signal.SIGCONT)
        after = await one.read("usertable", b"nothing-here", None)
        return stalled, one.last_error, after, one.proto.late

    stalled, why, after, late = run_bindings(ops, memcached_server.url, timeout_s=0.3)
    assert stalled is Status.TIMEOUT and "timed out" in why
    assert after is Status.NOT_FOUND  # not the late hit of the stalled read
    assert late == 1


def test_a_chained_reply_is_judged_by_its_frame_and_anything_else_by_the_full_parse(monkeypatch):
    """The one-reply fast path calls the chain's ``ok`` only for a hit whose frame adds up (header,
    exactly the declared bytes, END) or for STORED; a miss, an error or a frame that does not add up
    goes through the full parse, as before."""
    from ycsbctl.stores.memcached.binding import _Chain, _Text

    seen: list[tuple] = []
    monkeypatch.setattr(_Chain, "ok", lambda self: seen.append(("ok",)))
    monkeypatch.setattr(_Chain, "__call__", lambda self, line, value: seen.append((line, value)))
    chain = object.__new__(_Chain)

    def feed(data: bytes) -> list[tuple]:
        proto = _Text()
        proto.waiters.append(chain)
        seen.clear()
        proto.data_received(data)
        return list(seen)

    value = b'{"field0":"a\r\nb"}'
    assert feed(b"VALUE usertable-user1 0 %d\r\n%b\r\nEND\r\n" % (len(value), value)) == [("ok",)]
    assert feed(b"STORED\r\n") == [("ok",)]
    assert feed(b"END\r\n") == [(b"END", None)]
    assert feed(b"NOT_STORED\r\n") == [(b"NOT_STORED", None)]
    # declared one byte short: the bytes after the value are not END, so the full parse says so
    short = feed(b"VALUE usertable-user1 0 %d\r\n%b\r\nEND\r\n" % (len(value) - 1, value))
    assert short and short[0][0].startswith(b"SERVER_ERROR") and short[0][1] is None
    # declared longer than what came: the rest is awaited, nobody is answered yet
    assert feed(b"VALUE usertable-user1 0 %d\r\n%b\r\nEND\r\n" % (len(value) + 5, value)) == []


def test_a_connection_lost_mid_chain_is_an_error_then_connection_lost(memcached_server):
    """A chain with its request in flight when the server dies: that operation is an ERROR, timed
    once, and the client ends with ConnectionLost once reconnecting fails (as the Redis and MongoDB
    chains do)."""
    import os
    import signal
    import threading

    from tests.fixtures.servers import wait_stopped
    from ycsbctl.stores.binding import ChainContext, ConnectionLost
    from ycsbctl.workload.core import INSERT, READ

    names = [f"field{i}".encode() for i in range(10)]
    values = dict(field_values())
    log: list[tuple] = []
    acked: list[int] = []
    ctx = ChainContext(record=lambda *timed: log.append(timed), names=[tuple(names)] + [(n,) for n in names],
                       values=lambda f: [values[n] for n in names], ack=acked.append, deadline_ns=2**63 - 1,
                       stop_on_error=False, table="usertable")

    def batch(ops, keys):
        return ops, keys, list(range(len(ops))), [-1] * len(ops), [-1] * len(ops)

    async def lose(bs):
        assert await bs[0].chain(ctx, batch([INSERT], [b"user1"]), 0, 1) == (1, 0)
        os.kill(memcached_server.proc.pid, signal.SIGSTOP)  # the next request stays in flight …
        wait_stopped(memcached_server.proc.pid)
        threading.Timer(0.3, memcached_server.proc.kill).start()  # … until the server dies
        await bs[0].chain(ctx, batch([READ, INSERT], [b"user1", b"user2"]), 0, 2)

    with pytest.raises(ConnectionLost, match="reconnecting failed"):
        run_bindings(lose, memcached_server.url, 1)
    assert [(op, st) for op, st, *_ in log] == [(INSERT, Status.OK), (READ, Status.ERROR)]
    assert acked == [0]


def test_a_server_that_evicted_says_how_many_items_its_own_stats_count_and_its_memory_limit():
    """``why_short`` against memcached's own ``stats`` (read with pymemcache): None before anything is
    evicted; after 3 MB of items into ``-m 2``, the evictions it counts and its 2 MiB limit."""
    from tests.fixtures.servers import start_memcached

    server = start_memcached(extra=("-m", "2"))
    try:
        proto = registry.get("memcached")
        assert proto.why_short(server.url) is None
        client = Client(("127.0.0.1", server.port))
        for start in range(0, 3000, 500):
            client.set_many({f"k{i}": b"v" * 1000 for i in range(start, start + 500)}, noreply=False)
        stats = client.stats()
        said = proto.why_short(server.url)
        evicted = int(client.stats()[b"evictions"])
        assert evicted >= int(stats[b"evictions"]) > 0
        assert said == (f"memcached evicted {evicted:,} items since it started (its memory limit, -m, is "
                        f"{int(stats[b'limit_maxbytes']) // 2**20} MiB)")
        assert int(stats[b"limit_maxbytes"]) == 2 * 2**20
        client.close()
    finally:
        server.stop()


def test_a_chain_of_quick_reads_longer_than_the_timeout_never_times_out(memcached_server):
    from tests.fixtures.bindings import chain_outlasting_the_timeout

    (done, failed), statuses = chain_outlasting_the_timeout(memcached_server.url)
    assert failed == 0 and statuses == {Status.NOT_FOUND: done} and done > 100


def test_more_clients_than_the_servers_connection_limit_is_one_line_saying_what_to_do():
    """memcached started with ``-c 40`` refuses the connections beyond its limit ("ERROR Too many open
    connections", then it closes them): opening 64 clients ends in one ConnectionLost that names the limit
    and the fix. Was: "cannot reach …: closed by the server: ERROR Too many open connections" and nothing
    to do about it. Its own ``stats`` count the refusals (rejected_connections)."""
    from tests.fixtures.servers import start_memcached
    from ycsbctl.stores.binding import ConnectionLost

    server = start_memcached(extra=("-c", "40", "-t", "1"))
    try:
        async def nothing(_bindings) -> None:
            return None

        with pytest.raises(ConnectionLost) as lost:
            run_bindings(nothing, server.url, clients=64)
        said = str(lost.value)
        assert "Too many open connections — more client threads than the server's connection limit (memcached -c) " \
               "allows: lower --threads or start memcached with a larger -c" in said, said
        # the refused connections close after the test's own: until then memcached refuses this one too
        assert wait_until(lambda: _rejected(server.port), what="memcached answering stats") > 0
    finally:
        server.stop()


def _rejected(port: int) -> int | None:
    """memcached's ``rejected_connections``, or None while it refuses this connection too (over its -c)."""
    client = Client(("127.0.0.1", port))
    try:
        return int(client.stats()[b"rejected_connections"])
    except MemcacheUnknownCommandError:  # "ERROR Too many open connections"
        return None
    finally:
        client.close()


def test_a_memcached_chain_judges_replies_cut_anywhere_as_whole_ones_and_counts_each_late_reply_once():
    # a hit and STORED that come in two reads go through the general parse, not the one-read frame check:
    # the same statuses; a reply after its operation expired (the watchdog) is counted late once, by either path
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.memcached.binding import MemcachedBinding, _Text
    from ycsbctl.workload.core import READ, UPDATE

    names = [b"field%d" % i for i in range(10)]
    body = b'{"field0":"a"}'
    hit = b"VALUE usertable-user1 0 %d\r\n%b\r\nEND\r\n" % (len(body), body)

    async def chain(b: MemcachedBinding, ops: list[int], replies: list[list[bytes]], expire: bool = False) -> list[int]:
        statuses: list[int] = []
        ctx = ChainContext(record=lambda op, st, *_: statuses.append(st), names=[tuple(names)] + [(n,) for n in names],
                           values=lambda f: [b"v"] * (10 if f < 0 else 1), ack=None,
                           deadline_ns=time.perf_counter_ns() + 10**10, stop_on_error=False)
        n = len(ops)
        run = asyncio.ensure_future(b.chain(ctx, (ops, [b"user1"] * n, [1] * n, [-1] * n, [0] * n), 0, n))
        await asyncio.sleep(0)
        if expire:
            b.expire()
            await asyncio.sleep(0)
        for cuts in replies:
            for part in cuts:
                b.proto.data_received(part)
            await asyncio.sleep(0)
        await run
        return statuses

    async def go() -> tuple:
        b = MemcachedBinding("memcached://127.0.0.1:1", 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _Text()
        b.proto.transport = Written()
        split = await chain(b, [READ, UPDATE, READ], [[hit[:30], hit[30:]], [b"STO", b"RED\r\n"], [b"END\r\n"]])
        whole = await chain(b, [READ, UPDATE], [[hit], [b"STORED\r\n"]])
        late_whole = await chain(b, [READ], [], expire=True)
        b.proto.data_received(hit)
        counted = [b.proto.late]
        await chain(b, [READ], [], expire=True)
        b.proto.data_received(hit[:30])
        b.proto.data_received(hit[30:])
        counted.append(b.proto.late)
        return split, whole, late_whole, counted

    split, whole, late_whole, counted = asyncio.run(go())
    assert split == [Status.OK, Status.OK, Status.NOT_FOUND] and whole == [Status.OK, Status.OK]
    assert late_whole == [Status.TIMEOUT] and counted == [1, 2]


def test_a_memcached_plugin_command_is_ok_with_the_servers_reply_or_the_failure_with_nothing():
    from ycsbctl.stores.memcached.binding import MemcachedBinding, _Text

    async def go() -> tuple:
        b = MemcachedBinding("memcached://127.0.0.1:1", 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _Text()
        b.proto.transport = Written()
        got = []
        for reply in (b"VERSION 1.6.18\r\n", b"VALUE k 0 2\r\nab\r\nEND\r\n", None):
            call = asyncio.ensure_future(b.mc(b"version\r\n" if reply and reply[:1] == b"V" else b"get k\r\n"))
            await asyncio.sleep(0)
            if reply is None:
                b.expire()  # the watchdog: no reply within the timeout
            else:
                b.proto.data_received(reply)
            got.append(await call)
        return got

    assert asyncio.run(go()) == [(Status.OK, (b"VERSION 1.6.18", None)), (Status.OK, (b"VALUE", b"ab")),
                                 (Status.TIMEOUT, None)]


def test_memcached_replies_cut_at_any_byte_reach_their_own_waiters_whole_as_memcached_frames_them():
    # a get hit (VALUE <key> <flags> <bytes>, the data, END), a set's STORED and a miss's END in one stream, read
    # in pieces of every size: each waiter gets its own reply whole, none waits for bytes already there
    from tests.fixtures.wire_waiter import fed
    from ycsbctl.stores.memcached.binding import _Text

    stream = b"VALUE user1 0 11\r\n{\"f\":\"a b\"}\r\nEND\r\n" + b"STORED\r\n" + b"END\r\n"
    for cut in range(1, len(stream) + 1):
        got = [w.result for w in fed(_Text(), stream, cut, waiting=3)]
        assert got == [(b"VALUE", b"{\"f\":\"a b\"}"), (b"STORED", None), (b"END", None)], cut


def test_a_memcached_chain_writes_field_f_for_an_update_of_f_and_a_reply_right_after_its_expiry_is_late():
    # a chained UPDATE of field f is a replace of the record's JSON with field f (the binding's own encoding); the
    # watchdog expiring the operation in flight and its reply coming in the same turn of the loop: counted late
    # (whichever path reads it: a miss's END is parsed, a hit's frame is checked), the operation TIMEOUT
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.memcached.binding import MemcachedBinding, _Text, store_command
    from ycsbctl.workload.core import READ, UPDATE

    names = [b"field%d" % i for i in range(10)]
    body = b'{"field0":"a"}'
    hit = b"VALUE usertable-user1 0 %d\r\n%b\r\nEND\r\n" % (len(body), body)

    async def go() -> tuple:
        b = MemcachedBinding("memcached://127.0.0.1:1", 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _Text()
        b.proto.transport = Written()
        statuses: list[int] = []
        ctx = ChainContext(record=lambda op, st, *_: statuses.append(st), names=[tuple(names)] + [(n,) for n in names],
                           values=lambda f: [b"new%d" % f], ack=None, deadline_ns=time.perf_counter_ns() + 10**10,
                           stop_on_error=False)
        written = []
        for f in range(10):
            run = asyncio.ensure_future(b.chain(ctx, ([UPDATE], [b"user1"], [1], [-1], [f]), 0, 1))
            await asyncio.sleep(0)
            b.proto.data_received(b"STORED\r\n")
            await asyncio.wait_for(run, 5)
            written.append(b.proto.transport.sent[-1] == store_command(
                b"replace", b"usertable-user1", b.json.encode((names[f],), [b"new%d" % f])))
        late = []
        for reply in (b"END\r\n", hit):
            statuses.clear()
            run = asyncio.ensure_future(b.chain(ctx, ([READ], [b"user1"], [1], [-1], [-1]), 0, 1))
            await asyncio.sleep(0)
            b.expire()
            b.proto.data_received(reply)  # in the same turn
            await asyncio.wait_for(run, 5)
            late.append((list(statuses), b.proto.late))
        return written, late

    written, late = asyncio.run(go())
    assert written == [True] * 10
    assert late == [([Status.TIMEOUT], 1), ([Status.TIMEOUT], 2)]
