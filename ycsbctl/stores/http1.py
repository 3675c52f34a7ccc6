"""HTTP/1.1 replies as the HTTP stores' bindings read them off one keep-alive connection (ClickHouse's HTTP
interface, Elasticsearch's REST API): the status and the body, framed by ``content-length`` or chunked."""

from __future__ import annotations

from typing import TypeVar

_HEAD_END = b"\r\n\r\n"


class HttpReply:
    """One reply: its HTTP status and its body (a chunked body's chunks joined)."""

    __slots__ = ("status", "body")

    def __init__(self, status: int, body: bytes) -> None:
        self.status, self.body = status, body


R = TypeVar("R", bound=HttpReply)


def parse(buf: bytes, kind: type[R]) -> tuple[R | None, int]:
    """The first whole reply in ``buf`` (as a ``kind``) and the bytes it took, or (None, 0) while it is
    incomplete. The reply to a HEAD request (a length, no body) is not told apart: do not send one."""
    head = buf.find(_HEAD_END)
    if head < 0:
        return None, 0
    status = int(buf[9:12])
    headers = buf[:head].lower()
    pos = head + 4
    if b"transfer-encoding: chunked" not in headers:
        _, found, rest = headers.partition(b"content-length:")
        n = int(rest.partition(b"\r\n")[0]) if found else 0  # the value, up to the header's end (if another follows)
        if len(buf) < pos + n:
            return None, 0
        return kind(status, buf[pos:pos + n]), pos + n
    parts: list[bytes] = []
    while True:
        eol = buf.find(b"\r\n", pos)
        if eol < 0:
            return None, 0
        size = int(buf[pos:eol].split(b";")[0], 16)
        start = eol + 2
        end = start + size  # the chunk's data ends here; its CRLF follows
        if len(buf) < end + 2:
            return None, 0
        if size == 0:
            return kind(status, b"".join(parts)), end + 2
        parts.append(buf[start:end])
        pos = end + 2


def request(host: str, port: int, method: str, path: str, body: bytes | None = None, *, headers: dict[str, str]
            | None = None, timeout_s: float = 5.0, server: str = "", call: str = "") -> HttpReply:
    """One request on a connection of its own (an admin call, never the timed path), the whole reply within
    ``timeout_s`` (:class:`~ycsbctl.stores.deadline.DeadlinePassed` names ``server`` and ``call``, by default
    ``METHOD path``, else).
    Unlike urllib, whose timeout bounds each read alone, a reply sent a byte at a time cannot outlast it."""
    import socket

    from ycsbctl.stores.deadline import Deadline, recv, sendall

    deadline = Deadline(timeout_s, server or f"the server at {host}:{port}", call or f"{method} {path.split('?')[0]}")
    where = f"[{host}]" if ":" in host else host
    head = [f"{method} {path} HTTP/1.1", f"Host: {where}:{port}", "Connection: close", "Accept: */*",
            *(f"{k}: {v}" for k, v in (headers or {}).items())]
    if body is not None:
        head.append(f"Content-Length: {len(body)}")
    with socket.create_connection((host, port), timeout=deadline.left()) as sock:
        sendall(sock, "\r\n".join(head).encode() + _HEAD_END + (body or b""), deadline)
        buf = b""
        while True:
            chunk = recv(sock, deadline)
            if not chunk:
                raise ConnectionError(f"{deadline.server} closed the connection before the end of its reply to "
                                      f"{deadline.call}")
            buf += chunk
            if method == "HEAD" and _HEAD_END in buf:  # a length, and no body
                return HttpReply(int(buf[9:12]), b"")
            reply, _ = parse(buf, HttpReply)
            if reply is not None:
                return reply
