"""memcached's admin commands (``version``, ``stats``, ``stats settings``, ``flush_all``) on a short
blocking connection of their own, never in the timed path.

Hand-written (a few lines of the text protocol) rather than through a client library, so that the
library the tests read records back with (pymemcache) stays an independent check of the format.
"""

from __future__ import annotations

import socket
from typing import Any
from urllib.parse import urlsplit

from ycsbctl.stores.deadline import Deadline, recv, sendall

DEFAULT_PORT = 11211


def address(url: str) -> tuple[str, int]:
    """(host, port) of a ``memcached://host[:port]`` URL (port 11211 when none is given)."""
    u = urlsplit(url)
    return u.hostname or "127.0.0.1", u.port or DEFAULT_PORT


# the words every text-protocol reply line of memcached begins with
REPLY_WORDS = (b"VERSION", b"STAT", b"END", b"ERROR", b"CLIENT_ERROR", b"SERVER_ERROR", b"OK", b"VALUE", b"STORED",
               b"NOT_STORED", b"EXISTS", b"NOT_FOUND", b"DELETED", b"TOUCHED", b"RESET")


def could_be_reply(data: bytes) -> bool:
    """Whether ``data`` (the start of a reply line, maybe cut short) may still be memcached's: its first word is,
    or begins, one of :data:`REPLY_WORDS`, and no line ends without memcached's ``\\r\\n``."""
    head = data.split(b"\r\n", 1)[0]
    if b"\n" in head:
        return False
    word = head.split(b" ", 1)[0].rstrip(b"\r")
    return any(w.startswith(word) for w in REPLY_WORDS)


class AdminConnection:
    """One blocking text-protocol connection; every command, its whole reply included, within ``timeout_s``."""

    def __init__(self, url: str, timeout_s: float = 5.0) -> None:
        host, port = address(url)
        self.server, self.timeout_s = f"memcached at {host}:{port}", timeout_s
        self.sock = socket.create_connection((host, port), timeout=timeout_s)
        self.buf = b""
        self.deadline = Deadline(timeout_s, self.server, "connect")

    def _send(self, text: str) -> None:
        """Write one command; its reply's deadline starts now."""
        self.deadline = Deadline(self.timeout_s, self.server, text)  # "version", "stats settings": the call's name
        sendall(self.sock, text.encode() + b"\r\n", self.deadline)

    def __enter__(self) -> AdminConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.sock.close()

    def _line(self) -> bytes:
        while b"\r\n" not in self.buf:
            chunk = recv(self.sock, self.deadline)
            if not chunk:
                raise ConnectionError("memcached closed the connection")
            self.buf += chunk
            if not could_be_reply(self.buf):  # another kind of server (one that greets first): told at once
                raise ConnectionError(f"not a memcached server: it sent {self.buf[:40]!r}")
        line, _, self.buf = self.buf.partition(b"\r\n")
        return line

    def command(self, text: str) -> str:
        """A command answered by one line (``version``, ``flush_all``); a server error raises."""
        self._send(text)
        line = self._line().decode(errors="replace")
        if line == "ERROR" or line.startswith(("CLIENT_ERROR", "SERVER_ERROR")):
            raise ConnectionError(f"memcached refused {text!r}: {line}")
        return line

    def stats(self, group: str = "") -> dict[str, str]:
        """``stats [group]``: name → value as the server prints it."""
        self._send(f"stats {group}".strip())
        out: dict[str, str] = {}
        while (line := self._line()) != b"END":
            parts = line.decode(errors="replace").split(" ", 2)
            if parts[0] != "STAT" or len(parts) < 3:
                raise ConnectionError(f"unexpected reply to stats: {line[:80]!r}")
            out[parts[1]] = parts[2]
        return out

    def version(self) -> str:
        return self.command("version").removeprefix("VERSION ").strip()


def number(stats: dict[str, Any], name: str) -> float | None:
    """A numeric ``stats`` value (``rusage_user`` is ``seconds.micros``), None when absent."""
    try:
        return float(stats[name])
    except (KeyError, ValueError):
        return None
