"""The chain machinery every fast-path binding shares (``stores/chain.py``), driven through the Redis binding
against a real Redis: chains whose requests a worker writes together at the end of each turn of its loop, a
chain that carries on with its client's next take instead of ending, and a chain started on a lost connection.
Truth: Redis's own command counters (``INFO commandstats``) and what was recorded. Without a server, an
operation that expired before its batched write went out, and a reply after the watchdog resolved its
chain."""

from __future__ import annotations

import asyncio
import time

import redis

from tests.fixtures.bindings import field_values, run_bindings
from tests.fixtures.wire_waiter import Written
from ycsbctl.stores.binding import ChainContext, Status
from ycsbctl.stores.chain import ChainRun, WriteBatch, run_chain
from ycsbctl.stores.redis.reply_chain import _Chain as RedisChain
from ycsbctl.workload.core import INSERT, READ, UPDATE

NAMES = [b"field%d" % i for i in range(10)]
VALUES = dict(field_values())


def _context(log: list[tuple[int, ...]], acked: list[int] | None = None, **extra) -> ChainContext:
    return ChainContext(record=lambda *timed: log.append(timed), names=[tuple(NAMES)] + [(n,) for n in NAMES],
                        values=lambda f: [VALUES[n] for n in NAMES] if f == -1 else [b"x" * 7],
                        ack=acked.append if acked is not None else None, deadline_ns=2**63 - 1,
                        stop_on_error=False, **extra)


def _batch(ops: list[int], keys: list[bytes]) -> tuple[list, ...]:
    """(ops, keys, key numbers, read fields, write fields): every read of all fields, updates of field 4."""
    return ops, keys, list(range(len(ops))), [-1] * len(ops), [4 if op == UPDATE else -1 for op in ops]


def _calls(rds: redis.Redis) -> dict[str, int]:
    """Calls of each command since the server started (``cmdstat_hgetall`` → ``hgetall``)."""
    return {name.removeprefix("cmdstat_"): s["calls"] for name, s in rds.info("commandstats").items()}


def test_chains_written_together_at_the_end_of_each_turn_do_each_operation_once(redis_server, rds) -> None:
    keys = [b"user0", b"user1", b"user4", b"user5"]  # one client each; user4 and user5 are not there yet
    for k in keys[:2]:
        rds.hset(k, mapping=VALUES)
    log: list[tuple[int, ...]] = []
    before = _calls(rds)
    ops = [READ, UPDATE] * 25  # each client: 25 reads and 25 updates

    async def four_clients(bs):
        ctx = _context(log, writes=WriteBatch(asyncio.get_running_loop()))
        chains = asyncio.gather(*(b.chain(ctx, _batch(ops, [keys[i]] * len(ops)), 0, len(ops))
                                  for i, b in enumerate(bs)))
        return await asyncio.wait_for(chains, 10)  # a request never written would leave its chain waiting

    done = run_bindings(four_clients, redis_server.url, clients=4)
    assert done == [(50, 0)] * 4
    after = _calls(rds)
    assert after["hgetall"] - before.get("hgetall", 0) == 100 and after["hmset"] - before.get("hmset", 0) == 100
    assert after.get("hmget", 0) == before.get("hmget", 0)  # every read was of all fields
    assert len(log) == 200 and sorted(op for op, *_ in log) == sorted(ops * 4)
    # only the first read of each missing key misses: each chain's update made its record, in order
    assert sum(st == Status.NOT_FOUND for _, st, *_ in log) == 2 and rds.hget(b"user5", "field4") == b"x" * 7
    assert all(0 < t0 <= t1 for _, _, t0, t1, _ in log)  # timed from the moment each request was written


def test_a_chain_that_runs_out_carries_on_with_the_clients_next_take(redis_server, rds) -> None:
    rds.hset(b"user0", mapping=VALUES)
    takes = [_batch([READ] * 4, [b"user0"] * 4), _batch([READ, READ], [b"user0", b"user1"])]
    asked: list[int] = []

    def more(chain: ChainRun) -> bool:
        asked.append(len(takes))
        if not takes:
            return False
        take = takes.pop(0)
        chain.carry_on(take, len(take[0]))
        return True

    log: list[tuple[int, ...]] = []
    before = _calls(rds)
    done = run_bindings(lambda bs: bs[0].chain(_context(log, more=more), _batch([READ] * 3, [b"user0"] * 3), 0, 3),
                        redis_server.url)
    assert done == (3 + 4 + 2, 0) and asked == [2, 1, 0]  # one chain, three takes; the third ask ended it
    assert _calls(rds)["hgetall"] - before.get("hgetall", 0) == 9 and len(log) == 9
    assert [st for _, st, *_ in log][-1] == Status.NOT_FOUND  # the last take's missing key, in its place

    asked.clear()
    rds.set(b"user9", b"a string, not a hash")  # HGETALL on it fails: WRONGTYPE
    takes[:] = [_batch([READ], [b"user0"])]
    done = run_bindings(lambda bs: bs[0].chain(_context([], more=more), _batch([READ], [b"user9"]), 0, 1),
                        redis_server.url)
    assert done == (1, 1) and asked == []  # a take that failed ends the chain: it is not carried on


