"""TLS for the wire bindings' timed loop, in place of the event loop's own TLS transport.

``loop.start_tls`` (uvloop's or asyncio's ``SSLProtocol``) costs a Python-level call chain per
read and per write on top of OpenSSL's own work: ``ssl.SSLObject``'s wrapper methods (three Python
frames a reply), a copy of the context per write, flow-control checks, and a 256 KiB ``bytes``
allocated for every read. With one small request in flight per connection that is paid on every
operation. This layer keeps what TLS needs — OpenSSL over memory BIOs, the same handshake, the same
exceptions (a certificate the client does not trust is ``ssl.SSLCertVerificationError``) — and
calls the C ``_ssl`` object directly: one ``write`` + one BIO read per request, one BIO write +
one ``read`` per reply. It saves a few per cent of the TLS client CPU per operation (a
one-connection ping-pong; the figures are in the commit that made it) — within ``python -m bench
tls``'s noise in the engine: what is left is OpenSSL's own work, two records per operation.

:func:`start_tls` has ``loop.start_tls``'s shape: it takes an open plain transport and the
application's protocol, does the client handshake, and returns the transport the protocol writes to
(it does not call the protocol's ``connection_made``, as ``loop.start_tls`` does not).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from typing import Any

READ_BYTES = 17 * 1024  # what one read asks of OpenSSL: a TLS record's plaintext is at most 16 KiB
_AGAIN = (ssl.SSLWantReadError, ssl.SSLWantWriteError)


class TlsTransport(asyncio.Transport):
    """What the application's protocol writes to: each ``write`` is encrypted into one TLS record
    and handed to the plain transport at once."""

    def __init__(self, layer: TlsLayer) -> None:
        super().__init__({"ssl_object": layer.sslobj, "peercert": layer.sslobj.getpeercert(),
                          "cipher": layer.sslobj.cipher(), "sslcontext": layer.ctx})
        self.layer = layer
        self._encrypt = layer.c.write
        self._sealed = layer.outgoing.read
        self._send = layer.raw.write
        self._closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:  # hot: once per request (python -m bench tls)
        if not data:
            return
        try:
            self._encrypt(data)
        except _AGAIN:  # a renegotiation or key update waits for the server: sent after its next read
            self.layer.backlog.append(bytes(data))
        self._send(self._sealed())

    def writelines(self, list_of_data) -> None:
        self.write(b"".join(list_of_data))

    def is_closing(self) -> bool:
        return self._closing or self.layer.raw.is_closing()

    def close(self) -> None:
        """close_notify to the server (what it can send now), then the plain transport closed."""
        if self._closing:
            return
        self._closing = True
        self.layer.close()

    def abort(self) -> None:
        self._closing = True
        self.layer.raw.abort()

    def get_write_buffer_size(self) -> int:
        return self.layer.raw.get_write_buffer_size()

    def pause_reading(self) -> None:
        self.layer.raw.pause_reading()

    def resume_reading(self) -> None:
        self.layer.raw.resume_reading()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.layer.app = protocol

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self.layer.app


class TlsLayer(asyncio.Protocol):
    """The plain transport's protocol: decrypts what arrives and hands it to the application's
    protocol (``app``) in one ``data_received`` per read."""

    def __init__(self, app: asyncio.BaseProtocol, ctx: ssl.SSLContext, server_hostname: str | None,
                 raw: asyncio.Transport, handshaken: asyncio.Future) -> None:
        self.app: Any = app
        self.ctx = ctx
        self.raw = raw
        self.incoming, self.outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        self.sslobj = ctx.wrap_bio(self.incoming, self.outgoing, server_side=False, server_hostname=server_hostname)
        # the C object under ssl.SSLObject (its methods are Python wrappers around it)
        self.c: Any = getattr(self.sslobj, "_sslobj", self.sslobj)
        self.handshaken: asyncio.Future | None = handshaken
        self.backlog: list[bytes] = []
        self.error: Exception | None = None  # why this layer closed the connection itself
        self.transport: TlsTransport | None = None
        self.data_received = self._handshake_received  # type: ignore[method-assign]

    # -- the handshake -------------------------------------------------------------------------------

    def shake(self) -> None:
        """One step of the client handshake; the future resolves when it is done or failed."""
        try:
            self.sslobj.do_handshake()
        except _AGAIN:
            self._flush()
            return
        except Exception as exc:  # noqa: BLE001 - an ssl.SSLError (untrusted certificate, no TLS there) goes to the waiter as it is
            self._flush()
            self._finish(exc)
            return
        self._flush()
        self.transport = TlsTransport(self)
        self.data_received = self._decrypt  # type: ignore[method-assign]
        self.raw.set_protocol(self)  # the event loop keeps the bound data_received it was given: this one now
        self._finish(None)
        if self.incoming.pending:  # data came with the handshake's last flight: after the caller has the transport
            asyncio.get_running_loop().call_soon(self._decrypt, b"")

    def _finish(self, exc: BaseException | None) -> None:
        fut, self.handshaken = self.handshaken, None
        if fut is not None and not fut.done():
            if exc is None:
                fut.set_result(None)
            else:
                fut.set_exception(exc)

    def _handshake_received(self, data: bytes) -> None:
        self.incoming.write(data)
        self.shake()

    # -- after it ------------------------------------------------------------------------------------

    def _decrypt(self, data: bytes) -> None:  # hot: once per reply (python -m bench tls)
        incoming, c = self.incoming, self.c
        if data:
            incoming.write(data)
        chunks = []
        ended = False
        try:
            while incoming.pending or c.pending():
                chunk = c.read(READ_BYTES)
                if not chunk:  # close_notify from the server
                    ended = True
                    break
                chunks.append(chunk)
        except _AGAIN:  # a partial record, or a record that was no data (a session ticket)
            pass
        except ssl.SSLError as exc:  # a record that does not decrypt: the connection is over
            self.error = ConnectionResetError(f"TLS error: {exc}")
            self.raw.close()  # connection_lost follows, with this error
            return
        if self.backlog:
            self._retry()
        if self.outgoing.pending:  # the library answered something itself (a key update)
            self._flush()
        if chunks:
            self.app.data_received(chunks[0] if len(chunks) == 1 else b"".join(chunks))
        if ended and self.transport is not None:  # our close_notify in answer, then the connection closed
            self.transport.close()

    def _retry(self) -> None:
        backlog, self.backlog = self.backlog, []
        for data in backlog:
            try:
                self.c.write(data)
            except _AGAIN:
                self.backlog.append(data)

    def _flush(self) -> None:
        if self.outgoing.pending and not self.raw.is_closing():
            self.raw.write(self.outgoing.read())

    def eof_received(self) -> bool:
        return False  # the plain transport closes; connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        if self.handshaken is not None:
            self._finish(exc or ConnectionResetError("the server closed the connection during the TLS handshake"))
            return
        if self.transport is not None:
            self.transport._closing = True
            self.app.connection_lost(exc or self.error)

    def pause_writing(self) -> None:
        self.app.pause_writing()

    def resume_writing(self) -> None:
        self.app.resume_writing()

    def close(self) -> None:
        with contextlib.suppress(ssl.SSLError, ValueError):  # it waits for the server's close_notify: not worth it
            self.c.shutdown()
        self._flush()
        self.raw.close()


async def start_tls(raw: asyncio.Transport, app: asyncio.BaseProtocol, ctx: ssl.SSLContext,
                    server_hostname: str | None) -> TlsTransport:
    """The client TLS handshake on the open plain transport ``raw``; the transport that ``app``
    writes to (``app`` receives the decrypted data). Raises what the handshake raised (an
    ``ssl.SSLError``; ``ssl.SSLCertVerificationError`` for a certificate not trusted) or a
    ``ConnectionResetError`` when the server closed the connection during it. Unbounded in time:
    the caller bounds it (``asyncio.wait_for``)."""
    handshaken = asyncio.get_running_loop().create_future()
    layer = TlsLayer(app, ctx, server_hostname, raw, handshaken)
    raw.set_protocol(layer)
    layer.shake()
    try:
        await handshaken
    except BaseException:
        raw.close()
        raise
    assert layer.transport is not None
    return layer.transport


async def open_tls(factory, host: str, port: int, ctx: ssl.SSLContext) -> tuple[TlsTransport, Any]:
    """``loop.create_connection(factory, host, port, ssl=ctx)`` over :class:`TlsLayer`: the
    connection, the handshake (the certificate checked against ``host``), then the protocol's
    ``connection_made`` with the TLS transport."""
    loop = asyncio.get_running_loop()
    raw, proto = await loop.create_connection(factory, host, port)
    try:
        secure = await start_tls(raw, proto, ctx, host)
    except BaseException:
        raw.close()
        raise
    proto.connection_made(secure)
    return secure, proto


def negotiated(host: str, port: int, ctx: ssl.SSLContext, timeout_s: float = 5.0) -> str:
    """``TLSv1.3 TLS_AES_256_GCM_SHA384``: what one handshake with the server at ``host:port`` agrees
    with ``ctx`` (the context the engine's clients use): how a target's "encrypted" trait is known
    where the server itself does not say (Redis, FerretDB)."""
    import socket

    with socket.create_connection((host, port), timeout=timeout_s) as raw, \
            ctx.wrap_socket(raw, server_hostname=host) as s:
        cipher = s.cipher()
        return f"{s.version()} {cipher[0] if cipher else ''}".strip()
