"""A Redis node lost mid-run (a redis-cluster shard killed: the reconnect's handshake is reset as the dying node's
port closes) is not told "the server may speak TLS on this port: use rediss://": the connection spoke plain RESP
with that server a moment before, so TLS cannot be why. A first connection reset the same way still gets the hint
(a TLS-only port does that to a plain client)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import threading
from pathlib import Path

import pytest

from tests.fixtures.servers import start_redis
from ycsbctl.stores.binding import ConnectionLost, Status
from ycsbctl.stores.redis.binding import RedisBinding
from ycsbctl.stores.redis.options import RedisOptions
from ycsbctl.stores.redis.tls import TLS_THERE


class Resetter:
    """A listener on ``port`` that accepts each connection, reads what the client sends, and resets it (RST), as a
    node that dies under the handshake does, and as a TLS-only port does to a plain client."""

    def __init__(self, port: int) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", port))
        self.sock.listen()
        self.accepted = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            conn.settimeout(1.0)
            with contextlib.suppress(OSError):
                conn.recv(64)
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):  # wakes the accept() blocked on it, which else keeps it listening
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def test_a_reconnect_reset_by_a_node_it_spoke_with_is_not_told_to_use_tls(tmp_path: Path) -> None:
    server = start_redis(tmp_path / "node")
    port = server.port
    try:
        o = RedisOptions(server.url)

        async def spoke_then_lost() -> tuple[Status, str]:
            b = RedisBinding(o, 2.0)
            await b.connect()
            assert await b.read("usertable", b"user1", None) == Status.NOT_FOUND  # plain RESP, answered
            await b.close()  # its connection gone first (our side closes: no socket of the node's lingers on the port)
            server.stop()  # the node dies; something resets connections at its port
            await asyncio.sleep(0.1)
            resetter = Resetter(port)
            try:
                try:
                    st = await b.read("usertable", b"user1", None)  # not connected: the binding reconnects
                except ConnectionLost as exc:
                    return Status.ERROR, str(exc)
                return st, b.last_error or ""
            finally:
                await b.close()
                resetter.close()
                assert resetter.accepted >= 1  # the handshake did reach a listener, which reset it

        _, said = asyncio.run(spoke_then_lost())
        assert "reset" in said or "closed" in said, said
        assert TLS_THERE not in said and "rediss://" not in said, said

        async def first_connect() -> str:
            resetter = Resetter(port)
            try:
                with pytest.raises(ConnectionLost) as lost:
                    await RedisBinding(o, 2.0).connect()
                return str(lost.value)
            finally:
                resetter.close()

        assert TLS_THERE in asyncio.run(first_connect())  # never spoke: the hint stays
    finally:
        server.stop()
