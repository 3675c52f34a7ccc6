"""ClickHouse's HTTP interface, as the engine speaks it: one keep-alive HTTP/1.1 connection per client, each
statement a ``POST /`` with the SQL as its body (``?database=`` on the path), its reply judged by the status
line and the TabSeparated rows in its chunked body.

ClickHouse 18.16 answers every statement with ``Transfer-Encoding: chunked``; a reply ends with the empty
chunk ``0\\r\\n\\r\\n``. Rows are TabSeparated lines, whose values never hold a raw CR or LF (TSV escapes them),
so a reply whose bytes end with ``\\r\\n0\\r\\n\\r\\n`` is whole.
"""

from __future__ import annotations

from ycsbctl.stores.http1 import HttpReply

_END = b"\r\n0\r\n\r\n"
_HEAD_END = b"\r\n\r\n"


def request(path: bytes, sql: bytes) -> bytes:
    """``POST <path>`` with ``sql`` as the body."""
    return b"POST %b HTTP/1.1\r\nHost: clickhouse\r\nContent-Length: %d\r\n\r\n%b" % (path, len(sql), sql)


def quote(v: bytes) -> bytes:
    """``v`` as the inside of a ClickHouse string literal (``'…'``): backslash and quote escaped."""
    if b"\\" in v:
        v = v.replace(b"\\", b"\\\\")
    if b"'" in v:
        v = v.replace(b"'", b"\\'")
    return v


class Reply(HttpReply):
    """One reply: its HTTP status and its body (the chunks joined: rows, or the server's error text)."""

    __slots__ = ()

    def rows(self) -> int:
        return self.body.count(b"\n")

    def error(self) -> str:
        text = self.body.decode(errors="replace").strip()
        return text.replace("e.displayText() = ", "").split(", e.what()")[0] or f"HTTP {self.status}"


def whole_rows(data: bytes) -> int:
    """Whether a 200 reply that came whole in ``data`` (the usual case: one read) has rows, told by its frame
    alone: 0 for an empty body, 1 for one row or more — all a chained READ needs (counting them cost ~3 µs
    a reply); -1: not a whole 200 reply, parse it."""
    if not data.startswith(b"HTTP/1.1 200") or not data.endswith(_END):
        return -1
    head = data.find(_HEAD_END)
    return 0 if head + 9 == len(data) and data.startswith(b"0\r\n\r\n", head + 4) else 1
