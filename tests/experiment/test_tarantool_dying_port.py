"""Tarantool killed mid-point: a client whose connection the dying server dropped reconnects at once, and its new
connection can be taken by the kernel into the listening socket's backlog before the process's sockets are all
closed; that connection is then reset before any greeting. The binding waited for the 128-byte greeting regardless,
until its connect timeout (the point's ``--timeout``, 10 s by default): "its clients stopped 6.0 s after the 5 s
window ended (waiting on the server)" (issue 43). A connection lost before the greeting now ends the client at once,
as Redis's path does."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from tests.fixtures.sql_servers import started
from ycsbctl.stores.binding import ConnectionLost
from ycsbctl.stores.tarantool.binding import TarantoolBinding

pytestmark = pytest.mark.fault

TIMEOUT_S = 10.0  # the point's per-operation timeout, which also bounds a connect (the CLI's default)


def test_a_connection_the_dying_server_resets_before_its_greeting_ends_the_client_at_once():
    with started("tarantool") as server:
        binding = TarantoolBinding(server.url, TIMEOUT_S, {})
        os.kill(server.pid, signal.SIGSTOP)  # the kernel still completes handshakes into its backlog: no greeting

        async def connect_then_kill() -> tuple[BaseException | None, float]:
            task = asyncio.ensure_future(binding.connect())
            await asyncio.sleep(0.3)  # connected (by the kernel), waiting for the greeting
            assert not task.done()
            killed = time.monotonic()
            os.kill(server.pid, signal.SIGKILL)  # its exit resets the connection still in the backlog
            try:
                await task
            except ConnectionLost as exc:
                return exc, time.monotonic() - killed
            return None, time.monotonic() - killed

        lost, took = asyncio.run(connect_then_kill())
    assert isinstance(lost, ConnectionLost), lost
    assert took < TIMEOUT_S / 10, took  # was TIMEOUT_S: the whole connect timeout waited out
    assert "before a Tarantool greeting" in str(lost) and server.url.rsplit(":", 1)[1] in str(lost), lost
