"""Elasticsearch's binding (stores/elasticsearch/binding.py) without a server: the bytes a chain writes for
each operation are its own request's, and a REST call whose connection was lost is ERROR, then reconnects."""

from __future__ import annotations

import asyncio
import time

from tests.fixtures.wire_waiter import Written
from ycsbctl.stores.binding import Status


def test_a_rest_call_whose_connection_was_lost_is_error_with_no_http_status_and_the_binding_reconnects():
    """A server that answers the binding's opening ``GET /`` and closes the connection at the next request."""
    from ycsbctl.stores.elasticsearch.binding import ElasticsearchBinding

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}")
        await writer.drain()
        await reader.readuntil(b"\r\n\r\n")
        writer.close()

    async def go() -> tuple:
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        b = ElasticsearchBinding("127.0.0.1", port, "es.ycsb", 1.0)
        try:
            await b.connect()
            got = await b.rest(b"GET", b"/es.ycsb/_search")
            return got, b.last_error, b.proto is not None
        finally:
            await b.close()
            server.close()

    (st, http, body), why, reconnected = asyncio.run(go())
    assert (st, http, body) == (Status.ERROR, 0, None) and why.startswith("connection lost") and reconnected


def test_an_elasticsearch_chain_writes_each_operation_as_the_bindings_own_request_for_it_field_for_field():
    # a chained READ, an UPDATE of each one field, an INSERT: the bytes the chain writes are those read_request /
    # update_request / insert_request build for that operation (an update of field f writes field f, not f-1)
    from ycsbctl.stores.binding import ChainContext
    from ycsbctl.stores.elasticsearch.binding import ElasticsearchBinding, _Rest
    from ycsbctl.workload.core import INSERT, READ, UPDATE

    names = [b"field%d" % i for i in range(10)]
    values = {-1: [b"v%d" % i for i in range(10)], **{i: [b"new%d" % i] for i in range(10)}}

    async def chained(b: ElasticsearchBinding, op: int, wf: int) -> bytes:
        b.loop, b.proto = asyncio.get_running_loop(), _Rest()
        b.proto.transport = Written()
        ctx = ChainContext(record=lambda *_: None, names=[tuple(names)] + [(n,) for n in names],
                           values=values.__getitem__,
                           ack=None, deadline_ns=time.perf_counter_ns() + 10**10, stop_on_error=False, table="t")
        run = asyncio.ensure_future(b.chain(ctx, ([op], [b"user7"], [7], [-1], [wf]), 0, 1))
        await asyncio.sleep(0)
        (sent,) = b.proto.transport.sent
        b.proto.data_received(b"HTTP/1.1 404 Not Found\r\ncontent-length: 2\r\n\r\n{}")
        await run
        return sent

    async def go() -> None:
        b = ElasticsearchBinding("127.0.0.1", 1, "es.ycsb", 1.0)
        assert await chained(b, READ, -1) == b.read_request("t", b"user7")
        for f in range(10):
            sent = await chained(b, UPDATE, f)
            assert sent == b.update_request("t", b"user7", (names[f],), [b"new%d" % f]), f
            assert sent.endswith(b'{"doc":{"field%d":"new%d"}}' % (f, f)), sent
        assert await chained(b, INSERT, -1) == b.insert_request("t", b"user7", tuple(names), values[-1])

    asyncio.run(go())
