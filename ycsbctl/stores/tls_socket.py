"""A client TLS connection whose records OpenSSL reads from and writes to the socket itself: an
asyncio transport over a non-blocking ``ssl.SSLSocket`` (CPython's ``ssl``, OpenSSL's ``SSL_read`` and
``SSL_write`` on the socket's descriptor), for the wire bindings' fast paths (:func:`open_socket_tls`).

The event loop's own TLS (``SSLProtocol``, uvloop's or asyncio's) encrypts into a memory BIO, copies
the bytes out and writes them, and decrypts the other way, through a state machine run for every read
and write; here a write is one ``SSL_write`` and a read one ``SSL_read`` per record. That is the part of the
client's CPU per operation over TLS that is not OpenSSL's (``ycsbctl.stores.tls_wire`` says what it
saved). Every cryptographic step is OpenSSL's, through the
standard library; this module only moves bytes and says when the connection is gone.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import Callable
from typing import Any

READ_BYTES = 16384  # a TLS record's plaintext at most (RFC 8446 5.1, RFC 5246 6.2.1): one SSL_read, one whole record

_AGAIN = (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError, InterruptedError)


class SocketTls(asyncio.Transport):
    """The transport of one TLS connection, handshake done: ``protocol.data_received`` gets each record's
    plaintext as OpenSSL decrypts it, ``write`` encrypts and sends at once (what the socket cannot take
    yet is kept, in order, and sent when it can), and ``protocol.connection_lost`` is called once: the
    server's close (``None``), an error (the exception), or :meth:`close`."""

    def __init__(self, loop: asyncio.AbstractEventLoop, sock: ssl.SSLSocket, protocol: asyncio.Protocol) -> None:
        super().__init__()
        self._loop, self._sock, self._protocol = loop, sock, protocol
        self._fd = sock.fileno()
        self._retry = b""  # bytes an SSL_write could not send yet: it must be called again with them (OpenSSL's rule)
        self._queue = bytearray()  # written after them, sent once they are
        self._closed = False
        loop.add_reader(self._fd, self._readable)
        protocol.connection_made(self)

    def _readable(self) -> None:
        try:
            data = self._sock.recv(READ_BYTES)  # one record's plaintext, whole
        except _AGAIN:  # a record not all here yet, or one that carried no data (a TLS 1.3 session ticket)
            return
        except (ssl.SSLZeroReturnError, ssl.SSLEOFError):  # the server's close_notify, or its FIN
            self._lost(None)
            return
        except OSError as exc:  # ssl.SSLError included
            self._lost(exc)
            return
        if data:
            self._protocol.data_received(data)
        else:
            self._lost(None)

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._closed:
            return
        if self._retry:
            self._queue += data
            return
        try:
            self._sock.send(data)  # whole (no SSL_MODE_ENABLE_PARTIAL_WRITE), or nothing and an exception
        except _AGAIN:
            self._retry = bytes(data)
            self._loop.add_writer(self._fd, self._writable)
        except OSError as exc:
            self._lost(exc)

    def _writable(self) -> None:
        try:
            self._sock.send(self._retry)
        except _AGAIN:
            return
        except OSError as exc:
            self._lost(exc)
            return
        self._retry, queued = b"", bytes(self._queue)
        self._queue.clear()
        self._loop.remove_writer(self._fd)
        if queued:
            self.write(queued)

    def get_write_buffer_size(self) -> int:
        """Bytes written and not yet handed to OpenSSL."""
        return len(self._retry) + len(self._queue)

    def is_closing(self) -> bool:
        return self._closed

    def close(self) -> None:
        self._lost(None)

    def abort(self) -> None:
        self._lost(None)

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._sock if name in ("ssl_object", "socket") else default

    def _lost(self, exc: Exception | None) -> None:
        if self._closed:
            return
        self._closed = True
        self._loop.remove_reader(self._fd)
        if self._retry:
            self._loop.remove_writer(self._fd)
        self._sock.close()
        self._loop.call_soon(self._protocol.connection_lost, exc)


async def _ready(loop: asyncio.AbstractEventLoop, fd: int, write: bool) -> None:
    """Until ``fd`` can be written (``write``) or read."""
    fut = loop.create_future()
    watch, unwatch = (loop.add_writer, loop.remove_writer) if write else (loop.add_reader, loop.remove_reader)

    def ready() -> None:
        if not fut.done():
            fut.set_result(None)

    watch(fd, ready)
    try:
        await fut
    finally:
        unwatch(fd)


async def _connected(loop: asyncio.AbstractEventLoop, host: str, port: int) -> socket.socket:
    """A non-blocking TCP socket connected to ``host:port`` (Nagle off, as the loop's): each address the
    name has in turn, as ``loop.create_connection`` tries them (``localhost``: ``::1``, then 127.0.0.1);
    raises the last one's error."""
    failed: OSError | None = None
    for family, kind, proto, _, address in await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        raw = socket.socket(family, kind, proto)
        try:
            raw.setblocking(False)
            raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            await loop.sock_connect(raw, address)
            return raw
        except OSError as exc:
            raw.close()
            failed = exc
        except BaseException:
            raw.close()
            raise
    raise failed or OSError(f"no address for {host}")


async def open_socket_tls(factory: Callable[[], Any], host: str, port: int,
                          ctx: ssl.SSLContext) -> tuple[SocketTls, Any]:
    """A TCP connection to ``host:port`` (:func:`_connected`), its TLS handshake done with ``ctx``
    (the name ``host`` checked when ``ctx`` checks names): (transport, ``factory()``). Raises what
    OpenSSL raised (``ssl.SSLCertVerificationError``, another ``ssl.SSLError``), ``ssl.SSLEOFError`` when
    the server closed during the handshake, or another ``OSError``; the socket is closed on any failure,
    cancellation included (the caller bounds the time)."""
    loop = asyncio.get_running_loop()
    raw = await _connected(loop, host, port)
    sock: socket.socket = raw  # wrap_socket detaches raw: its SSLSocket is what holds the descriptor then
    try:
        sock = ctx.wrap_socket(raw, server_hostname=host, do_handshake_on_connect=False)
        fd = sock.fileno()
        while True:
            try:
                sock.do_handshake()
                break
            except ssl.SSLWantReadError:
                await _ready(loop, fd, False)
            except ssl.SSLWantWriteError:
                await _ready(loop, fd, True)
    except BaseException:
        sock.close()
        raise
    assert isinstance(sock, ssl.SSLSocket)
    app = factory()
    return SocketTls(loop, sock, app), app
