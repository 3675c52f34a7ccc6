"""Tarantool's binding (stores/tarantool/binding.py) without a server: the bytes a chain writes, each
request numbered on its own so the watchdog times each one alone."""

from __future__ import annotations

import asyncio
import time

from tests.fixtures.wire_waiter import Written


def test_a_tarantool_chain_numbers_each_request_it_issues_so_the_watchdog_times_each_one_alone():
    # the watchdog expires a future seen in flight with the same request number for a whole timeout: a chain
    # of quick requests must number each (binding.seq), else their sum would be taken for one slow request
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.tarantool.binding import TarantoolBinding, _IProto
    from ycsbctl.workload.core import READ

    async def go() -> list[int]:
        b = TarantoolBinding("tarantool://127.0.0.1:3301", 1.0, {b"field0": 1}, space=600)
        b.loop, b.proto = asyncio.get_running_loop(), _IProto()
        b.proto.transport = Written()
        ctx = ChainContext(record=lambda *_: None, names=[(b"field0",), (b"field0",)], values=lambda f: [b"v"],
                           ack=None, deadline_ns=time.perf_counter_ns() + 10**10, stop_on_error=False)
        seqs = []
        for _ in range(3):
            run = asyncio.ensure_future(b.chain(ctx, ([READ], [b"user1"], [1], [-1], [-1]), 0, 1))
            await asyncio.sleep(0)
            seqs.append(b.seq)
            b.expire()
            await asyncio.wait_for(run, 5)
        return seqs

    assert asyncio.run(go()) == [1, 2, 3]