def test_a_chain_on_a_lost_connection_fails_its_first_operation_then_the_client_reconnects(redis_server, rds) -> None:
    log: list[tuple[int, ...]] = []
    acked: list[int] = []
    inserts = ([INSERT, INSERT], [b"user20", b"user21"], [20, 21], [-1, -1], [-1, -1])

    async def lost_then_chained(bs):
        b = bs[0]
        assert rds.client_kill_filter(_type="normal", skipme=True) >= 1  # the server drops the connection
        for _ in range(500):  # the binding learns it when the loop reads the close
            if b.proto is None or b.proto.transport is None:
                break
            await asyncio.sleep(0.01)
        first = await run_chain(RedisChain, b, _context(log, acked), inserts, 0, 2)
        again = await run_chain(RedisChain, b, _context(log, acked), inserts, 1, 2)
        return first, again

    first, again = run_bindings(lost_then_chained, redis_server.url)
    assert first == (1, 1) and log[0][:2] == (INSERT, Status.ERROR)  # nothing was sent: the insert failed
    assert again == (1, 0) and log[1][:2] == (INSERT, Status.OK)  # reconnected: the next one is stored
    assert acked == [20, 21]  # a failed run-phase insert is acknowledged too, as YCSB does
    assert not rds.exists(b"user20") and rds.hgetall(b"user21") == VALUES


def test_a_chain_whose_server_stalls_times_out_the_insert_in_flight_and_acknowledges_it(redis_server, rds) -> None:
    log: list[tuple[int, ...]] = []
    acked: list[int] = []
    pauser = redis.Redis.from_url(redis_server.url)

    async def stalled(bs):
        pauser.execute_command("CLIENT", "PAUSE", "400", "WRITE")  # the server holds every write for 0.4 s
        return await bs[0].chain(_context(log, acked), ([INSERT] * 2, [b"user30", b"user31"], [30, 31], [-1] * 2,
                                                         [-1] * 2), 0, 2), bs[0].last_error

    try:
        done, why = run_bindings(stalled, redis_server.url, timeout_s=0.1)
    finally:
        pauser.execute_command("CLIENT", "UNPAUSE")
        pauser.close()
    assert done == (1, 1) and why == "timed out after 0.1 s"
    assert [row[:2] for row in log] == [(INSERT, Status.TIMEOUT)] and log[0][2] <= log[0][3]
    assert acked == [30]  # ended, whatever its status: its key may be read (YCSB acknowledges it too)


def test_an_operation_that_expires_before_its_batched_write_went_out_is_timed_from_its_end():
    # the worker's WriteBatch writes a turn's requests at the turn's end; an operation the watchdog expires before
    # then never started: its TIMEOUT is recorded with t0 = t1 (0 µs), not from an unset start
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.chain import WriteBatch
    from ycsbctl.stores.memcached.binding import MemcachedBinding, _Text
    from ycsbctl.workload.core import READ

    class NotYet(WriteBatch):
        def add(self, chain) -> None:  # the turn has not ended yet: nothing written
            self.chains.append(chain)

    names = [b"field%d" % i for i in range(10)]

    async def go() -> list[tuple]:
        b = MemcachedBinding("memcached://127.0.0.1:1", 1.0)
        b.loop, b.proto = asyncio.get_running_loop(), _Text()
        b.proto.transport = Written()
        timed: list[tuple] = []
        ctx = ChainContext(record=lambda *t: timed.append(t), names=[tuple(names)] + [(n,) for n in names],
                           values=lambda f: [], ack=None, deadline_ns=time.perf_counter_ns() + 10**10,
                           stop_on_error=False, writes=NotYet(b.loop))
        run = asyncio.ensure_future(b.chain(ctx, ([READ], [b"user1"], [1], [-1], [-1]), 0, 1))
        await asyncio.sleep(0)
        assert b.proto.transport.sent == [] and ctx.writes.chains
        b.expire()
        assert await run == (1, 1)
        return timed

    (op, st, t0, t1, due), = asyncio.run(go())
    assert (op, st) == (READ, Status.TIMEOUT) and t0 == t1 == due > 10**9


def test_a_reply_after_the_watchdog_resolved_a_chain_or_after_it_failed_is_late_once_counted():
    # ChainRun.late, as the Tarantool, Sphinx, ClickHouse and Elasticsearch chains ask it of each reply: the
    # watchdog resolves the chain's future in the same turn of the loop as a reply (not yet dead), or it is dead
    from types import SimpleNamespace

    from ycsbctl.stores.chain import ChainRun

    async def go() -> list[tuple]:
        loop = asyncio.get_running_loop()
        seen = []
        for resolved, dead in ((False, False), (True, False), (False, True)):
            b = SimpleNamespace(proto=SimpleNamespace(late=0))
            fut = loop.create_future()
            if resolved:
                fut.set_result("expired")
            run = ChainRun(b, None, ([], [], [], [], []), 0, 0, fut)  # type: ignore[arg-type]
            run.dead = dead
            seen.append((run.late(), run.dead, b.proto.late))
        return seen

    assert asyncio.run(go()) == [(False, False, 0), (True, True, 1), (True, True, 1)]
