"""The wire bindings' TLS layer (``ycsbctl.stores.tls_wire``) against a real TLS server on loopback
(asyncio's own, with a certificate from ycsbctl's CA): every byte the server sends arrives once and in
order whether its records come many to a read or one split over several reads; what the client writes
reaches the server; a certificate the client does not trust fails the handshake with OpenSSL's own
exception; a server that closes during the handshake is a ConnectionResetError."""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path

import pytest

from ycsbctl.provision.tls import certificates
from ycsbctl.stores.tls_wire import TlsTransport, open_tls

BIG = bytes(range(256)) * 400  # 100 KiB: seven TLS records, each split over several reads


class Collect(asyncio.Protocol):
    def __init__(self) -> None:
        self.got = bytearray()
        self.reads = 0
        self.transport: asyncio.BaseTransport | None = None
        self.lost = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.got += data
        self.reads += 1

    def connection_lost(self, exc: Exception | None) -> None:
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


def test_every_byte_arrives_once_in_order_however_the_records_fall(tmp_path: Path) -> None:
    server_ctx, client_ctx = _contexts(tmp_path)
    heard = bytearray()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        heard.extend(await reader.readexactly(5))
        for i in range(200):  # 200 small records written at once: many to one read of the client
            writer.write(b"%03d;" % i)
        writer.write(BIG)  # records of 16 KiB: each over several reads
        await writer.drain()
        heard.extend(await reader.readexactly(3))
        writer.close()

    async def go() -> tuple[bytes, int]:
        server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=server_ctx)
        port = server.sockets[0].getsockname()[1]
        try:
            transport, proto = await open_tls(Collect, "127.0.0.1", port, client_ctx)
            assert isinstance(transport, TlsTransport) and proto.transport is transport
            assert transport.get_extra_info("ssl_object").version().startswith("TLSv1.")
            transport.write(b"hello")
            await _until(lambda: len(proto.got) >= 800 + len(BIG))
            transport.write(b"bye")
            await asyncio.wait_for(proto.lost, 5.0)  # the server closed: told once
            return bytes(proto.got), proto.reads
        finally:
            server.close()
            await server.wait_closed()

    got, reads = asyncio.run(go())
    assert got == b"".join(b"%03d;" % i for i in range(200)) + BIG
    assert bytes(heard) == b"hellobye"
    assert reads < 200 + 7  # records came several to a read (the layer joined them)


def test_an_untrusted_certificate_fails_the_handshake_with_openssl_s_own_error(tmp_path: Path) -> None:
    server_ctx, _ = _contexts(tmp_path)
    stranger = ssl.create_default_context(cafile="/etc/ssl/certs/ca-certificates.crt")

    async def go() -> None:
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0, ssl=server_ctx)
        try:
            await open_tls(Collect, "127.0.0.1", server.sockets[0].getsockname()[1], stranger)
        finally:
            server.close()

    with pytest.raises(ssl.SSLCertVerificationError, match="CERTIFICATE_VERIFY_FAILED"):
        asyncio.run(go())


def test_a_server_that_closes_during_the_handshake_is_a_connection_reset(tmp_path: Path) -> None:
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

    with pytest.raises(ConnectionResetError, match="closed the connection during the TLS handshake"):
        asyncio.run(go())
