"""The wire bindings' shared base (stores/binding.py: ``WireProtocol``, ``WireBinding``) without a server:
replies nothing waits for and late ones counted, a call without a connection or after losing it reconnects
and is ERROR saying why."""

from __future__ import annotations

import asyncio

from ycsbctl.stores.binding import Status, WireProtocol


def test_a_connection_counts_each_reply_nothing_waits_for_and_each_that_came_after_its_timeout():
    p = WireProtocol()
    assert (p.late, p.stray, p.said) == (0, 0, None)
    gone = asyncio.new_event_loop()
    try:
        timed_out = gone.create_future()
        timed_out.set_result("expired")
        p.waiters.append(timed_out)
        p.answer("late reply", None)
        p.answer("refusal", "ERR max number of clients reached")
        p.answer("another", "ERR second")
    finally:
        gone.close()
    assert (p.late, p.stray, p.said) == (1, 2, "ERR max number of clients reached")
    p.connection_lost(None)
    assert p.lost == "closed by the server: ERR max number of clients reached"


def test_a_wire_call_without_a_connection_or_after_losing_it_reconnects_and_is_error_saying_why():
    from ycsbctl.stores.binding import WireBinding

    class Echo(WireBinding):
        async def _unused(self, *args: object) -> Status:
            raise NotImplementedError  # only call() is tested

        read = insert = update = scan = delete = _unused  # type: ignore[assignment]

        def address(self) -> str:
            return f"127.0.0.1:{self.port}"

        async def open(self) -> None:
            _, self.proto = await asyncio.get_running_loop().create_connection(WireProtocol, "127.0.0.1", self.port)

    async def go() -> list[tuple]:
        accepted: list[asyncio.StreamWriter] = []

        async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            accepted.append(writer)

        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        b = Echo(1.0)
        b.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        said = []
        try:
            said.append((await b.call(b"x"), b.last_error, b.proto is not None and b.proto.transport is not None))
            b.proto.connection_lost(None)  # the server closed it: the protocol keeps why, its transport is gone
            said.append((await b.call(b"x"), b.last_error, b.proto.transport is not None))
            await asyncio.sleep(0)
            said.append(len(accepted))
        finally:
            await b.close()
            for w in accepted:
                w.close()
            server.close()
        return said

    assert asyncio.run(go()) == [(Status.ERROR, "connection lost: not connected", True),
                                 (Status.ERROR, "connection lost: connection closed by the server", True), 2]
