"""The asyncpg binding's failures without a server (its port closed): a timeout is TIMEOUT, a lost connection
that cannot be made again ends the client in one line saying why it was lost — the exception's words, or its
name when it has none."""

from __future__ import annotations

import asyncio

import asyncpg

from tests.fixtures.servers import free_port
from ycsbctl.stores.binding import ConnectionLost, Status
from ycsbctl.stores.postgresql.binding import PgBinding


def _failed(exc: BaseException) -> tuple[Status | None, str]:
    b = PgBinding(f"postgresql://ycsb@127.0.0.1:{free_port()}/postgres", 0.5)

    async def main() -> Status:
        return await b._failed(exc)

    try:
        return asyncio.run(main()), str(b.last_error)
    except ConnectionLost as lost:
        return None, str(lost)


def test_a_timeout_is_timeout_and_a_lost_connection_says_why():
    assert _failed(asyncio.TimeoutError()) == (Status.TIMEOUT, "timed out after 0.5 s")
    for exc, why in ((ConnectionResetError(), "ConnectionResetError"),
                     (ConnectionResetError("Connection reset by peer"), "Connection reset by peer"),
                     (asyncpg.exceptions.InternalClientError("cannot switch to state 12"), "the server closed the connection"),
                     (asyncpg.exceptions.AdminShutdownError("terminating connection"), "terminating connection")):
        st, said = _failed(exc)
        assert st is None and said.startswith(f"lost the PostgreSQL server ({why}); reconnecting failed: cannot reach"), said
