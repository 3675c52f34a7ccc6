"""The HTTP/1.1 reply reader (stores/http1.py) against Python's own ``http.client``: a reply framed by its
length or chunked (with chunk extensions, chunks of every size) gives the status and body http.client
reads, takes exactly its own bytes (the next reply follows), and is None until it is whole."""

from __future__ import annotations

import pytest

from tests.fixtures.http_reference import http_client_reading
from ycsbctl.stores.http1 import HttpReply, parse


def _chunked(body: bytes, sizes: list[int], ext: bool = False) -> bytes:
    out, pos = [], 0
    for n in sizes:
        out.append(b"%x%b\r\n%b\r\n" % (n, b";name=v" if ext else b"", body[pos:pos + n]))
        pos += n
    return b"".join(out) + b"0\r\n\r\n"


BODY = bytes(range(256)) * 20  # 5,120 bytes, CR and LF among them
REPLIES = [
    b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY,
    b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n",
    b"HTTP/1.1 201 Created\r\nX-A: 1\r\nCONTENT-LENGTH: 3\r\n\r\nabc",
    b"HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n" + _chunked(BODY,
                                                                                           [1, 16, 255, 4096, 752]),
    b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nX-B: 2\r\n\r\n" + _chunked(BODY[:300], [300], ext=True),
    b"HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
]


@pytest.mark.parametrize("data", REPLIES, ids=range(len(REPLIES)))
def test_a_reply_is_read_as_http_client_reads_it_taking_its_own_bytes_and_none_until_whole(data):
    status, body = http_client_reading(data)
    r, used = parse(data + REPLIES[1], HttpReply)
    assert (r.status, r.body, used) == (status, body, len(data))
    alone, used = parse(data, HttpReply)  # nothing after it: its last byte is the buffer's
    assert (alone.status, alone.body, used) == (status, body, len(data))  # type: ignore[union-attr]
    for cut in range(len(data)):
        assert parse(data[:cut], HttpReply) == (None, 0), cut


def test_a_reply_without_a_length_has_an_empty_body():
    data = b"HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n\r\n"
    r, used = parse(data + b"HTTP/1.1 404", HttpReply)
    assert (r.status, r.body, used) == (200, b"", len(data))


def test_a_chunked_reply_is_whole_only_with_its_last_chunk_and_its_crlf():
    whole = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
    reply, used = parse(whole + b"HTTP/1.1 ...", HttpReply)
    assert reply is not None and (reply.status, reply.body, used) == (200, b"hello world", len(whole))
    for cut in range(len(whole) - 1, 40, -1):  # every shorter prefix, down into the head
        assert parse(whole[:cut], HttpReply) == (None, 0), cut


@pytest.mark.parametrize("host", ["127.0.0.1", "::1"])
def test_a_requests_host_header_is_the_one_http_client_sends_an_ipv6_address_in_brackets(host):
    """``request`` names its server in the Host header as Python's ``http.client`` does (RFC 9112 §3.2 and
    RFC 3986: an IPv6 literal in brackets, ``[::1]:port``; an IPv4 one bare), as a real server on loopback
    receives them."""
    import http.client
    import socket
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from ycsbctl.stores.http1 import request

    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(str(self.headers["Host"]))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    class Server(ThreadingHTTPServer):
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET

    try:
        made = Server((host, 0), Handler)
    except OSError as exc:  # a host without an IPv6 loopback
        pytest.skip(f"cannot listen on {host} here ({exc.strerror})")
    with made as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            port = server.server_address[1]
            reference = http.client.HTTPConnection(host, port, timeout=5)
            reference.request("GET", "/")
            assert reference.getresponse().status == 204
            reference.close()
            assert request(host, port, "GET", "/").status == 204
        finally:
            server.shutdown()
    assert seen[0] == (f"[{host}]:{port}" if ":" in host else f"{host}:{port}")  # as RFC 9112 writes it
    assert seen[1] == seen[0]
