"""Elasticsearch's REST pieces without a server: values and documents as JSON that ``json`` reads back to
the same text for every byte, requests framed as HTTP/1.1 frames them, a whole reply's status told by its
frame (and 0 for anything else), an error reply said in Elasticsearch's own words."""

from __future__ import annotations

import json

from ycsbctl.stores.elasticsearch.rest import Reply, document, json_string, request, whole_status


def test_every_byte_of_a_value_reads_back_through_json_as_the_same_text():
    for b in range(256):
        for v in (bytes((b,)), b"ab" + bytes((b,)) + b"cd"):
            assert json.loads(json_string(v)) == v.decode("latin-1"), v
    assert json_string(b'say "hi" \\o/') == b'"say \\"hi\\" \\\\o/"'
    assert json_string(b"plain 0x20-0x7F ~") == b'"plain 0x20-0x7F ~"'


def test_a_document_is_the_json_object_of_its_key_and_fields_in_order():
    names, values = [b"field0", b"field1"], [b'a"b', b"c\\d\x01"]
    doc = document(names, values, key=b"user1")
    assert list(json.loads(doc).items()) == [("key", "user1"), ("field0", 'a"b'), ("field1", "c\\d\x01")]
    assert json.loads(document(names, values)) == {"field0": 'a"b', "field1": "c\\d\x01"}
    assert document([], []) == b"{}"


def test_a_request_is_framed_as_http_1_1_frames_it():
    body = b'{"field0":"x"}'
    head, _, rest = request(b"PUT", b"/es.ycsb/_doc/user1", body).partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    headers = dict(line.split(b": ", 1) for line in lines[1:])
    assert lines[0] == b"PUT /es.ycsb/_doc/user1 HTTP/1.1" and rest == body
    assert headers == {b"Host": b"es", b"Content-Type": b"application/json", b"Content-Length": b"%d" % len(body)}
    assert request(b"GET", b"/es.ycsb") == b"GET /es.ycsb HTTP/1.1\r\nHost: es\r\n\r\n"


def _reply(status: int, body: bytes, reason: bytes = b"OK") -> bytes:
    return (b"HTTP/1.1 %d %b\r\ncontent-type: application/json; charset=UTF-8\r\ncontent-length: %d\r\n\r\n%b"
            % (status, reason, len(body), body))


def test_a_whole_replys_status_is_told_by_its_frame_and_anything_else_is_zero():
    for status in (200, 201, 404, 409, 429, 503):
        body = json.dumps({"result": "x" * status}).encode()
        data = _reply(status, body)
        assert whole_status(data) == status
        assert whole_status(data[:-1]) == 0 and whole_status(data + b"x") == 0  # part of one, more than one
        assert whole_status(data + data) == 0
        for cut in range(0, len(data) - len(body), 7):
            assert whole_status(data[:cut]) == 0, cut
    assert whole_status(_reply(200, b"")) == 200
    no_length = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
    assert whole_status(no_length) == 0
    assert whole_status(b"HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n") == 0
    body_says = b'{"a":"\\ncontent-length: 2"}'  # the words in the body, not in the head
    assert whole_status(b"HTTP/1.1 200 OK\r\nx: y\r\n\r\n" + body_says) == 0


def test_an_error_reply_says_elasticsearchs_type_and_reason_or_its_first_bytes():
    missing = {"error": {"type": "index_not_found_exception", "reason": "no such index [es.ycsb]"}, "status": 404}
    assert Reply(404, json.dumps(missing).encode()).error() == \
        "index_not_found_exception: no such index [es.ycsb] (HTTP 404)"
    assert Reply(502, b"<html>bad gateway</html>" + b"x" * 300).error() == \
        "HTTP 502: <html>bad gateway</html>" + "x" * 176
    assert Reply(400, b'{"error": "a plain string"}').error() == 'HTTP 400: {"error": "a plain string"}'
    assert Reply(500, b"").error() == "HTTP 500: " and Reply(200, b"").json() is None
    assert Reply(200, b'{"found": true}').json() == {"found": True}
