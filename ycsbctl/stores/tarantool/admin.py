"""Tarantool's admin calls (``box.info``, ``box.stat()``, ``box.space.ycsb:len()``, ``truncate``) as IPROTO
EVAL requests on a short blocking connection of their own, never in the timed path."""

from __future__ import annotations

import socket
import struct
from typing import Any
from urllib.parse import urlsplit

from ycsbctl.stores.deadline import Deadline, recv, sendall
from ycsbctl.stores.tarantool import iproto

DEFAULT_PORT = 3301  # Tarantool's usual listen port (YCSB's tarantool.port default)
_CALLS = {iproto.EVAL: "EVAL", iproto.PING: "PING"}  # how a deadline's line names a request


def address(url: str) -> tuple[str, int]:
    """(host, port) of a ``tarantool://host[:port]`` URL."""
    u = urlsplit(url)
    return u.hostname or "127.0.0.1", u.port or DEFAULT_PORT


class AdminConnection:
    """One blocking IPROTO connection as the guest user; every request, its whole reply included, within
    ``timeout_s`` (the greeting too)."""

    def __init__(self, url: str, timeout_s: float = 5.0) -> None:
        host, port = address(url)
        self.server, self.timeout_s = f"tarantool at {host}:{port}", timeout_s
        self.sock = socket.create_connection((host, port), timeout=timeout_s)
        self.buf = b""
        self.sync = 0
        self.deadline = Deadline(timeout_s, self.server, "greeting")
        try:
            self.greeting = self._greeting().split(b"\n", 1)[0].decode(errors="replace").strip()
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> AdminConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.sock.close()

    def _greeting(self) -> bytes:
        """The server's 128-byte greeting; a server that sends anything else first, or closes, is told at once (what
        answered, in words: :func:`~ycsbctl.stores.tarantool.iproto.not_a_greeting`), not after the timeout."""
        while len(self.buf) < iproto.GREETING_BYTES:
            chunk = recv(self.sock, self.deadline)
            if not chunk:
                raise ConnectionError("the server closed the connection without a Tarantool greeting" +
                                      (f" ({iproto.not_a_greeting(self.buf) or 'after a part of one'})" if self.buf
                                       else ""))
            self.buf += chunk
            wrong = iproto.not_a_greeting(self.buf)
            if wrong:
                raise ConnectionError(wrong)
        out, self.buf = self.buf[:iproto.GREETING_BYTES], self.buf[iproto.GREETING_BYTES:]
        return out

    def _read(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = recv(self.sock, self.deadline)
            if not chunk:
                raise ConnectionError("Tarantool closed the connection")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def request(self, kind: int, body: bytes) -> dict[int, Any]:
        """Send one request and return its decoded body; an error reply raises ``ConnectionError``."""
        self.sync += 1
        self.deadline = Deadline(self.timeout_s, self.server, _CALLS.get(kind, f"request {kind}"))
        sendall(self.sock, iproto.frame(kind, body, self.sync), self.deadline)
        head = self._read(5)
        frame = self._read(struct.unpack(">I", head[1:5])[0])
        code = iproto.reply_code(frame, 0)
        body_at = iproto.body_start(frame, 0)
        if code:
            raise ConnectionError(f"Tarantool refused the request: {iproto.error_message(frame[body_at:])}")
        return iproto.decode_body(frame[body_at:]) if body_at < len(frame) else {}

    def eval(self, expr: str, *args: Any) -> list[Any]:
        """The values ``expr`` returns (a Lua chunk: ``return box.info.version``), strings as ``str``."""
        return [_text(v) for v in self.request(iproto.EVAL, iproto.eval_body(expr, list(args))).get(0x30, [])]

    def ping(self) -> None:
        self.request(iproto.PING, b"\x80")


def _text(value: Any) -> Any:
    """Bytes (msgpack str read raw) → str, through lists and maps."""
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    if isinstance(value, list):
        return [_text(v) for v in value]
    if isinstance(value, dict):
        return {_text(k): _text(v) for k, v in value.items()}
    return value


def stat_totals(conn: AdminConnection) -> dict[str, float]:
    """``box.stat()``'s request totals by kind (SELECT, INSERT, REPLACE, UPDATE, DELETE, EVAL, ERROR, …) and
    ``box.stat.net()``'s bytes (``SENT``, ``RECEIVED``) and connections (``CONNECTIONS``: current)."""
    stat, net = conn.eval("return box.stat(), box.stat.net()")
    out = {k: float(v["total"]) for k, v in stat.items() if isinstance(v, dict) and "total" in v}
    for k, v in net.items():
        if isinstance(v, dict):
            value = v.get("current") if k == "CONNECTIONS" and "current" in v else v.get("total")
            out[f"NET_{k}"] = float(value or 0)
    return out


def memory(conn: AdminConnection, space: str | None = iproto.SPACE_NAME) -> dict[str, float | None]:
    """Bytes of the space's tuples and indexes (``space:bsize()``, ``index:bsize()``), its tuples
    (``space:len()``), and the server's ``box.info.memory()`` (data, index, …) and ``box.slab.info()``.
    ``space`` None: every user space's (ids from 512: YCSB's ``ycsb``, a workload plug-in's ``items``) summed,
    0 when there is none; a named space that does not exist: None."""
    (m,) = conn.eval(
        "local want = ... local sz, ix, n = nil, nil, nil "
        "if want == nil then sz, ix, n = 0, 0, 0 end "
        "for id, s in pairs(box.space) do "
        "if type(id) == 'number' and id >= 512 and (want == nil or s.name == want) then "
        "sz = (sz or 0) + s:bsize(); ix = ix or 0; n = (n or 0) + s:len() "
        "for k, i in pairs(s.index) do if type(k) == 'number' then ix = ix + i:bsize() end end end end "
        "return {space = sz, index = ix, tuples = n, info = box.info.memory(), slab = box.slab.info()}",
        *([] if space is None else [space]))
    info, slab = m.get("info") or {}, m.get("slab") or {}
    return {"space_bytes": m.get("space"), "index_bytes": m.get("index"), "tuples": m.get("tuples"),
            "data_bytes": info.get("data"), "arena_used_bytes": slab.get("arena_used"),
            "quota_size_bytes": slab.get("quota_size"), "lua_bytes": info.get("lua")}
