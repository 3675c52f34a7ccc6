"""The PostgreSQL wire binding's reply parser: a reply cut anywhere by the reads gives the same
result as whole, and an error is read from its ErrorResponse (the server's own message format)."""

from __future__ import annotations

import asyncio
import struct

import pytest

from ycsbctl.stores.binding import ConnectionLost
from ycsbctl.stores.postgresql.wire import PASSWORD_ASKED, PgWireBinding, _PgProtocol, row_values


class Waiter:
    def __init__(self) -> None:
        self.result = None

    def done(self) -> bool:
        return self.result is not None

    def set_result(self, r) -> None:
        self.result = r


def _msg(t: bytes, body: bytes) -> bytes:
    return t + struct.pack(">i", len(body) + 4) + body


def _row(values: list[bytes]) -> bytes:
    return _msg(b"D", struct.pack(">h", len(values)) + b"".join(struct.pack(">i", len(v)) + v for v in values))


READ_REPLY = (_msg(b"2", b"") + _row([b"user1", b"a" * 100, b"b" * 7]) + _msg(b"C", b"SELECT 1\x00")
              + _msg(b"Z", b"I"))
ERROR_REPLY = (_msg(b"E", b"SERROR\x00C23505\x00Mduplicate key value violates unique constraint\x00\x00")
               + _msg(b"Z", b"I"))


def _parse(chunks: list[bytes]):
    p = _PgProtocol()
    w = Waiter()
    p.waiters.append(w)
    for c in chunks:
        p.data_received(c)
    return w.result, p


def test_a_reply_cut_at_any_byte_reads_as_the_whole_one():
    whole, _ = _parse([READ_REPLY])  # read by its ending
    assert (whole.rows, whole.tag, whole.error) == (1, b"SELECT 1", None)
    assert row_values(whole.first_row()) == [b"user1", b"a" * 100, b"b" * 7]
    for cut in range(1, len(READ_REPLY)):  # read message by message
        r, p = _parse([READ_REPLY[:cut], READ_REPLY[cut:]])
        assert (r.rows, r.first_row(), r.tag, r.error) == (whole.rows, whole.first_row(), whole.tag, whole.error), cut
        assert not p.buf and not p.waiters


def test_an_error_reply_carries_the_servers_message_and_sqlstate():
    r, _ = _parse([ERROR_REPLY])
    assert r.error == "duplicate key value violates unique constraint (SQLSTATE 23505)" and r.rows == 0


def test_replies_of_two_operations_in_one_read_go_to_their_own_waiters():
    p = _PgProtocol()
    a, b = Waiter(), Waiter()
    p.waiters.extend([a, b])
    p.data_received(ERROR_REPLY + READ_REPLY)
    assert a.result.error and b.result.rows == 1 and b.result.error is None


def test_a_reply_read_by_its_ending_says_what_walking_its_messages_says():
    for tag, rows in ((b"UPDATE 1", 0), (b"UPDATE 0", 0), (b"INSERT 0 1", 0), (b"SELECT 0", 0), (b"DELETE 1", 0)):
        reply = _msg(b"1", b"") + _msg(b"2", b"") + _msg(b"C", tag + b"\x00") + _msg(b"Z", b"I")
        fast, _ = _parse([reply])
        slow, _ = _parse([reply[:3], reply[3:]])
        assert (fast.rows, fast.tag, fast.error) == (slow.rows, slow.tag, slow.error) == (rows, tag, None)


def test_an_authentication_ok_is_passed_over_and_a_password_request_ends_the_start_up_at_once():
    ok = _msg(b"R", struct.pack(">i", 0)) + _msg(b"S", b"server_version\x0015\x00") + _msg(b"Z", b"I")
    r, _ = _parse([ok])
    assert r.error is None
    for code in (3, 5, 10):  # cleartext, MD5, SASL (SCRAM): the server then waits for the password, no Z comes
        r, p = _parse([_msg(b"R", struct.pack(">i", code) + (b"SCRAM-SHA-256\x00\x00" if code == 10 else b""))])
        assert r is not None and r.error == PASSWORD_ASKED and not p.waiters, code


def test_a_server_that_accepts_and_never_answers_is_named_as_such():
    async def main() -> str:
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)  # accepts, never writes
        port = server.sockets[0].getsockname()[1]
        try:
            with pytest.raises(ConnectionLost) as caught:
                await PgWireBinding(f"postgresql://ycsb@127.0.0.1:{port}/postgres", 0.2).connect()
            return str(caught.value)
        finally:
            server.close()

    assert asyncio.run(main()).endswith(": no answer (timed out)")  # was an empty reason
