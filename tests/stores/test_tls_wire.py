"""The wire bindings' TLS seam (``ycsbctl.stores.tls_wire``: OpenSSL on the socket for a connection it
opens, the event loop's own TLS for an upgrade) against a real TLS server on loopback (asyncio's, with a
certificate from ycsbctl's CA), on both loops the engine may run (asyncio's and uvloop's): every byte
the server sends arrives once and in order, each record's plaintext whole in one read or records many to
a read; what the client writes reaches the server, in order, also when the socket cannot take it at
once; a close is told once and a write after it dropped; a plain connection upgraded in place (PostgreSQL's and
MariaDB's way) carries the same; a certificate the client does not trust fails the handshake with OpenSSL's own
exception; a server that closes during the handshake is a ConnectionResetError that says so, at once."""

from __future__ import annotations

import asyncio
import socket
import ssl
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
import uvloop

from ycsbctl.provision.tls import certificates
from ycsbctl.stores.tls_socket import READ_BYTES
from ycsbctl.stores.tls_wire import negotiated, open_tls, start_tls

BIG = bytes(range(256)) * 400  # 100 KiB: seven TLS records, each split over several reads
SMALL = b"".join(b"%03d;" % i for i in range(200))

Runner = Callable[[Coroutine[Any, Any, Any]], Any]
LOOPS = pytest.mark.parametrize("run", [asyncio.run, uvloop.run], ids=["asyncio", "uvloop"])


class Collect(asyncio.Protocol):
    def __init__(self) -> None:
        self.got = bytearray()
        self.reads = 0
        self.losses = 0
        self.transport: asyncio.BaseTransport | None = None
        self.lost = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.got += data
        self.reads += 1
        self.largest = max(getattr(self, "largest", 0), len(data))

    def connection_lost(self, exc: Exception | None) -> None:
        self.losses += 1
        if not self.lost.done():
            self.lost.set_result(exc)


async def _until(cond, timeout_s: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while not cond():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.005)


def _contexts(tmp_path: Path) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    certs = certificates(tmp_path / "tls")
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(certs.cert_file, certs.key_file)
    return server, ssl.create_default_context(cafile=certs.ca_file)


async def _talk(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, heard: bytearray) -> None:
    """The server's side once TLS is on: 200 small records at once, then seven of 16 KiB."""
    heard.extend(await reader.readexactly(5))
    for i in range(200):  # 200 small records written at once: many to one read of the client
        writer.write(b"%03d;" % i)
    writer.write(BIG)  # records of 16 KiB: each over several reads
    await writer.drain()
    heard.extend(await reader.readexactly(3))
    writer.close()


async def _client_side(transport: Any, proto: Collect) -> tuple[bytes, int, int, int]:
    assert proto.transport is transport
    assert transport.get_extra_info("ssl_object").version().startswith("TLSv1.")
    transport.write(b"hello")
    await _until(lambda: len(proto.got) >= len(SMALL) + len(BIG))
    transport.write(b"bye")
    await asyncio.wait_for(proto.lost, 5.0)  # the server closed
    await asyncio.sleep(0.05)
    return bytes(proto.got), proto.reads, proto.losses, proto.largest


@LOOPS
def test_every_byte_arrives_once_in_order_however_the_records_fall(tmp_path: Path, run: Runner) -> None:
    server_ctx, client_ctx = _contexts(tmp_path)
    heard = bytearray()

    async def go() -> tuple[bytes, int, int, int]:
        server = await asyncio.start_server(lambda r, w: _talk(r, w, heard), "127.0.0.1", 0, ssl=server_ctx)
        try:
            transport, proto = await open_tls(Collect, "127.0.0.1", server.sockets[0].getsockname()[1], client_ctx)
            return await _client_side(transport, proto)
        finally:
            server.close()
            await server.wait_closed()

    got, reads, losses, largest = run(go())
    assert got == SMALL + BIG
    assert bytes(heard) == b"hellobye"
    # OpenSSL reads the socket itself: one record's plaintext per read, never more, each whole
    assert largest == READ_BYTES == 2**14 and reads >= 200 + len(BIG) // READ_BYTES
    assert losses == 1  # the close told once


