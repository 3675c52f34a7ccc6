"""The asyncmy binding's failures without a server (its port closed): a statement's error is ERROR in the
server's words; a timeout, a dropped connection (errors 2006, 2013, 2055) or a socket error that cannot be
made good again ends the client in one line saying why."""

from __future__ import annotations

import asyncio

from asyncmy.errors import IntegrityError, InterfaceError, OperationalError

from tests.fixtures.servers import free_port
from ycsbctl.stores.binding import ConnectionLost, Status
from ycsbctl.stores.mariadb.binding import MariaBinding


def _failed(exc: BaseException) -> tuple[Status | None, str]:
    b = MariaBinding(f"mysql://root@127.0.0.1:{free_port()}/ycsb", 0.5)
    try:
        return asyncio.run(b._failed(exc)), str(b.last_error)
    except ConnectionLost as lost:
        return None, str(lost)


def test_a_statements_error_is_error_and_a_lost_connection_ends_the_client_saying_why():
    assert _failed(IntegrityError(1062, "Duplicate entry 'user1' for key 'PRIMARY'")) == (
        Status.ERROR, "MariaDB: (1062, \"Duplicate entry 'user1' for key 'PRIMARY'\")")
    assert _failed(OperationalError(1205, "Lock wait timeout exceeded"))[0] is Status.ERROR  # not a lost connection
    for exc, why in ((asyncio.TimeoutError(), "timed out after 0.5 s"),
                     (OperationalError(2013, "Lost connection to server during query"),
                      "(2013, 'Lost connection to server during query')"),
                     (OperationalError(2006, "MySQL server has gone away"), "(2006, 'MySQL server has gone away')"),
                     (InterfaceError(0, ""), "(0, '')"), (ConnectionResetError(), "ConnectionResetError")):
        st, said = _failed(exc)
        assert st is None and said.startswith(f"lost the MariaDB server ({why}); reconnecting failed:"), said
