"""Elasticsearch's REST API as the engine speaks it: one keep-alive HTTP/1.1 connection per client, requests
built as bytes, replies judged by their status line (a document API's status says what happened: 200/201,
404 missing, 409 exists) and framed by ``content-length`` (Elasticsearch 6.8 sends one with every reply).
"""

from __future__ import annotations

import json
from typing import Any

from ycsbctl.stores.http1 import HttpReply

_PLAIN = bytes(range(0x20, 0x80))  # bytes a JSON string may hold as they are (but for " and \\)


def request(method: bytes, path: bytes, body: bytes | None = None) -> bytes:
    if body is None:
        return b"%b %b HTTP/1.1\r\nHost: es\r\n\r\n" % (method, path)
    return (b"%b %b HTTP/1.1\r\nHost: es\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%b"
            % (method, path, len(body), body))


def json_string(v: bytes) -> bytes:
    """``v`` as a JSON string (YCSB's values are 0x20–0x7F: only ``"`` and ``\\`` need escapes; anything else
    goes through ``json``)."""
    if len(v.translate(None, _PLAIN)):
        return json.dumps(v.decode("latin-1")).encode()
    if b"\\" in v:
        v = v.replace(b"\\", b"\\\\")
    if b'"' in v:
        v = v.replace(b'"', b'\\"')
    return b'"' + v + b'"'


def document(names: list[bytes] | tuple[bytes, ...], values: list[bytes], key: bytes | None = None) -> bytes:
    """``{"key": …, "field0": …, …}`` (the key first when given)."""
    parts = [b'"key":' + json_string(key)] if key is not None else []
    parts += [b'"%b":%b' % (n, json_string(v)) for n, v in zip(names, values)]
    return b"{" + b",".join(parts) + b"}"


def whole_status(data: bytes) -> int:
    """The HTTP status of the one whole reply ``data`` holds, told by its frame alone (Elasticsearch's
    lower-case ``content-length``, which it sends with every reply, equal to the bytes after the head); 0 when
    ``data`` is anything else (part of a reply, several, another framing): :func:`http1.parse` reads it."""
    head = data.find(b"\r\n\r\n")
    if head <= 0:  # no head (or an empty one) ends in data
        return 0
    at = data.find(b"\ncontent-length: ", 0, head)
    if at < 0 or not data.startswith(b"HTTP/1.1 "):
        return 0
    eol = data.find(b"\r", at)
    if int(data[at + 17:eol]) != len(data) - head - 4:
        return 0
    return int(data[9:12])


class Reply(HttpReply):
    """One reply: its HTTP status and its JSON body."""

    __slots__ = ()

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    def error(self) -> str:
        try:
            e = self.json().get("error")
            if isinstance(e, dict):
                return f"{e.get('type')}: {e.get('reason')} (HTTP {self.status})"
        except (ValueError, AttributeError):
            pass
        return f"HTTP {self.status}: {self.body[:200].decode(errors='replace')}"