@LOOPS
def test_a_plain_connection_upgraded_in_place_carries_the_same(tmp_path: Path, run: Runner) -> None:
    """PostgreSQL's and MariaDB's way: a plain request, a plain answer, then TLS on that connection."""
    server_ctx, client_ctx = _contexts(tmp_path)
    heard = bytearray()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        heard.extend(await reader.readexactly(9))  # "STARTTLS\n" in clear
        writer.write(b"S")
        await writer.drain()
        await writer.start_tls(server_ctx)
        await _talk(reader, writer, heard)

    async def go() -> tuple[bytes, int, int, int, bytes]:
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        try:
            plain, proto = await asyncio.get_running_loop().create_connection(
                Collect, "127.0.0.1", server.sockets[0].getsockname()[1])
            plain.write(b"STARTTLS\n")
            await _until(lambda: bytes(proto.got) == b"S")
            proto.got.clear()
            secure = await start_tls(plain, proto, client_ctx, "127.0.0.1")
            proto.connection_made(secure)  # start_tls does not call it, as loop.start_tls does not
            got, reads, losses, largest = await _client_side(secure, proto)
            return got, reads, losses, largest, bytes(heard[:9])
        finally:
            server.close()
            await server.wait_closed()

    got, reads, losses, largest, first = run(go())
    assert first == b"STARTTLS\n"
    assert got == SMALL + BIG
    assert bytes(heard[9:]) == b"hellobye"
    assert reads < 200 + 7 and largest > READ_BYTES  # the loop's TLS: records come several to a read
    assert losses == 1


@LOOPS
def test_an_untrusted_certificate_fails_the_handshake_with_openssl_s_own_error(tmp_path: Path, run: Runner) -> None:
    server_ctx, _ = _contexts(tmp_path)
    stranger = ssl.create_default_context(cafile="/etc/ssl/certs/ca-certificates.crt")

    async def go() -> None:
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0, ssl=server_ctx)
        try:
            await open_tls(Collect, "127.0.0.1", server.sockets[0].getsockname()[1], stranger)
        finally:
            server.close()

    with pytest.raises(ssl.SSLCertVerificationError, match="CERTIFICATE_VERIFY_FAILED"):
        run(go())


@LOOPS
def test_a_server_that_closes_during_the_handshake_is_a_connection_reset_that_says_so(tmp_path: Path,
                                                                                      run: Runner) -> None:
    _, client_ctx = _contexts(tmp_path)

    async def go() -> None:
        async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.read(1)  # the ClientHello's first byte, then gone
            writer.close()

        server = await asyncio.start_server(hang_up, "127.0.0.1", 0)  # plain: no TLS there
        try:
            await open_tls(Collect, "127.0.0.1", server.sockets[0].getsockname()[1], client_ctx)
        finally:
            server.close()

    started = time.monotonic()
    with pytest.raises(ConnectionResetError, match="^the server closed the connection during the TLS handshake$"):
        run(go())
    # at once, not after the loop's handshake timeout (asyncio's and uvloop's: SSL_HANDSHAKE_TIMEOUT, 60 s)
    assert time.monotonic() - started < asyncio.constants.SSL_HANDSHAKE_TIMEOUT / 2


