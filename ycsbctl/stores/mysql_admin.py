"""PyMySQL connections for the calls outside the timed path (MariaDB's and Sphinx's admin, samplers, footprint) on
which every statement, its whole reply included, comes within one deadline (:mod:`ycsbctl.stores.deadline`).
PyMySQL's ``read_timeout`` bounds each read of its socket alone; here its two socket paths (``_read_bytes``,
``_write_bytes``) read and write through the deadline of the statement in progress."""

from __future__ import annotations

from typing import Any

import pymysql
from pymysql.constants import CR

from ycsbctl.stores.deadline import Deadline, DeadlinePassed, recv, sendall


class DeadlineConnection(pymysql.connections.Connection):
    """A PyMySQL connection whose handshake, and each statement after it, ends within ``deadline_s`` (s) or raises
    ``OperationalError`` (lost connection) caused by :class:`~ycsbctl.stores.deadline.DeadlinePassed`."""

    def __init__(self, *, server: str, deadline_s: float, **kwargs: Any) -> None:
        self._server, self._deadline_s = server, deadline_s
        self._deadline = Deadline(deadline_s, server, "handshake")
        self._unread = b""
        super().__init__(**kwargs)

    def connect(self, sock: Any = None) -> None:
        self._deadline, self._unread = Deadline(self._deadline_s, self._server, "handshake"), b""
        super().connect(sock)

    def _execute_command(self, command: int, sql: Any) -> None:
        text = sql.decode(errors="replace") if isinstance(sql, bytes) else str(sql)
        self._deadline = Deadline(self._deadline_s, self._server, " ".join(text.split()[:2]) or "command")
        super()._execute_command(command, sql)

    def _lost(self, exc: BaseException) -> pymysql.err.OperationalError:
        self._force_close()
        self._unread = b""
        return pymysql.err.OperationalError(CR.CR_SERVER_LOST, str(exc))

    def _read_bytes(self, num_bytes: int) -> bytes:
        while len(self._unread) < num_bytes:
            try:
                chunk = recv(self._sock, self._deadline)
            except (DeadlinePassed, OSError) as exc:
                raise self._lost(exc) from exc
            if not chunk:
                raise self._lost(ConnectionError("Lost connection to MySQL server during query"))
            self._unread += chunk
        data, self._unread = self._unread[:num_bytes], self._unread[num_bytes:]
        return data

    def _write_bytes(self, data: bytes) -> None:
        try:
            sendall(self._sock, data, self._deadline)
        except (DeadlinePassed, OSError) as exc:
            self._force_close()
            raise pymysql.err.OperationalError(CR.CR_SERVER_GONE_ERROR, f"MySQL server has gone away ({exc})") from exc


def connect(server: str, timeout_s: float, **kwargs: Any) -> DeadlineConnection:
    """``pymysql.connect(**kwargs)`` whose every statement, whole reply included, ends within ``timeout_s``;
    ``server`` names it in the deadline's line (``sphinx at 127.0.0.1:9306``)."""
    t = max(1, round(timeout_s))
    return DeadlineConnection(server=server, deadline_s=timeout_s, **{"connect_timeout": t, **kwargs})
