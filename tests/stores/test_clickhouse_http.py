"""ClickHouse's HTTP pieces without a server: a statement framed as HTTP/1.1 frames it, a chunked reply's
rows as http.client reads its body, a whole 200 reply's rows told by its frame (-1 for anything else), an
error said in the server's words without its C++ noise."""

from __future__ import annotations

from tests.fixtures.http_reference import http_client_reading
from ycsbctl.stores.clickhouse.http import Reply, quote, request, whole_rows
from ycsbctl.stores.http1 import parse


def _reply(status: bytes, body: bytes) -> bytes:
    chunked = (b"%x\r\n%b\r\n" % (len(body), body) if body else b"") + b"0\r\n\r\n"
    return b"HTTP/1.1 " + status + b"\r\nTransfer-Encoding: chunked\r\nKeep-Alive: timeout=3\r\n\r\n" + chunked


def test_a_statement_is_a_post_of_its_sql_framed_by_its_length():
    sql = b"SELECT * FROM usertable WHERE YCSB_KEY = 'user1'"
    head, _, body = request(b"/?database=ycsb", sql).partition(b"\r\n\r\n")
    assert head.split(b"\r\n") == [b"POST /?database=ycsb HTTP/1.1", b"Host: clickhouse",
                                   b"Content-Length: %d" % len(sql)]
    assert body == sql
    assert quote(b"o'reilly \\ co") == b"o\\'reilly \\\\ co" and quote(b"plain") == b"plain"


def test_a_whole_200_replys_rows_are_told_by_its_frame_as_http_client_reads_its_body():
    for body in (b"", b"user1\tvalue\n", b"a\n" * 50):
        data = _reply(b"200 OK", body)
        status, read = http_client_reading(data)
        r, used = parse(data, Reply)
        assert (r.status, r.body, used, r.rows()) == (status, read, len(data), read.count(b"\n"))
        assert whole_rows(data) == (1 if read else 0)
        for cut in range(1, len(data)):
            assert whole_rows(data[:cut]) == -1, cut
    assert whole_rows(_reply(b"404 Not Found", b"Code: 60")) == -1
    assert whole_rows(_reply(b"200 OK", b"x\n") + b"HTTP/1.1") == -1


def test_an_error_is_the_servers_message_without_its_cxx_noise_or_the_status_when_empty():
    text = (b"Code: 60, e.displayText() = DB::Exception: Table default.nope doesn't exist., "
            b"e.what() = DB::Exception\n")
    assert Reply(404, text).error() == "Code: 60, DB::Exception: Table default.nope doesn't exist."
    assert Reply(500, b"  \n").error() == "HTTP 500"
    assert Reply(400, b"Syntax error\n").error() == "Syntax error"


def test_a_read_built_from_its_cached_head_is_the_request_built_from_the_statement():
    from ycsbctl.stores.clickhouse.binding import ClickHouseBinding
    from ycsbctl.stores.clickhouse.layout import Statements

    sql = Statements("ycsb", [f"FIELD{i}" for i in range(10)])
    b = ClickHouseBinding("127.0.0.1", 8123, sql, 1.0)
    keys = [b"user1", b"user22", b"us'r3", b"us\\r4", b"user12345", b"o'reilly\\1", b"user67890"]
    for table in ("usertable", "other"):
        for key in keys * 2:  # the second time through, each key length's head is known
            built = request(sql.path, sql.read(table) % quote(key))
            assert b.read_request(table, key) == built, (table, key)
            assert built.endswith(b"'" + quote(key) + b"'")


def test_replies_reach_their_requests_and_only_an_unasked_errors_words_are_kept():
    from tests.fixtures.wire_waiter import Waiter, fed
    from ycsbctl.stores.clickhouse.binding import _Http

    rows, failed = _reply(b"200 OK", b"user1\tv\n"), _reply(b"404 Not Found", b"Code: 60, e.displayText() = no table")
    stream = rows + failed
    for cut in (1, 9, 40, len(rows), len(stream)):
        p = _Http()
        a, b = fed(p, stream, cut)
        assert (a.result.status, a.result.rows(), b.result.status, b.result.error()) == (200, 1, 404,
                                                                                         "Code: 60, no table")
        assert not p.waiters and not p.buf
    p = _Http()
    p.waiters.append(Waiter(done=True))
    p.data_received(rows + rows)  # the first to a request that timed out, the second to nothing: no words kept
    assert (p.late, p.stray, p.said) == (1, 1, None)
    p.data_received(failed)
    assert (p.stray, p.said) == (2, "Code: 60, no table")


def test_a_whole_clickhouse_reply_says_whether_it_has_rows_by_its_frame():
    from ycsbctl.stores.clickhouse.http import whole_rows

    head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-ClickHouse-Format: TSV\r\n\r\n"
    assert whole_rows(head + b"0\r\n\r\n") == 0  # an empty body: its last chunk alone
    assert whole_rows(head + b"6\r\nuser1\n\r\n0\r\n\r\n") == 1
    assert whole_rows(head + b"6\r\nuser1\n\r\n") == -1  # not whole yet
    assert whole_rows(b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") == -1