def test_negotiated_says_what_the_handshake_agreed(tmp_path: Path) -> None:
    """The 'encrypted' trait's probe, checked against what the server's own side of it saw."""
    server_ctx, client_ctx = _contexts(tmp_path)
    seen: list[tuple[str, str]] = []

    async def go() -> str:
        async def note(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            obj = writer.get_extra_info("ssl_object")
            seen.append((obj.version(), obj.cipher()[0]))
            writer.close()

        server = await asyncio.start_server(note, "127.0.0.1", 0, ssl=server_ctx)
        try:
            port = server.sockets[0].getsockname()[1]
            said = await asyncio.to_thread(negotiated, "127.0.0.1", port, client_ctx)
            await _until(lambda: bool(seen))
            return said
        finally:
            server.close()

    said = asyncio.run(go())
    assert said == " ".join(seen[0])


@LOOPS
def test_what_the_socket_cannot_take_at_once_is_sent_later_in_order(tmp_path: Path, run: Runner) -> None:
    """8 MiB written to a server that reads nothing for a while (the socket's buffers fill, OpenSSL asks
    for its write again), then more writes: the server reads every byte once, in the order written."""
    server_ctx, client_ctx = _contexts(tmp_path)
    big = bytes(range(251)) * (8 * 2**20 // 251)  # 251: no period of a power of two, a misplaced block shows
    heard = bytearray()

    async def go() -> tuple[int, int, int]:
        go_on = asyncio.Event()

        async def slow(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await go_on.wait()
            heard.extend(await reader.readexactly(len(big) + 10))
            writer.close()

        server = await asyncio.start_server(slow, "127.0.0.1", 0, ssl=server_ctx)
        try:
            transport, proto = await open_tls(Collect, "127.0.0.1", server.sockets[0].getsockname()[1], client_ctx)
            transport.write(big)
            waiting = transport.get_write_buffer_size()
            transport.write(b"0123")
            transport.write(b"456789")
            queued = transport.get_write_buffer_size()
            go_on.set()
            await asyncio.wait_for(proto.lost, 10.0)
            return waiting, queued, transport.get_write_buffer_size()
        finally:
            server.close()

    waiting, queued, left = run(go())
    assert bytes(heard) == big + b"0123456789"
    assert waiting == len(big) and queued == len(big) + 10  # held (not dropped) until the socket took them
    assert left == 0


@LOOPS
def test_close_is_told_once_and_a_write_after_it_goes_nowhere(tmp_path: Path, run: Runner) -> None:
    server_ctx, client_ctx = _contexts(tmp_path)
    heard = bytearray()

    async def go() -> tuple[int, bool, Any]:
        ended = asyncio.get_running_loop().create_future()

        async def listen(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            heard.extend(await reader.read())  # until the client's end of the stream
            ended.set_result(None)

        server = await asyncio.start_server(listen, "127.0.0.1", 0, ssl=server_ctx)
        try:
            transport, proto = await open_tls(Collect, "127.0.0.1", server.sockets[0].getsockname()[1], client_ctx)
            # requests go out at once, not held for the previous one's ACK (Nagle's algorithm off, as the loop's)
            assert transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1
            assert transport.get_extra_info("peername") is None  # what it does not keep: the default
            transport.write(b"before")
            await asyncio.sleep(0.05)
            transport.close()
            transport.write(b"after")
            transport.close()
            exc = await asyncio.wait_for(proto.lost, 5.0)
            await asyncio.wait_for(ended, 5.0)
            await asyncio.sleep(0.02)
            return proto.losses, transport.is_closing(), exc
        finally:
            server.close()

    losses, closing, exc = run(go())
    assert bytes(heard) == b"before"
    assert (losses, closing, exc) == (1, True, None)


@LOOPS
def test_nothing_listening_is_a_refused_connection_at_once(tmp_path: Path, run: Runner) -> None:
    _, client_ctx = _contexts(tmp_path)
    with socket.socket() as s:  # a port just freed: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ConnectionRefusedError):
        run(open_tls(Collect, "127.0.0.1", port, client_ctx))


def test_a_server_answers_tls_when_it_completes_or_refuses_our_handshake_with_an_alert_not_otherwise(
        tmp_path: Path) -> None:
    """How a TLS-only server is told from another (Redis's "may speak TLS" hint): a handshake done (its certificate
    not checked), or one it refused with a TLS alert (OpenSSL's own, sent when the server's name callback fails),
    is TLS; bytes that are no TLS record, or no server, are not."""
    import contextlib
    import socket
    import threading

    from tests.fixtures.servers import free_port
    from ycsbctl.stores.tls_wire import answers_tls

    server_ctx, _ = _contexts(tmp_path)
    refusing = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    certs = certificates(tmp_path / "tls")  # made by _contexts: read again
    refusing.load_cert_chain(certs.cert_file, certs.key_file)
    refusing.sni_callback = lambda *_: ssl.ALERT_DESCRIPTION_HANDSHAKE_FAILURE

    def serve_once(answer: Callable[[socket.socket], Any]) -> tuple[int, threading.Thread]:
        listener = socket.create_server(("127.0.0.1", 0))

        def one() -> None:
            conn, _ = listener.accept()
            with listener, conn, contextlib.suppress(OSError):  # (ssl.SSLError too): the handshake refused
                answer(conn)

        t = threading.Thread(target=one, daemon=True)
        t.start()
        return listener.getsockname()[1], t

    def handshake(ctx: ssl.SSLContext) -> Callable[[socket.socket], Any]:
        return lambda conn: ctx.wrap_socket(conn, server_side=True).recv(1)

    def plain(conn: socket.socket) -> None:
        conn.recv(1)
        conn.sendall(b"-ERR unknown command\r\n")  # a plain RESP server's answer

    served = [serve_once(a) for a in (handshake(server_ctx), handshake(refusing), plain)]
    got = [answers_tls("127.0.0.1", port, 5.0) for port, _ in served] + [answers_tls("127.0.0.1", free_port(), 5.0)]
    for _, t in served:
        t.join(5)
    assert got == [True, True, False, False]
