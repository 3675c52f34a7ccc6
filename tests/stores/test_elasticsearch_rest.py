"""Elasticsearch's REST pieces without a server: values and documents as JSON that ``json`` reads back to
the same text for every byte, requests framed as HTTP/1.1 frames them, a whole reply's status told by its
frame (and 0 for anything else), an error reply said in Elasticsearch's own words."""

from __future__ import annotations

import json

from tests.fixtures.wire_waiter import Waiter, fed
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


# -- the binding's requests, statuses and reply framing (stores/elasticsearch/binding.py) --------------------

def _split(req: bytes) -> tuple[bytes, dict[bytes, bytes], bytes]:
    head, _, body = req.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    headers = dict(line.split(b": ", 1) for line in lines[1:])
    assert int(headers.get(b"Content-Length", b"0")) == len(body)
    return lines[0], headers, body


def test_the_bindings_requests_are_ycsbs_document_api_calls():
    from ycsbctl.stores.elasticsearch.binding import ElasticsearchBinding

    b = ElasticsearchBinding("127.0.0.1", 9200, "es.ycsb", 1.0)
    assert _split(b.read_request("usertable", b"user1"))[0] == b"GET /es.ycsb/usertable/user1 HTTP/1.1"
    line, _, body = _split(b.insert_request("usertable", b"user1", [b"field0", b"field1"], [b'a"', b"b"]))
    assert line == b"PUT /es.ycsb/usertable/user1/_create HTTP/1.1"
    assert json.loads(body) == {"key": "user1", "field0": 'a"', "field1": "b"}
    line, _, body = _split(b.update_request("other", b"user2", [b"field3"], [b"x\\y"]))
    assert line == b"POST /es.ycsb/other/user2/_update?retry_on_conflict=5 HTTP/1.1"
    assert json.loads(body) == {"doc": {"field3": "x\\y"}}


def test_each_operations_status_is_what_the_document_apis_http_status_says():
    from ycsbctl.stores.elasticsearch.binding import ERROR, NOT_FOUND, OK, ElasticsearchBinding
    from ycsbctl.workload.core import DELETE, INSERT, READ, UPDATE

    b = ElasticsearchBinding("127.0.0.1", 9200, "es.ycsb", 1.0)
    conflict = json.dumps({"error": {"type": "version_conflict_engine_exception", "reason": "exists"}}).encode()
    cases = [(READ, 200, OK), (READ, 404, NOT_FOUND), (INSERT, 201, OK), (INSERT, 409, ERROR), (INSERT, 404, ERROR),
             (UPDATE, 200, OK), (UPDATE, 404, NOT_FOUND), (DELETE, 200, OK), (DELETE, 404, NOT_FOUND),
             (READ, 201, ERROR)]
    for op, http, want in cases:
        b.last_error = None
        assert b.status(op, Reply(http, conflict)) == want, (op, http)
        assert (b.last_error == "Elasticsearch: version_conflict_engine_exception: exists (HTTP "
                                f"{http})") is (want == ERROR)


def test_replies_reach_their_requests_however_the_bytes_are_cut():
    from ycsbctl.stores.elasticsearch.binding import _Rest

    found = _reply(200, b'{"_source": {"field0": "a"}}')
    missing = _reply(404, b'{"found": false}', b"Not Found")
    stream = found + missing
    for cut in (1, 10, 50, len(found), len(stream)):
        p = _Rest()
        a, b = fed(p, stream, cut)
        assert (a.result.status, a.result.json(), b.result.status) == (200, {"_source": {"field0": "a"}}, 404), cut
        assert not p.buf and not p.waiters
    p = _Rest()
    p.waiters.append(Waiter(done=True))
    refused = _reply(429, b'{"error": {"type": "es_rejected_execution_exception", "reason": "queue full"}}')
    p.data_received(found + refused)  # the first to a request that timed out, the second to nothing
    assert (p.late, p.stray, p.said) == (1, 1, "es_rejected_execution_exception: queue full (HTTP 429)")
    p = _Rest()
    p.data_received(_reply(400, b'{"error": {"type": "parse_exception", "reason": "bad"}}'))  # 400 is an error too
    assert p.said == "parse_exception: bad (HTTP 400)"
    p.data_received(_reply(200, b"{}"))  # an unasked success: counted, nothing said
    assert (p.stray, p.said) == (2, "parse_exception: bad (HTTP 400)")
