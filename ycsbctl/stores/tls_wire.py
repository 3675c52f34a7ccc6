"""TLS for the wire bindings: the one place where the MongoDB wire, Redis, PostgreSQL and MariaDB
bindings open a TLS connection (:func:`open_tls`), upgrade a plain one (:func:`start_tls`), and learn
what a handshake agreed (:func:`negotiated`, the target's "encrypted" trait).

A connection opened here is OpenSSL reading and writing its socket itself
(:mod:`ycsbctl.stores.tls_socket`); an upgrade in place is the event loop's own TLS (``SSLProtocol``). The
first costs the engine's client less: at 64 threads on Redis, ``python -m bench tls`` read 13.3-14.2 µs
per operation over TLS with it against 15.5-16.3 with the loop's ``SSLProtocol`` (three pairs, plain
8.2-8.6 µs, load average 7-9). A layer calling OpenSSL over memory BIOs was tried before and dropped (it
saved 5 % in a one-connection ping-pong and nothing measurable in the engine). What TLS still costs is
OpenSSL's own work, two records per operation, and one more read of the socket per record (its header,
then the rest).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Callable, Iterator
from typing import Any

from ycsbctl.stores.tls_socket import open_socket_tls


@contextlib.contextmanager
def _said() -> Iterator[None]:
    """A server that closes during the handshake is an empty ``ConnectionResetError()`` from both
    loops: given words, so that the one line a user sees says what happened."""
    try:
        yield
    except ssl.SSLEOFError:  # OpenSSL's word for it (ycsbctl.stores.tls_socket)
        raise ConnectionResetError("the server closed the connection during the TLS handshake") from None
    except ConnectionResetError as exc:
        if exc.args:
            raise
        raise ConnectionResetError("the server closed the connection during the TLS handshake") from None


async def open_tls(factory: Callable[[], asyncio.BaseProtocol], host: str, port: int,
                   ctx: ssl.SSLContext) -> tuple[asyncio.Transport, Any]:
    """A TLS connection to ``host:port``: (transport, protocol) once the handshake is done, the
    server's certificate checked against ``host`` when ``ctx`` checks names. Raises what the
    handshake raised (``ssl.SSLCertVerificationError`` for a certificate not trusted, another
    ``ssl.SSLError`` for no TLS there), a ``ConnectionResetError`` when the server closed the connection
    during the handshake, or another ``OSError`` (no connection). The caller bounds the time
    (``asyncio.wait_for``); the loop's own handshake timeout is 60 s."""
    with _said():
        return await open_socket_tls(factory, host, port, ctx)


async def start_tls(raw: asyncio.WriteTransport, app: asyncio.BaseProtocol, ctx: ssl.SSLContext,
                    server_hostname: str | None) -> asyncio.Transport:
    """The client TLS handshake on the open plain transport ``raw`` (PostgreSQL and MariaDB switch a
    connection to TLS after a plain request): the transport ``app`` writes to from then on. As
    ``loop.start_tls``, it does not call ``app.connection_made``; it raises what :func:`open_tls`
    raises."""
    with _said():
        secure = await asyncio.get_running_loop().start_tls(raw, app, ctx, server_hostname=server_hostname)
    assert secure is not None  # None only for a server-side upgrade
    return secure


def negotiated(host: str, port: int, ctx: ssl.SSLContext, timeout_s: float = 5.0) -> str:
    """``TLSv1.3 TLS_AES_256_GCM_SHA384``: what one handshake with the server at ``host:port`` agrees
    with ``ctx`` (the context the engine's clients use): how a target's "encrypted" trait is known
    where the server itself does not say (Redis, FerretDB)."""
    import socket

    with socket.create_connection((host, port), timeout=timeout_s) as raw, \
            ctx.wrap_socket(raw, server_hostname=host) as s:
        cipher = s.cipher()
        return f"{s.version()} {cipher[0] if cipher else ''}".strip()


def answers_tls(host: str, port: int, timeout_s: float = 5.0) -> bool:
    """Whether the server at ``host:port`` answers a TLS handshake (its certificate not checked): how a plain
    connection it closed is told from a TLS-only server's (which closes a plain client too) and from another
    kind of server's (PostgreSQL closes a connection whose first bytes are no startup packet)."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    try:
        negotiated(host, port, ctx, timeout_s)
    except ssl.SSLError as exc:
        return "ALERT" in (exc.reason or "").upper()  # the server's TLS alert: it speaks TLS, and refused ours
    except OSError:
        return False
    return True
